//! Games: N-player, turn-based or simultaneous, possibly hidden information.

pub mod cfr;
pub mod common;
pub mod kuhn_poker;
pub mod tictactoe;
