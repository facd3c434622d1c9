//! `logic/latin-square-v1`: complete a latin square that has one solution.
//!
//! # Task
//! An `n × n` grid (4..=9) with some cells given. The generator draws a
//! random latin square, then removes givens in random order while a limit-2
//! solution count stays 1, down to `target_givens` (0 = minimal).
//!
//! # Action
//! The full grid, one row per line, numbers separated by spaces, in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with `.` for empty cells. Structured: `n` and the givens.
//!
//! # Reward
//! 1 and `passed` for a latin square that keeps every given; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n`, `target_givens`.
//!
//! # Seeding
//! Solution and removal order come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::{is_latin_square, parse_grid, respects_givens};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::logic::solvers::latin::{LatinSolver, dig_unique};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LatinSquareConfig {
    pub n: usize,
    pub target_givens: usize,
}

impl Default for LatinSquareConfig {
    fn default() -> Self {
        LatinSquareConfig {
            n: 6,
            target_givens: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatinSquareTask {
    pub n: usize,
    pub givens: Vec<u8>,
    pub solution: Vec<u8>,
}

/// Rows of numbers separated by spaces, `.` for 0.
pub fn rows_text(cells: &[u8], n: usize) -> String {
    cells
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|&v| {
                    if v == 0 {
                        ".".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub struct LatinSquare;

pub type LatinSquareEnv = SingleTurn<LatinSquare>;

impl Question for LatinSquare {
    type Config = LatinSquareConfig;
    type Task = LatinSquareTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/latin-square-v1",
        kind: EnvKind::SingleTurn,
        description: "Complete a unique-solution latin square; answer the full grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":4,"target_givens":0}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":8,"target_givens":0}"#,
            },
        ],
    };

    fn validate(config: &LatinSquareConfig) -> Result<(), ConfigError> {
        if !(4..=9).contains(&config.n) || config.target_givens > config.n * config.n {
            return Err("need 4 <= n <= 9 and target_givens <= n*n".into());
        }
        Ok(())
    }

    fn generate(config: &LatinSquareConfig, rng: &mut Rng) -> LatinSquareTask {
        let n = config.n;
        let mut solver = LatinSolver::new(n, None);
        solver.load(&vec![0; n * n]);
        let solution = solver.random_solution(rng).expect("latin squares exist");
        let givens = dig_unique(&mut solver, &solution, config.target_givens, rng);
        LatinSquareTask {
            n,
            givens,
            solution,
        }
    }

    fn prompt(task: &LatinSquareTask) -> String {
        let n = task.n;
        format!(
            "Complete this {n}x{n} latin square: fill every empty cell (.) with a number 1-{n} so that each row \
             and each column contains every number 1-{n} exactly once. The completion is unique.\n\n{}\n\n\
             Answer with the completed grid: {n} lines of {n} numbers separated by spaces, inside \\boxed{{}}.",
            rows_text(&task.givens, n)
        )
    }

    fn structured(task: &LatinSquareTask) -> Value {
        json!({ "n": task.n, "givens": task.givens })
    }

    fn reference(task: &LatinSquareTask) -> String {
        rows_text(&task.solution, task.n)
    }

    fn check(task: &LatinSquareTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_grid(answer, task.n, task.n, task.n as u8).map_err(|e| e.to_string())?;
        Ok(is_latin_square(&grid, task.n) && respects_givens(&grid, &task.givens))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent counter: cells in order, clashes found by scanning.
    fn count_plainly(grid: &mut Vec<u8>, n: usize, limit: usize) -> usize {
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            return 1;
        };
        let (r, c) = (cell / n, cell % n);
        let mut total = 0;
        for v in 1..=n as u8 {
            if (0..n).all(|i| grid[r * n + i] != v && grid[i * n + c] != v) {
                grid[cell] = v;
                total += count_plainly(grid, n, limit - total);
                grid[cell] = 0;
                if total >= limit {
                    break;
                }
            }
        }
        total
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for n in [4, 6, 8] {
            standard_answers::<LatinSquare>(
                &LatinSquareConfig {
                    n,
                    target_givens: 0,
                },
                10,
            );
        }
    }

    #[test]
    fn a_latin_square_ignoring_the_givens_fails() {
        let task = LatinSquare::generate(&LatinSquareConfig::default(), &mut Rng::from_seed(4));
        let relabelled: Vec<u8> = task.solution.iter().map(|&v| v % 6 + 1).collect();
        assert!(is_latin_square(&relabelled, 6));
        assert!(!passes::<LatinSquare>(&task, &rows_text(&relabelled, 6)));
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        assert!(
            cross_reference_rate::<LatinSquare>(
                &LatinSquareConfig {
                    n: 4,
                    target_givens: 0
                },
                1000
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<LatinSquare>(&LatinSquareConfig::default(), 300),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn generated_squares_have_exactly_one_completion(seed in any::<u64>(), n in 4usize..=6) {
            let task = LatinSquare::generate(&LatinSquareConfig { n, target_givens: 0 }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_plainly(&mut task.givens.clone(), n, 2), 1);
        }
    }
}
