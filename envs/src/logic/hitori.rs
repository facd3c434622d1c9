//! `logic/hitori-v1`: shade cells of a number grid so that no number
//! repeats in a row or column (Hitori); one solution, proven by our own
//! solver when the task is made.
//!
//! # Task
//! An `n × n` grid of numbers `1..=n`. Rules: among the unshaded cells no
//! number appears twice in a row or column, no two shaded cells are
//! orthogonally adjacent, and the unshaded cells form one orthogonally
//! connected area. The generator draws a random Latin square and a random
//! maximal shading (no cell can be added without breaking a rule), gives
//! every shaded cell the number of an unshaded cell in its row or column,
//! and keeps the grid only when the solver finds exactly one solution.
//!
//! # Action
//! The grid with every shaded cell written `X` (`#`, `*`, `■` or `x` read
//! the same) and every other cell its number, one row per line (or on one
//! line, rows separated by `,` or `;`); spaces and `|` between cells are
//! ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The number grid. Structured: `n` and the numbers (row-major).
//!
//! # Reward
//! 1 and `passed` when every unshaded cell keeps its number and the shading
//! follows every rule (checked directly; the unique solution means this
//! agrees with the reference); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (4..=8).
//!
//! # Seeding
//! The square, the shading and the copied numbers come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::tents::parse_symbol_grid;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// A shaded cell in a read answer.
const SHADED: u8 = 0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HitoriConfig {
    pub n: usize,
}

impl Default for HitoriConfig {
    fn default() -> Self {
        HitoriConfig { n: 6 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitoriTask {
    pub n: usize,
    /// Row-major numbers `1..=n`.
    pub numbers: Vec<u8>,
    /// Row-major: whether each cell is shaded (the solution).
    pub shaded: Vec<bool>,
}

fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Whether the cells not `shaded` form one connected area.
fn open_connected(n: usize, shaded: &[bool]) -> bool {
    let Some(first) = (0..n * n).find(|&c| !shaded[c]) else {
        return false;
    };
    let mut seen = vec![false; n * n];
    seen[first] = true;
    let mut stack = vec![first];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for o in neighbours(n, c) {
            if !shaded[o] && !seen[o] {
                seen[o] = true;
                reached += 1;
                stack.push(o);
            }
        }
    }
    reached == shaded.iter().filter(|&&s| !s).count()
}

/// Every rule, on a full shading.
fn follows_rules(n: usize, numbers: &[u8], shaded: &[bool]) -> bool {
    let apart = (0..n * n).all(|c| !shaded[c] || neighbours(n, c).all(|o| !shaded[o]));
    let distinct = |cells: &mut dyn Iterator<Item = usize>| {
        let mut seen = 0u32;
        cells.filter(|&c| !shaded[c]).all(|c| {
            let bit = 1u32 << numbers[c];
            let fresh = seen & bit == 0;
            seen |= bit;
            fresh
        })
    };
    apart
        && (0..n).all(|r| distinct(&mut (r * n..r * n + n)))
        && (0..n).all(|c| distinct(&mut (0..n).map(|r| r * n + c)))
        && open_connected(n, shaded)
}

/// Counts shadings up to `limit`, cell by cell in reading order: a cell
/// stays open when its number is not yet open in its row and column, and
/// is shaded when no shaded neighbour is decided and the open and undecided
/// cells stay connected. Spends one of `steps` per node; `None` when they
/// run out.
fn count_solutions(n: usize, numbers: &[u8], limit: usize, steps: &mut u64) -> Option<usize> {
    struct Search<'a> {
        n: usize,
        numbers: &'a [u8],
        shaded: Vec<bool>,
        rows: Vec<u32>,
        cols: Vec<u32>,
        found: usize,
        limit: usize,
    }
    impl Search<'_> {
        fn go(&mut self, cell: usize, steps: &mut u64) -> Option<()> {
            *steps = steps.checked_sub(1)?;
            let n = self.n;
            if cell == n * n {
                self.found += 1;
                return Some(());
            }
            let (r, c, bit) = (cell / n, cell % n, 1u32 << self.numbers[cell]);
            if self.rows[r] & bit == 0 && self.cols[c] & bit == 0 {
                self.rows[r] |= bit;
                self.cols[c] |= bit;
                self.go(cell + 1, steps)?;
                self.rows[r] &= !bit;
                self.cols[c] &= !bit;
                if self.found >= self.limit {
                    return Some(());
                }
            }
            let free = (r == 0 || !self.shaded[cell - n]) && (c == 0 || !self.shaded[cell - 1]);
            if free {
                self.shaded[cell] = true;
                if open_connected(n, &self.shaded) {
                    self.go(cell + 1, steps)?;
                }
                self.shaded[cell] = false;
            }
            Some(())
        }
    }
    let mut search = Search {
        n,
        numbers,
        shaded: vec![false; n * n],
        rows: vec![0; n],
        cols: vec![0; n],
        found: 0,
        limit,
    };
    search.go(0, steps)?;
    Some(search.found)
}

/// Solver steps for one draw's uniqueness check.
const MAX_STEPS: u64 = 200_000;

pub struct Hitori;

pub type HitoriEnv = SingleTurn<Hitori>;

impl Hitori {
    fn draw(config: &HitoriConfig, rng: &mut Rng) -> Option<HitoriTask> {
        let n = config.n;
        let perm = |rng: &mut Rng| {
            let mut p: Vec<usize> = (0..n).collect();
            rng.shuffle(&mut p);
            p
        };
        let (rows, cols, symbols) = (perm(rng), perm(rng), perm(rng));
        let mut numbers: Vec<u8> = (0..n * n)
            .map(|cell| symbols[(rows[cell / n] + cols[cell % n]) % n] as u8 + 1)
            .collect();
        // A maximal shading: one pass in random order adds every cell it can.
        let mut shaded = vec![false; n * n];
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        for cell in order {
            if neighbours(n, cell).any(|o| shaded[o]) {
                continue;
            }
            shaded[cell] = true;
            if !open_connected(n, &shaded) {
                shaded[cell] = false;
            }
        }
        for cell in (0..n * n).filter(|&c| shaded[c]) {
            let (r, c) = (cell / n, cell % n);
            let open: Vec<usize> = (0..n)
                .map(|x| r * n + x)
                .chain((0..n).map(|y| y * n + c))
                .filter(|&o| !shaded[o])
                .collect();
            numbers[cell] = numbers[*rng.choose(&open)?];
        }
        let mut steps = MAX_STEPS;
        (count_solutions(n, &numbers, 2, &mut steps)? == 1).then_some(HitoriTask {
            n,
            numbers,
            shaded,
        })
    }
}

impl Question for Hitori {
    type Config = HitoriConfig;
    type Task = HitoriTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/hitori-v1",
        kind: EnvKind::SingleTurn,
        description: "Hitori: shade cells so no number repeats in a row or column, shaded cells apart, open cells connected; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 3]),
    };
    const LEVELS: &'static [&'static str] =
        &[r#"{"n":4}"#, r#"{"n":5}"#, "{}", r#"{"n":7}"#, r#"{"n":8}"#];

    fn effort(task: &HitoriTask) -> Option<f64> {
        Some((task.n * task.n) as f64)
    }

    fn validate(config: &HitoriConfig) -> Result<(), ConfigError> {
        if !(4..=8).contains(&config.n) {
            return Err("n must be in 4..=8".into());
        }
        Ok(())
    }

    fn generate(config: &HitoriConfig, rng: &mut Rng) -> HitoriTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &HitoriConfig, rng: &mut Rng) -> Result<HitoriTask, NoTask> {
        draw_until(
            5000,
            || Self::draw(config, rng),
            || "no grid in 5000 draws had a unique solution; lower n".into(),
        )
    }

    fn prompt(task: &HitoriTask) -> String {
        let n = task.n;
        let grid: Vec<String> = task
            .numbers
            .chunks(n)
            .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        format!(
            "Hitori: shade some cells of this {n}x{n} grid so that no number appears twice among the unshaded \
             cells of any row or column, no two shaded cells share a side, and all unshaded cells form one area \
             connected through shared sides. The solution is unique.\n\n{}\n\nAnswer with the grid, {n} lines, \
             writing X for each shaded cell and the number for every other cell, inside \\boxed{{}}.",
            grid.join("\n")
        )
    }

    fn structured(task: &HitoriTask) -> Value {
        json!({ "n": task.n, "numbers": task.numbers })
    }

    fn reference(task: &HitoriTask) -> String {
        (0..task.n)
            .map(|r| {
                (r * task.n..r * task.n + task.n)
                    .map(|c| {
                        if task.shaded[c] {
                            "X".to_string()
                        } else {
                            task.numbers[c].to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &HitoriTask, answer: &str) -> Result<bool, CheckError> {
        let n = task.n;
        let grid = parse_symbol_grid(answer, n, |c| match c {
            'X' | 'x' | '#' | '*' | '■' | '█' => Some(SHADED),
            '1'..='9' => Some(c as u8 - b'0'),
            _ => None,
        })?;
        let kept = grid
            .iter()
            .zip(&task.numbers)
            .all(|(&g, &v)| g == SHADED || g == v);
        let shaded: Vec<bool> = grid.iter().map(|&g| g == SHADED).collect();
        Ok(kept && follows_rules(n, &task.numbers, &shaded))
    }
}

#[cfg(test)]
#[path = "hitori_tests.rs"]
mod tests;
