//! `math/rational-simplify-v1`: simplify a rational expression by cancelling common factors.
//!
//! # Task
//! "Simplify (x^{3} - 2x^{2} - 5x + 6)/(x^{2} + x - 2)." The numerator and
//! denominator share factors; the simplified result is `(x - 3)` or a ratio
//! of lower-degree polynomials such as `\frac{x - 3}{x + 4}`.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the simplified expression
//! in any equivalent form (expanded or factored).
//!
//! # Observation
//! The fraction and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed expression equals the reduced fraction
//! (seeded evaluation at random points) and is in lowest terms: its
//! polynomial numerator and denominator have total degree at most that of
//! the reduced form, so the unsimplified question fails. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_root` (2–12), `kept` (linear factors left in the numerator, 1–3;
//! the numerator also carries a constant factor from ±1 to ±4),
//! `denominator_left` (leave a factor in the denominator).
//!
//! # Seeding
//! Common, kept and denominator roots are distinct, so the reduced form is unique.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{latex_poly_i, poly_mul};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RationalSimplifyConfig {
    pub max_root: i64,
    pub kept: usize,
    pub denominator_left: bool,
}

impl Default for RationalSimplifyConfig {
    fn default() -> Self {
        RationalSimplifyConfig {
            max_root: 9,
            kept: 2,
            denominator_left: false,
        }
    }
}

pub struct RationalSimplifyFamily;
pub type RationalSimplify = MathEnv<RationalSimplifyFamily>;

fn product(roots: &[i64]) -> Vec<i64> {
    roots
        .iter()
        .fold(vec![1], |acc, &r| poly_mul(&acc, &[-r, 1]))
}

impl Family for RationalSimplifyFamily {
    type Config = RationalSimplifyConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/rational-simplify-v1",
        kind: EnvKind::SingleTurn,
        description: "Simplify a rational expression by cancelling common factors; any equal reduced form passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };

    /// Difficulty levels, easiest first: factors kept after cancelling (`kept`, 1 → 3) and `max_root` 5 → 12 grow; a denominator left over (`denominator_left`) from `hard` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"kept":1,"max_root":5}"#,
        r#"{"kept":2,"max_root":7}"#,
        "{}",
        r#"{"kept":3}"#,
        r#"{"max_root":9,"kept":3,"denominator_left":true}"#,
        r#"{"max_root":12,"kept":3,"denominator_left":true}"#,
    ];

    fn validate(config: &RationalSimplifyConfig) -> Result<(), ConfigError> {
        if !(2..=12).contains(&config.max_root) || !(1..=3).contains(&config.kept) {
            return Err("need max_root 2..=12 and kept 1..=3".into());
        }
        Ok(())
    }

    fn draw(config: &RationalSimplifyConfig, rng: &mut Rng) -> Option<MathTask> {
        let m = config.max_root;
        let common = rng.range_i64(-m, m);
        let kept: Vec<i64> = (0..config.kept).map(|_| rng.range_i64(-m, m)).collect();
        let below: Vec<i64> = if config.denominator_left {
            vec![rng.range_i64(-m, m)]
        } else {
            vec![]
        };
        if kept.contains(&common)
            || below.contains(&common)
            || kept.iter().any(|k| below.contains(k))
        {
            return None;
        }
        let scale = rng.range_i64(1, 4) * if rng.chance(0.3) { -1 } else { 1 };
        let scaled = |p: Vec<i64>| p.into_iter().map(|c| c * scale).collect::<Vec<_>>();
        let top = scaled(product(&[&[common][..], &kept].concat()));
        let bottom = product(&[&[common][..], &below].concat());
        let reduced_top = latex_poly_i(&scaled(product(&kept)), "x");
        let answer = if below.is_empty() {
            reduced_top
        } else {
            format!(
                "\\frac{{{reduced_top}}}{{{}}}",
                latex_poly_i(&product(&below), "x")
            )
        };
        Some(MathTask {
            question: format!(
                "Simplify the rational expression\n\n    $\\frac{{{}}}{{{}}}$\n\nby cancelling all common factors. Give the result as a polynomial or as a fraction of two polynomials in lowest terms.",
                latex_poly_i(&top, "x"),
                latex_poly_i(&bottom, "x")
            ),
            answer,
            form: Form::Reduced {
                degree: (config.kept + below.len()) as u32,
            },
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
        for preset in RationalSimplifyFamily::SPEC.presets {
            let config: RationalSimplifyConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<RationalSimplifyFamily>(&config, 1000);
            testing::attacks_fail::<RationalSimplifyFamily>(&tasks[0]);
        }
    }

    #[test]
    fn reduced_forms_pass_and_the_unreduced_fraction_fails() {
        let task = MathTask {
            question: "Simplify $\\frac{x^{2} - x - 6}{x^{2} + 6x + 8}$.".into(),
            answer: "\\frac{x - 3}{x + 4}".into(),
            form: Form::Reduced { degree: 2 },
        };
        for good in [
            "\\boxed{\\frac{x-3}{x+4}}",
            "\\boxed{(x - 3)/(x + 4)}",
            "\\boxed{1 - \\frac{7}{x+4}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{\\frac{x^{2} - x - 6}{x^{2} + 6x + 8}}",
            "\\boxed{\\frac{(x-3)(x+2)}{(x+4)(x+2)}}",
            "\\boxed{\\frac{x+3}{x+4}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
