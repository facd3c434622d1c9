//! `logic/subset-sum-v1`: pick some of the given numbers that add up to a
//! target.
//!
//! # Task
//! `count` numbers drawn from `1..=max_value` and a target that is the sum
//! of a random subset of them (so a solution exists). Targets equal to one
//! of the numbers or to the sum of all of them are redrawn.
//!
//! # Action
//! The chosen numbers, separated by spaces, commas or `+`, optionally
//! followed by `= target`. Each given number may be used at most as often
//! as it appears. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The numbers and the target. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any sub-multiset of the numbers summing to the
//! target; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `count` (4..=40), `max_value` (10..=10^9).
//!
//! # Seeding
//! Numbers and the hidden subset come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SubsetSumConfig {
    pub count: usize,
    pub max_value: u64,
}

impl Default for SubsetSumConfig {
    fn default() -> Self {
        SubsetSumConfig {
            count: 10,
            max_value: 100,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubsetSumTask {
    pub numbers: Vec<u64>,
    pub target: u64,
    pub subset: Vec<u64>,
}

/// Reads `a b c`, `a + b + c`, `a, b, c`, optionally `= target`.
fn parse_subset(answer: &str, target: u64) -> Result<Vec<u64>, InvalidAction> {
    let (list, total) = match answer.split_once('=') {
        Some((list, total)) => (list, Some(total.trim())),
        None => (answer, None),
    };
    if let Some(total) = total
        && total.parse::<u64>() != Ok(target)
    {
        return Err(format!("`= {total}` is not the target").into());
    }
    let mut numbers = Vec::new();
    for token in list
        .split(|c: char| c.is_whitespace() || ",+;[]{}()".contains(c))
        .filter(|t| !t.is_empty())
    {
        numbers.push(
            token
                .parse::<u64>()
                .map_err(|_| format!("`{token}` is not a number"))?,
        );
        if numbers.len() > 1000 {
            return Err("too many numbers".into());
        }
    }
    if numbers.is_empty() {
        return Err("no numbers given".into());
    }
    Ok(numbers)
}

pub struct SubsetSum;

pub type SubsetSumEnv = SingleTurn<SubsetSum>;

impl Question for SubsetSum {
    type Config = SubsetSumConfig;
    type Task = SubsetSumTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/subset-sum-v1",
        kind: EnvKind::SingleTurn,
        description: "Choose some of the given numbers that sum to a target; any valid choice passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"count":6,"max_value":30}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"count":20,"max_value":1000000}"#,
            },
        ],
    };

    fn validate(config: &SubsetSumConfig) -> Result<(), ConfigError> {
        if !(4..=40).contains(&config.count) || !(10..=1_000_000_000).contains(&config.max_value) {
            return Err("need 4 <= count <= 40 and 10 <= max_value <= 10^9".into());
        }
        Ok(())
    }

    fn generate(config: &SubsetSumConfig, rng: &mut Rng) -> SubsetSumTask {
        loop {
            let numbers: Vec<u64> = (0..config.count)
                .map(|_| 1 + rng.below(config.max_value))
                .collect();
            let chosen: Vec<bool> = (0..config.count).map(|_| rng.chance(0.5)).collect();
            let subset: Vec<u64> = numbers
                .iter()
                .zip(&chosen)
                .filter(|(_, c)| **c)
                .map(|(n, _)| *n)
                .collect();
            let target: u64 = subset.iter().sum();
            let total: u64 = numbers.iter().sum();
            if subset.len() >= 2 && target != total && !numbers.contains(&target) {
                return SubsetSumTask {
                    numbers,
                    target,
                    subset,
                };
            }
        }
    }

    fn prompt(task: &SubsetSumTask) -> String {
        let numbers: Vec<String> = task.numbers.iter().map(u64::to_string).collect();
        format!(
            "Choose some of these numbers so that they add up to exactly {}. Each number may be used at most as \
             many times as it appears in the list.\nNumbers: {}\n\nAnswer with the chosen numbers separated by \
             spaces inside \\boxed{{}}.",
            task.target,
            numbers.join(", ")
        )
    }

    fn structured(task: &SubsetSumTask) -> Value {
        json!({ "numbers": task.numbers, "target": task.target })
    }

    fn reference(task: &SubsetSumTask) -> String {
        task.subset
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &SubsetSumTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_subset(answer, task.target)?;
        let mut available = task.numbers.clone();
        for n in &chosen {
            match available.iter().position(|a| a == n) {
                Some(i) => {
                    available.swap_remove(i);
                }
                None => return Ok(false),
            }
        }
        Ok(chosen.iter().sum::<u64>() == task.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            SubsetSumConfig::default(),
            SubsetSumConfig {
                count: 6,
                max_value: 30,
            },
        ] {
            standard_answers::<SubsetSum>(&config, 40);
        }
    }

    #[test]
    fn only_available_numbers_summing_to_the_target_pass() {
        let task = SubsetSumTask {
            numbers: vec![3, 5, 5, 9, 14],
            target: 19,
            subset: vec![5, 14],
        };
        for good in ["5 14", "14 + 5 = 19", "5, 5, 9", "[5, 14]"] {
            assert!(passes::<SubsetSum>(&task, good), "{good:?}");
        }
        for bad in [
            "19",
            "5 5 5 4",
            "9 9 1",
            "3 5 9",
            "5 14 = 20",
            "5 14 0 1",
            "5 or 14",
            "5 14 -0",
            "-5 24",
        ] {
            assert!(!passes::<SubsetSum>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            SubsetSumConfig {
                count: 6,
                max_value: 30,
            },
            SubsetSumConfig::default(),
        ] {
            let rate = cross_reference_rate::<SubsetSum>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
