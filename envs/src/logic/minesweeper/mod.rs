//! `logic/minesweeper-v1`: clear a Minesweeper board that logic alone
//! solves from its pre-revealed opening, one move per turn.
//!
//! # Task
//! A `rows × cols` board with `mines` mines and a start cell whose 3×3
//! block holds no mine. The start is revealed (a 0, so its whole opening
//! floods open) before the first turn. The generator redraws the layout
//! until a deterministic logic solver clears the board from that opening
//! (see Seeding), and until that solver needs at least 3 moves.
//!
//! # Action
//! One move per turn, rows and columns counted from 1: `reveal R C` opens a
//! cell (a revealed 0 also opens its neighbours, recursively), `flag R C`
//! marks or unmarks a suspected mine (flags are notes only). Separators are
//! lenient (`reveal 3, 4`, `Reveal (3,4)`, `\boxed{reveal 3 4}`); `open` is
//! read as `reveal`. Anything else, a cell off the board, revealing an
//! opened or flagged cell, or flagging an opened one is an invalid action.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the moves left and the board: `#` hidden, `F` flagged, `0`–`8`
//! an opened cell's count of mines among its up to 8 neighbours, `*` the
//! mine that ended a lost game. Structured: the same board as row strings,
//! the sizes, the moves left and the outcome so far.
//!
//! # Reward
//! 1 and `passed` when every safe cell is open; else 0. Breakdown:
//! `correct`, `cleared` (share of the initially hidden safe cells opened),
//! `exploded`, `moves_used`.
//!
//! # Episode end
//! On revealing a mine (lost), on opening the last safe cell (won), or when
//! the move budget (the number of cells hidden at the start) is spent.
//!
//! # Parameters
//! `rows`, `cols` (5..=16), `mines` (3..=rows*cols/5).
//!
//! # Seeding
//! The start cell is uniform; the mines are uniform over the cells outside
//! its 3×3 block. The solver, which is also the oracle, opens the lowest
//! cell that single-cell rules (a number's hidden neighbours are all mines
//! or all safe) or pairwise rules (for numbers A and B, if B's remaining
//! count minus A's equals the size of B's cells outside A, those are all
//! mines and A's cells outside B are all safe) prove safe, from the open
//! cells only. Its move count is the task's effort.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;

const MAX_SIDE: usize = 16;
const MIN_SOLVER_MOVES: usize = 3;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MinesweeperConfig {
    pub rows: usize,
    pub cols: usize,
    pub mines: usize,
}

impl Default for MinesweeperConfig {
    fn default() -> Self {
        MinesweeperConfig {
            rows: 9,
            cols: 9,
            mines: 12,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinesweeperTask {
    pub rows: usize,
    pub cols: usize,
    /// Mine cells as `row * cols + col` (0-based), ascending.
    pub mines: Vec<usize>,
    /// The pre-revealed start cell, `row * cols + col`.
    pub start: usize,
    /// Moves the reference solver needs after the opening.
    pub solver_moves: usize,
}

/// A set of cells of a board of at most 256.
type Bits = [u64; 4];

fn has(b: &Bits, i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}

fn set(b: &mut Bits, i: usize) {
    b[i / 64] |= 1 << (i % 64);
}

fn count(b: &Bits) -> i32 {
    b.iter().map(|w| w.count_ones() as i32).sum()
}

fn lowest(b: &Bits) -> Option<usize> {
    b.iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(k, w)| k * 64 + w.trailing_zeros() as usize)
}

fn neighbours(rows: usize, cols: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = ((i / cols) as i64, (i % cols) as i64);
    (-1i64..=1)
        .flat_map(move |dr| (-1i64..=1).map(move |dc| (r + dr, c + dc)))
        .filter(move |&(nr, nc)| {
            (nr, nc) != (r, c) && nr >= 0 && nc >= 0 && nr < rows as i64 && nc < cols as i64
        })
        .map(move |(nr, nc)| nr as usize * cols + nc as usize)
}

/// Each cell's count of neighbouring mines; `-1` for a mine.
fn numbers(rows: usize, cols: usize, mines: &[usize]) -> Vec<i8> {
    let mut grid = vec![0i8; rows * cols];
    for &m in mines {
        grid[m] = -1;
    }
    for i in 0..rows * cols {
        if grid[i] >= 0 {
            grid[i] = neighbours(rows, cols, i).filter(|&j| grid[j] < 0).count() as i8;
        }
    }
    grid
}

/// Opens `at` (known safe) in `open`, flooding through zeros; returns how
/// many cells opened.
fn flood(rows: usize, cols: usize, truth: &[i8], open: &mut [bool], at: usize) -> usize {
    let mut stack = vec![at];
    let mut opened = 0;
    while let Some(i) = stack.pop() {
        if open[i] {
            continue;
        }
        open[i] = true;
        opened += 1;
        if truth[i] == 0 {
            stack.extend(neighbours(rows, cols, i).filter(|&j| !open[j]));
        }
    }
    opened
}

/// The reference solver: the lowest hidden cell that single-cell and
/// pairwise rules prove safe from the opened cells' numbers alone (`view[i]`
/// is the number of an opened cell, `None` for a hidden one).
pub fn first_safe(rows: usize, cols: usize, view: &[Option<i8>]) -> Option<usize> {
    let mut mine: Bits = [0; 4];
    loop {
        // One constraint per opened cell with hidden, unproven neighbours.
        let mut cons: Vec<(usize, Bits, i32)> = Vec::new();
        for (i, v) in view.iter().enumerate() {
            let Some(n) = v else { continue };
            let (mut cells, mut left) = ([0u64; 4], i32::from(*n));
            for j in neighbours(rows, cols, i) {
                if view[j].is_none() {
                    if has(&mine, j) {
                        left -= 1;
                    } else {
                        set(&mut cells, j);
                    }
                }
            }
            if cells != [0; 4] {
                cons.push((i, cells, left));
            }
        }
        let (mut safe, mut found): (Bits, Bits) = ([0; 4], [0; 4]);
        for (_, cells, left) in &cons {
            if *left == 0 {
                (0..4).for_each(|k| safe[k] |= cells[k]);
            } else if *left == count(cells) {
                (0..4).for_each(|k| found[k] |= cells[k]);
            }
        }
        if found == [0; 4] && safe == [0; 4] {
            for (ia, a, ca) in &cons {
                for (ib, b, cb) in &cons {
                    let near = (ia / cols).abs_diff(ib / cols) <= 2
                        && (ia % cols).abs_diff(ib % cols) <= 2;
                    if ia == ib || !near {
                        continue;
                    }
                    let only_b: Bits = std::array::from_fn(|k| b[k] & !a[k]);
                    if only_b != [0; 4] && cb - ca == count(&only_b) {
                        (0..4).for_each(|k| {
                            found[k] |= only_b[k];
                            safe[k] |= a[k] & !b[k];
                        });
                    }
                }
            }
        }
        if let Some(cell) = lowest(&safe) {
            return Some(cell);
        }
        if found == [0; 4] {
            return None;
        }
        (0..4).for_each(|k| mine[k] |= found[k]);
    }
}

/// Plays the solver from the opening; the move count, or `None` when it
/// gets stuck.
fn solver_moves(rows: usize, cols: usize, truth: &[i8], start: usize) -> Option<usize> {
    let mut open = vec![false; rows * cols];
    let safe_cells = truth.iter().filter(|&&t| t >= 0).count();
    let mut opened = flood(rows, cols, truth, &mut open, start);
    let mut moves = 0;
    while opened < safe_cells {
        let view: Vec<Option<i8>> = (0..rows * cols)
            .map(|i| open[i].then_some(truth[i]))
            .collect();
        let cell = first_safe(rows, cols, &view)?;
        opened += flood(rows, cols, truth, &mut open, cell);
        moves += 1;
    }
    Some(moves)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Reveal(usize),
    Flag(usize),
}

#[derive(Clone, Debug)]
pub struct Minesweeper {
    task: MinesweeperTask,
    truth: Vec<i8>,
    open: Vec<bool>,
    flags: Vec<bool>,
    budget: usize,
    moves_used: usize,
    initially_hidden_safe: usize,
    exploded: Option<usize>,
    last: Option<String>,
}

impl Minesweeper {
    fn hidden_safe(&self) -> usize {
        (0..self.truth.len())
            .filter(|&i| self.truth[i] >= 0 && !self.open[i])
            .count()
    }

    fn won(&self) -> bool {
        self.exploded.is_none() && self.hidden_safe() == 0
    }

    fn cell_name(&self, i: usize) -> String {
        format!("{} {}", i / self.task.cols + 1, i % self.task.cols + 1)
    }

    fn symbol(&self, i: usize) -> char {
        if self.exploded == Some(i) {
            '*'
        } else if self.open[i] {
            (b'0' + self.truth[i] as u8) as char
        } else if self.flags[i] {
            'F'
        } else {
            '#'
        }
    }

    fn board_rows(&self) -> Vec<String> {
        let cols = self.task.cols;
        (0..self.task.rows)
            .map(|r| (0..cols).map(|c| self.symbol(r * cols + c)).collect())
            .collect()
    }

    fn view(&self) -> Vec<Option<i8>> {
        (0..self.truth.len())
            .map(|i| self.open[i].then_some(self.truth[i]))
            .collect()
    }
}

impl Env for Minesweeper {
    type Config = MinesweeperConfig;
    type Task = MinesweeperTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "logic/minesweeper-v1",
        kind: EnvKind::MultiTurn,
        description: "Clear a no-guess Minesweeper board from its opening, one reveal or flag per turn",
        players: 1,
        max_steps: MAX_SIDE * MAX_SIDE,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"rows":6,"cols":6,"mines":5}"#,
        r#"{"rows":8,"cols":8,"mines":8}"#,
        "{}",
        r#"{"rows":12,"cols":12,"mines":24}"#,
        r#"{"rows":16,"cols":16,"mines":44}"#,
    ];

    fn effort(task: &MinesweeperTask) -> Option<f64> {
        Some(task.solver_moves as f64)
    }

    fn validate(config: &MinesweeperConfig) -> Result<(), ConfigError> {
        let sides = 5..=MAX_SIDE;
        if !sides.contains(&config.rows) || !sides.contains(&config.cols) {
            return Err(format!("rows and cols must be 5..={MAX_SIDE}").into());
        }
        let most = config.rows * config.cols / 5;
        if !(3..=most).contains(&config.mines) {
            return Err(format!("mines must be 3..={most} (a fifth of the board)").into());
        }
        Ok(())
    }

    fn generate(config: &MinesweeperConfig, rng: &mut Rng) -> MinesweeperTask {
        let (rows, cols) = (config.rows, config.cols);
        loop {
            let start = rng.below((rows * cols) as u64) as usize;
            let (sr, sc) = (start / cols, start % cols);
            let mut free: Vec<usize> = (0..rows * cols)
                .filter(|&i| (i / cols).abs_diff(sr) > 1 || (i % cols).abs_diff(sc) > 1)
                .collect();
            // A partial Fisher-Yates shuffle picks the mines.
            for k in 0..config.mines {
                let j = k + rng.below((free.len() - k) as u64) as usize;
                free.swap(k, j);
            }
            let mut mines = free[..config.mines].to_vec();
            mines.sort_unstable();
            let truth = numbers(rows, cols, &mines);
            match solver_moves(rows, cols, &truth, start) {
                Some(moves) if moves >= MIN_SOLVER_MOVES => {
                    return MinesweeperTask {
                        rows,
                        cols,
                        mines,
                        start,
                        solver_moves: moves,
                    };
                }
                _ => continue,
            }
        }
    }

    fn reference(task: &MinesweeperTask) -> Option<Value> {
        // The solver's moves in order, played on a fresh episode.
        let mut env = Minesweeper::reset(task, Rng::from_seed(0));
        let mut moves = Vec::new();
        while env.turn() != Turn::Over {
            let cell = first_safe(task.rows, task.cols, &env.view())?;
            moves.push(format!("reveal {}", env.cell_name(cell)));
            env.apply(0, Move::Reveal(cell)).ok()?;
        }
        Some(json!(moves))
    }

    fn reset(task: &MinesweeperTask, _rng: Rng) -> Self {
        let n = task.rows * task.cols;
        let truth = numbers(task.rows, task.cols, &task.mines);
        let mut open = vec![false; n];
        flood(task.rows, task.cols, &truth, &mut open, task.start);
        let hidden = open.iter().filter(|o| !**o).count();
        Minesweeper {
            task: task.clone(),
            initially_hidden_safe: hidden - task.mines.len(),
            truth,
            open,
            flags: vec![false; n],
            budget: hidden,
            moves_used: 0,
            exploded: None,
            last: None,
        }
    }

    fn turn(&self) -> Turn {
        if self.exploded.is_some() || self.won() || self.moves_used >= self.budget {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let (rows, cols) = (self.task.rows, self.task.cols);
        let mut text = format!(
            "Minesweeper on a {rows}x{cols} board with {} mines. Open every safe cell without opening a mine. \
             An opened cell shows how many mines are among its up to 8 neighbours; opening a 0 also opens its \
             neighbours. The opening around row {}, column {} is already open, and from it the board can be \
             cleared by logic alone, with no guessing. Board: # hidden, F flagged, 0-8 opened. Rows and columns \
             count from 1. Reply with one move: `reveal ROW COL` to open a cell, or `flag ROW COL` to mark or \
             unmark a suspected mine (flags are only notes). Moves left: {}.\n\n    ",
            self.task.mines.len(),
            self.task.start / cols + 1,
            self.task.start % cols + 1,
            self.budget - self.moves_used
        );
        text.push_str(&(1..=cols).map(|c| format!("{c:>3}")).collect::<String>());
        text.push('\n');
        for (r, line) in self.board_rows().iter().enumerate() {
            text.push_str(&format!("{:>4}", r + 1));
            text.extend(line.chars().map(|ch| format!("{ch:>3}")));
            text.push('\n');
        }
        if let Some(last) = &self.last {
            text.push_str(&format!("Last move: {last}\n"));
        }
        let outcome = if let Some(cell) = self.exploded {
            text.push_str(&format!(
                "Row {}, column {} was a mine. You lost.\n",
                cell / cols + 1,
                cell % cols + 1
            ));
            "lost"
        } else if self.won() {
            text.push_str("Every safe cell is open. You won.\n");
            "won"
        } else if self.moves_used >= self.budget {
            text.push_str("No moves left.\n");
            "out_of_moves"
        } else {
            "running"
        };
        Observation {
            text,
            structured: json!({
                "rows": rows, "cols": cols, "mines": self.task.mines.len(),
                "start": [self.task.start / cols + 1, self.task.start % cols + 1],
                "board": self.board_rows(),
                "moves_left": self.budget - self.moves_used,
                "outcome": outcome,
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        let answer = final_answer(text).map_err(|e| InvalidAction::new(e.to_string()))?;
        let lower = answer.to_ascii_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| c.is_whitespace() || "(),:;".contains(c))
            .filter(|w| !w.is_empty())
            .collect();
        let usage = || {
            InvalidAction::new(format!(
                "reply with exactly one move, `reveal ROW COL` or `flag ROW COL`, with ROW in 1..={} and COL in 1..={}",
                self.task.rows, self.task.cols
            ))
        };
        let [verb, r, c] = words[..] else {
            return Err(usage());
        };
        let (Ok(r), Ok(c)) = (r.parse::<usize>(), c.parse::<usize>()) else {
            return Err(usage());
        };
        if !(1..=self.task.rows).contains(&r) || !(1..=self.task.cols).contains(&c) {
            return Err(usage());
        }
        let cell = (r - 1) * self.task.cols + (c - 1);
        match verb {
            "reveal" | "open" => Ok(Move::Reveal(cell)),
            "flag" => Ok(Move::Flag(cell)),
            _ => Err(usage()),
        }
    }

    fn apply(&mut self, _player: Player, action: Move) -> Result<Vec<String>, InvalidAction> {
        let note = match action {
            Move::Reveal(cell) => {
                let name = self.cell_name(cell);
                if self.open[cell] {
                    return Err(InvalidAction::new(format!("{name} is already open")));
                }
                if self.flags[cell] {
                    return Err(InvalidAction::new(format!(
                        "{name} is flagged; send `flag {name}` to unflag it first"
                    )));
                }
                if self.truth[cell] < 0 {
                    self.exploded = Some(cell);
                    format!("reveal {name}: a mine")
                } else {
                    let (rows, cols) = (self.task.rows, self.task.cols);
                    let opened = flood(rows, cols, &self.truth, &mut self.open, cell);
                    for i in 0..self.open.len() {
                        self.flags[i] &= !self.open[i];
                    }
                    format!("reveal {name}: opened {opened} cell(s)")
                }
            }
            Move::Flag(cell) => {
                let name = self.cell_name(cell);
                if self.open[cell] {
                    return Err(InvalidAction::new(format!(
                        "{name} is open; only hidden cells can be flagged"
                    )));
                }
                self.flags[cell] = !self.flags[cell];
                if self.flags[cell] {
                    format!("flag {name}: flagged")
                } else {
                    format!("flag {name}: unflagged")
                }
            }
        };
        self.moves_used += 1;
        self.last = Some(note.clone());
        Ok(vec![note])
    }

    fn score(&self, _player: Player) -> Score {
        let cleared = if self.initially_hidden_safe == 0 {
            1.0
        } else {
            (self.initially_hidden_safe - self.hidden_safe()) as f64
                / self.initially_hidden_safe as f64
        };
        Score::binary(self.won())
            .part("cleared", cleared)
            .part("exploded", f64::from(u8::from(self.exploded.is_some())))
            .part("moves_used", self.moves_used as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        first_safe(self.task.rows, self.task.cols, &self.view())
            .map(|cell| format!("reveal {}", self.cell_name(cell)))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let hidden: Vec<usize> = (0..self.open.len())
            .filter(|&i| !self.open[i] && !self.flags[i])
            .collect();
        match rng.choose(&hidden) {
            Some(&cell) => format!("reveal {}", self.cell_name(cell)),
            None => "reveal 1 1".into(),
        }
    }

    fn render(&self) -> String {
        let cols = self.task.cols;
        let rows: Vec<String> = (0..self.task.rows)
            .map(|r| {
                (0..cols)
                    .map(|c| {
                        let i = r * cols + c;
                        match (self.truth[i] < 0, self.open[i] || self.exploded == Some(i)) {
                            (true, true) => '*',
                            (true, false) => 'm',
                            _ => self.symbol(i),
                        }
                    })
                    .collect()
            })
            .collect();
        format!(
            "{} moves={}/{}",
            rows.join("/"),
            self.moves_used,
            self.budget
        )
    }
}

#[cfg(test)]
mod tests;
