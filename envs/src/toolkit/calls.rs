//! The one internal tool-call type, and writing a call in each action
//! format agents emit (the parsers are in [`super::parse`]).

use serde_json::{Map, Value, json};

use super::spec::ToolSpec;
use crate::rng::Rng;

/// One call of one tool with checked, canonical arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub args: Map<String, Value>,
}

impl ToolCall {
    pub fn new(name: &str, args: Value) -> Self {
        ToolCall {
            name: name.to_string(),
            args: match args {
                Value::Object(map) => map,
                _ => Map::new(),
            },
        }
    }

    /// A string argument (empty when absent: the schema check guarantees
    /// presence of required ones).
    pub fn str(&self, key: &str) -> &str {
        self.args.get(key).and_then(Value::as_str).unwrap_or("")
    }

    pub fn int(&self, key: &str) -> i64 {
        self.args.get(key).and_then(Value::as_i64).unwrap_or(0)
    }

    pub fn has(&self, key: &str) -> bool {
        self.args.contains_key(key)
    }

    /// Compact one-line form for transcripts: `ls(path="/")`.
    pub fn compact(&self) -> String {
        let args: Vec<String> = self.args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}({})", self.name, args.join(", "))
    }
}

/// The ways a call can be written, for tests and for agents that want one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallFormat {
    OpenAi,
    Hermes,
    NameParameters,
    React,
    Command,
}

impl CallFormat {
    pub const ALL: [CallFormat; 5] = [
        CallFormat::OpenAi,
        CallFormat::Hermes,
        CallFormat::NameParameters,
        CallFormat::React,
        CallFormat::Command,
    ];
}

fn args_json(call: &ToolCall) -> String {
    Value::Object(call.args.clone()).to_string()
}

/// Writes `call` in `format`; `None` where the command syntax cannot carry
/// the arguments (an optional parameter skipped before a given one).
pub fn render_call(call: &ToolCall, format: CallFormat, tools: &[ToolSpec]) -> Option<String> {
    Some(match format {
        CallFormat::OpenAi => json!({"tool_calls": [{
            "id": "call_0", "type": "function",
            "function": {"name": call.name, "arguments": args_json(call)},
        }]})
        .to_string(),
        CallFormat::Hermes => format!(
            "<tool_call>\n{}\n</tool_call>",
            json!({"name": call.name, "arguments": call.args})
        ),
        CallFormat::NameParameters => {
            json!({"name": call.name, "parameters": call.args}).to_string()
        }
        CallFormat::React => format!(
            "Thought: next step.\nAction: {}\nAction Input: {}",
            call.name,
            args_json(call)
        ),
        CallFormat::Command => {
            let spec = tools.iter().find(|t| t.name == call.name)?;
            let mut out = call.name.clone();
            let mut skipped = false;
            for p in &spec.params {
                match call.args.get(&p.name) {
                    None => skipped = true,
                    Some(_) if skipped => return None,
                    Some(Value::String(s)) => {
                        out.push(' ');
                        out.push_str(&Value::String(s.clone()).to_string());
                    }
                    Some(v @ Value::Number(_)) if p.name == "id" => {
                        out.push_str(&format!(" [{v}]"));
                    }
                    Some(v @ (Value::Number(_) | Value::Bool(_))) => {
                        out.push(' ');
                        out.push_str(&v.to_string());
                    }
                    Some(_) => return None,
                }
            }
            out
        }
    })
}

/// The canonical (Hermes) text of a call: what oracles emit.
pub fn call_text(name: &str, args: Value) -> String {
    render_call(&ToolCall::new(name, args), CallFormat::Hermes, &[]).expect("hermes always renders")
}

/// Picks a random format for a call (the command syntax where it fits), so
/// the `random` agent exercises every parser.
pub fn random_format(call: &ToolCall, tools: &[ToolSpec], rng: &mut Rng) -> String {
    let format = CallFormat::ALL[rng.below(5) as usize];
    render_call(call, format, tools)
        .unwrap_or_else(|| render_call(call, CallFormat::Hermes, tools).expect("hermes renders"))
}
