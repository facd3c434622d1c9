//! `logic/n-queens-v1`: complete an n-queens placement that keeps some
//! queens already on the board.
//!
//! # Task
//! An `n × n` board with `givens` queens placed in distinct rows, taken from
//! a random solution (so a completion exists). Any completion passes.
//!
//! # Action
//! The column (1..=n) of the queen in each row, rows 1..n in order:
//! `2 4 1 3`. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The board with `Q` for the given queens and `.` elsewhere. Structured:
//! `n` and the given `(row, column)` pairs (1-based).
//!
//! # Reward
//! 1 and `passed` when no two queens share a row, column or diagonal and
//! every given queen is kept; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (6..=30), `givens` (1..n).
//!
//! # Seeding
//! The solution (randomised backtracking) and given rows come from the rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::parse_grid;

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NQueensConfig {
    pub n: usize,
    pub givens: usize,
}

impl Default for NQueensConfig {
    fn default() -> Self {
        NQueensConfig { n: 12, givens: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NQueensTask {
    pub n: usize,
    /// 1-based `(row, column)` of each given queen.
    pub givens: Vec<(usize, usize)>,
    /// A completion: 1-based column per row.
    pub solution: Vec<u8>,
}

/// A random solution by backtracking over rows with bitmasks, trying
/// columns in a fresh random order at each row.
fn random_solution(n: usize, rng: &mut Rng) -> Vec<u8> {
    let full: u64 = (1 << n) - 1;
    let mut cols = vec![0u8; n];
    // Per row: the untried columns (mask) given the queens above.
    let mut untried = vec![0u64; n + 1];
    let (mut used, mut diag, mut anti) = (vec![0u64; n + 1], vec![0u64; n + 1], vec![0u64; n + 1]);
    let mut row = 0;
    untried[0] = full;
    loop {
        if row == n {
            return cols;
        }
        if untried[row] == 0 {
            // Dead end: back up one row (row 0 always succeeds for n >= 4).
            row -= 1;
            continue;
        }
        let count = untried[row].count_ones();
        let mut pick = untried[row];
        for _ in 0..rng.below(u64::from(count)) {
            pick &= pick - 1;
        }
        let bit = pick & pick.wrapping_neg();
        untried[row] &= !bit;
        cols[row] = bit.trailing_zeros() as u8 + 1;
        used[row + 1] = used[row] | bit;
        diag[row + 1] = ((diag[row] | bit) << 1) & full;
        anti[row + 1] = (anti[row] | bit) >> 1;
        row += 1;
        untried[row] = full & !(used[row] | diag[row] | anti[row]);
    }
}

fn is_solution(n: usize, cols: &[u8]) -> bool {
    cols.len() == n
        && (0..n).all(|a| {
            (a + 1..n).all(|b| {
                let (ca, cb) = (i64::from(cols[a]), i64::from(cols[b]));
                ca != cb && (ca - cb).abs() != (b - a) as i64
            })
        })
}

pub struct NQueens;

pub type NQueensEnv = SingleTurn<NQueens>;

impl Question for NQueens {
    type Config = NQueensConfig;
    type Task = NQueensTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/n-queens-v1",
        kind: EnvKind::SingleTurn,
        description: "Complete an n-queens placement around given queens; any valid completion passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":10,"givens":4}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":20,"givens":3}"#,
            },
        ],
    };

    fn validate(config: &NQueensConfig) -> Result<(), ConfigError> {
        if !(6..=30).contains(&config.n) || config.givens == 0 || config.givens >= config.n {
            return Err("need 6 <= n <= 30 and 1 <= givens < n".into());
        }
        Ok(())
    }

    fn generate(config: &NQueensConfig, rng: &mut Rng) -> NQueensTask {
        let solution = random_solution(config.n, rng);
        let mut rows: Vec<usize> = (0..config.n).collect();
        rng.shuffle(&mut rows);
        let mut givens: Vec<(usize, usize)> = rows[..config.givens]
            .iter()
            .map(|&r| (r + 1, usize::from(solution[r])))
            .collect();
        givens.sort_unstable();
        NQueensTask {
            n: config.n,
            givens,
            solution,
        }
    }

    fn prompt(task: &NQueensTask) -> String {
        let n = task.n;
        let mut board = String::new();
        for r in 1..=n {
            let line: Vec<&str> = (1..=n)
                .map(|c| {
                    if task.givens.contains(&(r, c)) {
                        "Q"
                    } else {
                        "."
                    }
                })
                .collect();
            board.push_str(&line.join(" "));
            board.push('\n');
        }
        format!(
            "Place {n} queens on this {n}x{n} board so that no two share a row, a column or a diagonal. The \
             queens already shown (Q) must stay where they are.\n\n{board}\nAnswer with the column (1-{n}, left \
             to right) of the queen in each row, from the top row down, separated by spaces, inside \\boxed{{}}."
        )
    }

    fn structured(task: &NQueensTask) -> Value {
        json!({ "n": task.n, "givens": task.givens })
    }

    fn reference(task: &NQueensTask) -> String {
        task.solution
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &NQueensTask, answer: &str) -> Result<bool, CheckError> {
        let cols = parse_grid(answer, 1, task.n, task.n as u8).map_err(|e| e.to_string())?;
        let keeps_givens = task
            .givens
            .iter()
            .all(|&(r, c)| usize::from(cols[r - 1]) == c);
        Ok(keeps_givens && is_solution(task.n, &cols))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            NQueensConfig::default(),
            NQueensConfig { n: 10, givens: 4 },
            NQueensConfig { n: 20, givens: 3 },
        ] {
            standard_answers::<NQueens>(&config, 20);
        }
    }

    #[test]
    fn random_solutions_are_valid_and_counted_right_for_small_boards() {
        let mut rng = Rng::from_seed(3);
        for n in 6..=30 {
            assert!(is_solution(n, &random_solution(n, &mut rng)), "n = {n}");
        }
        // Only 4 solutions for n = 6: the sampler must reach all of them.
        let distinct: std::collections::BTreeSet<Vec<u8>> =
            (0..200).map(|_| random_solution(6, &mut rng)).collect();
        assert_eq!(distinct.len(), 4);
    }

    #[test]
    fn attacks_and_moved_givens_fail() {
        let task = NQueensTask {
            n: 6,
            givens: vec![(1, 2)],
            solution: vec![2, 4, 6, 1, 3, 5],
        };
        assert!(passes::<NQueens>(&task, "2 4 6 1 3 5"));
        for bad in [
            "3 6 2 5 1 4",
            "2 4 6 1 5 3",
            "2 4 6 1 3 3",
            "1 2 3 4 5 6",
            "2 4 6 1 3",
            "Q . . . . .",
        ] {
            assert!(!passes::<NQueens>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [NQueensConfig { n: 10, givens: 4 }, NQueensConfig::default()] {
            let rate = cross_reference_rate::<NQueens>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
