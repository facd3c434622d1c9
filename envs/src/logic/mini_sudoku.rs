//! `logic/mini-sudoku-v1`: complete a 4×4 or 6×6 sudoku with one solution.
//!
//! # Task
//! A 4×4 (2×2 boxes) or 6×6 (2×3 boxes) sudoku, generated like
//! `logic/sudoku-v1`: a random solution, then givens removed in random order
//! while a limit-2 solution count stays 1, down to `target_givens`.
//!
//! # Action
//! The full grid, one row per line, cells separated by spaces, in
//! `\boxed{…}` or as the whole reply (same reader as sudoku).
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with `.` for empty cells. Structured: box shape and givens.
//!
//! # Reward
//! 1 and `passed` when the grid keeps every given and is a valid sudoku;
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `size` (4 or 6), `target_givens` (0 = minimal).
//!
//! # Seeding
//! As sudoku.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::logic::sudoku::{
    SudokuConfig, SudokuTask, blanks, generate_sudoku, sudoku_check, sudoku_prompt,
    sudoku_reference, validate_shape,
};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MiniSudokuConfig {
    pub size: usize,
    pub target_givens: usize,
}

impl Default for MiniSudokuConfig {
    fn default() -> Self {
        MiniSudokuConfig {
            size: 6,
            target_givens: 14,
        }
    }
}

impl MiniSudokuConfig {
    fn shape(&self) -> SudokuConfig {
        let (box_rows, box_cols) = if self.size == 4 { (2, 2) } else { (2, 3) };
        SudokuConfig {
            box_rows,
            box_cols,
            target_givens: self.target_givens,
        }
    }
}

pub struct MiniSudoku;

pub type MiniSudokuEnv = SingleTurn<MiniSudoku>;

impl Question for MiniSudoku {
    type Config = MiniSudokuConfig;
    type Task = SudokuTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/mini-sudoku-v1",
        kind: EnvKind::SingleTurn,
        description: "Complete a unique-solution 4x4 or 6x6 sudoku; answer the full grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 4, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"size":4,"target_givens":8}"#,
        r#"{"size":4,"target_givens":6}"#,
        r#"{"size":4,"target_givens":0}"#,
        r#"{"size":6,"target_givens":18}"#,
        "{}",
        r#"{"size":6,"target_givens":0}"#,
    ];

    fn effort(task: &SudokuTask) -> Option<f64> {
        Some(blanks(task))
    }

    fn validate(config: &MiniSudokuConfig) -> Result<(), ConfigError> {
        if config.size != 4 && config.size != 6 {
            return Err("size must be 4 or 6".into());
        }
        validate_shape(&config.shape())
    }

    fn generate(config: &MiniSudokuConfig, rng: &mut Rng) -> SudokuTask {
        generate_sudoku(&config.shape(), rng)
    }

    fn prompt(task: &SudokuTask) -> String {
        sudoku_prompt(task)
    }

    fn structured(task: &SudokuTask) -> Value {
        json!({ "box_rows": task.box_rows, "box_cols": task.box_cols, "givens": task.givens })
    }

    fn reference(task: &SudokuTask) -> String {
        sudoku_reference(task)
    }

    fn check(task: &SudokuTask, answer: &str) -> Result<bool, CheckError> {
        sudoku_check(task, answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::sudoku::count_by_scanning;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for size in [4, 6] {
            standard_answers::<MiniSudoku>(
                &MiniSudokuConfig {
                    size,
                    target_givens: 0,
                },
                20,
            );
        }
    }

    #[test]
    fn run_together_rows_and_box_lines_are_read() {
        let task = generate_sudoku(
            &MiniSudokuConfig {
                size: 4,
                target_givens: 0,
            }
            .shape(),
            &mut Rng::from_seed(2),
        );
        let compact: String = task
            .solution
            .chunks(4)
            .map(|r| r.iter().map(u8::to_string).collect::<String>() + "\n")
            .collect();
        assert!(passes::<MiniSudoku>(&task, &compact));
        let mut wrong = task.solution.clone();
        wrong.swap(0, 1);
        let text: String = wrong.iter().map(u8::to_string).collect();
        assert!(!passes::<MiniSudoku>(&task, &text));
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        let small = cross_reference_rate::<MiniSudoku>(
            &MiniSudokuConfig {
                size: 4,
                target_givens: 6,
            },
            1000,
        );
        assert!(small < 0.01, "4x4: {small}");
        assert_eq!(
            cross_reference_rate::<MiniSudoku>(&MiniSudokuConfig::default(), 300),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn generated_puzzles_have_exactly_one_solution(seed in any::<u64>(), four in any::<bool>()) {
            let config = MiniSudokuConfig { size: if four { 4 } else { 6 }, target_givens: 0 };
            let task = MiniSudoku::generate(&config, &mut Rng::from_seed(seed));
            let mut grid = task.givens.clone();
            prop_assert_eq!(count_by_scanning(&mut grid, task.box_rows, task.box_cols, 2), 1);
        }
    }
}
