//! `logic/magic-square-v1`: complete a 4×4 magic square with one solution.
//!
//! # Task
//! A 4×4 grid to fill with 1..=16, each once, so that every row, every
//! column and both diagonals sum to 34. All 7,040 such squares are
//! enumerated once (a few milliseconds, then cached); a task is one of them
//! at random with cells removed in random order while exactly one square
//! still matches the givens, down to `target_givens` (0 = until no more
//! can go: a minimal puzzle).
//!
//! # Action
//! The full grid, one row per line, numbers separated by spaces or commas,
//! in `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grid with `.` for empty cells. Structured: the givens.
//!
//! # Reward
//! 1 and `passed` when the grid keeps every given, holds 1..=16 once each
//! and every line sums to 34 (checked by constraints, not by comparison with
//! the stored solution); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `target_givens` (0 or 1..=16).
//!
//! # Seeding
//! The square and the removal order come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const N: usize = 4;
const CELLS: usize = N * N;
const MAGIC_SUM: u32 = 34;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MagicSquareConfig {
    pub target_givens: usize,
}

impl Default for MagicSquareConfig {
    fn default() -> Self {
        MagicSquareConfig { target_givens: 7 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MagicSquareTask {
    /// Row-major, 0 = empty.
    pub givens: Vec<u8>,
    pub solution: Vec<u8>,
}

/// Whether `grid` is a 4×4 magic square of 1..=16.
pub fn is_magic(grid: &[u8]) -> bool {
    if grid.len() != CELLS {
        return false;
    }
    let mut seen = 0u32;
    for &v in grid {
        if !(1..=CELLS as u8).contains(&v) || seen >> v & 1 == 1 {
            return false;
        }
        seen |= 1 << v;
    }
    let sum =
        |cells: &mut dyn Iterator<Item = usize>| -> u32 { cells.map(|c| u32::from(grid[c])).sum() };
    (0..N).all(|i| {
        sum(&mut (0..N).map(|j| i * N + j)) == MAGIC_SUM
            && sum(&mut (0..N).map(|j| j * N + i)) == MAGIC_SUM
    }) && sum(&mut (0..N).map(|i| i * N + i)) == MAGIC_SUM
        && sum(&mut (0..N).map(|i| i * N + N - 1 - i)) == MAGIC_SUM
}

/// Every 4×4 magic square, in lexicographic order (7,040 of them).
pub fn all_squares() -> &'static [[u8; CELLS]] {
    static SQUARES: OnceLock<Vec<[u8; CELLS]>> = OnceLock::new();
    SQUARES.get_or_init(|| {
        let mut out = Vec::with_capacity(7040);
        let mut grid = [0u8; CELLS];
        enumerate(&mut grid, 0, 0, &mut out);
        out
    })
}

/// Fills cells from `cell` on in row-major order. The last cell of each row
/// and every cell of the last row are forced by the sums, so the search only
/// branches on nine cells.
fn enumerate(grid: &mut [u8; CELLS], cell: usize, used: u32, out: &mut Vec<[u8; CELLS]>) {
    if cell == CELLS {
        if is_magic(grid) {
            out.push(*grid);
        }
        return;
    }
    let (r, c) = (cell / N, cell % N);
    let forced = if c == N - 1 {
        Some(MAGIC_SUM as i32 - (0..N - 1).map(|j| i32::from(grid[r * N + j])).sum::<i32>())
    } else if r == N - 1 {
        Some(MAGIC_SUM as i32 - (0..N - 1).map(|i| i32::from(grid[i * N + c])).sum::<i32>())
    } else {
        None
    };
    let candidates: Vec<u8> = match forced {
        Some(v) if (1..=CELLS as i32).contains(&v) => vec![v as u8],
        Some(_) => return,
        None => (1..=CELLS as u8).collect(),
    };
    for v in candidates {
        if used >> v & 1 == 1 {
            continue;
        }
        grid[cell] = v;
        let used = used | 1 << v;
        // In the third row, the cell below is already forced by its column:
        // it must be a free number.
        let below_ok = r != N - 2 || {
            let below =
                MAGIC_SUM as i32 - (0..N - 1).map(|i| i32::from(grid[i * N + c])).sum::<i32>();
            (1..=CELLS as i32).contains(&below) && used >> below & 1 == 0
        };
        // The anti-diagonal is complete once (3, 0) is placed: prune there.
        let anti_ok = cell != (N - 1) * N
            || (0..N)
                .map(|i| u32::from(grid[i * N + N - 1 - i]))
                .sum::<u32>()
                == MAGIC_SUM;
        if below_ok && anti_ok {
            enumerate(grid, cell + 1, used, out);
        }
        grid[cell] = 0;
    }
}

/// Squares that agree with the givens, up to `limit`.
fn count_matching(givens: &[u8], limit: usize) -> usize {
    all_squares()
        .iter()
        .filter(|sq| {
            givens
                .iter()
                .zip(sq.iter())
                .all(|(&g, &v)| g == 0 || g == v)
        })
        .take(limit)
        .count()
}

fn render(cells: &[u8]) -> String {
    cells
        .chunks(N)
        .map(|row| {
            row.iter()
                .map(|&v| match v {
                    0 => " .".to_string(),
                    v => format!("{v:>2}"),
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads 16 numbers (spaces, commas, `|` and line breaks separate them).
fn parse_square(answer: &str) -> Result<Vec<u8>, InvalidAction> {
    let mut cells = Vec::new();
    for token in answer
        .split(|c: char| c.is_whitespace() || ",|;[]".contains(c))
        .filter(|t| !t.is_empty())
    {
        if token.len() > 2 || !token.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{token}` is not a number 1-16").into());
        }
        cells.push(token.parse().map_err(|_| format!("bad number `{token}`"))?);
        if cells.len() > CELLS {
            return Err(format!("more than {CELLS} numbers").into());
        }
    }
    if cells.len() != CELLS {
        return Err(format!("need {CELLS} numbers, found {}", cells.len()).into());
    }
    Ok(cells)
}

pub struct MagicSquare;

pub type MagicSquareEnv = SingleTurn<MagicSquare>;

impl Question for MagicSquare {
    type Config = MagicSquareConfig;
    type Task = MagicSquareTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/magic-square-v1",
        kind: EnvKind::SingleTurn,
        description: "Complete a 4x4 magic square (rows, columns, diagonals sum to 34) with one solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 4]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"target_givens":12}"#,
        r#"{"target_givens":10}"#,
        r#"{"target_givens":8}"#,
        "{}",
        r#"{"target_givens":0}"#,
    ];

    fn effort(task: &MagicSquareTask) -> Option<f64> {
        Some(task.givens.iter().filter(|&&g| g == 0).count() as f64)
    }

    fn validate(config: &MagicSquareConfig) -> Result<(), ConfigError> {
        if config.target_givens > CELLS {
            return Err(format!("target_givens must be 0..={CELLS}").into());
        }
        Ok(())
    }

    fn generate(config: &MagicSquareConfig, rng: &mut Rng) -> MagicSquareTask {
        let squares = all_squares();
        let solution = squares[rng.below(squares.len() as u64) as usize].to_vec();
        let mut givens = solution.clone();
        let mut order: Vec<usize> = (0..CELLS).collect();
        rng.shuffle(&mut order);
        let mut remaining = CELLS;
        for cell in order {
            if remaining <= config.target_givens {
                break;
            }
            let kept = givens[cell];
            givens[cell] = 0;
            if count_matching(&givens, 2) == 1 {
                remaining -= 1;
            } else {
                givens[cell] = kept;
            }
        }
        MagicSquareTask { givens, solution }
    }

    fn prompt(task: &MagicSquareTask) -> String {
        format!(
            "Complete this 4x4 magic square: fill every empty cell (.) so that the grid holds each number 1 to 16 \
             exactly once and every row, every column and both diagonals sum to 34. The completion is unique.\n\n\
             {}\n\nAnswer with the completed grid: 4 lines of 4 numbers separated by spaces, inside \\boxed{{}}.",
            render(&task.givens)
        )
    }

    fn structured(task: &MagicSquareTask) -> Value {
        json!({ "size": N, "magic_sum": MAGIC_SUM, "givens": task.givens })
    }

    fn reference(task: &MagicSquareTask) -> String {
        task.solution
            .chunks(N)
            .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &MagicSquareTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_square(answer)?;
        let keeps_givens = task
            .givens
            .iter()
            .zip(&grid)
            .all(|(&g, &v)| g == 0 || g == v);
        Ok(keeps_givens && is_magic(&grid))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
    use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

    #[test]
    fn there_are_7040_squares_and_all_are_magic() {
        let squares = all_squares();
        assert_eq!(squares.len(), 7040);
        assert!(squares.iter().all(|s| is_magic(s)));
        // Dürer's square (Melencolia I, 1514) is among them.
        let durer = [16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1];
        assert!(squares.contains(&durer));
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for target_givens in [10, 7, 0] {
            standard_answers::<MagicSquare>(&MagicSquareConfig { target_givens }, 20);
        }
    }

    #[test]
    fn any_magic_square_with_the_givens_passes_and_near_misses_fail() {
        let task = MagicSquareTask {
            givens: vec![16, 0, 0, 13, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            solution: vec![16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1],
        };
        let text = |g: &[u8]| g.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        assert!(passes::<MagicSquare>(&task, &text(&task.solution)));
        // Swapping the middle columns of Dürer's square keeps it magic
        // and keeps the corners: also a valid answer.
        let mut other = task.solution.clone();
        for r in 0..4 {
            other.swap(r * 4 + 1, r * 4 + 2);
        }
        assert!(is_magic(&other));
        assert!(passes::<MagicSquare>(&task, &text(&other)));
        let mut swapped = task.solution.clone();
        swapped.swap(1, 2); // one row only: columns break
        assert!(!passes::<MagicSquare>(&task, &text(&swapped)));
        let mut relabelled = task.solution.clone();
        relabelled.iter_mut().for_each(|v| *v = 17 - *v); // magic, breaks givens
        assert!(is_magic(&relabelled));
        assert!(!passes::<MagicSquare>(&task, &text(&relabelled)));
        assert!(!passes::<MagicSquare>(
            &task,
            "16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1 1"
        ));
        assert!(!passes::<MagicSquare>(
            &task,
            "16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1.0"
        ));
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for target_givens in [10, 7, 0] {
            assert_eq!(
                cross_reference_rate::<MagicSquare>(&MagicSquareConfig { target_givens }, 300),
                0.0
            );
        }
    }

    /// Completions of the givens counted by plain backtracking over the
    /// empty cells with the missing numbers, checking the whole square at
    /// the end: independent of the enumeration.
    fn count_completions(grid: &mut [u8], missing: &mut Vec<u8>) -> usize {
        let Some(cell) = grid.iter().position(|&v| v == 0) else {
            return usize::from(is_magic(grid));
        };
        let mut total = 0;
        for k in 0..missing.len() {
            let v = missing.remove(k);
            grid[cell] = v;
            // Prune on full rows only.
            let row = cell / N;
            let row_full = (0..N).all(|j| grid[row * N + j] != 0);
            let row_ok =
                !row_full || (0..N).map(|j| u32::from(grid[row * N + j])).sum::<u32>() == MAGIC_SUM;
            if row_ok {
                total += count_completions(grid, missing);
            }
            grid[cell] = 0;
            missing.insert(k, v);
        }
        total
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        #[test]
        fn generated_puzzles_have_exactly_one_completion(seed in any::<u64>()) {
            let task = MagicSquare::generate(&MagicSquareConfig { target_givens: 8 }, &mut Rng::from_seed(seed));
            let mut grid = task.givens.clone();
            let mut missing: Vec<u8> = (1..=16u8).filter(|v| !grid.contains(v)).collect();
            prop_assert_eq!(count_completions(&mut grid, &mut missing), 1);
        }
    }
}
