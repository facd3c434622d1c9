//! The rules of kakuro: runs and their clues, reading an answer's digits,
//! checking a filled grid.

use super::{Clue, KakuroTask};
use crate::core::InvalidAction;

/// Cells (play-area indices) of a run.
pub(super) fn run_cells(
    cols: usize,
    clue: &Clue,
    across: bool,
) -> impl Iterator<Item = usize> + '_ {
    (0..clue.len).map(move |k| {
        if across {
            clue.row * cols + clue.col + k
        } else {
            (clue.row + k) * cols + clue.col
        }
    })
}

/// The maximal runs of non-zero cells, across then down, with their sums.
pub(super) fn clues(rows: usize, cols: usize, grid: &[u8]) -> (Vec<Clue>, Vec<Clue>) {
    let scan = |outer: usize, inner: usize, at: &dyn Fn(usize, usize) -> usize| {
        let mut found = Vec::new();
        for o in 0..outer {
            let mut i = 0;
            while i < inner {
                if grid[at(o, i)] == 0 {
                    i += 1;
                    continue;
                }
                let start = i;
                let mut sum = 0;
                while i < inner && grid[at(o, i)] != 0 {
                    sum += usize::from(grid[at(o, i)]);
                    i += 1;
                }
                found.push((o, start, i - start, sum));
            }
        }
        found
    };
    let across = scan(rows, cols, &|r, c| r * cols + c)
        .into_iter()
        .map(|(row, col, len, sum)| Clue { row, col, len, sum })
        .collect();
    let mut down: Vec<Clue> = scan(cols, rows, &|c, r| r * cols + c)
        .into_iter()
        .map(|(col, row, len, sum)| Clue { row, col, len, sum })
        .collect();
    down.sort_by_key(|c| (c.row, c.col));
    (across, down)
}

/// The digits of an answer, strictly `count` of them in 1..=9.
pub(super) fn parse_digits(answer: &str, count: usize) -> Result<Vec<u8>, InvalidAction> {
    if answer.len() > 16 * count + 256 {
        return Err("answer is far longer than the grid".into());
    }
    let mut digits = Vec::with_capacity(count);
    for ch in answer.chars() {
        match ch {
            '1'..='9' => digits.push(ch as u8 - b'0'),
            '0' => return Err("0 is not a kakuro digit (use 1-9)".into()),
            c if c.is_whitespace() || ",;|".contains(c) => {}
            c => return Err(format!("unexpected `{c}`: write only the digits").into()),
        }
    }
    if digits.len() != count {
        return Err(format!(
            "expected {count} digits (one per white cell), found {}",
            digits.len()
        )
        .into());
    }
    Ok(digits)
}

/// Every run of `grid` adds up to its clue and repeats no digit.
pub(super) fn meets_clues(task: &KakuroTask, grid: &[u8]) -> bool {
    [(&task.across, true), (&task.down, false)]
        .iter()
        .all(|&(list, across)| {
            list.iter().all(|clue| {
                let mut used = 0u16;
                let mut sum = 0;
                for cell in run_cells(task.cols, clue, across) {
                    let d = grid[cell];
                    if !(1..=9).contains(&d) || used >> d & 1 == 1 {
                        return false;
                    }
                    used |= 1 << d;
                    sum += usize::from(d);
                }
                sum == clue.sum
            })
        })
}
