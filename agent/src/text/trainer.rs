//! The text training run: the supervised warm start, then GRPO until the
//! budget is spent, with held-out evaluations along the way; it returns
//! both checkpoints (after the warm start, and at the end).

use std::time::Instant;

use burn::module::Module;
use burn::optim::{AdamConfig, ModuleOptimizer};
use burn::tensor::Device;
use verigym_envs::{Rng, mix_seed};

use crate::budget::Budget;
use crate::curve::CurvePoint;
use crate::error::AgentError;
use crate::text::char_lm::CharLm;
use crate::text::checkpoint::{TEXT_FORMAT, TextCheckpoint};
use crate::text::config::TextConfig;
use crate::text::decode::evaluate;
use crate::text::grpo::grpo_step;
use crate::text::tasks::{TextSetup, held_out_inputs, next_training_tasks};
use crate::text::warm_start::warm_step;

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

/// A fresh optimiser for the text model.
fn optimiser() -> ModuleOptimizer {
    AdamConfig::new()
        .with_grad_clipping(Some(burn::grad_clipping::GradientClippingConfig::Norm(1.0)))
        .init()
}
