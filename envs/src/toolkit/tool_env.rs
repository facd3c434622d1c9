//! What a tool env is made of besides its world: the [`ToolEnv`] trait
//! (what the generation screen and the test kit need), the `Log` of calls
//! and results, and the observation text (tools, how to call them, the
//! history).

use serde_json::{Value, json};

use super::calls::ToolCall;
use super::spec::{ToolSpec, openai_specs};
use crate::core::{Env, Observation, Turn};

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
/// makes a call); the help texts below end it.
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
    Observation {
        text: observation_text(head, tools, CALL_HELP, log),
        structured: json!({
            "task": task,
            "tools": openai_specs(tools),
            "history": log.json(),
            "answered": answered,
        }),
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
