//! One measured figure of a trained policy: what the game evaluations
//! return and what a training report lists for games and text alike.

use serde::Serialize;

/// One measured figure.
#[derive(Clone, Debug, Serialize)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    /// Games behind it (0 for exact figures).
    pub games: usize,
}
