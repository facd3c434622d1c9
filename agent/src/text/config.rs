//! The text trainer's settings: model size, warm start, GRPO, curriculum,
//! evaluation. Every field has a default; `--hyper` JSON overrides any of them.

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
    /// The warm start's learning rate decays linearly from `warm_lr` to
    /// `warm_lr_end` (a constant rate left the loss bouncing on a plateau).
    pub warm_lr: f64,
    pub warm_lr_end: f64,
    /// Multi-turn demonstrations: the share of turns played by the env's
    /// random action instead of its oracle (the oracle's action is still
    /// the label), so the warm start also sees states off the oracle's path.
    pub demo_explore: f64,
    /// Prompts per GRPO update, and episodes sampled per prompt.
    pub prompts_per_step: usize,
    pub group: usize,
    /// Passes over each sampled batch (the clip matters from the second).
    pub epochs: usize,
    pub clip: f32,
    pub grpo_lr: f64,
    pub temperature: f32,
    /// Turns after which a multi-turn episode is cut off (failed).
    pub max_turns: usize,
    /// The policy reads only the last this-many lines of an observation's
    /// varying part (0: all of it); see [`crate::text::tasks::PromptView`].
    pub view_lines: usize,
    /// Curriculum levels: env config objects (each merged over the run's
    /// `--config`); empty trains on the run's config alone. Held-out
    /// evaluation always uses the run's config.
    pub levels: Vec<serde_json::Value>,
    pub curriculum: CurriculumKind,
    /// The pass-rate band of [`CurriculumKind::Band`] and its window
    /// (episodes at the current level).
    pub band_low: f64,
    pub band_high: f64,
    pub band_window: usize,
    /// UCB exploration of [`CurriculumKind::Bandit`].
    pub bandit_exploration: f64,
    /// Held-out tasks in the final evaluation, and in each curve point.
    pub eval_tasks: usize,
    pub curve_eval_tasks: usize,
    pub eval_every: usize,
    /// pass@k at `temperature` before and after GRPO: held-out tasks, and
    /// samples per task (k runs over powers of two up to it); 0 skips it.
    pub pass_k_tasks: usize,
    pub pass_k_samples: usize,
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
            warm_lr_end: 3e-3,
            demo_explore: 0.3,
            prompts_per_step: 16,
            group: 8,
            epochs: 2,
            clip: 0.2,
            grpo_lr: 5e-4,
            temperature: 1.0,
            max_turns: 16,
            view_lines: 0,
            levels: Vec::new(),
            curriculum: CurriculumKind::Band,
            band_low: 0.25,
            band_high: 0.75,
            band_window: 64,
            bandit_exploration: 0.1,
            eval_tasks: 1000,
            curve_eval_tasks: 200,
            eval_every: 10,
            pass_k_tasks: 0,
            pass_k_samples: 64,
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

    /// The warm start's learning rate at `step` of `warm_steps`.
    pub fn warm_lr_at(&self, step: usize) -> f64 {
        let t = step as f64 / self.warm_steps.max(1) as f64;
        self.warm_lr + (self.warm_lr_end - self.warm_lr) * t
    }
}

/// How levels are picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurriculumKind {
    /// [`verigym_envs::curriculum::PassRateBand`]: stay at the level whose recent pass rate lies in
    /// `band_low..band_high`, so GRPO groups keep reward variance.
    Band,
    /// [`verigym_envs::curriculum::AdvantageBandit`]: each level is an arm, scored by its mean
    /// absolute advantage.
    Bandit,
    /// The last level only.
    Fixed,
}
