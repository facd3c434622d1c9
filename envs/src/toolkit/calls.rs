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

/// The calls of one turn, in order: what a tool env's action is.
pub type Calls = Vec<ToolCall>;

/// The ways a call can be written, for tests and for agents that want one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallFormat {
    OpenAi,
    Hermes,
    NameParameters,
    React,
    Command,
    /// Llama 3: `<|python_tag|>{"name": …, "parameters": {…}}`.
    LlamaPythonTag,
    /// Llama 3.2: `[name(key="value")]`.
    Pythonic,
    /// Mistral: `[TOOL_CALLS][{"name": …, "arguments": {…}}]`.
    Mistral,
    /// ReAct in markdown bold: `**Action:** name` / `**Action Input:** {…}`.
    ReactBold,
}

impl CallFormat {
    pub const ALL: [CallFormat; 9] = [
        CallFormat::OpenAi,
        CallFormat::Hermes,
        CallFormat::NameParameters,
        CallFormat::React,
        CallFormat::Command,
        CallFormat::LlamaPythonTag,
        CallFormat::Pythonic,
        CallFormat::Mistral,
        CallFormat::ReactBold,
    ];

    /// The formats the `random` agent draws from (its episodes, and the
    /// transcripts recorded from them, stay as they were before the later
    /// formats were added).
    pub const RANDOM: [CallFormat; 5] = [
        CallFormat::OpenAi,
        CallFormat::Hermes,
        CallFormat::NameParameters,
        CallFormat::React,
        CallFormat::Command,
    ];

    /// Whether one text in this format can carry several calls.
    pub fn parallel(self) -> bool {
        !matches!(
            self,
            CallFormat::React | CallFormat::ReactBold | CallFormat::Command
        )
    }
}

fn args_json(call: &ToolCall) -> String {
    Value::Object(call.args.clone()).to_string()
}

/// Writes `call` in `format`; `None` where the command syntax cannot carry
/// the arguments (an optional parameter skipped before a given one).
pub fn render_call(call: &ToolCall, format: CallFormat, tools: &[ToolSpec]) -> Option<String> {
    Some(match format {
        CallFormat::OpenAi
        | CallFormat::Hermes
        | CallFormat::NameParameters
        | CallFormat::LlamaPythonTag
        | CallFormat::Pythonic
        | CallFormat::Mistral => render_calls(std::slice::from_ref(call), format)?,
        CallFormat::React => format!(
            "Thought: next step.\nAction: {}\nAction Input: {}",
            call.name,
            args_json(call)
        ),
        CallFormat::ReactBold => format!(
            "**Thought:** next step.\n**Action:** {}\n**Action Input:** {}",
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

/// Writes the calls of one turn in a format that carries several
/// ([`CallFormat::parallel`]); `None` for the others, and for no calls.
pub fn render_calls(calls: &[ToolCall], format: CallFormat) -> Option<String> {
    if calls.is_empty() || !format.parallel() {
        return None;
    }
    let objects = |args_key: &str| -> Vec<Value> {
        calls
            .iter()
            .map(|c| json!({"name": c.name, args_key: c.args}))
            .collect()
    };
    let one_or_list = |mut items: Vec<Value>| {
        if items.len() == 1 {
            items.remove(0).to_string()
        } else {
            Value::Array(items).to_string()
        }
    };
    Some(match format {
        CallFormat::OpenAi => {
            let entries: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    json!({"id": format!("call_{i}"), "type": "function",
                        "function": {"name": c.name, "arguments": args_json(c)}})
                })
                .collect();
            json!({ "tool_calls": entries }).to_string()
        }
        CallFormat::Hermes => objects("arguments")
            .iter()
            .map(|o| format!("<tool_call>\n{o}\n</tool_call>"))
            .collect::<Vec<_>>()
            .join("\n"),
        CallFormat::NameParameters => one_or_list(objects("parameters")),
        CallFormat::LlamaPythonTag => {
            let parts: Vec<String> = objects("parameters").iter().map(Value::to_string).collect();
            format!("<|python_tag|>{}", parts.join("; "))
        }
        CallFormat::Mistral => format!("[TOOL_CALLS]{}", Value::Array(objects("arguments"))),
        CallFormat::Pythonic => {
            let parts: Vec<String> = calls.iter().map(pythonic_call).collect();
            format!("[{}]", parts.join(", "))
        }
        CallFormat::React | CallFormat::ReactBold | CallFormat::Command => return None,
    })
}

/// `name(key="value", n=1, flag=True)`.
fn pythonic_call(call: &ToolCall) -> String {
    let args: Vec<String> = call
        .args
        .iter()
        .map(|(k, v)| format!("{k}={}", python_literal(v)))
        .collect();
    format!("{}({})", call.name, args.join(", "))
}

/// A JSON value as a Python literal (JSON string escapes are Python's too).
fn python_literal(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(_) | Value::String(_) => value.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(python_literal).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), python_literal(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The canonical (Hermes) text of a call: what oracles emit.
pub fn call_text(name: &str, args: Value) -> String {
    render_call(&ToolCall::new(name, args), CallFormat::Hermes, &[]).expect("hermes always renders")
}

/// Picks a random format for a call (the command syntax where it fits), so
/// the `random` agent exercises every parser.
pub fn random_format(call: &ToolCall, tools: &[ToolSpec], rng: &mut Rng) -> String {
    let format = CallFormat::RANDOM[rng.below(5) as usize];
    render_call(call, format, tools)
        .unwrap_or_else(|| render_call(call, CallFormat::Hermes, tools).expect("hermes renders"))
}
