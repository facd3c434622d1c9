//! `math/probability-v1`: exact probabilities of urn, dice and coin events.
//!
//! # Task
//! "An urn holds 5 red and 7 blue balls; 3 are drawn without replacement.
//! What is the probability that exactly 2 are red?" (possibly with green
//! balls too, asking for exactly j red and the rest blue), the probability that
//! the sum of two or three dice is at least (or exactly) s, or that n fair
//! coins show exactly (or at least) k heads.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number: a fraction
//! (`\frac{7}{22}`) or an exact decimal.
//!
//! # Observation
//! The question and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number equals the probability exactly, else
//! 0 (a rounded decimal fails). Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_balls` (per colour, 3–20), `max_draws` (2–6), `kinds` (subset of
//! `urn`, `dice`, `coins`).
//!
//! # Seeding
//! Probabilities whose reduced denominator is at most 12 (0, 1, 1/2, 1/12,
//! 5/6, …: values that recur across tasks, so constant guesses would hit
//! them) are regenerated, and so is any value written in the question.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::Zero;
use serde::{Deserialize, Serialize};

use super::counting::choose;
use super::forms::Form;
use super::latex::{latex_rational, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProbabilityConfig {
    pub max_balls: u64,
    pub max_draws: u64,
    pub kinds: Vec<String>,
}

impl Default for ProbabilityConfig {
    fn default() -> Self {
        ProbabilityConfig {
            max_balls: 12,
            max_draws: 4,
            kinds: KINDS.map(String::from).to_vec(),
        }
    }
}

pub struct ProbabilityFamily;
pub type Probability = MathEnv<ProbabilityFamily>;

const KINDS: [&str; 3] = ["urn", "dice", "coins"];
const COMMON: [(i64, i64); 6] = [(1, 2), (1, 3), (1, 4), (2, 3), (3, 4), (1, 6)];

/// P(sum of `dice` six-sided dice >= s).
fn dice_at_least(dice: u32, s: i64) -> BigRational {
    let mut counts = vec![1u64];
    for _ in 0..dice {
        let mut next = vec![0u64; counts.len() + 6];
        for (total, &c) in counts.iter().enumerate() {
            for face in 1..=6 {
                next[total + face] += c;
            }
        }
        counts = next;
    }
    let hits: u64 = counts
        .iter()
        .enumerate()
        .filter(|(t, _)| *t as i64 >= s)
        .map(|(_, c)| c)
        .sum();
    rat(hits as i64, 6i64.pow(dice))
}

impl Family for ProbabilityFamily {
    type Config = ProbabilityConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/probability-v1",
        kind: EnvKind::SingleTurn,
        description: "Exact probability of an urn, dice or coin event; answer a fraction",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 4]),
    };

    /// Difficulty levels, easiest first: `max_balls` 5 → 20 and `max_draws` 2 → 6 grow.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_balls":5,"max_draws":2}"#,
        r#"{"max_balls":9,"max_draws":3}"#,
        "{}",
        r#"{"max_balls":16,"max_draws":5}"#,
        r#"{"max_balls":20,"max_draws":6}"#,
    ];

    fn validate(config: &ProbabilityConfig) -> Result<(), ConfigError> {
        if !(3..=20).contains(&config.max_balls) || !(2..=6).contains(&config.max_draws) {
            return Err("need max_balls 3..=20 and max_draws 2..=6".into());
        }
        if config.kinds.is_empty() || !config.kinds.iter().all(|k| KINDS.contains(&k.as_str())) {
            return Err(format!("kinds must be a non-empty subset of {KINDS:?}").into());
        }
        Ok(())
    }

    fn draw(config: &ProbabilityConfig, rng: &mut Rng) -> Option<MathTask> {
        // Urns have the widest answer space: they get most of the tasks.
        let weighted: Vec<&String> = config
            .kinds
            .iter()
            .flat_map(|k| std::iter::repeat_n(k, if k == "urn" { 6 } else { 1 }))
            .collect();
        let (question, p) = match rng.choose(&weighted)?.as_str() {
            "urn" => {
                let (r, b) = (
                    rng.range_i64(2, config.max_balls as i64) as u64,
                    rng.range_i64(2, config.max_balls as i64) as u64,
                );
                let g = rng.range_i64(0, config.max_balls as i64) as u64;
                let d = rng.range_i64(2, config.max_draws.min(r + b - 1) as i64) as u64;
                let j = rng.range_i64(1, d.min(r) as i64) as u64;
                if d - j > b {
                    return None;
                }
                let p = BigRational::new(choose(r, j) * choose(b, d - j), choose(r + b + g, d));
                let (balls, event) = if g == 0 {
                    (
                        format!("{r} red and {b} blue balls"),
                        format!("exactly {j} of them are red"),
                    )
                } else {
                    (
                        format!("{r} red, {b} blue and {g} green balls"),
                        format!("they are exactly {j} red and {} blue balls", d - j),
                    )
                };
                (
                    format!(
                        "An urn holds {balls}. {d} balls are drawn at random without replacement. What is the probability that {event}?"
                    ),
                    p,
                )
            }
            "dice" => {
                let dice = rng.range_i64(2, 3) as u32;
                let s = rng.range_i64(dice as i64 + 1, 6 * dice as i64 - 1);
                if rng.chance(0.5) {
                    (
                        format!(
                            "{dice} fair six-sided dice are rolled. What is the probability that the sum of the numbers shown is at least {s}?"
                        ),
                        dice_at_least(dice, s),
                    )
                } else {
                    (
                        format!(
                            "{dice} fair six-sided dice are rolled. What is the probability that the sum of the numbers shown is exactly {s}?"
                        ),
                        dice_at_least(dice, s) - dice_at_least(dice, s + 1),
                    )
                }
            }
            _ => {
                let n = rng.range_i64(5, 6 + 2 * config.max_draws as i64) as u64;
                let k = rng.range_i64(1, n as i64 - 1) as u64;
                let at_least = rng.chance(0.5);
                let hits = (k..=if at_least { n } else { k })
                    .map(|i| choose(n, i))
                    .sum();
                let which = if at_least { "at least" } else { "exactly" };
                (
                    format!(
                        "{n} fair coins are tossed. What is the probability of {which} {k} heads?"
                    ),
                    BigRational::new(hits, num_bigint::BigInt::from(1u64 << n)),
                )
            }
        };
        // Small denominators (1/12, 5/6, …) recur across tasks: a constant
        // guess would hit too many of them.
        if p.is_zero()
            || p.denom() <= &num_bigint::BigInt::from(12)
            || COMMON.iter().any(|&(a, b)| p == rat(a, b))
        {
            return None;
        }
        Some(MathTask {
            question: format!(
                "{question} Give the exact probability as a fraction in lowest terms."
            ),
            answer: latex_rational(&p),
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
        for preset in ProbabilityFamily::SPEC.presets {
            let config: ProbabilityConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<ProbabilityFamily>(&config, 1000);
            testing::attacks_fail::<ProbabilityFamily>(&tasks[0]);
        }
    }

    #[test]
    fn probabilities_are_exact_and_no_constant_dominates() {
        assert_eq!(dice_at_least(2, 10), rat(6, 36));
        assert_eq!(dice_at_least(2, 2), rat(1, 1));
        let config = ProbabilityConfig::default();
        let tasks = testing::references_hold::<ProbabilityFamily>(&config, 1000);
        let mut counts = std::collections::BTreeMap::new();
        for t in &tasks {
            *counts.entry(t.answer.clone()).or_insert(0) += 1;
        }
        let top = counts.values().max().unwrap();
        let worst = counts.iter().max_by_key(|(_, c)| **c).unwrap();
        assert!(
            *top < 10,
            "one answer covers {top} of 1000 tasks: {worst:?}"
        );
        let task = MathTask {
            question: "An urn holds 5 red and 7 blue balls...".into(),
            answer: "\\frac{7}{22}".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{\\frac{7}{22}}").0);
        assert!(check(&task, "\\boxed{14/44}").0);
        for bad in [
            "\\boxed{0.318}",
            "\\boxed{0.318182}",
            "\\boxed{\\frac{\\binom{5}{2}\\binom{7}{1}}{\\binom{12}{3}}}",
            "\\boxed{\\frac{1}{2}}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
