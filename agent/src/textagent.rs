//! The text agent: its checkpoint, the driver [`Agent`] that plays it, and
//! the training run (warm start, then GRPO) that writes it.

use std::path::Path;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};
use verigym_envs::{Agent, AgentTurn, Rng, mix_seed};

use crate::charlm::{CharLm, CharLmShape, CharVocab, FlatWeights};
use crate::curve::CurvePoint;
use crate::error::AgentError;
use crate::selfplay::Budget;
use crate::textrl::{
    PromptView, TextConfig, TextSetup, decode, evaluate, grpo_step, held_out_inputs,
    next_training_tasks, optimiser, warm_step,
};

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
}

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

/// Figures of one evaluated checkpoint.
#[derive(Clone, Debug)]
pub struct TextEval {
    pub passed: usize,
    pub tasks: usize,
}

impl TextEval {
    pub fn rate(&self) -> f64 {
        self.passed as f64 / self.tasks.max(1) as f64
    }
}

/// What a text run produced.
pub struct TextRun {
    pub warm: TextCheckpoint,
    pub warm_eval: TextEval,
    pub last: TextCheckpoint,
    pub last_eval: TextEval,
    pub curve: Vec<CurvePoint>,
    pub iterations: usize,
    pub env_steps: u64,
    pub seconds: f64,
}

/// Trains a text policy: `config.warm_steps` supervised steps on reference
/// answers, then GRPO updates until the budget (answers sampled, or
/// minutes) is spent. Deterministic for a seed with a step budget.
///
/// # Errors
/// Env errors; envs that are not single-turn or lack references.
pub fn train_text(
    env_id: &str,
    overrides: Option<&serde_json::Value>,
    config: &TextConfig,
    budget: Budget,
    seed: u64,
    trained_with: String,
    progress: &mut dyn FnMut(&CurvePoint),
) -> Result<TextRun, AgentError> {
    let setup = TextSetup::new(env_id, overrides, config)?;
    let device = crate::device::training_device()?.autodiff();
    let mut rng = Rng::from_seed(mix_seed(seed, 1));
    let mut model = CharLm::init(&setup.shape, &mut rng, &device);
    let held_out = held_out_inputs(&setup, config.eval_tasks);
    let mut cursor = 0u64;
    let start = Instant::now();
    let mut curve = Vec::new();
    let mut optim = optimiser();
    let snapshot = |model: &CharLm| TextCheckpoint {
        format: TEXT_FORMAT.to_string(),
        env_id: env_id.to_string(),
        view: setup.view.clone(),
        vocab: setup.vocab.clone(),
        shape: setup.shape,
        trained_with: trained_with.clone(),
        weights: model.weights(),
    };
    let eval_now = |model: &CharLm, n: usize| {
        let (passed, tasks) = evaluate(&model.valid(), &setup, n, &Device::flex());
        TextEval { passed, tasks }
    };
    let mut iteration = 0;
    let mut env_steps = 0u64;
    for step in 0..config.warm_steps {
        let tasks = next_training_tasks(&setup, seed, &mut cursor, &held_out, config.warm_batch);
        let (next, loss) = warm_step(model, &mut optim, &setup, &tasks, config.warm_lr, &device);
        model = next;
        iteration += 1;
        if (step + 1) % (config.eval_every * 5) == 0 || step + 1 == config.warm_steps {
            let point = CurvePoint {
                iteration,
                env_steps,
                seconds: start.elapsed().as_secs_f64(),
                learner_return: 0.0,
                loss: f64::from(loss),
                entropy: 0.0,
                eval: Some(eval_now(&model, config.curve_eval_tasks).rate()),
            };
            progress(&point);
            curve.push(point);
        }
    }
    let warm = snapshot(&model);
    let warm_eval = eval_now(&model, config.eval_tasks);
    let mut optim = optimiser();
    let grpo_start = Instant::now();
    let mut updates = 0;
    loop {
        let done = match budget {
            Budget::Steps(n) => env_steps >= n,
            Budget::Minutes(m) => grpo_start.elapsed().as_secs_f64() >= m * 60.0,
        };
        if done {
            break;
        }
        let tasks = next_training_tasks(
            &setup,
            seed,
            &mut cursor,
            &held_out,
            config.prompts_per_step,
        );
        let (next, stats) = grpo_step(model, &mut optim, &setup, &tasks, config, &mut rng, &device);
        model = next;
        iteration += 1;
        updates += 1;
        env_steps += (tasks.len() * config.group) as u64;
        let eval = (updates % config.eval_every == 0)
            .then(|| eval_now(&model, config.curve_eval_tasks).rate());
        let point = CurvePoint {
            iteration,
            env_steps,
            seconds: start.elapsed().as_secs_f64(),
            learner_return: f64::from(stats.mean_reward),
            loss: f64::from(stats.loss),
            entropy: f64::from(stats.entropy),
            eval,
        };
        progress(&point);
        curve.push(point);
    }
    let last = snapshot(&model);
    let last_eval = eval_now(&model, config.eval_tasks);
    Ok(TextRun {
        warm,
        warm_eval,
        last,
        last_eval,
        curve,
        iterations: iteration,
        env_steps,
        seconds: start.elapsed().as_secs_f64(),
    })
}
