//! Games: N-player, turn-based or simultaneous, possibly hidden information.

pub mod tictactoe;
