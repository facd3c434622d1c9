//! Tool-use envs: multi-turn tasks where the agent calls tools on an offline,
//! generated world and is scored on the final state and a typed answer.
//!
//! Shared machinery lives here once: [`calls`] (the one call type, schemas
//! and every action format), [`ToolEnv`] (what the shared generation checks
//! and tests need from an env), the [`Log`] of calls and results shown in
//! observations, and [`screen`], the generation-time check that runs the
//! reference solver through the agent's own parse/step path and rejects
//! tasks that degenerate scripts already solve.

use serde_json::{Value, json};

use crate::answers::{Role, degenerate_answers};
use crate::core::{Env, Observation, Score, Turn};
use crate::rng::Rng;

pub mod calendar;
pub mod calls;
pub mod fncall;
pub mod search_qa;
pub mod service_desk;
pub mod sql_db;
pub mod vfs_shell;

use calls::ToolSpec;

/// What the shared generation screen and tests need from a tool env.
pub trait ToolEnv: Env {
    /// The tools of this episode (fixed per env, or per task where the API is
    /// generated).
    fn tools(&self) -> &[ToolSpec];
    /// Whether the task can be done (infeasible ones pass only with an
    /// explicit `infeasible` answer).
    fn feasible(task: &Self::Task) -> bool;
}

/// Results longer than this are cut in observations (bounded text).
pub const MAX_RESULT_CHARS: usize = 2_000;
/// Observations show this many latest exchanges.
pub const SHOWN_EXCHANGES: usize = 12;

/// The calls made so far and what each returned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    pub entries: Vec<(String, String)>,
}

impl Log {
    pub fn push(&mut self, call: &calls::ToolCall, result: impl Into<String>) {
        let mut result: String = result.into();
        if result.len() > MAX_RESULT_CHARS {
            let mut cut = MAX_RESULT_CHARS;
            while !result.is_char_boundary(cut) {
                cut -= 1;
            }
            result.truncate(cut);
            result.push_str("\n…(truncated)");
        }
        self.entries.push((call.compact(), result));
    }

    pub fn last_result(&self) -> Option<&str> {
        self.entries.last().map(|(_, r)| r.as_str())
    }

    /// The latest exchanges, or a line saying there are none yet.
    pub fn history(&self) -> String {
        if self.entries.is_empty() {
            "(no calls yet)\n".to_string()
        } else {
            self.text()
        }
    }

    /// The latest exchanges as text.
    pub fn text(&self) -> String {
        let skip = self.entries.len().saturating_sub(SHOWN_EXCHANGES);
        let mut out = String::new();
        if skip > 0 {
            out.push_str(&format!("({skip} earlier calls not shown)\n"));
        }
        for (i, (call, result)) in self.entries.iter().enumerate().skip(skip) {
            out.push_str(&format!("[{}] {call}\n{result}\n", i + 1));
        }
        out
    }

    pub fn json(&self) -> Value {
        Value::Array(
            self.entries
                .iter()
                .map(|(call, result)| json!({"call": call, "result": result}))
                .collect(),
        )
    }
}

/// The tool list as observation text, one signature per line.
pub fn tools_text(tools: &[ToolSpec]) -> String {
    tools
        .iter()
        .map(|t| format!("- {}\n", t.signature()))
        .collect()
}

/// How to call a tool (no real tool named, so echoing the observation never
/// makes a call); the help texts below end it.
macro_rules! call_syntax {
    () => {
        "Call exactly one tool per turn, e.g. <tool_call>{\"name\": \"TOOL\", \"arguments\": {\"ARG\": \"VALUE\"}}</tool_call> \
(OpenAI tool_calls JSON, {\"name\", \"parameters\"} JSON, ReAct `Action:`/`Action Input:` and `TOOL \"arg\"` commands work too). "
    };
}

/// How to call a tool and end with an answer, for the observation.
pub const CALL_HELP: &str = concat!(
    call_syntax!(),
    "End with the `answer` tool; if the task cannot be done, answer `infeasible: EVIDENCE` with the evidence the task asks for."
);

/// How to call a tool and end with a resolution (envs without `answer`).
pub const RESOLUTION_CALL_HELP: &str = concat!(call_syntax!(), "End with one resolution tool.");

/// The observation of a tool env that ends with `answer`: the text of
/// [`observation_text`] with [`CALL_HELP`], and structured the task, the
/// tools in OpenAI format, the history and the answer given (if any).
pub fn answer_observation(
    head: &str,
    task: &str,
    tools: &[ToolSpec],
    log: &Log,
    answered: Option<&str>,
) -> Observation {
    Observation {
        text: observation_text(head, tools, CALL_HELP, log),
        structured: json!({
            "task": task,
            "tools": calls::openai_specs(tools),
            "history": log.json(),
            "answered": answered,
        }),
        legal_actions: None,
    }
}

/// Whose turn it is in a one-player episode that is over once `over`.
pub fn turn_until(over: bool) -> Turn {
    if over { Turn::Over } else { Turn::Player(0) }
}

/// A tool env's observation text: `head` (the setting and the task, rules
/// included), the tools, how to call them (`help`), and the calls so far.
pub fn observation_text(head: &str, tools: &[ToolSpec], help: &str, log: &Log) -> String {
    format!(
        "{head}\n\nTools:\n{}{help}\n\nHistory:\n{}",
        tools_text(tools),
        log.history()
    )
}

/// Runs action texts through parse and apply from the task's start, as an
/// agent would; refused actions are skipped. Returns the final score and
/// whether the episode ended inside the env.
pub fn run_script<E: Env>(
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
pub fn tool_effort<E: Env>(records: usize, task: &E::Task) -> Option<f64> {
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

/// The generation screen: the oracle solves the task through the agent's
/// path, and none of the degenerate scripts does (a constant answer at
/// once: the [`Role::ToolGeneration`] degenerate answers, a bare
/// `infeasible` included; plus the env's own `extra` scripts
/// such as "delete everything").
pub fn screen<E: Env>(task: &E::Task, extra: &[Vec<String>]) -> bool {
    if !oracle_passes::<E>(task) {
        return false;
    }
    let constants = degenerate_answers(Role::ToolGeneration)
        .map(|a| vec![calls::call_text("answer", json!({"answer": a}))]);
    for script in constants.chain(extra.iter().cloned()) {
        if run_script::<E>(task, script).0.passed {
            return false;
        }
    }
    true
}

/// Up to this many candidates are drawn per task; the screen rejects few.
pub const MAX_ATTEMPTS: usize = 64;

#[cfg(test)]
pub mod testkit;
#[cfg(test)]
mod tests;

/// The expected answer of an infeasible task: the verdict and the
/// task-specific evidence that only exploring the task reveals (a bare
/// `infeasible` is a constant any policy can say, so it never passes).
///
/// # Panics
/// If `evidence` has no word (an empty evidence would be a constant).
pub fn infeasible_answer(evidence: &str) -> String {
    assert!(
        !evidence_words(evidence).is_empty(),
        "infeasible evidence needs a word"
    );
    format!("infeasible: {evidence}")
}

/// The evidence of an `infeasible: EVIDENCE` verdict; `None` when `answer`
/// is not one (a bare `infeasible` has no colon, so no evidence).
pub fn infeasible_evidence(answer: &str) -> Option<&str> {
    let answer = answer.trim();
    let head = answer.get(..10)?;
    if !head.eq_ignore_ascii_case("infeasible") {
        return None;
    }
    answer[10..].trim_start().strip_prefix(':').map(str::trim)
}

/// Evidence as its words: case, punctuation and spacing do not matter;
/// every word and number does, so a hedge (`X or Y`, `X, Y`) adds words and
/// fails.
pub fn evidence_words(text: &str) -> String {
    let spaced: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `given` is the infeasible verdict with exactly this evidence.
pub fn infeasible_matches(given: &str, evidence: &str) -> bool {
    infeasible_evidence(given).is_some_and(|g| {
        let words = evidence_words(g);
        !words.is_empty() && words == evidence_words(evidence)
    })
}

/// Whether a final answer matches the expected one: case, surrounding
/// space and a final full stop do not matter; numbers compare by value
/// (`1,234`, `$1234` and `1234.0` are 1234). Hedged answers ("3 or 4")
/// match nothing. An expected `infeasible: EVIDENCE` matches only the
/// verdict with the same evidence ([`infeasible_matches`]).
pub fn answers_match(given: &str, expected: &str) -> bool {
    if let Some(evidence) = infeasible_evidence(expected) {
        return infeasible_matches(given, evidence);
    }
    let norm = |s: &str| s.trim().trim_end_matches('.').trim().to_lowercase();
    let (g, e) = (norm(given), norm(expected));
    if g == e {
        return true;
    }
    match (number(&g), number(&e)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn number(s: &str) -> Option<f64> {
    let s = s.strip_prefix('$').unwrap_or(s);
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-'))
    {
        return None;
    }
    s.replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
}

/// Picks a random format for a call (the command syntax where it fits), so
/// the `random` agent exercises every parser.
pub fn random_format(call: &calls::ToolCall, tools: &[ToolSpec], rng: &mut Rng) -> String {
    let format = calls::CallFormat::ALL[rng.below(5) as usize];
    calls::render_call(call, format, tools).unwrap_or_else(|| {
        calls::render_call(call, calls::CallFormat::Hermes, tools).expect("hermes renders")
    })
}

/// `n` distinct integers in `lo..=hi`, in draw order (for ids).
///
/// # Panics
/// If the range holds fewer than `n` integers.
pub fn distinct(rng: &mut Rng, lo: i64, hi: i64, n: usize) -> Vec<i64> {
    assert!(
        (hi - lo + 1) as usize >= n,
        "range too small for {n} distinct ids"
    );
    let mut out: Vec<i64> = Vec::with_capacity(n);
    while out.len() < n {
        let x = rng.range_i64(lo, hi);
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}
