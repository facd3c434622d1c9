//! `math/word-problems-v1`: short unit-free word problems from templates.
//!
//! # Task
//! One of several templates with random numbers: totals of shares, consecutive
//! integers, "a number times m minus n is r", tickets of two prices, averages
//! with one more value, rectangles from perimeter and difference of sides.
//! Every answer is an integer.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one number.
//!
//! # Observation
//! The problem and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed number is the answer, else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `scale` (size of the hidden quantities, 10–10000), `templates` (subset of
//! `shares`, `consecutive`, `reverse`, `tickets`, `average`, `rectangle`).
//!
//! # Seeding
//! Answers that are small constants or written in the problem are regenerated.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WordProblemsConfig {
    pub scale: i64,
    pub templates: Vec<String>,
}

impl Default for WordProblemsConfig {
    fn default() -> Self {
        WordProblemsConfig {
            scale: 100,
            templates: TEMPLATES.map(String::from).to_vec(),
        }
    }
}

pub struct WordProblemsFamily;
pub type WordProblems = MathEnv<WordProblemsFamily>;

const TEMPLATES: [&str; 6] = [
    "shares",
    "consecutive",
    "reverse",
    "tickets",
    "average",
    "rectangle",
];
const NAMES: &[&str] = &[
    "Ana", "Ben", "Chloe", "Dev", "Emma", "Farid", "Grace", "Hugo", "Iris", "Jonas",
];
const THINGS: &[&str] = &["marbles", "stickers", "stamps", "coins", "cards", "shells"];

fn two_names(rng: &mut Rng) -> (&'static str, &'static str) {
    let a = rng.below(NAMES.len() as u64) as usize;
    let b = (a + 1 + rng.below(NAMES.len() as u64 - 1) as usize) % NAMES.len();
    (NAMES[a], NAMES[b])
}

/// The problem text and its integer answer.
fn compose(template: &str, s: i64, rng: &mut Rng) -> Option<(String, i64)> {
    Some(match template {
        "shares" => {
            let (p, q) = two_names(rng);
            let thing = rng.choose(THINGS)?;
            let (a, m, b) = (
                rng.range_i64(3, s),
                rng.range_i64(2, 5),
                rng.range_i64(1, s),
            );
            (
                format!(
                    "{p} has {a} {thing}. {q} has {b} more than {m} times as many as {p}. How many {thing} do they have together?"
                ),
                a + m * a + b,
            )
        }
        "consecutive" => {
            let (count, n) = (rng.range_i64(3, 5), rng.range_i64(-s, s));
            let step = if rng.chance(0.5) { 1 } else { 2 };
            let kind = match (step, n.rem_euclid(2)) {
                (1, _) => "consecutive integers",
                (_, 0) => "consecutive even integers",
                _ => "consecutive odd integers",
            };
            let sum: i64 = (0..count).map(|i| n + step * i).sum();
            (
                format!("The sum of {count} {kind} is {sum}. What is the largest of them?"),
                n + step * (count - 1),
            )
        }
        "reverse" => {
            let (x, m, n) = (
                rng.range_i64(-s, s),
                rng.range_i64(2, 12),
                rng.range_i64(1, s),
            );
            (
                format!(
                    "A number is multiplied by {m}, and then {n} is subtracted from the product. The result is {}. What is the number?",
                    m * x - n
                ),
                x,
            )
        }
        "tickets" => {
            let (adult, child) = (rng.range_i64(5, 30), rng.range_i64(2, 15));
            let (a, c) = (rng.range_i64(3, s), rng.range_i64(3, s));
            if adult <= child {
                return None;
            }
            (
                format!(
                    "Adult tickets cost {adult} each and child tickets cost {child} each. {} tickets were sold for a total of {}. How many adult tickets were sold?",
                    a + c,
                    adult * a + child * c
                ),
                a,
            )
        }
        "average" => {
            let (n, mean) = (rng.range_i64(3, 12), rng.range_i64(5, s));
            let new_mean = mean + rng.range_i64(-5, 5);
            let added = new_mean * (n + 1) - mean * n;
            (
                format!(
                    "The average of {n} numbers is {mean}. When one more number is added, the average of all {} numbers becomes {new_mean}. What number was added?",
                    n + 1
                ),
                added,
            )
        }
        _ => {
            let (w, d) = (rng.range_i64(2, s), rng.range_i64(1, s));
            (
                format!(
                    "A rectangle is {d} longer than it is wide, and its perimeter is {}. What is its area?",
                    2 * (2 * w + d)
                ),
                w * (w + d),
            )
        }
    })
}

impl Family for WordProblemsFamily {
    type Config = WordProblemsConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/word-problems-v1",
        kind: EnvKind::SingleTurn,
        description: "Unit-free word problems from templates (shares, consecutive integers, tickets, averages, rectangles)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `scale` (the size of the numbers) grows 20 → 10,000; the easiest levels use three of the six templates.
    const LEVELS: &'static [&'static str] = &[
        r#"{"scale":20,"templates":["shares","consecutive","reverse"]}"#,
        r#"{"scale":60,"templates":["shares","consecutive","reverse"]}"#,
        r#"{"scale":60}"#,
        "{}",
        r#"{"scale":500}"#,
        r#"{"scale":2000}"#,
        r#"{"scale":10000}"#,
    ];

    fn validate(config: &WordProblemsConfig) -> Result<(), ConfigError> {
        if !(10..=10_000).contains(&config.scale) {
            return Err("scale must be 10..=10000".into());
        }
        if config.templates.is_empty()
            || !config
                .templates
                .iter()
                .all(|t| TEMPLATES.contains(&t.as_str()))
        {
            return Err(format!("templates must be a non-empty subset of {TEMPLATES:?}").into());
        }
        Ok(())
    }

    fn draw(config: &WordProblemsConfig, rng: &mut Rng) -> Option<MathTask> {
        let template = rng.choose(&config.templates)?.clone();
        let (question, answer) = compose(&template, config.scale, rng)?;
        Some(MathTask {
            question: format!("{question} Give the answer as a single number."),
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
        for preset in WordProblemsFamily::SPEC.presets {
            let config: WordProblemsConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<WordProblemsFamily>(&config, 1000);
            testing::attacks_fail::<WordProblemsFamily>(&tasks[0]);
        }
    }

    #[test]
    fn templates_state_consistent_problems() {
        let mut rng = Rng::from_seed(8);
        for template in TEMPLATES {
            for _ in 0..50 {
                let Some((text, answer)) = compose(template, 100, &mut rng) else {
                    continue;
                };
                assert!(!text.is_empty(), "{template}");
                if template == "rectangle" {
                    // Recover the sides from the text's numbers and check the area.
                    let nums: Vec<i64> = text
                        .split(|c: char| !c.is_ascii_digit())
                        .filter_map(|t| t.parse().ok())
                        .collect();
                    let (d, p) = (nums[0], nums[1]);
                    let w = (p / 2 - d) / 2;
                    assert_eq!(w * (w + d), answer, "{text}");
                }
            }
        }
        let task = MathTask {
            question: "The sum of 3 consecutive integers is 48. What is the largest of them?"
                .into(),
            answer: "17".into(),
            form: Form::Number,
        };
        assert!(check(&task, "They are 15, 16, 17, so \\boxed{17}.").0);
        for bad in ["\\boxed{15}", "\\boxed{15, 16, 17}", "\\boxed{16 + 1}"] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
