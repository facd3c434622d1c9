//! Batch generation of task cards, shared by `verigym generate` and tests.

use std::io::Write;

use rayon::prelude::*;
use verigym_envs::{DynEnv, TaskCard, mix_seed};

/// How `generate` writes each task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OutputFormat {
    /// The task card itself.
    #[default]
    Card,
    /// A chat-training row: `messages` (system, user) for the trainer to
    /// complete, and the card under `card` so the reward can be computed
    /// later with `verigym score` (which accepts these rows as tasks).
    Chat,
}

/// The system message of chat rows.
pub const CHAT_SYSTEM_PROMPT: &str =
    "Solve the task. Follow the answer format it asks for exactly; put your final answer last.";

/// One output line for a card.
pub fn format_card(card: &TaskCard, format: OutputFormat) -> String {
    match format {
        OutputFormat::Card => card.to_json_line(),
        OutputFormat::Chat => serde_json::json!({
            "id": card.id,
            "env_id": card.env_id,
            "messages": [
                {"role": "system", "content": CHAT_SYSTEM_PROMPT},
                {"role": "user", "content": card.prompt},
            ],
            "card": card,
        })
        .to_string(),
    }
}

/// Cards per parallel chunk: big enough to keep every core busy, small
/// enough that a million cards never sit in memory at once.
const CHUNK: usize = 4096;

/// The seed of card `index` in a batch generated from `seed`.
pub fn card_seed(seed: u64, index: usize) -> u64 {
    mix_seed(seed, index as u64)
}

/// Cards `0..n` of the batch from `seed`, in order.
pub fn generate_cards(env: &dyn DynEnv, seed: u64, n: usize) -> Vec<TaskCard> {
    (0..n)
        .into_par_iter()
        .map(|i| env.generate(card_seed(seed, i)))
        .collect()
}

/// Writes cards `0..n` as JSONL, in order, calling `progress` with the
/// number written after each chunk. Output is identical for any thread count.
///
/// # Errors
/// Write errors from `out`.
pub fn write_cards(
    env: &dyn DynEnv,
    seed: u64,
    n: usize,
    format: OutputFormat,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> std::io::Result<()> {
    let mut done = 0;
    while done < n {
        let end = (done + CHUNK).min(n);
        let lines: Vec<String> = (done..end)
            .into_par_iter()
            .map(|i| format_card(&env.generate(card_seed(seed, i)), format))
            .collect();
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        done = end;
        progress(done);
    }
    Ok(())
}

/// A static mixture of envs for `verigym generate --mix FILE` (TOML):
///
/// ```toml
/// [[source]]
/// env = "math/arithmetic-v1@easy"
/// weight = 2.0
///
/// [[source]]
/// env = "logic/guess-number-v1"
/// weight = 1.0
/// config = { high = 5000 }
/// ```
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixFile {
    pub source: Vec<MixSource>,
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixSource {
    pub env: String,
    pub weight: f64,
    #[serde(default)]
    pub config: Option<serde_json::Value>,
}

/// Writes `n` cards drawn from a mixture: item `i` picks its env by the
/// seeded mixture and uses seed `card_seed(seed, i)`.
///
/// # Errors
/// A bad mix file (unknown env, bad weights) or a write error.
pub fn write_mixture(
    registry: &verigym_envs::Registry,
    mix_toml: &str,
    seed: u64,
    n: usize,
    format: OutputFormat,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> anyhow::Result<()> {
    use verigym_envs::curriculum::{Curriculum, Mixture};
    let mix: MixFile =
        toml::from_str(mix_toml).map_err(|e| anyhow::anyhow!("bad mix file: {e}"))?;
    if mix.source.is_empty() {
        anyhow::bail!("the mix file has no [[source]] entries");
    }
    let envs = mix
        .source
        .iter()
        .map(|s| registry.make(&s.env, s.config.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let weights: Vec<f64> = mix.source.iter().map(|s| s.weight).collect();
    let mut mixture = Mixture::new(&weights, seed).map_err(anyhow::Error::msg)?;
    let sources: Vec<usize> = (0..n).map(|_| mixture.next_task().source).collect();
    let mut done = 0;
    while done < n {
        let end = (done + CHUNK).min(n);
        let lines: Vec<String> = (done..end)
            .into_par_iter()
            .map(|i| format_card(&envs[sources[i]].generate(card_seed(seed, i)), format))
            .collect();
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        done = end;
        progress(done);
    }
    Ok(())
}
