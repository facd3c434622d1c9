//! Logic envs: SAT, puzzles and multi-turn deduction.

pub mod bin_packing;
pub mod binairo;
pub mod countdown;
pub mod cryptarithm;
pub mod futoshiki;
pub mod game24;
pub mod game_of_life;
pub mod graph_coloring;
pub mod guess_number;
pub mod hanoi;
pub mod kakurasu;
pub mod knights_knaves;
pub mod latin_square;
pub mod mastermind;
pub mod maze;
pub mod mini_sudoku;
pub mod n_queens;
pub mod puzzle;
pub mod sat;
pub mod skyscrapers;
pub mod sliding_puzzle;
pub mod solvers;
pub mod subset_sum;
pub mod sudoku;
pub mod water_jugs;
pub mod zebra;
