//! Logic envs: SAT, puzzles and multi-turn deduction.

pub mod futoshiki;
pub mod guess_number;
pub mod mini_sudoku;
pub mod puzzle;
pub mod sat;
pub mod solvers;
pub mod sudoku;
