//! The text training run: the supervised warm start, then GRPO on the
//! levels the curriculum picks until the budget is spent, with held-out
//! evaluations along the way; it returns both checkpoints (after the warm
//! start, and at the end) with their held-out figures on the same tasks.

use std::collections::HashSet;
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
use crate::text::curriculum::LevelSampler;
use crate::text::eval::{
    PairedGain, held_out_passes, held_out_task_keys, paired_gain, pass_at_k, pass_rates,
    pass_scores, sampled_passes,
};
use crate::text::grpo::grpo_step;
use crate::text::tasks::demos;
use crate::text::tasks::{TextSetup, held_out_inputs, training_card};
use crate::text::text_curve::TextCurveRow;
use crate::text::warm_start::warm_step;

/// Seed stream of the warm start's tasks (GRPO's come from the curriculum).
const WARM_STREAM: u64 = 0x7761_726d;

/// Held-out figures of one checkpoint: greedy pass per task, and where
/// measured each task's passes in `pass_k_samples` sampled episodes with
/// the pass@k they give.
#[derive(Clone, Debug)]
pub struct TextEval {
    pub passes: Vec<bool>,
    pub sampled: Vec<usize>,
    pub pass_at_k: Vec<(usize, f64)>,
}

impl TextEval {
    pub fn passed(&self) -> usize {
        self.passes.iter().filter(|p| **p).count()
    }

    pub fn tasks(&self) -> usize {
        self.passes.len()
    }

    pub fn rate(&self) -> f64 {
        self.passed() as f64 / self.tasks().max(1) as f64
    }
}

/// What a text run produced.
pub struct TextRun {
    pub warm: TextCheckpoint,
    pub warm_eval: TextEval,
    pub last: TextCheckpoint,
    pub last_eval: TextEval,
    /// GRPO's gain over the warm start on the held-out episodes (greedy),
    /// with its paired 95 % interval clustered by task.
    pub gain: PairedGain,
    /// The same for sampled pass@1 (each task's pass rate over
    /// `pass_k_samples` episodes), where pass@k was measured.
    pub sampled_gain: Option<PairedGain>,
    pub curve: Vec<TextCurveRow>,
    pub iterations: usize,
    pub env_steps: u64,
    pub seconds: f64,
}

/// `warm_batch` demonstrations from the warm-start stream, the levels
/// taken in turn.
fn warm_batch(
    setup: &TextSetup,
    config: &TextConfig,
    (seed, cursor): (u64, &mut u64),
    held_out: &HashSet<String>,
    rng: &mut Rng,
) -> Vec<(Vec<u32>, Vec<u32>)> {
    let mut batch = Vec::with_capacity(config.warm_batch);
    let mut tries = 0;
    while batch.len() < config.warm_batch && tries < config.warm_batch * 50 {
        tries += 1;
        *cursor += 1;
        let level = (*cursor % setup.levels.len() as u64) as usize;
        let card = training_card(
            setup,
            level,
            mix_seed(mix_seed(seed, WARM_STREAM), *cursor),
            held_out,
        );
        batch.extend(demos(setup, level, &card, config, rng));
    }
    batch.truncate(config.warm_batch);
    batch
}

/// Trains a text policy: `config.warm_steps` supervised steps on
/// demonstrations, then GRPO updates until the budget (episodes played, or
/// minutes) is spent. Deterministic for a seed with a step budget.
///
/// # Errors
/// Env errors; envs the text policy cannot play.
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
    let cpu = Device::flex();
    let mut rng = Rng::from_seed(mix_seed(seed, 1));
    let mut model = CharLm::init(&setup.shape, &mut rng, &device);
    let held_out = held_out_inputs(&setup, config.eval_tasks);
    let start = Instant::now();
    let mut curve: Vec<TextCurveRow> = Vec::new();
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
    let pass_rate = |model: &CharLm, n: usize| {
        let passes = held_out_passes(&model.valid(), &setup, n, config.max_turns, &cpu);
        passes.iter().filter(|p| **p).count() as f64 / n.max(1) as f64
    };
    let mut push = |row: TextCurveRow, curve: &mut Vec<TextCurveRow>| {
        progress(&row.point());
        curve.push(row);
    };
    let mut iteration = 0;
    let mut cursor = 0u64;
    for step in 0..config.warm_steps {
        let batch = warm_batch(&setup, config, (seed, &mut cursor), &held_out, &mut rng);
        let lr = config.warm_lr_at(step);
        let (next, loss) = warm_step(model, &mut optim, &setup, &batch, lr, &device);
        model = next;
        iteration += 1;
        if (step + 1) % (config.eval_every * 5) == 0 || step + 1 == config.warm_steps {
            let row = TextCurveRow {
                phase: "warm",
                iteration,
                episodes: 0,
                seconds: start.elapsed().as_secs_f64(),
                loss: f64::from(loss),
                mean_reward: 0.0,
                entropy: 0.0,
                kl: None,
                zero_variance: 0.0,
                level_mix: String::new(),
                held_out_pass_at_1: Some(pass_rate(&model, config.curve_eval_tasks)),
            };
            push(row, &mut curve);
        }
    }
    let evaluate = |model: &CharLm, rng: &mut Rng| {
        let policy = model.valid();
        let passes = held_out_passes(&policy, &setup, config.eval_tasks, config.max_turns, &cpu);
        let sampled = if config.pass_k_tasks > 0 {
            let sizes = (config.pass_k_tasks, config.pass_k_samples);
            sampled_passes(
                &policy,
                &setup,
                sizes,
                config.max_turns,
                config.temperature,
                rng,
                &cpu,
            )
        } else {
            Vec::new()
        };
        let pass_at_k = if sampled.is_empty() {
            Vec::new()
        } else {
            pass_at_k(&sampled, config.pass_k_samples)
        };
        TextEval {
            passes,
            sampled,
            pass_at_k,
        }
    };
    let mut eval_rng = Rng::from_seed(mix_seed(seed, 3));
    let warm = snapshot(&model);
    let warm_eval = evaluate(&model, &mut eval_rng);
    let reference = model.valid();
    let mut optim = optimiser();
    let mut sampler = LevelSampler::new(
        config.curriculum,
        setup.levels.len(),
        config,
        mix_seed(seed, 2),
    );
    let grpo_start = Instant::now();
    let mut updates = 0;
    let mut env_steps = 0u64;
    loop {
        let done = match budget {
            Budget::Steps(n) => env_steps >= n,
            Budget::Minutes(m) => grpo_start.elapsed().as_secs_f64() >= m * 60.0,
        };
        if done {
            break;
        }
        let picks: Vec<_> = (0..config.prompts_per_step)
            .map(|_| sampler.pick())
            .collect();
        let tasks: Vec<_> = picks
            .iter()
            .map(|p| (p.level, training_card(&setup, p.level, p.seed, &held_out)))
            .collect();
        let measure = (updates + 1) % config.eval_every == 0;
        let (next, stats) = grpo_step(
            model,
            &mut optim,
            &setup,
            &tasks,
            measure.then_some(&reference),
            config,
            &mut rng,
            &device,
        );
        model = next;
        for (pick, rewards) in picks.iter().zip(&stats.group_rewards) {
            for &reward in rewards {
                sampler.report(pick, f64::from(reward));
            }
        }
        iteration += 1;
        updates += 1;
        env_steps += (tasks.len() * config.group) as u64;
        let row = TextCurveRow {
            phase: "grpo",
            iteration,
            episodes: env_steps,
            seconds: start.elapsed().as_secs_f64(),
            loss: f64::from(stats.loss),
            mean_reward: f64::from(stats.mean_reward),
            entropy: f64::from(stats.entropy),
            kl: stats.kl.map(f64::from),
            zero_variance: f64::from(stats.zero_variance),
            level_mix: sampler.take_mix(),
            held_out_pass_at_1: (updates % config.eval_every == 0)
                .then(|| pass_rate(&model, config.curve_eval_tasks)),
        };
        push(row, &mut curve);
    }
    let last = snapshot(&model);
    let last_eval = evaluate(&model, &mut eval_rng);
    let keys = held_out_task_keys(&setup, config.eval_tasks.max(config.pass_k_tasks));
    let gain = paired_gain(
        &pass_scores(&warm_eval.passes),
        &pass_scores(&last_eval.passes),
        &keys[..config.eval_tasks],
    );
    let sampled_gain = (!warm_eval.sampled.is_empty()).then(|| {
        let rates = |e: &TextEval| pass_rates(&e.sampled, config.pass_k_samples);
        paired_gain(
            &rates(&warm_eval),
            &rates(&last_eval),
            &keys[..config.pass_k_tasks],
        )
    });
    Ok(TextRun {
        warm,
        warm_eval,
        last,
        last_eval,
        gain,
        sampled_gain,
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
