//! What a tool env is made of besides its world: the [`ToolEnv`] trait
//! (what the generation screen and the test kit need), [`ToolError`] (a
//! call that failed), the `Log` of calls and results, and the observation
//! text (tools, how to call them, the history).

use serde_json::{Value, json};

use super::calls::{Calls, ToolCall};
use super::spec::{ToolSpec, openai_specs};
use crate::core::{Env, Observation, Turn};

/// A tool call that failed and changed nothing (a query that does not parse,
/// a path or record that does not exist): `message` is what the agent reads
/// as the call's result, worded by the env (most envs show it after
/// `error: `).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    pub message: String,
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        ToolError { message }
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        ToolError::from(message.to_string())
    }
}

/// What the shared generation screen and tests need from a tool env, and
/// how it runs one call. Its action is the turn's calls; its `Env::apply`
/// is [`apply_calls`].
pub trait ToolEnv: Env<Action = Calls> {
    /// The tools of this episode (fixed per env, or per task where the API is
    /// generated).
    fn tools(&self) -> &[ToolSpec];
    /// Whether the task can be done (infeasible ones pass only with an
    /// explicit `infeasible` answer).
    fn feasible(task: &Self::Task) -> bool;
    /// Runs one call on the running episode; returns its event note.
    fn run_call(&mut self, call: ToolCall) -> String;
    /// The episode's calls and turns so far.
    fn call_count(&mut self) -> &mut CallCount;
}

/// The calls and turns of an episode. Each call counts toward the
/// episode's cap (the spec's `max_steps`), as if it had been its own turn.
/// The driver and `Instance` count turns, so the env keeps this count
/// itself: calls past the cap are not run, and an episode whose calls reach
/// the cap ahead of its turns ends there (its turn is `Over`, with the
/// score as it stands, which `Instance` reports as terminated); one whose
/// turns reach it is truncated by `Instance` as before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallCount {
    calls: usize,
    turns: usize,
}

impl CallCount {
    /// The calls run so far (a clock for envs whose records expire after a
    /// number of calls).
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// Whether the calls reached `max_steps` ahead of the turns: the env's
    /// turn is then `Over`. (Single-call turns never make it true, so their
    /// episodes end as before.)
    pub fn spent(&self, max_steps: usize) -> bool {
        self.calls >= max_steps && self.turns < max_steps
    }

    /// Whether the next call of the current turn is past the cap: the cap is
    /// reached and the calls made are not behind the turns (when every turn
    /// so far made one call, the count is the turn count's and the driver's
    /// cap governs, as before).
    fn capped(&self, max_steps: usize) -> bool {
        self.calls >= max_steps && self.calls >= self.turns
    }
}

/// Runs the calls of one turn in order, each with its own result (in the
/// log or the page message, as the env records them), and returns their
/// event notes. A call after the one that ended the episode, or past the
/// episode's call cap, is not run: its note says so, and nothing changes.
/// (The parser already refuses a call written after a final call such as
/// `answer`; what is left are calls after one that ends the episode by its
/// effect, such as the click that places an order in `web/shop`.)
pub fn apply_calls<E: ToolEnv>(env: &mut E, calls: Calls) -> Vec<String> {
    env.call_count().turns += 1;
    let mut events = Vec::with_capacity(calls.len());
    for call in calls {
        let why = if env.call_count().capped(E::SPEC.max_steps) {
            "the episode's call cap is reached"
        } else if env.turn() == Turn::Over {
            "the episode has ended"
        } else {
            env.call_count().calls += 1;
            events.push(env.run_call(call));
            continue;
        };
        events.push(format!("not run: {} ({why})", call.compact()));
    }
    events
}

/// Results longer than this are cut in observations (bounded text).
pub(crate) const MAX_RESULT_CHARS: usize = 2_000;
/// Observations show this many latest exchanges.
pub(crate) const SHOWN_EXCHANGES: usize = 12;

/// The calls made so far and what each returned.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Log {
    pub entries: Vec<(String, String)>,
}

impl Log {
    pub fn push(&mut self, call: &ToolCall, result: impl Into<String>) {
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

    /// Logs a call that was run with its result; returns the call's event
    /// note (its compact text), what [`ToolEnv::run_call`] returns.
    pub fn record(&mut self, call: &ToolCall, result: impl Into<String>) -> String {
        self.push(call, result);
        call.compact()
    }

    /// The reference call that comes after the calls made so far, for
    /// `Env::oracle`: a solver that made every earlier reference call is at
    /// its place in `gold`; past its end it repeats the last call (the one
    /// that ends the episode).
    pub fn next_gold(&self, gold: &[String]) -> Option<String> {
        let at = self.entries.len().min(gold.len().checked_sub(1)?);
        Some(gold[at].clone())
    }

    #[cfg(test)]
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
pub(crate) fn tools_text(tools: &[ToolSpec]) -> String {
    tools
        .iter()
        .map(|t| format!("- {}\n", t.signature()))
        .collect()
}

/// How to call a tool (no real tool named, so echoing the observation never
/// makes a call); the help texts below end it. It still asks for one call
/// per turn, though several are run ([`apply_calls`]): the text is part of
/// every task card's prompt, and one call per turn is the simplest advice.
macro_rules! call_syntax {
    () => {
        "Call exactly one tool per turn, e.g. <tool_call>{\"name\": \"TOOL\", \"arguments\": {\"ARG\": \"VALUE\"}}</tool_call> \
(OpenAI tool_calls JSON, {\"name\", \"parameters\"} JSON, ReAct `Action:`/`Action Input:` and `TOOL \"arg\"` commands work too). "
    };
}

/// How to call a tool and end with an answer, for the observation.
pub(crate) const CALL_HELP: &str = concat!(
    call_syntax!(),
    "End with the `answer` tool; if the task cannot be done, answer `infeasible: EVIDENCE` with the evidence the task asks for."
);

/// How to call a tool and end with a resolution (envs without `answer`).
pub(crate) const RESOLUTION_CALL_HELP: &str =
    concat!(call_syntax!(), "End with one resolution tool.");

/// The observation of a tool env that ends with `answer`: the text of
/// [`observation_text`] with [`CALL_HELP`], and structured the task, the
/// tools in OpenAI format, the history and the answer given (if any).
pub(crate) fn answer_observation(
    head: &str,
    task: &str,
    tools: &[ToolSpec],
    log: &Log,
    answered: Option<&str>,
) -> Observation {
    tool_observation(
        observation_text(head, tools, CALL_HELP, log),
        openai_specs(tools),
        log,
        json!({"task": task, "answered": answered}),
    )
}

/// A tool env's observation: `text` (see [`observation_text`]) and,
/// structured, the tools in OpenAI format (`specs`), the history, and the
/// env's own `fields` (a JSON object: its task and how far it got).
pub(crate) fn tool_observation(
    text: String,
    specs: Value,
    log: &Log,
    fields: Value,
) -> Observation {
    let mut structured = json!({"tools": specs, "history": log.json()});
    if let (Some(all), Value::Object(own)) = (structured.as_object_mut(), fields) {
        all.extend(own);
    }
    Observation {
        text,
        structured,
        legal_actions: None,
    }
}

/// Whose turn it is in a one-player episode that is over once `over`.
pub(crate) fn turn_until(over: bool) -> Turn {
    if over { Turn::Over } else { Turn::Player(0) }
}

/// A tool env's observation text: `head` (the setting and the task, rules
/// included), the tools, how to call them (`help`), and the calls so far.
pub(crate) fn observation_text(head: &str, tools: &[ToolSpec], help: &str, log: &Log) -> String {
    format!(
        "{head}\n\nTools:\n{}{help}\n\nHistory:\n{}",
        tools_text(tools),
        log.history()
    )
}
