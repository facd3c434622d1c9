//! `logic/nonogram-v1`: shade a grid from its row and column run clues;
//! exactly one solution.
//!
//! # Task
//! An `n × n` picture (each cell shaded with probability `density`). Each
//! row and column clue lists the lengths of its runs of shaded cells, in
//! order. The generator keeps a picture only when a limit-2 solution count
//! (rows from all placements of their runs, columns checked as rows
//! arrive) finds exactly one.
//!
//! # Action
//! The grid of `1` (shaded) and `0` (blank), one row per line, in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! Row clues top to bottom and column clues left to right (`0` for an empty
//! line). Structured: the same.
//!
//! # Reward
//! 1 and `passed` when every row and column has exactly its clue's runs;
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (3..=10), `density` (0.3..=0.8).
//!
//! # Seeding
//! The picture comes from the task rng; non-unique ones are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::parse_binary_grid;

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Pictures drawn at most for one task ([`Nonogram::try_generate`]).
const MAX_PICTURES: usize = 5_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NonogramConfig {
    pub n: usize,
    pub density: f64,
}

impl Default for NonogramConfig {
    fn default() -> Self {
        NonogramConfig {
            n: 6,
            density: 0.55,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NonogramTask {
    pub n: usize,
    pub rows: Vec<Vec<usize>>,
    pub cols: Vec<Vec<usize>>,
    pub picture: Vec<u8>,
}

fn runs(line: impl Iterator<Item = u8>) -> Vec<usize> {
    let mut out = Vec::new();
    let mut current = 0;
    for cell in line {
        if cell == 1 {
            current += 1;
        } else if current > 0 {
            out.push(current);
            current = 0;
        }
    }
    if current > 0 {
        out.push(current);
    }
    out
}

fn clues(n: usize, grid: &[u8]) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let rows = (0..n)
        .map(|r| runs((0..n).map(|c| grid[r * n + c])))
        .collect();
    let cols = (0..n)
        .map(|c| runs((0..n).map(|r| grid[r * n + c])))
        .collect();
    (rows, cols)
}

/// Whether a column's first cells can still grow into its clue.
fn prefix_fits(prefix: &[u8], clue: &[usize], total: usize) -> bool {
    let done = runs(prefix.iter().copied());
    let open = prefix.last() == Some(&1);
    let closed = if open {
        &done[..done.len() - 1]
    } else {
        &done[..]
    };
    if closed.len() > clue.len() || closed != &clue[..closed.len()] {
        return false;
    }
    if open && (closed.len() >= clue.len() || done[done.len() - 1] > clue[closed.len()]) {
        return false;
    }
    // Room left for the runs still to come.
    let next = closed.len();
    let left = total - prefix.len();
    let needed: usize = if open {
        // Finish the open run, then a blank and each later run.
        clue[next] - done[done.len() - 1] + clue[next + 1..].iter().map(|r| r + 1).sum::<usize>()
    } else {
        // The prefix ends blank (or is empty): runs with blanks between.
        let rest = &clue[next..];
        rest.iter().sum::<usize>() + rest.len().saturating_sub(1)
    };
    needed <= left
}

/// Counts pictures matching the clues, up to `limit`.
fn count_solutions(n: usize, rows: &[Vec<usize>], cols: &[Vec<usize>], limit: usize) -> usize {
    let options: Vec<Vec<u32>> = rows
        .iter()
        .map(|clue| {
            (0u32..1 << n)
                .filter(|&m| runs((0..n).map(|c| (m >> c & 1) as u8)) == *clue)
                .collect()
        })
        .collect();
    let mut grid = vec![0u8; n * n];
    let mut next = vec![0usize; n + 1];
    let mut depth = 0;
    let mut found = 0;
    let mut column = Vec::with_capacity(n);
    loop {
        if depth == n {
            found += 1;
            if found >= limit {
                return found;
            }
        } else if next[depth] < options[depth].len() {
            let m = options[depth][next[depth]];
            next[depth] += 1;
            for c in 0..n {
                grid[depth * n + c] = (m >> c & 1) as u8;
            }
            let fits = (0..n).all(|c| {
                column.clear();
                column.extend((0..=depth).map(|r| grid[r * n + c]));
                prefix_fits(&column, &cols[c], n)
            });
            if fits {
                depth += 1;
                next[depth] = 0;
            }
            continue;
        }
        if depth == 0 {
            return found;
        }
        depth -= 1;
    }
}

pub struct Nonogram;

pub type NonogramEnv = SingleTurn<Nonogram>;

impl Question for Nonogram {
    type Config = NonogramConfig;
    type Task = NonogramTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/nonogram-v1",
        kind: EnvKind::SingleTurn,
        description: "Nonogram: shade a grid from row/column run clues; unique solution; answer a 0/1 grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":8}"#,
            },
        ],
    };

    fn validate(config: &NonogramConfig) -> Result<(), ConfigError> {
        if !(3..=10).contains(&config.n) || !(0.3..=0.8).contains(&config.density) {
            return Err("need 3 <= n <= 10 and 0.3 <= density <= 0.8".into());
        }
        Ok(())
    }

    fn generate(config: &NonogramConfig, rng: &mut Rng) -> NonogramTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws pictures until one's clues have a unique solution; gives up after
    /// [`MAX_PICTURES`] draws (every preset needs a few dozen at most).
    fn try_generate(config: &NonogramConfig, rng: &mut Rng) -> Result<NonogramTask, NoTask> {
        let n = config.n;
        for _ in 0..MAX_PICTURES {
            if crate::cancel::cancelled() {
                return Err(NoTask::Cancelled);
            }
            let picture: Vec<u8> = (0..n * n)
                .map(|_| u8::from(rng.chance(config.density)))
                .collect();
            if picture.iter().all(|&c| c == 1) || picture.iter().all(|&c| c == 0) {
                continue;
            }
            let (rows, cols) = clues(n, &picture);
            if count_solutions(n, &rows, &cols, 2) == 1 {
                return Ok(NonogramTask {
                    n,
                    rows,
                    cols,
                    picture,
                });
            }
        }
        Err(format!(
            "no {n}x{n} picture at density {} in {MAX_PICTURES} draws had unique clues: \
             move density toward 0.5 or lower n",
            config.density
        )
        .into())
    }

    fn prompt(task: &NonogramTask) -> String {
        let n = task.n;
        let show = |list: &[Vec<usize>]| {
            list.iter()
                .enumerate()
                .map(|(i, c)| {
                    let runs = if c.is_empty() {
                        "0".to_string()
                    } else {
                        c.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
                    };
                    format!("{}: {runs}", i + 1)
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        format!(
            "Nonogram on a {n}x{n} grid. Each clue lists, in order, the lengths of the runs of shaded cells in that \
             row (left to right) or column (top to bottom), with at least one blank between runs; 0 means the \
             line is empty.\n\nRows (top to bottom):\n{}\n\nColumns (left to right):\n{}\n\nThe picture is \
             unique. Answer with {n} lines of {n} digits, 1 for shaded and 0 for blank, inside \\boxed{{}}.",
            show(&task.rows),
            show(&task.cols)
        )
    }

    fn structured(task: &NonogramTask) -> Value {
        json!({ "n": task.n, "rows": task.rows, "cols": task.cols })
    }

    fn reference(task: &NonogramTask) -> String {
        task.picture
            .chunks(task.n)
            .map(|r| r.iter().map(u8::to_string).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &NonogramTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_binary_grid(answer, task.n, task.n).map_err(|e| e.to_string())?;
        Ok(clues(task.n, &grid) == (task.rows.clone(), task.cols.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Independent counter: all 2^(n·n) pictures (n <= 4).
    fn count_all(task: &NonogramTask) -> usize {
        let cells = task.n * task.n;
        (0u32..1 << cells)
            .filter(|&bits| {
                let grid: Vec<u8> = (0..cells).map(|i| (bits >> i & 1) as u8).collect();
                clues(task.n, &grid) == (task.rows.clone(), task.cols.clone())
            })
            .count()
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for n in [5, 6, 8] {
            standard_answers::<Nonogram>(&NonogramConfig { n, density: 0.55 }, 10);
        }
    }

    #[test]
    fn runs_and_prefixes() {
        assert_eq!(runs([1, 1, 0, 1, 0, 0, 1].into_iter()), vec![2, 1, 1]);
        assert!(prefix_fits(&[1, 1, 0], &[2, 1], 5));
        assert!(!prefix_fits(&[1, 1, 1], &[2, 1], 5));
        assert!(!prefix_fits(&[0, 0, 0, 0], &[2, 1], 5));
        assert!(prefix_fits(&[], &[2, 1], 4));
        assert!(!prefix_fits(&[0], &[2, 1], 4));
        let task = NonogramTask {
            n: 2,
            rows: vec![vec![1], vec![1]],
            cols: vec![vec![2], vec![]],
            picture: vec![1, 0, 1, 0],
        };
        assert!(passes::<Nonogram>(&task, "10\n10"));
        assert!(!passes::<Nonogram>(&task, "01\n01"));
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(
            cross_reference_rate::<Nonogram>(
                &NonogramConfig {
                    n: 5,
                    density: 0.55
                },
                1000
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<Nonogram>(&NonogramConfig::default(), 500),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn generated_clues_have_exactly_one_picture(seed in any::<u64>(), n in 3usize..=4) {
            let task = Nonogram::generate(&NonogramConfig { n, density: 0.55 }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_all(&task), 1);
        }
    }
}
