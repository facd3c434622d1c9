//! Pure checking functions for verigym: no env state, no I/O.
//!
//! Every function here is a reward function or part of one, so each takes
//! bounded work on any input, never panics on model text, and never treats
//! model text as code. `answer` removes the reasoning and extracts a final answer
//! from a response (the one place that knows what reasoning looks like); `numeric`
//! parses exact numbers; `grid`, `countdown` and `sat` read and check puzzle answers;
//! `math` decides whether two math answers are equivalent.
//!
//! ```
//! use verigym_verifiers::{answer::final_answer, numeric::parse_exact_number};
//! let answer = final_answer("<think>3/2? no.</think> Adding them gives \\boxed{-7/3}.").unwrap();
//! assert_eq!(parse_exact_number(&answer), parse_exact_number("\\frac{-14}{6}"));
//! ```

pub mod answer;
pub mod countdown;
pub mod grid;
pub mod math;
pub mod numeric;
pub mod sat;
