//! The shared shape of single-answer puzzles: [`Puzzle`] and its [`Env`]
//! adapter [`SingleTurn`].
//!
//! A puzzle says how to generate a task, what the prompt is, what the
//! reference answer is, and how to check an answer; `SingleTurn` turns that
//! into a one-step episode. The final answer is taken with
//! [`final_answer`]: `<think>` blocks are dropped, the last `\boxed{…}` is
//! the answer (all boxes must agree, so hedging fails), else the whole reply.
//!
//! Score: reward 1 and `passed` for a correct answer, else 0. Breakdown:
//! `correct`, and `format` (1 when the answer could be read at all).

use std::marker::PhantomData;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use verigym_verifiers::answer::final_answer;

use crate::core::{Env, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::rng::Rng;

/// One family of single-answer puzzles.
pub trait Puzzle: Send + Sync + 'static {
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    /// The task, including whatever the checker needs (may hold the solution;
    /// it is never shown: the prompt and [`Puzzle::structured`] are).
    type Task: Serialize + DeserializeOwned + Clone + Send + Sync;
    const SPEC: EnvSpec;
    /// The difficulty scale ([`Env::LEVELS`]); empty = the three presets.
    const LEVELS: &'static [&'static str] = &[];

    /// The work a task takes a simple solver ([`Env::effort`]); `None` =
    /// the length of the reference answer stands in for it.
    fn effort(_task: &Self::Task) -> Option<f64> {
        None
    }

    /// # Errors
    /// A message naming the bad field and its allowed range.
    fn validate(_config: &Self::Config) -> Result<(), String> {
        Ok(())
    }
    fn generate(config: &Self::Config, rng: &mut Rng) -> Self::Task;
    /// The full prompt, stating the answer format.
    fn prompt(task: &Self::Task) -> String;
    /// What the agent may see as JSON (never the solution).
    fn structured(task: &Self::Task) -> Value;
    /// A correct answer, as the text to put in the box.
    fn reference(task: &Self::Task) -> String;
    /// Checks an extracted final answer.
    ///
    /// # Errors
    /// A message when the answer cannot be read at all (format 0);
    /// `Ok(false)` when it was read but is wrong.
    fn check(task: &Self::Task, answer: &str) -> Result<bool, String>;
}

/// The episode of one puzzle task: one answer, then over.
pub struct SingleTurn<P: Puzzle> {
    task: P::Task,
    answer: Option<String>,
    marker: PhantomData<fn() -> P>,
}

impl<P: Puzzle> Clone for SingleTurn<P> {
    fn clone(&self) -> Self {
        SingleTurn {
            task: self.task.clone(),
            answer: self.answer.clone(),
            marker: PhantomData,
        }
    }
}

/// Scores a whole response to a task: extraction, then the puzzle's check.
pub fn score_response<P: Puzzle>(task: &P::Task, response: &str) -> Score {
    let checked = final_answer(response)
        .map_err(|e| e.to_string())
        .and_then(|a| P::check(task, &a));
    match checked {
        Ok(correct) => Score::binary(correct).part("format", 1.0),
        Err(_) => Score::binary(false).part("format", 0.0),
    }
}

impl<P: Puzzle> Env for SingleTurn<P> {
    type Config = P::Config;
    type Task = P::Task;
    type Action = String;
    const SPEC: EnvSpec = P::SPEC;
    const LEVELS: &'static [&'static str] = P::LEVELS;

    fn effort(task: &P::Task) -> Option<f64> {
        P::effort(task)
    }

    fn validate(config: &P::Config) -> Result<(), String> {
        P::validate(config)
    }

    fn generate(config: &P::Config, rng: &mut Rng) -> P::Task {
        P::generate(config, rng)
    }

    fn reference(task: &P::Task) -> Option<Value> {
        Some(Value::String(P::reference(task)))
    }

    fn reset(task: &P::Task, _rng: Rng) -> Self {
        SingleTurn {
            task: task.clone(),
            answer: None,
            marker: PhantomData,
        }
    }

    fn turn(&self) -> Turn {
        if self.answer.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        Observation {
            text: P::prompt(&self.task),
            structured: json!({ "puzzle": P::structured(&self.task), "answered": self.answer.is_some() }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.to_string())
    }

    fn apply(&mut self, _player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.answer = Some(action);
        Ok(Vec::new())
    }

    fn score(&self, _player: Player) -> Score {
        match &self.answer {
            Some(response) => score_response::<P>(&self.task, response),
            None => Score::default(),
        }
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(format!("\\boxed{{{}}}", P::reference(&self.task)))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        // A random small number: a format-valid-looking but wrong answer for
        // nearly every puzzle, which exercises the scoring path.
        format!("\\boxed{{{}}}", rng.range_i64(0, 20))
    }
}

/// Shared tests every puzzle runs on its own generated tasks.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::answers::{Role, degenerate_answers};
    use crate::rng::mix_seed;

    pub(crate) fn passes<P: Puzzle>(task: &P::Task, response: &str) -> bool {
        score_response::<P>(task, response).passed
    }

    /// The reference passes; empty, constant, echoed, hedged and padded
    /// answers fail, on `count` tasks generated from `config`.
    pub(crate) fn standard_answers<P: Puzzle>(config: &P::Config, count: u64) {
        for i in 0..count {
            let task = P::generate(config, &mut Rng::from_seed(mix_seed(77, i)));
            let reference = P::reference(&task);
            let boxed = format!("\\boxed{{{reference}}}");
            assert!(passes::<P>(&task, &boxed), "reference fails: {reference}");
            assert!(
                passes::<P>(&task, &reference),
                "bare reference fails: {reference}"
            );
            assert!(passes::<P>(&task, &format!("<think>hmm</think>\n{boxed}")));
            let fails = |bad: &str| assert!(!passes::<P>(&task, bad), "{bad:?} passed");
            degenerate_answers(Role::Checker).for_each(fails);
            fails(&P::prompt(&task));
            let hedged = format!("\\boxed{{{reference}}} or \\boxed{{{reference} 1}}");
            assert!(!passes::<P>(&task, &hedged), "hedge passed");
            for padded in [
                format!("{reference} 1"),
                format!("{reference}\n{reference}"),
            ] {
                assert!(
                    !passes::<P>(&task, &padded),
                    "padded answer passed: {padded:?}"
                );
            }
        }
    }

    /// Share of tasks `i` that task `i + 1`'s reference answer solves.
    pub(crate) fn cross_reference_rate<P: Puzzle>(config: &P::Config, count: u64) -> f64 {
        let tasks: Vec<P::Task> = (0..=count)
            .map(|i| P::generate(config, &mut Rng::from_seed(mix_seed(99, i))))
            .collect();
        let passed = tasks
            .windows(2)
            .filter(|pair| passes::<P>(&pair[0], &format!("\\boxed{{{}}}", P::reference(&pair[1]))))
            .count();
        passed as f64 / count as f64
    }
}
