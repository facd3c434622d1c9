//! `math/polynomial-expand-v1`: expand a product of polynomials.
//!
//! # Task
//! "Expand (2x - 3)(x + 4)^{2}." The answer is a polynomial in `x`.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the expanded polynomial,
//! terms in any order and any equivalent way of writing coefficients.
//!
//! # Observation
//! The product and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed expression is expanded (no product or power
//! of a sum) and equals the product as a polynomial (seeded evaluation at
//! random rational points), else 0. The unexpanded product fails, since it
//! is not expanded. Breakdown: `correct`, `format` (1 when expanded).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `factors` (2–4 linear or quadratic factors), `max_coefficient` (2–20),
//! `powers` (allow a squared or cubed factor).
//!
//! # Seeding
//! Products equal to a single factor are impossible (every factor has degree ≥ 1).
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::{latex_poly_i, nonzero, poly_mul};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PolynomialExpandConfig {
    pub factors: usize,
    pub max_coefficient: i64,
    pub powers: bool,
}

impl Default for PolynomialExpandConfig {
    fn default() -> Self {
        PolynomialExpandConfig {
            factors: 2,
            max_coefficient: 7,
            powers: true,
        }
    }
}

pub struct PolynomialExpandFamily;
pub type PolynomialExpand = MathEnv<PolynomialExpandFamily>;

impl Family for PolynomialExpandFamily {
    type Config = PolynomialExpandConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/polynomial-expand-v1",
        kind: EnvKind::SingleTurn,
        description: "Expand a product of polynomials; any expanded form equal to the product passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `factors` 2 → 4 and `max_coefficient` 3 → 12 grow; powers of factors from `medium` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"factors":2,"max_coefficient":3,"powers":false}"#,
        r#"{"factors":2,"max_coefficient":5,"powers":false}"#,
        r#"{"factors":2,"max_coefficient":7,"powers":false}"#,
        "{}",
        r#"{"factors":3,"max_coefficient":7}"#,
        r#"{"factors":3,"max_coefficient":9}"#,
        r#"{"factors":4,"max_coefficient":12}"#,
    ];

    /// Digit multiplications of multiplying the factors out term by term,
    /// plus one addition per term when collecting like terms.
    fn effort(task: &MathTask) -> Option<f64> {
        let expansion = effort::expansion_of(effort::math_spans(&task.question).first()?)?;
        Some(expansion.work + expansion.term_digits.len() as f64)
    }

    fn validate(config: &PolynomialExpandConfig) -> Result<(), ConfigError> {
        if !(2..=4).contains(&config.factors) || !(2..=20).contains(&config.max_coefficient) {
            return Err("need factors 2..=4 and max_coefficient 2..=20".into());
        }
        Ok(())
    }

    fn draw(config: &PolynomialExpandConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let mut product = vec![1i64];
        let mut text = String::new();
        for i in 0..config.factors {
            let quadratic = i > 0 && rng.chance(0.25);
            let mut factor: Vec<i64> = if quadratic {
                vec![rng.range_i64(-k, k), rng.range_i64(-k, k), nonzero(rng, 3)]
            } else {
                vec![nonzero(rng, k), nonzero(rng, k.min(5))]
            };
            if factor[0] == 0 && factor.len() == 2 {
                factor[0] = 1;
            }
            let power = if config.powers && rng.chance(0.3) {
                rng.range_i64(2, 3 - quadratic as i64)
            } else {
                1
            };
            for _ in 0..power {
                product = poly_mul(&product, &factor);
            }
            let base = format!("({})", latex_poly_i(&factor, "x"));
            text.push_str(&if power > 1 {
                format!("{base}^{{{power}}}")
            } else {
                base
            });
        }
        Some(MathTask {
            question: format!(
                "Expand and simplify\n\n    ${text}$\n\nGive the result as a polynomial in $x$ with no parentheses."
            ),
            answer: latex_poly_i(&product, "x"),
            form: Form::Expanded,
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
        for preset in PolynomialExpandFamily::SPEC.presets {
            let config: PolynomialExpandConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<PolynomialExpandFamily>(&config, 1000);
            testing::attacks_fail::<PolynomialExpandFamily>(&tasks[0]);
        }
    }

    #[test]
    fn any_expanded_form_passes_and_the_product_fails() {
        let task = MathTask {
            question: "Expand $(2x - 3)(x + 4)$.".into(),
            answer: latex_poly_i(&poly_mul(&[-3, 2], &[4, 1]), "x"),
            form: Form::Expanded,
        };
        assert_eq!(task.answer, "2x^{2} + 5x - 12");
        for good in [
            "\\boxed{-12 + 5x + 2x^2}",
            "\\boxed{2 \\cdot x^{2} + 5 x - 12}",
            "\\boxed{2x^2+8x-3x-12}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{(2x - 3)(x + 4)}",
            "\\boxed{2x^2 + 5x + 12}",
            "\\boxed{2x^2 + 5x - 12 = 0}",
            "\\boxed{2x^2 + 5x - 12, 0}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
