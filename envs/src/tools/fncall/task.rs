//! The config and task of `tools/fncall`.

use serde::{Deserialize, Serialize};

use super::world::{ApiFn, World};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FncallConfig {
    pub modules: usize,
    pub parts: usize,
    pub infeasible_share: f64,
}

impl Default for FncallConfig {
    fn default() -> Self {
        FncallConfig {
            modules: 3,
            parts: 2,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FncallTask {
    pub request: String,
    pub apis: Vec<ApiFn>,
    pub initial: World,
    /// The world after the gold calls.
    pub expected: World,
    pub answer: String,
    /// The gold calls (Hermes text), without the final answer.
    pub gold: Vec<String>,
    pub feasible: bool,
}
