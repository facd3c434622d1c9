//! `logic/interval-scheduling-v1`: choose as many named time intervals as
//! possible (or, weighted, the greatest total value) with no two
//! overlapping (optimum proven by dynamic programming).
//!
//! # Task
//! `intervals` intervals with distinct random three-letter names, each
//! `[start, end)` with `start` in `0..horizon` and length in
//! `1..=max_length` (cut at `horizon`); with `weighted`, each has a value in
//! `1..=20` and the goal is the greatest total value. Intervals that only
//! touch (one ends at 5, the next starts at 5) do not overlap. Draws where
//! one interval alone or every interval is optimal, where taking the
//! listed intervals first come first served is already optimal, or
//! (weighted) where the most intervals are already worth the most, are
//! redrawn. Names are drawn per task, so one task's set never answers
//! another.
//!
//! # Action
//! The chosen interval names, separated by spaces, commas, `+` or `;`; case
//! is ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The intervals (name, start, end, and value when weighted). Structured:
//! the same.
//!
//! # Reward
//! 1 and `passed` for any set of distinct, pairwise non-overlapping
//! intervals whose size (weighted: total value) is the optimum (every
//! optimal set passes; the check never compares with one reference set);
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `intervals` (4..=60), `horizon` (8..=500), `max_length` (2..=`horizon`),
//! `weighted` (bool).
//!
//! # Seeding
//! Names, intervals and values come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;
/// The largest value of a weighted interval.
const MAX_VALUE: u64 = 20;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IntervalSchedulingConfig {
    pub intervals: usize,
    pub horizon: u64,
    pub max_length: u64,
    pub weighted: bool,
}

impl Default for IntervalSchedulingConfig {
    fn default() -> Self {
        IntervalSchedulingConfig {
            intervals: 12,
            horizon: 30,
            max_length: 8,
            weighted: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntervalSchedulingTask {
    pub names: Vec<String>,
    /// `[start, end)` of each interval.
    pub spans: Vec<(u64, u64)>,
    /// Each interval's value (all 1 when unweighted).
    pub values: Vec<u64>,
    pub weighted: bool,
    /// The optimum count or total value.
    pub best: u64,
    /// One optimal set, as indices (ascending).
    pub chosen: Vec<usize>,
}

fn overlap(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// The greatest total value of pairwise disjoint intervals and one set
/// reaching it (weighted interval scheduling by dynamic programming).
fn solve(spans: &[(u64, u64)], values: &[u64]) -> (u64, Vec<usize>) {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| (spans[i].1, i));
    // best[k]: the optimum over the first k intervals by end; take[k]:
    // whether the k-th is in it, after which the optimum continues at prior[k].
    let n = order.len();
    let mut best = vec![0u64; n + 1];
    let mut prior = vec![0usize; n + 1];
    for k in 1..=n {
        let i = order[k - 1];
        prior[k] = (0..k - 1)
            .rev()
            .find(|&j| spans[order[j]].1 <= spans[i].0)
            .map_or(0, |j| j + 1);
        best[k] = best[k - 1].max(best[prior[k]] + values[i]);
    }
    let mut chosen = Vec::new();
    let mut k = n;
    while k > 0 {
        if best[k] == best[k - 1] {
            k -= 1;
        } else {
            chosen.push(order[k - 1]);
            k = prior[k];
        }
    }
    chosen.sort_unstable();
    (best[n], chosen)
}

/// Whether `chosen` is a set of distinct, pairwise disjoint intervals.
fn disjoint(spans: &[(u64, u64)], chosen: &[usize]) -> bool {
    let distinct: BTreeSet<usize> = chosen.iter().copied().collect();
    distinct.len() == chosen.len()
        && chosen.iter().enumerate().all(|(k, &a)| {
            chosen[k + 1..]
                .iter()
                .all(|&b| !overlap(spans[a], spans[b]))
        })
}

fn parse_names(answer: &str, task: &IntervalSchedulingTask) -> Result<Vec<usize>, InvalidAction> {
    let tokens = answer
        .split(|c: char| c.is_whitespace() || ",+;{}$".contains(c))
        .filter(|t| !t.is_empty());
    read_names(tokens, &task.names, "interval")
}

pub struct IntervalScheduling;

impl IntervalScheduling {
    fn draw(config: &IntervalSchedulingConfig, rng: &mut Rng) -> Option<IntervalSchedulingTask> {
        let n = config.intervals;
        let names = draw_names(n, rng);
        let spans: Vec<(u64, u64)> = (0..n)
            .map(|_| {
                let start = rng.below(config.horizon);
                let length = 1 + rng.below(config.max_length);
                (start, (start + length).min(config.horizon))
            })
            .collect();
        let values: Vec<u64> = (0..n)
            .map(|_| {
                if config.weighted {
                    1 + rng.below(MAX_VALUE)
                } else {
                    1
                }
            })
            .collect();
        let (best, chosen) = solve(&spans, &values);
        let total = |set: &[usize]| set.iter().map(|&i| values[i]).sum::<u64>();
        let mut greedy = Vec::new();
        for i in 0..n {
            greedy.push(i);
            if !disjoint(&spans, &greedy) {
                greedy.pop();
            }
        }
        let (_, most) = solve(&spans, &vec![1; n]);
        let fine = chosen.len() >= 2
            && chosen.len() < n
            && values.iter().all(|&v| v < best)
            && total(&greedy) < best
            && (!config.weighted || total(&most) < best);
        fine.then_some(IntervalSchedulingTask {
            names,
            spans,
            values,
            weighted: config.weighted,
            best,
            chosen,
        })
    }
}

pub type IntervalSchedulingEnv = SingleTurn<IntervalScheduling>;

impl Question for IntervalScheduling {
    type Config = IntervalSchedulingConfig;
    type Task = IntervalSchedulingTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/interval-scheduling-v1",
        kind: EnvKind::SingleTurn,
        description: "Choose the most (or most valuable) non-overlapping time intervals; any optimal set passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"intervals":5,"horizon":12,"max_length":5}"#,
        r#"{"intervals":7,"horizon":16,"max_length":6}"#,
        r#"{"intervals":9,"horizon":20,"max_length":7}"#,
        "{}",
        r#"{"intervals":16,"horizon":40,"max_length":10,"weighted":true}"#,
        r#"{"intervals":24,"horizon":60,"max_length":12,"weighted":true}"#,
        r#"{"intervals":36,"horizon":100,"max_length":15,"weighted":true}"#,
    ];

    fn effort(task: &IntervalSchedulingTask) -> Option<f64> {
        Some(task.names.len() as f64 * if task.weighted { 2.0 } else { 1.0 })
    }

    fn validate(config: &IntervalSchedulingConfig) -> Result<(), ConfigError> {
        if !(4..=60).contains(&config.intervals)
            || !(8..=500).contains(&config.horizon)
            || !(2..=config.horizon).contains(&config.max_length)
        {
            return Err(
                "need 4 <= intervals <= 60, 8 <= horizon <= 500 and 2 <= max_length <= horizon"
                    .into(),
            );
        }
        Ok(())
    }

    fn generate(config: &IntervalSchedulingConfig, rng: &mut Rng) -> IntervalSchedulingTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &IntervalSchedulingConfig,
        rng: &mut Rng,
    ) -> Result<IntervalSchedulingTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no draw in {MAX_DRAWS} had an optimum of two or more intervals that first come, first \
                     served misses: change max_length (now {}) or horizon (now {})",
                    config.max_length, config.horizon
                )
            },
        )
    }

    fn prompt(task: &IntervalSchedulingTask) -> String {
        let lines: Vec<String> = (0..task.names.len())
            .map(|i| {
                let (start, end) = task.spans[i];
                if task.weighted {
                    format!(
                        "{}: from {start} to {end}, value {}",
                        task.names[i], task.values[i]
                    )
                } else {
                    format!("{}: from {start} to {end}", task.names[i])
                }
            })
            .collect();
        let goal = if task.weighted {
            "whose total value is as large as possible"
        } else {
            "as many as possible"
        };
        format!(
            "Choose intervals, {goal}, so that no two chosen intervals overlap. An interval from a to b \
             covers the times from a up to b; two intervals that only touch (one ends at 5, the other \
             starts at 5) do not overlap.\nIntervals:\n{}\n\nAnswer with the names of the chosen \
             intervals, separated by spaces, inside \\boxed{{}}.",
            lines.join("\n")
        )
    }

    fn structured(task: &IntervalSchedulingTask) -> Value {
        let intervals: Vec<Value> = (0..task.names.len())
            .map(|i| {
                let (start, end) = task.spans[i];
                let mut item = json!({"name": task.names[i], "start": start, "end": end});
                if task.weighted {
                    item["value"] = json!(task.values[i]);
                }
                item
            })
            .collect();
        json!({ "intervals": intervals, "weighted": task.weighted })
    }

    fn reference(task: &IntervalSchedulingTask) -> String {
        task.chosen
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &IntervalSchedulingTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_names(answer, task)?;
        let value: u64 = chosen.iter().map(|&i| task.values[i]).sum();
        Ok(disjoint(&task.spans, &chosen) && value == task.best)
    }
}

#[cfg(test)]
#[path = "interval_scheduling_tests.rs"]
mod tests;
