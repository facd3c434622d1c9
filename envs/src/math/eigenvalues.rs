//! `math/eigenvalues-v1`: the eigenvalues of an integer matrix, with multiplicity.
//!
//! # Task
//! "Find all eigenvalues of $A = \begin{pmatrix} … \end{pmatrix}$, each
//! listed as many times as its algebraic multiplicity." The 2×2 to 5×5
//! integer matrix is `P T P^{-1}` for a unimodular integer `P` (a product of
//! elementary row operations) and an upper-triangular integer `T` whose
//! diagonal holds the integer eigenvalues (so `A` need not be
//! diagonalisable).
//!
//! # Action
//! One free-text answer; the graded answer is the one the shared final-answer
//! rule of [`crate::single_turn`] reads (the last `\boxed{…}`, else the last
//! final-answer statement): a list of numbers separated by commas,
//! semicolons, "and" or spaces, optionally in braces, brackets or
//! parentheses, each optionally written `\lambda = 3`.
//!
//! # Observation
//! The matrix in LaTeX and the answer format; structured: `{"matrix": …}`.
//!
//! # Reward
//! 1 and `passed` when the listed values equal the eigenvalues as a
//! multiset (any order; a repeated eigenvalue must be listed as often as its
//! multiplicity, and no value may be listed extra), else 0. An item that is
//! not a number makes the answer unreadable (`format` 0). Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_size` / `max_size` (2–5), `max_eigenvalue` (3–20, eigenvalues in
//! `-max..=max`), `repeat` (chance that an eigenvalue repeats, 0–1),
//! `mix` (elementary operations in `P`, 1–12), `max_entry` (10–500, the
//! largest entry of `A` in size; larger matrices are redrawn).
//!
//! # Seeding
//! Matrices that are triangular, whose diagonal already lists the
//! eigenvalues, whose eigenvalues all lie in {-1, 0, 1, 2}, or whose entries
//! exceed `max_entry` are redrawn (bounded; the error names `max_entry` and
//! `mix` to relax).
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::math::{Expr, parse_expr};

use super::matrix::{latex_matrix, product};
use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EigenvaluesConfig {
    pub min_size: usize,
    pub max_size: usize,
    pub max_eigenvalue: i64,
    pub repeat: f64,
    pub mix: usize,
    pub max_entry: i64,
}

impl Default for EigenvaluesConfig {
    fn default() -> Self {
        EigenvaluesConfig {
            min_size: 3,
            max_size: 3,
            max_eigenvalue: 10,
            repeat: 0.3,
            mix: 4,
            max_entry: 50,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EigenvaluesTask {
    pub matrix: Vec<Vec<i64>>,
    /// Sorted ascending, with multiplicity.
    pub eigenvalues: Vec<i64>,
}

pub struct Eigenvalues;
pub type EigenvaluesEnv = SingleTurn<Eigenvalues>;

type Mat = Vec<Vec<i64>>;

/// `P` and `P^{-1}` from `ops` row operations `row_i += c row_j`.
pub fn unimodular(rng: &mut Rng, n: usize, ops: usize) -> (Mat, Mat) {
    let identity: Mat = (0..n)
        .map(|i| (0..n).map(|j| i64::from(i == j)).collect())
        .collect();
    let (mut p, mut inv) = (identity.clone(), identity);
    for _ in 0..ops {
        let i = rng.range_usize(0, n - 1);
        let j = (i + rng.range_usize(1, n - 1)) % n;
        let c = *rng.choose(&[-2, -1, 1, 2]).expect("non-empty");
        // P <- E P with E = I + c e_i e_j^T; P^{-1} <- P^{-1} E^{-1}.
        let source = p[j].clone();
        for (target, x) in p[i].iter_mut().zip(&source) {
            *target += c * x;
        }
        for row in inv.iter_mut() {
            row[j] -= c * row[i];
        }
    }
    (p, inv)
}

/// The characteristic polynomial's roots check: `det(A - λI) = 0` for every
/// listed `λ` is not enough for multiplicities, so the tests compare
/// `det(A - tI)` with `Π (λ_i - t)` at several `t` instead.
pub fn char_poly_at(a: &Mat, t: i64) -> num_bigint::BigInt {
    let shifted: Mat = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.iter()
                .enumerate()
                .map(|(j, &x)| if i == j { x - t } else { x })
                .collect()
        })
        .collect();
    super::matrix::determinant(&shifted)
}

fn draw(config: &EigenvaluesConfig, rng: &mut Rng) -> Option<EigenvaluesTask> {
    let n = rng.range_usize(config.min_size, config.max_size);
    let k = config.max_eigenvalue;
    let mut values: Vec<i64> = Vec::new();
    for _ in 0..n {
        match values.last() {
            Some(&v) if rng.chance(config.repeat) => values.push(v),
            _ => values.push(rng.range_i64(-k, k)),
        }
    }
    rng.shuffle(&mut values);
    let t: Mat = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| match j.cmp(&i) {
                    std::cmp::Ordering::Equal => values[i],
                    std::cmp::Ordering::Greater => rng.range_i64(-2, 2),
                    std::cmp::Ordering::Less => 0,
                })
                .collect()
        })
        .collect();
    let (p, inv) = unimodular(rng, n, config.mix);
    let a = product(&product(&p, &t), &inv);
    values.sort_unstable();
    let triangular = |upper: bool| {
        (0..n).all(|i| (0..n).all(|j| if upper { j >= i } else { j <= i } || a[i][j] == 0))
    };
    let mut diagonal: Vec<i64> = (0..n).map(|i| a[i][i]).collect();
    diagonal.sort_unstable();
    if triangular(true)
        || triangular(false)
        || diagonal == values
        || values.iter().all(|v| (-1..=2).contains(v))
        || a.iter().flatten().any(|x| x.abs() > config.max_entry)
    {
        return None;
    }
    Some(EigenvaluesTask {
        matrix: a,
        eigenvalues: values,
    })
}

/// An item's value, if it is a plain (possibly signed or fractional) number.
fn number(e: &Expr) -> Option<num_rational::BigRational> {
    match e {
        Expr::Num { value, .. } => Some(value.clone()),
        Expr::Neg(a) => Some(-number(a)?),
        Expr::Div(a, b) => {
            let d = number(b)?;
            (d != num_traits::Zero::zero()).then(|| number(a).map(|x| x / d))?
        }
        _ => None,
    }
}

/// Reads a list of numbers; `Err` names the item that is not one.
pub fn read_values(answer: &str) -> Result<Vec<num_rational::BigRational>, String> {
    let mut text = answer.trim().to_string();
    for (from, to) in [
        ("\\left", ""),
        ("\\right", ""),
        ("\\{", ""),
        ("\\}", ""),
        ("\\text{ and }", ","),
        ("\\text{and}", ","),
        (" and ", ","),
        (";", ","),
    ] {
        text = text.replace(from, to);
    }
    let text = text.trim();
    let inner = [('(', ')'), ('[', ']'), ('{', '}')]
        .iter()
        .find_map(|&(o, c)| text.strip_prefix(o).and_then(|t| t.strip_suffix(c)))
        .unwrap_or(text);
    let mut out = Vec::new();
    for item in inner.split(',') {
        // `\lambda_1 = 3`: the value after the last `=`.
        let item = item.rsplit('=').next().unwrap_or(item).trim();
        if item.is_empty() {
            return Err("an empty item in the list".into());
        }
        match parse_expr(item).ok().as_ref().and_then(number) {
            Some(v) => out.push(v),
            None => {
                // `2 3 3`: numbers separated by spaces.
                let parts: Option<Vec<_>> = item
                    .split_whitespace()
                    .map(|t| parse_expr(t).ok().as_ref().and_then(number))
                    .collect();
                match parts {
                    Some(vs) if vs.len() > 1 => out.extend(vs),
                    _ => return Err(format!("{item:?} is not a number")),
                }
            }
        }
    }
    Ok(out)
}

impl Question for Eigenvalues {
    type Config = EigenvaluesConfig;
    type Task = EigenvaluesTask;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/eigenvalues-v1",
        kind: EnvKind::SingleTurn,
        description: "All eigenvalues of an integer matrix with integer eigenvalues, with multiplicity; checked as a multiset",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: 2×2 matrices, then 3×3 (the
    /// default), then 4×4 and 5×5 with larger eigenvalues and more mixing.
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_size":2,"max_size":2,"max_eigenvalue":6,"mix":2,"max_entry":20}"#,
        r#"{"min_size":2,"max_size":3,"max_eigenvalue":8,"mix":3,"max_entry":30}"#,
        r#"{"min_size":3,"max_size":3,"max_eigenvalue":8,"mix":3,"max_entry":30}"#,
        "{}",
        r#"{"min_size":3,"max_size":4,"max_eigenvalue":12,"mix":5,"max_entry":80}"#,
        r#"{"min_size":4,"max_size":4,"max_eigenvalue":15,"mix":6,"max_entry":150}"#,
        r#"{"min_size":4,"max_size":5,"max_eigenvalue":20,"mix":8,"max_entry":400}"#,
    ];

    /// Digit multiplications of expanding `det(A - λI)`: about `n^3`
    /// products, each costing the square of the mean entry length.
    fn effort(task: &EigenvaluesTask) -> Option<f64> {
        let entries: Vec<&i64> = task.matrix.iter().flatten().collect();
        let mean = entries
            .iter()
            .map(|x| x.unsigned_abs().to_string().len() as f64)
            .sum::<f64>()
            / entries.len().max(1) as f64;
        Some((task.matrix.len() as f64).powi(3) * mean * mean)
    }

    fn validate(config: &EigenvaluesConfig) -> Result<(), ConfigError> {
        if !(2..=5).contains(&config.min_size) || !(config.min_size..=5).contains(&config.max_size)
        {
            return Err("need 2 <= min_size <= max_size <= 5".into());
        }
        if !(3..=20).contains(&config.max_eigenvalue) {
            return Err("max_eigenvalue must be in 3..=20".into());
        }
        if !(0.0..=1.0).contains(&config.repeat) {
            return Err("repeat must be in 0..=1".into());
        }
        if !(1..=12).contains(&config.mix) {
            return Err("mix must be in 1..=12".into());
        }
        if !(10..=500).contains(&config.max_entry) {
            return Err("max_entry must be in 10..=500".into());
        }
        Ok(())
    }

    fn generate(config: &EigenvaluesConfig, rng: &mut Rng) -> EigenvaluesTask {
        Self::try_generate(config, rng).expect("a matrix within the entry bound")
    }

    fn try_generate(config: &EigenvaluesConfig, rng: &mut Rng) -> Result<EigenvaluesTask, NoTask> {
        draw_until(
            10_000,
            || draw(config, rng),
            || {
                format!(
                    "no matrix with entries within max_entry {} in 10000 draws: raise max_entry or lower mix ({})",
                    config.max_entry, config.mix
                )
            },
        )
    }

    fn prompt(task: &EigenvaluesTask) -> String {
        format!(
            "Find all eigenvalues of the matrix $A = {}$. List each eigenvalue as many times as its algebraic multiplicity, separated by commas, e.g. \\boxed{{-1, 4, 4}}.",
            latex_matrix(&task.matrix)
        )
    }

    fn structured(task: &EigenvaluesTask) -> Value {
        json!({ "matrix": task.matrix })
    }

    fn reference(task: &EigenvaluesTask) -> String {
        task.eigenvalues
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check(task: &EigenvaluesTask, answer: &str) -> Result<bool, CheckError> {
        let mut got = read_values(answer)?;
        got.sort();
        let want: Vec<num_rational::BigRational> = task
            .eigenvalues
            .iter()
            .map(|&v| super::latex::int(v))
            .collect();
        Ok(got == want)
    }
}

#[cfg(test)]
#[path = "eigenvalues_tests.rs"]
mod tests;
