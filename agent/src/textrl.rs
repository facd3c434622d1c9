//! Training the text policy ([`CharLm`]) on a single-turn env: a supervised
//! warm start on the env's reference answers, then GRPO or Dr. GRPO with the
//! env's own verifier as the reward.
//!
//! The model reads only the part of the prompt that varies between tasks
//! (the instructions every prompt shares are cut off by [`PromptView`]) and
//! writes the bare answer. Held-out tasks come from a fixed seed stream, and
//! training tasks whose text equals a held-out one are skipped, so the
//! held-out pass rate measures generalisation, not recall.

use std::collections::HashSet;

use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use verigym_envs::{DynEnv, Registry, Rng, TaskCard, mix_seed};

use crate::charlm::{CharLm, CharLmShape, CharVocab, EOS, PAD, id_tensor};
use crate::error::AgentError;
use crate::grpo::{GrpoVariant, group_advantages, grpo_loss};
use crate::net::{matrix, tensor_vec};

/// The seed stream of held-out evaluation tasks (fixed, whatever the
/// training seed).
pub const HELD_OUT_STREAM: u64 = 0x6865_6c64;
/// The seed stream of training tasks.
const TRAIN_STREAM: u64 = 0x0074_726e;

/// The part of a prompt that differs between an env's tasks: the common
/// prefix and suffix of a sample of prompts are cut off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptView {
    pub prefix: String,
    pub suffix: String,
}

impl PromptView {
    /// Learns the shared prefix and suffix of `prompts`.
    pub fn learn(prompts: &[String]) -> PromptView {
        let Some(first) = prompts.first() else {
            return PromptView {
                prefix: String::new(),
                suffix: String::new(),
            };
        };
        let mut prefix: Vec<char> = first.chars().collect();
        let mut suffix: Vec<char> = first.chars().rev().collect();
        for prompt in &prompts[1..] {
            let keep = prefix
                .iter()
                .zip(prompt.chars())
                .take_while(|(a, b)| **a == *b)
                .count();
            prefix.truncate(keep);
            let keep = suffix
                .iter()
                .zip(prompt.chars().rev())
                .take_while(|(a, b)| **a == *b)
                .count();
            suffix.truncate(keep);
        }
        PromptView {
            prefix: prefix.into_iter().collect(),
            suffix: suffix.into_iter().rev().collect(),
        }
    }

    /// The varying part of `prompt`, trimmed; the whole prompt, trimmed,
    /// when it does not have the learnt frame.
    pub fn extract<'a>(&self, prompt: &'a str) -> &'a str {
        prompt
            .strip_prefix(self.prefix.as_str())
            .and_then(|rest| rest.strip_suffix(self.suffix.as_str()))
            .unwrap_or(prompt)
            .trim()
    }
}

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

/// A task the model can read: its card and its encoded text.
#[derive(Clone)]
pub struct TextTask {
    pub card: TaskCard,
    pub prompt: Vec<u32>,
    /// The reference answer, encoded (training tasks only need it).
    pub answer: Option<Vec<u32>>,
}

/// The env, the prompt frame, the vocabulary and the model's shape: what a
/// checkpoint needs besides weights.
pub struct TextSetup {
    pub env: Box<dyn DynEnv>,
    pub view: PromptView,
    pub vocab: CharVocab,
    pub shape: CharLmShape,
}

/// A reference answer as text.
pub fn reference_text(card: &TaskCard) -> Option<String> {
    match card.reference.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

impl TextSetup {
    /// Samples the env to fix the prompt frame, vocabulary and field sizes.
    ///
    /// # Errors
    /// Unknown env, a multi-player or multi-turn env, or one without
    /// reference answers.
    pub fn new(
        env_id: &str,
        overrides: Option<&serde_json::Value>,
        config: &TextConfig,
    ) -> Result<TextSetup, AgentError> {
        let env = Registry::builtin()
            .make(env_id, overrides)
            .map_err(|e| AgentError::env(env_id, e))?;
        let unsupported = |why: &str| AgentError::Unsupported {
            env_id: env_id.to_string(),
            algo: "grpo".into(),
            supported: format!("single-turn envs with reference answers ({why})"),
        };
        if env.spec().kind != verigym_envs::EnvKind::SingleTurn {
            return Err(unsupported("this env is not single-turn"));
        }
        let sample: Vec<TaskCard> = (0..256)
            .map(|i| env.generate(mix_seed(mix_seed(0, TRAIN_STREAM), i)))
            .collect();
        let prompts: Vec<String> = sample.iter().map(|c| c.prompt.clone()).collect();
        let view = PromptView::learn(&prompts);
        let answers: Vec<String> = sample.iter().filter_map(reference_text).collect();
        if answers.len() < sample.len() {
            return Err(unsupported("some tasks have no reference answer"));
        }
        let inputs: Vec<&str> = prompts.iter().map(|p| view.extract(p)).collect();
        let vocab = CharVocab::from_texts(
            inputs
                .iter()
                .copied()
                .chain(answers.iter().map(String::as_str))
                .chain(["0123456789-/"]),
        );
        let longest = |texts: &mut dyn Iterator<Item = usize>| texts.max().unwrap_or(1);
        let shape = CharLmShape {
            vocab: vocab.size(),
            prompt_len: longest(&mut inputs.iter().map(|s| s.chars().count())) + 4,
            answer_len: longest(&mut answers.iter().map(|s| s.chars().count())) + 3,
            d_model: config.d_model,
            heads: config.heads,
            layers: config.layers,
            d_ff: config.d_ff,
        };
        Ok(TextSetup {
            env,
            view,
            vocab,
            shape,
        })
    }

    /// Task `index` of a seed stream, if the model can read it.
    pub fn task(&self, stream_seed: u64, index: u64) -> Option<TextTask> {
        let card = self.env.generate(mix_seed(stream_seed, index));
        let prompt = self.vocab.encode(self.view.extract(&card.prompt))?;
        self.shape.prefix(&prompt)?;
        let answer = reference_text(&card).and_then(|a| self.vocab.encode(&a));
        Some(TextTask {
            card,
            prompt,
            answer,
        })
    }

    /// The env's reward and verdict for `answer` to `card`.
    pub fn reward(&self, card: &TaskCard, answer: &str) -> (f32, bool) {
        let mut env = self.env.clone_box();
        if env.reset(card).is_err() || env.step(0, answer).is_err() {
            return (0.0, false);
        }
        let score = env.score(0);
        (score.reward as f32, score.passed)
    }
}

/// Decoded answers: token ids after `SEP`, their log-probabilities under
/// the sampling policy, and the text.
pub struct Decoded {
    pub tokens: Vec<Vec<u32>>,
    pub log_probs: Vec<Vec<f32>>,
    pub texts: Vec<String>,
}

/// Writes answers for `prompts`: greedy when `rng` is `None`, else sampled
/// at `temperature`.
pub fn decode(
    model: &CharLm,
    shape: &CharLmShape,
    vocab: &CharVocab,
    prompts: &[&[u32]],
    temperature: f32,
    mut rng: Option<&mut Rng>,
    device: &Device,
) -> Decoded {
    let mut rows: Vec<Vec<u32>> = prompts
        .iter()
        .map(|p| {
            shape
                .prefix(p)
                .unwrap_or_else(|| vec![PAD; shape.prompt_len + 1])
        })
        .collect();
    let n = rows.len();
    let mut log_probs = vec![Vec::new(); n];
    let mut done = vec![false; n];
    for _ in 0..shape.answer_len {
        if done.iter().all(|&d| d) {
            break;
        }
        let len = rows[0].len();
        let logits = model.forward(id_tensor(&rows, device));
        let last = logits
            .narrow(1, len - 1, 1)
            .reshape([n, shape.vocab])
            .div_scalar(temperature.max(1e-4));
        let logp = tensor_vec(log_softmax(last, 1));
        for (i, row) in rows.iter_mut().enumerate() {
            if done[i] {
                row.push(PAD);
                continue;
            }
            let dist = &logp[i * shape.vocab..(i + 1) * shape.vocab];
            let pick = match rng.as_deref_mut() {
                None => crate::checkpoint::argmax(dist),
                Some(rng) => {
                    let probs: Vec<f32> = dist.iter().map(|l| l.exp()).collect();
                    crate::checkpoint::sample_index(&probs, rng.unit_f64())
                }
            };
            log_probs[i].push(dist[pick]);
            row.push(pick as u32);
            done[i] = pick as u32 == EOS;
        }
    }
    let answers: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| r[shape.prompt_len + 1..].to_vec())
        .collect();
    let texts = answers.iter().map(|a| vocab.decode(a)).collect();
    Decoded {
        tokens: answers,
        log_probs,
        texts,
    }
}

/// Held-out pass@1 of greedy answers over `n` tasks of the fixed stream;
/// tasks the model cannot read count as failures.
pub fn evaluate(model: &CharLm, setup: &TextSetup, n: usize, device: &Device) -> (usize, usize) {
    let cards: Vec<TaskCard> = (0..n as u64)
        .map(|i| setup.env.generate(mix_seed(HELD_OUT_STREAM, i)))
        .collect();
    let mut passed = 0;
    for chunk in cards.chunks(256) {
        let encoded: Vec<Option<Vec<u32>>> = chunk
            .iter()
            .map(|c| {
                setup
                    .vocab
                    .encode(setup.view.extract(&c.prompt))
                    .filter(|p| setup.shape.prefix(p).is_some())
            })
            .collect();
        let readable: Vec<&[u32]> = encoded.iter().flatten().map(Vec::as_slice).collect();
        let decoded = decode(
            model,
            &setup.shape,
            &setup.vocab,
            &readable,
            1.0,
            None,
            device,
        );
        let mut texts = decoded.texts.into_iter();
        for (card, prompt) in chunk.iter().zip(&encoded) {
            if prompt.is_some() {
                let text = texts.next().unwrap_or_default();
                passed += usize::from(setup.reward(card, &text).1);
            }
        }
    }
    (passed, n)
}

/// The held-out prompts' texts, which training must not see.
pub fn held_out_inputs(setup: &TextSetup, n: usize) -> HashSet<String> {
    (0..n as u64)
        .map(|i| {
            let card = setup.env.generate(mix_seed(HELD_OUT_STREAM, i));
            setup.view.extract(&card.prompt).to_string()
        })
        .collect()
}

/// Next readable training tasks with reference answers, skipping held-out
/// texts; `cursor` walks the training stream.
pub fn next_training_tasks(
    setup: &TextSetup,
    seed: u64,
    cursor: &mut u64,
    held_out: &HashSet<String>,
    n: usize,
) -> Vec<TextTask> {
    let stream = mix_seed(seed, TRAIN_STREAM);
    let mut tasks = Vec::with_capacity(n);
    let mut tries = 0;
    while tasks.len() < n && tries < n * 50 {
        tries += 1;
        *cursor += 1;
        let Some(task) = setup.task(stream, *cursor) else {
            continue;
        };
        if task.answer.is_none() || held_out.contains(setup.view.extract(&task.card.prompt)) {
            continue;
        }
        tasks.push(task);
    }
    tasks
}

/// Per-token log-probabilities of `targets` under `model`, from the
/// `[rows, len]` token rows (inputs are each row but its last token).
fn token_log_probs(model: &CharLm, rows: &[Vec<u32>], device: &Device) -> Tensor<2> {
    let n = rows.len();
    let len = rows[0].len() - 1;
    let inputs: Vec<Vec<u32>> = rows.iter().map(|r| r[..len].to_vec()).collect();
    let targets: Vec<i64> = rows
        .iter()
        .flat_map(|r| r[1..].iter().map(|&t| i64::from(t)))
        .collect();
    let logp = log_softmax(model.forward(id_tensor(&inputs, device)), 2);
    let index = Tensor::<3, Int>::from_data(TensorData::new(targets, [n, len, 1]), device);
    logp.gather(2, index).reshape([n, len])
}

/// One supervised step on `tasks`; returns the loss.
pub fn warm_step(
    model: CharLm,
    optim: &mut ModuleOptimizer,
    setup: &TextSetup,
    tasks: &[TextTask],
    lr: f64,
    device: &Device,
) -> (CharLm, f32) {
    let shape = &setup.shape;
    let rows: Vec<Vec<u32>> = tasks
        .iter()
        .filter_map(|t| shape.row(&t.prompt, t.answer.as_deref()?))
        .collect();
    if rows.is_empty() {
        return (model, 0.0);
    }
    let len = shape.seq_len() - 1;
    // Positions from SEP (which predicts the first answer character) to the
    // one that predicts EOS.
    let mask: Vec<f32> = rows
        .iter()
        .flat_map(|r| {
            let end = r[shape.prompt_len + 1..]
                .iter()
                .position(|&t| t == EOS)
                .map_or(len, |p| shape.prompt_len + p);
            (0..len).map(move |t| f32::from(u8::from(t >= shape.prompt_len && t <= end)))
        })
        .collect();
    let n = rows.len();
    let logp = token_log_probs(&model, &rows, device);
    let mask = matrix(mask, n, len, device);
    let loss = (logp * mask.clone()).sum().neg() / mask.sum();
    let value = tensor_vec(loss.clone())[0];
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    (optim.step(lr, model, grads), value)
}

/// What one GRPO update saw.
pub struct GrpoStats {
    pub mean_reward: f32,
    pub loss: f32,
    /// Mean negative log-probability of the sampled tokens.
    pub entropy: f32,
}

/// Samples `group` answers per task with the current policy, scores them
/// with the env, and takes `epochs` clipped steps on the group advantages.
#[allow(clippy::too_many_arguments)]
pub fn grpo_step(
    mut model: CharLm,
    optim: &mut ModuleOptimizer,
    setup: &TextSetup,
    tasks: &[TextTask],
    config: &TextConfig,
    rng: &mut Rng,
    device: &Device,
) -> (CharLm, GrpoStats) {
    let shape = &setup.shape;
    let prompts: Vec<&[u32]> = tasks
        .iter()
        .flat_map(|t| std::iter::repeat_n(t.prompt.as_slice(), config.group))
        .collect();
    let policy = model.valid();
    let sampled = decode(
        &policy,
        shape,
        &setup.vocab,
        &prompts,
        config.temperature,
        Some(rng),
        &Device::flex(),
    );
    let rewards: Vec<f32> = sampled
        .texts
        .iter()
        .enumerate()
        .map(|(i, text)| setup.reward(&tasks[i / config.group].card, text).0)
        .collect();
    let advantages: Vec<f32> = rewards
        .chunks(config.group)
        .flat_map(|g| group_advantages(g, config.variant))
        .collect();
    let n = prompts.len();
    let len = shape.seq_len() - 1;
    let mut rows = Vec::with_capacity(n);
    let mut old = vec![0.0f32; n * len];
    let mut mask = vec![0.0f32; n * len];
    for i in 0..n {
        let mut row = shape.prefix(prompts[i]).unwrap_or_default();
        row.extend_from_slice(&sampled.tokens[i]);
        row.resize(shape.seq_len(), PAD);
        for (k, &lp) in sampled.log_probs[i].iter().enumerate() {
            old[i * len + shape.prompt_len + k] = lp;
            mask[i * len + shape.prompt_len + k] = 1.0;
        }
        rows.push(row);
    }
    let tokens: usize = sampled.log_probs.iter().map(Vec::len).sum();
    let entropy = -sampled.log_probs.iter().flatten().sum::<f32>() / tokens.max(1) as f32;
    let mut loss_value = 0.0;
    if advantages.iter().any(|a| *a != 0.0) {
        for _ in 0..config.epochs {
            let new = token_log_probs(&model, &rows, device);
            let loss = grpo_loss(
                new,
                matrix(old.clone(), n, len, device),
                matrix(advantages.clone(), n, 1, device),
                matrix(mask.clone(), n, len, device),
                config.clip,
                config.variant,
            );
            loss_value = tensor_vec(loss.clone())[0];
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(config.grpo_lr, model, grads);
        }
    }
    let stats = GrpoStats {
        mean_reward: rewards.iter().sum::<f32>() / rewards.len().max(1) as f32,
        loss: loss_value,
        entropy,
    };
    (model, stats)
}

/// A fresh optimiser for the text model.
pub fn optimiser() -> ModuleOptimizer {
    AdamConfig::new()
        .with_grad_clipping(Some(burn::grad_clipping::GradientClippingConfig::Norm(1.0)))
        .init()
}
