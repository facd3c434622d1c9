//! `logic/maze-v1`: find a shortest path through a grid maze.
//!
//! # Task
//! A `rows × cols` grid of open cells and walls (each cell a wall with
//! probability `wall_density`), a start `S` and an exit `E` at least
//! `min_distance` steps apart along the shortest path (breadth-first search).
//!
//! # Action
//! The moves from S to E as letters `U D L R` (run together or separated:
//! `RRDL`, `R, R, D, L`) or words `up down left right`. In `\boxed{…}` or as
//! the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid: `#` wall, `.` open, `S`, `E`. Structured: rows of the grid.
//!
//! # Reward
//! 1 and `passed` when the path stays on open cells inside the grid, ends
//! on E, and has exactly the shortest length; else 0. Any shortest path
//! passes. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `rows`, `cols` (4..=40), `wall_density` (0..=0.45), `min_distance`.
//!
//! # Seeding
//! Walls, S and E come from the task rng; mazes without a long enough
//! shortest path are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::{Chance, Rng};
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MazeConfig {
    pub rows: usize,
    pub cols: usize,
    pub wall_density: f64,
    pub min_distance: usize,
}

impl Default for MazeConfig {
    fn default() -> Self {
        MazeConfig {
            rows: 10,
            cols: 10,
            wall_density: 0.3,
            min_distance: 10,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MazeTask {
    // Fields in key order, as the card writes them (no reordering there).
    /// One string per row: `#`, `.`, `S`, `E`.
    pub grid: Vec<String>,
    /// One shortest path as `UDLR` letters.
    pub path: String,
    pub shortest: usize,
}

const MOVES: [(char, i64, i64); 4] = [('U', -1, 0), ('D', 1, 0), ('L', 0, -1), ('R', 0, 1)];

/// A grid inside a border of walls, row-major, `width = cols + 2` cells a
/// row: a step from any inner cell stays in the array, so neither the search
/// nor the check tests bounds.
struct Walled {
    cells: Vec<u8>,
    width: usize,
}

impl Walled {
    fn new(rows: usize, cols: usize) -> Walled {
        Walled {
            cells: vec![b'#'; (rows + 2) * (cols + 2)],
            width: cols + 2,
        }
    }

    /// The board of a task's rows (`#`, `.`, `S`, `E`); rows of unequal
    /// length leave the missing cells walls.
    fn from_rows(grid: &[String]) -> Walled {
        let cols = grid.iter().map(String::len).max().unwrap_or(0);
        let mut board = Walled::new(grid.len(), cols);
        for (r, row) in grid.iter().enumerate() {
            let at = board.inner(r, 0);
            board.cells[at..at + row.len()].copy_from_slice(row.as_bytes());
        }
        board
    }

    /// Writes the inner cells: `open` as in [`distance`], S at `s`, E at
    /// `e`; returns S's and E's cell indices.
    fn fill(
        &mut self,
        open: &[u64],
        cols: usize,
        s: (usize, usize),
        e: (usize, usize),
    ) -> (usize, usize) {
        for (r, row) in open.iter().enumerate() {
            let at = self.inner(r, 0);
            for (c, cell) in self.cells[at..at + cols].iter_mut().enumerate() {
                *cell = if (row >> c) & 1 == 1 { b'.' } else { b'#' };
            }
        }
        let (s, e) = (self.inner(s.0, s.1), self.inner(e.0, e.1));
        self.cells[s] = b'S';
        self.cells[e] = b'E';
        (s, e)
    }

    fn inner(&self, r: usize, c: usize) -> usize {
        (r + 1) * self.width + c + 1
    }

    /// Cell-index steps of the moves, in [`MOVES`] order.
    fn steps(&self) -> [isize; 4] {
        let w = self.width as isize;
        [-w, w, -1, 1]
    }

    fn find(&self, what: u8) -> Option<usize> {
        self.cells.iter().position(|&c| c == what)
    }
}

/// `came` marks for the search: not reached yet, and the start.
const UNSEEN: u8 = 0;
const START: u8 = 5;

/// The length of a shortest path from `s` to `e` (row, column) over the
/// `open` cells (bit `c` of `open[r]`, both ends open), or `None` when there
/// is none: breadth-first search a whole row at a time. Most draws are
/// refused for a short or missing path, and this test costs a few dozen
/// word operations; only a draw that passes is searched cell by cell for
/// its path.
fn distance(open: &[u64], s: (usize, usize), e: (usize, usize)) -> Option<usize> {
    let rows = open.len();
    let (mut one, mut two, mut seen) = ([0u64; MAX_SIDE], [0u64; MAX_SIDE], [0u64; MAX_SIDE]);
    // Swapped as references each layer, not copied.
    let (mut frontier, mut next) = (&mut one, &mut two);
    frontier[s.0] = 1 << s.1;
    seen[s.0] = 1 << s.1;
    let mut d = 0;
    while (frontier[e.0] >> e.1) & 1 == 0 {
        let mut reached = 0;
        for r in 0..rows {
            let mut cells = frontier[r] << 1 | frontier[r] >> 1;
            if r > 0 {
                cells |= frontier[r - 1];
            }
            if r + 1 < rows {
                cells |= frontier[r + 1];
            }
            cells &= open[r] & !seen[r];
            next[r] = cells;
            seen[r] |= cells;
            reached |= cells;
        }
        if reached == 0 {
            return None;
        }
        std::mem::swap(&mut frontier, &mut next);
        d += 1;
    }
    Some(d)
}

/// A cell drawn uniformly: its row, then its column.
fn random_cell(rng: &mut Rng, rows: usize, cols: usize) -> (usize, usize) {
    (
        rng.below(rows as u64) as usize,
        rng.below(cols as u64) as usize,
    )
}

/// A shortest path from cell `start` to cell `goal` as letters, by
/// breadth-first search; `came` and `queue` are scratch space kept between
/// draws. Neighbours are taken
/// in [`MOVES`] order (U, D, L, R), which fixes which shortest path is found.
fn shortest_path(
    board: &Walled,
    (start, goal): (usize, usize),
    came: &mut Vec<u8>,
    queue: &mut Vec<u32>,
) -> Option<String> {
    let steps = board.steps();
    came.clear();
    came.resize(board.cells.len(), UNSEEN);
    came[start] = START;
    queue.clear();
    queue.push(start as u32);
    let mut head = 0;
    while let Some(&here) = queue.get(head) {
        head += 1;
        let here = here as usize;
        if here == goal {
            let mut path = Vec::new();
            let mut at = goal;
            while came[at] != START {
                let m = usize::from(came[at] - 1);
                path.push(MOVES[m].0 as u8);
                at = at.wrapping_add_signed(-steps[m]);
            }
            path.reverse();
            return Some(String::from_utf8(path).expect("move letters are ASCII"));
        }
        for (m, step) in steps.iter().enumerate() {
            let next = here.wrapping_add_signed(*step);
            if board.cells[next] != b'#' && came[next] == UNSEEN {
                came[next] = m as u8 + 1;
                queue.push(next as u32);
            }
        }
    }
    None
}

fn parse_moves(answer: &str) -> Result<Vec<char>, InvalidAction> {
    let mut moves = Vec::new();
    for word in answer
        .split(|c: char| c.is_whitespace() || ",;->→|".contains(c))
        .filter(|w| !w.is_empty())
    {
        let lower = word.to_ascii_lowercase();
        match lower.as_str() {
            "up" => moves.push('U'),
            "down" => moves.push('D'),
            "left" => moves.push('L'),
            "right" => moves.push('R'),
            _ if lower.chars().all(|c| "udlr".contains(c)) => {
                moves.extend(lower.to_ascii_uppercase().chars())
            }
            _ => return Err(format!("unexpected `{word}`: use U, D, L, R").into()),
        }
        if moves.len() > 10_000 {
            return Err("path too long".into());
        }
    }
    Ok(moves)
}

pub struct Maze;

pub type MazeEnv = SingleTurn<Maze>;

/// Grid cells drawn at most for one task (a count, not time, so the outcome
/// is a pure function of config and seed); every preset needs a few hundred
/// mazes at most.
const MAX_CELLS: u64 = 20_000_000;

/// The most rows or columns a maze has (`validate`): a row's cells fit in
/// one `u64` for [`distance`].
const MAX_SIDE: usize = 40;

impl Question for Maze {
    type Config = MazeConfig;
    type Task = MazeTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/maze-v1",
        kind: EnvKind::SingleTurn,
        description: "Give a shortest path through a grid maze as U/D/L/R moves; any shortest path passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"rows":6,"cols":6,"min_distance":5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"rows":20,"cols":20,"wall_density":0.35,"min_distance":25}"#,
            },
        ],
    };

    fn validate(config: &MazeConfig) -> Result<(), ConfigError> {
        if !(4..=MAX_SIDE).contains(&config.rows) || !(4..=MAX_SIDE).contains(&config.cols) {
            return Err("rows and cols must be 4..=40".into());
        }
        if !(0.0..=0.45).contains(&config.wall_density) {
            return Err("wall_density must be 0..=0.45".into());
        }
        if config.min_distance < 2 || config.min_distance > (config.rows + config.cols) * 3 / 2 {
            return Err("min_distance must be 2..=1.5*(rows+cols)".into());
        }
        Ok(())
    }

    fn generate(config: &MazeConfig, rng: &mut Rng) -> MazeTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws mazes until one's shortest path is at least `min_distance`
    /// long; a distance open grids never reach (30 on an empty 10x10) or
    /// rarely reach gives up after [`MAX_CELLS`] drawn cells.
    fn try_generate(config: &MazeConfig, rng: &mut Rng) -> Result<MazeTask, NoTask> {
        generate_within(config, rng, MAX_CELLS)
    }

    fn prompt(task: &MazeTask) -> String {
        const HEAD: &str = "Find a shortest path from S to E in this maze. # is a wall, . is open; you move one \
             cell at a time up (U), down (D), left (L) or right (R), never into a wall or off the grid.\n\n";
        const TAIL: &str = "\n\nAnswer with the moves as letters, e.g. RRDL, inside \\boxed{}. Only a path \
             of the shortest possible length counts.";
        let cells: usize = task.grid.iter().map(|row| row.len() + 1).sum();
        let mut text = String::with_capacity(HEAD.len() + cells + TAIL.len());
        text.push_str(HEAD);
        for (i, row) in task.grid.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            text.push_str(row);
        }
        text.push_str(TAIL);
        text
    }

    fn structured(task: &MazeTask) -> Value {
        json!({ "grid": task.grid })
    }

    fn reference(task: &MazeTask) -> String {
        task.path.clone()
    }

    fn check(task: &MazeTask, answer: &str) -> Result<bool, CheckError> {
        let moves = parse_moves(answer)?;
        if moves.len() != task.shortest {
            return Ok(false);
        }
        // No config makes a side over MAX_SIDE: a card that has one was
        // edited, and is not laid out as a board of its widest row's size.
        if task.grid.len() > MAX_SIDE || task.grid.iter().any(|row| row.len() > MAX_SIDE) {
            return Ok(false);
        }
        let board = Walled::from_rows(&task.grid);
        let steps = board.steps();
        let Some(mut at) = board.find(b'S') else {
            return Ok(false);
        };
        for m in moves {
            let index = MOVES
                .iter()
                .position(|&(l, _, _)| l == m)
                .expect("parsed letters");
            at = at.wrapping_add_signed(steps[index]);
            if board.cells[at] == b'#' {
                return Ok(false);
            }
        }
        Ok(board.cells[at] == b'E')
    }
}

/// [`Maze::try_generate`] with a budget of `max_cells` drawn cells.
fn generate_within(config: &MazeConfig, rng: &mut Rng, max_cells: u64) -> Result<MazeTask, NoTask> {
    let (rows, cols) = (config.rows, config.cols);
    let mut board = Walled::new(rows, cols);
    let (mut came, mut queue) = (Vec::new(), Vec::new());
    let mut open = [0u64; MAX_SIDE];
    let open = &mut open[..rows];
    let wall = Chance::new(config.wall_density);
    let draw = || {
        // Cells as bits first (a wall with probability `wall_density`, in
        // row-major order as ever); the grid's bytes only for a draw kept.
        for row in open.iter_mut() {
            *row = 0;
            for c in 0..cols {
                *row |= u64::from(!rng.hit(wall)) << c;
            }
        }
        let (s, e) = (random_cell(rng, rows, cols), random_cell(rng, rows, cols));
        if s == e {
            return None;
        }
        open[s.0] |= 1 << s.1;
        open[e.0] |= 1 << e.1;
        if distance(open, s, e)? < config.min_distance {
            return None;
        }
        let ends = board.fill(open, cols, s, e);
        let path = shortest_path(&board, ends, &mut came, &mut queue)?;
        let grid = (0..rows)
            .map(|r| {
                let at = board.inner(r, 0);
                String::from_utf8(board.cells[at..at + cols].to_vec()).expect("ascii")
            })
            .collect();
        Some(MazeTask {
            grid,
            shortest: path.len(),
            path,
        })
    };
    crate::budget::draw_until(max_cells / (rows * cols) as u64, draw, || {
        format!(
            "no {rows}x{cols} maze with wall_density {} had a shortest path of {} moves within \
             {max_cells} drawn cells; lower min_distance or change wall_density",
            config.wall_density, config.min_distance
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// An open 10x10 grid has no path of 30 moves: the search gives up with
    /// a message naming the field (it used to draw forever); here with a
    /// hundredth of the budget, to keep the test quick.
    #[test]
    fn an_unreachable_distance_says_no_task_instead_of_drawing_forever() {
        let config = MazeConfig {
            rows: 10,
            cols: 10,
            wall_density: 0.0,
            min_distance: 30,
        };
        let error = generate_within(&config, &mut Rng::from_seed(1), MAX_CELLS / 100).unwrap_err();
        assert!(error.to_string().contains("min_distance"), "{error}");
    }

    /// The row-at-a-time distance is the length of the path the cell
    /// search finds, and both say when there is none, on grids of every
    /// shape and density.
    #[test]
    fn the_row_parallel_distance_is_the_searched_paths_length() {
        let mut rng = Rng::from_seed(7);
        let (mut came, mut queue) = (Vec::new(), Vec::new());
        let mut unreachable = 0;
        for _ in 0..3000 {
            let rows = 4 + rng.below(MAX_SIDE as u64 - 3) as usize;
            let cols = 4 + rng.below(MAX_SIDE as u64 - 3) as usize;
            let density = rng.below(60) as f64 / 100.0;
            let mut open: Vec<u64> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .filter(|_| !rng.chance(density))
                        .fold(0, |row, c| row | 1 << c)
                })
                .collect();
            let (s, e) = (
                random_cell(&mut rng, rows, cols),
                random_cell(&mut rng, rows, cols),
            );
            open[s.0] |= 1 << s.1;
            open[e.0] |= 1 << e.1;
            let mut board = Walled::new(rows, cols);
            let ends = board.fill(&open, cols, s, e);
            let expected = shortest_path(&board, ends, &mut came, &mut queue).map(|p| p.len());
            assert_eq!(
                distance(&open, s, e),
                expected,
                "{rows}x{cols} {s:?}->{e:?}"
            );
            unreachable += usize::from(expected.is_none());
        }
        assert!(
            unreachable > 100,
            "the grids should include cut-off exits: {unreachable}"
        );
    }

    fn task() -> MazeTask {
        // Two shortest paths of length 4: RRDD-like variants around the wall.
        let grid: Vec<String> = ["S..#", ".#..", "...E", "####"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let path = {
            let board = Walled::from_rows(&grid);
            let ends = (board.find(b'S').unwrap(), board.find(b'E').unwrap());
            shortest_path(&board, ends, &mut Vec::new(), &mut Vec::new()).unwrap()
        };
        MazeTask {
            grid,
            shortest: path.len(),
            path,
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            MazeConfig::default(),
            MazeConfig {
                rows: 6,
                cols: 6,
                min_distance: 5,
                ..Default::default()
            },
        ] {
            standard_answers::<Maze>(&config, 30);
        }
    }

    #[test]
    fn any_shortest_path_passes_and_nothing_else() {
        let task = task();
        assert_eq!(task.shortest, 5);
        for good in [
            "RRDRD",
            "DDRRR",
            "R R D R D",
            "right, right, down, right, down",
            "\\boxed{ddrrr}",
        ] {
            assert!(passes::<Maze>(&task, good), "{good:?}");
        }
        for bad in [
            "RRRDD",
            "DDRRRL",
            "DDRRRLR",
            "DDRR",
            "DRDRR",
            "UDDRRR",
            "DDRRR or RRDRD",
            "south",
        ] {
            assert!(!passes::<Maze>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(
            cross_reference_rate::<Maze>(
                &MazeConfig {
                    rows: 6,
                    cols: 6,
                    min_distance: 5,
                    ..Default::default()
                },
                1000
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<Maze>(&MazeConfig::default(), 500),
            0.0
        );
    }
}
