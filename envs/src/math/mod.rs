//! Math envs: single-turn questions with exact answers.
//!
//! `arithmetic` is the reference env written out in full; the others share
//! [`common::MathEnv`] and differ only in their task generator and answer form.

pub mod arithmetic;
pub mod base_conversion;
pub mod common;
pub mod counting;
pub mod definite_integral;
pub mod derivative;
pub mod effort;
pub mod fractions;
pub mod gcd_lcm;
pub mod inequality;
pub mod linear_equation;
pub mod linear_system;
pub mod matrix;
pub mod modular;
pub mod order_of_operations;
pub mod polynomial_expand;
pub mod polynomial_factor;
pub mod prime_factorization;
pub mod probability;
pub mod quadratic;
pub mod rational_simplify;
pub mod sequence;
#[cfg(test)]
pub mod testing;
pub mod word_problems;
