//! The single-answer math questions on the single-turn base: a task
//! generator ([`Family`]) becomes a [`Question`] through [`MathQuestion`],
//! and `MathEnv<F>` is its env. The math-specific parts live here: the
//! prompt, the boxed-answer check and the generation-time rejection rules.
//!
//! Every env built here asks for one `\boxed{}` answer and scores it with
//! [`verigym_verifiers::math::verify_with_prompt`] (`require_boxed: true`),
//! after a structural [`Form`] check on the boxed expression (see
//! [`super::forms`]), so that boxing the question itself never counts as the
//! answer.
//!
//! Generation rejects (draws again) any task whose reference answer equals a
//! small constant (the [`Role::MathGeneration`] degenerate answers: 0, ±1, 2,
//! yes/no…), appears verbatim as a token of the question, or whose own
//! reference does not pass through the scoring path.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::math::{Expr, MathConfig, extract_prediction, verify, verify_with_prompt};

use super::forms::{Form, decimals_exact, form_holds};
use crate::answers::{Role, degenerate_answers};
use crate::core::{EnvSpec, Score};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Graded, Question, SingleTurn, boxed};

/// One task of any math env here: the question (which states the answer
/// form), the reference answer as LaTeX, and the form the answer must take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MathTask {
    // Declared in key order, as the card writes them: the writer then
    // need not move the long question behind the other two.
    pub answer: String,
    pub form: Form,
    pub question: String,
}

/// A task generator: what differs between the math envs.
pub trait Family: Send + Sync + 'static {
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    const SPEC: EnvSpec;
    /// The difficulty scale, easiest first (see [`crate::Env::LEVELS`]).
    const LEVELS: &'static [&'static str] = &[];

    /// The work the task takes (see [`crate::Env::effort`]); `None` measures
    /// the characters of the oracle's answer instead.
    fn effort(_task: &MathTask) -> Option<f64> {
        None
    }

    /// # Errors
    /// A message naming the bad field.
    fn validate(_config: &Self::Config) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Draws one candidate task; `None` asks for another draw.
    fn draw(config: &Self::Config, rng: &mut Rng) -> Option<MathTask>;

    /// Whether the family writes every answer in one canonical spelling (the
    /// house LaTeX of an exact value), so that generation may refuse the
    /// degenerate answers by their text instead of reading the reference
    /// through the whole verifier, which costs most of a task's generation
    /// time. A family that says so calls
    /// [`super::testing::canonical_answers_agree`] in its tests: the text
    /// rule and the full check refuse the same draws.
    const CANONICAL_ANSWERS: bool = false;
}

/// The [`Question`] of math family `F`.
pub struct MathQuestion<F>(PhantomData<fn() -> F>);

/// The env of math family `F`.
pub type MathEnv<F> = SingleTurn<MathQuestion<F>>;

const INSTRUCTION: &str = "Put only the final answer inside \\boxed{}.";

pub fn prompt_of(task: &MathTask) -> String {
    // Concatenated, not formatted: every math card writes one.
    [task.question.as_str(), "\n\n", INSTRUCTION].concat()
}

fn boxed_config() -> MathConfig {
    MathConfig {
        require_boxed: true,
        ..MathConfig::default()
    }
}

/// Scores a whole response: `(correct, form_ok)`.
pub fn check(task: &MathTask, response: &str) -> (bool, bool) {
    let cfg = boxed_config();
    let Ok(answer) = extract_prediction(response, &cfg) else {
        return (false, false);
    };
    // `1,000` reads as the number and as a list (`Expr::Readings`): either reading may
    // carry the form.
    let readings = match &answer.expr {
        Expr::Readings(rs) => rs.as_slice(),
        e => std::slice::from_ref(e),
    };
    let form_ok = readings.iter().any(|e| form_holds(&task.form, e));
    let correct = readings
        .iter()
        .any(|e| form_holds(&task.form, e) && decimals_exact(&task.answer, &task.form, e))
        && verify_with_prompt(&task.answer, response, &prompt_of(task), &cfg).equivalent;
    (correct, form_ok)
}

/// Whether `answer` occurs in `text` as a whole token (not inside a longer number or word).
pub fn appears_in(text: &str, answer: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '.';
    let whole_token = |i: usize| {
        let before = text[..i].chars().next_back();
        let after = text[i + answer.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    };
    let (haystack, needle) = (text.as_bytes(), answer.as_bytes());
    let Some(&first) = needle.first() else {
        return text.match_indices(answer).any(|(i, _)| whole_token(i));
    };
    // A scan with `match_indices`' non-overlapping steps, jumping between
    // the answer's first bytes with `memchr`: questions are a few hundred
    // bytes, where setting up a substring searcher cost more than the
    // search, once per generated task. A match starts with the answer's
    // first byte, a character boundary since the answer is a `str`.
    let mut from = 0;
    while let Some(offset) = memchr::memchr(first, &haystack[from..]) {
        let i = from + offset;
        if haystack.len() - i < needle.len() {
            break;
        }
        if &haystack[i..i + needle.len()] == needle {
            if whole_token(i) {
                return true;
            }
            from = i + needle.len();
        } else {
            from = i + 1;
        }
    }
    false
}

pub(super) fn acceptable(task: &MathTask) -> bool {
    let plain = MathConfig::default();
    if degenerate_answers(Role::MathGeneration).any(|c| verify(&task.answer, c, &plain).equivalent)
    {
        return false;
    }
    if appears_in(&task.question, &task.answer) {
        return false;
    }
    check(task, &boxed(&task.answer)).0
}

/// The rejection rules for a canonically written answer: a degenerate
/// answer is one of the degenerate texts, and the answer is not in the question.
fn acceptable_canonical(task: &MathTask) -> bool {
    !degenerate_answers(Role::MathGeneration).any(|c| c == task.answer)
        && !appears_in(&task.question, &task.answer)
}

/// Whether `task` passes the generation-time rejection rules of family `F`.
pub fn acceptable_for<F: Family>(task: &MathTask) -> bool {
    match F::CANONICAL_ANSWERS {
        true => acceptable_canonical(task),
        false => acceptable(task),
    }
}

/// Draws until a task passes the rejection rules.
pub fn generate_with<F: Family>(config: &F::Config, rng: &mut Rng) -> MathTask {
    loop {
        if let Some(task) = F::draw(config, rng)
            && acceptable_for::<F>(&task)
        {
            return task;
        }
    }
}

impl<F: Family> Question for MathQuestion<F> {
    type Config = F::Config;
    type Task = MathTask;
    const SPEC: EnvSpec = F::SPEC;
    const LEVELS: &'static [&'static str] = F::LEVELS;
    const STRUCTURED_KEY: Option<&'static str> = None;

    fn effort(task: &MathTask) -> Option<f64> {
        F::effort(task)
    }

    fn validate(config: &F::Config) -> Result<(), ConfigError> {
        F::validate(config)
    }

    fn generate(config: &F::Config, rng: &mut Rng) -> MathTask {
        generate_with::<F>(config, rng)
    }

    fn prompt(task: &MathTask) -> String {
        prompt_of(task)
    }

    fn structured(task: &MathTask) -> Value {
        json!({ "question": task.question })
    }

    fn reference(task: &MathTask) -> String {
        task.answer.clone()
    }

    /// Checks `answer` as if it were the boxed answer of a reply.
    fn check(task: &MathTask, answer: &str) -> Result<bool, CheckError> {
        match check(task, &boxed(answer)) {
            (_, false) => Err(CheckError::unreadable(format!(
                "not a {:?} answer",
                task.form
            ))),
            (correct, true) => Ok(correct),
        }
    }

    /// The math extraction, not the shared final-answer rule: the answer
    /// must be boxed, and `format` says whether it has the asked form.
    fn grade(task: &MathTask, reply: &str) -> Graded {
        let (correct, form_ok) = check(task, reply);
        Score::binary(correct)
            .part("format", form_ok as u8 as f64)
            .into()
    }

    fn random_answer(rng: &mut Rng) -> String {
        boxed(&rng.range_i64(-200, 200).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_that_appear_in_the_question_are_found_as_whole_tokens() {
        assert!(appears_in("gcd of 12 and 18", "12"));
        assert!(!appears_in("gcd of 120 and 18", "12"));
        assert!(!appears_in("x = 1.12", "12"));
        // Matches are taken without overlap, as `match_indices` takes them.
        assert!(!appears_in("111", "11"));
        assert!(appears_in("-1-1 x", "-1"));
        assert!(appears_in("é 3é", "3"));
    }

    /// The scan agrees with the plain definition over `match_indices`.
    fn appears_in_by_definition(text: &str, answer: &str) -> bool {
        let is_word = |c: char| c.is_ascii_alphanumeric() || c == '.';
        text.match_indices(answer).any(|(i, m)| {
            let before = text[..i].chars().next_back();
            let after = text[i + m.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
    }

    proptest::proptest! {
        #[test]
        fn the_scan_finds_what_match_indices_finds(
            text in "[1a. é-]{0,24}",
            answer in "[1a. é-]{0,3}",
        ) {
            proptest::prop_assert_eq!(
                appears_in(&text, &answer),
                appears_in_by_definition(&text, &answer)
            );
        }
    }
}
