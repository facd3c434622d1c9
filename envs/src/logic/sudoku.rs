//! `logic/sudoku-v1`: complete a 9×9 sudoku that has exactly one solution.
//!
//! # Task
//! A grid of `box_rows·box_cols` (9 by default) with some cells given. The
//! generator fills a random solution, then removes givens in random order
//! while a limit-2 solution count stays 1, down to `target_givens` (0 =
//! until no more can go: a minimal puzzle).
//!
//! # Action
//! One answer: the full grid, one row per line, cells separated by spaces
//! (commas, `|` and box-drawing lines are ignored; rows of digits may be run
//! together). In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with `.` for empty cells. Structured: box shape and givens.
//!
//! # Reward
//! 1 and `passed` when the grid keeps every given and every row, column and
//! box holds each value once; else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `box_rows`, `box_cols` (boxes tile the grid; side ≤ 9), `target_givens`.
//!
//! # Seeding
//! The solution and the removal order come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::{is_sudoku_solution, parse_grid, respects_givens};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::logic::solvers::latin::{LatinSolver, dig_unique};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SudokuConfig {
    pub box_rows: usize,
    pub box_cols: usize,
    /// Stop removing givens at this many (0: remove while unique).
    pub target_givens: usize,
}

impl Default for SudokuConfig {
    fn default() -> Self {
        SudokuConfig {
            box_rows: 3,
            box_cols: 3,
            target_givens: 30,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SudokuTask {
    pub box_rows: usize,
    pub box_cols: usize,
    /// Row-major, 0 = empty.
    pub givens: Vec<u8>,
    pub solution: Vec<u8>,
}

impl SudokuTask {
    pub fn side(&self) -> usize {
        self.box_rows * self.box_cols
    }
}

/// Validation shared with mini sudoku.
pub fn validate_shape(config: &SudokuConfig) -> Result<(), ConfigError> {
    let n = config.box_rows * config.box_cols;
    if !(1..=9).contains(&n) || config.box_rows == 0 || config.box_cols == 0 {
        return Err("box_rows * box_cols must be 1..=9".into());
    }
    if config.target_givens > n * n {
        return Err(format!("target_givens must be at most {}", n * n).into());
    }
    Ok(())
}

/// Generation shared with mini sudoku.
pub fn generate_sudoku(config: &SudokuConfig, rng: &mut Rng) -> SudokuTask {
    let n = config.box_rows * config.box_cols;
    let mut solver = LatinSolver::new(n, Some((config.box_rows, config.box_cols)));
    solver.load(&vec![0; n * n]);
    let solution = solver
        .random_solution(rng)
        .expect("an empty sudoku has solutions");
    let givens = dig_unique(&mut solver, &solution, config.target_givens, rng);
    SudokuTask {
        box_rows: config.box_rows,
        box_cols: config.box_cols,
        givens,
        solution,
    }
}

/// The grid as text, `.` for empty cells, `|` between boxes.
pub fn render_grid(task: &SudokuTask, cells: &[u8]) -> String {
    let n = task.side();
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % task.box_rows == 0 {
            let segment = "-".repeat(task.box_cols * 2 - 1);
            out.push_str(&vec![segment; n / task.box_cols].join("-+-"));
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push_str(if c % task.box_cols == 0 { " | " } else { " " });
            }
            match cells[r * n + c] {
                0 => out.push('.'),
                v => out.push_str(&v.to_string()),
            }
        }
        out.push('\n');
    }
    out
}

pub fn sudoku_prompt(task: &SudokuTask) -> String {
    let n = task.side();
    format!(
        "Solve this {n}x{n} sudoku. Fill every empty cell (.) with a digit 1-{n} so that each row, each column \
         and each {}x{} box contains every digit 1-{n} exactly once. The puzzle has exactly one solution.\n\n{}\n\
         Answer with the completed grid: {n} lines of {n} digits separated by spaces, inside \\boxed{{}}.",
        task.box_rows,
        task.box_cols,
        render_grid(task, &task.givens)
    )
}

pub fn sudoku_reference(task: &SudokuTask) -> String {
    let n = task.side();
    task.solution
        .chunks(n)
        .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Cells the solver must fill: the difficulty measure of sudoku-like envs.
pub fn blanks(task: &SudokuTask) -> f64 {
    task.givens.iter().filter(|&&g| g == 0).count() as f64
}

pub fn sudoku_check(task: &SudokuTask, answer: &str) -> Result<bool, CheckError> {
    let n = task.side();
    let grid = parse_grid(answer, n, n, n as u8).map_err(|e| e.to_string())?;
    Ok(respects_givens(&grid, &task.givens)
        && is_sudoku_solution(&grid, task.box_rows, task.box_cols))
}

/// The 9×9 sudoku puzzle.
pub struct Sudoku;

pub type SudokuEnv = SingleTurn<Sudoku>;

impl Question for Sudoku {
    type Config = SudokuConfig;
    type Task = SudokuTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/sudoku-v1",
        kind: EnvKind::SingleTurn,
        description: "Complete a unique-solution 9x9 sudoku; answer the full grid",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"target_givens":46}"#,
        r#"{"target_givens":40}"#,
        r#"{"target_givens":35}"#,
        "{}",
        r#"{"target_givens":26}"#,
        r#"{"target_givens":0}"#,
    ];

    fn effort(task: &SudokuTask) -> Option<f64> {
        Some(blanks(task))
    }

    fn validate(config: &SudokuConfig) -> Result<(), ConfigError> {
        validate_shape(config)
    }

    fn generate(config: &SudokuConfig, rng: &mut Rng) -> SudokuTask {
        generate_sudoku(config, rng)
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

/// An independent solution counter for tests: plain recursion in cell
/// order, checking rows, columns and boxes by scanning (no bitmasks, no
/// MRV), so a bug in the generator's solver does not hide here.
#[cfg(test)]
pub(crate) fn count_by_scanning(
    grid: &mut [u8],
    box_rows: usize,
    box_cols: usize,
    limit: usize,
) -> usize {
    let n = box_rows * box_cols;
    let Some(cell) = grid.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (cell / n, cell % n);
    let mut total = 0;
    for v in 1..=n as u8 {
        let clash = (0..n).any(|i| grid[r * n + i] == v || grid[i * n + c] == v)
            || (0..n).any(|i| {
                let (br, bc) = (
                    (r / box_rows) * box_rows + i / box_cols,
                    (c / box_cols) * box_cols + i % box_cols,
                );
                grid[br * n + bc] == v
            });
        if !clash {
            grid[cell] = v;
            total += count_by_scanning(grid, box_rows, box_cols, limit - total);
            grid[cell] = 0;
            if total >= limit {
                break;
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert, prop_assert_eq, proptest};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        standard_answers::<Sudoku>(&SudokuConfig::default(), 5);
    }

    #[test]
    fn wrong_grids_fail() {
        let task = generate_sudoku(&SudokuConfig::default(), &mut Rng::from_seed(3));
        let blank = task.givens.iter().position(|&g| g == 0).unwrap();
        let mut wrong = task.solution.clone();
        wrong[blank] = wrong[blank] % 9 + 1;
        let text = |cells: &[u8]| {
            cells
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert!(!passes::<Sudoku>(&task, &text(&wrong)));
        // A valid sudoku that ignores the givens: relabel digits 1 <-> 2.
        let relabelled: Vec<u8> = task
            .solution
            .iter()
            .map(|&v| match v {
                1 => 2,
                2 => 1,
                v => v,
            })
            .collect();
        assert!(is_sudoku_solution(&relabelled, 3, 3));
        assert!(!passes::<Sudoku>(&task, &text(&relabelled)));
        assert!(!passes::<Sudoku>(&task, &render_grid(&task, &task.givens)));
        assert!(passes::<Sudoku>(&task, &render_grid(&task, &task.solution)));
    }

    #[test]
    fn prompt_shows_the_grid_exactly() {
        let task = SudokuTask {
            box_rows: 2,
            box_cols: 2,
            givens: vec![1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 2],
            solution: vec![],
        };
        assert_eq!(
            render_grid(&task, &task.givens),
            "1 . | . .\n. . | 1 .\n----+----\n. 1 | . .\n. . | . 2\n"
        );
    }

    #[test]
    fn presets_give_the_requested_number_of_givens() {
        let mut rng = Rng::from_seed(5);
        let easy = generate_sudoku(
            &SudokuConfig {
                target_givens: 40,
                ..Default::default()
            },
            &mut rng,
        );
        assert_eq!(easy.givens.iter().filter(|&&g| g != 0).count(), 40);
        let hard = generate_sudoku(
            &SudokuConfig {
                target_givens: 0,
                ..Default::default()
            },
            &mut rng,
        );
        assert!(hard.givens.iter().filter(|&&g| g != 0).count() < 30);
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        assert_eq!(
            cross_reference_rate::<Sudoku>(&SudokuConfig::default(), 200),
            0.0
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn generated_puzzles_have_exactly_one_solution(seed in any::<u64>(), hard in any::<bool>()) {
            let config = SudokuConfig { target_givens: if hard { 0 } else { 30 }, ..Default::default() };
            let task = generate_sudoku(&config, &mut Rng::from_seed(seed));
            let mut grid = task.givens.clone();
            prop_assert_eq!(count_by_scanning(&mut grid, 3, 3, 2), 1);
            prop_assert!(is_sudoku_solution(&task.solution, 3, 3));
            prop_assert!(respects_givens(&task.solution, &task.givens));
        }
    }
}
