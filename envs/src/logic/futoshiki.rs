//! `logic/futoshiki-v1`: fill a latin square that obeys `<` signs between
//! neighbouring cells; exactly one solution.
//!
//! # Task
//! An `n × n` grid (4..=9). The generator draws a random latin square, keeps
//! each neighbouring pair's order sign with probability `sign_density`,
//! then removes givens in random order while a limit-2 solution count stays
//! 1, down to `target_givens` (0 = minimal).
//!
//! # Action
//! The full grid, one row per line, numbers separated by spaces, in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with `.` for empty cells, `<`/`>` between cells of a row and
//! `^`/`v` between rows (`^`: upper cell smaller, `v`: upper cell larger).
//! Structured: `n`, givens, and the signs as `[smaller, larger]` index pairs.
//!
//! # Reward
//! 1 and `passed` for a latin square that keeps the givens and every sign;
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n`, `sign_density` (0.05..=1), `target_givens`.
//!
//! # Seeding
//! Solution, signs and removal order come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::{is_latin_square, parse_grid, respects_givens, respects_less_than};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::logic::solvers::latin::{LatinSolver, dig_unique};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FutoshikiConfig {
    pub n: usize,
    pub sign_density: f64,
    pub target_givens: usize,
}

impl Default for FutoshikiConfig {
    fn default() -> Self {
        FutoshikiConfig {
            n: 5,
            sign_density: 0.3,
            target_givens: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FutoshikiTask {
    pub n: usize,
    pub givens: Vec<u8>,
    /// `(smaller, larger)` cell indices of neighbouring cells.
    pub less_than: Vec<(usize, usize)>,
    pub solution: Vec<u8>,
}

/// The solver loaded with a task's signs.
fn solver_for(n: usize, less_than: &[(usize, usize)]) -> LatinSolver {
    let mut solver = LatinSolver::new(n, None);
    for &(a, b) in less_than {
        solver.add_less_than(a, b);
    }
    solver
}

pub fn render(task: &FutoshikiTask) -> String {
    let n = task.n;
    let sign = |a: usize, b: usize| -> Option<bool> {
        task.less_than.iter().find_map(|&(x, y)| {
            if (x, y) == (a, b) {
                Some(true)
            } else if (x, y) == (b, a) {
                Some(false)
            } else {
                None
            }
        })
    };
    let mut out = String::new();
    for r in 0..n {
        for c in 0..n {
            let cell = r * n + c;
            match task.givens[cell] {
                0 => out.push('.'),
                v => out.push_str(&v.to_string()),
            }
            if c + 1 < n {
                out.push_str(match sign(cell, cell + 1) {
                    Some(true) => " < ",
                    Some(false) => " > ",
                    None => "   ",
                });
            }
        }
        out.push('\n');
        if r + 1 < n {
            let line: Vec<&str> = (0..n)
                .map(|c| match sign(r * n + c, (r + 1) * n + c) {
                    Some(true) => "^",
                    Some(false) => "v",
                    None => " ",
                })
                .collect();
            out.push_str(line.join("   ").trim_end());
            out.push('\n');
        }
    }
    out
}

pub struct Futoshiki;

pub type FutoshikiEnv = SingleTurn<Futoshiki>;

impl Question for Futoshiki {
    type Config = FutoshikiConfig;
    type Task = FutoshikiTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/futoshiki-v1",
        kind: EnvKind::SingleTurn,
        description: "Fill a latin square obeying inequality signs; unique solution; answer the full grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":4,"sign_density":0.4}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":7,"sign_density":0.25}"#,
            },
        ],
    };

    fn validate(config: &FutoshikiConfig) -> Result<(), ConfigError> {
        if !(4..=9).contains(&config.n) {
            return Err("n must be 4..=9".into());
        }
        if !(0.05..=1.0).contains(&config.sign_density) {
            return Err("sign_density must be 0.05..=1".into());
        }
        if config.target_givens > config.n * config.n {
            return Err("target_givens must be at most n*n".into());
        }
        Ok(())
    }

    fn generate(config: &FutoshikiConfig, rng: &mut Rng) -> FutoshikiTask {
        let n = config.n;
        let mut blank = LatinSolver::new(n, None);
        blank.load(&vec![0; n * n]);
        let solution = blank.random_solution(rng).expect("latin squares exist");
        let mut less_than = Vec::new();
        for cell in 0..n * n {
            let right = (cell % n + 1 < n).then_some(cell + 1);
            let below = (cell + n < n * n).then_some(cell + n);
            for other in [right, below].into_iter().flatten() {
                if rng.chance(config.sign_density) {
                    let pair = if solution[cell] < solution[other] {
                        (cell, other)
                    } else {
                        (other, cell)
                    };
                    less_than.push(pair);
                }
            }
        }
        let mut solver = solver_for(n, &less_than);
        let givens = dig_unique(&mut solver, &solution, config.target_givens, rng);
        FutoshikiTask {
            n,
            givens,
            less_than,
            solution,
        }
    }

    fn prompt(task: &FutoshikiTask) -> String {
        let n = task.n;
        format!(
            "Solve this {n}x{n} futoshiki puzzle. Fill every empty cell (.) with a number 1-{n} so that each row \
             and each column contains every number 1-{n} exactly once, and every inequality holds: < and > \
             compare the cells left and right of the sign; between rows, ^ means the upper cell is smaller than \
             the cell below it and v means the upper cell is larger. The puzzle has exactly one solution.\n\n{}\n\
             Answer with the completed grid: {n} lines of {n} numbers separated by spaces, inside \\boxed{{}}.",
            render(task)
        )
    }

    fn structured(task: &FutoshikiTask) -> Value {
        json!({ "n": task.n, "givens": task.givens, "less_than": task.less_than })
    }

    fn reference(task: &FutoshikiTask) -> String {
        task.solution
            .chunks(task.n)
            .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &FutoshikiTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_grid(answer, task.n, task.n, task.n as u8).map_err(|e| e.to_string())?;
        Ok(is_latin_square(&grid, task.n)
            && respects_givens(&grid, &task.givens)
            && respects_less_than(&grid, &task.less_than))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent counter: cells in order, validity by scanning the row,
    /// the column and the sign list.
    fn count_plainly(task: &FutoshikiTask, grid: &mut Vec<u8>, limit: usize) -> usize {
        let n = task.n;
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            return 1;
        };
        let mut total = 0;
        for v in 1..=n as u8 {
            let (r, c) = (cell / n, cell % n);
            let clash = (0..n).any(|i| grid[r * n + i] == v || grid[i * n + c] == v);
            grid[cell] = v;
            let signs_ok = task
                .less_than
                .iter()
                .all(|&(a, b)| grid[a] == 0 || grid[b] == 0 || grid[a] < grid[b]);
            if !clash && signs_ok {
                total += count_plainly(task, grid, limit - total);
            }
            grid[cell] = 0;
            if total >= limit {
                break;
            }
        }
        total
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<Futoshiki>(&FutoshikiConfig::default(), 20);
        standard_answers::<Futoshiki>(
            &FutoshikiConfig {
                n: 4,
                sign_density: 0.4,
                target_givens: 0,
            },
            20,
        );
    }

    #[test]
    fn a_latin_square_breaking_a_sign_fails() {
        let task = FutoshikiTask {
            n: 4,
            givens: vec![0; 16],
            less_than: vec![(0, 1)],
            solution: vec![2, 1, 3, 4, 1, 3, 4, 2, 3, 4, 2, 1, 4, 2, 1, 3],
        };
        assert!(!passes::<Futoshiki>(&task, &Futoshiki::reference(&task)));
        let swapped = "1 2 3 4\n3 1 4 2\n4 3 2 1\n2 4 1 3";
        assert!(passes::<Futoshiki>(&task, swapped));
        assert_eq!(
            render(&task),
            ".   .   .   .\n\n.   .   .   .\n\n.   .   .   .\n\n.   .   .   .\n"
                .replacen(".   .", ". < .", 1)
        );
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert_eq!(
            cross_reference_rate::<Futoshiki>(&FutoshikiConfig::default(), 300),
            0.0
        );
        assert!(
            cross_reference_rate::<Futoshiki>(
                &FutoshikiConfig {
                    n: 4,
                    sign_density: 0.4,
                    target_givens: 0
                },
                1000
            ) < 0.01
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn generated_puzzles_have_exactly_one_solution(seed in any::<u64>(), n in 4usize..=6) {
            let task = Futoshiki::generate(&FutoshikiConfig { n, ..Default::default() }, &mut Rng::from_seed(seed));
            let mut grid = task.givens.clone();
            prop_assert_eq!(count_plainly(&task, &mut grid, 2), 1);
        }
    }
}
