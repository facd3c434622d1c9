//! What the text policy reads: the prompt frame ([`PromptView`]), the env
//! with its vocabulary and field sizes ([`TextSetup`]), and the two task
//! streams.
//!
//! The model reads only the part of the prompt that varies between tasks
//! (the instructions every prompt shares are cut off by [`PromptView`]) and
//! writes the bare answer. Held-out tasks come from a fixed seed stream, and
//! training tasks whose text equals a held-out one are skipped, so the
//! held-out pass rate measures generalisation, not recall.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use verigym_envs::{DynEnv, Registry, TaskCard, mix_seed};

use crate::error::AgentError;
use crate::text::char_lm::{CharLmShape, CharVocab};
use crate::text::config::TextConfig;

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
