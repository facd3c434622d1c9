//! Text checkpoints: one JSON file holding the env id, the prompt frame,
//! the vocabulary, the model's shape and its weights.

use std::path::Path;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use verigym_envs::Registry;

use crate::error::AgentError;
use crate::text::char_lm::{CharLm, CharLmShape, CharVocab, FlatWeights};
use crate::text::tasks::{PromptView, TextSetup, plays_multi_turn, unsupported};

/// Marks the text checkpoint format; bump on incompatible changes.
pub const TEXT_FORMAT: &str = "verigym-text-agent/1";

/// A trained text policy as stored on disk.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TextCheckpoint {
    pub format: String,
    pub env_id: String,
    pub view: PromptView,
    pub vocab: CharVocab,
    pub shape: CharLmShape,
    /// The training call that produced it, for the record.
    pub trained_with: String,
    pub weights: FlatWeights,
}

impl TextCheckpoint {
    /// Writes the checkpoint as compact JSON.
    ///
    /// # Errors
    /// [`AgentError::Io`].
    pub fn save(&self, path: &Path) -> Result<(), AgentError> {
        let text = serde_json::to_string(self).map_err(|e| AgentError::BadCheckpoint {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        std::fs::write(path, text).map_err(|e| AgentError::io(path, e))
    }

    /// Parses a checkpoint and checks that its weights fit its shape.
    ///
    /// # Errors
    /// [`AgentError::BadCheckpoint`].
    pub fn parse(path: &Path, text: &str) -> Result<(TextCheckpoint, CharLm), AgentError> {
        let bad = |message: String| AgentError::BadCheckpoint {
            path: path.to_path_buf(),
            message,
        };
        let checkpoint: TextCheckpoint =
            serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        if checkpoint.format != TEXT_FORMAT {
            return Err(bad(format!(
                "format `{}`, expected `{TEXT_FORMAT}`",
                checkpoint.format
            )));
        }
        let model = CharLm::from_weights(&checkpoint.shape, &checkpoint.weights, &Device::flex())
            .map_err(bad)?;
        Ok((checkpoint, model))
    }

    /// The setup this checkpoint plays in, for evaluation: the env at
    /// `overrides` (the run's `--config`) as the only level, and the
    /// checkpoint's own prompt frame, vocabulary and shape.
    ///
    /// # Errors
    /// Unknown env or bad config; an env the text policy cannot play.
    pub fn setup(&self, overrides: Option<&serde_json::Value>) -> Result<TextSetup, AgentError> {
        let env_id = self.env_id.as_str();
        let env = Registry::builtin()
            .make(env_id, overrides)
            .map_err(|e| AgentError::env(env_id, e))?;
        let multi_turn = plays_multi_turn(env.as_ref())
            .ok_or_else(|| unsupported(env_id, "this env is neither"))?;
        Ok(TextSetup {
            levels: vec![env.clone_box()],
            env,
            multi_turn,
            view: self.view.clone(),
            vocab: self.vocab.clone(),
            shape: self.shape,
        })
    }
}
