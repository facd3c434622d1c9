//! `math/base-conversion-v1`: convert integers between bases 2–9 and 10.
//!
//! # Task
//! "Convert 1011011_2 to base 10", "Convert 347 to base 5", or (hard)
//! "Convert 2102_3 to base 7".
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the digits of the result
//! (no subscript, no base marker): `2342`.
//!
//! # Observation
//! The number, the bases and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed digit string, read as written, is the number
//! in the target base, else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_value` (20–1000000), `direct` (allow conversions between two non-decimal bases).
//!
//! # Seeding
//! Results that are written in the question (the same digits in both bases)
//! or that are small constants are regenerated.
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
pub struct BaseConversionConfig {
    pub max_value: i64,
    pub direct: bool,
}

impl Default for BaseConversionConfig {
    fn default() -> Self {
        BaseConversionConfig {
            max_value: 2000,
            direct: false,
        }
    }
}

pub struct BaseConversionFamily;
pub type BaseConversion = MathEnv<BaseConversionFamily>;

pub fn to_base(mut n: i64, base: i64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from(b'0' + (n % base) as u8));
        n /= base;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

fn written(n: i64, base: i64) -> String {
    if base == 10 {
        n.to_string()
    } else {
        format!("{}_{{{base}}}", to_base(n, base))
    }
}

impl Family for BaseConversionFamily {
    type Config = BaseConversionConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/base-conversion-v1",
        kind: EnvKind::SingleTurn,
        description: "Convert integers between bases 2-10; answer the digits",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 5]),
    };

    /// Difficulty levels, easiest first: `max_value` grows 60 → 1,000,000 (more digits to convert); from `hard` on, 40% of tasks convert between two non-decimal bases (`direct`), which takes both conversions.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_value":60}"#,
        r#"{"max_value":300}"#,
        "{}",
        r#"{"max_value":20000}"#,
        r#"{"max_value":100000}"#,
        r#"{"max_value":100000,"direct":true}"#,
        r#"{"max_value":1000000,"direct":true}"#,
    ];

    /// Digit steps of converting through base 10: each digit read in the
    /// source base and each digit written in the target base costs one
    /// one-digit multiplication or division of the decimal value.
    fn effort(task: &MathTask) -> Option<f64> {
        let (_, rest) = task.question.split_once("(base ")?;
        let from: i64 = rest.split(')').next()?.parse().ok()?;
        let (_, to_text) = rest.split_once("to base ")?;
        let to: i64 = to_text.split('.').next()?.parse().ok()?;
        let source = effort::math_spans(&task.question).into_iter().next()?;
        let source = source.split('_').next()?;
        let source_len = source.len() as f64;
        let decimal_len = i64::from_str_radix(source, from as u32)
            .ok()?
            .to_string()
            .len() as f64;
        let mut work = 0.0;
        if from != 10 {
            work += source_len * decimal_len;
        }
        if to != 10 {
            work += task.answer.len() as f64 * decimal_len;
        }
        Some(work)
    }

    fn validate(config: &BaseConversionConfig) -> Result<(), ConfigError> {
        if !(20..=1_000_000).contains(&config.max_value) {
            return Err("max_value must be 20..=1000000".into());
        }
        Ok(())
    }

    fn draw(config: &BaseConversionConfig, rng: &mut Rng) -> Option<MathTask> {
        let n = rng.range_i64(10, config.max_value);
        let other = rng.range_i64(2, 9);
        let (from, to) = if config.direct && rng.chance(0.4) {
            let to = rng.range_i64(2, 9);
            if to == other {
                return None;
            }
            (other, to)
        } else if rng.chance(0.5) {
            (10, other)
        } else {
            (other, 10)
        };
        Some(MathTask {
            question: format!(
                "Convert ${}$ (base {from}) to base {to}. Give only the digits of the result, without a subscript.",
                written(n, from)
            ),
            answer: to_base(n, to),
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
        for preset in BaseConversionFamily::SPEC.presets {
            let config: BaseConversionConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<BaseConversionFamily>(&config, 1000);
            testing::attacks_fail::<BaseConversionFamily>(&tasks[0]);
        }
    }

    #[test]
    fn digits_are_right() {
        assert_eq!(to_base(91, 2), "1011011");
        assert_eq!(to_base(347, 5), "2342");
        assert_eq!(written(7, 3), "21_{3}");
        let task = MathTask {
            question: "Convert $347$ (base 10) to base 5.".into(),
            answer: "2342".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{2342}").0);
        for bad in ["\\boxed{347}", "\\boxed{2432}", "\\boxed{2342, 347}"] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
