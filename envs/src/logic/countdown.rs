//! `logic/countdown-v1`: reach a target number using each given number once.
//!
//! # Task
//! `count` numbers drawn from the countdown pool (1–10 twice each, and 25,
//! 50, 75, 100) and a target in `target_min..=target_max` that the
//! generator reached by combining all of them with `+ - * /` (every
//! intermediate a positive integer), so a solution always exists.
//!
//! # Action
//! One arithmetic expression using every given number exactly once (no
//! other numbers), with `+ - * /` and parentheses, optionally followed by
//! `= target`; in `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The numbers and the target. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the expression (parsed by our own parser on exact
//! rationals, never evaluated as code) uses exactly the given multiset of
//! numbers and equals the target; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `count` (3..=6), `target_min`, `target_max` (10..=9999).
//!
//! # Seeding
//! Numbers and combination order come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::countdown::check_countdown;

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::logic::solvers::arith::wrap;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CountdownConfig {
    pub count: usize,
    pub target_min: i64,
    pub target_max: i64,
}

impl Default for CountdownConfig {
    fn default() -> Self {
        CountdownConfig {
            count: 5,
            target_min: 100,
            target_max: 999,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountdownTask {
    pub numbers: Vec<u64>,
    pub target: i64,
    /// One expression that reaches the target.
    pub solution: String,
}

const POOL: [u64; 24] = [
    1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 25, 50, 75, 100,
];

/// Combines all numbers in random order and with random ops, keeping every
/// intermediate a positive integer; `None` when the draw dead-ends.
fn random_combination(numbers: &[u64], rng: &mut Rng) -> Option<(i64, String)> {
    let mut items: Vec<(i64, String)> =
        numbers.iter().map(|&n| (n as i64, n.to_string())).collect();
    while items.len() > 1 {
        let i = rng.below(items.len() as u64) as usize;
        let (a, ta) = items.swap_remove(i);
        let j = rng.below(items.len() as u64) as usize;
        let (b, tb) = items.swap_remove(j);
        let (hi, lo, thi, tlo) = if a >= b {
            (a, b, ta, tb)
        } else {
            (b, a, tb, ta)
        };
        let mut options: Vec<(char, i64)> = vec![('+', hi + lo), ('*', hi.checked_mul(lo)?)];
        if hi > lo {
            options.push(('-', hi - lo));
        }
        if hi % lo == 0 && lo > 1 {
            options.push(('/', hi / lo));
        }
        let (op, value) = *rng.choose(&options)?;
        items.push((value, format!("{} {op} {}", wrap(&thi), wrap(&tlo))));
    }
    items.pop()
}

pub struct Countdown;

pub type CountdownEnv = SingleTurn<Countdown>;

impl Question for Countdown {
    type Config = CountdownConfig;
    type Task = CountdownTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/countdown-v1",
        kind: EnvKind::SingleTurn,
        description: "Reach a target with + - * / using each given number exactly once; answer an expression",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"count":4,"target_min":10,"target_max":99}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"count":6,"target_min":100,"target_max":999}"#,
            },
        ],
    };

    fn validate(config: &CountdownConfig) -> Result<(), ConfigError> {
        if !(3..=6).contains(&config.count) {
            return Err("count must be 3..=6".into());
        }
        if config.target_min < 10
            || config.target_max > 9999
            || config.target_min > config.target_max
        {
            return Err("need 10 <= target_min <= target_max <= 9999".into());
        }
        Ok(())
    }

    fn generate(config: &CountdownConfig, rng: &mut Rng) -> CountdownTask {
        let mut pool = POOL;
        loop {
            // Partial shuffle: the first `count` of the pool.
            for i in 0..config.count {
                let j = i + rng.below((pool.len() - i) as u64) as usize;
                pool.swap(i, j);
            }
            let mut numbers = pool[..config.count].to_vec();
            numbers.sort_unstable();
            let Some((target, solution)) = random_combination(&numbers, rng) else {
                continue;
            };
            if (config.target_min..=config.target_max).contains(&target) {
                return CountdownTask {
                    numbers,
                    target,
                    solution,
                };
            }
        }
    }

    fn prompt(task: &CountdownTask) -> String {
        let numbers: Vec<String> = task.numbers.iter().map(u64::to_string).collect();
        format!(
            "Using the numbers [{}], make {}. Use each number exactly once (all of them, no other numbers), \
             with + - * / and parentheses; division must be exact arithmetic (fractions allowed along the \
             way). Answer with one expression, e.g. (a + b) * c, inside \\boxed{{}}.",
            numbers.join(", "),
            task.target
        )
    }

    fn structured(task: &CountdownTask) -> Value {
        json!({ "numbers": task.numbers, "target": task.target })
    }

    fn reference(task: &CountdownTask) -> String {
        task.solution.clone()
    }

    fn check(task: &CountdownTask, answer: &str) -> Result<bool, CheckError> {
        check_countdown(answer, &task.numbers, task.target)
            .map_err(|e| CheckError::unreadable(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            CountdownConfig::default(),
            CountdownConfig {
                count: 4,
                target_min: 10,
                target_max: 99,
            },
        ] {
            standard_answers::<Countdown>(&config, 30);
        }
    }

    #[test]
    fn expressions_must_use_exactly_the_numbers_and_hit_the_target() {
        let task = CountdownTask {
            numbers: vec![3, 7, 25, 100],
            target: 246,
            solution: "(100 + 7 - 25) * 3".into(),
        };
        assert!(passes::<Countdown>(&task, "\\boxed{(100 + 7 - 25) * 3}"));
        assert!(passes::<Countdown>(&task, "3 × [7 + 100 − 25] = 246"));
        for bad in [
            "(100 + 7 - 25) * 3 * 1",
            "(100 + 7 - 25 - 3) * 3",
            "(100 - 25) * 3 + 21",
            "(100 + 7 + 25) * 3",
            "(100 + 7 - 25) * 3 = 247",
            "246",
            "(100 + 7 - 25) * 3 or 246",
            "(1OO + 7 - 25) * 3",
        ] {
            assert!(!passes::<Countdown>(&task, bad), "{bad:?} passed");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            CountdownConfig {
                count: 4,
                target_min: 10,
                target_max: 99,
            },
            CountdownConfig::default(),
        ] {
            let rate = cross_reference_rate::<Countdown>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
