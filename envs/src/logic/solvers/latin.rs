//! Latin-square family solver: sudoku (with boxes), plain latin squares and
//! futoshiki (with `<` constraints), on bitmasks with an explicit stack.
//!
//! Cells hold `0` (empty) or `1..=n`; candidate sets are `u16` bitmasks
//! where bit `v` means value `v`. [`LatinSolver::count`] counts solutions up
//! to a limit (limit 2 decides uniqueness); with an [`Rng`] it tries values
//! in random order, which [`LatinSolver::random_solution`] uses to fill an
//! empty grid uniformly enough for puzzle generation.

use crate::rng::Rng;

/// Largest side supported (values fit in a `u16` mask).
pub const MAX_SIDE: usize = 15;

/// A partially filled grid and its constraints.
#[derive(Clone, Debug)]
pub struct LatinSolver {
    n: usize,
    /// `(rows, cols)` of a box, or `None` for no box constraint.
    boxes: Option<(usize, usize)>,
    grid: Vec<u8>,
    rows: Vec<u16>,
    cols: Vec<u16>,
    box_used: Vec<u16>,
    /// For each cell, `(other, true)` when `cell < other`, `(other, false)`
    /// when `cell > other`.
    order: Vec<Vec<(usize, bool)>>,
    /// Row, column and box index of each cell, precomputed.
    units: Vec<(u8, u8, u8)>,
    /// A value banned from one cell: `(cell, value)`.
    banned: Option<(usize, u8)>,
    /// The first solution found by the last count.
    pub solution: Vec<u8>,
}

impl LatinSolver {
    /// # Panics
    /// If `n` exceeds [`MAX_SIDE`] or the boxes do not tile the grid.
    pub fn new(n: usize, boxes: Option<(usize, usize)>) -> Self {
        assert!((1..=MAX_SIDE).contains(&n));
        if let Some((r, c)) = boxes {
            assert_eq!(r * c, n, "boxes must tile the grid");
        }
        let box_of = |cell: usize| match boxes {
            Some((br, bc)) => (cell / n / br) * (n / bc) + (cell % n) / bc,
            None => 0,
        };
        let units = (0..n * n)
            .map(|cell| ((cell / n) as u8, (cell % n) as u8, box_of(cell) as u8))
            .collect();
        LatinSolver {
            n,
            boxes,
            units,
            banned: None,
            grid: vec![0; n * n],
            rows: vec![0; n],
            cols: vec![0; n],
            box_used: vec![0; n],
            order: vec![Vec::new(); n * n],
            solution: Vec::new(),
        }
    }

    /// Adds the constraint `grid[less] < grid[greater]`.
    pub fn add_less_than(&mut self, less: usize, greater: usize) {
        self.order[less].push((greater, true));
        self.order[greater].push((less, false));
    }

    /// Sets the givens (0 = empty). Returns false when they clash.
    pub fn load(&mut self, givens: &[u8]) -> bool {
        self.grid.iter_mut().for_each(|g| *g = 0);
        self.rows.iter_mut().for_each(|m| *m = 0);
        self.cols.iter_mut().for_each(|m| *m = 0);
        self.box_used.iter_mut().for_each(|m| *m = 0);
        for (cell, &v) in givens.iter().enumerate() {
            if v != 0 {
                if self.candidates(cell) & (1 << v) == 0 {
                    return false;
                }
                self.place(cell, v);
            }
        }
        true
    }

    fn place(&mut self, cell: usize, v: u8) {
        let bit = 1u16 << v;
        let (r, c, b) = self.units[cell];
        self.grid[cell] = v;
        self.rows[r as usize] |= bit;
        self.cols[c as usize] |= bit;
        if self.boxes.is_some() {
            self.box_used[b as usize] |= bit;
        }
    }

    fn unplace(&mut self, cell: usize) {
        let bit = !(1u16 << self.grid[cell]);
        let (r, c, b) = self.units[cell];
        self.grid[cell] = 0;
        self.rows[r as usize] &= bit;
        self.cols[c as usize] &= bit;
        if self.boxes.is_some() {
            self.box_used[b as usize] &= bit;
        }
    }

    /// Values still possible in an empty cell.
    fn candidates(&self, cell: usize) -> u16 {
        let full: u16 = (((1u32 << self.n) - 1) << 1) as u16;
        let (r, c, b) = self.units[cell];
        let mut mask =
            full & !(self.rows[r as usize] | self.cols[c as usize] | self.box_used[b as usize]);
        if let Some((banned_cell, v)) = self.banned
            && banned_cell == cell
        {
            mask &= !(1u16 << v);
        }
        for &(other, cell_is_less) in &self.order[cell] {
            let w = self.grid[other];
            if cell_is_less {
                // Below the other's value, and never the largest value.
                mask &= if w != 0 {
                    (1u16 << w) - 1
                } else {
                    !(1u16 << self.n)
                };
            } else {
                mask &= if w != 0 { !((2u16 << w) - 1) } else { !2u16 };
            }
        }
        mask
    }

    /// The empty cell with fewest candidates, or `None` when full.
    fn most_constrained(&self) -> Option<(usize, u16)> {
        let mut best: Option<(usize, u16)> = None;
        let mut best_count = u32::MAX;
        for cell in 0..self.grid.len() {
            if self.grid[cell] == 0 {
                let mask = self.candidates(cell);
                let count = mask.count_ones();
                if count < best_count {
                    best = Some((cell, mask));
                    best_count = count;
                    if count <= 1 {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Counts solutions of the loaded grid, stopping at `limit`. The grid is
    /// left as loaded; the first solution is kept in `solution`.
    pub fn count(&mut self, limit: usize, rng: Option<&mut Rng>) -> usize {
        self.count_within(limit, rng, u64::MAX)
            .expect("an unbounded count finishes")
    }

    /// [`LatinSolver::count`] placing at most `max_nodes` values: `None` when the search
    /// needs more (a hostile grid cannot make it run long). The grid is left as loaded.
    pub fn count_within(
        &mut self,
        limit: usize,
        mut rng: Option<&mut Rng>,
        max_nodes: u64,
    ) -> Option<usize> {
        let mut stack: Vec<(usize, u16)> = Vec::with_capacity(self.grid.len());
        let mut found = 0;
        let mut nodes = 0u64;
        let mut exhausted = false;
        'search: loop {
            match self.most_constrained() {
                None => {
                    if found == 0 {
                        self.solution.clone_from(&self.grid);
                    }
                    found += 1;
                    if found >= limit {
                        break 'search;
                    }
                }
                Some((cell, mask)) if mask != 0 => stack.push((cell, mask)),
                Some(_) => {}
            }
            // Advance: the next untried value of the deepest open cell.
            loop {
                let Some(&(cell, mask)) = stack.last() else {
                    break 'search;
                };
                if self.grid[cell] != 0 {
                    self.unplace(cell);
                }
                if mask == 0 {
                    stack.pop();
                    continue;
                }
                let bit = match rng.as_deref_mut() {
                    Some(rng) => nth_set_bit(mask, rng.below(u64::from(mask.count_ones())) as u32),
                    None => mask & mask.wrapping_neg(),
                };
                stack.last_mut().expect("non-empty").1 = mask & !bit;
                nodes += 1;
                if nodes > max_nodes {
                    exhausted = true;
                    break 'search;
                }
                self.place(cell, bit.trailing_zeros() as u8);
                break;
            }
        }
        for &(cell, _) in &stack {
            if self.grid[cell] != 0 {
                self.unplace(cell);
            }
        }
        (!exhausted).then_some(found)
    }

    /// A random complete grid satisfying the constraints, if one exists.
    /// With boxes and an empty grid, the boxes on the diagonal share no row
    /// or column, so they are filled first with independent permutations
    /// (9x9 grids always complete; smaller ones may need the fallback).
    pub fn random_solution(&mut self, rng: &mut Rng) -> Option<Vec<u8>> {
        if let Some((br, bc)) = self.boxes
            && self.grid.iter().all(|&v| v == 0)
            && self.order.iter().all(Vec::is_empty)
        {
            let mut values: Vec<u8> = (1..=self.n as u8).collect();
            for i in 0..(self.n / br).min(self.n / bc) {
                rng.shuffle(&mut values);
                for (k, &v) in values.iter().enumerate() {
                    self.place((i * br + k / bc) * self.n + i * bc + k % bc, v);
                }
            }
            let found = self.count(1, Some(rng)) == 1;
            let empty = vec![0; self.n * self.n];
            self.load(&empty);
            if found {
                return Some(self.solution.clone());
            }
            // Small grids (4x4) have diagonal fillings that cannot be
            // completed: fall back to a plain random search.
        }
        (self.count(1, Some(rng)) == 1).then(|| self.solution.clone())
    }
}

/// The bit of the `k`-th set bit of `mask` (from the lowest).
fn nth_set_bit(mut mask: u16, k: u32) -> u16 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask & mask.wrapping_neg()
}

/// Removes givens from `solution` in random order while the puzzle keeps a
/// unique solution, stopping once `target_givens` remain (0 = minimal).
/// `solver` must already hold the puzzle's extra constraints.
pub fn dig_unique(
    solver: &mut LatinSolver,
    solution: &[u8],
    target_givens: usize,
    rng: &mut Rng,
) -> Vec<u8> {
    let mut givens = solution.to_vec();
    let mut order: Vec<usize> = (0..givens.len()).collect();
    rng.shuffle(&mut order);
    let mut remaining = givens.len();
    for cell in order {
        if remaining <= target_givens {
            break;
        }
        let kept = givens[cell];
        givens[cell] = 0;
        // Still unique iff no solution puts another value in this cell.
        solver.banned = Some((cell, kept));
        let unique = solver.load(&givens) && solver.count(1, None) == 0;
        solver.banned = None;
        if unique {
            remaining -= 1;
        } else {
            givens[cell] = kept;
        }
    }
    givens
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_verifiers::grid::{is_latin_square, is_sudoku_solution};

    /// The capped count gives up (and leaves the grid as loaded) instead of running on.
    #[test]
    fn a_capped_count_stops_and_says_so() {
        let mut solver = LatinSolver::new(4, Some((2, 2)));
        assert!(solver.load(&[0; 16]));
        assert_eq!(solver.count_within(usize::MAX, None, 10), None);
        assert_eq!(solver.count_within(usize::MAX, None, u64::MAX), Some(288));
        assert_eq!(solver.count(usize::MAX, None), 288);
        assert_eq!(solver.count_within(2, None, 1_000), Some(2));
    }

    #[test]
    fn counts_all_latin_squares_of_order_4() {
        // There are exactly 576 latin squares of order 4 and 288 4x4 sudokus.
        let mut latin = LatinSolver::new(4, None);
        latin.load(&[0; 16]);
        assert_eq!(latin.count(10_000, None), 576);
        let mut sudoku = LatinSolver::new(4, Some((2, 2)));
        sudoku.load(&[0; 16]);
        assert_eq!(sudoku.count(10_000, None), 288);
    }

    #[test]
    fn random_solutions_are_valid_and_vary() {
        let mut rng = Rng::from_seed(1);
        let mut solver = LatinSolver::new(9, Some((3, 3)));
        solver.load(&[0; 81]);
        let a = solver.random_solution(&mut rng).unwrap();
        let b = solver.random_solution(&mut rng).unwrap();
        assert!(is_sudoku_solution(&a, 3, 3) && is_sudoku_solution(&b, 3, 3));
        assert_ne!(a, b);
        let mut six = LatinSolver::new(6, Some((2, 3)));
        six.load(&[0; 36]);
        assert!(is_sudoku_solution(
            &six.random_solution(&mut rng).unwrap(),
            2,
            3
        ));
    }

    #[test]
    fn less_than_constraints_prune() {
        // 2x2 latin squares: two; forcing cell 0 < cell 1 leaves one.
        let mut solver = LatinSolver::new(2, None);
        solver.add_less_than(0, 1);
        solver.load(&[0; 4]);
        assert_eq!(solver.count(10, None), 1);
        assert_eq!(solver.solution, vec![1, 2, 2, 1]);
        assert!(is_latin_square(&solver.solution, 2));
    }

    #[test]
    fn clashing_givens_are_refused() {
        let mut solver = LatinSolver::new(4, Some((2, 2)));
        assert!(!solver.load(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert!(!solver.load(&[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    }
}
