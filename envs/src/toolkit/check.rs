//! Checking a call against its tool's schema (unknown, missing and mistyped
//! arguments are refused with a reason; harmless coercions are made), and
//! the command syntax `verb arg arg…`, whose arguments only the schema can
//! name.

use serde_json::{Map, Value, json};

use super::calls::ToolCall;
use super::spec::{ParamType, ToolSpec};
use crate::core::InvalidAction;

/// What a valid call looks like, for refusals.
pub(crate) const EXAMPLE: &str = r#"<tool_call>{"name": "TOOL", "arguments": {...}}</tool_call>"#;

pub(crate) fn invalid(reason: impl Into<String>) -> InvalidAction {
    InvalidAction::new(reason)
}

/// `text` cut to 80 characters, for refusals that quote the agent's text
/// (a refusal must stay short whatever the input).
pub(crate) fn clip(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

pub(crate) fn unknown_tool(name: &str, tools: &[ToolSpec]) -> InvalidAction {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    invalid(format!(
        "unknown tool `{}`; tools: {}. Call one like {EXAMPLE}",
        clip(name),
        names.join(", "),
    ))
}

/// Checks a call against its schema and canonicalises argument types.
pub(crate) fn check_call(
    name: &str,
    args: Value,
    tools: &[ToolSpec],
) -> Result<ToolCall, InvalidAction> {
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
            "`{name}` has no argument `{}`; usage: {}",
            clip(unknown),
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
                "argument `{}` of `{name}` must be a {}, got {}",
                p.name,
                p.ty.schema_name(),
                clip(&value.to_string())
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

/// `verb arg arg…` on the first line, with `[12]`, `"quoted"` (JSON string
/// escapes), numbers and bare words, positional in the order the tool's
/// schema lists its parameters.
pub(crate) fn parse_command(
    text: &str,
    tools: &[ToolSpec],
) -> Result<(String, Value), InvalidAction> {
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
