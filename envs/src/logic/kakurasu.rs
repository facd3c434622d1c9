//! `logic/kakurasu-v1`: shade cells so that weighted row and column sums
//! match the clues; exactly one solution.
//!
//! # Task
//! An `n × n` grid. Shading the cell in row `r`, column `c` (1-based) adds
//! `c` to row `r`'s sum and `r` to column `c`'s sum. The generator shades
//! cells at random with probability `density`, computes the clues, and keeps
//! the grid only when a limit-2 solution count (row subsets by bitmask,
//! column sums pruned) finds exactly one shading.
//!
//! # Action
//! The grid of `1` (shaded) and `0` (blank), one row per line, in
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The row clues and column clues. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when every row and column sum matches; else 0 (the
//! solution is unique, so this is the reference shading). Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (3..=9), `density` (0.2..=0.8).
//!
//! # Seeding
//! Shading comes from the task rng; non-unique or blank grids are redrawn.
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KakurasuConfig {
    pub n: usize,
    pub density: f64,
}

impl Default for KakurasuConfig {
    fn default() -> Self {
        KakurasuConfig { n: 5, density: 0.5 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KakurasuTask {
    pub n: usize,
    pub row_sums: Vec<usize>,
    pub col_sums: Vec<usize>,
    pub shading: Vec<u8>,
}

/// Row `r`'s and column `c`'s weighted sums of a 0/1 grid.
fn sums(n: usize, grid: &[u8]) -> (Vec<usize>, Vec<usize>) {
    let mut rows = vec![0; n];
    let mut cols = vec![0; n];
    for r in 0..n {
        for c in 0..n {
            if grid[r * n + c] == 1 {
                rows[r] += c + 1;
                cols[c] += r + 1;
            }
        }
    }
    (rows, cols)
}

/// Counts shadings matching the clues, up to `limit`: rows are chosen
/// from precomputed subsets with the right weighted sum, depth first.
/// Spends one of `steps` per search step (and `2^n` for the subsets);
/// `None` when they run out first.
fn count_solutions(
    n: usize,
    row_sums: &[usize],
    col_sums: &[usize],
    limit: usize,
    steps: &mut u64,
) -> Option<usize> {
    *steps = steps.checked_sub(1 << n)?;
    let subsets_by_sum: Vec<Vec<u32>> = {
        let max = n * (n + 1) / 2;
        let mut by_sum = vec![Vec::new(); max + 1];
        for mask in 0u32..1 << n {
            let sum: usize = (0..n).filter(|&c| mask >> c & 1 == 1).map(|c| c + 1).sum();
            by_sum[sum].push(mask);
        }
        by_sum
    };
    let options: Vec<&Vec<u32>> = row_sums.iter().map(|&s| &subsets_by_sum[s]).collect();
    let mut col = vec![0usize; n];
    // choice[r]: index into options[r] of the next mask to try.
    let mut choice = vec![0usize; n + 1];
    let mut placed: Vec<u32> = Vec::with_capacity(n);
    let mut found = 0;
    loop {
        *steps = steps.checked_sub(1)?;
        let r = placed.len();
        if r == n {
            if col == col_sums {
                found += 1;
                if found >= limit {
                    return Some(found);
                }
            }
        } else if choice[r] < options[r].len() {
            let mask = options[r][choice[r]];
            choice[r] += 1;
            let fits = (0..n).all(|c| mask >> c & 1 == 0 || col[c] + r < col_sums[c]);
            if fits {
                for (c, sum) in col.iter_mut().enumerate() {
                    if mask >> c & 1 == 1 {
                        *sum += r + 1;
                    }
                }
                placed.push(mask);
                choice[r + 1] = 0;
            }
            continue;
        }
        // Back up one row.
        let Some(mask) = placed.pop() else {
            return Some(found);
        };
        let r = placed.len();
        for (c, sum) in col.iter_mut().enumerate() {
            if mask >> c & 1 == 1 {
                *sum -= r + 1;
            }
        }
    }
}

/// Solver steps spent at most over all the shadings drawn for one task.
const MAX_STEPS: u64 = 100_000_000;

pub struct Kakurasu;

pub type KakurasuEnv = SingleTurn<Kakurasu>;

impl Question for Kakurasu {
    type Config = KakurasuConfig;
    type Task = KakurasuTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/kakurasu-v1",
        kind: EnvKind::SingleTurn,
        description: "Shade cells so weighted row/column sums match the clues; unique solution; answer a 0/1 grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"n":4}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"n":7}"#,
            },
        ],
    };

    fn validate(config: &KakurasuConfig) -> Result<(), ConfigError> {
        if !(3..=9).contains(&config.n) || !(0.2..=0.8).contains(&config.density) {
            return Err("need 3 <= n <= 9 and 0.2 <= density <= 0.8".into());
        }
        Ok(())
    }

    fn generate(config: &KakurasuConfig, rng: &mut Rng) -> KakurasuTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &KakurasuConfig, rng: &mut Rng) -> Result<KakurasuTask, NoTask> {
        generate_within(config, rng, MAX_STEPS)
    }

    fn prompt(task: &KakurasuTask) -> String {
        let n = task.n;
        let list = |v: &[usize]| {
            v.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "Kakurasu on a {n}x{n} grid. Shade some cells. A shaded cell in column c (1-{n}, left to right) adds c \
             to its row's total; a shaded cell in row r (1-{n}, top to bottom) adds r to its column's total.\n\
             Row totals (top to bottom): {}\nColumn totals (left to right): {}\n\nThe shading is unique. Answer \
             with {n} lines of {n} digits, 1 for shaded and 0 for blank, inside \\boxed{{}}.",
            list(&task.row_sums),
            list(&task.col_sums)
        )
    }

    fn structured(task: &KakurasuTask) -> Value {
        json!({ "n": task.n, "row_sums": task.row_sums, "col_sums": task.col_sums })
    }

    fn reference(task: &KakurasuTask) -> String {
        task.shading
            .chunks(task.n)
            .map(|r| r.iter().map(u8::to_string).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &KakurasuTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_binary_grid(answer, task.n, task.n).map_err(|e| e.to_string())?;
        Ok(sums(task.n, &grid) == (task.row_sums.clone(), task.col_sums.clone()))
    }
}

/// Draws shadings until one's clues have a single solution; large grids
/// rarely do (`n: 9` at density 0.5), so the search gives up after
/// `max_steps` solver steps over all draws (a count, not time, so the outcome
/// is a pure function of config and seed).
fn generate_within(
    config: &KakurasuConfig,
    rng: &mut Rng,
    max_steps: u64,
) -> Result<KakurasuTask, NoTask> {
    let n = config.n;
    let mut steps = max_steps;
    loop {
        if crate::cancel::cancelled() {
            return Err(NoTask::Cancelled);
        }
        let shading: Vec<u8> = (0..n * n)
            .map(|_| u8::from(rng.chance(config.density)))
            .collect();
        if shading.iter().all(|&s| s == 0) || shading.iter().all(|&s| s == 1) {
            continue;
        }
        let (row_sums, col_sums) = sums(n, &shading);
        match count_solutions(n, &row_sums, &col_sums, 2, &mut steps) {
            Some(1) => {
                return Ok(KakurasuTask {
                    n,
                    row_sums,
                    col_sums,
                    shading,
                });
            }
            Some(_) => {}
            None => {
                return Err(format!(
                    "no {n}x{n} shading at density {} had a unique solution within {max_steps} \
                     solver steps; lower n or change density",
                    config.density
                )
                .into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    /// Unique 9x9 shadings are rare: the search gives up with a message
    /// naming the fields (it used to run for minutes); here with a
    /// thousandth of the budget, to keep the test quick.
    #[test]
    fn a_search_without_unique_shadings_gives_up_within_its_steps() {
        let config = KakurasuConfig { n: 9, density: 0.5 };
        let error = generate_within(&config, &mut Rng::from_seed(1), MAX_STEPS / 1000).unwrap_err();
        assert!(error.to_string().contains("lower n"), "{error}");
    }

    /// Independent counter: all 2^(n·n) shadings (n <= 4).
    fn count_all(task: &KakurasuTask) -> usize {
        let cells = task.n * task.n;
        (0u32..1 << cells)
            .filter(|&bits| {
                let grid: Vec<u8> = (0..cells).map(|i| (bits >> i & 1) as u8).collect();
                sums(task.n, &grid) == (task.row_sums.clone(), task.col_sums.clone())
            })
            .count()
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for n in [4, 5, 7] {
            standard_answers::<Kakurasu>(&KakurasuConfig { n, density: 0.5 }, 15);
        }
    }

    #[test]
    fn clues_are_weighted_sums() {
        let grid = [1, 0, 1, 0, 1, 0, 0, 0, 1];
        assert_eq!(sums(3, &grid), (vec![4, 2, 3], vec![1, 2, 4]));
        let task = KakurasuTask {
            n: 3,
            row_sums: vec![4, 2, 3],
            col_sums: vec![1, 2, 4],
            shading: grid.to_vec(),
        };
        assert!(passes::<Kakurasu>(&task, "101\n010\n001"));
        assert!(!passes::<Kakurasu>(&task, "101\n010\n100"));
        assert!(!passes::<Kakurasu>(&task, "101\n010\n00"));
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        assert!(
            cross_reference_rate::<Kakurasu>(&KakurasuConfig { n: 4, density: 0.5 }, 1000) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<Kakurasu>(&KakurasuConfig::default(), 500),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn generated_clues_have_exactly_one_shading(seed in any::<u64>(), n in 3usize..=4) {
            let task = Kakurasu::generate(&KakurasuConfig { n, density: 0.5 }, &mut Rng::from_seed(seed));
            prop_assert_eq!(count_all(&task), 1);
        }
    }
}
