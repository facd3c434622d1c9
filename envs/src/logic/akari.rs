//! `logic/akari-v1`: place lights on a grid with black cells so that every
//! white cell is lit (Light Up / Akari); one solution, proven by our own
//! solver when the task is made.
//!
//! # Task
//! An `n × n` grid of white cells and black cells, some black cells holding
//! a number `0..=4`. Rules: a light on a white cell lights its own cell and
//! every white cell it sees along its row and column up to a black cell or
//! the edge; every white cell must be lit, no two lights may see each other,
//! and a numbered black cell has exactly that many lights on its four
//! side-neighbours. The generator scatters black cells, places lights in
//! random order wherever a cell is still dark, numbers every black cell,
//! keeps the grid only when the solver finds exactly one solution, then
//! hides each number whose removal keeps the solution unique.
//!
//! # Action
//! The grid with every light written `L` (`*` or `@` read the same), every
//! other white cell `.` (`-` or `_`), and every black cell as given (`#`, or
//! its number), one row per line (or on one line, rows separated by `,` or
//! `;`); spaces and `|` between cells are ignored. In `\boxed{…}` or as the
//! whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid (`.` white, `#` black, a digit a numbered black cell).
//! Structured: `n` and the rows as strings.
//!
//! # Reward
//! 1 and `passed` when the black cells are as given and the lights follow
//! every rule (checked directly; the unique solution means this agrees with
//! the reference); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (5..=9).
//!
//! # Seeding
//! The black cells, the lights and the hidden numbers come from the task rng.
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

/// Cell codes of a read answer; `0..=4` are numbered black cells.
const EMPTY: u8 = 10;
const LIGHT: u8 = 11;
const BLACK: u8 = 12;
/// A black cell without a number in a task's grid.
const PLAIN: u8 = BLACK;
/// A white cell in a task's grid.
const WHITE: u8 = EMPTY;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AkariConfig {
    pub n: usize,
}

impl Default for AkariConfig {
    fn default() -> Self {
        AkariConfig { n: 7 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AkariTask {
    pub n: usize,
    /// Row-major: `WHITE`, `PLAIN` black, or a black cell's number `0..=4`.
    pub cells: Vec<u8>,
    /// Row-major: whether each cell holds a light (the solution).
    pub lights: Vec<bool>,
}

fn is_black(code: u8) -> bool {
    code != WHITE
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

/// Each white cell's row segment and column segment (runs of white cells
/// between black cells or edges), numbered; `usize::MAX` on black cells.
fn segments(n: usize, cells: &[u8]) -> (Vec<usize>, Vec<usize>, usize) {
    let mut row = vec![usize::MAX; n * n];
    let mut col = vec![usize::MAX; n * n];
    let mut next = 0;
    for (seg, step) in [(&mut row, (n, 1)), (&mut col, (1, n))] {
        for line in 0..n {
            let mut open = false;
            for k in 0..n {
                let cell = line * step.0 + k * step.1;
                if is_black(cells[cell]) {
                    open = false;
                    continue;
                }
                if !open {
                    next += 1;
                    open = true;
                }
                seg[cell] = next - 1;
            }
        }
    }
    (row, col, next)
}

/// Every rule, on a full placement of lights (lights only on white cells).
fn follows_rules(n: usize, cells: &[u8], lights: &[bool]) -> bool {
    let (row, col, count) = segments(n, cells);
    let mut per_seg = vec![0usize; count];
    for c in (0..n * n).filter(|&c| lights[c]) {
        if is_black(cells[c]) {
            return false;
        }
        per_seg[row[c]] += 1;
        per_seg[col[c]] += 1;
    }
    let apart = per_seg.iter().all(|&k| k <= 1);
    let lit = (0..n * n).all(|c| is_black(cells[c]) || per_seg[row[c]] + per_seg[col[c]] > 0);
    let numbers = (0..n * n).all(|c| {
        cells[c] > 4 || neighbours(n, c).filter(|&o| lights[o]).count() == cells[c] as usize
    });
    apart && lit && numbers
}

/// Counts light placements up to `limit`, white cell by white cell in
/// reading order: a light goes only where neither of its segments has one;
/// a cell is checked lit once both its segments are decided, and a number
/// once too many or too few neighbours are left. Spends one of `steps` per
/// node; `None` when they run out.
fn count_solutions(n: usize, cells: &[u8], limit: usize, steps: &mut u64) -> Option<usize> {
    let (row, col, count) = segments(n, cells);
    let whites: Vec<usize> = (0..n * n).filter(|&c| !is_black(cells[c])).collect();
    // The position (in `whites`) after which each white cell is final.
    let mut last_of_seg = vec![0usize; count];
    for (i, &c) in whites.iter().enumerate() {
        last_of_seg[row[c]] = i;
        last_of_seg[col[c]] = i;
    }
    let mut final_at: Vec<Vec<usize>> = vec![Vec::new(); whites.len()];
    // Cells whose row segment is decided at each position, and the white
    // cells (positions in `whites`) of each column segment.
    let mut row_done_at: Vec<Vec<usize>> = vec![Vec::new(); whites.len()];
    let mut seg_cells: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, &c) in whites.iter().enumerate() {
        final_at[last_of_seg[row[c]].max(last_of_seg[col[c]])].push(c);
        row_done_at[last_of_seg[row[c]]].push(c);
        seg_cells[col[c]].push(i);
    }
    let numbered: Vec<bool> = cells.iter().map(|&c| c <= 4).collect();
    struct Search<'a> {
        n: usize,
        cells: &'a [u8],
        whites: Vec<usize>,
        row: Vec<usize>,
        col: Vec<usize>,
        final_at: Vec<Vec<usize>>,
        row_done_at: Vec<Vec<usize>>,
        seg_cells: Vec<Vec<usize>>,
        numbered: Vec<bool>,
        seg_lit: Vec<bool>,
        lights: Vec<bool>,
        decided: Vec<bool>,
        found: usize,
        limit: usize,
    }
    impl Search<'_> {
        fn numbers_ok(&self, cell: usize) -> bool {
            neighbours(self.n, cell)
                .filter(|&o| self.numbered[o])
                .all(|b| {
                    let want = self.cells[b] as usize;
                    let on = neighbours(self.n, b).filter(|&o| self.lights[o]).count();
                    let open = neighbours(self.n, b)
                        .filter(|&o| !is_black(self.cells[o]) && !self.decided[o])
                        .count();
                    on <= want && on + open >= want
                })
        }
        /// Whether `x`, its row segment decided at position `i`, is lit or
        /// can still be lit from a later cell of its column segment.
        fn can_light(&self, x: usize, i: usize) -> bool {
            self.seg_lit[self.row[x]]
                || self.seg_lit[self.col[x]]
                || self.seg_cells[self.col[x]]
                    .iter()
                    .any(|&j| j > i && !self.seg_lit[self.row[self.whites[j]]])
        }
        fn go(&mut self, i: usize, steps: &mut u64) -> Option<()> {
            *steps = steps.checked_sub(1)?;
            if i == self.whites.len() {
                self.found += 1;
                return Some(());
            }
            let cell = self.whites[i];
            let (r, c) = (self.row[cell], self.col[cell]);
            self.decided[cell] = true;
            for light in [true, false] {
                if light && (self.seg_lit[r] || self.seg_lit[c]) {
                    continue;
                }
                self.lights[cell] = light;
                self.seg_lit[r] |= light;
                self.seg_lit[c] |= light;
                let ok = self.numbers_ok(cell)
                    && self.final_at[i]
                        .iter()
                        .all(|&x| self.seg_lit[self.row[x]] || self.seg_lit[self.col[x]])
                    && self.row_done_at[i].iter().all(|&x| self.can_light(x, i));
                if ok {
                    self.go(i + 1, steps)?;
                }
                if light {
                    self.seg_lit[r] = false;
                    self.seg_lit[c] = false;
                    self.lights[cell] = false;
                }
                if self.found >= self.limit {
                    break;
                }
            }
            self.decided[cell] = false;
            Some(())
        }
    }
    let mut search = Search {
        n,
        cells,
        whites,
        row,
        col,
        final_at,
        row_done_at,
        seg_cells,
        numbered,
        seg_lit: vec![false; count],
        lights: vec![false; n * n],
        decided: vec![false; n * n],
        found: 0,
        limit,
    };
    search.go(0, steps)?;
    Some(search.found)
}

/// Solver steps for a draw's uniqueness check, and for each hidden number.
const MAX_STEPS: u64 = 20_000;
const HIDE_STEPS: u64 = 1_500;

pub struct Akari;

pub type AkariEnv = SingleTurn<Akari>;

impl Akari {
    fn draw(config: &AkariConfig, rng: &mut Rng) -> Option<AkariTask> {
        let n = config.n;
        let mut cells: Vec<u8> = (0..n * n)
            .map(|_| {
                if rng.range_usize(0, 3) == 0 {
                    PLAIN
                } else {
                    WHITE
                }
            })
            .collect();
        let (row, col, count) = segments(n, &cells);
        let mut lights = vec![false; n * n];
        let mut seg_lit = vec![false; count];
        let mut order: Vec<usize> = (0..n * n).filter(|&c| !is_black(cells[c])).collect();
        rng.shuffle(&mut order);
        for cell in order {
            if !seg_lit[row[cell]] && !seg_lit[col[cell]] {
                lights[cell] = true;
                seg_lit[row[cell]] = true;
                seg_lit[col[cell]] = true;
            }
        }
        let mut blacks: Vec<usize> = (0..n * n).filter(|&c| is_black(cells[c])).collect();
        if blacks.len() < 2 {
            return None;
        }
        for &b in &blacks {
            cells[b] = neighbours(n, b).filter(|&o| lights[o]).count() as u8;
        }
        let mut steps = MAX_STEPS;
        if count_solutions(n, &cells, 2, &mut steps)? != 1 {
            return None;
        }
        rng.shuffle(&mut blacks);
        for b in blacks {
            let number = cells[b];
            cells[b] = PLAIN;
            let mut steps = HIDE_STEPS;
            if count_solutions(n, &cells, 2, &mut steps) != Some(1) {
                cells[b] = number;
            }
        }
        Some(AkariTask { n, cells, lights })
    }

    fn rows(task: &AkariTask, light: &str) -> Vec<String> {
        (0..task.n)
            .map(|r| {
                (r * task.n..r * task.n + task.n)
                    .map(|c| match task.cells[c] {
                        WHITE if task.lights[c] && !light.is_empty() => light.to_string(),
                        WHITE => ".".to_string(),
                        PLAIN => "#".to_string(),
                        k => k.to_string(),
                    })
                    .collect::<String>()
            })
            .collect()
    }
}

impl Question for Akari {
    type Config = AkariConfig;
    type Task = AkariTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/akari-v1",
        kind: EnvKind::SingleTurn,
        description: "Akari (Light Up): place lights so every white cell is lit, no two lights see each other, numbered black cells have that many adjacent lights; unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };
    const LEVELS: &'static [&'static str] =
        &[r#"{"n":5}"#, r#"{"n":6}"#, "{}", r#"{"n":8}"#, r#"{"n":9}"#];

    fn effort(task: &AkariTask) -> Option<f64> {
        Some((task.n * task.n) as f64)
    }

    fn validate(config: &AkariConfig) -> Result<(), ConfigError> {
        if !(5..=9).contains(&config.n) {
            return Err("n must be in 5..=9".into());
        }
        Ok(())
    }

    fn generate(config: &AkariConfig, rng: &mut Rng) -> AkariTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &AkariConfig, rng: &mut Rng) -> Result<AkariTask, NoTask> {
        draw_until(
            5000,
            || Self::draw(config, rng),
            || "no grid in 5000 draws had a unique solution; lower n".into(),
        )
    }

    fn prompt(task: &AkariTask) -> String {
        let n = task.n;
        format!(
            "Akari (Light Up): place lights on white cells (.) of this {n}x{n} grid. A light lights its own cell \
             and every white cell in its row and column up to a black cell (# or a digit) or the edge. Every white \
             cell must be lit, no two lights may light each other, and a black cell with a digit has exactly that \
             many lights on the cells sharing a side with it. The solution is unique.\n\n{}\n\nAnswer with the \
             grid, {n} lines, writing L for each light, . for every other white cell and each black cell as \
             given, inside \\boxed{{}}.",
            Self::rows(task, "").join("\n")
        )
    }

    fn structured(task: &AkariTask) -> Value {
        json!({ "n": task.n, "rows": Self::rows(task, "") })
    }

    fn reference(task: &AkariTask) -> String {
        Self::rows(task, "L").join("\n")
    }

    fn check(task: &AkariTask, answer: &str) -> Result<bool, CheckError> {
        let n = task.n;
        // The answer reader drops a closing `.` (a sentence's period), so a
        // last row short of cells had its unlit cells at the end cut off.
        let answer = answer.trim_end();
        let last = answer.rsplit(['\n', ',', ';']).next().unwrap_or("");
        let cells = last
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '|')
            .count();
        let padded = format!("{answer}{}", ".".repeat(n.saturating_sub(cells)));
        let answer = if (1..n).contains(&cells) {
            padded.as_str()
        } else {
            answer
        };
        let grid = parse_symbol_grid(answer, n, |c| match c {
            'L' | '*' | '@' => Some(LIGHT),
            '.' | '-' | '_' => Some(EMPTY),
            '#' | 'X' | '■' | '█' => Some(BLACK),
            '0'..='4' => Some(c as u8 - b'0'),
            _ => None,
        })?;
        let as_given = grid.iter().zip(&task.cells).all(|(&g, &t)| match t {
            WHITE => g == EMPTY || g == LIGHT,
            PLAIN => g == BLACK,
            k => g == k || g == BLACK,
        });
        let lights: Vec<bool> = grid.iter().map(|&g| g == LIGHT).collect();
        Ok(as_given && follows_rules(n, &task.cells, &lights))
    }
}

#[cfg(test)]
#[path = "akari_tests.rs"]
mod tests;
