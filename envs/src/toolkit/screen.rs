//! Runs scripts and the reference solver through the agent's own
//! parse/apply path: the generation `screen` that rejects tasks degenerate
//! scripts already solve, the oracle checks, and the effort measure of tool
//! and web tasks.

use serde_json::json;

use super::calls::call_text;
use crate::answers::{Role, degenerate_answers};
use crate::core::{Env, Score, Turn};
use crate::prompt_answers::PromptAnswers;
use crate::rng::Rng;

/// Runs action texts through parse and apply from the task's start, as an
/// agent would; refused actions are skipped. Returns the final score and
/// whether the episode ended inside the env.
pub(crate) fn run_script<E: Env>(
    task: &E::Task,
    actions: impl IntoIterator<Item = String>,
) -> (Score, bool) {
    let mut env = E::reset(task, Rng::from_seed(0));
    for (step, text) in actions.into_iter().enumerate() {
        if env.turn() == Turn::Over || step >= E::SPEC.max_steps {
            break;
        }
        if let Ok(action) = env.parse_action(0, &text) {
            let _ = env.apply(0, action);
        }
    }
    (env.score(0), env.turn() == Turn::Over)
}

/// Draws up to [`MAX_ATTEMPTS`] tasks and keeps the first that none of its
/// degenerate scripts solves and the oracle does (else the last drawn), for
/// tool worlds without an `answer` tool: the generic screen's answers copied
/// from the prompt would only be refused there, each at the cost of a reset.
pub(crate) fn draw_screened<E: Env>(
    mut draw: impl FnMut() -> Option<E::Task>,
    degenerate_scripts: impl Fn(&E::Task) -> Vec<Vec<String>>,
) -> E::Task {
    let mut fallback = None;
    for _ in 0..MAX_ATTEMPTS {
        let Some(task) = draw() else {
            continue;
        };
        let degenerate = degenerate_scripts(&task)
            .into_iter()
            .any(|script| run_script::<E>(&task, script).0.passed);
        if !degenerate && oracle_passes::<E>(&task) {
            return task;
        }
        fallback = Some(task);
    }
    fallback.expect("some candidate is drawn within the attempts")
}

/// The calls the env's reference solver makes on `task` through the
/// agent's path (the step cap when it does not finish): part of what the
/// tool and web envs report as a task's effort.
pub fn oracle_calls<E: Env>(task: &E::Task) -> usize {
    let mut env = E::reset(task, Rng::from_seed(0));
    let mut calls = 0;
    while calls < E::SPEC.max_steps && env.turn() != Turn::Over {
        let Some(action) = env.oracle(0).and_then(|t| env.parse_action(0, &t).ok()) else {
            break;
        };
        calls += 1;
        if env.apply(0, action).is_err() {
            break;
        }
    }
    calls
}

/// A tool or web task's effort: the records its world holds that a solver
/// may have to read (files, rows, bookings, documents, orders, products,
/// portal items) plus the calls the reference solver needs. Characters
/// written are a poor proxy here: a bigger world mostly means more to read,
/// not longer calls.
pub(crate) fn tool_effort<E: Env>(records: usize, task: &E::Task) -> Option<f64> {
    Some((records + oracle_calls::<E>(task)) as f64)
}

/// Plays the env's oracle through parse and apply within the step cap.
pub fn oracle_passes<E: Env>(task: &E::Task) -> bool {
    let mut env = E::reset(task, Rng::from_seed(0));
    for _ in 0..E::SPEC.max_steps {
        if env.turn() == Turn::Over {
            break;
        }
        let Some(text) = env.oracle(0) else {
            return false;
        };
        let Ok(action) = env.parse_action(0, &text) else {
            return false;
        };
        if env.apply(0, action).is_err() {
            return false;
        }
    }
    env.turn() == Turn::Over && env.score(0).passed
}

/// The answers a policy can give at once, without acting: the
/// [`Role::ToolGeneration`] degenerate answers (a bare `infeasible`
/// included), then every answer copied out of the task's first observation
/// ([`PromptAnswers::all`]: quoted parts, named entities, listed options,
/// numbers, parts of the request, bare and as `infeasible: …`).
pub(crate) fn blind_answers<E: Env>(task: &E::Task) -> Vec<String> {
    let env = E::reset(task, Rng::from_seed(0));
    let first = env.observe(0);
    let copied = PromptAnswers::read(&first.text, first.legal_actions.as_deref().unwrap_or(&[]));
    degenerate_answers(Role::ToolGeneration)
        .map(str::to_string)
        .chain(copied.all())
        .collect()
}

/// The generation screen: the oracle solves the task through the agent's
/// path, and none of the degenerate scripts does: an answer given at once
/// ([`blind_answers`]: constants and everything copied from the prompt;
/// evidence that can be copied from the prompt without any call is not
/// evidence), or one of the env's own `extra` scripts such as "delete
/// everything".
pub(crate) fn screen<E: Env>(task: &E::Task, extra: &[Vec<String>]) -> bool {
    if !oracle_passes::<E>(task) {
        return false;
    }
    let at_once = blind_answers::<E>(task)
        .into_iter()
        .map(|a| vec![call_text("answer", json!({"answer": a}))]);
    for script in at_once.chain(extra.iter().cloned()) {
        if run_script::<E>(task, script).0.passed {
            return false;
        }
    }
    true
}

/// Up to this many candidates are drawn per task; the screen rejects few.
pub(crate) const MAX_ATTEMPTS: usize = 64;
