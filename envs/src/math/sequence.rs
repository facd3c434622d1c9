//! `math/sequence-v1`: the next term or a far term of an integer sequence.
//!
//! # Task
//! "The sequence 4, 11, 18, 25, 32 continues by the same rule. What is its
//! next term?" or "…what is its 20th term?". Rules: arithmetic, geometric,
//! quadratic (constant second differences), and Fibonacci-like recurrences.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer.
//!
//! # Observation
//! The first terms, which term is asked, and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is that term, else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `shown` (terms shown, 4–8), `kinds` (subset of `arithmetic`, `geometric`,
//! `quadratic`, `fibonacci`), `far` (share of tasks asking for a far term,
//! 0–1; only for arithmetic and quadratic rules).
//!
//! # Seeding
//! Answers 0, ±1, 2 or already among the shown terms are regenerated.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::nonzero;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SequenceConfig {
    pub shown: usize,
    pub kinds: Vec<String>,
    pub far: f64,
}

impl Default for SequenceConfig {
    fn default() -> Self {
        SequenceConfig {
            shown: 5,
            kinds: ["arithmetic", "geometric", "quadratic", "fibonacci"]
                .map(String::from)
                .to_vec(),
            far: 0.3,
        }
    }
}

pub struct SequenceFamily;
pub type Sequence = MathEnv<SequenceFamily>;

const KINDS: [&str; 4] = ["arithmetic", "geometric", "quadratic", "fibonacci"];

/// Term `n` (0-based) of the rule.
fn term(kind: &str, params: &[i64], n: i64) -> Option<i64> {
    Some(match kind {
        "arithmetic" => params[0] + params[1] * n,
        "geometric" => params[0].checked_mul(params[1].checked_pow(u32::try_from(n).ok()?)?)?,
        "quadratic" => params[0] + params[1] * n + params[2] * n * n,
        _ => {
            let (mut a, mut b) = (params[0], params[1]);
            for _ in 0..n {
                (a, b) = (b, a.checked_add(b)?);
            }
            a
        }
    })
}

fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Family for SequenceFamily {
    type Config = SequenceConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/sequence-v1",
        kind: EnvKind::SingleTurn,
        description: "Next or far term of an arithmetic, geometric, quadratic or Fibonacci-like sequence",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 3, 5]),
    };

    /// Difficulty levels, easiest first: fewer terms shown (`shown` 6 → 4), more rule kinds (quadratic and Fibonacci-like from `medium` on) and a growing share of far terms (`far` 0 → 1).
    const LEVELS: &'static [&'static str] = &[
        r#"{"shown":6,"kinds":["arithmetic","geometric"],"far":0.0}"#,
        r#"{"shown":6,"kinds":["arithmetic","geometric"],"far":0.2}"#,
        r#"{"shown":5,"far":0.2}"#,
        "{}",
        r#"{"shown":5,"far":0.5}"#,
        r#"{"shown":4,"far":0.7}"#,
        r#"{"shown":4,"far":1.0}"#,
    ];

    /// Additions a solver that steps the rule forward makes: the rule's
    /// order (1 for constant differences or ratios, 2 for second
    /// differences and two-term recurrences) times the steps from the last
    /// shown term to the asked one.
    fn effort(task: &MathTask) -> Option<f64> {
        let shown = task
            .question
            .strip_prefix("The sequence ")?
            .split(", …")
            .next()?;
        let terms = effort::integers_in(shown);
        let (_, asked) = task.question.split_once("What is ")?;
        let asked = effort::integers_in(asked.split("term").next()?)
            .first()
            .map_or(terms.len() as i64, |n| n - 1);
        let steps = (asked + 1 - terms.len() as i64).max(1) as f64;
        let differences = |xs: &[i64]| xs.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>();
        let constant = |xs: &[i64]| xs.windows(2).all(|w| w[0] == w[1]);
        let (first, second) = (*terms.first()?, *terms.get(1)?);
        let ratio = first != 0
            && second % first == 0
            && terms
                .windows(2)
                .all(|w| w[0].checked_mul(second / first) == Some(w[1]));
        let order = if constant(&differences(&terms)) || ratio {
            1.0
        } else {
            2.0
        };
        Some(order * steps)
    }

    fn validate(config: &SequenceConfig) -> Result<(), ConfigError> {
        if !(4..=8).contains(&config.shown) {
            return Err("shown must be 4..=8".into());
        }
        if config.kinds.is_empty() || !config.kinds.iter().all(|k| KINDS.contains(&k.as_str())) {
            return Err(format!("kinds must be a non-empty subset of {KINDS:?}").into());
        }
        if !(0.0..=1.0).contains(&config.far) {
            return Err("far must be in 0..=1".into());
        }
        Ok(())
    }

    fn draw(config: &SequenceConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = rng.choose(&config.kinds)?.as_str();
        let params: Vec<i64> = match kind {
            "arithmetic" => vec![rng.range_i64(-50, 50), nonzero(rng, 15)],
            "geometric" => vec![nonzero(rng, 9), *rng.choose(&[-3, -2, 2, 3, 4, 5])?],
            "quadratic" => vec![
                rng.range_i64(-20, 20),
                rng.range_i64(-10, 10),
                nonzero(rng, 4),
            ],
            _ => vec![rng.range_i64(-10, 10), rng.range_i64(1, 12)],
        };
        let shown = config.shown as i64;
        let far = matches!(kind, "arithmetic" | "quadratic") && rng.chance(config.far);
        let asked = if far {
            rng.range_i64(shown + 5, 60)
        } else {
            shown
        };
        let terms: Vec<String> = (0..shown)
            .map(|n| term(kind, &params, n).map(|t| t.to_string()))
            .collect::<Option<_>>()?;
        let answer = term(kind, &params, asked)?;
        let what = if far {
            format!(
                "the {} term (the first shown term is the 1st)",
                ordinal(asked + 1)
            )
        } else {
            "the next term".into()
        };
        Some(MathTask {
            question: format!(
                "The sequence {}, … continues by the same rule. What is {what}? Give a single integer.",
                terms.join(", ")
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
        for preset in SequenceFamily::SPEC.presets {
            let config: SequenceConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<SequenceFamily>(&config, 1000);
            testing::attacks_fail::<SequenceFamily>(&tasks[0]);
        }
    }

    #[test]
    fn rules_give_the_expected_terms() {
        assert_eq!(term("arithmetic", &[4, 7], 5), Some(39));
        assert_eq!(term("geometric", &[3, -2], 4), Some(48));
        assert_eq!(term("quadratic", &[1, 0, 1], 3), Some(10));
        assert_eq!(term("fibonacci", &[1, 1], 6), Some(13));
        assert_eq!(ordinal(22), "22nd");
        assert_eq!(ordinal(12), "12th");
        let task = MathTask {
            question: "The sequence 4, 11, 18, 25, 32, … What is the next term?".into(),
            answer: "39".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{39}").0);
        for bad in ["\\boxed{32}", "\\boxed{39, 46}", "\\boxed{7n - 3}"] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
