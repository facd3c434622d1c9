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
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
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

use crate::error::ConfigError;
use crate::single_turn::CheckError;

mod generate;
mod render;
mod rules;
mod solver;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::rng::Rng;
use crate::single_turn::{Question, SingleTurn};
use rules::{meets_clues, parse_digits};

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
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
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

    fn validate(config: &KakuroConfig) -> Result<(), ConfigError> {
        if !(3..=7).contains(&config.rows) || !(3..=7).contains(&config.cols) {
            return Err("need 3 <= rows <= 7 and 3 <= cols <= 7".into());
        }
        if !(0.1..=0.4).contains(&config.black_density) {
            return Err("need 0.1 <= black_density <= 0.4".into());
        }
        Ok(())
    }

    fn generate(config: &KakuroConfig, rng: &mut Rng) -> KakuroTask {
        generate::generate(config, rng)
    }

    fn prompt(task: &KakuroTask) -> String {
        render::prompt(task)
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

    fn check(task: &KakuroTask, answer: &str) -> Result<bool, CheckError> {
        let whites = task.whites();
        let digits = parse_digits(answer, whites.len())?;
        let mut grid = vec![0u8; task.solution.len()];
        for (&cell, &d) in whites.iter().zip(&digits) {
            grid[cell] = d;
        }
        Ok(meets_clues(task, &grid))
    }
}
