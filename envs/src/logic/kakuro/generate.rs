//! Generation: a random shape, a random filling, then single-digit repairs
//! until the clues have exactly one solution.

use super::rules::clues;
use super::solver::{Combos, solve};
use super::{KakuroConfig, KakuroTask};
use crate::rng::Rng;

/// Single-digit repairs tried on one shape's filling before a new shape
/// is drawn.
pub(super) const REPAIRS_PER_SHAPE: usize = 40;

/// Draws shapes and fillings until the clues of one have a unique solution
/// (repairing a filling up to [`REPAIRS_PER_SHAPE`] times).
pub(super) fn generate(config: &KakuroConfig, rng: &mut Rng) -> KakuroTask {
    let (rows, cols) = (config.rows, config.cols);
    let combos = Combos::new();
    loop {
        let white = shape(config, rng);
        let whites: Vec<usize> = (0..rows * cols).filter(|&i| white[i]).collect();
        // Unfilled white cells hold a placeholder that no digit equals.
        let mut grid: Vec<u8> = white.iter().map(|&w| if w { u8::MAX } else { 0 }).collect();
        if !fill(&mut grid, cols, &whites, 0, rng) {
            continue;
        }
        for _ in 0..REPAIRS_PER_SHAPE {
            let (across, down) = clues(rows, cols, &grid);
            let task = KakuroTask {
                rows,
                cols,
                solution: grid.clone(),
                across,
                down,
            };
            let found = solve(&task, 2, &combos);
            if found.len() == 1 {
                return task;
            }
            // Another filling meets these clues: change one digit of
            // ours where it differs, keeping runs free of repeats.
            let mine: Vec<u8> = whites.iter().map(|&i| grid[i]).collect();
            let Some(other) = found.iter().find(|f| **f != mine) else {
                break;
            };
            let differing: Vec<usize> =
                (0..whites.len()).filter(|&k| other[k] != mine[k]).collect();
            let cell = whites[differing[rng.below(differing.len() as u64) as usize]];
            let used = run_digits(&grid, rows, cols, cell) | 1 << grid[cell];
            let options: Vec<u8> = (1..=9).filter(|&d| used >> d & 1 == 0).collect();
            if let Some(&d) = rng.choose(&options) {
                grid[cell] = d;
            }
        }
    }
}

/// A random shape: every white cell in an across and a down run of at
/// least two, one connected area reaching every row and column.
pub(super) fn shape(config: &KakuroConfig, rng: &mut Rng) -> Vec<bool> {
    let (rows, cols) = (config.rows, config.cols);
    loop {
        let mut white: Vec<bool> = (0..rows * cols)
            .map(|_| !rng.chance(config.black_density))
            .collect();
        let run_of_one = |w: &[bool], i: usize| {
            let (r, c) = (i / cols, i % cols);
            let lone_across = (c == 0 || !w[i - 1]) && (c + 1 == cols || !w[i + 1]);
            let lone_down = (r == 0 || !w[i - cols]) && (r + 1 == rows || !w[i + cols]);
            lone_across || lone_down
        };
        while let Some(i) = (0..rows * cols).find(|&i| white[i] && run_of_one(&white, i)) {
            white[i] = false;
        }
        // The largest 4-connected white area.
        let mut area = vec![usize::MAX; rows * cols];
        let mut sizes = Vec::new();
        for start in 0..rows * cols {
            if !white[start] || area[start] != usize::MAX {
                continue;
            }
            let id = sizes.len();
            let mut stack = vec![start];
            area[start] = id;
            let mut size = 0;
            while let Some(i) = stack.pop() {
                size += 1;
                let (r, c) = (i / cols, i % cols);
                let near = [
                    (r > 0).then(|| i - cols),
                    (r + 1 < rows).then(|| i + cols),
                    (c > 0).then(|| i - 1),
                    (c + 1 < cols).then(|| i + 1),
                ];
                for j in near.into_iter().flatten() {
                    if white[j] && area[j] == usize::MAX {
                        area[j] = id;
                        stack.push(j);
                    }
                }
            }
            sizes.push(size);
        }
        let Some(keep) = (0..sizes.len()).max_by_key(|&id| (sizes[id], usize::MAX - id)) else {
            continue;
        };
        let white: Vec<bool> = area.iter().map(|&id| id == keep).collect();
        let every_row = (0..rows).all(|r| (0..cols).any(|c| white[r * cols + c]));
        let every_col = (0..cols).all(|c| (0..rows).any(|r| white[r * cols + c]));
        if every_row && every_col && sizes[keep] * 2 >= rows * cols {
            return white;
        }
    }
}

/// Fills the white cells from `at` on with digits, none repeated in a run.
pub(super) fn fill(
    grid: &mut [u8],
    cols: usize,
    whites: &[usize],
    at: usize,
    rng: &mut Rng,
) -> bool {
    let Some(&cell) = whites.get(at) else {
        return true;
    };
    let mut digits: Vec<u8> = (1..=9).collect();
    rng.shuffle(&mut digits);
    for d in digits {
        // Cells are filled in row-major order: the run cells already
        // filled lie to the left and above.
        let clash = |step: usize| {
            let mut i = cell;
            while let Some(j) = i
                .checked_sub(step)
                .filter(|&j| step != 1 || j / cols == cell / cols)
            {
                if grid[j] == 0 {
                    return false;
                }
                if grid[j] == d {
                    return true;
                }
                i = j;
            }
            false
        };
        if clash(1) || clash(cols) {
            continue;
        }
        grid[cell] = d;
        if fill(grid, cols, whites, at + 1, rng) {
            return true;
        }
    }
    grid[cell] = u8::MAX;
    false
}

/// The digits (bit `d` for digit `d`) in the runs through `cell`, other
/// than its own.
pub(super) fn run_digits(grid: &[u8], rows: usize, cols: usize, cell: usize) -> u16 {
    let (r, c) = (cell / cols, cell % cols);
    let mut used = 0u16;
    let mut walk = |dr: isize, dc: isize| {
        let (mut r, mut c) = (r as isize + dr, c as isize + dc);
        while (0..rows as isize).contains(&r) && (0..cols as isize).contains(&c) {
            let d = grid[r as usize * cols + c as usize];
            if d == 0 {
                break;
            }
            used |= 1 << d;
            r += dr;
            c += dc;
        }
    };
    walk(0, -1);
    walk(0, 1);
    walk(-1, 0);
    walk(1, 0);
    used
}
