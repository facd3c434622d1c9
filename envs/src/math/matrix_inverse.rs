//! `math/matrix-inverse-v1`: the exact inverse of an invertible matrix.
//!
//! # Task
//! "Let A = … (a 2×2 to 5×5 matrix of integers, 4×4 at most on the
//! scale, with fraction entries at the harder levels). Compute A⁻¹." The
//! answer is a matrix of exact rationals.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds a `pmatrix`/`bmatrix` of
//! numbers (integers, fractions, or decimals that are exactly the value).
//!
//! # Observation
//! The matrix in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed matrix equals the inverse element-wise (same
//! shape; the oracle is fraction-exact Gauss–Jordan elimination), else 0. A
//! scalar times a matrix (`\frac{1}{7}\begin{pmatrix}…\end{pmatrix}`) or the
//! matrix with its `^{-1}` is not a matrix of numbers and fails. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `size` (2–5), `max_entry` (2–12), `max_denominator` (1–6), `fractions`
//! (share of fraction entries, 0–1).
//!
//! # Seeding
//! Singular matrices, matrices that are their own inverse, and inverses
//! longer than 1,200 characters of LaTeX are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::determinant::{QMat, elimination_effort, inverse, latex_qmatrix, random_qmatrix};
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatrixInverseConfig {
    pub size: usize,
    pub max_entry: i64,
    pub max_denominator: i64,
    pub fractions: f64,
}

impl Default for MatrixInverseConfig {
    fn default() -> Self {
        MatrixInverseConfig {
            size: 3,
            max_entry: 6,
            max_denominator: 1,
            fractions: 0.0,
        }
    }
}

pub struct MatrixInverseFamily;
pub type MatrixInverse = MathEnv<MatrixInverseFamily>;

/// Longest inverse written, so every answer stays well inside what the
/// verifier reads (2,000 characters).
const MAX_ANSWER: usize = 1200;

impl Family for MatrixInverseFamily {
    type Config = MatrixInverseConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/matrix-inverse-v1",
        kind: EnvKind::SingleTurn,
        description: "Exact inverse of an invertible 2x2 to 5x5 integer or fraction matrix; answer a matrix of rationals",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 4]),
    };

    /// Difficulty levels, easiest first: 2×2 integer matrices, then 3×3
    /// (`medium` is the default), then fraction entries (`hard`) and size 4.
    const LEVELS: &'static [&'static str] = &[
        r#"{"size":2,"max_entry":5}"#,
        r#"{"size":2,"max_entry":9,"max_denominator":4,"fractions":0.25}"#,
        r#"{"size":3,"max_entry":4}"#,
        "{}",
        r#"{"size":3,"max_entry":6,"max_denominator":4,"fractions":0.3}"#,
        r#"{"size":4,"max_entry":4}"#,
        r#"{"size":4,"max_entry":5,"max_denominator":3,"fractions":0.2}"#,
    ];

    /// Gauss–Jordan on `[A | I]`: about `n³` fraction updates (see
    /// [`elimination_effort`]).
    fn effort(task: &MathTask) -> Option<f64> {
        elimination_effort(&task.question, 1.0)
    }

    fn validate(config: &MatrixInverseConfig) -> Result<(), ConfigError> {
        if !(2..=5).contains(&config.size) {
            return Err("size must be in 2..=5".into());
        }
        if !(2..=12).contains(&config.max_entry) {
            return Err("max_entry must be in 2..=12".into());
        }
        if !(1..=6).contains(&config.max_denominator) {
            return Err("max_denominator must be in 1..=6".into());
        }
        if !(0.0..=1.0).contains(&config.fractions) {
            return Err("fractions must be in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &MatrixInverseConfig, rng: &mut Rng) -> Option<MathTask> {
        let n = config.size;
        let a: QMat = random_qmatrix(
            rng,
            n,
            n,
            config.max_entry,
            config.max_denominator,
            config.fractions,
        );
        let inv = inverse(&a)?;
        if inv == a {
            return None;
        }
        let answer = latex_qmatrix(&inv);
        if answer.len() > MAX_ANSWER {
            return None;
        }
        Some(MathTask {
            question: format!(
                "Let $A = {}$. Compute the inverse matrix $A^{{-1}}$ exactly. Give it as a matrix of integers and fractions in lowest terms, e.g. \\begin{{pmatrix}} 1 & \\frac{{1}}{{2}} \\\\ 0 & -3 \\end{{pmatrix}}.",
                latex_qmatrix(&a)
            ),
            answer,
            form: Form::Matrix,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::determinant::det;
    use crate::math::latex::{int, rat};
    use crate::math::question::check;
    use crate::math::testing;
    use num_rational::BigRational;
    use num_traits::{One, Zero};

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in MatrixInverseFamily::SPEC.presets {
            let config: MatrixInverseConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<MatrixInverseFamily>(&config, 300);
            testing::attacks_fail::<MatrixInverseFamily>(&tasks[0]);
        }
    }

    fn product(a: &QMat, b: &QMat) -> QMat {
        a.iter()
            .map(|row| {
                (0..b[0].len())
                    .map(|j| {
                        row.iter()
                            .zip(b)
                            .fold(BigRational::zero(), |s, (x, r)| s + x * &r[j])
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_inverse_times_the_matrix_is_the_identity() {
        let mut rng = Rng::from_seed(6);
        for _ in 0..300 {
            let n = rng.range_usize(1, 5);
            let a = random_qmatrix(&mut rng, n, n, 4, 4, 0.3);
            match inverse(&a) {
                Some(inv) => {
                    let id = product(&a, &inv);
                    for (i, row) in id.iter().enumerate() {
                        for (j, x) in row.iter().enumerate() {
                            assert_eq!(x.is_one(), i == j, "{a:?}");
                            assert!(i == j || x.is_zero());
                        }
                    }
                }
                None => assert!(det(&a).is_zero(), "{a:?}"),
            }
        }
    }

    #[test]
    fn the_hardest_config_rarely_needs_a_redraw() {
        let config = MatrixInverseConfig {
            size: 5,
            max_entry: 12,
            max_denominator: 6,
            fractions: 1.0,
        };
        let mut rng = Rng::from_seed(1);
        let drawn = (0..100)
            .filter(|_| MatrixInverseFamily::draw(&config, &mut rng).is_some())
            .count();
        assert!(drawn > 5, "{drawn} of 100");
    }

    #[test]
    fn only_the_matrix_of_numbers_passes() {
        let a = vec![vec![int(2), int(1)], vec![int(5), int(3)]];
        let inv = inverse(&a).unwrap();
        assert_eq!(inv, vec![vec![int(3), int(-1)], vec![int(-5), int(2)]]);
        let b = vec![vec![int(1), int(2)], vec![int(3), int(4)]];
        assert_eq!(
            inverse(&b).unwrap(),
            vec![vec![int(-2), int(1)], vec![rat(3, 2), rat(-1, 2)]]
        );
        let task = MathTask {
            question: format!("Let $A = {}$. Compute $A^{{-1}}$.", latex_qmatrix(&b)),
            answer: latex_qmatrix(&inverse(&b).unwrap()),
            form: Form::Matrix,
        };
        for good in [
            "\\boxed{\\begin{pmatrix} -2 & 1 \\\\ \\frac{3}{2} & -\\frac{1}{2} \\end{pmatrix}}",
            "\\boxed{\\begin{bmatrix}-2&1\\\\1.5&-0.5\\end{bmatrix}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{-\\frac{1}{2}\\begin{pmatrix} 4 & -2 \\\\ -3 & 1 \\end{pmatrix}}",
            "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}^{-1}}",
            "\\boxed{\\begin{pmatrix} -2 & \\frac{3}{2} \\\\ 1 & -\\frac{1}{2} \\end{pmatrix}}",
            "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}}",
            "\\boxed{\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
