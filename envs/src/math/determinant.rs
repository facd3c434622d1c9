//! `math/determinant-v1`: exact determinants of matrices with fraction entries.
//!
//! # Task
//! "Let A = … (a 2×2 to 7×7 matrix whose entries are integers and fractions
//! such as `-\frac{3}{4}`). Compute det(A)." The answer is an exact rational.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one exact number (an
//! integer, a fraction, or a decimal that is exactly the value).
//!
//! # Observation
//! The matrix in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the determinant exactly (the
//! oracle is fraction-exact Gaussian elimination), else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `size` (2–7), `max_entry` (2–20, the largest numerator), `max_denominator`
//! (1–12), `fractions` (share of fraction entries, 0–1).
//!
//! # Seeding
//! Determinants 0, ±1 and 2 and determinants written in the matrix are
//! redrawn, and so are determinants longer than 80 characters.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::{latex_rational, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeterminantConfig {
    pub size: usize,
    pub max_entry: i64,
    pub max_denominator: i64,
    pub fractions: f64,
}

impl Default for DeterminantConfig {
    fn default() -> Self {
        DeterminantConfig {
            size: 4,
            max_entry: 6,
            max_denominator: 4,
            fractions: 0.3,
        }
    }
}

pub struct DeterminantFamily;
pub type Determinant = MathEnv<DeterminantFamily>;

/// A matrix of exact rationals, by rows.
pub type QMat = Vec<Vec<BigRational>>;

pub fn latex_qmatrix(m: &QMat) -> String {
    let rows: Vec<String> = m
        .iter()
        .map(|r| r.iter().map(latex_rational).collect::<Vec<_>>().join(" & "))
        .collect();
    format!(
        "\\begin{{pmatrix}} {} \\end{{pmatrix}}",
        rows.join(" \\\\ ")
    )
}

/// A random `rows × cols` matrix: integers in `-k..=k`, and with
/// probability `fractions` a fraction `p/q` (`q` in `2..=max_den`) instead.
pub fn random_qmatrix(
    rng: &mut Rng,
    rows: usize,
    cols: usize,
    k: i64,
    max_den: i64,
    fractions: f64,
) -> QMat {
    (0..rows)
        .map(|_| {
            (0..cols)
                .map(|_| {
                    let d = if max_den >= 2 && rng.chance(fractions) {
                        rng.range_i64(2, max_den)
                    } else {
                        1
                    };
                    rat(rng.range_i64(-k, k), d)
                })
                .collect()
        })
        .collect()
}

/// Gaussian elimination with exact fractions: the row echelon form of `m`
/// with `extra` columns carried along (reduced to the identity on the left
/// when `reduce`), and the determinant of the square left part.
fn eliminate(mut m: QMat, reduce: bool) -> (QMat, BigRational) {
    let n = m.len();
    let mut det = BigRational::one();
    for col in 0..n {
        let Some(pivot) = (col..n).find(|&r| !m[r][col].is_zero()) else {
            return (m, BigRational::zero());
        };
        if pivot != col {
            m.swap(pivot, col);
            det = -det;
        }
        let p = m[col][col].clone();
        det *= &p;
        if reduce {
            for x in m[col].iter_mut() {
                *x /= &p;
            }
        }
        for r in 0..n {
            if r == col || (!reduce && r < col) || m[r][col].is_zero() {
                continue;
            }
            let f = &m[r][col] / &m[col][col];
            let pivot_row = m[col].clone();
            for (x, y) in m[r].iter_mut().zip(&pivot_row) {
                *x -= &f * y;
            }
        }
    }
    (m, det)
}

/// The determinant by fraction-exact elimination.
pub fn det(m: &QMat) -> BigRational {
    eliminate(m.clone(), false).1
}

/// The inverse by Gauss–Jordan elimination on `[A | I]`, `None` if singular.
pub fn inverse(m: &QMat) -> Option<QMat> {
    let n = m.len();
    let augmented: QMat = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| {
                if i == j {
                    BigRational::one()
                } else {
                    BigRational::zero()
                }
            }));
            r
        })
        .collect();
    let (done, d) = eliminate(augmented, true);
    (!d.is_zero()).then(|| done.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// Digit multiplications of fraction elimination on the `pmatrix` in
/// `question`: about `n³/3` entry updates, each a fraction product and
/// difference costing the square of the mean entry length.
pub fn elimination_effort(question: &str, cube: f64) -> Option<f64> {
    let body = question
        .split("\\begin{pmatrix}")
        .nth(1)?
        .split("\\end{pmatrix}")
        .next()?;
    let n = body.split("\\\\").count() as f64;
    let numbers = effort::integers_in(body);
    if numbers.is_empty() {
        return None;
    }
    let digits = numbers
        .iter()
        .map(|x| x.unsigned_abs().to_string().len() as f64)
        .sum::<f64>()
        / n
        / n;
    Some(cube * n * n * n * digits * digits)
}

impl Family for DeterminantFamily {
    type Config = DeterminantConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/determinant-v1",
        kind: EnvKind::SingleTurn,
        description: "Exact determinant of a 2x2 to 7x7 matrix with fraction entries; answer an exact rational",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: the size grows from 2 to 7, with
    /// more and larger fractions.
    const LEVELS: &'static [&'static str] = &[
        r#"{"size":2,"max_entry":5,"max_denominator":3}"#,
        r#"{"size":3,"max_entry":5,"max_denominator":3}"#,
        r#"{"size":3,"max_entry":9,"max_denominator":5,"fractions":0.4}"#,
        "{}",
        r#"{"size":5,"max_entry":6,"max_denominator":4,"fractions":0.3}"#,
        r#"{"size":6,"max_entry":6,"max_denominator":5,"fractions":0.25}"#,
        r#"{"size":7,"max_entry":9,"max_denominator":5,"fractions":0.25}"#,
    ];

    /// See [`elimination_effort`].
    fn effort(task: &MathTask) -> Option<f64> {
        elimination_effort(&task.question, 1.0 / 3.0)
    }

    fn validate(config: &DeterminantConfig) -> Result<(), ConfigError> {
        if !(2..=7).contains(&config.size) {
            return Err("size must be in 2..=7".into());
        }
        if !(2..=20).contains(&config.max_entry) {
            return Err("max_entry must be in 2..=20".into());
        }
        if !(1..=12).contains(&config.max_denominator) {
            return Err("max_denominator must be in 1..=12".into());
        }
        if !(0.0..=1.0).contains(&config.fractions) {
            return Err("fractions must be in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &DeterminantConfig, rng: &mut Rng) -> Option<MathTask> {
        let n = config.size;
        let a = random_qmatrix(
            rng,
            n,
            n,
            config.max_entry,
            config.max_denominator,
            config.fractions,
        );
        let answer = latex_rational(&det(&a));
        if answer.len() > 80 {
            return None;
        }
        Some(MathTask {
            question: format!(
                "Let $A = {}$. Compute the determinant $\\det(A)$ exactly. Give a single integer or a fraction in lowest terms.",
                latex_qmatrix(&a)
            ),
            answer,
            form: Form::Number,
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
        for preset in DeterminantFamily::SPEC.presets {
            let config: DeterminantConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<DeterminantFamily>(&config, 300);
            testing::attacks_fail::<DeterminantFamily>(&tasks[0]);
        }
    }

    /// The Leibniz formula: a sum over all permutations.
    fn leibniz(m: &QMat) -> BigRational {
        fn perms(n: usize) -> Vec<Vec<usize>> {
            if n == 0 {
                return vec![vec![]];
            }
            let mut out = Vec::new();
            for p in perms(n - 1) {
                for i in 0..n {
                    let mut q = p.clone();
                    q.insert(i, n - 1);
                    out.push(q);
                }
            }
            out
        }
        perms(m.len())
            .into_iter()
            .map(|p| {
                let inversions = (0..p.len())
                    .flat_map(|i| (i + 1..p.len()).map(move |j| (i, j)))
                    .filter(|&(i, j)| p[i] > p[j])
                    .count();
                let term = p
                    .iter()
                    .enumerate()
                    .fold(BigRational::one(), |acc, (r, &c)| acc * &m[r][c]);
                if inversions % 2 == 0 { term } else { -term }
            })
            .fold(BigRational::zero(), |a, b| a + b)
    }

    #[test]
    fn elimination_agrees_with_the_leibniz_formula() {
        let mut rng = Rng::from_seed(8);
        for _ in 0..300 {
            let n = rng.range_usize(1, 5);
            let mut m = random_qmatrix(&mut rng, n, n, 4, 5, 0.4);
            if rng.chance(0.2) && n > 1 {
                m[1] = m[0].clone(); // singular
            }
            assert_eq!(det(&m), leibniz(&m), "{m:?}");
        }
    }

    #[test]
    fn exact_answers_pass_and_close_ones_fail() {
        let a = vec![vec![rat(1, 2), rat(1, 3)], vec![rat(2, 1), rat(3, 4)]];
        assert_eq!(det(&a), rat(-7, 24));
        let task = MathTask {
            question: format!("Let $A = {}$. Compute det(A).", latex_qmatrix(&a)),
            answer: "-\\frac{7}{24}".into(),
            form: Form::Number,
        };
        for good in [
            "\\boxed{-\\frac{7}{24}}",
            "\\boxed{\\frac{-14}{48}}",
            "\\boxed{-7/24}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{-0.2917}",
            "\\boxed{\\frac{7}{24}}",
            "\\boxed{\\frac{1}{2} \\cdot \\frac{3}{4} - \\frac{1}{3} \\cdot 2}",
            "\\boxed{-\\frac{7}{24}} \\boxed{0}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
