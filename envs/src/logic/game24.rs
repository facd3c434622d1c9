//! `logic/24-game-v1`: make 24 from four cards with `+ - * /`.
//!
//! # Task
//! `count` numbers drawn uniformly from `1..=max_number` (with repeats),
//! kept only when an exact search finds an expression equal to `target`.
//!
//! # Action
//! One expression using every number exactly once, with `+ - * /` and
//! parentheses (fractions allowed along the way), optionally `= 24`; in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The numbers and the target. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the expression uses exactly the given numbers and
//! equals the target (our own parser, exact rationals); else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `count` (3..=6), `max_number` (2..=100), `target` (1..=1000).
//!
//! # Seeding
//! Numbers come from the task rng; unsolvable draws are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::countdown::check_countdown;

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::arith::find_expression_within;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Game24Config {
    pub count: usize,
    pub max_number: u64,
    pub target: i64,
}

impl Default for Game24Config {
    fn default() -> Self {
        Game24Config {
            count: 4,
            max_number: 13,
            target: 24,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game24Task {
    pub numbers: Vec<u64>,
    pub target: i64,
    pub solution: String,
}

/// Search nodes spent at most over all the draws for one task (a count, not
/// time, so the outcome is a pure function of config and seed): about two
/// seconds. One failing draw of 6 numbers costs up to about 20 million, of
/// 5 numbers 300,000; the presets' draws mostly succeed.
const MAX_NODES: u64 = 50_000_000;

pub struct Game24;

pub type Game24Env = SingleTurn<Game24>;

impl Question for Game24 {
    type Config = Game24Config;
    type Task = Game24Task;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/24-game-v1",
        kind: EnvKind::SingleTurn,
        description: "Make 24 from four numbers with + - * /, each used once; answer an expression",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"max_number":9}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"count":5,"max_number":13,"target":100}"#,
            },
        ],
    };

    fn validate(config: &Game24Config) -> Result<(), ConfigError> {
        if !(3..=6).contains(&config.count)
            || !(2..=100).contains(&config.max_number)
            || !(1..=1000).contains(&config.target)
        {
            return Err("need count 3..=6, max_number 2..=100, target 1..=1000".into());
        }
        Ok(())
    }

    fn generate(config: &Game24Config, rng: &mut Rng) -> Game24Task {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws numbers until they make the target; a target the numbers can
    /// never make (24 from numbers up to 2) or rarely make gives up after
    /// [`MAX_NODES`] search nodes over all draws.
    fn try_generate(config: &Game24Config, rng: &mut Rng) -> Result<Game24Task, NoTask> {
        generate_within(config, rng, MAX_NODES)
    }

    fn prompt(task: &Game24Task) -> String {
        let numbers: Vec<String> = task.numbers.iter().map(u64::to_string).collect();
        format!(
            "Make {} from the numbers {}. Use every number exactly once and no other numbers, combined with \
             + - * / and parentheses (fractions are fine along the way). Answer with one expression inside \
             \\boxed{{}}.",
            task.target,
            numbers.join(" ")
        )
    }

    fn structured(task: &Game24Task) -> Value {
        json!({ "numbers": task.numbers, "target": task.target })
    }

    fn reference(task: &Game24Task) -> String {
        task.solution.clone()
    }

    fn check(task: &Game24Task, answer: &str) -> Result<bool, CheckError> {
        check_countdown(answer, &task.numbers, task.target)
            .map_err(|e| CheckError::unreadable(e.to_string()))
    }
}

/// [`Game24::try_generate`] with a budget of `max_nodes` search nodes.
fn generate_within(
    config: &Game24Config,
    rng: &mut Rng,
    max_nodes: u64,
) -> Result<Game24Task, NoTask> {
    let mut budget = max_nodes;
    while budget > 0 {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        let mut numbers: Vec<u64> = (0..config.count)
            .map(|_| 1 + rng.below(config.max_number))
            .collect();
        numbers.sort_unstable();
        let as_i64: Vec<i64> = numbers.iter().map(|&n| n as i64).collect();
        match find_expression_within(&as_i64, config.target, &mut budget) {
            Ok(Some(solution)) => {
                return Ok(Game24Task {
                    numbers,
                    target: config.target,
                    solution,
                });
            }
            Ok(None) => {}
            Err(()) => break,
        }
    }
    Err(format!(
        "no {} numbers from 1..={} made {} within {max_nodes} search steps; \
         change target or raise max_number",
        config.count, config.max_number, config.target
    )
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<Game24>(&Game24Config::default(), 40);
    }

    /// Numbers up to 2 never make 24: the search gives up with a message
    /// naming the fields to change (it used to draw forever); here with a
    /// fiftieth of the budget, to keep the test quick.
    #[test]
    fn an_unreachable_target_says_no_task_instead_of_searching_forever() {
        for count in [3, 4] {
            let config = Game24Config {
                count,
                max_number: 2,
                target: 24,
            };
            let error =
                generate_within(&config, &mut Rng::from_seed(1), MAX_NODES / 50).unwrap_err();
            assert!(
                error.to_string().contains("target") && error.to_string().contains("max_number"),
                "{error}"
            );
        }
    }

    #[test]
    fn fractional_intermediates_are_allowed_and_repeats_are_not() {
        let task = Game24Task {
            numbers: vec![1, 3, 4, 6],
            target: 24,
            solution: "6 / (1 - 3 / 4)".into(),
        };
        assert!(passes::<Game24>(&task, "\\boxed{6 / (1 - 3/4)}"));
        assert!(passes::<Game24>(&task, "6÷(1−3÷4) = 24"));
        for bad in [
            "6 * 4",
            "6 * 4 * 1 * 1",
            "6 * 4 * (3 - 1) / 2",
            "24",
            "6 / (1 - 3 / 4) = 25",
            "6 / (1 - 3 / 4) + 0",
        ] {
            assert!(!passes::<Game24>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            Game24Config::default(),
            Game24Config {
                max_number: 9,
                ..Default::default()
            },
        ] {
            let rate = cross_reference_rate::<Game24>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
