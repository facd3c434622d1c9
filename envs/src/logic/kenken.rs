//! `logic/kenken-v1`: fill a latin square whose cages meet their targets
//! (KenKen); one solution, proven by our own solver when the task is made.
//!
//! # Task
//! An `n × n` grid split into cages of up to `max_cage` side-connected
//! cells. Rules: every row and column holds `1..=n` once each, and each
//! cage's digits give its target with its operation: `+` the sum, `x` the
//! product, `-` the difference of its two cells (larger minus smaller), `/`
//! their quotient (larger over smaller); a one-cell cage holds its target.
//! The generator draws a random latin square, carves random cages (each
//! grows to a size drawn from `2..=max_cage`, smaller where it gets boxed
//! in), gives each a random operation that fits (`-` and `/` on two cells
//! only, `/` only where it divides), and keeps the puzzle only when the
//! solver finds exactly one solution.
//!
//! # Action
//! The filled grid: `n` rows of `n` digits, one row per line (spaces,
//! commas or nothing between digits; a table or box around them is
//! ignored), read by `verigym_verifiers::grid::parse_grid`. In `\boxed{…}`
//! or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The cage map (a letter per cell, cells of a cage share it) and each
//! cage's target and operation. Structured: `n`, the map's rows and the
//! cages (label, cells, operation, target).
//!
//! # Reward
//! 1 and `passed` when the grid is a latin square and every cage meets its
//! target (checked directly; the unique solution means this agrees with the
//! reference); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `n` (4..=7), `max_cage` (2..=4).
//!
//! # Seeding
//! The latin square, the cages, the operations and the redraws come from the
//! task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::grid::{is_latin_square, parse_grid};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::latin::LatinSolver;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct KenKenConfig {
    pub n: usize,
    pub max_cage: usize,
}

impl Default for KenKenConfig {
    fn default() -> Self {
        KenKenConfig { n: 5, max_cage: 3 }
    }
}

/// A cage's operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// A one-cell cage: the cell holds the target.
    Given,
    Add,
    Sub,
    Mul,
    Div,
}

impl Op {
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Given => "",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "x",
            Op::Div => "/",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cage {
    /// Row-major cell indices, ascending.
    pub cells: Vec<usize>,
    pub op: Op,
    pub target: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KenKenTask {
    pub n: usize,
    pub cages: Vec<Cage>,
    /// Row-major `1..=n` (the solution).
    pub solution: Vec<u8>,
}

/// Whether `values` (a cage's digits, in its cell order) meet `op` and
/// `target`.
fn meets(op: Op, target: u32, values: &[u8]) -> bool {
    let v: Vec<u32> = values.iter().map(|&x| u32::from(x)).collect();
    match (op, v.as_slice()) {
        (Op::Given, [a]) => *a == target,
        (Op::Add, _) => v.iter().sum::<u32>() == target,
        (Op::Mul, _) => v.iter().product::<u32>() == target,
        (Op::Sub, [a, b]) => a.abs_diff(*b) == target,
        (Op::Div, [a, b]) => {
            let (hi, lo) = ((*a).max(*b), (*a).min(*b));
            lo > 0 && hi % lo == 0 && hi / lo == target
        }
        _ => false,
    }
}

/// Every rule, on a full grid.
fn follows_rules(n: usize, cages: &[Cage], grid: &[u8]) -> bool {
    is_latin_square(grid, n)
        && cages.iter().all(|cage| {
            let values: Vec<u8> = cage.cells.iter().map(|&c| grid[c]).collect();
            meets(cage.op, cage.target, &values)
        })
}

/// Every filling of a cage's cells with `1..=n` that meets its target and
/// repeats no digit within a row or column of the cage.
fn cage_tuples(n: usize, cage: &Cage) -> Vec<Vec<u8>> {
    fn fill(n: usize, cage: &Cage, values: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        let k = values.len();
        if k == cage.cells.len() {
            if meets(cage.op, cage.target, values) {
                out.push(values.clone());
            }
            return;
        }
        let cell = cage.cells[k];
        for v in 1..=n as u8 {
            let clash = cage.cells[..k]
                .iter()
                .zip(values.iter())
                .any(|(&o, &w)| w == v && (o / n == cell / n || o % n == cell % n));
            if !clash {
                values.push(v);
                fill(n, cage, values, out);
                values.pop();
            }
        }
    }
    let mut out = Vec::new();
    fill(n, cage, &mut Vec::new(), &mut out);
    out
}

/// Counts solutions up to `limit`, cage by cage (always the cage with the
/// fewest fillings that fit the digits placed so far). Spends one of
/// `steps` per node; `None` when they run out.
fn count_solutions(n: usize, cages: &[Cage], limit: usize, steps: &mut u64) -> Option<usize> {
    solve_counting(n, cages, limit, steps).map(|(found, _)| found)
}

/// [`count_solutions`] with the first solution found (row-major; empty when none).
pub(crate) fn solve_counting(
    n: usize,
    cages: &[Cage],
    limit: usize,
    steps: &mut u64,
) -> Option<(usize, Vec<u8>)> {
    struct Search<'a> {
        n: usize,
        cages: &'a [Cage],
        tuples: Vec<Vec<Vec<u8>>>,
        rows: Vec<u16>,
        cols: Vec<u16>,
        done: Vec<bool>,
        found: usize,
        limit: usize,
        grid: Vec<u8>,
        first: Vec<u8>,
    }
    impl Search<'_> {
        fn fits(&self, cage: usize, tuple: &[u8]) -> bool {
            let n = self.n;
            self.cages[cage]
                .cells
                .iter()
                .zip(tuple)
                .all(|(&c, &v)| (self.rows[c / n] | self.cols[c % n]) & (1 << v) == 0)
        }
        fn set(&mut self, cage: usize, tuple: &[u8]) {
            let n = self.n;
            for (&c, &v) in self.cages[cage].cells.iter().zip(tuple) {
                self.rows[c / n] ^= 1 << v;
                self.cols[c % n] ^= 1 << v;
                self.grid[c] = v;
            }
        }
        fn go(&mut self, steps: &mut u64) -> Option<()> {
            *steps = steps.checked_sub(1)?;
            let mut best: Option<(usize, usize)> = None;
            for cage in (0..self.cages.len()).filter(|&k| !self.done[k]) {
                let cap = best.map_or(usize::MAX, |b| b.1);
                let mut count = 0;
                for tuple in &self.tuples[cage] {
                    if self.fits(cage, tuple) {
                        count += 1;
                        if count >= cap {
                            break;
                        }
                    }
                }
                if count == 0 {
                    return Some(());
                }
                if count < cap {
                    best = Some((cage, count));
                }
            }
            let Some((cage, _)) = best else {
                if self.found == 0 {
                    self.first.clone_from(&self.grid);
                }
                self.found += 1;
                return Some(());
            };
            self.done[cage] = true;
            let options: Vec<Vec<u8>> = self.tuples[cage]
                .iter()
                .filter(|t| self.fits(cage, t))
                .cloned()
                .collect();
            for tuple in options {
                self.set(cage, &tuple);
                let result = self.go(steps);
                self.set(cage, &tuple);
                result?;
                if self.found >= self.limit {
                    break;
                }
            }
            self.done[cage] = false;
            Some(())
        }
    }
    let mut search = Search {
        n,
        cages,
        tuples: cages.iter().map(|c| cage_tuples(n, c)).collect(),
        rows: vec![0; n],
        cols: vec![0; n],
        done: vec![false; cages.len()],
        found: 0,
        limit,
        grid: vec![0; n * n],
        first: Vec::new(),
    };
    search.go(steps)?;
    Some((search.found, search.first))
}

/// Solver steps for a draw's uniqueness check.
const MAX_STEPS: u64 = 4_000;

/// Cage labels: `A..=Z`, then `a..=z` (49 cells need at most 49).
pub(crate) fn label(i: usize) -> char {
    if i < 26 {
        (b'A' + i as u8) as char
    } else {
        (b'a' + (i - 26) as u8) as char
    }
}

pub struct KenKen;

pub type KenKenEnv = SingleTurn<KenKen>;

impl KenKen {
    fn carve(n: usize, max_cage: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
        let mut owner = vec![usize::MAX; n * n];
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        let mut cages: Vec<Vec<usize>> = Vec::new();
        for start in order {
            if owner[start] != usize::MAX {
                continue;
            }
            let id = cages.len();
            let size = rng.range_usize(2, max_cage);
            let mut cells = vec![start];
            owner[start] = id;
            while cells.len() < size {
                let mut frontier: Vec<usize> = cells
                    .iter()
                    .flat_map(|&c| {
                        let (r, col) = (c / n, c % n);
                        [
                            (r > 0).then(|| c - n),
                            (r + 1 < n).then(|| c + n),
                            (col > 0).then(|| c - 1),
                            (col + 1 < n).then(|| c + 1),
                        ]
                    })
                    .flatten()
                    .filter(|&o| owner[o] == usize::MAX)
                    .collect();
                frontier.sort_unstable();
                frontier.dedup();
                let Some(&next) = rng.choose(&frontier) else {
                    break;
                };
                owner[next] = id;
                cells.push(next);
            }
            cells.sort_unstable();
            cages.push(cells);
        }
        // Labelled in reading order of their first cells.
        cages.sort_unstable();
        cages
    }

    fn operation(values: &[u8], rng: &mut Rng) -> (Op, u32) {
        let v: Vec<u32> = values.iter().map(|&x| u32::from(x)).collect();
        let sum = v.iter().sum();
        let product = v.iter().product();
        match v.as_slice() {
            [a] => (Op::Given, *a),
            [a, b] => {
                let (hi, lo) = ((*a).max(*b), (*a).min(*b));
                if hi % lo == 0 && rng.chance(0.5) {
                    return (Op::Div, hi / lo);
                }
                match rng.range_usize(0, 2) {
                    0 => (Op::Sub, hi - lo),
                    1 => (Op::Add, sum),
                    _ => (Op::Mul, product),
                }
            }
            _ if rng.chance(0.5) => (Op::Add, sum),
            _ => (Op::Mul, product),
        }
    }

    fn draw(config: &KenKenConfig, rng: &mut Rng) -> Option<KenKenTask> {
        let n = config.n;
        let mut blank = LatinSolver::new(n, None);
        blank.load(&vec![0; n * n]);
        let solution = blank.random_solution(rng)?;
        let cages: Vec<Cage> = Self::carve(n, config.max_cage, rng)
            .into_iter()
            .map(|cells| {
                let values: Vec<u8> = cells.iter().map(|&c| solution[c]).collect();
                let (op, target) = Self::operation(&values, rng);
                Cage { cells, op, target }
            })
            .collect();
        let mut steps = MAX_STEPS;
        (count_solutions(n, &cages, 2, &mut steps)? == 1).then_some(KenKenTask {
            n,
            cages,
            solution,
        })
    }

    pub(crate) fn map_rows(task: &KenKenTask) -> Vec<String> {
        let n = task.n;
        let mut owner = vec![0; n * n];
        for (i, cage) in task.cages.iter().enumerate() {
            for &c in &cage.cells {
                owner[c] = i;
            }
        }
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| label(owner[r * n + c]).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn cage_lines(task: &KenKenTask) -> Vec<String> {
        let n = task.n;
        task.cages
            .iter()
            .enumerate()
            .map(|(i, cage)| {
                let cells: Vec<String> = cage
                    .cells
                    .iter()
                    .map(|&c| format!("r{}c{}", c / n + 1, c % n + 1))
                    .collect();
                format!(
                    "{}: {}{} ({})",
                    label(i),
                    cage.target,
                    cage.op.symbol(),
                    cells.join(" ")
                )
            })
            .collect()
    }
}

impl Question for KenKen {
    type Config = KenKenConfig;
    type Task = KenKenTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/kenken-v1",
        kind: EnvKind::SingleTurn,
        description: "KenKen: fill a latin square so every cage's digits give its target with its operation (+ - x /); unique solution",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"n":4,"max_cage":2}"#,
        r#"{"n":4}"#,
        r#"{"n":5,"max_cage":2}"#,
        "{}",
        r#"{"n":6}"#,
        r#"{"n":6,"max_cage":4}"#,
        r#"{"n":7,"max_cage":4}"#,
    ];

    /// Cells times the mean cage size.
    fn effort(task: &KenKenTask) -> Option<f64> {
        let cells = (task.n * task.n) as f64;
        Some(cells * cells / task.cages.len() as f64)
    }

    fn validate(config: &KenKenConfig) -> Result<(), ConfigError> {
        if !(4..=7).contains(&config.n) {
            return Err("n must be in 4..=7".into());
        }
        if !(2..=4).contains(&config.max_cage) {
            return Err("max_cage must be in 2..=4".into());
        }
        Ok(())
    }

    fn generate(config: &KenKenConfig, rng: &mut Rng) -> KenKenTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &KenKenConfig, rng: &mut Rng) -> Result<KenKenTask, NoTask> {
        draw_until(
            2000,
            || Self::draw(config, rng),
            || "no cage layout in 2000 draws had a unique solution; lower n or max_cage".into(),
        )
    }

    fn prompt(task: &KenKenTask) -> String {
        let n = task.n;
        format!(
            "KenKen: fill this {n}x{n} grid with the digits 1-{n} so that every row and every column holds each \
             digit exactly once. The grid is split into cages (the cells sharing a letter in the map). Each \
             cage's digits must give its target with its operation: + the sum, x the product, - the difference \
             of its two cells (larger minus smaller), / the quotient of its two cells (larger divided by \
             smaller); a cage with no operation is one cell holding its target. Digits may repeat within a cage \
             when they are in different rows and columns. The solution is unique.\n\nCage map:\n{}\n\nCages \
             (target, operation, cells as row/column):\n{}\n\nAnswer with the filled grid: {n} lines of {n} \
             digits separated by spaces, inside \\boxed{{}}.",
            Self::map_rows(task).join("\n"),
            Self::cage_lines(task).join("\n")
        )
    }

    fn structured(task: &KenKenTask) -> Value {
        let cages: Vec<Value> = task
            .cages
            .iter()
            .enumerate()
            .map(|(i, c)| {
                json!({
                    "label": label(i).to_string(),
                    "cells": c.cells,
                    "op": c.op.symbol(),
                    "target": c.target,
                })
            })
            .collect();
        json!({ "n": task.n, "map": Self::map_rows(task), "cages": cages })
    }

    fn reference(task: &KenKenTask) -> String {
        task.solution
            .chunks(task.n)
            .map(|row| row.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &KenKenTask, answer: &str) -> Result<bool, CheckError> {
        let grid = parse_grid(answer, task.n, task.n, task.n as u8).map_err(|e| e.to_string())?;
        Ok(follows_rules(task.n, &task.cages, &grid))
    }
}

#[cfg(test)]
#[path = "kenken_tests.rs"]
mod tests;
