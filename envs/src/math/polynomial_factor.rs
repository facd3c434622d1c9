//! `math/polynomial-factor-v1`: factor a polynomial completely over the rationals.
//!
//! # Task
//! "Factor completely: 2x^{3} - 2x^{2} - 12x." Every task splits into linear
//! factors with integer coefficients, times a constant.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds a product of factors of
//! degree at most one (powers allowed): `2x(x - 3)(x + 2)`, `(2x-6)(x+2)x`.
//!
//! # Observation
//! The polynomial and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed expression is a product of constant and
//! linear factors and equals the polynomial, else 0. The expanded
//! polynomial itself (not factored) fails. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `degree` (2–4), `max_root` (2–12), `leading` (non-monic linear factors
//! such as `2x - 3` and a constant factor may appear).
//!
//! # Seeding
//! Roots are drawn so that the polynomial has at least two distinct factors.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::gcd_lcm::gcd;
use super::latex::{latex_poly_i, linear_factor, poly_mul};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PolynomialFactorConfig {
    pub degree: usize,
    pub max_root: i64,
    pub leading: bool,
}

impl Default for PolynomialFactorConfig {
    fn default() -> Self {
        PolynomialFactorConfig {
            degree: 3,
            max_root: 7,
            leading: false,
        }
    }
}

pub struct PolynomialFactorFamily;
pub type PolynomialFactor = MathEnv<PolynomialFactorFamily>;

impl Family for PolynomialFactorFamily {
    type Config = PolynomialFactorConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/polynomial-factor-v1",
        kind: EnvKind::SingleTurn,
        description: "Factor a polynomial into linear factors; any fully factored equal form passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 5]),
    };

    /// Difficulty levels, easiest first: `degree` 2 → 4 and `max_root` 4 → 12 grow; a leading constant factor (`leading`) from `hard` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"degree":2,"max_root":4}"#,
        r#"{"degree":2,"max_root":9}"#,
        "{}",
        r#"{"degree":3,"max_root":9}"#,
        r#"{"degree":4,"max_root":9}"#,
        r#"{"degree":4,"max_root":9,"leading":true}"#,
        r#"{"degree":4,"max_root":12,"leading":true}"#,
    ];

    fn validate(config: &PolynomialFactorConfig) -> Result<(), ConfigError> {
        if !(2..=4).contains(&config.degree) || !(2..=12).contains(&config.max_root) {
            return Err("need degree 2..=4 and max_root 2..=12".into());
        }
        Ok(())
    }

    fn draw(config: &PolynomialFactorConfig, rng: &mut Rng) -> Option<MathTask> {
        let constant = if config.leading && rng.chance(0.4) {
            rng.range_i64(2, 5) * if rng.chance(0.3) { -1 } else { 1 }
        } else {
            1
        };
        let mut poly = vec![constant];
        let mut factors: Vec<(i64, i64)> = Vec::new();
        for _ in 0..config.degree {
            let a = if config.leading && rng.chance(0.4) {
                rng.range_i64(2, 3)
            } else {
                1
            };
            let b = rng.range_i64(-config.max_root, config.max_root);
            if gcd(a, b) != 1 {
                return None;
            }
            poly = poly_mul(&poly, &[b, a]);
            factors.push((a, b));
        }
        factors.sort_unstable();
        factors.dedup();
        if factors.len() < 2 {
            return None;
        }
        // Written as c * product of (a x + b), repeated factors as powers.
        let mut sorted: Vec<(i64, i64)> = Vec::new();
        let mut all: Vec<(i64, i64)> = Vec::new();
        let mut rest = poly.clone();
        for &(a, b) in &factors {
            // Multiplicity by synthetic division of the exact product.
            while let Some(q) = divide(&rest, a, b) {
                all.push((a, b));
                rest = q;
            }
            sorted.push((a, b));
        }
        let mut answer = match constant {
            1 => String::new(),
            -1 => "-".into(),
            c => c.to_string(),
        };
        for &(a, b) in &sorted {
            let k = all.iter().filter(|&&f| f == (a, b)).count();
            let text = if b == 0 && a == 1 {
                "x".to_string()
            } else {
                linear_factor(a, b, "x")
            };
            answer.push_str(&text);
            if k > 1 {
                answer.push_str(&format!("^{{{k}}}"));
            }
        }
        Some(MathTask {
            question: format!(
                "Factor completely over the rationals:\n\n    ${}$\n\nGive the result as a product of linear factors (and a constant, if any).",
                latex_poly_i(&poly, "x")
            ),
            answer,
            form: Form::Factored,
        })
    }
}

/// `p / (a x + b)` when it divides exactly.
fn divide(p: &[i64], a: i64, b: i64) -> Option<Vec<i64>> {
    if p.len() < 2 {
        return None;
    }
    let n = p.len() - 1;
    let mut q = vec![0i64; n];
    let mut rem = p.to_vec();
    for i in (0..n).rev() {
        if rem[i + 1] % a != 0 {
            return None;
        }
        q[i] = rem[i + 1] / a;
        rem[i + 1] -= q[i] * a;
        rem[i] -= q[i] * b;
    }
    (rem.iter().all(|&r| r == 0)).then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in PolynomialFactorFamily::SPEC.presets {
            let config: PolynomialFactorConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<PolynomialFactorFamily>(&config, 1000);
            testing::attacks_fail::<PolynomialFactorFamily>(&tasks[0]);
        }
    }

    #[test]
    fn any_factored_form_passes_and_the_expansion_fails() {
        assert_eq!(divide(&[-6, -1, 1], 1, 2), Some(vec![-3, 1]));
        assert_eq!(divide(&[-6, -1, 1], 1, 1), None);
        let task = MathTask {
            question: "Factor $2x^{3} - 2x^{2} - 12x$.".into(),
            answer: "2x(x - 3)(x + 2)".into(),
            form: Form::Factored,
        };
        for good in [
            "\\boxed{2x(x-3)(x+2)}",
            "\\boxed{(x+2) \\cdot (2x - 6) \\cdot x}",
            "\\boxed{-2x(3-x)(x+2)}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{2x^{3} - 2x^{2} - 12x}",
            "\\boxed{2x(x^2 - x - 6)}",
            "\\boxed{2x(x+3)(x-2)}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
