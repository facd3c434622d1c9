//! The solver that proves a generated task has one solution: a search over
//! the digit sets each run's size and sum allow.

use super::KakuroTask;
use super::rules::run_cells;

/// Digit sets (bit `d - 1` for digit `d`) of each size and sum.
pub(super) struct Combos(Vec<Vec<u16>>);

impl Combos {
    pub(super) fn new() -> Self {
        let mut table = vec![Vec::new(); 10 * 46];
        for set in 1u16..512 {
            let sum: usize = (0..9).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum();
            table[set.count_ones() as usize * 46 + sum].push(set);
        }
        Combos(table)
    }

    /// The digits that may go in one of `open` cells that must add up to
    /// `sum` with distinct digits outside `used`.
    pub(super) fn candidates(&self, open: usize, sum: usize, used: u16) -> u16 {
        if open == 0 || sum > 45 {
            return 0;
        }
        self.0[open * 46 + sum]
            .iter()
            .filter(|&&set| set & used == 0)
            .fold(0, |acc, &set| acc | set)
    }
}

/// Up to `limit` fillings that meet the clues, as digits in white-cell order.
pub(super) fn solve(task: &KakuroTask, limit: usize, combos: &Combos) -> Vec<Vec<u8>> {
    let whites = task.whites();
    let mut index = vec![usize::MAX; task.solution.len()];
    for (k, &cell) in whites.iter().enumerate() {
        index[cell] = k;
    }
    let mut cell_runs = vec![[0usize; 2]; whites.len()];
    let mut target = Vec::new();
    for (side, list) in [(0, &task.across), (1, &task.down)] {
        for clue in list {
            for cell in run_cells(task.cols, clue, side == 0) {
                cell_runs[index[cell]][side] = target.len();
            }
            target.push((clue.sum, clue.len));
        }
    }
    let mut search = Search {
        combos,
        cell_runs,
        got: vec![(0, 0, 0); target.len()],
        target,
        values: vec![0; whites.len()],
        found: Vec::new(),
    };
    search.count(limit);
    search.found
}

pub(super) struct Search<'a> {
    combos: &'a Combos,
    cell_runs: Vec<[usize; 2]>,
    /// Per run: (sum, length).
    target: Vec<(usize, usize)>,
    /// Per run: (sum so far, cells filled, digits used).
    got: Vec<(usize, usize, u16)>,
    /// Per white cell: its digit, 0 while open.
    values: Vec<u8>,
    found: Vec<Vec<u8>>,
}

impl Search<'_> {
    pub(super) fn candidates(&self, cell: usize) -> u16 {
        self.cell_runs[cell].iter().fold(0x1ff, |acc, &run| {
            let (sum, len) = self.target[run];
            let (got, placed, used) = self.got[run];
            acc & sum
                .checked_sub(got)
                .map_or(0, |left| self.combos.candidates(len - placed, left, used))
        })
    }

    pub(super) fn count(&mut self, limit: usize) -> usize {
        let mut best: Option<(usize, u16)> = None;
        for cell in (0..self.values.len()).filter(|&c| self.values[c] == 0) {
            let options = self.candidates(cell);
            if best.is_none_or(|(_, b)| options.count_ones() < b.count_ones()) {
                best = Some((cell, options));
            }
            if options == 0 {
                return 0;
            }
        }
        // Every run's last digit is forced to its remaining sum, so a full
        // filling reached this way meets every clue.
        let Some((cell, options)) = best else {
            self.found.push(self.values.clone());
            return 1;
        };
        let mut found = 0;
        for d in (0..9).filter(|d| options >> d & 1 == 1) {
            self.values[cell] = d as u8 + 1;
            for &run in &self.cell_runs[cell] {
                let got = &mut self.got[run];
                *got = (got.0 + d + 1, got.1 + 1, got.2 | 1 << d);
            }
            found += self.count(limit - found);
            for &run in &self.cell_runs[cell] {
                let got = &mut self.got[run];
                *got = (got.0 - d - 1, got.1 - 1, got.2 & !(1 << d));
            }
            if found >= limit {
                break;
            }
        }
        self.values[cell] = 0;
        found
    }
}
