//! `math/definite-integral-v1`: the exact value of a definite integral of a polynomial.
//!
//! # Task
//! "Evaluate \int_{-1}^{2} (3x^{2} - 4x + 1)\,dx." The value is an exact rational.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number (integer,
//! fraction or exact decimal).
//!
//! # Observation
//! The integral and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the integral exactly, else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `degree` (2–6), `max_coefficient` (2–20), `max_bound` (1–10; bounds are
//! integers in `-max_bound..=max_bound`), `fractional_bounds` (bounds may be halves).
//!
//! # Seeding
//! Values 0, ±1, 2, or written in the question, are regenerated.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{int, latex_poly_i, latex_rational, nonzero, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DefiniteIntegralConfig {
    pub degree: usize,
    pub max_coefficient: i64,
    pub max_bound: i64,
    pub fractional_bounds: bool,
}

impl Default for DefiniteIntegralConfig {
    fn default() -> Self {
        DefiniteIntegralConfig {
            degree: 3,
            max_coefficient: 9,
            max_bound: 4,
            fractional_bounds: false,
        }
    }
}

pub struct DefiniteIntegralFamily;
pub type DefiniteIntegral = MathEnv<DefiniteIntegralFamily>;

/// `∫_lo^hi p(x) dx`, coefficients lowest first.
pub fn integrate(p: &[i64], lo: &BigRational, hi: &BigRational) -> BigRational {
    let antiderivative = |x: &BigRational| {
        p.iter()
            .enumerate()
            .fold(BigRational::zero(), |acc, (k, &c)| {
                acc + rat(c, k as i64 + 1) * num_traits::pow(x.clone(), k + 1)
            })
    };
    antiderivative(hi) - antiderivative(lo)
}

fn bound(config: &DefiniteIntegralConfig, rng: &mut Rng) -> BigRational {
    if config.fractional_bounds && rng.chance(0.5) {
        rat(
            rng.range_i64(-2 * config.max_bound, 2 * config.max_bound),
            2,
        )
    } else {
        int(rng.range_i64(-config.max_bound, config.max_bound))
    }
}

impl Family for DefiniteIntegralFamily {
    type Config = DefiniteIntegralConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/definite-integral-v1",
        kind: EnvKind::SingleTurn,
        description: "Exact definite integral of a polynomial over rational bounds; answer one number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };

    /// Difficulty levels, easiest first: `degree` 2 → 6, `max_coefficient` 3 → 20 and `max_bound` 2 → 8 grow together; `fractional_bounds` from `hard` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"degree":2,"max_coefficient":3,"max_bound":2}"#,
        r#"{"degree":2,"max_coefficient":6,"max_bound":3}"#,
        "{}",
        r#"{"degree":4,"max_coefficient":12,"max_bound":5}"#,
        r#"{"degree":5,"max_coefficient":12,"max_bound":5,"fractional_bounds":true}"#,
        r#"{"degree":6,"max_coefficient":20,"max_bound":8,"fractional_bounds":true}"#,
    ];

    fn validate(config: &DefiniteIntegralConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.degree)
            || !(2..=20).contains(&config.max_coefficient)
            || !(1..=10).contains(&config.max_bound)
        {
            return Err("need degree 2..=6, max_coefficient 2..=20, max_bound 1..=10".into());
        }
        Ok(())
    }

    fn draw(config: &DefiniteIntegralConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let mut p: Vec<i64> = (0..config.degree).map(|_| rng.range_i64(-k, k)).collect();
        p.push(nonzero(rng, k));
        let (lo, hi) = (bound(config, rng), bound(config, rng));
        if lo >= hi {
            return None;
        }
        let value = integrate(&p, &lo, &hi);
        Some(MathTask {
            question: format!(
                "Evaluate the definite integral\n\n    $\\int_{{{}}}^{{{}}} \\left({}\\right)\\,dx$\n\nGive the exact value as an integer or a fraction in lowest terms.",
                latex_rational(&lo),
                latex_rational(&hi),
                latex_poly_i(&p, "x")
            ),
            answer: latex_rational(&value),
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
        for preset in DefiniteIntegralFamily::SPEC.presets {
            let config: DefiniteIntegralConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<DefiniteIntegralFamily>(&config, 1000);
            testing::attacks_fail::<DefiniteIntegralFamily>(&tasks[0]);
        }
    }

    #[test]
    fn values_are_exact() {
        // ∫_{-1}^{2} (3x^2 - 4x + 1) dx = [x^3 - 2x^2 + x] = 2 - (-4) = 6.
        assert_eq!(integrate(&[1, -4, 3], &int(-1), &int(2)), int(6));
        // ∫_0^{1/2} x dx = 1/8.
        assert_eq!(integrate(&[0, 1], &int(0), &rat(1, 2)), rat(1, 8));
        let task = MathTask {
            question: "Evaluate $\\int_{0}^{1} (x^{2} + x)\\,dx$.".into(),
            answer: "\\frac{5}{6}".into(),
            form: Form::Number,
        };
        for good in ["\\boxed{\\frac{5}{6}}", "\\boxed{10/12}"] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{0.83}",
            "\\boxed{\\int_{0}^{1} (x^{2} + x)\\,dx}",
            "\\boxed{\\frac{1}{3} + \\frac{1}{2}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
