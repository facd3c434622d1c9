//! `math/linear-equation-v1`: solve one linear equation in one unknown.
//!
//! # Task
//! "Solve for x: 3(x - 4) + 5 = -2x + 7." The solution is an exact rational.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the value (`\frac{14}{5}`,
//! `2.8`) or `x = \frac{14}{5}`.
//!
//! # Observation
//! The equation and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed value is the solution, else 0. Breakdown:
//! `correct`, `format`. The equation itself in the box fails (not a number).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_coefficient` (2–99), `fractional` (solutions may be non-integers),
//! `brackets` (a bracketed term on the left).
//!
//! # Seeding
//! Solutions 0, ±1, 2, or written in the question, are regenerated.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{latex_poly_i, latex_rational, nonzero, rat, signed};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinearEquationConfig {
    pub max_coefficient: i64,
    pub fractional: bool,
    pub brackets: bool,
}

impl Default for LinearEquationConfig {
    fn default() -> Self {
        LinearEquationConfig {
            max_coefficient: 12,
            fractional: true,
            brackets: false,
        }
    }
}

pub struct LinearEquationFamily;
pub type LinearEquation = MathEnv<LinearEquationFamily>;

impl Family for LinearEquationFamily {
    type Config = LinearEquationConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/linear-equation-v1",
        kind: EnvKind::SingleTurn,
        description: "Solve a linear equation in x exactly; answer one number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `max_coefficient` 4 → 60; fractional solutions (`fractional`) from `medium` on, bracketed sides (`brackets`) from level 4.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_coefficient":4,"fractional":false}"#,
        r#"{"max_coefficient":9,"fractional":false}"#,
        r#"{"max_coefficient":12,"fractional":false}"#,
        "{}",
        r#"{"max_coefficient":20,"brackets":true}"#,
        r#"{"max_coefficient":30,"brackets":true}"#,
        r#"{"max_coefficient":60,"brackets":true}"#,
    ];

    fn validate(config: &LinearEquationConfig) -> Result<(), ConfigError> {
        if !(2..=99).contains(&config.max_coefficient) {
            return Err("max_coefficient must be 2..=99".into());
        }
        Ok(())
    }

    fn draw(config: &LinearEquationConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        // Left: p(x + q) + b, or a x + b; right: c x + d. Effective left slope a.
        let (p, q) = (nonzero(rng, k.min(9)), nonzero(rng, k));
        let a = if config.brackets { p } else { nonzero(rng, k) };
        let c = nonzero(rng, k);
        if a == c {
            return None;
        }
        let b = rng.range_i64(-k * 3, k * 3);
        // (a - c) x = d - b - (bracket constant): choose the solution's numerator.
        let n = if config.fractional {
            rng.range_i64(-k * 20, k * 20)
        } else {
            (a - c) * rng.range_i64(-k * 10, k * 10)
        };
        let offset = if config.brackets { p * q } else { 0 };
        let d = n + b + offset;
        let left = if config.brackets {
            format!(
                "{}(x {}) {}",
                if p == -1 {
                    "-".into()
                } else if p == 1 {
                    String::new()
                } else {
                    p.to_string()
                },
                signed(q),
                signed(b)
            )
        } else {
            latex_poly_i(&[b, a], "x")
        };
        let right = latex_poly_i(&[d, c], "x");
        Some(MathTask {
            question: format!(
                "Solve for $x$:\n\n    ${left} = {right}$\n\nGive the exact value of $x$ as an integer or a fraction in lowest terms."
            ),
            answer: latex_rational(&rat(n, a - c)),
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
        for preset in LinearEquationFamily::SPEC.presets {
            let config: LinearEquationConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<LinearEquationFamily>(&config, 1000);
            testing::attacks_fail::<LinearEquationFamily>(&tasks[0]);
        }
    }

    #[test]
    fn solutions_satisfy_the_equation_as_the_verifier_reads_it() {
        // The verifier equates equations up to a constant factor: `x = answer`
        // must be the question's equation rearranged.
        let mut rng = Rng::from_seed(3);
        for preset in LinearEquationFamily::SPEC.presets {
            let config: LinearEquationConfig = serde_json::from_str(preset.overrides).unwrap();
            for _ in 0..100 {
                let task =
                    crate::math::question::generate_with::<LinearEquationFamily>(&config, &mut rng);
                let eq = task.question.split('$').nth(3).unwrap();
                let gold = format!("$x = {}$", task.answer);
                let verdict =
                    verigym_verifiers::math::verify(&gold, &format!("${eq}$"), &Default::default());
                assert!(verdict.equivalent, "{eq} vs {gold}: {verdict:?}");
            }
        }
        let task = MathTask {
            question: "Solve for $x$: $5x - 4 = 10$".into(),
            answer: "\\frac{14}{5}".into(),
            form: Form::Number,
        };
        for good in [
            "\\boxed{2.8}",
            "\\boxed{x = \\frac{14}{5}}",
            "\\boxed{14/5}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{5x - 4 = 10}",
            "\\boxed{2.9}",
            "\\boxed{x = 2.8 \\text{ or } x = 3}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
