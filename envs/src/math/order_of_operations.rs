//! `math/order-of-operations-v1`: evaluate an integer expression with powers and parentheses.
//!
//! # Task
//! An expression like `3 + 2^{3} \times (4 - 1) \div 6`, written with only
//! the parentheses the usual precedence needs (powers, then × ÷, then + −,
//! each left to right), so reading the precedence is the task.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number (an integer or
//! a fraction in lowest terms when a division is not exact).
//!
//! # Observation
//! The expression and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the value exactly, else 0.
//! Breakdown: `correct`, `format`. An expression in the box fails.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_ops`/`max_ops` (binary operations, 2–8), `max_operand` (2–99),
//! `powers` (allow `^` with exponent 2 or 3).
//!
//! # Seeding
//! Tasks valued 0, ±1 or 2, or whose value is written in the question, are
//! regenerated.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::{int, latex_rational};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OrderOfOperationsConfig {
    pub min_ops: usize,
    pub max_ops: usize,
    pub max_operand: i64,
    pub powers: bool,
}

impl Default for OrderOfOperationsConfig {
    fn default() -> Self {
        OrderOfOperationsConfig {
            min_ops: 3,
            max_ops: 4,
            max_operand: 12,
            powers: true,
        }
    }
}

pub struct OrderOfOperationsFamily;
pub type OrderOfOperations = MathEnv<OrderOfOperationsFamily>;

/// Text, precedence (0 sum, 1 product, 2 power, 3 atom) and value.
type Node = (String, u8, BigRational);

fn tree(config: &OrderOfOperationsConfig, ops: usize, rng: &mut Rng) -> Option<Node> {
    if ops == 0 {
        let v = rng.range_i64(1, config.max_operand);
        return Some((v.to_string(), 3, int(v)));
    }
    if config.powers && rng.chance(0.2) {
        let (text, prec, base) = tree(config, ops - 1, rng)?;
        if base.abs() > int(30) {
            return None;
        }
        let e = rng.range_i64(2, 3) as i32;
        let text = if prec < 3 {
            format!("({text})^{{{e}}}")
        } else {
            format!("{text}^{{{e}}}")
        };
        return Some((text, 2, num_traits::pow::Pow::pow(&base, e)));
    }
    let left_ops = rng.range_usize(0, ops - 1);
    let (lt, lp, lv) = tree(config, left_ops, rng)?;
    let (rt, rp, rv) = tree(config, ops - 1 - left_ops, rng)?;
    let op = rng.below(4);
    let (prec, symbol) = match op {
        0 => (0, "+"),
        1 => (0, "-"),
        2 => (1, "\\times"),
        _ => (1, "\\div"),
    };
    if op == 3 && rv.is_zero() {
        return None;
    }
    let value = match op {
        0 => &lv + &rv,
        1 => &lv - &rv,
        2 => &lv * &rv,
        _ => &lv / &rv,
    };
    let lt = if lp < prec { format!("({lt})") } else { lt };
    let wrap_right = rp < prec || (rp == prec && (op == 1 || op == 3));
    let rt = if wrap_right { format!("({rt})") } else { rt };
    Some((format!("{lt} {symbol} {rt}"), prec, value))
}

impl Family for OrderOfOperationsFamily {
    type Config = OrderOfOperationsConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/order-of-operations-v1",
        kind: EnvKind::SingleTurn,
        description: "Evaluate an integer expression with powers and minimal parentheses; answer one number",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: operations per expression 2 → 8 (`min_ops`/`max_ops`) and `max_operand` 6 → 30 grow; powers from `medium` on.
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_ops":2,"max_ops":2,"max_operand":6,"powers":false}"#,
        r#"{"min_ops":2,"max_ops":3,"max_operand":9,"powers":false}"#,
        r#"{"min_ops":3,"max_ops":4,"max_operand":12,"powers":false}"#,
        "{}",
        r#"{"min_ops":4,"max_ops":6,"max_operand":15}"#,
        r#"{"min_ops":5,"max_ops":7,"max_operand":20}"#,
        r#"{"min_ops":7,"max_ops":8,"max_operand":30}"#,
    ];

    /// Digit operations of evaluating the expression by hand (see
    /// [`effort::schoolbook`]).
    fn effort(task: &MathTask) -> Option<f64> {
        effort::schoolbook_work(effort::math_spans(&task.question).first()?)
    }

    fn validate(config: &OrderOfOperationsConfig) -> Result<(), ConfigError> {
        if !(2..=8).contains(&config.min_ops) || !(config.min_ops..=8).contains(&config.max_ops) {
            return Err("need 2 <= min_ops <= max_ops <= 8".into());
        }
        if !(2..=99).contains(&config.max_operand) {
            return Err("max_operand must be 2..=99".into());
        }
        Ok(())
    }

    fn draw(config: &OrderOfOperationsConfig, rng: &mut Rng) -> Option<MathTask> {
        let ops = rng.range_usize(config.min_ops, config.max_ops);
        let (text, _, value) = tree(config, ops, rng)?;
        Some(MathTask {
            question: format!(
                "Evaluate, following the order of operations:\n\n    ${text}$\n\nGive a single number: an integer, or a fraction in lowest terms if the value is not an integer."
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
        for preset in OrderOfOperationsFamily::SPEC.presets {
            let config: OrderOfOperationsConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<OrderOfOperationsFamily>(&config, 1000);
            testing::attacks_fail::<OrderOfOperationsFamily>(&tasks[0]);
        }
    }

    #[test]
    fn precedence_is_what_the_verifier_reads() {
        // The verifier parses the question's expression itself: its value must match ours.
        let mut rng = Rng::from_seed(5);
        for _ in 0..300 {
            let (text, _, value) = loop {
                if let Some(node) = tree(&OrderOfOperationsConfig::default(), 4, &mut rng) {
                    break node;
                }
            };
            let verdict = verigym_verifiers::math::verify(
                &latex_rational(&value),
                &format!("${text}$"),
                &Default::default(),
            );
            assert!(verdict.equivalent, "{text} != {value}");
        }
        let task = MathTask {
            question: "Evaluate $3 + 2^{3} \\times 6 \\div 4$".into(),
            answer: "15".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{15}").0);
        assert!(check(&task, "\\boxed{15.0}").0);
        assert!(!check(&task, "\\boxed{3 + 2^{3} \\times 6 \\div 4}").0);
        assert!(!check(&task, "\\boxed{30}").0);
    }
}
