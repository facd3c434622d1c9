//! The shared side of the dataset envs (`math/dataset-v1`, `code/dataset-v2`): where
//! their tasks come from and how an imported row becomes a task card.
//!
//! A dataset env does not invent tasks: each task is one row of a data set, imported
//! once (`verigym import FILE --layout NAME -o CARDS.jsonl`, or Python's
//! `verigym.import_rows`) into a task card whose `task` carries the whole row (question
//! and gold answer, or statement and tests) plus its [`Source`]. Such a card replays and
//! scores by itself (`verigym score`, the server, Python): the env reads everything from
//! the card's task, never from the file it came from.
//!
//! To *draw* tasks (the checker, the audit, difficulty levels, `verigym generate`,
//! gym-bench) the env's config names a pool, [`PoolConfig`]: `cards`, a CARDS.jsonl file
//! written by the importer (default: the samples of `datasets/samples/` imported into
//! `envs/data/cards/`, embedded in the binary), and `level`, a third of that pool by the
//! rows' effort. The seed draws a row uniformly from the (filtered) pool, so
//! `generate(seed)` is a pure function of the config, the file's contents and the seed.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::card::{TaskCard, sha256_hex};
use crate::core::Preset;
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::Question;

/// Where an imported row came from: the file, the layout it was read with, its 0-based
/// row number in the file, and the SHA-256 of its canonical JSON (so a card can be
/// matched to its row, and a changed row is noticed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub file: String,
    pub layout: String,
    pub row: u64,
    pub row_hash: String,
}

/// Number of difficulty levels of a dataset env: thirds of its pool.
pub const LEVEL_COUNT: usize = 3;

/// The pool a dataset env draws from (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PoolConfig {
    /// A CARDS.jsonl file written by `verigym import`; `None` = the shipped samples.
    pub cards: Option<String>,
    /// `Some(i)`: only the `i`-th third (0 = easiest) of the pool by effort.
    pub level: Option<usize>,
}

/// The rows of one pool, as this env's tasks, easiest first (by effort, then file order).
type Pool<T> = Arc<Vec<T>>;

/// A pool of any env's tasks (downcast by the env that reads it).
type AnyPool = Arc<dyn std::any::Any + Send + Sync>;

/// Pools already read, by env id and file (the file is read once per process).
type PoolCache = Mutex<HashMap<(String, Option<String>), AnyPool>>;
static POOLS: OnceLock<PoolCache> = OnceLock::new();

/// Why a pool of cards cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// The cards file cannot be read.
    #[error("cards: cannot read {path}: {source} (write it with `verigym import`)")]
    Unreadable {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A line (1-based) is not a task card.
    #[error("line {line}: not a task card: {source}")]
    NotACard {
        line: usize,
        #[source]
        source: serde_json::Error,
    },
    /// A card of the env whose task is not one of the env's.
    #[error("line {line}: task of {env}: {source}")]
    BadTask {
        line: usize,
        env: &'static str,
        #[source]
        source: serde_json::Error,
    },
    /// The file holds cards of another version of the env (import it again).
    #[error(
        "cards: {file} holds cards of {other}, not of {env}: re-run `verigym import` \
         on the data set to write {env} cards"
    )]
    OtherVersion {
        file: String,
        other: String,
        env: &'static str,
    },
    /// The file holds no card of the env (`found`: the envs it has cards of).
    #[error("cards: {file} holds no card of {env}{}", only_of(.found))]
    NoCard {
        file: String,
        env: &'static str,
        found: Vec<String>,
    },
}

fn only_of(found: &[String]) -> String {
    match found {
        [] => String::new(),
        found => format!(" (only of {})", found.join(", ")),
    }
}

/// The tasks of `Q` in the cards text: every card whose `env_id` is `Q`'s.
///
/// # Errors
/// [`PoolError::NotACard`] or [`PoolError::BadTask`] with the line number, for a line
/// that is not a card or whose task is not `Q`'s.
pub fn tasks_in<Q: Question>(text: &str) -> Result<Vec<Q::Task>, PoolError> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let card: TaskCard = serde_json::from_str(line).map_err(|source| PoolError::NotACard {
            line: i + 1,
            source,
        })?;
        if card.env_id != Q::SPEC.id {
            continue;
        }
        tasks.push(
            Q::Task::deserialize(&*card.task).map_err(|source| PoolError::BadTask {
                line: i + 1,
                env: Q::SPEC.id,
                source,
            })?,
        );
    }
    Ok(tasks)
}

/// Why `file` (with contents `text`) gives no task of env `id`. A file written for
/// another version of the env (`code/dataset-v1` cards for `code/dataset-v2`) is the
/// usual cause: its tasks are not this version's, so the fix is to import again.
fn no_card_of(file: &str, text: &str, id: &'static str) -> PoolError {
    #[derive(Deserialize)]
    struct EnvOf {
        env_id: String,
    }
    let mut found: Vec<String> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<EnvOf>(line).ok())
        .map(|card| card.env_id)
        .collect();
    found.sort();
    found.dedup();
    let name = |id: &str| match id.rsplit_once("-v") {
        Some((name, v)) if v.parse::<u32>().is_ok() => name.to_string(),
        _ => id.to_string(),
    };
    if let Some(other) = found.iter().find(|f| name(f) == name(id)) {
        return PoolError::OtherVersion {
            file: file.to_string(),
            other: other.clone(),
            env: id,
        };
    }
    PoolError::NoCard {
        file: file.to_string(),
        env: id,
        found,
    }
}

/// The whole pool of `Q` named by `config.cards` (or `embedded`), sorted by `effort`.
///
/// # Errors
/// The file cannot be read, a line is not a card, or no card is for this env.
pub fn pool<Q: Question>(
    cards: Option<&str>,
    embedded: &str,
    effort: fn(&Q::Task) -> f64,
) -> Result<Pool<Q::Task>, PoolError>
where
    Q::Task: 'static,
{
    let key = (Q::SPEC.id.to_string(), cards.map(str::to_string));
    let pools = POOLS.get_or_init(Mutex::default);
    if let Some(found) = pools.lock().unwrap_or_else(|e| e.into_inner()).get(&key)
        && let Ok(pool) = found.clone().downcast::<Vec<Q::Task>>()
    {
        return Ok(pool);
    }
    let text = match cards {
        Some(path) => std::fs::read_to_string(path).map_err(|source| PoolError::Unreadable {
            path: path.to_string(),
            source,
        })?,
        None => embedded.to_string(),
    };
    let mut tasks: Vec<(f64, usize, Q::Task)> = tasks_in::<Q>(&text)?
        .into_iter()
        .enumerate()
        .map(|(i, t)| (effort(&t), i, t))
        .collect();
    if tasks.is_empty() {
        let file = cards.unwrap_or("the shipped samples");
        return Err(no_card_of(file, &text, Q::SPEC.id));
    }
    tasks.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let pool: Pool<Q::Task> = Arc::new(tasks.into_iter().map(|(_, _, t)| t).collect());
    pools
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, pool.clone());
    Ok(pool)
}

/// The slice of a sorted pool that `level` selects (the whole pool for `None`).
pub fn level_slice<T>(pool: &[T], level: Option<usize>) -> &[T] {
    match level {
        None => pool,
        Some(l) => {
            let n = pool.len();
            let (start, end) = (
                l * n / LEVEL_COUNT,
                ((l + 1) * n / LEVEL_COUNT).max(l * n / LEVEL_COUNT + 1),
            );
            &pool[start.min(n - 1)..end.min(n)]
        }
    }
}

/// Checks a pool config: the level is on the scale and the pool can be read.
///
/// # Errors
/// A message naming the field (the pool's [`PoolError`] for `cards`).
pub fn validate_pool<Q: Question>(
    config: &PoolConfig,
    embedded: &str,
    effort: fn(&Q::Task) -> f64,
) -> Result<(), ConfigError>
where
    Q::Task: 'static,
{
    if let Some(level) = config.level.filter(|&l| l >= LEVEL_COUNT) {
        return Err(format!("level {level} out of range 0..{LEVEL_COUNT}").into());
    }
    // The default pool is the embedded samples (checked by each env's tests); reading
    // it here would make replaying an imported card, whose config is the default,
    // depend on them.
    match config.cards.as_deref() {
        Some(path) => pool::<Q>(Some(path), embedded, effort)
            .map(drop)
            .map_err(|e| ConfigError::new(e.to_string())),
        None => Ok(()),
    }
}

/// Draws one task uniformly from the configured pool.
///
/// # Panics
/// When the pool cannot be read; [`validate_pool`] (run when the env is made) reports
/// that as an error first.
pub fn draw<Q: Question>(
    config: &PoolConfig,
    embedded: &str,
    effort: fn(&Q::Task) -> f64,
    rng: &mut Rng,
) -> Q::Task
where
    Q::Task: 'static,
{
    let pool = pool::<Q>(config.cards.as_deref(), embedded, effort)
        .unwrap_or_else(|e| panic!("{}: {e}", Q::SPEC.id));
    let slice = level_slice(&pool, config.level);
    slice[rng.below(slice.len() as u64) as usize].clone()
}

/// How many rows [`draw`] chooses among (`None` when the pool cannot be read).
pub fn row_count<Q: Question>(
    config: &PoolConfig,
    embedded: &str,
    effort: fn(&Q::Task) -> f64,
) -> Option<usize>
where
    Q::Task: 'static,
{
    let pool = pool::<Q>(config.cards.as_deref(), embedded, effort).ok()?;
    Some(level_slice(&pool, config.level).len())
}

/// The three levels as JSON patches, easiest first.
pub const LEVELS: &[&str] = &[r#"{"level":0}"#, r#"{"level":1}"#, r#"{"level":2}"#];

/// A data set env's presets: `all` rows (no level), then the three levels.
pub const PRESETS: &[Preset] = &Preset::graded_after::<4>(
    &[Preset {
        name: "all",
        overrides: "{}",
    }],
    LEVELS,
    [0, 1, 2],
);

/// The seed an imported row's card carries: the first 8 bytes of its row hash, so card
/// ids are stable and differ between rows.
pub fn seed_of(source: &Source) -> u64 {
    u64::from_str_radix(source.row_hash.get(..16).unwrap_or("0"), 16).unwrap_or(0)
}

/// SHA-256 of a row's canonical JSON.
pub fn row_hash(row: &Value) -> String {
    sha256_hex(crate::card::canonical_json(row).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_of_another_version_say_to_import_again() {
        let card = |id: &str| format!("{{\"env_id\":\"{id}\",\"seed\":1}}\n");
        let v1 = card("code/dataset-v1").repeat(2) + &card("math/dataset-v1");
        assert_eq!(
            no_card_of("old.jsonl", &v1, "code/dataset-v2").to_string(),
            "cards: old.jsonl holds cards of code/dataset-v1, not of code/dataset-v2: \
             re-run `verigym import` on the data set to write code/dataset-v2 cards"
        );
        assert_eq!(
            no_card_of("m.jsonl", &card("math/dataset-v1"), "code/dataset-v2").to_string(),
            "cards: m.jsonl holds no card of code/dataset-v2 (only of math/dataset-v1)"
        );
        assert_eq!(
            no_card_of("e.jsonl", "", "code/dataset-v2").to_string(),
            "cards: e.jsonl holds no card of code/dataset-v2"
        );
    }

    #[test]
    fn levels_split_the_pool_in_thirds_and_never_empty() {
        let pool: Vec<u32> = (0..10).collect();
        assert_eq!(level_slice(&pool, Some(0)), &[0, 1, 2]);
        assert_eq!(level_slice(&pool, Some(1)), &[3, 4, 5]);
        assert_eq!(level_slice(&pool, Some(2)), &[6, 7, 8, 9]);
        assert_eq!(level_slice(&pool, None).len(), 10);
        let tiny = [7u32];
        for l in 0..LEVEL_COUNT {
            assert_eq!(level_slice(&tiny, Some(l)), &[7]);
        }
    }
}
