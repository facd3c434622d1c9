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

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
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
    /// One string per row: `#`, `.`, `S`, `E`.
    pub grid: Vec<String>,
    pub shortest: usize,
    /// One shortest path as `UDLR` letters.
    pub path: String,
}

const MOVES: [(char, i64, i64); 4] = [('U', -1, 0), ('D', 1, 0), ('L', 0, -1), ('R', 0, 1)];

fn find(grid: &[Vec<u8>], what: u8) -> (usize, usize) {
    grid.iter()
        .enumerate()
        .find_map(|(r, row)| row.iter().position(|&c| c == what).map(|c| (r, c)))
        .expect("grid has S and E")
}

fn step(grid: &[Vec<u8>], (r, c): (usize, usize), (dr, dc): (i64, i64)) -> Option<(usize, usize)> {
    let (nr, nc) = (r as i64 + dr, c as i64 + dc);
    let cell = grid
        .get(usize::try_from(nr).ok()?)?
        .get(usize::try_from(nc).ok()?)?;
    (*cell != b'#').then_some((nr as usize, nc as usize))
}

/// A shortest path from S to E as letters, by breadth-first search.
fn shortest_path(grid: &[Vec<u8>]) -> Option<String> {
    let (rows, cols) = (grid.len(), grid[0].len());
    let start = find(grid, b'S');
    let goal = find(grid, b'E');
    let mut came: Vec<Option<(usize, char)>> = vec![None; rows * cols];
    let mut seen = vec![false; rows * cols];
    seen[start.0 * cols + start.1] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(here) = queue.pop_front() {
        if here == goal {
            let mut path = Vec::new();
            let mut at = goal.0 * cols + goal.1;
            while let Some((from, letter)) = came[at] {
                path.push(letter);
                at = from;
            }
            return Some(path.iter().rev().collect());
        }
        for (letter, dr, dc) in MOVES {
            if let Some(next) = step(grid, here, (dr, dc)) {
                let index = next.0 * cols + next.1;
                if !seen[index] {
                    seen[index] = true;
                    came[index] = Some((here.0 * cols + here.1, letter));
                    queue.push_back(next);
                }
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
        if !(4..=40).contains(&config.rows) || !(4..=40).contains(&config.cols) {
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
        format!(
            "Find a shortest path from S to E in this maze. # is a wall, . is open; you move one cell at a time \
             up (U), down (D), left (L) or right (R), never into a wall or off the grid.\n\n{}\n\nAnswer with the \
             moves as letters, e.g. RRDL, inside \\boxed{{}}. Only a path of the shortest possible length counts.",
            task.grid.join("\n")
        )
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
        let grid: Vec<Vec<u8>> = task.grid.iter().map(|r| r.as_bytes().to_vec()).collect();
        let mut at = find(&grid, b'S');
        for m in moves {
            let (_, dr, dc) = MOVES
                .iter()
                .copied()
                .find(|&(l, _, _)| l == m)
                .expect("parsed letters");
            match step(&grid, at, (dr, dc)) {
                Some(next) => at = next,
                None => return Ok(false),
            }
        }
        Ok(grid[at.0][at.1] == b'E')
    }
}

/// [`Maze::try_generate`] with a budget of `max_cells` drawn cells.
fn generate_within(config: &MazeConfig, rng: &mut Rng, max_cells: u64) -> Result<MazeTask, NoTask> {
    let (rows, cols) = (config.rows, config.cols);
    let draw = || {
        let mut grid: Vec<Vec<u8>> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| {
                        if rng.chance(config.wall_density) {
                            b'#'
                        } else {
                            b'.'
                        }
                    })
                    .collect()
            })
            .collect();
        let s = (
            rng.below(rows as u64) as usize,
            rng.below(cols as u64) as usize,
        );
        let e = (
            rng.below(rows as u64) as usize,
            rng.below(cols as u64) as usize,
        );
        if s == e {
            return None;
        }
        grid[s.0][s.1] = b'S';
        grid[e.0][e.1] = b'E';
        let path = shortest_path(&grid)?;
        if path.len() >= config.min_distance {
            let grid = grid
                .into_iter()
                .map(|row| String::from_utf8(row).expect("ascii"))
                .collect();
            return Some(MazeTask {
                grid,
                shortest: path.len(),
                path,
            });
        }
        None
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

    fn task() -> MazeTask {
        // Two shortest paths of length 4: RRDD-like variants around the wall.
        let grid: Vec<String> = ["S..#", ".#..", "...E", "####"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let bytes: Vec<Vec<u8>> = grid.iter().map(|r| r.as_bytes().to_vec()).collect();
        let path = shortest_path(&bytes).unwrap();
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
