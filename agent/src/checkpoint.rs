//! Checkpoints: one JSON file holding the env id, the codec, how the agent
//! picks moves, and the network weights. [`load_agent`] turns one into a
//! driver [`Agent`].

use std::path::Path;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use verigym_envs::{Agent, AgentTurn, Player, Rng};

use crate::codec::GameCodec;
use crate::error::AgentError;
use crate::net::{NetWeights, PolicyValueNet, illegal_bias, matrix, tensor_vec};

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

/// A game policy network playing through the episode driver. It reads only
/// the observation (never the env's oracle).
pub struct NetAgent {
    name: String,
    codec: GameCodec,
    play: Play,
    net: PolicyValueNet,
    device: Device,
    rng: Rng,
}

impl NetAgent {
    pub fn new(name: String, codec: GameCodec, play: Play, weights: &NetWeights) -> NetAgent {
        let device = Device::flex();
        NetAgent {
            name,
            codec,
            play,
            net: PolicyValueNet::from_weights(weights, &device),
            device,
            rng: Rng::from_seed(0),
        }
    }

    /// The policy's probabilities over action indices for one observation.
    pub fn probabilities(
        &self,
        observation: &verigym_envs::Observation,
        player: Player,
    ) -> Vec<f32> {
        let features = self.codec.encode(observation, player);
        let mask = self.codec.legal_mask(observation);
        let n = features.len();
        let out = self.net.forward(
            matrix(features, 1, n, &self.device),
            illegal_bias(&[mask], self.codec.num_actions(), &self.device),
        );
        tensor_vec(out.log_probs).iter().map(|l| l.exp()).collect()
    }
}

/// Index of the largest value (the first on ties).
pub fn argmax(values: &[f32]) -> usize {
    values
        .iter()
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |best, (i, &v)| {
            if v > best.1 { (i, v) } else { best }
        })
        .0
}

/// Draws an index with the given probabilities from `u` in `[0, 1)`.
pub fn sample_index(probs: &[f32], u: f64) -> usize {
    let mut acc = 0.0f64;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            acc += f64::from(p);
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn start_episode(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
    }

    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let probs = self.probabilities(turn.observation, turn.player);
        if probs.iter().all(|p| *p <= 0.0 || p.is_nan()) {
            // No legal move we know: let the env explain (it never happens
            // in the supported games).
            return String::new();
        }
        let index = match self.play {
            Play::Greedy => argmax(&probs),
            Play::Sample => sample_index(&probs, self.rng.unit_f64()),
        };
        self.codec.action_text(index)
    }
}

/// Loads a checkpoint written by [`crate::train`] as a driver agent, named
/// `burn:<file name>`.
///
/// # Errors
/// [`AgentError::Io`] or [`AgentError::BadCheckpoint`].
pub fn load_agent(path: &Path) -> Result<Box<dyn Agent>, AgentError> {
    let name = format!(
        "burn:{}",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let text = std::fs::read_to_string(path).map_err(|e| AgentError::io(path, e))?;
    if text.contains(crate::textagent::TEXT_FORMAT) {
        let (checkpoint, model) = crate::textagent::TextCheckpoint::parse(path, &text)?;
        return Ok(Box::new(crate::textagent::TextAgent::new(
            name, checkpoint, model,
        )));
    }
    let checkpoint = GameCheckpoint::load(path)?;
    Ok(Box::new(NetAgent::new(
        name,
        checkpoint.codec,
        checkpoint.play,
        &checkpoint.weights,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_follows_the_cumulative_distribution_and_skips_zeros() {
        let probs = [0.0, 0.25, 0.0, 0.75];
        assert_eq!(sample_index(&probs, 0.0), 1);
        assert_eq!(sample_index(&probs, 0.24), 1);
        assert_eq!(sample_index(&probs, 0.26), 3);
        assert_eq!(sample_index(&probs, 0.999_999), 3);
        assert_eq!(argmax(&[0.1, 0.7, 0.7]), 1);
    }
}
