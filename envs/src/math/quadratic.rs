//! `math/quadratic-roots-v1`: all real roots of a quadratic, exactly.
//!
//! # Task
//! "Find all real roots of 2x^{2} - 3x - 7 = 0." Roots are integers or
//! fractions on easier presets and may be irrational (exact radicals) on
//! harder ones; every task has two distinct real roots.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds both roots separated by a
//! comma, in any order, exactly: `\frac{3 + \sqrt{65}}{4}, \frac{3 - \sqrt{65}}{4}`
//! (`\pm` inside a fraction is not read as two values by the verifier).
//!
//! # Observation
//! The equation and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed values are exactly the two roots as a set
//! (radicals compared to 1e-40 relative), else 0. One root alone, a decimal
//! approximation or an extra value fails. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_coefficient` (2–30), `irrational` (share of tasks with irrational
//! roots, 0–1), `monic` (leading coefficient 1).
//!
//! # Seeding
//! Double roots and non-real roots are redrawn.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::gcd_lcm::gcd;
use super::latex::{latex_poly_i, latex_rational, nonzero, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QuadraticConfig {
    pub max_coefficient: i64,
    pub irrational: f64,
    pub monic: bool,
}

impl Default for QuadraticConfig {
    fn default() -> Self {
        QuadraticConfig {
            max_coefficient: 9,
            irrational: 0.5,
            monic: false,
        }
    }
}

pub struct QuadraticFamily;
pub type Quadratic = MathEnv<QuadraticFamily>;

/// `(s, r)` with `n = s^2 r` and `r` square-free.
fn split_square(n: i64) -> (i64, i64) {
    let (mut s, mut r) = (1, n);
    let mut d = 2;
    while d * d <= r {
        while r % (d * d) == 0 {
            r /= d * d;
            s *= d;
        }
        d += 1;
    }
    (s, r)
}

/// The roots `(-b ± sqrt(disc)) / 2a` for a non-square positive `disc`.
fn radical_roots(a: i64, b: i64, disc: i64) -> String {
    let (s, r) = split_square(disc);
    let (mut p, mut s, mut q) = (-b, s, 2 * a);
    if q < 0 {
        p = -p;
        q = -q;
    }
    let g = gcd(gcd(p, s), q);
    (p, s, q) = (p / g, s / g, q / g);
    let surd = if s == 1 {
        format!("\\sqrt{{{r}}}")
    } else {
        format!("{s}\\sqrt{{{r}}}")
    };
    let root = |op: &str| {
        let top = if p == 0 {
            if op == "+" {
                surd.clone()
            } else {
                format!("-{surd}")
            }
        } else {
            format!("{p} {op} {surd}")
        };
        if q == 1 {
            top
        } else {
            format!("\\frac{{{top}}}{{{q}}}")
        }
    };
    format!("{}, {}", root("+"), root("-"))
}

impl Family for QuadraticFamily {
    type Config = QuadraticConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/quadratic-roots-v1",
        kind: EnvKind::SingleTurn,
        description: "Both real roots of a quadratic, exact (fractions or radicals); answer a set",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `max_coefficient` 5 → 30 and the share of irrational roots (`irrational`, 0 → 1) grow; non-monic equations from level 2.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_coefficient":5,"irrational":0.0,"monic":true}"#,
        r#"{"max_coefficient":9,"irrational":0.0,"monic":true}"#,
        r#"{"max_coefficient":9,"irrational":0.0}"#,
        "{}",
        r#"{"max_coefficient":15,"irrational":0.65}"#,
        r#"{"max_coefficient":25,"irrational":0.8}"#,
        r#"{"max_coefficient":30,"irrational":1.0}"#,
    ];

    fn validate(config: &QuadraticConfig) -> Result<(), ConfigError> {
        if !(2..=30).contains(&config.max_coefficient) {
            return Err("max_coefficient must be 2..=30".into());
        }
        if !(0.0..=1.0).contains(&config.irrational) {
            return Err("irrational must be in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &QuadraticConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let (coeffs, answer) = if rng.chance(config.irrational) {
            let a = if config.monic {
                1
            } else {
                nonzero(rng, k.min(9))
            };
            let (b, c) = (rng.range_i64(-k, k), nonzero(rng, k * 3));
            let disc = b * b - 4 * a * c;
            let root = (disc.max(0) as f64).sqrt() as i64;
            if disc <= 0 || (root - 1..=root + 1).any(|t| t * t == disc) {
                return None;
            }
            ([c, b, a], radical_roots(a, b, disc))
        } else {
            // a (d1 x - n1)(d2 x - n2) with roots n1/d1, n2/d2.
            let (d1, d2) = if config.monic {
                (1, 1)
            } else {
                (rng.range_i64(1, 4), rng.range_i64(1, 3))
            };
            let (n1, n2) = (rng.range_i64(-k, k), rng.range_i64(-k, k));
            if n1 * d2 == n2 * d1 || gcd(n1, d1) != 1 || gcd(n2, d2) != 1 {
                return None;
            }
            let coeffs = [n1 * n2, -(d1 * n2 + d2 * n1), d1 * d2];
            let roots = format!(
                "{}, {}",
                latex_rational(&rat(n1, d1)),
                latex_rational(&rat(n2, d2))
            );
            (coeffs, roots)
        };
        Some(MathTask {
            question: format!(
                "Find all real roots of\n\n    ${} = 0$\n\nGive both roots exactly (integers, fractions or simplified radicals, no decimals), separated by a comma.",
                latex_poly_i(&coeffs, "x")
            ),
            answer: answer.clone(),
            form: Form::Values,
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
        for preset in QuadraticFamily::SPEC.presets {
            let config: QuadraticConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<QuadraticFamily>(&config, 1000);
            testing::attacks_fail::<QuadraticFamily>(&tasks[0]);
        }
    }

    #[test]
    fn roots_are_a_set_in_any_exact_form() {
        assert_eq!(split_square(72), (6, 2));
        assert_eq!(
            radical_roots(2, -3, 65),
            "\\frac{3 + \\sqrt{65}}{4}, \\frac{3 - \\sqrt{65}}{4}"
        );
        assert_eq!(radical_roots(1, 0, -4 * -8), "2\\sqrt{2}, -2\\sqrt{2}");
        let task = MathTask {
            question: "Find all real roots of $2x^{2} - 3x - 7 = 0$.".into(),
            answer: radical_roots(2, -3, 65),
            form: Form::Values,
        };
        for good in [
            "\\boxed{\\frac{3 - \\sqrt{65}}{4}, \\frac{3 + \\sqrt{65}}{4}}",
            "\\boxed{\\left\\{\\frac{3}{4} + \\frac{\\sqrt{65}}{4}, \\frac{3}{4} - \\frac{\\sqrt{65}}{4}\\right\\}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{\\frac{3 + \\sqrt{65}}{4}}",
            "\\boxed{2.765564, -1.265564}",
            "\\boxed{2x^{2} - 3x - 7 = 0}",
            "\\boxed{\\frac{3 + \\sqrt{65}}{4}, \\frac{3 - \\sqrt{65}}{4}, 0}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
