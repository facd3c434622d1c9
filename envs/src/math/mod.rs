//! Math envs: single-turn questions with exact answers.
//!
//! Every env here is a [`crate::single_turn::Question`] on the single-turn
//! base. `arithmetic` implements it directly (its own final-answer check);
//! the others are [`question::MathEnv`]s and differ only in their task
//! generator ([`question::Family`]) and answer form ([`forms::Form`]).
//!
//! - [`question`]: the math question on the base: prompt, boxed-answer
//!   check, generation-time rejection.
//! - [`forms`]: the answer shapes and the exact-decimal rule.
//! - [`latex`]: LaTeX writing and number helpers for the generators.

pub mod arithmetic;
pub mod base_conversion;
pub mod complex;
pub mod coordinate_geometry;
pub mod counting;
pub mod crt;
pub mod dataset;
pub mod definite_integral;
pub mod derivative;
pub mod determinant;
pub mod diophantine;
pub mod effort;
pub mod eigenvalues;
pub mod forms;
pub mod fractions;
pub mod gcd_lcm;
pub mod inclusion_exclusion;
pub mod inequality;
pub mod latex;
pub mod limits;
pub mod linear_equation;
pub mod linear_system;
pub mod matrix;
pub mod matrix_inverse;
pub mod modular;
pub mod order_of_operations;
pub mod polynomial_expand;
pub mod polynomial_factor;
pub mod prime_factorization;
pub mod probability;
pub mod quadratic;
pub mod question;
pub mod rational_simplify;
pub mod recurrence;
pub mod sequence;
pub mod series;
pub mod statistics;
#[cfg(test)]
pub mod testing;
pub mod word_problems;
