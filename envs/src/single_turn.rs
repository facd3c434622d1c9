//! The single-turn base: a [`Question`] (the static side: generate, pose,
//! check) and its [`Env`] adapter [`SingleTurn`] (one answer, then over).
//! Every single-turn env is built on it: the logic puzzles, the math
//! questions (`math::MathQuestion`), arithmetic and the code envs.
//!
//! The base owns the episode: the observation (the prompt as text; the
//! structured JSON with an `answered` flag), one answer that ends it, the
//! task card's reference, the oracle (the reference in `\boxed{}`) and the
//! random baseline (a small boxed number).
//!
//! Scoring is per env with a default extraction: [`Question::grade`] takes
//! the one graded answer with [`final_answer`] (the rule of
//! `verigym_verifiers::answer`: reasoning removed; the last `\boxed{…}`, else
//! the last final-answer statement, else the whole reply; every box and
//! statement agreeing, so two answers fail; prose around it not graded) and
//! hands it to [`Question::check`]. Reward 1 and `passed` for a correct
//! answer, else 0; breakdown `correct` and `format` (1 when the answer could
//! be read at all), plus `truncated` = 1 (and reward 0) for every env when
//! the reply ends inside its reasoning. Envs with another extraction or score shape override
//! `grade`: math (its boxed-answer forms), code (extract the fenced block,
//! run it in the sandbox; when the sandbox or a toolchain fails the score
//! carries `sandbox_error` and the step's events say why).

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use verigym_verifiers::answer::{AnswerError, final_answer, strip_reasoning};

use crate::core::{Env, EnvSpec, InvalidAction, Observation, Player, Score, Superseded, Turn};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;

/// The static side of one single-turn env: how to make a task, pose it and
/// check its one answer.
pub trait Question: Send + Sync + 'static {
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    /// The task, including whatever the checker needs (may hold the solution;
    /// it is never shown: the prompt and [`Question::structured`] are).
    type Task: Serialize + DeserializeOwned + Clone + Send + Sync;
    const SPEC: EnvSpec;
    /// The difficulty scale ([`Env::LEVELS`]); empty = the three presets.
    const LEVELS: &'static [&'static str] = &[];
    /// The versions this one replaced ([`Env::SUPERSEDED`]).
    const SUPERSEDED: &'static [Superseded] = &[];
    /// Where [`Question::structured`] goes in the observation's JSON: under
    /// this key, next to `answered` (the puzzles' `"puzzle"`); `None` adds
    /// `answered` to the object `structured` returns (which must be one).
    const STRUCTURED_KEY: Option<&'static str> = Some("puzzle");

    /// The work a task takes a simple solver ([`Env::effort`]); `None` =
    /// the length of the oracle's answer stands in for it.
    fn effort(_task: &Self::Task) -> Option<f64> {
        None
    }

    /// # Errors
    /// A [`ConfigError`] naming the bad field and its allowed range.
    fn validate(_config: &Self::Config) -> Result<(), ConfigError> {
        Ok(())
    }
    /// [`Env::task_count`]: finite for a data set's rows.
    fn task_count(_config: &Self::Config) -> Option<usize> {
        None
    }
    /// Makes one task: a pure function of `config` and `rng` that redraws
    /// tasks a constant, empty or echoed answer would solve.
    fn generate(config: &Self::Config, rng: &mut Rng) -> Self::Task;
    /// [`Env::try_generate`]: for questions whose search can come up empty.
    ///
    /// # Errors
    /// [`NoTask`]: what no task met within the budget, and which field to
    /// relax.
    fn try_generate(config: &Self::Config, rng: &mut Rng) -> Result<Self::Task, NoTask> {
        Ok(Self::generate(config, rng))
    }
    /// The full prompt, stating the answer format.
    fn prompt(task: &Self::Task) -> String;
    /// What the agent may see as JSON (never the solution).
    fn structured(task: &Self::Task) -> Value;
    /// A correct answer, as the text the oracle puts in the box; the task
    /// card's reference.
    fn reference(task: &Self::Task) -> String;
    /// Checks an extracted final answer.
    ///
    /// # Errors
    /// [`CheckError::Unreadable`] when the answer cannot be read at all
    /// (format 0), or, for envs that run it, [`CheckError::NotRun`] with why
    /// it could not be run; `Ok(false)` when it was read but is wrong.
    fn check(task: &Self::Task, answer: &str) -> Result<bool, CheckError>;

    /// Scores a whole reply: by default the shared final-answer rule
    /// ([`score_final_answer`]) with [`Question::check`].
    fn grade(task: &Self::Task, reply: &str) -> Graded {
        score_final_answer(reply, |answer| Self::check(task, answer)).into()
    }

    /// The oracle's reply: the reference in a box.
    fn oracle(task: &Self::Task) -> Option<String> {
        Some(boxed(&Self::reference(task)))
    }

    /// The `random` baseline's reply: a small random number in a box, wrong
    /// for nearly every task, so it exercises the scoring path.
    fn random_answer(rng: &mut Rng) -> String {
        boxed(&rng.range_i64(0, 20).to_string())
    }
}

/// Why [`Question::check`] could not say whether an answer is right.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckError {
    /// The answer cannot be read at all (`format` 0): why.
    #[error(transparent)]
    Unreadable(#[from] InvalidAction),
    /// The answer could not be run: the sandbox or a toolchain failed (the
    /// code envs score that `sandbox_error`).
    #[cfg(feature = "sandbox")]
    #[error(transparent)]
    NotRun(#[from] crate::sandboxed::SandboxedError),
}

impl CheckError {
    /// [`CheckError::Unreadable`] with `reason`.
    pub fn unreadable(reason: impl Into<String>) -> Self {
        CheckError::Unreadable(InvalidAction::new(reason))
    }
}

/// An unreadable answer, with this reason.
impl From<String> for CheckError {
    fn from(reason: String) -> Self {
        CheckError::unreadable(reason)
    }
}

impl From<&str> for CheckError {
    fn from(reason: &str) -> Self {
        CheckError::unreadable(reason)
    }
}

/// The result of grading one reply: the score and the step's event notes
/// (why a sandboxed run failed, for instance).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graded {
    pub score: Score,
    pub events: Vec<String>,
}

impl From<Score> for Graded {
    fn from(score: Score) -> Self {
        Graded {
            score,
            events: Vec::new(),
        }
    }
}

/// `\boxed{text}`.
pub fn boxed(text: &str) -> String {
    format!("\\boxed{{{text}}}")
}

/// The shared final-answer rule: extracts the answer with [`final_answer`]
/// and checks it. Binary `correct`; `format` 1 when the answer was read
/// (extracted, and `check` did not reject it as unreadable).
pub fn score_final_answer(
    reply: &str,
    check: impl FnOnce(&str) -> Result<bool, CheckError>,
) -> Score {
    let checked = final_answer(reply)
        .map_err(|e| CheckError::unreadable(e.to_string()))
        .and_then(|answer| check(&answer));
    match checked {
        Ok(correct) => Score::binary(correct).part("format", 1.0),
        Err(_) => Score::binary(false).part("format", 0.0),
    }
}

/// The one reward path of every single-turn env: a reply cut off inside its
/// reasoning scores 0 whatever the env would read from it (and is not run
/// or graded at all); the breakdown says why, so trainers can tell it from a
/// wrong answer. Every other reply is [`Question::grade`]d.
pub fn grade_reply<Q: Question>(task: &Q::Task, reply: &str) -> Graded {
    if strip_reasoning(reply) == Err(AnswerError::Truncated) {
        return Graded {
            score: Score::binary(false)
                .part("format", 0.0)
                .part("truncated", 1.0),
            events: vec![AnswerError::Truncated.to_string()],
        };
    }
    Q::grade(task, reply)
}

/// The episode of one single-turn task: one answer, then over.
pub struct SingleTurn<Q: Question> {
    task: Q::Task,
    /// The score of the answer, once given.
    score: Option<Score>,
    marker: PhantomData<fn() -> Q>,
}

impl<Q: Question> Clone for SingleTurn<Q> {
    fn clone(&self) -> Self {
        SingleTurn {
            task: self.task.clone(),
            score: self.score.clone(),
            marker: PhantomData,
        }
    }
}

impl<Q: Question> Env for SingleTurn<Q> {
    type Config = Q::Config;
    type Task = Q::Task;
    type Action = String;
    const SPEC: EnvSpec = Q::SPEC;
    const LEVELS: &'static [&'static str] = Q::LEVELS;
    const SUPERSEDED: &'static [Superseded] = Q::SUPERSEDED;

    fn effort(task: &Q::Task) -> Option<f64> {
        Q::effort(task)
    }

    fn validate(config: &Q::Config) -> Result<(), ConfigError> {
        Q::validate(config)
    }

    fn task_count(config: &Q::Config) -> Option<usize> {
        Q::task_count(config)
    }

    fn generate(config: &Q::Config, rng: &mut Rng) -> Q::Task {
        Q::generate(config, rng)
    }

    fn try_generate(config: &Q::Config, rng: &mut Rng) -> Result<Q::Task, NoTask> {
        Q::try_generate(config, rng)
    }

    fn reference(task: &Q::Task) -> Option<Value> {
        Some(Value::String(Q::reference(task)))
    }

    fn reset(task: &Q::Task, _rng: Rng) -> Self {
        SingleTurn {
            task: task.clone(),
            score: None,
            marker: PhantomData,
        }
    }

    fn turn(&self) -> Turn {
        if self.score.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let answered = self.score.is_some();
        let mut structured = match Q::STRUCTURED_KEY {
            Some(key) => Value::Object(Map::from_iter([(
                key.to_string(),
                Q::structured(&self.task),
            )])),
            None => Q::structured(&self.task),
        };
        if let Value::Object(fields) = &mut structured {
            fields.insert("answered".into(), Value::Bool(answered));
        }
        Observation {
            text: Q::prompt(&self.task),
            structured,
            legal_actions: None,
        }
    }

    fn observe_text(&self, _player: Player) -> String {
        Q::prompt(&self.task)
    }

    fn first_prompt(task: &Q::Task) -> Option<String> {
        Some(Q::prompt(task))
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.to_string())
    }

    /// Grades the answer now (a sandboxed run happens once, here) and
    /// returns the grader's event notes.
    fn apply(&mut self, _player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        let graded = grade_reply::<Q>(&self.task, &action);
        self.score = Some(graded.score);
        Ok(graded.events)
    }

    fn grade(task: &Q::Task, reply: &str) -> Option<Score> {
        Some(grade_reply::<Q>(task, reply).score)
    }

    fn score(&self, _player: Player) -> Score {
        self.score.clone().unwrap_or_default()
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Q::oracle(&self.task)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        Q::random_answer(rng)
    }
}

/// The shared test kit every single-turn env's tests run on its own
/// generated tasks.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::answers::{Role, degenerate_answers};
    use crate::rng::mix_seed;

    pub(crate) fn passes<Q: Question>(task: &Q::Task, reply: &str) -> bool {
        Q::grade(task, reply).score.passed
    }

    /// Task `i` of the kit's draws from `config`.
    pub(crate) fn task<Q: Question>(config: &Q::Config, seed: u64, i: u64) -> Q::Task {
        Q::generate(config, &mut Rng::from_seed(mix_seed(seed, i)))
    }

    /// The reference passes when boxed (bare, too, when `bare`: the
    /// final-answer rule reads an unboxed reply), after reasoning and inside
    /// prose; every degenerate answer and the prompt fail.
    pub(crate) fn references_pass_and_degenerate_fail<Q: Question>(task: &Q::Task, bare: bool) {
        let reference = Q::reference(task);
        let boxed = boxed(&reference);
        assert!(passes::<Q>(task, &boxed), "reference fails: {reference}");
        if bare {
            assert!(
                passes::<Q>(task, &reference),
                "bare reference fails: {reference}"
            );
        }
        assert!(passes::<Q>(task, &format!("<think>hmm</think>\n{boxed}")));
        assert!(passes::<Q>(task, &format!("Thinking... so {boxed}.")));
        let fails = |bad: &str| assert!(!passes::<Q>(task, bad), "{bad:?} passed");
        degenerate_answers(Role::Checker).for_each(fails);
        fails(&Q::prompt(task));
    }

    /// [`references_pass_and_degenerate_fail`] under the final-answer rule,
    /// plus a hedge and padded answers (the reference with a `1` added: a
    /// different answer for the puzzles, though not for math, where it may
    /// read as a product), on `count` tasks generated from `config`.
    pub(crate) fn standard_answers<Q: Question>(config: &Q::Config, count: u64) {
        for i in 0..count {
            let task = task::<Q>(config, 77, i);
            references_pass_and_degenerate_fail::<Q>(&task, true);
            let reference = Q::reference(&task);
            let hedged = format!("{} or \\boxed{{{reference} 1}}", boxed(&reference));
            assert!(!passes::<Q>(&task, &hedged), "hedge passed");
            for padded in [
                format!("{reference} 1"),
                format!("{reference}\n{reference}"),
            ] {
                assert!(
                    !passes::<Q>(&task, &padded),
                    "padded answer passed: {padded:?}"
                );
            }
        }
    }

    /// Share of tasks `i` that task `i + 1`'s reference answer solves.
    pub(crate) fn cross_reference_rate<Q: Question>(config: &Q::Config, count: u64) -> f64 {
        let tasks: Vec<Q::Task> = (0..=count).map(|i| task::<Q>(config, 99, i)).collect();
        let passed = tasks
            .windows(2)
            .filter(|pair| passes::<Q>(&pair[0], &boxed(&Q::reference(&pair[1]))))
            .count();
        passed as f64 / count as f64
    }
}

#[cfg(test)]
mod tests {
    use crate::{EnvError, Registry, Rng};

    #[test]
    fn a_grader_scores_every_reply_as_reset_and_one_step_would() {
        let registry = Registry::builtin();
        let mut graded = 0;
        for registration in registry.entries() {
            let id = registration.spec.id;
            // Code envs grade in the sandbox: same path, too slow for this sweep.
            if id.starts_with("code/") {
                continue;
            }
            let Ok(mut env) = registry.make(id, None) else {
                continue;
            };
            let card = env.generate(3);
            let grader = match env.grader(&card) {
                Ok(grader) => grader,
                Err(EnvError::NotSingleTurn(named)) => {
                    assert_eq!(named, id);
                    assert_ne!(registration.spec.kind, crate::core::EnvKind::SingleTurn);
                    continue;
                }
                Err(e) => panic!("{id}: {e}"),
            };
            env.reset(&card).unwrap();
            let oracle = env.oracle_action(0).unwrap_or_default();
            let random = env.random_action(0, &mut Rng::from_seed(1));
            for reply in [
                oracle.clone(),
                random,
                String::new(),
                format!("<think>\n{oracle}"),
                format!("{oracle} or \\boxed{{7}}"),
            ] {
                env.reset(&card).unwrap();
                env.step(0, &reply).unwrap();
                assert_eq!(grader.grade(&reply), env.score(0), "{id}: {reply:?}");
            }
            assert!(grader.grade(&oracle).passed, "{id}");
            graded += 1;
        }
        assert!(graded > 20, "only {graded} single-turn envs graded");
        let other_card = registry.make("logic/sudoku-v1", None).unwrap().generate(1);
        let math = registry.make("math/arithmetic-v1", None).unwrap();
        assert!(matches!(
            math.grader(&other_card),
            Err(EnvError::BadCard { .. })
        ));
    }

    #[test]
    fn a_reply_cut_off_in_its_reasoning_says_truncated_in_every_single_turn_family() {
        let registry = Registry::builtin();
        for id in [
            "logic/mini-sudoku-v1",
            "math/arithmetic-v1",
            "math/gcd-lcm-v1",
            "code/functions-v2",
        ] {
            // Without the `sandbox` feature the code envs are not registered.
            let Ok(mut env) = registry.make(id, None) else {
                assert!(id.starts_with("code/") && !cfg!(feature = "sandbox"));
                continue;
            };
            let card = env.generate(5);
            env.reset(&card).unwrap();
            let reference = env.oracle_action(0).unwrap();
            env.step(0, &format!("<think>\nLet me see... {reference}"))
                .unwrap();
            let score = env.score(0);
            assert_eq!(score.reward, 0.0, "{id}");
            assert_eq!(score.breakdown.get("truncated"), Some(&1.0), "{id}");
            // Closed, the same reasoning costs nothing.
            env.reset(&card).unwrap();
            env.step(0, &format!("<think>\nLet me see...</think>\n{reference}"))
                .unwrap();
            assert!(env.score(0).passed, "{id}");
            assert_eq!(env.score(0).breakdown.get("truncated"), None, "{id}");
        }
    }
}
