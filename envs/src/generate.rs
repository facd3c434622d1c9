//! Batch generation of task cards: `verigym generate`, the server's
//! `/v1/generate`, the Python package and the golden tests all draw card `i`
//! of a batch the same way ([`card_seed`]), so their outputs agree.

use std::io::Write;

use rayon::prelude::*;

use crate::curriculum::{Curriculum, Mixture};
use crate::dynenv::DynEnv;
use crate::error::EnvError;
use crate::registry::Registry;
use crate::{TaskCard, mix_seed};

/// How `generate` writes each task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// The task card itself.
    #[default]
    Card,
    /// A chat-training row: `messages` (system, user) for the trainer to
    /// complete, and the card under `card` so the reward can be computed
    /// later with `verigym score` (which accepts these rows as tasks).
    Chat,
}

impl OutputFormat {
    /// The names [`OutputFormat::from_str`](std::str::FromStr) accepts, in
    /// order: `card`, `chat`.
    pub const NAMES: [&'static str; 2] = ["card", "chat"];
}

/// A name [`OutputFormat`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown output format `{name}`: use one of {}", OutputFormat::NAMES.join(", "), name = .0)]
pub struct UnknownOutputFormat(pub String);

impl std::str::FromStr for OutputFormat {
    type Err = UnknownOutputFormat;

    fn from_str(name: &str) -> Result<Self, UnknownOutputFormat> {
        match name {
            "card" => Ok(OutputFormat::Card),
            "chat" => Ok(OutputFormat::Chat),
            other => Err(UnknownOutputFormat(other.to_string())),
        }
    }
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
/// Write errors from `out`; a config with no task within the generator's
/// budget ([`crate::EnvError::NoTaskWithinBudget`], as `InvalidInput`).
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
            .map(|i| {
                let card = env
                    .try_generate(card_seed(seed, i))
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
                Ok(format_card(&card, format))
            })
            .collect::<std::io::Result<_>>()?;
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        done = end;
        progress(done);
    }
    Ok(())
}

/// A static mixture of envs, as `verigym generate --mix FILE` reads it
/// from TOML:
///
/// ```toml
/// [[source]]
/// env = "math/arithmetic-v1@easy"
/// weight = 2.0
///
/// [[source]]
/// env = "logic/guess-number-v2"
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

/// Why a mixture could not be written.
#[derive(Debug, thiserror::Error)]
pub enum MixError {
    #[error("the mix file has no [[source]] entries")]
    NoSources,
    #[error(transparent)]
    Weights(#[from] crate::curriculum::BadWeights),
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// Writes `n` cards drawn from a mixture: item `i` picks its env by the
/// seeded mixture and uses seed `card_seed(seed, i)`.
///
/// # Errors
/// A mixture without sources, bad weights, an env that cannot be made, or a
/// write error.
pub fn write_mixture(
    registry: &Registry,
    mix: &MixFile,
    seed: u64,
    n: usize,
    format: OutputFormat,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize),
) -> Result<(), MixError> {
    if mix.source.is_empty() {
        return Err(MixError::NoSources);
    }
    let envs = mix
        .source
        .iter()
        .map(|s| registry.make(&s.env, s.config.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let weights: Vec<f64> = mix.source.iter().map(|s| s.weight).collect();
    let mut mixture = Mixture::new(&weights, seed).map_err(MixError::Weights)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_formats_parse_by_name_and_unknown_names_say_what_exists() {
        for name in OutputFormat::NAMES {
            assert!(name.parse::<OutputFormat>().is_ok(), "{name}");
        }
        assert_eq!("chat".parse(), Ok(OutputFormat::Chat));
        let err = "jsonl".parse::<OutputFormat>().unwrap_err().to_string();
        assert!(
            err.contains("`jsonl`") && err.contains("card, chat"),
            "{err}"
        );
    }

    #[test]
    fn cards_and_mixtures_are_the_same_for_the_same_seed_and_refuse_bad_mixes() {
        let registry = Registry::builtin();
        let env = registry.make("math/arithmetic-v1@easy", None).unwrap();
        let mut out = Vec::new();
        write_cards(&*env, 3, 5, OutputFormat::Card, &mut out, &mut |_| {}).unwrap();
        let lines: Vec<String> = generate_cards(&*env, 3, 5)
            .iter()
            .map(|c| c.to_json_line() + "\n")
            .collect();
        assert_eq!(String::from_utf8(out).unwrap(), lines.concat());

        let mix = |text: &str| -> MixFile { serde_json::from_str(text).unwrap() };
        let two = mix(r#"{"source": [
            {"env": "math/arithmetic-v1@easy", "weight": 1.0},
            {"env": "logic/guess-number-v2", "weight": 1.0, "config": {"high": 50}}]}"#);
        let write = |m: &MixFile| {
            let mut out = Vec::new();
            write_mixture(
                &registry,
                m,
                9,
                40,
                OutputFormat::Chat,
                &mut out,
                &mut |_| {},
            )
            .map(|()| String::from_utf8(out).unwrap())
        };
        let first = write(&two).unwrap();
        assert_eq!(first, write(&two).unwrap());
        assert!(first.contains("math/arithmetic-v1") && first.contains("logic/guess-number-v2"));
        assert!(matches!(
            write(&mix(r#"{"source": []}"#)),
            Err(MixError::NoSources)
        ));
        let unknown = mix(r#"{"source": [{"env": "math/nope-v1", "weight": 1.0}]}"#);
        assert!(matches!(write(&unknown), Err(MixError::Env(_))));
        let negative = mix(r#"{"source": [{"env": "math/arithmetic-v1", "weight": -1.0}]}"#);
        assert!(matches!(write(&negative), Err(MixError::Weights(_))));
    }
}
