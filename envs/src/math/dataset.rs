//! `math/dataset-v1`: math questions with gold answers from a data set (GSM8K, MATH,
//! DeepMath, verl parquet rows, multiple choice, or any `prompt`/`answer` file), imported
//! by `verigym import` and scored by the exact math verifier.
//!
//! # Task
//! One imported row: the question, its gold answer (LaTeX or a number; GSM8K's
//! `#### 1,234` arrives as `1234`), for multiple choice the lettered choices, an optional
//! difficulty and the row's source (`file`, `layout`, `row`, `row_hash`).
//!
//! # Action
//! One free-text reply. As in every math env, the answer is the last `\boxed{}` after
//! any `<think>` reasoning; boxes that disagree are a hedge and fail.
//!
//! # Observation
//! The question (with its choices `A. …`, `B. …` for multiple choice) and the line
//! "Put only the final answer inside \boxed{}." (for multiple choice: the letter).
//!
//! # Reward
//! 1 and `passed` when the boxed answer equals the gold answer exactly (the verifier's
//! exact rationals: `0.5` = `\frac{1}{2}`, no rounding), or for multiple choice is the
//! gold letter (`B`, `(B)`, `B.`, `\text{B}`); else 0. Breakdown: `correct`, `format`
//! (1 when a boxed answer was read).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `cards`: a CARDS.jsonl written by `verigym import` to draw from (default: the samples
//! in `envs/data/cards/math.jsonl`, embedded); `level`: 0, 1 or 2, a third of the
//! pool by effort (the row's difficulty field, e.g. MATH's level or DeepMath's
//! difficulty, else the question's length in words). Presets `all` (no level), `easy`,
//! `medium`, `hard` (levels 0–2).
//!
//! # Seeding
//! The seed draws a row uniformly from the (filtered) pool. Imported cards carry the row
//! itself and replay without the pool.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::answer::{final_answer, strip_reasoning};
use verigym_verifiers::math::{MathConfig, extract_prediction, verify_with_prompt};

use crate::core::{EnvKind, EnvSpec, Score};
use crate::dataset::{self, LEVELS, PoolConfig, Source};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Graded, Question, SingleTurn, boxed};

const SAMPLES: &str = include_str!("../../data/cards/math.jsonl");
const INSTRUCTION: &str = "Put only the final answer inside \\boxed{}.";
const CHOICE_INSTRUCTION: &str = "Put only the letter of the correct choice inside \\boxed{}.";

/// One imported math row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MathRow {
    pub question: String,
    /// The gold answer; for multiple choice, the letter (`A`, `B`, …).
    pub answer: String,
    /// Multiple choice: the choices' texts, lettered A, B, … in this order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<f64>,
    /// Fields kept from the row for the user (MATH's `level` and `type`, …).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub metadata: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// The [`Question`] of imported math rows; [`MathDataset`] is its env.
pub struct MathDatasetQuestion;

pub type MathDataset = SingleTurn<MathDatasetQuestion>;

/// The letter of choice `i` (A–Z).
pub fn letter(i: usize) -> char {
    (b'A' + (i % 26) as u8) as char
}

fn effort(task: &MathRow) -> f64 {
    task.difficulty
        .unwrap_or_else(|| task.question.split_whitespace().count() as f64)
}

fn boxed_config() -> MathConfig {
    MathConfig {
        require_boxed: true,
        ..MathConfig::default()
    }
}

/// A multiple-choice answer as its letter: `B`, `(B)`, `B.`, `B)`, `\text{B}`.
fn choice_letter(answer: &str) -> Option<char> {
    let mut a = answer.trim();
    if let Some(inner) = a.strip_prefix("\\text{").and_then(|r| r.strip_suffix('}')) {
        a = inner.trim();
    }
    let a = a
        .trim_start_matches('(')
        .trim_end_matches(['.', ')'])
        .trim();
    let mut chars = a.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
        _ => None,
    }
}

/// Scores a whole reply: `(correct, format)`.
pub fn check(task: &MathRow, reply: &str) -> (bool, bool) {
    if !task.choices.is_empty() {
        // As in every math env the answer must be boxed; then the shared final-answer
        // rule: the last box, all boxes agreeing.
        if !strip_reasoning(reply).is_ok_and(|text| text.contains("\\boxed")) {
            return (false, false);
        }
        let Ok(answer) = final_answer(reply) else {
            return (false, false);
        };
        let read = choice_letter(&answer);
        let gold = choice_letter(&task.answer);
        return (read.is_some() && read == gold, read.is_some());
    }
    let cfg = boxed_config();
    if extract_prediction(reply, &cfg).is_err() {
        return (false, false);
    }
    let prompt = MathDatasetQuestion::prompt(task);
    (
        verify_with_prompt(&task.answer, reply, &prompt, &cfg).equivalent,
        true,
    )
}

/// This env's id: the env imported rows become cards of (`verigym import`).
pub const ID: &str = <MathDatasetQuestion as Question>::SPEC.id;

impl Question for MathDatasetQuestion {
    type Config = PoolConfig;
    type Task = MathRow;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/dataset-v1",
        kind: EnvKind::SingleTurn,
        description: "Math questions from a data set (GSM8K, MATH, DeepMath, verl, multiple choice) imported with `verigym import`, scored exactly",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: dataset::PRESETS,
    };
    const LEVELS: &'static [&'static str] = LEVELS;
    const STRUCTURED_KEY: Option<&'static str> = None;

    fn effort(task: &MathRow) -> Option<f64> {
        Some(effort(task))
    }

    fn validate(config: &PoolConfig) -> Result<(), ConfigError> {
        dataset::validate_pool::<Self>(config, SAMPLES, effort)
    }

    fn task_count(config: &PoolConfig) -> Option<usize> {
        dataset::row_count::<Self>(config, SAMPLES, effort)
    }

    fn generate(config: &PoolConfig, rng: &mut Rng) -> MathRow {
        dataset::draw::<Self>(config, SAMPLES, effort, rng)
    }

    fn prompt(task: &MathRow) -> String {
        if task.choices.is_empty() {
            return format!("{}\n\n{INSTRUCTION}", task.question);
        }
        let choices: Vec<String> = task
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{}. {c}", letter(i)))
            .collect();
        format!(
            "{}\n\n{}\n\n{CHOICE_INSTRUCTION}",
            task.question,
            choices.join("\n")
        )
    }

    fn structured(task: &MathRow) -> Value {
        json!({ "question": task.question, "choices": task.choices })
    }

    fn reference(task: &MathRow) -> String {
        task.answer.clone()
    }

    fn check(task: &MathRow, answer: &str) -> Result<bool, CheckError> {
        match check(task, &boxed(answer)) {
            (_, false) => Err("no answer could be read".into()),
            (correct, true) => Ok(correct),
        }
    }

    fn grade(task: &MathRow, reply: &str) -> Graded {
        let (correct, format) = check(task, reply);
        Score::binary(correct)
            .part("format", format as u8 as f64)
            .into()
    }

    fn random_answer(rng: &mut Rng) -> String {
        boxed(&rng.range_i64(-200, 200).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::{Role, degenerate_answers};

    fn row(question: &str, answer: &str, choices: &[&str]) -> MathRow {
        MathRow {
            question: question.into(),
            answer: answer.into(),
            choices: choices.iter().map(|c| c.to_string()).collect(),
            difficulty: None,
            metadata: Value::Null,
            source: None,
        }
    }

    fn passes(task: &MathRow, reply: &str) -> bool {
        MathDatasetQuestion::grade(task, reply).score.passed
    }

    #[test]
    fn gold_answers_pass_as_models_write_them_and_wrong_ones_fail() {
        let task = row(
            "A baker sells 17 boxes of 24 rolls. How many rolls?",
            "408",
            &[],
        );
        for good in [
            "\\boxed{408}",
            "<think>17 * 24 = 340 + 68 = 408</think>\nSo the baker sells \\boxed{408} rolls.",
            "17 × 24 = 408.\n\n**Final answer:** $\\boxed{408}$",
            "\\boxed{408.0}",
        ] {
            assert!(passes(&task, good), "{good:?}");
        }
        for bad in [
            "\\boxed{407}",
            "408",
            "\\boxed{408} or \\boxed{407}",
            "\\boxed{408, 407}",
            "<think>\\boxed{408}",
            &MathDatasetQuestion::prompt(&task),
        ] {
            assert!(!passes(&task, bad), "{bad:?}");
        }
        degenerate_answers(Role::Checker).for_each(|bad| assert!(!passes(&task, bad), "{bad:?}"));
        let frac = row("Half of one?", "\\frac{1}{2}", &[]);
        assert!(passes(&frac, "\\boxed{0.5}"));
        assert!(!passes(&frac, "\\boxed{0.50001}"));
    }

    #[test]
    fn multiple_choice_takes_the_letter_only() {
        let task = row("Which is prime?", "C", &["4", "6", "7", "9"]);
        assert_eq!(
            MathDatasetQuestion::prompt(&task),
            "Which is prime?\n\nA. 4\nB. 6\nC. 7\nD. 9\n\nPut only the letter of the correct choice inside \\boxed{}."
        );
        for good in [
            "\\boxed{C}",
            "\\boxed{(C)}",
            "<think>7 is prime</think> The answer is \\boxed{\\text{C}}.",
        ] {
            assert!(passes(&task, good), "{good:?}");
        }
        for bad in [
            "\\boxed{A}",
            "\\boxed{C} \\boxed{D}",
            "\\boxed{CD}",
            "\\boxed{7}",
            "C",
            "",
        ] {
            assert!(!passes(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn the_shipped_samples_read_and_their_references_pass() {
        let tasks = dataset::tasks_in::<MathDatasetQuestion>(SAMPLES).unwrap();
        assert!(tasks.len() >= 9, "{}", tasks.len());
        for task in &tasks {
            assert!(passes(task, &boxed(&task.answer)), "{task:?}");
            assert!(task.source.is_some());
        }
    }
}
