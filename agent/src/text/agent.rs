//! A text checkpoint playing through the episode driver: it reads the
//! observation text alone and answers greedily.

use burn::tensor::Device;
use verigym_envs::{Agent, AgentTurn};

use crate::text::char_lm::CharLm;
use crate::text::checkpoint::TextCheckpoint;
use crate::text::decode::decode;

/// A text policy answering through the episode driver from the
/// observation text alone, greedily.
pub struct TextAgent {
    name: String,
    checkpoint: TextCheckpoint,
    model: CharLm,
}

impl TextAgent {
    pub fn new(name: String, checkpoint: TextCheckpoint, model: CharLm) -> TextAgent {
        TextAgent {
            name,
            checkpoint,
            model,
        }
    }

    /// The answer to one prompt text (empty when the model cannot read it).
    pub fn answer(&self, prompt: &str) -> String {
        let c = &self.checkpoint;
        let Some(ids) = c.vocab.encode(c.view.extract(prompt)) else {
            return String::new();
        };
        if c.shape.prefix(&ids).is_none() {
            return String::new();
        }
        let decoded = decode(
            &self.model,
            &c.shape,
            &c.vocab,
            &[ids.as_slice()],
            1.0,
            None,
            &Device::flex(),
        );
        decoded.texts.into_iter().next().unwrap_or_default()
    }
}

impl Agent for TextAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        self.answer(&turn.observation.text)
    }
}
