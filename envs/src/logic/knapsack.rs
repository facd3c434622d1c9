//! `logic/knapsack-v1`: choose items of the greatest total value that fit a
//! weight limit (0/1 knapsack, optimum proven by dynamic programming).
//!
//! # Task
//! `items` items with distinct random three-letter names, weights in
//! `1..=max_weight` and values in `1..=max_value`; the capacity is half the
//! total weight (rounded down). Draws where one item alone is optimal are
//! redrawn, so copying one name out of the list never passes.
//!
//! # Action
//! The chosen item names, separated by spaces, commas, `+` or `;`; case is
//! ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The items (name, weight, value) and the capacity. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any set of distinct items whose weight is at most the
//! capacity and whose value is the optimum (every optimal set passes; the
//! check never compares with one reference set); else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `items` (3..=40), `max_weight` (2..=1000), `max_value` (2..=1000).
//!
//! # Seeding
//! Names, weights and values come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KnapsackConfig {
    pub items: usize,
    pub max_weight: u64,
    pub max_value: u64,
}

impl Default for KnapsackConfig {
    fn default() -> Self {
        KnapsackConfig {
            items: 10,
            max_weight: 30,
            max_value: 60,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KnapsackTask {
    pub names: Vec<String>,
    pub weights: Vec<u64>,
    pub values: Vec<u64>,
    pub capacity: u64,
    /// The optimum value.
    pub best: u64,
    /// One optimal set, as indices.
    pub chosen: Vec<usize>,
}

/// The optimum of a 0/1 knapsack and one optimal set (indices, ascending).
fn solve(weights: &[u64], values: &[u64], capacity: u64) -> (u64, Vec<usize>) {
    let cap = capacity as usize;
    // best[i][c]: the best value of the first i items within weight c.
    let mut best = vec![vec![0u64; cap + 1]; weights.len() + 1];
    for (i, (&w, &v)) in weights.iter().zip(values).enumerate() {
        let w = w as usize;
        for c in 0..=cap {
            best[i + 1][c] = best[i][c];
            if w <= c {
                best[i + 1][c] = best[i + 1][c].max(best[i][c - w] + v);
            }
        }
    }
    let mut chosen = Vec::new();
    let mut c = cap;
    for i in (0..weights.len()).rev() {
        if best[i + 1][c] != best[i][c] {
            chosen.push(i);
            c -= weights[i] as usize;
        }
    }
    chosen.reverse();
    (best[weights.len()][cap], chosen)
}

/// Reads item names; an unknown name is unreadable.
fn parse_items(answer: &str, task: &KnapsackTask) -> Result<Vec<usize>, InvalidAction> {
    let tokens = answer
        .split(|c: char| c.is_whitespace() || ",+;".contains(c))
        .filter(|t| !t.is_empty());
    read_names(tokens, &task.names, "item")
}

pub struct Knapsack;

pub type KnapsackEnv = SingleTurn<Knapsack>;

impl Question for Knapsack {
    type Config = KnapsackConfig;
    type Task = KnapsackTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/knapsack-v1",
        kind: EnvKind::SingleTurn,
        description: "Choose items of the greatest total value within a weight limit; any optimal set passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"items":4,"max_weight":10,"max_value":20}"#,
        r#"{"items":6,"max_weight":15,"max_value":30}"#,
        r#"{"items":8,"max_weight":20,"max_value":40}"#,
        "{}",
        r#"{"items":15,"max_weight":50,"max_value":100}"#,
        r#"{"items":20,"max_weight":100,"max_value":200}"#,
        r#"{"items":30,"max_weight":300,"max_value":500}"#,
    ];

    fn effort(task: &KnapsackTask) -> Option<f64> {
        Some(task.names.len() as f64)
    }

    fn validate(config: &KnapsackConfig) -> Result<(), ConfigError> {
        if !(3..=40).contains(&config.items)
            || !(2..=1000).contains(&config.max_weight)
            || !(2..=1000).contains(&config.max_value)
        {
            return Err(
                "need 3 <= items <= 40, 2 <= max_weight <= 1000, 2 <= max_value <= 1000".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &KnapsackConfig, rng: &mut Rng) -> KnapsackTask {
        loop {
            let names = draw_names(config.items, rng);
            let weights: Vec<u64> = (0..config.items)
                .map(|_| 1 + rng.below(config.max_weight))
                .collect();
            let values: Vec<u64> = (0..config.items)
                .map(|_| 1 + rng.below(config.max_value))
                .collect();
            let capacity = weights.iter().sum::<u64>() / 2;
            let (best, chosen) = solve(&weights, &values, capacity);
            let best_single = (0..config.items)
                .filter(|&i| weights[i] <= capacity)
                .map(|i| values[i])
                .max()
                .unwrap_or(0);
            if chosen.len() >= 2 && best_single < best {
                return KnapsackTask {
                    names,
                    weights,
                    values,
                    capacity,
                    best,
                    chosen,
                };
            }
        }
    }

    fn prompt(task: &KnapsackTask) -> String {
        let items: Vec<String> = (0..task.names.len())
            .map(|i| {
                format!(
                    "{}: weight {}, value {}",
                    task.names[i], task.weights[i], task.values[i]
                )
            })
            .collect();
        format!(
            "Choose items with the greatest total value whose total weight is at most {}. Each item can be \
             chosen at most once.\nItems:\n{}\n\nAnswer with the names of the chosen items, separated by \
             spaces, inside \\boxed{{}}.",
            task.capacity,
            items.join("\n")
        )
    }

    fn structured(task: &KnapsackTask) -> Value {
        let items: Vec<Value> = (0..task.names.len())
            .map(|i| json!({"name": task.names[i], "weight": task.weights[i], "value": task.values[i]}))
            .collect();
        json!({ "items": items, "capacity": task.capacity })
    }

    fn reference(task: &KnapsackTask) -> String {
        task.chosen
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &KnapsackTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_items(answer, task)?;
        let distinct: BTreeSet<usize> = chosen.iter().copied().collect();
        let weight: u64 = chosen.iter().map(|&i| task.weights[i]).sum();
        let value: u64 = chosen.iter().map(|&i| task.values[i]).sum();
        Ok(distinct.len() == chosen.len() && weight <= task.capacity && value == task.best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// Capacity 10: {AAA, BBB} and {CCC, DDD} both weigh 10 and are worth 12.
    fn two_optima() -> KnapsackTask {
        let names = ["AAA", "BBB", "CCC", "DDD", "EEE"]
            .map(String::from)
            .to_vec();
        let (weights, values) = (vec![4, 6, 5, 5, 9], vec![5, 7, 6, 6, 10]);
        let (best, chosen) = solve(&weights, &values, 10);
        KnapsackTask {
            names,
            weights,
            values,
            capacity: 10,
            best,
            chosen,
        }
    }

    #[test]
    fn the_solver_finds_the_optimum_a_brute_force_finds() {
        let mut rng = Rng::from_seed(11);
        for _ in 0..200 {
            let n = 3 + rng.below(8) as usize;
            let weights: Vec<u64> = (0..n).map(|_| 1 + rng.below(20)).collect();
            let values: Vec<u64> = (0..n).map(|_| 1 + rng.below(30)).collect();
            let capacity = weights.iter().sum::<u64>() / 2;
            let brute = (0u32..1 << n)
                .filter(|m| {
                    (0..n)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| weights[i])
                        .sum::<u64>()
                        <= capacity
                })
                .map(|m| {
                    (0..n)
                        .filter(|i| m >> i & 1 == 1)
                        .map(|i| values[i])
                        .sum::<u64>()
                })
                .max()
                .unwrap();
            let (best, chosen) = solve(&weights, &values, capacity);
            assert_eq!(best, brute);
            assert_eq!(chosen.iter().map(|&i| values[i]).sum::<u64>(), best);
            assert!(chosen.iter().map(|&i| weights[i]).sum::<u64>() <= capacity);
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for level in [0, 3, 6] {
            let config = serde_json::from_str(Knapsack::LEVELS[level]).unwrap();
            standard_answers::<Knapsack>(&config, 30);
        }
    }

    #[test]
    fn every_optimal_set_passes_and_others_fail() {
        let task = two_optima();
        assert_eq!(task.best, 12);
        for good in [
            "AAA BBB",
            "CCC DDD",
            "ddd, ccc",
            "BBB + AAA",
            "\\boxed{CCC DDD}",
        ] {
            assert!(passes::<Knapsack>(&task, good), "{good:?}");
        }
        for bad in [
            "EEE",
            "AAA CCC",
            "AAA BBB CCC",
            "AAA AAA BBB",
            "AAA BBB or CCC DDD",
            "\\boxed{AAA BBB} \\boxed{EEE}",
            "AAA BBB XYZ",
            "12",
            "",
        ] {
            assert!(!passes::<Knapsack>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn no_single_item_and_not_every_item_is_optimal() {
        let mut rng = Rng::from_seed(3);
        for level in Knapsack::LEVELS {
            let config: KnapsackConfig = serde_json::from_str(level).unwrap();
            Knapsack::validate(&config).unwrap();
            let task = Knapsack::generate(&config, &mut rng);
            for name in &task.names {
                assert!(
                    !Knapsack::check(&task, name).unwrap(),
                    "{name} alone passes"
                );
            }
            assert!(!Knapsack::check(&task, &task.names.join(" ")).unwrap());
        }
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for level in [0, 3] {
            let config = serde_json::from_str(Knapsack::LEVELS[level]).unwrap();
            let rate = cross_reference_rate::<Knapsack>(&config, 1000);
            assert!(rate < 0.01, "{level}: {rate}");
        }
    }
}
