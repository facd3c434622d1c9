//! The text trainer's settings: model size, warm start, GRPO, evaluation.
//! Every field has a default; `--hyper` JSON overrides any of them.

use serde::{Deserialize, Serialize};

use crate::text::grpo_loss::GrpoVariant;

/// Everything about a text run except its budget and seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextConfig {
    pub variant: GrpoVariant,
    pub d_model: usize,
    pub heads: usize,
    pub layers: usize,
    pub d_ff: usize,
    /// Supervised gradient steps before GRPO.
    pub warm_steps: usize,
    pub warm_batch: usize,
    pub warm_lr: f64,
    /// Prompts per GRPO update, and answers sampled per prompt.
    pub prompts_per_step: usize,
    pub group: usize,
    /// Passes over each sampled batch (the clip matters from the second).
    pub epochs: usize,
    pub clip: f32,
    pub grpo_lr: f64,
    pub temperature: f32,
    /// Held-out tasks in the final evaluation, and in each curve point.
    pub eval_tasks: usize,
    pub curve_eval_tasks: usize,
    pub eval_every: usize,
}

impl Default for TextConfig {
    fn default() -> Self {
        TextConfig {
            variant: GrpoVariant::DrGrpo,
            d_model: 64,
            heads: 4,
            layers: 2,
            d_ff: 128,
            warm_steps: 300,
            warm_batch: 64,
            warm_lr: 3e-3,
            prompts_per_step: 16,
            group: 8,
            epochs: 2,
            clip: 0.2,
            grpo_lr: 5e-4,
            temperature: 1.0,
            eval_tasks: 1000,
            curve_eval_tasks: 200,
            eval_every: 10,
        }
    }
}

impl TextConfig {
    /// The defaults with a JSON object's fields over them.
    ///
    /// # Errors
    /// The serde message for an unknown field or a wrong type.
    pub fn with_overrides(overrides: Option<&serde_json::Value>) -> Result<TextConfig, String> {
        match overrides {
            None => Ok(TextConfig::default()),
            Some(value) => serde_json::from_value(value.clone()).map_err(|e| e.to_string()),
        }
    }
}
