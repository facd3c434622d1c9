//! `math/derivative-v1`: differentiate a polynomial (or a product or power of polynomials).
//!
//! # Task
//! "Find f'(x) for f(x) = (3x^{2} - 1)(2x + 5)." Easier presets give a
//! polynomial in expanded form, harder ones products and powers.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds `f'(x)` in any equivalent
//! polynomial form (expanded, factored, product-rule shape).
//!
//! # Observation
//! The function and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed expression is a polynomial equal to the
//! derivative (seeded evaluation at random rational points), else 0.
//! Breakdown: `correct`, `format` (1 for a polynomial expression).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `degree` (highest degree of a part, 2–6), `max_coefficient` (2–20),
//! `products` (f is a product or power of two polynomials).
//!
//! # Seeding
//! Derivatives that are constants are impossible (degree ≥ 2); the derivative
//! never appears verbatim in the question.
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
pub struct DerivativeConfig {
    pub degree: usize,
    pub max_coefficient: i64,
    pub products: bool,
}

impl Default for DerivativeConfig {
    fn default() -> Self {
        DerivativeConfig {
            degree: 4,
            max_coefficient: 9,
            products: false,
        }
    }
}

pub struct DerivativeFamily;
pub type Derivative = MathEnv<DerivativeFamily>;

pub fn differentiate(p: &[i64]) -> Vec<i64> {
    p.iter()
        .enumerate()
        .skip(1)
        .map(|(k, c)| c * k as i64)
        .collect()
}

fn random_poly(rng: &mut Rng, degree: usize, k: i64) -> Vec<i64> {
    let mut p: Vec<i64> = (0..degree)
        .map(|_| {
            if rng.chance(0.7) {
                rng.range_i64(-k, k)
            } else {
                0
            }
        })
        .collect();
    p.push(nonzero(rng, k));
    p
}

impl Family for DerivativeFamily {
    type Config = DerivativeConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/derivative-v1",
        kind: EnvKind::SingleTurn,
        description: "Differentiate a polynomial, product or power; any equal polynomial form passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };

    /// Difficulty levels, easiest first: expanded polynomials of `degree` 2 → 6 first, then (`products`) products and powers of polynomials of degree up to 3 → 4, which must be multiplied out (or differentiated by the product rule).
    const LEVELS: &'static [&'static str] = &[
        r#"{"degree":2,"max_coefficient":5}"#,
        r#"{"degree":3,"max_coefficient":9}"#,
        "{}",
        r#"{"degree":6,"max_coefficient":12}"#,
        r#"{"degree":3,"max_coefficient":9,"products":true}"#,
        r#"{"degree":4,"max_coefficient":12,"products":true}"#,
    ];

    /// Digit multiplications of expanding `f` (none when it is already
    /// expanded) plus one multiplication by the exponent per term: why a
    /// product of two cubics is harder than a quartic although the
    /// derivatives are about as long.
    fn effort(task: &MathTask) -> Option<f64> {
        let span = effort::math_spans(&task.question).into_iter().next()?;
        let expansion = effort::expansion_of(span.split_once('=')?.1)?;
        Some(expansion.work + expansion.term_digits.iter().sum::<f64>())
    }

    fn validate(config: &DerivativeConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.degree) || !(2..=20).contains(&config.max_coefficient) {
            return Err("need degree 2..=6 and max_coefficient 2..=20".into());
        }
        Ok(())
    }

    fn draw(config: &DerivativeConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let (f, text) = if config.products {
            let da = rng.range_usize(1, config.degree);
            let a = random_poly(rng, da, k);
            if rng.chance(0.4) {
                let n = rng.range_usize(2, 4);
                let f = (0..n).fold(vec![1], |acc, _| poly_mul(&acc, &a));
                (f, format!("({})^{{{n}}}", latex_poly_i(&a, "x")))
            } else {
                let db = rng.range_usize(1, config.degree);
                let b = random_poly(rng, db, k);
                let text = format!("({})({})", latex_poly_i(&a, "x"), latex_poly_i(&b, "x"));
                (poly_mul(&a, &b), text)
            }
        } else {
            let f = random_poly(rng, config.degree, k);
            let text = latex_poly_i(&f, "x");
            (f, text)
        };
        Some(MathTask {
            question: format!(
                "Let $f(x) = {text}$. Find the derivative $f'(x)$, as a polynomial in $x$ (any equivalent form)."
            ),
            answer: latex_poly_i(&differentiate(&f), "x"),
            form: Form::Polynomial,
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
        for preset in DerivativeFamily::SPEC.presets {
            let config: DerivativeConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<DerivativeFamily>(&config, 1000);
            testing::attacks_fail::<DerivativeFamily>(&tasks[0]);
        }
    }

    #[test]
    fn equivalent_forms_pass_and_the_function_fails() {
        // f = (3x^2 - 1)(2x + 5) = 6x^3 + 15x^2 - 2x - 5, f' = 18x^2 + 30x - 2.
        let f = poly_mul(&[-1, 0, 3], &[5, 2]);
        assert_eq!(differentiate(&f), vec![-2, 30, 18]);
        let task = MathTask {
            question: "Let $f(x) = (3x^{2} - 1)(2x + 5)$. Find $f'(x)$.".into(),
            answer: latex_poly_i(&differentiate(&f), "x"),
            form: Form::Polynomial,
        };
        for good in [
            "\\boxed{18x^2 + 30x - 2}",
            "\\boxed{6x(2x+5) + 2(3x^2 - 1)}",
            "\\boxed{-2 + 18x^{2} + 30x}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{(3x^{2} - 1)(2x + 5)}",
            "\\boxed{18x^2 + 30x}",
            "\\boxed{\\frac{18x^3}{x} + 30x - 2}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
