//! `math/gcd-lcm-v1`: greatest common divisor or least common multiple of integers.
//!
//! # Task
//! "Find the greatest common divisor of 84, 126 and 210" or the least common
//! multiple of two or three integers.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer.
//!
//! # Observation
//! The numbers, which of the two is asked, and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is right, else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `count` (numbers, 2–4), `max_gcd` (largest common factor drawn, 6–999),
//! `max_cofactor` (3–60), `max_lcm_input` (10–9999).
//!
//! # Seeding
//! Answers that are small constants or equal one of the given numbers are
//! regenerated; common factors are drawn from 6 up, so answers spread out.
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
pub struct GcdLcmConfig {
    pub count: usize,
    pub max_gcd: i64,
    pub max_cofactor: i64,
    pub max_lcm_input: i64,
}

impl Default for GcdLcmConfig {
    fn default() -> Self {
        GcdLcmConfig {
            count: 3,
            max_gcd: 99,
            max_cofactor: 20,
            max_lcm_input: 60,
        }
    }
}

pub struct GcdLcmFamily;
pub type GcdLcm = MathEnv<GcdLcmFamily>;

pub fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn list(xs: &[i64]) -> String {
    let words: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

impl Family for GcdLcmFamily {
    type Config = GcdLcmConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/gcd-lcm-v1",
        kind: EnvKind::SingleTurn,
        description: "Greatest common divisor or least common multiple of 2-4 integers; answer an integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `count` 2 → 4 numbers, and `max_gcd`, `max_cofactor`, `max_lcm_input` grow (longer Euclid runs, bigger products).
    const LEVELS: &'static [&'static str] = &[
        r#"{"count":2,"max_gcd":12,"max_cofactor":6,"max_lcm_input":15}"#,
        r#"{"count":2,"max_gcd":40,"max_cofactor":12,"max_lcm_input":30}"#,
        r#"{"count":2,"max_gcd":99,"max_cofactor":20,"max_lcm_input":60}"#,
        "{}",
        r#"{"count":3,"max_gcd":400,"max_cofactor":30,"max_lcm_input":200}"#,
        r#"{"count":4,"max_gcd":999,"max_cofactor":40,"max_lcm_input":400}"#,
        r#"{"count":4,"max_gcd":999,"max_cofactor":60,"max_lcm_input":3000}"#,
    ];

    /// Digit operations of Euclid's algorithm folded over the numbers
    /// (each long division costs divisor digits times quotient digits), plus
    /// for an LCM the multiplication `acc / g * x` at each step.
    fn effort(task: &MathTask) -> Option<f64> {
        let (_, list) = task.question.split_once(" of ")?;
        let numbers = effort::integers_in(list.split(". Give").next()?);
        let lcm = task.question.contains("least common multiple");
        let digits = |n: i64| n.unsigned_abs().to_string().len() as f64;
        let mut acc = *numbers.first()?;
        let mut work = 0.0;
        for &x in &numbers[1..] {
            let (mut a, mut b) = (acc.abs(), x.abs());
            while b != 0 {
                work += digits(b) * (digits(a) - digits(b) + 1.0).max(1.0);
                (a, b) = (b, a % b);
            }
            acc = if lcm {
                work += digits(acc / a) * digits(x);
                (acc / a).checked_mul(x)?
            } else {
                a
            };
        }
        Some(work)
    }

    fn validate(config: &GcdLcmConfig) -> Result<(), ConfigError> {
        if !(2..=4).contains(&config.count) {
            return Err("count must be 2..=4".into());
        }
        if !(6..=999).contains(&config.max_gcd)
            || !(3..=60).contains(&config.max_cofactor)
            || !(10..=9999).contains(&config.max_lcm_input)
        {
            return Err(
                "need max_gcd 6..=999, max_cofactor 3..=60, max_lcm_input 10..=9999".into(),
            );
        }
        Ok(())
    }

    fn draw(config: &GcdLcmConfig, rng: &mut Rng) -> Option<MathTask> {
        let (numbers, answer, what) = if rng.chance(0.5) {
            let g = rng.range_i64(6, config.max_gcd);
            let cofactors: Vec<i64> = (0..config.count)
                .map(|_| rng.range_i64(2, config.max_cofactor))
                .collect();
            if cofactors.iter().fold(0, |acc, &c| gcd(acc, c)) != 1 {
                return None;
            }
            let numbers: Vec<i64> = cofactors.iter().map(|c| c * g).collect();
            (numbers, g, "greatest common divisor")
        } else {
            let numbers: Vec<i64> = (0..config.count)
                .map(|_| rng.range_i64(4, config.max_lcm_input))
                .collect();
            let lcm = numbers.iter().fold(1i64, |acc, &x| acc / gcd(acc, x) * x);
            (numbers, lcm, "least common multiple")
        };
        Some(MathTask {
            question: format!(
                "Find the {what} of {}. Give the answer as a single integer.",
                list(&numbers)
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
        for preset in GcdLcmFamily::SPEC.presets {
            let config: GcdLcmConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<GcdLcmFamily>(&config, 1000);
            testing::attacks_fail::<GcdLcmFamily>(&tasks[0]);
        }
    }

    #[test]
    fn given_numbers_and_wrong_answers_fail() {
        let task = MathTask {
            question: "Find the greatest common divisor of 84, 126 and 210.".into(),
            answer: "42".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{42}").0);
        assert!(
            check(
                &task,
                "The gcd is $2 \\cdot 3 \\cdot 7 = 42$, so \\boxed{42}."
            )
            .0
        );
        for bad in [
            "\\boxed{84}",
            "\\boxed{21}",
            "\\boxed{42, 84}",
            "\\boxed{6 \\cdot 7}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
        assert_eq!(gcd(84, 126), 42);
    }
}
