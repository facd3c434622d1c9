//! Our own solvers for the logic envs: iterative, allocation-light, and
//! each able to count solutions up to a limit (limit 2 decides uniqueness).

pub mod arith;
pub mod cfg;
pub mod fol;
pub mod latin;
pub mod logistics;
pub mod plan;
pub mod regex;
pub mod sat;
pub mod zebra;
