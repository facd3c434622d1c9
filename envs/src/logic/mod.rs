//! Logic envs: SAT, puzzles and multi-turn deduction.

pub mod guess_number;
