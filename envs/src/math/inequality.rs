//! `math/inequality-v1`: solve a linear or quadratic inequality; answer an interval.
//!
//! # Task
//! "Solve 3x - 5 < 7x + 3" (a ray) or "Solve x^{2} - x - 6 \ge 0" (a union of
//! two rays, or a bounded interval), in interval notation.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds an interval or a union of
//! intervals, with the right closedness: `(-2, \infty)`,
//! `(-\infty, -2] \cup [3, \infty)`.
//!
//! # Observation
//! The inequality and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed set equals the solution set (endpoints
//! exact, closedness matching), else 0. Breakdown: `correct`, `format` (1 for
//! interval notation).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_coefficient` (2–20), `quadratic` (share of quadratic tasks, 0–1).
//!
//! # Seeding
//! Degenerate inequalities (no x term) are redrawn; quadratic ones have two
//! distinct rational roots.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{latex_poly_i, latex_rational, nonzero, poly_mul, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InequalityConfig {
    pub max_coefficient: i64,
    pub quadratic: f64,
}

impl Default for InequalityConfig {
    fn default() -> Self {
        InequalityConfig {
            max_coefficient: 9,
            quadratic: 0.4,
        }
    }
}

pub struct InequalityFamily;
pub type Inequality = MathEnv<InequalityFamily>;

/// (LaTeX symbol, strict, "less than" direction).
const RELATIONS: [(&str, bool, bool); 4] = [
    ("<", true, true),
    ("\\le", false, true),
    (">", true, false),
    ("\\ge", false, false),
];

fn ray(end: &str, closed: bool, below: bool) -> String {
    if below {
        format!("(-\\infty, {end}{}", if closed { "]" } else { ")" })
    } else {
        format!("{}{end}, \\infty)", if closed { "[" } else { "(" })
    }
}

impl Family for InequalityFamily {
    type Config = InequalityConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/inequality-v1",
        kind: EnvKind::SingleTurn,
        description: "Solve a linear or quadratic inequality; answer in interval notation",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `max_coefficient` 3 → 20 and the share of quadratic inequalities (`quadratic`, 0 → 1) grow.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_coefficient":3,"quadratic":0.0}"#,
        r#"{"max_coefficient":6,"quadratic":0.0}"#,
        r#"{"max_coefficient":9,"quadratic":0.2}"#,
        "{}",
        r#"{"max_coefficient":12,"quadratic":0.55}"#,
        r#"{"max_coefficient":15,"quadratic":0.7}"#,
        r#"{"max_coefficient":20,"quadratic":1.0}"#,
    ];

    fn validate(config: &InequalityConfig) -> Result<(), ConfigError> {
        if !(2..=20).contains(&config.max_coefficient) || !(0.0..=1.0).contains(&config.quadratic) {
            return Err("need max_coefficient 2..=20 and quadratic in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &InequalityConfig, rng: &mut Rng) -> Option<MathTask> {
        let k = config.max_coefficient;
        let &(symbol, strict, less) = rng.choose(&RELATIONS)?;
        let (text, answer) = if rng.chance(config.quadratic) {
            // (d1 x - n1)(d2 x - n2) REL 0 with leading coefficient d1 d2 > 0.
            let (d1, d2) = (rng.range_i64(1, 3), rng.range_i64(1, 2));
            let (n1, n2) = (rng.range_i64(-k, k), rng.range_i64(-k, k));
            let (r1, r2) = (rat(n1, d1), rat(n2, d2));
            if r1 == r2 {
                return None;
            }
            let (lo, hi) = if r1 < r2 { (r1, r2) } else { (r2, r1) };
            let (lo, hi) = (latex_rational(&lo), latex_rational(&hi));
            let poly = poly_mul(&[-n1, d1], &[-n2, d2]);
            let answer = if less {
                let (l, r) = if strict { ("(", ")") } else { ("[", "]") };
                format!("{l}{lo}, {hi}{r}")
            } else {
                format!(
                    "{} \\cup {}",
                    ray(&lo, !strict, true),
                    ray(&hi, !strict, false)
                )
            };
            (format!("{} {symbol} 0", latex_poly_i(&poly, "x")), answer)
        } else {
            let (a, c) = (nonzero(rng, k), nonzero(rng, k));
            if a == c {
                return None;
            }
            let (b, d) = (rng.range_i64(-3 * k, 3 * k), rng.range_i64(-3 * k, 3 * k));
            // (a - c) x REL d - b; dividing by a negative number flips the direction.
            let end = latex_rational(&rat(d - b, a - c));
            let below = less == (a - c > 0);
            (
                format!(
                    "{} {symbol} {}",
                    latex_poly_i(&[b, a], "x"),
                    latex_poly_i(&[d, c], "x")
                ),
                ray(&end, !strict, below),
            )
        };
        Some(MathTask {
            question: format!(
                "Solve the inequality\n\n    ${text}$\n\nfor real $x$. Give the solution set in interval notation, for example (-\\infty, 3] or (-\\infty, -1) \\cup [2, \\infty)."
            ),
            answer,
            form: Form::Interval,
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
        for preset in InequalityFamily::SPEC.presets {
            let config: InequalityConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<InequalityFamily>(&config, 1000);
            testing::attacks_fail::<InequalityFamily>(&tasks[0]);
        }
    }

    #[test]
    fn closedness_and_direction_matter() {
        let task = MathTask {
            question: "Solve $x^{2} - x - 6 \\ge 0$.".into(),
            answer: "(-\\infty, -2] \\cup [3, \\infty)".into(),
            form: Form::Interval,
        };
        for good in [
            "\\boxed{(-\\infty, -2] \\cup [3, \\infty)}",
            "\\boxed{[3, \\infty) \\cup (-\\infty, -2]}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{(-\\infty, -2) \\cup (3, \\infty)}",
            "\\boxed{[-2, 3]}",
            "\\boxed{x^{2} - x - 6 \\ge 0}",
            "\\boxed{-2, 3}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
        let linear = MathTask {
            question: "Solve $3x - 5 < 7x + 3$.".into(),
            answer: ray("-2", false, false),
            form: Form::Interval,
        };
        assert_eq!(linear.answer, "(-2, \\infty)");
        assert!(check(&linear, "\\boxed{(-2, \\infty)}").0);
        assert!(!check(&linear, "\\boxed{(-\\infty, -2)}").0);
    }
}
