//! `logic/star-battle-v1`: place one star in every row, column and region
//! with no two stars touching (Star Battle); one solution, proven by our own
//! solver when the task is made.
//!
//! # Task
//! An `n × n` grid cut into `n` connected regions (lettered `A`, `B`, … in
//! reading order). Rules: exactly one star in each row, each column and each
//! region, and no two stars touch, not even diagonally. The generator draws
//! a random valid star placement, grows the regions from the stars at
//! random, then, while the solver finds another placement, moves one of
//! that placement's star cells into a neighbouring region (keeping regions
//! connected), and keeps the layout once the solver finds exactly one
//! solution; `givens` of the stars are then shown as already placed. `n` is
//! at least 7: smaller grids have so few valid placements (2, 14 and 90 for
//! 4, 5 and 6) that one task's answer would often answer another.
//!
//! # Action
//! The full grid of `1` (star) and `0` (no star), one row per line. In
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The region letters, one row per line, and the given stars. Structured:
//! `n`, the regions (row-major letters) and the givens.
//!
//! # Reward
//! 1 and `passed` when the grid keeps the given stars and follows every rule
//! (checked directly; the unique solution means this agrees with the
//! reference); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (7..=10; each size up is several times slower to make unique),
//! `givens` (stars shown, `0..n`).
//!
//! # Seeding
//! The placement, the regions and the givens come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::parse_binary_grid;

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StarBattleConfig {
    pub n: usize,
    pub givens: usize,
}

impl Default for StarBattleConfig {
    fn default() -> Self {
        StarBattleConfig { n: 7, givens: 0 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StarBattleTask {
    pub n: usize,
    /// Row-major region index of each cell (numbered in reading order).
    pub regions: Vec<usize>,
    /// The star's column in each row (the solution).
    pub stars: Vec<usize>,
    /// Rows whose star is shown.
    pub given_rows: Vec<usize>,
}

/// Placements (a star column per row), up to `limit` of them: rows in order,
/// each star in an unused column and region, not beside the star above.
/// `fixed[r]` pins row `r`'s column. Spends one of `steps` per node; `None`
/// when they run out.
fn solutions(
    n: usize,
    regions: &[usize],
    fixed: &[Option<usize>],
    limit: usize,
    mut steps: u64,
) -> Option<Vec<Vec<usize>>> {
    let mut cols = vec![false; n];
    let mut used = vec![false; n];
    let mut placed: Vec<usize> = Vec::with_capacity(n);
    let mut next = vec![0usize; n + 1];
    let mut found = Vec::new();
    loop {
        steps = steps.checked_sub(1)?;
        let r = placed.len();
        if r == n {
            found.push(placed.clone());
            if found.len() >= limit {
                return Some(found);
            }
        } else if next[r] < n {
            let c = next[r];
            next[r] += 1;
            let fits = fixed[r].is_none_or(|f| f == c)
                && !cols[c]
                && !used[regions[r * n + c]]
                && (r == 0 || placed[r - 1].abs_diff(c) > 1);
            if fits {
                cols[c] = true;
                used[regions[r * n + c]] = true;
                placed.push(c);
                next[r + 1] = 0;
            }
            continue;
        }
        let Some(c) = placed.pop() else {
            return Some(found);
        };
        cols[c] = false;
        used[regions[placed.len() * n + c]] = false;
    }
}

fn count_solutions(
    n: usize,
    regions: &[usize],
    fixed: &[Option<usize>],
    limit: usize,
    steps: u64,
) -> Option<usize> {
    solutions(n, regions, fixed, limit, steps).map(|s| s.len())
}

/// Every rule, on a full 0/1 grid.
fn follows_rules(n: usize, regions: &[usize], grid: &[u8]) -> bool {
    let stars: Vec<usize> = (0..n * n).filter(|&c| grid[c] == 1).collect();
    let once = |key: &dyn Fn(usize) -> usize| {
        let mut seen = vec![0; n];
        stars.iter().for_each(|&s| seen[key(s)] += 1);
        seen.iter().all(|&k| k == 1)
    };
    let apart = stars.iter().enumerate().all(|(i, &a)| {
        stars[i + 1..]
            .iter()
            .all(|&b| (a / n).abs_diff(b / n) > 1 || (a % n).abs_diff(b % n) > 1)
    });
    stars.len() == n && once(&|s| s / n) && once(&|s| s % n) && once(&|s| regions[s]) && apart
}

/// Whether region `g` is connected (orthogonally).
fn connected(n: usize, region: &[usize], g: usize) -> bool {
    let cells: Vec<usize> = (0..n * n).filter(|&c| region[c] == g).collect();
    let Some(&first) = cells.first() else {
        return false;
    };
    let mut seen = vec![false; n * n];
    seen[first] = true;
    let mut stack = vec![first];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        let (r, col) = (c / n, c % n);
        let near = [
            (r > 0).then(|| c - n),
            (r + 1 < n).then(|| c + n),
            (col > 0).then(|| c - 1),
            (col + 1 < n).then(|| c + 1),
        ];
        for o in near.into_iter().flatten() {
            if region[o] == g && !seen[o] {
                seen[o] = true;
                reached += 1;
                stack.push(o);
            }
        }
    }
    reached == cells.len()
}

/// Region repairs tried per draw before it is redrawn.
const REPAIRS: usize = 300;

/// Solver steps for one draw's uniqueness check.
const MAX_STEPS: u64 = 2_000_000;

pub struct StarBattle;

pub type StarBattleEnv = SingleTurn<StarBattle>;

impl StarBattle {
    fn draw(config: &StarBattleConfig, rng: &mut Rng) -> Option<StarBattleTask> {
        let n = config.n;
        // A random valid placement: random columns, rows in order.
        let mut stars: Vec<usize> = Vec::with_capacity(n);
        let mut cols = vec![false; n];
        for r in 0..n {
            let open: Vec<usize> = (0..n)
                .filter(|&c| !cols[c] && (r == 0 || stars[r - 1].abs_diff(c) > 1))
                .collect();
            let &c = rng.choose(&open)?;
            cols[c] = true;
            stars.push(c);
        }
        // Regions grown from the stars, one random frontier cell at a time.
        let mut region = vec![usize::MAX; n * n];
        for (r, &c) in stars.iter().enumerate() {
            region[r * n + c] = r;
        }
        let neighbours = |cell: usize| {
            let (r, c) = (cell / n, cell % n);
            let mut out = Vec::with_capacity(4);
            if r > 0 {
                out.push(cell - n);
            }
            if r + 1 < n {
                out.push(cell + n);
            }
            if c > 0 {
                out.push(cell - 1);
            }
            if c + 1 < n {
                out.push(cell + 1);
            }
            out
        };
        loop {
            let frontier: Vec<usize> = (0..n * n)
                .filter(|&cell| {
                    region[cell] == usize::MAX
                        && neighbours(cell).iter().any(|&o| region[o] != usize::MAX)
                })
                .collect();
            let Some(&cell) = rng.choose(&frontier) else {
                break;
            };
            let owners: Vec<usize> = neighbours(cell)
                .into_iter()
                .filter(|&o| region[o] != usize::MAX)
                .map(|o| region[o])
                .collect();
            region[cell] = *rng.choose(&owners)?;
        }
        // Repair: while another placement fits, move one of its stars' cells
        // (never one of ours) into a neighbouring region.
        let free = vec![None; n];
        let mut repaired = false;
        for _ in 0..REPAIRS {
            let found = solutions(n, &region, &free, 2, MAX_STEPS)?;
            let Some(other) = found.into_iter().find(|s| *s != stars) else {
                repaired = true;
                break;
            };
            let mut cells: Vec<usize> = (0..n)
                .filter(|&r| other[r] != stars[r])
                .map(|r| r * n + other[r])
                .collect();
            rng.shuffle(&mut cells);
            let moved = cells.into_iter().any(|cell| {
                let mut targets: Vec<usize> = neighbours(cell)
                    .into_iter()
                    .map(|o| region[o])
                    .filter(|&g| g != region[cell])
                    .collect();
                targets.dedup();
                let Some(&target) = rng.choose(&targets) else {
                    return false;
                };
                let old = region[cell];
                region[cell] = target;
                if connected(n, &region, old) {
                    true
                } else {
                    region[cell] = old;
                    false
                }
            });
            if !moved {
                return None;
            }
        }
        if !repaired {
            return None;
        }
        // Number the regions in reading order, so letters leak nothing.
        let mut rename = vec![usize::MAX; n];
        let mut next = 0;
        for cell in 0..n * n {
            if rename[region[cell]] == usize::MAX {
                rename[region[cell]] = next;
                next += 1;
            }
        }
        let regions: Vec<usize> = region.iter().map(|&g| rename[g]).collect();
        let mut rows: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut rows);
        let mut given_rows = rows[..config.givens].to_vec();
        given_rows.sort_unstable();
        // Unique even without the givens: they only make it easier.
        (count_solutions(n, &regions, &free, 2, MAX_STEPS)? == 1).then_some(StarBattleTask {
            n,
            regions,
            stars,
            given_rows,
        })
    }
}

impl Question for StarBattle {
    type Config = StarBattleConfig;
    type Task = StarBattleTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/star-battle-v1",
        kind: EnvKind::SingleTurn,
        description: "Star Battle: one star per row, column and region, no two touching; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"givens":3}"#,
        r#"{"givens":2}"#,
        r#"{"givens":1}"#,
        "{}",
        r#"{"n":8,"givens":1}"#,
        r#"{"n":8}"#,
        r#"{"n":9}"#,
    ];

    fn effort(task: &StarBattleTask) -> Option<f64> {
        Some((task.n * (task.n - task.given_rows.len())) as f64)
    }

    fn validate(config: &StarBattleConfig) -> Result<(), ConfigError> {
        if !(7..=10).contains(&config.n) {
            return Err("n must be in 7..=10".into());
        }
        if config.givens >= config.n {
            return Err("givens must be in 0..n".into());
        }
        Ok(())
    }

    fn generate(config: &StarBattleConfig, rng: &mut Rng) -> StarBattleTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &StarBattleConfig, rng: &mut Rng) -> Result<StarBattleTask, NoTask> {
        draw_until(
            5000,
            || Self::draw(config, rng),
            || "no region layout in 5000 draws had a unique solution; lower n".into(),
        )
    }

    fn prompt(task: &StarBattleTask) -> String {
        let n = task.n;
        let grid: Vec<String> = task
            .regions
            .chunks(n)
            .map(|row| row.iter().map(|&g| (b'A' + g as u8) as char).collect())
            .collect();
        let givens = if task.given_rows.is_empty() {
            String::new()
        } else {
            let cells: Vec<String> = task
                .given_rows
                .iter()
                .map(|&r| format!("row {}, column {}", r + 1, task.stars[r] + 1))
                .collect();
            format!("\nThese cells hold stars already: {}.\n", cells.join("; "))
        };
        format!(
            "Star Battle: this {n}x{n} grid is cut into {n} regions, shown by letter. Place stars so that every \
             row, every column and every region holds exactly one star, and no two stars touch, not even \
             diagonally. The solution is unique.\n\n{}\n{givens}\nAnswer with the full grid, {n} lines of {n} \
             digits (1 for a star, 0 for no star), inside \\boxed{{}}.",
            grid.join("\n")
        )
    }

    fn structured(task: &StarBattleTask) -> Value {
        let letters: Vec<String> = task
            .regions
            .iter()
            .map(|&g| ((b'A' + g as u8) as char).to_string())
            .collect();
        let givens: Vec<[usize; 2]> = task
            .given_rows
            .iter()
            .map(|&r| [r, task.stars[r]])
            .collect();
        json!({ "n": task.n, "regions": letters, "given_stars": givens })
    }

    fn reference(task: &StarBattleTask) -> String {
        task.stars
            .iter()
            .map(|&c| {
                (0..task.n)
                    .map(|x| if x == c { '1' } else { '0' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &StarBattleTask, answer: &str) -> Result<bool, CheckError> {
        let n = task.n;
        let grid = parse_binary_grid(answer, n, n).map_err(|e| e.to_string())?;
        let keeps = task
            .given_rows
            .iter()
            .all(|&r| grid[r * n + task.stars[r]] == 1);
        Ok(keeps && follows_rules(n, &task.regions, &grid))
    }
}

#[cfg(test)]
#[path = "star_battle_tests.rs"]
mod tests;
