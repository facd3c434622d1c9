//! `logic/kakuro-v1`: fill the white cells of a kakuro grid with digits so
//! that every run adds up to its clue without a repeated digit; exactly one
//! solution.
//!
//! # Task
//! A `rows × cols` play area under a clue row and left of a clue column.
//! Its white cells form horizontal and vertical runs of at least two cells;
//! every white cell lies in one run of each direction. Each run must hold
//! distinct digits 1..=9 adding up to its clue. The generator blackens cells
//! at random (`black_density`), blackens white cells left in runs of one
//! until none are, keeps the largest connected white area (redrawing unless
//! it reaches every row and column and covers half the area), fills it at
//! random with no digit repeated in a run, and keeps the clues only when a
//! limit-2 solution count (fewest candidates first, each run's candidates
//! being the digits of the sets of distinct unused digits that make its
//! remaining sum) finds exactly one filling; otherwise it changes one of its
//! digits where the other filling differs (no repeat in its runs) and
//! counts again, and after 40 such repairs draws a new shape.
//!
//! # Action
//! The digits of the white cells, row by row from the top, left to right
//! within a row, in `\boxed{…}` or as the whole reply. Spaces, commas,
//! semicolons, `|` and line breaks are free; anything else, a `0`, or a
//! wrong number of digits is a format error.
//!
//! # Observation
//! The grid (`_` white, `#` black, `D\R` a black cell with the sum of the
//! run below it and of the run right of it) and the same runs as a list.
//! Structured: the white-cell mask and the clues.
//!
//! # Reward
//! 1 and `passed` when every run adds up to its clue and repeats no digit
//! (checked against the clues, not a stored answer; the solution is
//! unique, so only it passes); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `rows`, `cols` (3..=7), `black_density` (0.1..=0.4).
//!
//! # Seeding
//! Shape, filling and repairs come from the task rng; non-unique clues are
//! repaired or redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::rng::Rng;
use crate::single_turn::{Question, SingleTurn};

/// Single-digit repairs tried on one shape's filling before a new shape
/// is drawn.
const REPAIRS_PER_SHAPE: usize = 40;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KakuroConfig {
    /// Rows of the play area (the clue row above is extra).
    pub rows: usize,
    /// Columns of the play area (the clue column left of it is extra).
    pub cols: usize,
    /// Chance that a cell starts black, before runs of one are removed.
    pub black_density: f64,
}

impl Default for KakuroConfig {
    fn default() -> Self {
        KakuroConfig {
            rows: 5,
            cols: 5,
            black_density: 0.25,
        }
    }
}

/// One run: its first white cell (0-based in the play area), its length
/// and the sum of its digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clue {
    pub row: usize,
    pub col: usize,
    pub len: usize,
    pub sum: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KakuroTask {
    pub rows: usize,
    pub cols: usize,
    /// Row-major play area: the digit of each white cell, 0 for black.
    pub solution: Vec<u8>,
    pub across: Vec<Clue>,
    pub down: Vec<Clue>,
}

impl KakuroTask {
    fn whites(&self) -> Vec<usize> {
        (0..self.solution.len())
            .filter(|&i| self.solution[i] != 0)
            .collect()
    }
}

/// Cells (play-area indices) of a run.
fn run_cells(cols: usize, clue: &Clue, across: bool) -> impl Iterator<Item = usize> + '_ {
    (0..clue.len).map(move |k| {
        if across {
            clue.row * cols + clue.col + k
        } else {
            (clue.row + k) * cols + clue.col
        }
    })
}

/// The maximal runs of non-zero cells, across then down, with their sums.
fn clues(rows: usize, cols: usize, grid: &[u8]) -> (Vec<Clue>, Vec<Clue>) {
    let scan = |outer: usize, inner: usize, at: &dyn Fn(usize, usize) -> usize| {
        let mut found = Vec::new();
        for o in 0..outer {
            let mut i = 0;
            while i < inner {
                if grid[at(o, i)] == 0 {
                    i += 1;
                    continue;
                }
                let start = i;
                let mut sum = 0;
                while i < inner && grid[at(o, i)] != 0 {
                    sum += usize::from(grid[at(o, i)]);
                    i += 1;
                }
                found.push((o, start, i - start, sum));
            }
        }
        found
    };
    let across = scan(rows, cols, &|r, c| r * cols + c)
        .into_iter()
        .map(|(row, col, len, sum)| Clue { row, col, len, sum })
        .collect();
    let mut down: Vec<Clue> = scan(cols, rows, &|c, r| r * cols + c)
        .into_iter()
        .map(|(col, row, len, sum)| Clue { row, col, len, sum })
        .collect();
    down.sort_by_key(|c| (c.row, c.col));
    (across, down)
}

/// Digit sets (bit `d - 1` for digit `d`) of each size and sum.
struct Combos(Vec<Vec<u16>>);

impl Combos {
    fn new() -> Self {
        let mut table = vec![Vec::new(); 10 * 46];
        for set in 1u16..512 {
            let sum: usize = (0..9).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum();
            table[set.count_ones() as usize * 46 + sum].push(set);
        }
        Combos(table)
    }

    /// The digits that may go in one of `open` cells that must add up to
    /// `sum` with distinct digits outside `used`.
    fn candidates(&self, open: usize, sum: usize, used: u16) -> u16 {
        if open == 0 || sum > 45 {
            return 0;
        }
        self.0[open * 46 + sum]
            .iter()
            .filter(|&&set| set & used == 0)
            .fold(0, |acc, &set| acc | set)
    }
}

/// Up to `limit` fillings that meet the clues, as digits in white-cell order.
fn solve(task: &KakuroTask, limit: usize, combos: &Combos) -> Vec<Vec<u8>> {
    let whites = task.whites();
    let mut index = vec![usize::MAX; task.solution.len()];
    for (k, &cell) in whites.iter().enumerate() {
        index[cell] = k;
    }
    let mut cell_runs = vec![[0usize; 2]; whites.len()];
    let mut target = Vec::new();
    for (side, list) in [(0, &task.across), (1, &task.down)] {
        for clue in list {
            for cell in run_cells(task.cols, clue, side == 0) {
                cell_runs[index[cell]][side] = target.len();
            }
            target.push((clue.sum, clue.len));
        }
    }
    let mut search = Search {
        combos,
        cell_runs,
        got: vec![(0, 0, 0); target.len()],
        target,
        values: vec![0; whites.len()],
        found: Vec::new(),
    };
    search.count(limit);
    search.found
}

struct Search<'a> {
    combos: &'a Combos,
    cell_runs: Vec<[usize; 2]>,
    /// Per run: (sum, length).
    target: Vec<(usize, usize)>,
    /// Per run: (sum so far, cells filled, digits used).
    got: Vec<(usize, usize, u16)>,
    /// Per white cell: its digit, 0 while open.
    values: Vec<u8>,
    found: Vec<Vec<u8>>,
}

impl Search<'_> {
    fn candidates(&self, cell: usize) -> u16 {
        self.cell_runs[cell].iter().fold(0x1ff, |acc, &run| {
            let (sum, len) = self.target[run];
            let (got, placed, used) = self.got[run];
            acc & sum
                .checked_sub(got)
                .map_or(0, |left| self.combos.candidates(len - placed, left, used))
        })
    }

    fn count(&mut self, limit: usize) -> usize {
        let mut best: Option<(usize, u16)> = None;
        for cell in (0..self.values.len()).filter(|&c| self.values[c] == 0) {
            let options = self.candidates(cell);
            if best.is_none_or(|(_, b)| options.count_ones() < b.count_ones()) {
                best = Some((cell, options));
            }
            if options == 0 {
                return 0;
            }
        }
        // Every run's last digit is forced to its remaining sum, so a full
        // filling reached this way meets every clue.
        let Some((cell, options)) = best else {
            self.found.push(self.values.clone());
            return 1;
        };
        let mut found = 0;
        for d in (0..9).filter(|d| options >> d & 1 == 1) {
            self.values[cell] = d as u8 + 1;
            for &run in &self.cell_runs[cell] {
                let got = &mut self.got[run];
                *got = (got.0 + d + 1, got.1 + 1, got.2 | 1 << d);
            }
            found += self.count(limit - found);
            for &run in &self.cell_runs[cell] {
                let got = &mut self.got[run];
                *got = (got.0 - d - 1, got.1 - 1, got.2 & !(1 << d));
            }
            if found >= limit {
                break;
            }
        }
        self.values[cell] = 0;
        found
    }
}

/// A random shape: every white cell in an across and a down run of at
/// least two, one connected area reaching every row and column.
fn shape(config: &KakuroConfig, rng: &mut Rng) -> Vec<bool> {
    let (rows, cols) = (config.rows, config.cols);
    loop {
        let mut white: Vec<bool> = (0..rows * cols)
            .map(|_| !rng.chance(config.black_density))
            .collect();
        let run_of_one = |w: &[bool], i: usize| {
            let (r, c) = (i / cols, i % cols);
            let lone_across = (c == 0 || !w[i - 1]) && (c + 1 == cols || !w[i + 1]);
            let lone_down = (r == 0 || !w[i - cols]) && (r + 1 == rows || !w[i + cols]);
            lone_across || lone_down
        };
        while let Some(i) = (0..rows * cols).find(|&i| white[i] && run_of_one(&white, i)) {
            white[i] = false;
        }
        // The largest 4-connected white area.
        let mut area = vec![usize::MAX; rows * cols];
        let mut sizes = Vec::new();
        for start in 0..rows * cols {
            if !white[start] || area[start] != usize::MAX {
                continue;
            }
            let id = sizes.len();
            let mut stack = vec![start];
            area[start] = id;
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                let (r, c) = (i / cols, i % cols);
                let near = [
                    (r > 0).then(|| i - cols),
                    (r + 1 < rows).then(|| i + cols),
                    (c > 0).then(|| i - 1),
                    (c + 1 < cols).then(|| i + 1),
                ];
                for j in near.into_iter().flatten() {
                    if white[j] && area[j] == usize::MAX {
                        area[j] = id;
                        stack.push(j);
                    }
                }
            }
            sizes.push(size);
        }
        let Some(keep) = (0..sizes.len()).max_by_key(|&id| (sizes[id], usize::MAX - id)) else {
            continue;
        };
        let white: Vec<bool> = area.iter().map(|&id| id == keep).collect();
        let every_row = (0..rows).all(|r| (0..cols).any(|c| white[r * cols + c]));
        let every_col = (0..cols).all(|c| (0..rows).any(|r| white[r * cols + c]));
        if every_row && every_col && sizes[keep] * 2 >= rows * cols {
            return white;
        }
    }
}

/// Fills the white cells from `at` on with digits, none repeated in a run.
fn fill(grid: &mut [u8], cols: usize, whites: &[usize], at: usize, rng: &mut Rng) -> bool {
    let Some(&cell) = whites.get(at) else {
        return true;
    };
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    for d in digits {
        // Cells are filled in row-major order: the run cells already
        // filled lie to the left and above.
        let clash = |step: usize| {
            let mut i = cell;
            while let Some(j) = i
                .checked_sub(step)
                .filter(|&j| step != 1 || j / cols == cell / cols)
            {
                if grid[j] == 0 {
                    return false;
                }
                if grid[j] == d {
                    return true;
                }
                i = j;
            }
            false
        };
        if clash(1) || clash(cols) {
            continue;
        }
        grid[cell] = d;
        if fill(grid, cols, whites, at + 1, rng) {
            return true;
        }
    }
    grid[cell] = u8::MAX;
    false
}

/// The digits (bit `d` for digit `d`) in the runs through `cell`, other
/// than its own.
fn run_digits(grid: &[u8], rows: usize, cols: usize, cell: usize) -> u16 {
    let (r, c) = (cell / cols, cell % cols);
    let mut used = 0u16;
    let mut walk = |dr: isize, dc: isize| {
        let (mut r, mut c) = (r as isize + dr, c as isize + dc);
        while (0..rows as isize).contains(&r) && (0..cols as isize).contains(&c) {
            let d = grid[r as usize * cols + c as usize];
            if d == 0 {
                break;
            }
            used |= 1 << d;
            r += dr;
            c += dc;
        }
    };
    walk(0, -1);
    walk(0, 1);
    walk(-1, 0);
    walk(1, 0);
    used
}

/// The digits of an answer, strictly `count` of them in 1..=9.
fn parse_digits(answer: &str, count: usize) -> Result<Vec<u8>, String> {
    if answer.len() > 16 * count + 256 {
        return Err("answer is far longer than the grid".into());
    }
    let mut digits = Vec::with_capacity(count);
    for ch in answer.chars() {
        match ch {
            '1'..='9' => digits.push(ch as u8 - b'0'),
            '0' => return Err("0 is not a kakuro digit (use 1-9)".into()),
            c if c.is_whitespace() || ",;|".contains(c) => {}
            c => return Err(format!("unexpected `{c}`: write only the digits")),
        }
    }
    if digits.len() != count {
        return Err(format!(
            "expected {count} digits (one per white cell), found {}",
            digits.len()
        ));
    }
    Ok(digits)
}

/// Every run of `grid` adds up to its clue and repeats no digit.
fn meets_clues(task: &KakuroTask, grid: &[u8]) -> bool {
    [(&task.across, true), (&task.down, false)]
        .iter()
        .all(|&(list, across)| {
            list.iter().all(|clue| {
                let mut used = 0u16;
                let mut sum = 0;
                for cell in run_cells(task.cols, clue, across) {
                    let d = grid[cell];
                    if !(1..=9).contains(&d) || used >> d & 1 == 1 {
                        return false;
                    }
                    used |= 1 << d;
                    sum += usize::from(d);
                }
                sum == clue.sum
            })
        })
}

pub struct Kakuro;

pub type KakuroEnv = SingleTurn<Kakuro>;

impl Question for Kakuro {
    type Config = KakuroConfig;
    type Task = KakuroTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/kakuro-v1",
        kind: EnvKind::SingleTurn,
        description: "Kakuro: fill white cells with 1-9 so each run hits its sum with no repeats; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: Self::LEVELS[0],
            },
            Preset {
                name: "medium",
                overrides: Self::LEVELS[2],
            },
            Preset {
                name: "hard",
                overrides: Self::LEVELS[4],
            },
        ],
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"rows":4,"cols":4}"#,
        r#"{"rows":4,"cols":5}"#,
        "{}",
        r#"{"rows":5,"cols":6}"#,
        r#"{"rows":6,"cols":6}"#,
    ];

    fn effort(task: &KakuroTask) -> Option<f64> {
        Some(task.whites().len() as f64)
    }

    fn validate(config: &KakuroConfig) -> Result<(), String> {
        if !(3..=7).contains(&config.rows) || !(3..=7).contains(&config.cols) {
            return Err("need 3 <= rows <= 7 and 3 <= cols <= 7".into());
        }
        if !(0.1..=0.4).contains(&config.black_density) {
            return Err("need 0.1 <= black_density <= 0.4".into());
        }
        Ok(())
    }

    fn generate(config: &KakuroConfig, rng: &mut Rng) -> KakuroTask {
        let (rows, cols) = (config.rows, config.cols);
        let combos = Combos::new();
        loop {
            let white = shape(config, rng);
            let whites: Vec<usize> = (0..rows * cols).filter(|&i| white[i]).collect();
            // Unfilled white cells hold a placeholder that no digit equals.
            let mut grid: Vec<u8> = white.iter().map(|&w| if w { u8::MAX } else { 0 }).collect();
            if !fill(&mut grid, cols, &whites, 0, rng) {
                continue;
            }
            for _ in 0..REPAIRS_PER_SHAPE {
                let (across, down) = clues(rows, cols, &grid);
                let task = KakuroTask {
                    rows,
                    cols,
                    solution: grid.clone(),
                    across,
                    down,
                };
                let found = solve(&task, 2, &combos);
                if found.len() == 1 {
                    return task;
                }
                // Another filling meets these clues: change one digit of
                // ours where it differs, keeping runs free of repeats.
                let mine: Vec<u8> = whites.iter().map(|&i| grid[i]).collect();
                let Some(other) = found.iter().find(|f| **f != mine) else {
                    break;
                };
                let differing: Vec<usize> =
                    (0..whites.len()).filter(|&k| other[k] != mine[k]).collect();
                let cell = whites[differing[rng.below(differing.len() as u64) as usize]];
                let used = run_digits(&grid, rows, cols, cell) | 1 << grid[cell];
                let options: Vec<u8> = (1..=9).filter(|&d| used >> d & 1 == 0).collect();
                if let Some(&d) = rng.choose(&options) {
                    grid[cell] = d;
                }
            }
        }
    }

    fn prompt(task: &KakuroTask) -> String {
        let (rows, cols) = (task.rows, task.cols);
        // The shown grid has the clue row and column: play cell (r, c) is at (r + 1, c + 1).
        let mut tokens = vec![vec![(None, None); cols + 1]; rows + 1];
        for clue in &task.across {
            tokens[clue.row + 1][clue.col].1 = Some(clue.sum);
        }
        for clue in &task.down {
            tokens[clue.row][clue.col + 1].0 = Some(clue.sum);
        }
        let show = |s: Option<usize>| s.map_or(String::new(), |s| s.to_string());
        let grid: Vec<String> = (0..=rows)
            .map(|r| {
                (0..=cols)
                    .map(|c| {
                        let token = if r > 0 && c > 0 && task.solution[(r - 1) * cols + c - 1] != 0
                        {
                            "_".to_string()
                        } else {
                            match tokens[r][c] {
                                (None, None) => "#".to_string(),
                                (down, across) => format!("{}\\{}", show(down), show(across)),
                            }
                        };
                        format!("{token:>6}")
                    })
                    .collect::<String>()
            })
            .collect();
        let mut runs = Vec::new();
        for clue in &task.across {
            runs.push(format!(
                "across: row {}, columns {}-{}, sum {}",
                clue.row + 2,
                clue.col + 2,
                clue.col + clue.len + 1,
                clue.sum
            ));
        }
        for clue in &task.down {
            runs.push(format!(
                "down: column {}, rows {}-{}, sum {}",
                clue.col + 2,
                clue.row + 2,
                clue.row + clue.len + 1,
                clue.sum
            ));
        }
        format!(
            "Kakuro. Write a digit from 1 to 9 in every white cell (_) of the grid below. A black cell \
             written D\\R holds clues: D is the sum of the run of white cells directly below it, R the sum \
             of the run directly to its right (a missing number means no run on that side); # is a black \
             cell without clues. The digits of each run must add up to its clue, and no digit may appear \
             twice in a run. The solution is unique.\n\n{}\n\nThe same runs (rows and columns of the grid \
             above, counted from 1 at its top-left corner):\n{}\n\nAnswer with the {} digits of the white \
             cells only, row by row from top to bottom and left to right within a row, one line per row, \
             inside \\boxed{{}}.",
            grid.join("\n"),
            runs.join("\n"),
            task.whites().len()
        )
    }

    fn structured(task: &KakuroTask) -> Value {
        let white: Vec<u8> = task.solution.iter().map(|&d| u8::from(d != 0)).collect();
        json!({
            "rows": task.rows,
            "cols": task.cols,
            "white": white,
            "across": task.across,
            "down": task.down,
        })
    }

    fn reference(task: &KakuroTask) -> String {
        task.solution
            .chunks(task.cols)
            .map(|r| {
                r.iter()
                    .filter(|&&d| d != 0)
                    .map(u8::to_string)
                    .collect::<String>()
            })
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &KakuroTask, answer: &str) -> Result<bool, String> {
        let whites = task.whites();
        let digits = parse_digits(answer, whites.len())?;
        let mut grid = vec![0u8; task.solution.len()];
        for (&cell, &d) in whites.iter().zip(&digits) {
            grid[cell] = d;
        }
        Ok(meets_clues(task, &grid))
    }
}

#[cfg(test)]
mod tests;
