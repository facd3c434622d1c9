//! `math/fractions-v1`: evaluate an expression of fractions and decimals exactly.
//!
//! # Task
//! A flat expression such as `\frac{3}{4} + \frac{2}{5} \times 1.5`, valued
//! with the usual precedence (× and ÷ before + and −, each left to right).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number: a fraction
//! (`-\frac{7}{3}`, `-7/3`) or an exact decimal (`2.35`).
//!
//! # Observation
//! The expression and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the value exactly, else 0.
//! Breakdown: `correct`, `format` (1 when a single boxed number was found).
//! An expression in the box (even a correct one) is not a number and fails.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_terms`/`max_terms` (2–8), `max_denominator` (2–50), `decimals`
//! (mix in one-or-two-place decimals), `operators` (subset of `+-*/`).
//!
//! # Seeding
//! Tasks valued 0, ±1 or 2, or whose value is written in the question, are
//! regenerated.
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
pub struct FractionsConfig {
    pub min_terms: usize,
    pub max_terms: usize,
    pub max_denominator: i64,
    pub decimals: bool,
    pub operators: String,
}

impl Default for FractionsConfig {
    fn default() -> Self {
        FractionsConfig {
            min_terms: 3,
            max_terms: 3,
            max_denominator: 12,
            decimals: true,
            operators: "+-*/".into(),
        }
    }
}

pub struct FractionsFamily;
pub type Fractions = MathEnv<FractionsFamily>;

/// One operand: its LaTeX and value.
fn operand(config: &FractionsConfig, rng: &mut Rng) -> (String, BigRational) {
    if config.decimals && rng.chance(0.3) {
        let hundredths = rng.range_i64(1, 999);
        let value = rat(hundredths, 100);
        let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
        let text = text.trim_end_matches('0').to_string();
        return (text, value);
    }
    let den = rng.range_i64(2, config.max_denominator);
    let num = rng.range_i64(1, 2 * den);
    if num % den == 0 {
        return (format!("{}", num / den), rat(num, den));
    }
    (format!("\\frac{{{num}}}{{{den}}}"), rat(num, den))
}

impl Family for FractionsFamily {
    type Config = FractionsConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/fractions-v1",
        kind: EnvKind::SingleTurn,
        description: "Evaluate an expression of fractions and decimals exactly; answer one number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: operands 2 → 8 (`min_terms`/`max_terms`) and `max_denominator` 6 → 50 grow; `decimals` and `* /` join at `medium`.
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_terms":2,"max_terms":2,"max_denominator":6,"decimals":false,"operators":"+-"}"#,
        r#"{"min_terms":2,"max_terms":2,"max_denominator":10,"decimals":false,"operators":"+-"}"#,
        r#"{"min_terms":3,"max_terms":3,"max_denominator":10,"decimals":false,"operators":"+-"}"#,
        "{}",
        r#"{"min_terms":3,"max_terms":4,"max_denominator":20}"#,
        r#"{"min_terms":4,"max_terms":5,"max_denominator":30}"#,
        r#"{"min_terms":6,"max_terms":8,"max_denominator":50}"#,
    ];

    /// Digit operations of evaluating the expression by hand (see
    /// [`effort::schoolbook`]): common denominators are where the work is.
    fn effort(task: &MathTask) -> Option<f64> {
        effort::schoolbook_work(effort::math_spans(&task.question).first()?)
    }

    fn validate(config: &FractionsConfig) -> Result<(), ConfigError> {
        if !(2..=8).contains(&config.min_terms)
            || !(config.min_terms..=8).contains(&config.max_terms)
        {
            return Err("need 2 <= min_terms <= max_terms <= 8".into());
        }
        if !(2..=50).contains(&config.max_denominator) {
            return Err("max_denominator must be 2..=50".into());
        }
        if config.operators.is_empty() || !config.operators.chars().all(|c| "+-*/".contains(c)) {
            return Err("operators must be a non-empty subset of \"+-*/\"".into());
        }
        Ok(())
    }

    fn draw(config: &FractionsConfig, rng: &mut Rng) -> Option<MathTask> {
        let ops: Vec<char> = config.operators.chars().collect();
        let terms = rng.range_usize(config.min_terms, config.max_terms);
        let (mut text, first) = operand(config, rng);
        let (mut sum, mut product, mut sign) = (BigRational::zero(), first, BigRational::one());
        for _ in 1..terms {
            let op = *rng.choose(&ops)?;
            let (t, v) = operand(config, rng);
            let symbol = match op {
                '+' => "+",
                '-' => "-",
                '*' => "\\times",
                _ => "\\div",
            };
            text.push_str(&format!(" {symbol} {t}"));
            match op {
                '*' => product *= v,
                '/' => product /= v,
                _ => {
                    sum += &sign * &product;
                    sign = if op == '+' {
                        BigRational::one()
                    } else {
                        -BigRational::one()
                    };
                    product = v;
                }
            }
        }
        let value = sum + sign * product;
        Some(MathTask {
            question: format!(
                "Compute the exact value of\n\n    ${text}$\n\n(usual order of operations). Give a single number: a fraction in lowest terms like \\frac{{7}}{{3}} or an exact decimal."
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
        for overrides in FractionsFamily::SPEC.presets {
            let config: FractionsConfig = serde_json::from_str(overrides.overrides).unwrap();
            let tasks = testing::references_hold::<FractionsFamily>(&config, 1000);
            testing::attacks_fail::<FractionsFamily>(&tasks[0]);
        }
    }

    #[test]
    fn alternative_forms_pass_and_expressions_fail() {
        let task = MathTask {
            question: "Compute $\\frac{3}{4} + \\frac{1}{2} \\times 1.5$.".into(),
            answer: "\\frac{3}{2}".into(),
            form: Form::Number,
        };
        for good in [
            "\\boxed{1.5}",
            "\\boxed{3/2}",
            "\\boxed{\\dfrac{6}{4}}",
            "so \\boxed{\\frac{3}{2}}",
        ] {
            assert!(check(&task, good).0, "{good}");
        }
        for bad in [
            "\\boxed{\\frac{3}{4} + \\frac{1}{2} \\times 1.5}",
            "\\boxed{1.4}",
            "1.5",
            "\\boxed{1.5} or \\boxed{2}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
