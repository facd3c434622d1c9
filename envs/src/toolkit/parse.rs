//! The parsers for every action format agents emit: every tool and web env
//! reads its actions through [`parse_call`].
//!
//! Accepted formats (one call per action; surrounding prose is allowed where
//! the format has a clear delimiter, but text after a call that offers another
//! candidate, such as bare words or `or 17`, is refused: the shared rule of
//! `verigym_verifiers::answer::candidate_after_action`):
//!
//! - OpenAI `tool_calls`: `{"tool_calls":[{"type":"function","function":
//!   {"name":"ls","arguments":"{\"path\":\"/\"}"}}]}` (arguments as a JSON
//!   string, or an object), a bare array of such calls, or one call object;
//! - Hermes/Qwen: `<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>`;
//! - plain JSON: `{"name":"ls","parameters":{"path":"/"}}` (or `arguments`),
//!   optionally inside a ```` ```json ```` fence;
//! - ReAct: `Action: ls` then `Action Input: {"path":"/"}`;
//! - commands: `ls "/"`, `click [12]`, `type [12] "text"`: positional
//!   arguments in the order the tool's schema lists its parameters.
//!
//! Arguments are checked against the tool's schema (unknown, missing and
//! mistyped arguments are refused with a reason); harmless coercions are
//! made (`"12"` for an integer, `12` for a string). Nothing is ever
//! evaluated: arguments are data.

use std::sync::LazyLock;

use serde_json::{Map, Value, json};
use verigym_verifiers::answer::candidate_after_action;

use super::calls::ToolCall;
use super::spec::{ParamType, ToolSpec};
use crate::core::InvalidAction;

/// Longest action text we read (bounded work on hostile input).
pub const MAX_ACTION_CHARS: usize = 20_000;

static EXAMPLE: LazyLock<String> =
    LazyLock::new(|| r#"<tool_call>{"name": "TOOL", "arguments": {...}}</tool_call>"#.to_string());

fn invalid(reason: impl Into<String>) -> InvalidAction {
    InvalidAction::new(reason)
}

/// Parses one tool call in any accepted format and checks it against
/// `tools`.
///
/// # Errors
/// [`InvalidAction`] saying what is wrong and what a valid call looks like.
pub fn parse_call(text: &str, tools: &[ToolSpec]) -> Result<ToolCall, InvalidAction> {
    let text = text.trim();
    if text.is_empty() {
        return Err(invalid(format!(
            "empty action: call one tool, e.g. {}",
            *EXAMPLE
        )));
    }
    if text.len() > MAX_ACTION_CHARS {
        return Err(invalid(format!(
            "action longer than {MAX_ACTION_CHARS} characters"
        )));
    }
    let (name, args) = if text.contains("<tool_call>") {
        parse_hermes(text)?
    } else if let Some(react) = parse_react(text, tools)? {
        react
    } else {
        let body = strip_fence(text);
        if body.starts_with('{') || body.starts_with('[') {
            let value: Value = serde_json::from_str(body).map_err(|e| {
                invalid(format!(
                    "the action looks like JSON but does not parse: {e}"
                ))
            })?;
            from_json(value)?
        } else {
            parse_command(body, tools)?
        }
    };
    check_call(&name, args, tools)
}

fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

fn parse_hermes(text: &str) -> Result<(String, Value), InvalidAction> {
    let blocks = text.matches("<tool_call>").count();
    if blocks > 1 {
        return Err(invalid("one tool call per turn: send the others next turn"));
    }
    let (_, rest) = text.split_once("<tool_call>").expect("checked above");
    let (body, after) = rest.split_once("</tool_call>").unwrap_or((rest, ""));
    let body = body.trim();
    // A second call after the first, whole or in part, or another candidate in
    // words: one call per turn.
    if after.contains("tool_call") {
        return Err(invalid("one tool call per turn: send the others next turn"));
    }
    if let Some(other) = candidate_after_action(after) {
        return Err(invalid(format!(
            "text after the tool call offers another candidate (`{}`): end the turn with the \
             call (prose after it is fine)",
            other.chars().take(80).collect::<String>()
        )));
    }
    let value: Value = serde_json::from_str(strip_fence(body))
        .map_err(|e| invalid(format!("the <tool_call> body is not JSON: {e}")))?;
    from_json(value)
}

/// `Action: name` / `Action Input: {...}`; `None` when the text has no
/// `Action:` line.
fn parse_react(text: &str, tools: &[ToolSpec]) -> Result<Option<(String, Value)>, InvalidAction> {
    let lines: Vec<&str> = text.lines().collect();
    let action_lines: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim_start().starts_with("Action:"))
        .collect();
    let &[at] = action_lines.as_slice() else {
        if action_lines.is_empty() {
            return Ok(None);
        }
        return Err(invalid("one `Action:` per turn"));
    };
    let name = lines[at].trim_start()["Action:".len()..].trim().to_string();
    let input: String = match lines[at + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with("Action Input:"))
    {
        Some(offset) => {
            let first = lines[at + 1 + offset].trim_start()["Action Input:".len()..].to_string();
            let mut rest: Vec<&str> = vec![&first];
            for l in &lines[at + 2 + offset..] {
                if l.trim_start().starts_with("Observation:") {
                    break;
                }
                rest.push(l);
            }
            rest.join("\n").trim().to_string()
        }
        None => String::new(),
    };
    let input = strip_fence(&input);
    let args = if input.is_empty() {
        json!({})
    } else if input.starts_with('{') {
        serde_json::from_str(input)
            .map_err(|e| invalid(format!("`Action Input:` is not a JSON object: {e}")))?
    } else {
        // A bare value is allowed for a tool with exactly one parameter.
        let spec = tools.iter().find(|t| t.name == name);
        match spec.map(|s| s.params.as_slice()) {
            Some([only]) => {
                let value = serde_json::from_str(input).unwrap_or(Value::String(input.into()));
                json!({ only.name.clone(): value })
            }
            _ => {
                return Err(invalid(
                    "`Action Input:` must be a JSON object of arguments",
                ));
            }
        }
    };
    Ok(Some((name, args)))
}

fn from_json(value: Value) -> Result<(String, Value), InvalidAction> {
    match value {
        Value::Array(items) => match <[Value; 1]>::try_from(items) {
            Ok([one]) => from_json(one),
            Err(items) if items.is_empty() => Err(invalid("an empty list of tool calls")),
            Err(_) => Err(invalid("one tool call per turn: send the others next turn")),
        },
        Value::Object(mut object) => {
            if let Some(calls) = object.remove("tool_calls") {
                return from_json(calls);
            }
            if let Some(function) = object.remove("function") {
                return from_json(function);
            }
            let name = match object.remove("name") {
                Some(Value::String(name)) => name,
                _ => return Err(invalid("the call has no `name` string")),
            };
            let args = object
                .remove("arguments")
                .or_else(|| object.remove("parameters"))
                .unwrap_or_else(|| json!({}));
            let args = match args {
                Value::String(s) if s.trim().is_empty() => json!({}),
                Value::String(s) => serde_json::from_str(&s)
                    .map_err(|e| invalid(format!("`arguments` string is not JSON: {e}")))?,
                Value::Null => json!({}),
                other => other,
            };
            Ok((name, args))
        }
        _ => Err(invalid("a tool call must be a JSON object")),
    }
}

/// `verb arg arg…` with `[12]`, `"quoted"` (JSON string escapes), numbers and
/// bare words.
fn parse_command(text: &str, tools: &[ToolSpec]) -> Result<(String, Value), InvalidAction> {
    let text = text.lines().next().unwrap_or("").trim();
    let verb_end = text.find(char::is_whitespace).unwrap_or(text.len());
    let verb = text[..verb_end].to_ascii_lowercase();
    let Some(spec) = tools.iter().find(|t| t.name == verb) else {
        return Err(unknown_tool(&verb, tools));
    };
    let mut values = Vec::new();
    // Byte offset of each token in `text`, and whether it was a bare word.
    let mut tokens: Vec<(usize, bool)> = Vec::new();
    let mut rest = text[verb_end..].trim_start();
    while !rest.is_empty() {
        tokens.push((text.len() - rest.len(), !rest.starts_with(['[', '"'])));
        let (value, tail) = if let Some(inner) = rest.strip_prefix('[') {
            let end = inner
                .find(']')
                .ok_or_else(|| invalid("unclosed `[` in the command"))?;
            let id: i64 = inner[..end]
                .trim()
                .parse()
                .map_err(|_| invalid(format!("`[{}]` is not an element id", &inner[..end])))?;
            (json!(id), &inner[end + 1..])
        } else if rest.starts_with('"') {
            let end = closing_quote(rest).ok_or_else(|| invalid("unclosed `\"` in the command"))?;
            let s: String = serde_json::from_str(&rest[..=end])
                .map_err(|e| invalid(format!("bad quoted string: {e}")))?;
            (Value::String(s), &rest[end + 1..])
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            let value = word
                .parse::<i64>()
                .map(|n| json!(n))
                .unwrap_or_else(|_| Value::String(word.into()));
            (value, &rest[end..])
        };
        values.push(value);
        rest = tail.trim_start();
    }
    // Bare words past the last parameter belong to it when it is text:
    // `answer Mon 12:00`, `search rain jacket`.
    let last = spec.params.len().saturating_sub(1);
    if values.len() > spec.params.len()
        && spec
            .params
            .get(last)
            .is_some_and(|p| p.ty == ParamType::String)
        && tokens[last..].iter().all(|(_, bare)| *bare)
    {
        values.truncate(last);
        values.push(Value::String(text[tokens[last].0..].trim().to_string()));
    }
    if values.len() > spec.params.len() {
        return Err(invalid(format!(
            "`{}` takes at most {} arguments: {}",
            spec.name,
            spec.params.len(),
            spec.signature()
        )));
    }
    let args: Map<String, Value> = spec
        .params
        .iter()
        .zip(values)
        .map(|(p, v)| (p.name.clone(), v))
        .collect();
    Ok((verb, Value::Object(args)))
}

/// Index of the quote closing the JSON string that starts at byte 0.
fn closing_quote(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn unknown_tool(name: &str, tools: &[ToolSpec]) -> InvalidAction {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    invalid(format!(
        "unknown tool `{name}`; tools: {}. Call one like {}",
        names.join(", "),
        *EXAMPLE
    ))
}

/// Checks a call against its schema and canonicalises argument types.
fn check_call(name: &str, args: Value, tools: &[ToolSpec]) -> Result<ToolCall, InvalidAction> {
    let spec = tools
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| unknown_tool(name, tools))?;
    let Value::Object(args) = args else {
        return Err(invalid(format!(
            "arguments of `{name}` must be a JSON object"
        )));
    };
    if let Some(unknown) = args
        .keys()
        .find(|k| !spec.params.iter().any(|p| &p.name == *k))
    {
        return Err(invalid(format!(
            "`{name}` has no argument `{unknown}`; usage: {}",
            spec.signature()
        )));
    }
    let mut checked = Map::new();
    for p in &spec.params {
        let Some(value) = args.get(&p.name) else {
            if p.required {
                return Err(invalid(format!(
                    "`{name}` needs argument `{}`; usage: {}",
                    p.name,
                    spec.signature()
                )));
            }
            continue;
        };
        let value = coerce(value, p.ty).ok_or_else(|| {
            invalid(format!(
                "argument `{}` of `{name}` must be a {}, got {value}",
                p.name,
                p.ty.schema_name()
            ))
        })?;
        if !p.choices.is_empty() && !p.choices.iter().any(|c| value.as_str() == Some(c)) {
            return Err(invalid(format!(
                "argument `{}` of `{name}` must be one of: {}",
                p.name,
                p.choices.join(", ")
            )));
        }
        checked.insert(p.name.clone(), value);
    }
    Ok(ToolCall {
        name: name.to_string(),
        args: checked,
    })
}

fn coerce(value: &Value, ty: ParamType) -> Option<Value> {
    match (ty, value) {
        (ParamType::String, Value::String(_)) => Some(value.clone()),
        (ParamType::String, Value::Number(n)) => Some(Value::String(n.to_string())),
        (ParamType::Integer, Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Some(json!(i)),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9e15 => Some(json!(f as i64)),
            _ => None,
        },
        (ParamType::Integer, Value::String(s)) => s.trim().parse::<i64>().ok().map(|i| json!(i)),
        (ParamType::Number, Value::Number(_)) => Some(value.clone()),
        (ParamType::Number, Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(|f| json!(f)),
        (ParamType::Boolean, Value::Bool(_)) => Some(value.clone()),
        (ParamType::Boolean, Value::String(s)) => match s.trim() {
            "true" => Some(json!(true)),
            "false" => Some(json!(false)),
            _ => None,
        },
        _ => None,
    }
}
