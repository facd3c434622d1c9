//! `math/modular-v1`: modular arithmetic — residues, products and powers mod m.
//!
//! # Task
//! "Find the remainder when 7^{123} is divided by 389" (hard), a product or a
//! sum of products mod m (medium), or a large or negative number mod m
//! (easy). The answer is the least non-negative residue.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer in `0..m`.
//!
//! # Observation
//! The question and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is the residue, else 0 (a congruent
//! but unreduced number fails). Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kind` (`residue`, `product`, `power`, or `mixed`), `min_modulus` /
//! `max_modulus` (3–99999).
//!
//! # Seeding
//! Residues 0, 1 and 2, and residues written in the question, are
//! regenerated.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModularConfig {
    pub kind: String,
    pub min_modulus: i64,
    pub max_modulus: i64,
}

impl Default for ModularConfig {
    fn default() -> Self {
        ModularConfig {
            kind: "product".into(),
            min_modulus: 100,
            max_modulus: 999,
        }
    }
}

pub struct ModularFamily;
pub type Modular = MathEnv<ModularFamily>;

fn pow_mod(mut base: i64, mut exp: i64, m: i64) -> i64 {
    let mut acc = 1 % m;
    base = base.rem_euclid(m);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * base % m;
        }
        base = base * base % m;
        exp >>= 1;
    }
    acc
}

impl Family for ModularFamily {
    type Config = ModularConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/modular-v1",
        kind: EnvKind::SingleTurn,
        description: "Least non-negative residue of a number, product or power modulo m; answer an integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: plain residues of small then large moduli, then products (`medium`), then a mix with modular powers (`hard`), then powers only with moduli up to 99,999.
    const LEVELS: &'static [&'static str] = &[
        r#"{"kind":"residue","min_modulus":10,"max_modulus":99}"#,
        r#"{"kind":"residue","min_modulus":50,"max_modulus":500}"#,
        r#"{"kind":"residue","min_modulus":100,"max_modulus":9999}"#,
        "{}",
        r#"{"kind":"product","min_modulus":100,"max_modulus":9999}"#,
        r#"{"kind":"mixed","min_modulus":100,"max_modulus":9999}"#,
        r#"{"kind":"power","min_modulus":1000,"max_modulus":99999}"#,
    ];

    /// Digit operations: a long division by the modulus for a residue; a
    /// multiplication and a division for a product; square-and-multiply
    /// for a power, each step a multiplication and a reduction.
    fn effort(task: &MathTask) -> Option<f64> {
        let text = effort::math_spans(&task.question).into_iter().next()?;
        let (_, after) = task.question.split_once("divided by ")?;
        let modulus = *effort::integers_in(after.split(',').next()?).first()?;
        let m = modulus.to_string().len() as f64;
        let long_division = |n: f64| m * (n - m + 1.0).max(1.0);
        let numbers = effort::integers_in(text);
        let digits = |x: i64| x.unsigned_abs().to_string().len() as f64;
        Some(match numbers.as_slice() {
            [a] => long_division(digits(*a)),
            [a, b, c] if text.contains("times") => {
                let product = digits(*a) + digits(*b);
                digits(*a) * digits(*b) + product.max(digits(*c)) + long_division(product)
            }
            [_, e] => {
                let e = e.unsigned_abs();
                let steps = (64 - e.leading_zeros() + e.count_ones()) as f64;
                steps * (m * m + long_division(2.0 * m))
            }
            _ => return None,
        })
    }

    fn validate(config: &ModularConfig) -> Result<(), ConfigError> {
        if !["residue", "product", "power", "mixed"].contains(&config.kind.as_str()) {
            return Err("kind must be residue, product, power or mixed".into());
        }
        if !(3..=99_999).contains(&config.min_modulus)
            || !(config.min_modulus..=99_999).contains(&config.max_modulus)
        {
            return Err("need 3 <= min_modulus <= max_modulus <= 99999".into());
        }
        Ok(())
    }

    fn draw(config: &ModularConfig, rng: &mut Rng) -> Option<MathTask> {
        let m = rng.range_i64(config.min_modulus, config.max_modulus);
        let kind = match config.kind.as_str() {
            "mixed" => *rng.choose(&["residue", "product", "power"])?,
            k => k,
        };
        let (text, answer) = match kind {
            "residue" => {
                let a = rng.range_i64(-1_000_000, 1_000_000);
                (format!("{a}"), a.rem_euclid(m))
            }
            "product" => {
                let (a, b, c) = (
                    rng.range_i64(100, 9999),
                    rng.range_i64(100, 9999),
                    rng.range_i64(1, 999),
                );
                (format!("{a} \\times {b} + {c}"), (a * b + c).rem_euclid(m))
            }
            _ => {
                let (a, e) = (rng.range_i64(2, 99), rng.range_i64(20, 999));
                (format!("{a}^{{{e}}}"), pow_mod(a, e, m))
            }
        };
        Some(MathTask {
            question: format!(
                "Find the remainder when ${text}$ is divided by {m}, that is, the least non-negative residue of ${text}$ modulo {m}. Give a single integer from 0 to {}.",
                m - 1
            ),
            answer: answer.to_string(),
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
        for preset in ModularFamily::SPEC.presets {
            let config: ModularConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<ModularFamily>(&config, 1000);
            testing::attacks_fail::<ModularFamily>(&tasks[0]);
        }
    }

    #[test]
    fn residues_are_reduced_and_exact() {
        assert_eq!(
            pow_mod(7, 123, 389),
            (0..123).fold(1, |acc, _| acc * 7 % 389)
        );
        assert_eq!(pow_mod(3, 0, 7), 1);
        let task = MathTask {
            question: "Find the remainder when $-17$ is divided by 5.".into(),
            answer: "3".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{3}").0);
        for bad in [
            "\\boxed{-2}",
            "\\boxed{8}",
            "\\boxed{-17 \\bmod 5}",
            "\\boxed{3, 8}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
