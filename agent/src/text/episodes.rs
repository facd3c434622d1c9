//! Playing episodes with the text policy, many in lockstep: every live
//! episode's observation is read and answered in one batch per turn. A
//! single-turn task is an episode of one turn, so single- and multi-turn
//! envs share this path, the GRPO update and the evaluation.

use burn::tensor::Device;
use verigym_envs::{DynEnv, Rng, Turn};

use crate::text::char_lm::CharLm;
use crate::text::decode::decode;
use crate::text::tasks::TextSetup;

/// One turn the policy played: what it read, the answer field it wrote
/// (token ids after `SEP`) and the log-probabilities of the written tokens.
#[derive(Clone, Debug, Default)]
pub struct TurnRecord {
    pub prompt: Vec<u32>,
    pub tokens: Vec<u32>,
    pub log_probs: Vec<f32>,
}

/// One finished episode: its turns and the env's final reward.
#[derive(Clone, Debug, Default)]
pub struct EpisodeRecord {
    pub turns: Vec<TurnRecord>,
    pub reward: f32,
    pub passed: bool,
}

/// Plays every env (each already reset) to its end: greedy when `rng` is
/// `None`, else sampled at `temperature`. An episode ends failed, with
/// reward 0, on an observation the model cannot read, an answer the env
/// refuses, or after `max_turns` turns.
pub fn play_episodes(
    model: &CharLm,
    setup: &TextSetup,
    mut envs: Vec<Box<dyn DynEnv>>,
    max_turns: usize,
    temperature: f32,
    mut rng: Option<&mut Rng>,
    device: &Device,
) -> Vec<EpisodeRecord> {
    let n = envs.len();
    let mut records = vec![EpisodeRecord::default(); n];
    let mut failed = vec![false; n];
    loop {
        let mut prompts = Vec::new();
        let mut playing = Vec::new();
        for i in 0..n {
            if failed[i] || envs[i].turn() != Turn::Player(0) {
                continue;
            }
            let prompt = envs[i]
                .observe(0)
                .ok()
                .and_then(|o| setup.encode_view(&o.text));
            match prompt {
                Some(prompt) if records[i].turns.len() < max_turns => {
                    prompts.push(prompt);
                    playing.push(i);
                }
                _ => failed[i] = true,
            }
        }
        if playing.is_empty() {
            break;
        }
        let views: Vec<&[u32]> = prompts.iter().map(Vec::as_slice).collect();
        let decoded = decode(
            model,
            &setup.shape,
            &setup.vocab,
            &views,
            temperature,
            rng.as_deref_mut(),
            device,
        );
        for (k, (&i, prompt)) in playing.iter().zip(prompts).enumerate() {
            records[i].turns.push(TurnRecord {
                prompt,
                tokens: decoded.tokens[k].clone(),
                log_probs: decoded.log_probs[k].clone(),
            });
            if envs[i].step(0, &decoded.texts[k]).is_err() {
                failed[i] = true;
            }
        }
    }
    for (i, record) in records.iter_mut().enumerate() {
        let score = envs[i].score(0);
        record.passed = !failed[i] && score.passed;
        record.reward = if failed[i] { 0.0 } else { score.reward as f32 };
    }
    records
}
