//! `logic/rush-hour-v1`: slide cars out of the way so the red car can leave,
//! in the fewest moves.
//!
//! # Task
//! A `size`×`size` parking lot (6 by default) with the red car `X`
//! (horizontal, length 2) in row 3 and `cars` other vehicles (length 2 or 3,
//! horizontal or vertical) labelled `A`, `B`, …. A move slides one vehicle
//! along its own direction by one or more free cells. The goal: `X` at the
//! right edge of its row (the exit). The generator places vehicles at
//! random, explores every position reachable from there by breadth-first
//! search, measures each one's distance to the nearest goal position (a
//! second breadth-first search from all goal positions; moves are
//! reversible), and starts the puzzle at a position farthest from the goal,
//! keeping it only when that distance is at least `min_moves`.
//!
//! # Action
//! The moves in order, one per part (newline, comma or `;`): a vehicle
//! letter, a direction (`U`, `D`, `L`, `R` or `up`, `down`, `left`, `right`)
//! and a number of cells (default 1): `A D 2`, `B left 1`, `XR3`. In
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The lot as a grid of letters with `.` for free cells. Structured: size,
//! vehicles (letter, row, column, length, horizontal).
//!
//! # Reward
//! 1 and `passed` when every move is legal, the last one leaves `X` at the
//! exit, and the number of moves equals the optimum; else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `size` (5..=7), `cars` (2..=14), `min_moves` (1..=30).
//!
//! # Seeding
//! Vehicles and the chosen start come from the task rng; ties among the
//! farthest positions are broken by the rng.
//!
//! # Version history
//! v1: first version.

use crate::error::{ConfigError, NoTask};
use crate::single_turn::CheckError;

mod generate;
mod rules;
#[cfg(test)]
mod tests;
mod text;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::rng::Rng;
use crate::single_turn::{Question, SingleTurn};
use rules::{is_goal, try_move};
use text::{move_text, parse_moves, render};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RushHourConfig {
    pub size: usize,
    pub cars: usize,
    pub min_moves: usize,
}

impl Default for RushHourConfig {
    fn default() -> Self {
        RushHourConfig {
            size: 6,
            cars: 10,
            min_moves: 8,
        }
    }
}

/// A vehicle: its fixed line and length; its place along the line is part of
/// the position, not of the vehicle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vehicle {
    pub letter: char,
    pub horizontal: bool,
    pub length: u8,
    /// The row of a horizontal vehicle, the column of a vertical one.
    pub line: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RushHourTask {
    pub size: usize,
    /// `vehicles[0]` is `X`.
    pub vehicles: Vec<Vehicle>,
    /// Start of each vehicle along its line (column or row of its first cell).
    pub start: Vec<u8>,
    pub optimal_moves: usize,
    /// One shortest solution.
    pub solution: Vec<Move>,
}

/// Slide `vehicle` by `delta` cells (negative: up or left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    pub vehicle: usize,
    pub delta: i8,
}

pub struct RushHour;

pub type RushHourEnv = SingleTurn<RushHour>;

impl Question for RushHour {
    type Config = RushHourConfig;
    type Task = RushHourTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/rush-hour-v1",
        kind: EnvKind::SingleTurn,
        description: "Rush hour: slide cars so the red car X can exit, in the fewest moves",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"cars":4,"min_moves":2}"#,
        r#"{"cars":6,"min_moves":3}"#,
        r#"{"cars":8,"min_moves":5}"#,
        "{}",
        r#"{"cars":11,"min_moves":11}"#,
        r#"{"cars":12,"min_moves":14}"#,
    ];

    fn effort(task: &RushHourTask) -> Option<f64> {
        Some(task.optimal_moves as f64)
    }

    fn validate(config: &RushHourConfig) -> Result<(), ConfigError> {
        if !(5..=7).contains(&config.size) {
            return Err("size must be 5..=7".into());
        }
        if !(2..=14).contains(&config.cars) || config.cars > config.size * config.size / 3 {
            return Err(format!(
                "cars must be 2..=14 and at most size*size/3 = {}",
                config.size * config.size / 3
            )
            .into());
        }
        if !(1..=30).contains(&config.min_moves) {
            return Err("min_moves must be 1..=30".into());
        }
        Ok(())
    }

    fn generate(config: &RushHourConfig, rng: &mut Rng) -> RushHourTask {
        generate::generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &RushHourConfig, rng: &mut Rng) -> Result<RushHourTask, NoTask> {
        generate::generate(config, rng)
    }

    fn prompt(task: &RushHourTask) -> String {
        format!(
            "Rush hour on a {n}x{n} lot. Each letter is a vehicle; vehicles only slide along their own direction \
             (a horizontal vehicle left/right, a vertical one up/down) and cannot pass through each other or \
             leave the lot. Get the red car X to the exit at the right edge of its row (X's right end in the last \
             column) in as few moves as possible; a move slides one vehicle any number of free cells, and only a \
             shortest solution counts.\n\n{}\n\nAnswer with the moves in order, one per line, each as the vehicle \
             letter, a direction (U, D, L or R) and the number of cells, e.g. A D 2, inside \\boxed{{}}.",
            render(task),
            n = task.size
        )
    }

    fn structured(task: &RushHourTask) -> Value {
        let vehicles: Vec<Value> = task
            .vehicles
            .iter()
            .zip(&task.start)
            .map(|(v, &at)| {
                let (row, col) = if v.horizontal {
                    (v.line, at)
                } else {
                    (at, v.line)
                };
                json!({ "letter": v.letter.to_string(), "row": row, "col": col,
                        "length": v.length, "horizontal": v.horizontal })
            })
            .collect();
        json!({ "size": task.size, "vehicles": vehicles })
    }

    fn reference(task: &RushHourTask) -> String {
        task.solution
            .iter()
            .map(|&m| move_text(task, m))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &RushHourTask, answer: &str) -> Result<bool, CheckError> {
        let moves = parse_moves(task, answer)?;
        if moves.len() != task.optimal_moves {
            return Ok(false);
        }
        let mut position = task.start.clone();
        for &m in &moves {
            if !try_move(task.size, &task.vehicles, &mut position, m) {
                return Ok(false);
            }
        }
        Ok(is_goal(task.size, &position))
    }
}
