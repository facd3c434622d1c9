//! The validated puzzle of `selfplay/puzzle-propose-v1`, per kind: its canonical
//! instance, its one solution (counted by the logic envs' solvers under `NODE_CAP`),
//! the solver's rules and the logic env's own check of an answer.

use verigym_verifiers::sat::{Cnf, format_assignment, satisfies, to_dimacs};

use super::{NODE_CAP, PuzzleExample};
use crate::logic::kenken::{KenKen, KenKenTask, label, solve_counting};
use crate::logic::sat::{Sat, SatTask};
use crate::logic::solvers::latin::LatinSolver;
use crate::logic::solvers::sat::{Verdict, solve_watched};
use crate::logic::sudoku::{Sudoku, SudokuTask};
use crate::single_turn::Question;

/// A validated instance with its one solution, as the logic env's task.
#[derive(Clone, Debug, PartialEq)]
pub enum Puzzle {
    Sudoku(SudokuTask),
    Sat(SatTask),
    KenKen(KenKenTask),
}

/// Rows of digits, space-separated: the grid answer format of the logic envs.
pub(super) fn grid_rows(n: usize, cells: &[u8]) -> String {
    cells
        .chunks(n)
        .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Puzzle {
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Puzzle::Sudoku(_) => "sudoku",
            Puzzle::Sat(_) => "sat",
            Puzzle::KenKen(_) => "kenken",
        }
    }

    /// The instance in the proposal format.
    pub(super) fn instance(&self) -> String {
        match self {
            Puzzle::Sudoku(t) => t
                .givens
                .chunks(t.side())
                .map(|row| {
                    row.iter()
                        .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n"),
            // Canonical: literals and clauses sorted, cages in the order of their first
            // cell, so a reordered copy of a reference is still a copy.
            Puzzle::Sat(t) => {
                let mut clauses: Vec<Vec<i32>> = t
                    .clauses
                    .iter()
                    .map(|c| {
                        let mut c = c.clone();
                        c.sort_by_key(|l| (l.unsigned_abs(), *l));
                        c
                    })
                    .collect();
                clauses.sort();
                to_dimacs(&Cnf {
                    num_vars: t.num_vars,
                    clauses,
                })
                .trim_end()
                .to_string()
            }
            Puzzle::KenKen(t) => {
                let mut t = t.clone();
                t.cages.sort_by_key(|c| c.cells.first().copied());
                let mut lines = KenKen::map_rows(&t);
                for (i, cage) in t.cages.iter().enumerate() {
                    lines.push(format!("{}: {}{}", label(i), cage.target, cage.op.symbol()));
                }
                lines.join("\n")
            }
        }
    }

    pub(super) fn example(&self) -> PuzzleExample {
        PuzzleExample {
            kind: self.kind().to_string(),
            instance: self.instance(),
        }
    }

    /// The one solution in the logic env's answer format.
    pub(super) fn solution(&self) -> String {
        match self {
            Puzzle::Sudoku(t) => grid_rows(t.side(), &t.solution),
            Puzzle::Sat(t) => t.reference.clone(),
            Puzzle::KenKen(t) => grid_rows(t.n, &t.solution),
        }
    }

    /// The logic env's own check of an answer.
    pub(super) fn check(&self, answer: &str) -> bool {
        match self {
            Puzzle::Sudoku(t) => Sudoku::check(t, answer),
            Puzzle::Sat(t) => Sat::check(t, answer),
            Puzzle::KenKen(t) => KenKen::check(t, answer),
        }
        .unwrap_or(false)
    }

    /// What the solver must find: unknown cells or variables.
    pub(super) fn unknowns(&self) -> usize {
        match self {
            Puzzle::Sudoku(t) => t.givens.iter().filter(|&&g| g == 0).count(),
            Puzzle::Sat(t) => 2 * t.num_vars,
            Puzzle::KenKen(t) => t.n * t.n,
        }
    }

    pub(super) fn solver_rules(&self) -> String {
        match self {
            Puzzle::Sudoku(t) => {
                let n = t.side();
                format!(
                    "Sudoku: fill this {n}x{n} grid (`.` is an empty cell) so that every row, every column \
                     and every {}x{} box holds the digits 1-{n} once each; the solution is unique. Answer \
                     with the filled grid, {n} lines of {n} digits separated by spaces, inside \\boxed{{}}.",
                    t.box_rows, t.box_cols
                )
            }
            Puzzle::Sat(t) => format!(
                "SAT: find the assignment of the {} variables that satisfies every clause of this formula \
                 (DIMACS CNF: each line lists a clause's literals, ending in 0); it has exactly one. Answer \
                 with one signed literal per variable (`1 -2 3 ...`) inside \\boxed{{}}.",
                t.num_vars
            ),
            Puzzle::KenKen(t) => {
                let n = t.n;
                format!(
                    "KenKen: fill this {n}x{n} grid with the digits 1-{n} so that every row and column holds \
                     each digit once. Cells sharing a letter in the map form a cage; each `L: TARGET OP` line \
                     gives a cage's target and operation: + the sum, x the product, - the difference of its \
                     two cells, / their quotient (larger over smaller), none: one cell holding the target. \
                     The solution is unique. Answer with the filled grid, {n} lines of {n} digits separated \
                     by spaces, inside \\boxed{{}}."
                )
            }
        }
    }
}

/// How many solutions, up to 2, with the first one; `None` when the cap stopped it.
pub(super) fn solutions(puzzle: &mut Puzzle) -> Option<usize> {
    match puzzle {
        Puzzle::Sudoku(t) => {
            let mut solver = LatinSolver::new(t.side(), Some((t.box_rows, t.box_cols)));
            if !solver.load(&t.givens) {
                return Some(0);
            }
            let found = solver.count_within(2, None, NODE_CAP)?;
            t.solution.clone_from(&solver.solution);
            Some(found)
        }
        Puzzle::Sat(t) => {
            let cnf = Cnf {
                num_vars: t.num_vars,
                clauses: t.clauses.clone(),
            };
            let Verdict::Sat(model) = solve_watched(&cnf) else {
                return Some(0);
            };
            debug_assert!(satisfies(&cnf, &model));
            t.reference = format_assignment(&model);
            // A second model differs from the first somewhere: block the first.
            let block: Vec<i32> = model
                .iter()
                .enumerate()
                .map(|(i, &v)| if v { -(i as i32 + 1) } else { i as i32 + 1 })
                .collect();
            let mut blocked = cnf;
            blocked.clauses.push(block);
            Some(match solve_watched(&blocked) {
                Verdict::Sat(_) => 2,
                _ => 1,
            })
        }
        Puzzle::KenKen(t) => {
            let mut steps = NODE_CAP;
            let (found, first) = solve_counting(t.n, &t.cages, 2, &mut steps)?;
            t.solution = first;
            Some(found)
        }
    }
}
