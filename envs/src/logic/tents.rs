//! `logic/tents-v1`: place tents next to trees (the Tents puzzle); one
//! solution, proven by our own solver when the task is made.
//!
//! # Task
//! An `n × n` grid with trees, and for every row and column the number of
//! tents in it. Rules: every tree has its own tent in an orthogonally
//! adjacent cell (trees and tents pair one to one), no two tents touch, not
//! even diagonally, tents stand on empty cells, and the counts hold. The
//! generator places about `density · n²` tents at random, gives each a tree
//! beside it, and keeps a layout only when the solver finds exactly one
//! solution.
//!
//! # Action
//! The full grid, one row per line (or on one line, rows separated by `,`
//! or `;`): `T` for a tree, `A` for a tent (`^` or `1` read as a tent too),
//! `0` for empty (`.`, `-`, `_` or `x` too); spaces, `|` and `,` between
//! cells are ignored. (Empty is `0` so that a row is one token to the
//! one-answer rule: `-AT---` would read as the word "at".) In `\boxed{…}` or as the
//! whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with the row counts at the right of each row and the column
//! counts below. Structured: `n`, the trees, the counts.
//!
//! # Reward
//! 1 and `passed` when the trees are where they were and the tents follow
//! every rule (checked directly, pairing by bipartite matching; the unique
//! solution means this agrees with the reference); else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (4..=10), `density` (tents per cell, 0.1..=0.25).
//!
//! # Seeding
//! The tents, the trees and the redraws come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

pub(crate) const EMPTY: u8 = 0;
pub(crate) const TENT: u8 = 1;
pub(crate) const TREE: u8 = 2;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TentsConfig {
    pub n: usize,
    pub density: f64,
}

impl Default for TentsConfig {
    fn default() -> Self {
        TentsConfig {
            n: 6,
            density: 0.18,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TentsTask {
    pub n: usize,
    /// Row-major: `EMPTY`, `TENT` or `TREE` (the solution; the puzzle is
    /// its trees and counts).
    pub solution: Vec<u8>,
    pub rows: Vec<usize>,
    pub cols: Vec<usize>,
}

/// Reads an `n × n` grid of symbols, one row per line (or all on one line,
/// rows separated by `,` or `;`); `symbol` maps a
/// character to a cell value. Spaces, `|` and `,` between cells are
/// skipped, and so are empty lines and a period after the last row.
pub(crate) fn parse_symbol_grid(
    answer: &str,
    n: usize,
    symbol: impl Fn(char) -> Option<u8>,
) -> Result<Vec<u8>, CheckError> {
    let mut grid = Vec::with_capacity(n * n);
    let mut lines = 0;
    // Rows on one line are separated by `,` or `;` (`00A0, T000, …`).
    let one_line = answer.lines().filter(|l| !l.trim().is_empty()).count() == 1;
    let rows: Vec<&str> = if one_line {
        answer.split([',', ';']).collect()
    } else {
        answer.lines().collect()
    };
    for line in rows {
        let mut cells: Vec<char> = line
            .chars()
            .filter(|c| !c.is_whitespace() && !"|,".contains(*c))
            .collect();
        if cells.is_empty() {
            continue;
        }
        // A sentence's period after the last row is no cell.
        if lines + 1 == n
            && cells.len() == n + 1
            && cells[n] == '.'
            && answer.trim_end().ends_with('.')
        {
            cells.pop();
        }
        lines += 1;
        if cells.len() != n || lines > n {
            return Err(format!("expected {n} rows of {n} cells, one row per line").into());
        }
        for c in cells {
            grid.push(symbol(c).ok_or_else(|| format!("`{c}` is no cell symbol"))?);
        }
    }
    if lines != n {
        return Err(format!("expected {n} rows of {n} cells, found {lines} rows").into());
    }
    Ok(grid)
}

fn neighbours4(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((cell / n) as i64, (cell % n) as i64);
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .map(move |(dr, dc)| (r + dr, c + dc))
        .filter(move |&(r, c)| r >= 0 && c >= 0 && r < n as i64 && c < n as i64)
        .map(move |(r, c)| r as usize * n + c as usize)
}

/// Whether two cells touch, diagonals included.
fn touch(n: usize, a: usize, b: usize) -> bool {
    (a / n).abs_diff(b / n) <= 1 && (a % n).abs_diff(b % n) <= 1
}

/// Whether trees and tents pair one to one along orthogonal adjacencies
/// (Kuhn's augmenting paths).
fn pairs_up(n: usize, grid: &[u8]) -> bool {
    let trees: Vec<usize> = (0..n * n).filter(|&c| grid[c] == TREE).collect();
    let tents: Vec<usize> = (0..n * n).filter(|&c| grid[c] == TENT).collect();
    if trees.len() != tents.len() {
        return false;
    }
    let mut owner: Vec<Option<usize>> = vec![None; n * n];
    fn augment(
        n: usize,
        grid: &[u8],
        tree: usize,
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for tent in neighbours4(n, tree).filter(|&c| grid[c] == TENT) {
            if std::mem::replace(&mut seen[tent], true) {
                continue;
            }
            if owner[tent].is_none_or(|other| augment(n, grid, other, seen, owner)) {
                owner[tent] = Some(tree);
                return true;
            }
        }
        false
    }
    trees
        .iter()
        .all(|&tree| augment(n, grid, tree, &mut vec![false; n * n], &mut owner))
}

/// Every rule, on a full grid.
pub(crate) fn follows_rules(n: usize, grid: &[u8], rows: &[usize], cols: &[usize]) -> bool {
    let tents: Vec<usize> = (0..n * n).filter(|&c| grid[c] == TENT).collect();
    let apart = tents
        .iter()
        .enumerate()
        .all(|(i, &a)| tents[i + 1..].iter().all(|&b| !touch(n, a, b)));
    let counts = (0..n).all(|r| (0..n).filter(|&c| grid[r * n + c] == TENT).count() == rows[r])
        && (0..n).all(|c| (0..n).filter(|&r| grid[r * n + c] == TENT).count() == cols[c]);
    apart && counts && pairs_up(n, grid)
}

/// Subsets of `options` of `want` cells, in order.
fn subsets(
    options: &[usize],
    want: usize,
    start: usize,
    chosen: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if chosen.len() == want {
        out.push(chosen.clone());
        return;
    }
    for i in start..options.len() {
        chosen.push(options[i]);
        subsets(options, want, i + 1, chosen, out);
        chosen.pop();
    }
}

struct Search<'a> {
    n: usize,
    rows: &'a [usize],
    cols: &'a [usize],
    /// Per row: the cells beside a tree.
    candidates: Vec<Vec<usize>>,
    grid: Vec<u8>,
    col_count: Vec<usize>,
    found: usize,
    limit: usize,
    steps: u64,
}

impl Search<'_> {
    /// Whether every tree of row `r` has a tent beside it.
    fn trees_served(&self, r: usize) -> bool {
        let n = self.n;
        (r * n..r * n + n)
            .filter(|&t| self.grid[t] == TREE)
            .all(|t| neighbours4(n, t).any(|c| self.grid[c] == TENT))
    }

    fn place(&mut self, row: usize) -> Option<()> {
        self.steps = self.steps.checked_sub(1)?;
        let n = self.n;
        if row == n {
            if self.col_count.as_slice() == self.cols
                && follows_rules(n, &self.grid, self.rows, self.cols)
            {
                self.found += 1;
            }
            return Some(());
        }
        let mut all = Vec::new();
        subsets(
            &self.candidates[row],
            self.rows[row],
            0,
            &mut Vec::new(),
            &mut all,
        );
        for subset in all {
            let fits = subset.windows(2).all(|w| w[1] - w[0] > 1)
                && subset.iter().all(|&c| {
                    self.col_count[c % n] < self.cols[c % n]
                        && (row == 0
                            || (0..n).all(|x| {
                                self.grid[(row - 1) * n + x] != TENT
                                    || !touch(n, (row - 1) * n + x, c)
                            }))
                });
            if !fits {
                continue;
            }
            for &c in &subset {
                self.grid[c] = TENT;
                self.col_count[c % n] += 1;
            }
            // The row above has all its neighbours decided now (and the last
            // row too, at the end).
            let served =
                (row == 0 || self.trees_served(row - 1)) && (row + 1 < n || self.trees_served(row));
            if served {
                self.place(row + 1)?;
            }
            for &c in &subset {
                self.grid[c] = EMPTY;
                self.col_count[c % n] -= 1;
            }
            if self.found >= self.limit {
                break;
            }
        }
        Some(())
    }
}

/// Counts solutions up to `limit`, row by row: each row takes its count of
/// tents among the cells beside a tree, apart from each other and from the
/// row above; a tree whose neighbours are all decided needs a tent among
/// them; full grids are checked by [`follows_rules`]. Spends one of `steps`
/// per row tried; `None` when they run out.
pub(crate) fn count_solutions(
    n: usize,
    trees: &[u8],
    rows: &[usize],
    cols: &[usize],
    limit: usize,
    steps: u64,
) -> Option<usize> {
    let candidates = (0..n)
        .map(|r| {
            (r * n..r * n + n)
                .filter(|&c| trees[c] != TREE && neighbours4(n, c).any(|t| trees[t] == TREE))
                .collect()
        })
        .collect();
    let mut search = Search {
        n,
        rows,
        cols,
        candidates,
        grid: trees.to_vec(),
        col_count: vec![0; n],
        found: 0,
        limit,
        steps,
    };
    search.place(0)?;
    Some(search.found)
}

/// Solver steps for one draw's uniqueness check.
const MAX_STEPS: u64 = 200_000;

pub struct Tents;

pub type TentsEnv = SingleTurn<Tents>;

impl Tents {
    fn draw(config: &TentsConfig, rng: &mut Rng) -> Option<TentsTask> {
        let n = config.n;
        let target = ((config.density * (n * n) as f64).round() as usize).max(2);
        let mut grid = vec![EMPTY; n * n];
        let mut cells: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut cells);
        let mut placed = 0;
        for cell in cells {
            if placed == target {
                break;
            }
            let clear =
                grid[cell] == EMPTY && (0..n * n).all(|o| grid[o] != TENT || !touch(n, o, cell));
            if !clear {
                continue;
            }
            let spots: Vec<usize> = neighbours4(n, cell).filter(|&t| grid[t] == EMPTY).collect();
            let Some(&tree) = rng.choose(&spots) else {
                continue;
            };
            grid[cell] = TENT;
            grid[tree] = TREE;
            placed += 1;
        }
        if placed < target {
            return None;
        }
        let rows: Vec<usize> = (0..n)
            .map(|r| (0..n).filter(|&c| grid[r * n + c] == TENT).count())
            .collect();
        let cols: Vec<usize> = (0..n)
            .map(|c| (0..n).filter(|&r| grid[r * n + c] == TENT).count())
            .collect();
        let trees: Vec<u8> = grid
            .iter()
            .map(|&v| if v == TREE { TREE } else { EMPTY })
            .collect();
        (count_solutions(n, &trees, &rows, &cols, 2, MAX_STEPS)? == 1).then_some(TentsTask {
            n,
            solution: grid,
            rows,
            cols,
        })
    }
}

impl Question for Tents {
    type Config = TentsConfig;
    type Task = TentsTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/tents-v1",
        kind: EnvKind::SingleTurn,
        description: "Tents: place a tent beside every tree, tents never touching, matching row and column counts; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"n":4,"density":0.15}"#,
        r#"{"n":5,"density":0.16}"#,
        r#"{"n":5,"density":0.2}"#,
        "{}",
        r#"{"n":7,"density":0.18}"#,
        r#"{"n":8,"density":0.18}"#,
        r#"{"n":9,"density":0.18}"#,
    ];

    fn effort(task: &TentsTask) -> Option<f64> {
        let tents = task.solution.iter().filter(|&&v| v == TENT).count();
        Some((task.n * task.n * tents) as f64)
    }

    fn validate(config: &TentsConfig) -> Result<(), ConfigError> {
        if !(4..=10).contains(&config.n) {
            return Err("n must be in 4..=10".into());
        }
        if !(0.1..=0.25).contains(&config.density) {
            return Err("density must be in 0.1..=0.25".into());
        }
        Ok(())
    }

    fn generate(config: &TentsConfig, rng: &mut Rng) -> TentsTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &TentsConfig, rng: &mut Rng) -> Result<TentsTask, NoTask> {
        draw_until(
            3000,
            || Self::draw(config, rng),
            || "no layout in 3000 draws had a unique solution; lower n or density".into(),
        )
    }

    fn prompt(task: &TentsTask) -> String {
        let n = task.n;
        let mut lines: Vec<String> = (0..n)
            .map(|r| {
                let row: String = (0..n)
                    .map(|c| {
                        if task.solution[r * n + c] == TREE {
                            'T'
                        } else {
                            '0'
                        }
                    })
                    .collect();
                format!("{row} | {}", task.rows[r])
            })
            .collect();
        lines.push(String::new());
        let cols: Vec<String> = task.cols.iter().map(|c| c.to_string()).collect();
        lines.push(format!("column counts, left to right: {}", cols.join(" ")));
        format!(
            "Tents: place tents in this {n}x{n} grid. T is a tree, 0 is an empty cell. Every tree needs its own \
             tent in a cell directly above, below, left or right of it (trees and tents pair up one to one), no \
             two tents may touch, not even diagonally, the number after the bar at the end of each row is how \
             many tents it holds, and so are the column counts under the grid. The solution is unique.\n\n{}\n\nAnswer with the full grid, {n} \
             lines of {n} characters (T for a tree, A for a tent, 0 for empty), inside \\boxed{{}}.",
            lines.join("\n")
        )
    }

    fn structured(task: &TentsTask) -> Value {
        let n = task.n;
        let trees: Vec<[usize; 2]> = (0..n * n)
            .filter(|&c| task.solution[c] == TREE)
            .map(|c| [c / n, c % n])
            .collect();
        json!({ "n": n, "trees": trees, "row_tents": task.rows, "col_tents": task.cols })
    }

    fn reference(task: &TentsTask) -> String {
        task.solution
            .chunks(task.n)
            .map(|r| {
                r.iter()
                    .map(|&v| ['0', 'A', 'T'][v as usize])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &TentsTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_symbol_grid(answer, task.n, |c| match c {
            'A' | 'a' | '^' | '1' => Some(TENT),
            'T' | 't' => Some(TREE),
            '.' | '0' | '-' | '_' | 'x' | 'X' => Some(EMPTY),
            _ => None,
        })?;
        let trees_kept = grid
            .iter()
            .zip(&task.solution)
            .all(|(&g, &s)| (g == TREE) == (s == TREE));
        Ok(trees_kept && follows_rules(task.n, &grid, &task.rows, &task.cols))
    }
}

#[cfg(test)]
#[path = "tents_tests.rs"]
mod tests;
