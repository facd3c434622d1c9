//! Tests of the Kakuro env: uniqueness, the verifier, the hacks.
use super::generate::{fill, shape};
use super::rules::clues;
use super::solver::{Combos, solve};
use super::*;
use crate::rng::mix_seed;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
use proptest::prelude::{ProptestConfig, any, prop_assert, prop_assert_eq, proptest};

/// A hand-made 3x3 task (its solution is unique by hand deduction).
fn small() -> KakuroTask {
    let solution = vec![1, 3, 0, 2, 4, 1, 0, 5, 2];
    let (across, down) = clues(3, 3, &solution);
    KakuroTask {
        rows: 3,
        cols: 3,
        solution,
        across,
        down,
    }
}

/// Counts the fillings of the task's white cells that meet its clues,
/// up to `limit`.
fn count_solutions(task: &KakuroTask, limit: usize) -> usize {
    solve(task, limit, &Combos::new()).len()
}

fn config_of(patch: &str) -> KakuroConfig {
    let mut value = serde_json::to_value(KakuroConfig::default()).unwrap();
    for (k, v) in serde_json::from_str::<serde_json::Map<String, Value>>(patch).unwrap() {
        value[k] = v;
    }
    serde_json::from_value(value).unwrap()
}

/// The run through `cell` in steps of `step` (1 across, `cols` down),
/// found by walking the grid's white cells: its cells and its clue.
fn run_through(task: &KakuroTask, cell: usize, across: bool) -> (Vec<usize>, usize) {
    let (r, c) = (cell / task.cols, cell % task.cols);
    let white = |r: usize, c: usize| task.solution[r * task.cols + c] != 0;
    let (mut r0, mut c0) = (r, c);
    while across && c0 > 0 && white(r0, c0 - 1) || !across && r0 > 0 && white(r0 - 1, c0) {
        if across { c0 -= 1 } else { r0 -= 1 }
    }
    let mut cells = Vec::new();
    let (mut r1, mut c1) = (r0, c0);
    while r1 < task.rows && c1 < task.cols && white(r1, c1) {
        cells.push(r1 * task.cols + c1);
        if across { c1 += 1 } else { r1 += 1 }
    }
    let list = if across { &task.across } else { &task.down };
    let clue = list.iter().find(|k| (k.row, k.col) == (r0, c0)).unwrap();
    assert_eq!(clue.len, cells.len());
    (cells, clue.sum)
}

/// Independent counter: white cells in row-major order, every digit,
/// each run through the new cell rescanned for repeats and sum bounds.
fn count_plainly(task: &KakuroTask, grid: &mut Vec<u8>, at: usize, limit: usize) -> usize {
    let whites = task.whites();
    let Some(&cell) = whites.get(at) else {
        return 1;
    };
    let mut total = 0;
    for d in 1..=9 {
        grid[cell] = d;
        let fine = [true, false].iter().all(|&across| {
            let (cells, sum) = run_through(task, cell, across);
            let values: Vec<usize> = cells.iter().map(|&i| usize::from(grid[i])).collect();
            let placed: Vec<usize> = values.iter().copied().filter(|&v| v != 0).collect();
            let open = values.len() - placed.len();
            let got: usize = placed.iter().sum();
            let distinct =
                (0..placed.len()).all(|a| (a + 1..placed.len()).all(|b| placed[a] != placed[b]));
            distinct && got + open <= sum && got + 9 * open >= sum
        });
        if fine {
            total += count_plainly(task, grid, at + 1, limit - total);
        }
        if total >= limit {
            break;
        }
    }
    grid[cell] = 0;
    total
}

fn brute_count(task: &KakuroTask, limit: usize) -> usize {
    let mut grid: Vec<u8> = task.solution.iter().map(|_| 0).collect();
    count_plainly(task, &mut grid, 0, limit)
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for preset in Kakuro::SPEC.presets {
        standard_answers::<Kakuro>(&config_of(preset.overrides), 200);
    }
}

#[test]
fn every_level_generates_valid_unique_tasks() {
    for (level, patch) in Kakuro::LEVELS.iter().enumerate() {
        let config = config_of(patch);
        assert_eq!(Kakuro::validate(&config), Ok(()));
        for i in 0..50 {
            let task = Kakuro::generate(&config, &mut Rng::from_seed(mix_seed(level as u64, i)));
            assert_eq!(
                clues(task.rows, task.cols, &task.solution),
                (task.across.clone(), task.down.clone())
            );
            assert!(task.across.iter().chain(&task.down).all(|c| c.len >= 2));
            assert!(meets_clues(&task, &task.solution));
            assert_eq!(count_solutions(&task, 3), 1);
        }
    }
}

#[test]
fn observation_is_exact() {
    let expected = "Kakuro. Write a digit from 1 to 9 in every white cell (_) of the grid below. A black cell \
written D\\R holds clues: D is the sum of the run of white cells directly below it, R the sum of the run \
directly to its right (a missing number means no run on that side); # is a black cell without clues. The \
digits of each run must add up to its clue, and no digit may appear twice in a run. The solution is unique.

     #    3\\   12\\     #
    \\4     _     _    3\\
    \\7     _     _     _
     #    \\7     _     _

The same runs (rows and columns of the grid above, counted from 1 at its top-left corner):
across: row 2, columns 2-3, sum 4
across: row 3, columns 2-4, sum 7
across: row 4, columns 3-4, sum 7
down: column 2, rows 2-3, sum 3
down: column 3, rows 2-4, sum 12
down: column 4, rows 3-4, sum 3

Answer with the 7 digits of the white cells only, row by row from top to bottom and left to right within \
a row, one line per row, inside \\boxed{}.";
    assert_eq!(Kakuro::prompt(&small()), expected);
    assert_eq!(Kakuro::reference(&small()), "13\n241\n52");
}

#[test]
fn answers_are_read_leniently_and_checked_strictly() {
    let task = small();
    assert_eq!(count_solutions(&task, 2), 1);
    assert_eq!(brute_count(&task, 2), 1);
    for good in [
        "13\n241\n52",
        "1 3 2 4 1 5 2",
        "1,3;2,4,1|5,2",
        "\\boxed{13 241 52}",
    ] {
        assert!(passes::<Kakuro>(&task, good), "{good:?}");
    }
    // Wrong digit, a zero, letters, too few and too many digits.
    for bad in [
        "13\n241\n53",
        "13\n241\n50",
        "13 241 5x",
        "13 241 5",
        "13 241 522",
        "1.3 241 52",
    ] {
        assert!(!passes::<Kakuro>(&task, bad), "{bad:?}");
    }
    assert_eq!(parse_digits("1 2 0", 3).map_err(|_| ()), Err(()));
}

#[test]
fn a_repeated_digit_fails_even_when_every_sum_holds() {
    let task = small();
    // Row 1 reads 2, 2: its sum 4 holds, and so does every other sum.
    let grid = vec![2, 2, 0, 1, 4, 2, 0, 6, 1];
    assert_eq!(clues(3, 3, &grid), (task.across.clone(), task.down.clone()));
    assert!(!meets_clues(&task, &grid));
    assert!(!passes::<Kakuro>(&task, "22\n142\n61"));
}

#[test]
fn the_solver_counts_like_brute_force_on_any_filling() {
    // Random shapes and fillings, unique or not: the pruned count agrees
    // with plain enumeration up to the limit.
    let mut seen = [0usize; 3];
    for i in 0..300 {
        let mut rng = Rng::from_seed(mix_seed(5, i));
        let config = KakuroConfig {
            rows: 3 + (i % 2) as usize,
            cols: 4,
            black_density: 0.25,
        };
        let white = shape(&config, &mut rng);
        let whites: Vec<usize> = (0..white.len()).filter(|&c| white[c]).collect();
        let mut grid: Vec<u8> = white.iter().map(|&w| if w { u8::MAX } else { 0 }).collect();
        assert!(fill(&mut grid, config.cols, &whites, 0, &mut rng));
        let (across, down) = clues(config.rows, config.cols, &grid);
        let task = KakuroTask {
            rows: config.rows,
            cols: config.cols,
            solution: grid,
            across,
            down,
        };
        let count = count_solutions(&task, 2);
        assert_eq!(count, brute_count(&task, 2), "{task:?}");
        seen[count] += 1;
    }
    assert!(seen[1] > 0 && seen[2] > 0, "{seen:?}");
}

#[test]
fn another_tasks_reference_rarely_passes() {
    assert!(cross_reference_rate::<Kakuro>(&config_of(r#"{"rows":4,"cols":4}"#), 1000) < 0.01);
    assert_eq!(
        cross_reference_rate::<Kakuro>(&KakuroConfig::default(), 300),
        0.0
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn generated_clues_have_exactly_one_solution(seed in any::<u64>(), wide in any::<bool>()) {
        let config = KakuroConfig { rows: 4, cols: if wide { 5 } else { 4 }, black_density: 0.25 };
        let task = Kakuro::generate(&config, &mut Rng::from_seed(seed));
        prop_assert!(meets_clues(&task, &task.solution));
        prop_assert_eq!(brute_count(&task, 2), 1);
    }
}
