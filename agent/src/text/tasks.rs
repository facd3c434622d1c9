//! What the text policy reads: the prompt frame ([`PromptView`]), the env
//! and its curriculum levels with the vocabulary and field sizes
//! ([`TextSetup`]), and the two task streams.
//!
//! The model reads only the part of an observation that varies between
//! tasks and turns (the instructions every observation shares are cut off
//! by [`PromptView`]) and writes the bare answer or move. Held-out tasks
//! come from a fixed seed stream. For single-turn envs, training tasks whose
//! text equals a held-out one are skipped, so the held-out pass rate
//! measures generalisation, not recall; a multi-turn env's held-out episodes
//! are fresh seeds (its states come from the policy's own play).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use verigym_envs::{DynEnv, EnvKind, Registry, Rng, TaskCard, mix_seed};

use crate::error::AgentError;
use crate::text::char_lm::{CharLmShape, CharVocab};
use crate::text::config::TextConfig;
use crate::text::demos::raw_demos;

/// The seed stream of held-out evaluation tasks (fixed, whatever the
/// training seed).
pub const HELD_OUT_STREAM: u64 = 0x6865_6c64;
/// The seed stream of training tasks.
pub const TRAIN_STREAM: u64 = 0x0074_726e;

/// The part of a prompt that differs between an env's tasks: the common
/// prefix and suffix of a sample of prompts are cut off, and, when
/// `view_lines` is set, only that many of the rest's last lines are kept (a
/// multi-turn observation grows by a line or more per turn; the recent
/// turns are what a move mostly depends on, and a bounded view keeps the
/// model's input, and the cost of every step, bounded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptView {
    pub prefix: String,
    pub suffix: String,
    /// 0 keeps every line. (Checkpoints of the first version with it
    /// named it `last_lines`.)
    #[serde(default, alias = "last_lines", skip_serializing_if = "is_zero")]
    pub view_lines: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl PromptView {
    /// Learns the shared prefix and suffix of `prompts`.
    pub fn learn(prompts: &[String]) -> PromptView {
        let Some(first) = prompts.first() else {
            return PromptView {
                prefix: String::new(),
                suffix: String::new(),
                view_lines: 0,
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
            view_lines: 0,
        }
    }

    /// The varying part of `prompt`, trimmed (the whole prompt, trimmed,
    /// when it does not have the learnt frame), cut to its last
    /// `view_lines` lines when that is set.
    pub fn extract<'a>(&self, prompt: &'a str) -> &'a str {
        let varying = prompt
            .strip_prefix(self.prefix.as_str())
            .and_then(|rest| rest.strip_suffix(self.suffix.as_str()))
            .unwrap_or(prompt)
            .trim();
        if self.view_lines == 0 {
            return varying;
        }
        // The byte offset after the newline that starts the kept lines.
        let start = varying
            .rmatch_indices('\n')
            .nth(self.view_lines - 1)
            .map_or(0, |(at, _)| at + 1);
        varying[start..].trim()
    }
}

/// The env, its curriculum levels, the prompt frame, the vocabulary and
/// the model's shape: what a checkpoint needs besides weights.
pub struct TextSetup {
    /// The run's config: held-out evaluation plays it.
    pub env: Box<dyn DynEnv>,
    /// What training plays (the run's config alone without `levels`).
    pub levels: Vec<Box<dyn DynEnv>>,
    pub multi_turn: bool,
    pub view: PromptView,
    pub vocab: CharVocab,
    pub shape: CharLmShape,
}

impl TextSetup {
    /// Plays demonstrations on every level to fix the prompt frame,
    /// vocabulary and field sizes.
    ///
    /// # Errors
    /// Unknown env or bad config, a multi-player env, a single-turn env
    /// without reference answers or a multi-turn one without an oracle.
    pub fn new(
        env_id: &str,
        overrides: Option<&serde_json::Value>,
        config: &TextConfig,
    ) -> Result<TextSetup, AgentError> {
        let registry = Registry::builtin();
        let make = |patch: Option<&serde_json::Value>| {
            let mut merged = overrides.cloned().unwrap_or_else(|| serde_json::json!({}));
            if let Some(patch) = patch {
                verigym_envs::card::merge_json(&mut merged, patch);
            }
            registry
                .make(env_id, Some(&merged))
                .map_err(|e| AgentError::env(env_id, e))
        };
        let env = make(None)?;
        let unsupported = |why: &str| unsupported(env_id, why);
        let multi_turn =
            plays_multi_turn(env.as_ref()).ok_or_else(|| unsupported("this env is neither"))?;
        let levels = if config.levels.is_empty() {
            vec![env.clone_box()]
        } else {
            config
                .levels
                .iter()
                .map(|level| make(Some(level)))
                .collect::<Result<Vec<_>, _>>()?
        };
        let mut rng = Rng::from_seed(mix_seed(0, TRAIN_STREAM));
        let mut pairs = Vec::new();
        for (l, level) in levels.iter().chain([&env]).enumerate() {
            for i in 0..64u64 {
                let card = level.generate(mix_seed(mix_seed(l as u64, TRAIN_STREAM), i));
                let demos = raw_demos(level.as_ref(), multi_turn, &card, config, &mut rng);
                if demos.is_empty() {
                    return Err(unsupported(if multi_turn {
                        "no oracle action"
                    } else {
                        "some tasks have no reference answer"
                    }));
                }
                pairs.extend(demos);
            }
        }
        let prompts: Vec<String> = pairs.iter().map(|(p, _)| p.clone()).collect();
        let view = PromptView {
            view_lines: config.view_lines,
            ..PromptView::learn(&prompts)
        };
        let inputs: Vec<&str> = prompts.iter().map(|p| view.extract(p)).collect();
        let vocab = CharVocab::from_texts(
            inputs
                .iter()
                .copied()
                .chain(pairs.iter().map(|(_, a)| a.as_str()))
                .chain(["0123456789-/"]),
        );
        let longest = |texts: &mut dyn Iterator<Item = usize>| texts.max().unwrap_or(1);
        let shape = CharLmShape {
            vocab: vocab.size(),
            prompt_len: longest(&mut inputs.iter().map(|s| s.chars().count())) + 4,
            answer_len: longest(&mut pairs.iter().map(|(_, a)| a.chars().count())) + 3,
            d_model: config.d_model,
            heads: config.heads,
            layers: config.layers,
            d_ff: config.d_ff,
        };
        Ok(TextSetup {
            env,
            levels,
            multi_turn,
            view,
            vocab,
            shape,
        })
    }

    /// An observation's varying part, encoded, if the model can read it.
    pub fn encode_view(&self, text: &str) -> Option<Vec<u32>> {
        let ids = self.vocab.encode(self.view.extract(text))?;
        self.shape.prefix(&ids)?;
        Some(ids)
    }
}

/// Whether the text policy plays `env` as a multi-turn env (`Some(true)`),
/// a single-turn one (`Some(false)`), or not at all (several players).
pub(crate) fn plays_multi_turn(env: &dyn DynEnv) -> Option<bool> {
    match env.spec().kind {
        EnvKind::SingleTurn => Some(false),
        EnvKind::MultiTurn if env.spec().players == 1 => Some(true),
        _ => None,
    }
}

pub(crate) fn unsupported(env_id: &str, why: &str) -> AgentError {
    AgentError::Unsupported {
        env_id: env_id.to_string(),
        algo: "grpo".into(),
        supported: format!(
            "one-player single-turn envs with reference answers, or multi-turn ones with an oracle ({why})"
        ),
    }
}

/// The held-out prompts' texts, which single-turn training must not see
/// (empty for multi-turn envs).
pub fn held_out_inputs(setup: &TextSetup, n: usize) -> HashSet<String> {
    if setup.multi_turn {
        return HashSet::new();
    }
    (0..n as u64)
        .map(|i| {
            let card = setup.env.generate(mix_seed(HELD_OUT_STREAM, i));
            setup.view.extract(&card.prompt).to_string()
        })
        .collect()
}

/// A training task of `level` from `seed`, skipping held-out texts (after
/// 50 tries the last one is kept: a level whose every task is held out
/// still trains).
pub fn training_card(
    setup: &TextSetup,
    level: usize,
    seed: u64,
    held_out: &HashSet<String>,
) -> TaskCard {
    let env = &setup.levels[level];
    let stream = mix_seed(seed, TRAIN_STREAM);
    let mut card = env.generate(stream);
    for k in 1..50 {
        if !held_out.contains(setup.view.extract(&card.prompt)) {
            break;
        }
        card = env.generate(mix_seed(stream, k));
    }
    card
}

/// Encoded demonstrations of `card` on `level`, each pair the model can
/// read and write.
pub fn demos(
    setup: &TextSetup,
    level: usize,
    card: &TaskCard,
    config: &TextConfig,
    rng: &mut Rng,
) -> Vec<(Vec<u32>, Vec<u32>)> {
    raw_demos(
        setup.levels[level].as_ref(),
        setup.multi_turn,
        card,
        config,
        rng,
    )
    .into_iter()
    .filter_map(|(prompt, answer)| {
        let prompt = setup.encode_view(&prompt)?;
        let answer = setup.vocab.encode(&answer)?;
        setup.shape.row(&prompt, &answer)?;
        Some((prompt, answer))
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_cuts_the_shared_frame_and_keeps_the_last_lines() {
        let prompts = [
            "Rules.\nLeft: 3\nEnd.".to_string(),
            "Rules.\nG1: 4 -> higher\nLeft: 2\nEnd.".to_string(),
            "Rules.\nG1: 4 -> higher\nG2: 6 -> lower\nLeft: 1\nEnd.".to_string(),
        ];
        let all = PromptView::learn(&prompts);
        assert_eq!(all.extract(&prompts[0]), "Left: 3");
        assert_eq!(
            all.extract(&prompts[2]),
            "G1: 4 -> higher\nG2: 6 -> lower\nLeft: 1"
        );
        let last_two = PromptView {
            view_lines: 2,
            ..all
        };
        assert_eq!(last_two.extract(&prompts[0]), "Left: 3");
        assert_eq!(last_two.extract(&prompts[1]), "G1: 4 -> higher\nLeft: 2");
        assert_eq!(last_two.extract(&prompts[2]), "G2: 6 -> lower\nLeft: 1");
        // A checkpoint written before `view_lines` existed reads every line.
        let old: PromptView = serde_json::from_str(r#"{"prefix":"a","suffix":"b"}"#).unwrap();
        assert_eq!(old.view_lines, 0);
        assert!(!serde_json::to_string(&old).unwrap().contains("view_lines"));
        // One that called it `last_lines` keeps its cut.
        let named: PromptView =
            serde_json::from_str(r#"{"prefix":"a","suffix":"b","last_lines":3}"#).unwrap();
        assert_eq!(named.view_lines, 3);
    }
}
