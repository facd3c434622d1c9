//! `logic/game-of-life-v1`: compute the next generation of Conway's Life.
//!
//! # Task
//! A `rows × cols` grid of live (`1`) and dead (`0`) cells, each alive with
//! probability `density`; the border is dead (no wrap-around). Grids whose
//! next generation equals the current one (still lifes) or is empty are
//! redrawn, so echoing the input or answering all-dead never scores.
//!
//! # Action
//! The next generation as a grid of `1`/`0` (or `#`/`.`), one row per line
//! (spaces between cells are allowed), in `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid and the rules (B3/S23). Structured: rows of the grid.
//!
//! # Reward
//! 1 and `passed` when every cell is right; else 0. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `rows`, `cols` (3..=40), `density` (0.05..=0.9), `steps` (1..=5:
//! generations to advance).
//!
//! # Seeding
//! Cells come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GameOfLifeConfig {
    pub rows: usize,
    pub cols: usize,
    pub density: f64,
    pub steps: usize,
}

impl Default for GameOfLifeConfig {
    fn default() -> Self {
        GameOfLifeConfig {
            rows: 8,
            cols: 8,
            density: 0.35,
            steps: 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameOfLifeTask {
    pub steps: usize,
    /// Rows of `1` (live) and `0` (dead).
    pub grid: Vec<String>,
    pub next: Vec<String>,
}

fn advance(grid: &[Vec<bool>]) -> Vec<Vec<bool>> {
    let (rows, cols) = (grid.len(), grid[0].len());
    (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let mut alive = 0;
                    for dr in [-1i64, 0, 1] {
                        for dc in [-1i64, 0, 1] {
                            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                            if (dr, dc) != (0, 0)
                                && (0..rows as i64).contains(&nr)
                                && (0..cols as i64).contains(&nc)
                            {
                                alive += usize::from(grid[nr as usize][nc as usize]);
                            }
                        }
                    }
                    alive == 3 || (alive == 2 && grid[r][c])
                })
                .collect()
        })
        .collect()
}

fn to_text(grid: &[Vec<bool>]) -> Vec<String> {
    grid.iter()
        .map(|row| row.iter().map(|&a| if a { '1' } else { '0' }).collect())
        .collect()
}

/// Reads a grid of `1`/`0` or `#`/`.` cells; spaces and `|` are ignored.
fn parse_cells(answer: &str, rows: usize, cols: usize) -> Result<Vec<Vec<bool>>, InvalidAction> {
    let mut cells = Vec::with_capacity(rows * cols);
    for ch in answer.chars() {
        match ch {
            '#' | '1' | 'X' | 'x' | 'O' => cells.push(true),
            '.' | '0' | '_' => cells.push(false),
            c if c.is_whitespace() || c == '|' || c == ',' => {}
            c => {
                return Err(
                    format!("unexpected `{c}`: use 1 for live and 0 for dead cells").into(),
                );
            }
        }
        if cells.len() > rows * cols {
            return Err("too many cells".into());
        }
    }
    if cells.len() != rows * cols {
        return Err(format!("expected {} cells, found {}", rows * cols, cells.len()).into());
    }
    Ok(cells.chunks(cols).map(<[bool]>::to_vec).collect())
}

pub struct GameOfLife;

pub type GameOfLifeEnv = SingleTurn<GameOfLife>;

impl Question for GameOfLife {
    type Config = GameOfLifeConfig;
    type Task = GameOfLifeTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/game-of-life-v1",
        kind: EnvKind::SingleTurn,
        description: "Advance a Conway's Life grid by one or more generations; answer the grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"rows":5,"cols":5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"rows":12,"cols":12,"steps":2}"#,
            },
        ],
    };

    fn validate(config: &GameOfLifeConfig) -> Result<(), ConfigError> {
        if !(3..=40).contains(&config.rows) || !(3..=40).contains(&config.cols) {
            return Err("rows and cols must be 3..=40".into());
        }
        if !(0.05..=0.9).contains(&config.density) || !(1..=5).contains(&config.steps) {
            return Err("density must be 0.05..=0.9 and steps 1..=5".into());
        }
        Ok(())
    }

    fn generate(config: &GameOfLifeConfig, rng: &mut Rng) -> GameOfLifeTask {
        loop {
            let grid: Vec<Vec<bool>> = (0..config.rows)
                .map(|_| {
                    (0..config.cols)
                        .map(|_| rng.chance(config.density))
                        .collect()
                })
                .collect();
            let mut next = grid.clone();
            for _ in 0..config.steps {
                next = advance(&next);
            }
            let empty = next.iter().flatten().all(|&a| !a);
            if !empty && next != grid {
                return GameOfLifeTask {
                    steps: config.steps,
                    grid: to_text(&grid),
                    next: to_text(&next),
                };
            }
        }
    }

    fn prompt(task: &GameOfLifeTask) -> String {
        let generations = if task.steps == 1 {
            "the next generation".to_string()
        } else {
            format!("the generation {} steps later", task.steps)
        };
        format!(
            "Conway's Game of Life on this grid (1 = live, 0 = dead; cells outside the grid are always dead). A \
             live cell with 2 or 3 live neighbours (of its 8) stays alive, a dead cell with exactly 3 live \
             neighbours becomes alive, every other cell is dead in the next generation.\n\n{}\n\nGive {generations} \
             as a grid of the same size, one row per line, inside \\boxed{{}}.",
            task.grid.join("\n")
        )
    }

    fn structured(task: &GameOfLifeTask) -> Value {
        json!({ "grid": task.grid, "steps": task.steps })
    }

    fn reference(task: &GameOfLifeTask) -> String {
        task.next.join("\n")
    }

    fn check(task: &GameOfLifeTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_cells(answer, task.grid.len(), task.grid[0].len())?;
        Ok(to_text(&grid) == task.next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<GameOfLife>(&GameOfLifeConfig::default(), 30);
        standard_answers::<GameOfLife>(
            &GameOfLifeConfig {
                rows: 5,
                cols: 5,
                ..Default::default()
            },
            30,
        );
    }

    #[test]
    fn a_blinker_turns_and_echoes_fail() {
        let task = GameOfLifeTask {
            steps: 1,
            grid: ["00000", "00100", "00100", "00100", "00000"]
                .map(String::from)
                .to_vec(),
            next: ["00000", "00000", "01110", "00000", "00000"]
                .map(String::from)
                .to_vec(),
        };
        let from_rules = to_text(&advance(&parse_cells(&task.grid.join("\n"), 5, 5).unwrap()));
        assert_eq!(from_rules, task.next);
        assert!(passes::<GameOfLife>(
            &task,
            "0 0 0 0 0\n0 0 0 0 0\n0 1 1 1 0\n0 0 0 0 0\n0 0 0 0 0"
        ));
        assert!(passes::<GameOfLife>(
            &task,
            "\\boxed{.....\n.....\n.###.\n.....\n.....}"
        ));
        assert!(!passes::<GameOfLife>(&task, &task.grid.join("\n")));
        assert!(!passes::<GameOfLife>(&task, &"00000\n".repeat(5)));
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert!(
            cross_reference_rate::<GameOfLife>(
                &GameOfLifeConfig {
                    rows: 5,
                    cols: 5,
                    ..Default::default()
                },
                1000
            ) < 0.01
        );
        assert_eq!(
            cross_reference_rate::<GameOfLife>(&GameOfLifeConfig::default(), 1000),
            0.0
        );
    }
}
