//! Game checkpoints: one JSON file holding the env id, the codec, how the
//! agent picks moves, and the network weights (`game::agent::NetAgent`
//! plays one through the episode driver).

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::AgentError;
use crate::game::codec::GameCodec;
use crate::game::policy_value_net::NetWeights;

/// Marks the file format; bump on incompatible changes.
pub const FORMAT: &str = "verigym-agent/1";

/// How a game agent turns its policy into a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    /// The most probable legal move (perfect-information games).
    Greedy,
    /// A draw from the policy, seeded per episode (hidden-information games,
    /// where a mixed strategy is the point).
    Sample,
}

/// A trained game policy as stored on disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameCheckpoint {
    pub format: String,
    pub env_id: String,
    pub codec: GameCodec,
    pub play: Play,
    /// The training call that produced it, for the record.
    pub trained_with: String,
    pub weights: NetWeights,
}

impl GameCheckpoint {
    /// Writes the checkpoint as compact JSON.
    ///
    /// # Errors
    /// [`AgentError::Io`] when the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), AgentError> {
        let text = serde_json::to_string(self).map_err(|e| AgentError::BadCheckpoint {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        std::fs::write(path, text).map_err(|e| AgentError::io(path, e))
    }

    /// Reads and checks a checkpoint.
    ///
    /// # Errors
    /// [`AgentError::Io`] or [`AgentError::BadCheckpoint`] (wrong format,
    /// weights that do not fit the codec).
    pub fn load(path: &Path) -> Result<GameCheckpoint, AgentError> {
        let text = std::fs::read_to_string(path).map_err(|e| AgentError::io(path, e))?;
        let bad = |message: String| AgentError::BadCheckpoint {
            path: path.to_path_buf(),
            message,
        };
        let checkpoint: GameCheckpoint =
            serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if checkpoint.format != FORMAT {
            return Err(bad(format!(
                "format `{}`, expected `{FORMAT}`",
                checkpoint.format
            )));
        }
        checkpoint.weights.validate().map_err(bad)?;
        let shape = checkpoint.weights.shape;
        let codec = checkpoint.codec;
        if shape.inputs != codec.input_size() || shape.actions != codec.num_actions() {
            return Err(bad(format!(
                "network {}→{} does not fit {:?} ({}→{})",
                shape.inputs,
                shape.actions,
                codec,
                codec.input_size(),
                codec.num_actions()
            )));
        }
        Ok(checkpoint)
    }
}

/// Greedy for perfect-information games, sampled where mixing matters.
pub fn default_play(codec: GameCodec) -> Play {
    match codec {
        GameCodec::KuhnPoker => Play::Sample,
        GameCodec::TicTacToe | GameCodec::ConnectFour => Play::Greedy,
    }
}
