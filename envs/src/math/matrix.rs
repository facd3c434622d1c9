//! `math/matrix-v1`: matrix products and determinants of small integer matrices.
//!
//! # Task
//! Either "Compute AB" for an m×k and a k×n integer matrix (answer a matrix)
//! or "Compute det(A)" for a 2×2 to 4×4 integer matrix (answer an integer).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds a `pmatrix`/`bmatrix` of
//! numbers (products) or one integer (determinants).
//!
//! # Observation
//! The matrices in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed matrix equals the product element-wise (same
//! shape), or the boxed integer is the determinant, else 0. The factors
//! themselves in the box fail (a matrix of numbers is required). Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_size` (2–4), `max_entry` (2–20), `determinant` (share of
//! determinant tasks, 0–1).
//!
//! # Seeding
//! Determinants 0, ±1 and 2 are redrawn; a product that equals a factor is
//! redrawn too.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatrixConfig {
    pub max_size: usize,
    pub max_entry: i64,
    pub determinant: f64,
}

impl Default for MatrixConfig {
    fn default() -> Self {
        MatrixConfig {
            max_size: 3,
            max_entry: 6,
            determinant: 0.5,
        }
    }
}

pub struct MatrixFamily;
pub type Matrix = MathEnv<MatrixFamily>;

type Mat = Vec<Vec<i64>>;

pub fn latex_matrix(m: &Mat) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|r| {
            r.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    format!(
        "\\begin{{pmatrix}} {} \\end{{pmatrix}}",
        rows.join(" \\\\ ")
    )
}

pub fn product(a: &Mat, b: &Mat) -> Mat {
    a.iter()
        .map(|row| {
            (0..b[0].len())
                .map(|j| row.iter().zip(b).map(|(x, r)| x * r[j]).sum())
                .collect()
        })
        .collect()
}

/// Determinant by cofactor expansion (sizes up to 4).
pub fn determinant(m: &Mat) -> BigInt {
    if m.len() == 1 {
        return BigInt::from(m[0][0]);
    }
    (0..m.len())
        .map(|j| {
            let minor: Mat = m[1..]
                .iter()
                .map(|r| {
                    r.iter()
                        .enumerate()
                        .filter(|(c, _)| *c != j)
                        .map(|(_, &x)| x)
                        .collect()
                })
                .collect();
            let sign = if j % 2 == 0 { 1 } else { -1 };
            BigInt::from(sign * m[0][j]) * determinant(&minor)
        })
        .sum()
}

fn random(rng: &mut Rng, rows: usize, cols: usize, k: i64) -> Mat {
    (0..rows)
        .map(|_| (0..cols).map(|_| rng.range_i64(-k, k)).collect())
        .collect()
}

impl Family for MatrixFamily {
    type Config = MatrixConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/matrix-v1",
        kind: EnvKind::SingleTurn,
        description: "Product of two integer matrices (answer a matrix) or a determinant (answer an integer)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 1, 3]),
    };

    /// Difficulty levels, easiest first: `max_size` 2 → 4 and `max_entry` 5 → 20 grow.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_size":2,"max_entry":5}"#,
        "{}",
        r#"{"max_size":3,"max_entry":12}"#,
        r#"{"max_size":4,"max_entry":9}"#,
        r#"{"max_size":4,"max_entry":20}"#,
    ];

    /// Digit multiplications: `m·k·n` entry products for a product, the
    /// cofactor expansion's `n·(M(n-1) + 1)` for a determinant, each costing
    /// the square of the mean entry length.
    fn effort(task: &MathTask) -> Option<f64> {
        let matrices: Vec<Vec<Vec<i64>>> = task
            .question
            .split("\\begin{pmatrix}")
            .skip(1)
            .map(|m| {
                let body = m.split("\\end{pmatrix}").next().unwrap_or("");
                body.split("\\\\").map(effort::integers_in).collect()
            })
            .collect();
        let entries: Vec<i64> = matrices
            .iter()
            .take(2)
            .flatten()
            .flatten()
            .copied()
            .collect();
        if entries.is_empty() {
            return None;
        }
        let mean_digits = entries
            .iter()
            .map(|x| x.unsigned_abs().to_string().len() as f64)
            .sum::<f64>()
            / entries.len() as f64;
        // A product question ends with an example matrix; only A and B count.
        let multiplications = match matrices.as_slice() {
            [a, ..] if task.question.contains("determinant") => {
                (2..=a.len()).fold(0.0, |m, n| n as f64 * (m + 1.0))
            }
            [a, b, ..] => (a.len() * b.len() * b.first()?.len()) as f64,
            _ => return None,
        };
        Some(multiplications * mean_digits * mean_digits)
    }

    fn validate(config: &MatrixConfig) -> Result<(), ConfigError> {
        if !(2..=4).contains(&config.max_size)
            || !(2..=20).contains(&config.max_entry)
            || !(0.0..=1.0).contains(&config.determinant)
        {
            return Err("need max_size 2..=4, max_entry 2..=20, determinant in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &MatrixConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_entry;
        if rng.chance(config.determinant) {
            let n = rng.range_usize(2, config.max_size);
            let a = random(rng, n, n, k);
            return Some(MathTask {
                question: format!(
                    "Let $A = {}$. Compute the determinant $\\det(A)$. Give a single integer.",
                    latex_matrix(&a)
                ),
                answer: determinant(&a).to_string(),
                form: Form::Number,
            });
        }
        let (m, inner, n) = (
            rng.range_usize(1, config.max_size),
            rng.range_usize(2, config.max_size),
            rng.range_usize(1, config.max_size),
        );
        if m * n == 1 {
            return None;
        }
        let (a, b) = (random(rng, m, inner, k), random(rng, inner, n, k));
        let c = product(&a, &b);
        if c == a || c == b || c.iter().flatten().all(|&x| x == 0) {
            return None;
        }
        Some(MathTask {
            question: format!(
                "Let $A = {}$ and $B = {}$. Compute the matrix product $AB$. Give the result as a matrix, e.g. \\begin{{pmatrix}} 1 & 2 \\\\ 3 & 4 \\end{{pmatrix}}.",
                latex_matrix(&a),
                latex_matrix(&b)
            ),
            answer: latex_matrix(&c),
            form: Form::Matrix,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in MatrixFamily::SPEC.presets {
            let config: MatrixConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<MatrixFamily>(&config, 1000);
            testing::attacks_fail::<MatrixFamily>(&tasks[0]);
        }
    }

    #[test]
    fn products_and_determinants_are_right() {
        let (a, b) = (vec![vec![1, 2], vec![3, 4]], vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(product(&a, &b), vec![vec![2, 1], vec![4, 3]]);
        assert_eq!(determinant(&a), BigInt::from(-2));
        assert_eq!(
            determinant(&vec![vec![2, 0, 0], vec![0, 3, 0], vec![1, 1, 4]]),
            BigInt::from(24)
        );
        let task = MathTask {
            question: format!(
                "Let $A = {}$ and $B = {}$. Compute $AB$.",
                latex_matrix(&a),
                latex_matrix(&b)
            ),
            answer: latex_matrix(&product(&a, &b)),
            form: Form::Matrix,
        };
        for good in [
            "\\boxed{\\begin{pmatrix} 2 & 1 \\\\ 4 & 3 \\end{pmatrix}}",
            "\\boxed{\\begin{bmatrix}2&1\\\\4&3\\end{bmatrix}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}\\begin{pmatrix} 0 & 1 \\\\ 1 & 0 \\end{pmatrix}}",
            "\\boxed{\\begin{pmatrix} 2 & 4 \\\\ 1 & 3 \\end{pmatrix}}",
            "\\boxed{\\begin{pmatrix} 2 & 1 & 4 & 3 \\end{pmatrix}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
