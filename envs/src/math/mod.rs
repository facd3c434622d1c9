//! Math envs: single-turn questions with exact answers.

pub mod arithmetic;
