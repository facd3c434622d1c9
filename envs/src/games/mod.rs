//! Games: N-player, turn-based or simultaneous, possibly hidden information.

pub mod battleship;
pub mod blotto;
pub mod breakthrough;
pub mod cfr;
pub mod checkers;
pub mod common;
pub mod connect_four;
pub mod dots_and_boxes;
pub mod goofspiel;
pub mod hex;
pub mod kuhn_poker;
pub mod leduc_poker;
pub mod liars_dice;
pub mod negotiation;
pub mod nim;
pub mod othello;
pub mod pig;
pub mod prisoners_dilemma;
pub mod tictactoe;
