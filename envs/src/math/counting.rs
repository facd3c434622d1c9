//! `math/counting-v1`: combinatorics word problems — choices, arrangements, anagrams.
//!
//! # Task
//! Committees (`\binom{n}{k}`), ordered selections (`n!/(n-k)!`), committees
//! with two groups (`\binom{a}{i}\binom{b}{j}`), and distinct arrangements of
//! a word's letters (multinomials), in short sentences.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer (written out:
//! a `\binom` or factorial expression is not a number and fails).
//!
//! # Observation
//! The question and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is the count, else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `max_n` (5–30), `kinds` (subset of `choose`, `arrange`, `groups`, `word`).
//!
//! # Seeding
//! Counts 0, 1, 2 or written in the question are regenerated.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use num_traits::One;
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CountingConfig {
    pub max_n: u64,
    pub kinds: Vec<String>,
}

impl Default for CountingConfig {
    fn default() -> Self {
        CountingConfig {
            max_n: 20,
            kinds: KINDS.map(String::from).to_vec(),
        }
    }
}

pub struct CountingFamily;
pub type Counting = MathEnv<CountingFamily>;

const KINDS: [&str; 4] = ["choose", "arrange", "groups", "word"];
const WORDS: &[&str] = &[
    "BANANA",
    "LETTER",
    "COMMITTEE",
    "STATISTICS",
    "MISSISSIPPI",
    "BALLOON",
    "PEPPER",
    "SUCCESS",
    "ADDRESS",
    "ASSESS",
    "TOMORROW",
    "BOOKKEEPER",
    "PARALLEL",
    "REFERENCE",
    "MAMMAL",
    "GAZEBO",
    "EXCELLENCE",
    "CHEESE",
    "COFFEE",
    "GOOGOL",
];
const PEOPLE: &[&str] = &["students", "players", "volunteers", "employees", "members"];

pub fn factorial(n: u64) -> BigInt {
    (1..=n).fold(BigInt::one(), |acc, k| acc * k)
}

pub fn choose(n: u64, k: u64) -> BigInt {
    factorial(n) / (factorial(k) * factorial(n - k))
}

fn arrangements(word: &str) -> BigInt {
    let mut counts = std::collections::BTreeMap::new();
    for c in word.chars() {
        *counts.entry(c).or_insert(0u64) += 1;
    }
    counts
        .values()
        .fold(factorial(word.len() as u64), |acc, &k| acc / factorial(k))
}

impl Family for CountingFamily {
    type Config = CountingConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/counting-v1",
        kind: EnvKind::SingleTurn,
        description: "Combinatorics word problems: combinations, permutations, anagram counts; answer an integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: `max_n` grows 8 → 30 (larger factorials and binomials); the easiest levels leave out the `word` (multiset anagram) kind.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_n":8,"kinds":["choose","arrange","groups"]}"#,
        r#"{"max_n":15,"kinds":["choose","arrange","groups"]}"#,
        r#"{"max_n":15}"#,
        "{}",
        r#"{"max_n":25}"#,
        r#"{"max_n":30}"#,
    ];

    fn validate(config: &CountingConfig) -> Result<(), ConfigError> {
        if !(5..=30).contains(&config.max_n) {
            return Err("max_n must be 5..=30".into());
        }
        if config.kinds.is_empty() || !config.kinds.iter().all(|k| KINDS.contains(&k.as_str())) {
            return Err(format!("kinds must be a non-empty subset of {KINDS:?}").into());
        }
        Ok(())
    }

    fn draw(config: &CountingConfig, rng: &mut Rng) -> Option<MathTask> {
        let people = rng.choose(PEOPLE)?;
        let n = rng.range_i64(5, config.max_n as i64) as u64;
        let k = rng.range_i64(2, (n - 2) as i64) as u64;
        // Two-group committees have the widest answer space: they get more tasks.
        let weighted: Vec<&String> = config
            .kinds
            .iter()
            .flat_map(|k| std::iter::repeat_n(k, if k == "groups" { 6 } else { 1 }))
            .collect();
        let (question, answer) = match rng.choose(&weighted)?.as_str() {
            "choose" => (
                format!(
                    "A club has {n} {people}. In how many ways can a committee of {k} of them be chosen (order does not matter)?"
                ),
                choose(n, k),
            ),
            "arrange" => (
                format!(
                    "In how many ways can {k} of {n} different {people} be lined up in a row (order matters)?"
                ),
                factorial(n) / factorial(n - k),
            ),
            "groups" => {
                let (a, b) = (rng.range_i64(3, 15) as u64, rng.range_i64(3, 15) as u64);
                let (i, j) = (
                    rng.range_i64(1, a as i64 - 1) as u64,
                    rng.range_i64(1, b as i64 - 1) as u64,
                );
                (
                    format!(
                        "A team has {a} senior and {b} junior {people}. In how many ways can a group of exactly {i} seniors and {j} juniors be chosen?"
                    ),
                    choose(a, i) * choose(b, j),
                )
            }
            _ => {
                let word = rng.choose(WORDS)?;
                (
                    format!(
                        "How many distinct arrangements of all the letters of the word {word} are there?"
                    ),
                    arrangements(word),
                )
            }
        };
        Some(MathTask {
            question: format!("{question} Give the answer as a single integer."),
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
        for preset in CountingFamily::SPEC.presets {
            let config: CountingConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<CountingFamily>(&config, 1000);
            testing::attacks_fail::<CountingFamily>(&tasks[0]);
        }
    }

    #[test]
    fn counts_are_right_and_unevaluated_forms_fail() {
        assert_eq!(choose(10, 3), BigInt::from(120));
        assert_eq!(arrangements("BANANA"), BigInt::from(60));
        assert_eq!(arrangements("MISSISSIPPI"), BigInt::from(34650));
        let task = MathTask {
            question: "In how many ways can a committee of 3 be chosen from 10?".into(),
            answer: "120".into(),
            form: Form::Number,
        };
        assert!(check(&task, "\\boxed{120}").0);
        assert!(check(&task, "\\boxed{120} ways").0);
        for bad in [
            "\\boxed{\\binom{10}{3}}",
            "\\boxed{720}",
            "\\boxed{10 \\cdot 9 \\cdot 8 / 6}",
        ] {
            assert!(!check(&task, bad).0, "{bad}");
        }
    }
}
