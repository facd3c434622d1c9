//! Finding the calls a turn holds, format by format: each [`Site`] is one
//! place in the text where a format writes calls. [`super::parse`] picks
//! the turn's calls from the first format present and checks the other
//! sites against them.
//!
//! Formats, in that order:
//! - Hermes/Qwen `<tool_call>{…}</tool_call>` blocks (several are parallel
//!   calls; the last may be left unclosed);
//! - Mistral `[TOOL_CALLS][{"name", "arguments"}, …]` (or `[TOOL_CALLS]name[ARGS]{…}`);
//! - Llama-3 `<|python_tag|>{"name", "parameters"}` (several separated by `;`);
//! - JSON opening the turn: OpenAI `tool_calls` (a list is parallel calls),
//!   `{"name", "parameters"|"arguments"}`, or a list of such objects;
//! - Llama-3.2 pythonic `[f(a=1), g(b="x")]` opening a line;
//! - ReAct `Action:` / `Action Input:` lines, markdown bold allowed (one
//!   site per `Action:` line: ReAct writes one call per step);
//! - a fenced block holding JSON or pythonic calls (one site per fence).
//!
//! JSON may have trailing commas (`{"path": "/",}`); text after a call's
//! JSON is prose and is not read.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::pythonic::{opens_call_list, read_call_list};
use super::spec::ToolSpec;
use crate::core::InvalidAction;

pub(crate) use super::pythonic::RawCall;

/// The call formats, in the order the turn's own format is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Format {
    Hermes,
    Mistral,
    PythonTag,
    Json,
    Pythonic,
    React,
    Fence,
}

/// One place where the text writes calls in one format.
#[derive(Debug)]
pub(crate) struct Site {
    pub format: Format,
    pub calls: Result<Vec<RawCall>, InvalidAction>,
}

fn invalid(reason: impl Into<String>) -> InvalidAction {
    InvalidAction::new(reason)
}

/// Every site in `text`, formats in their order, sites of one format in
/// the order they appear.
pub(crate) fn find_sites(text: &str, tools: &[ToolSpec]) -> Vec<Site> {
    let mut sites = Vec::new();
    let mut push = |format, calls: Option<Result<Vec<RawCall>, InvalidAction>>| {
        if let Some(calls) = calls {
            sites.push(Site { format, calls });
        }
    };
    push(Format::Hermes, hermes(text));
    push(Format::Mistral, mistral(text));
    push(Format::PythonTag, python_tag(text));
    push(Format::Json, leading_json(text));
    push(Format::Pythonic, pythonic_line(text));
    for calls in react(text, tools) {
        push(Format::React, Some(calls));
    }
    for calls in fences(text) {
        push(Format::Fence, Some(calls));
    }
    sites
}

/// The contents of every `<tool_call>` block: one site, since several blocks
/// are the format's parallel calls.
fn hermes(text: &str) -> Option<Result<Vec<RawCall>, InvalidAction>> {
    let mut blocks = text.split("<tool_call>").skip(1).peekable();
    blocks.peek()?;
    let mut calls = Vec::new();
    for block in blocks {
        let body = block.split("</tool_call>").next().unwrap_or("");
        let body = strip_fence(body.trim());
        match json_calls(body) {
            Ok((found, _)) => calls.extend(found),
            Err(e) => {
                return Some(Err(invalid(format!(
                    "the <tool_call> body is not a JSON call: {}",
                    e.reason
                ))));
            }
        }
    }
    Some(Ok(calls))
}

/// `[TOOL_CALLS]` then a JSON list of calls, or `name[ARGS]{…}`.
fn mistral(text: &str) -> Option<Result<Vec<RawCall>, InvalidAction>> {
    const MARKER: &str = "[TOOL_CALLS]";
    let mut parts = text.split(MARKER).skip(1).peekable();
    parts.peek()?;
    let mut calls = Vec::new();
    for part in parts {
        let part = part.trim_start();
        let found = if part.starts_with(['[', '{']) {
            json_calls(part).map(|(found, _)| found)
        } else if let Some((name, args)) = part.split_once("[ARGS]") {
            json_prefix(args.trim_start()).map(|(args, _)| vec![(name.trim().to_string(), args)])
        } else {
            Err(invalid(
                "`[TOOL_CALLS]` must be followed by a JSON list of calls, e.g. [TOOL_CALLS][{\"name\": \"TOOL\", \"arguments\": {...}}]",
            ))
        };
        match found {
            Ok(found) => calls.extend(found),
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(calls))
}

/// `<|python_tag|>` then JSON calls.
fn python_tag(text: &str) -> Option<Result<Vec<RawCall>, InvalidAction>> {
    let (_, rest) = text.split_once("<|python_tag|>")?;
    Some(json_calls(rest.trim_start()).map(|(calls, _)| calls))
}

/// JSON calls opening the turn (not a pythonic list, not Mistral's marker).
fn leading_json(text: &str) -> Option<Result<Vec<RawCall>, InvalidAction>> {
    let opens = text.starts_with('{')
        || text.starts_with('[') && !text.starts_with("[TOOL_CALLS]") && !opens_call_list(text);
    opens.then(|| json_calls(text).map(|(calls, _)| calls))
}

/// The first line that opens a pythonic call list (read from there on).
fn pythonic_line(text: &str) -> Option<Result<Vec<RawCall>, InvalidAction>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset + (line.len() - line.trim_start().len());
        offset += line.len();
        if opens_call_list(&text[start..]) {
            return Some(
                read_call_list(&text[start..])
                    .map(|(calls, _)| calls)
                    .map_err(|e| invalid(format!("the pythonic call list does not parse: {e}"))),
            );
        }
    }
    None
}

/// The text after `keyword:` at the start of `line`, markdown bold or
/// italics around the keyword allowed (`**Action:** ls`, `**Action**: ls`).
pub(crate) fn after_keyword<'a>(line: &'a str, keyword: &str) -> Option<&'a str> {
    let line = line.trim_start().trim_start_matches(['*', '_']);
    let rest = line.strip_prefix(keyword)?.trim_start_matches(['*', '_']);
    let rest = rest.strip_prefix(':')?.trim_start_matches(['*', '_']);
    Some(rest.trim())
}

/// One call per `Action:` line, with its `Action Input:` (the lines up to an
/// `Observation:` or the next `Action:`).
fn react(text: &str, tools: &[ToolSpec]) -> Vec<Result<Vec<RawCall>, InvalidAction>> {
    let lines: Vec<&str> = text.lines().collect();
    let actions: Vec<usize> = (0..lines.len())
        .filter(|&i| after_keyword(lines[i], "Action").is_some())
        .collect();
    actions
        .iter()
        .enumerate()
        .map(|(k, &at)| {
            let end = actions.get(k + 1).copied().unwrap_or(lines.len());
            let name = after_keyword(lines[at], "Action").unwrap_or("");
            let name = name.trim_matches('`').trim().to_string();
            react_input(&lines[at + 1..end], &name, tools).map(|args| vec![(name, args)])
        })
        .collect()
}

fn react_input(lines: &[&str], name: &str, tools: &[ToolSpec]) -> Result<Value, InvalidAction> {
    let Some(start) = lines
        .iter()
        .position(|l| after_keyword(l, "Action Input").is_some())
    else {
        return Ok(json!({}));
    };
    let mut parts = vec![after_keyword(lines[start], "Action Input").unwrap_or("")];
    parts.extend(
        lines[start + 1..]
            .iter()
            .take_while(|l| after_keyword(l, "Observation").is_none()),
    );
    let joined = parts.join("\n");
    let input = strip_fence(joined.trim());
    let input = input.trim_matches('`').trim();
    if input.is_empty() {
        return Ok(json!({}));
    }
    if input.starts_with('{') {
        return json_prefix(input).map(|(value, _)| value).map_err(|e| {
            invalid(format!(
                "`Action Input:` is not a JSON object: {}",
                e.reason
            ))
        });
    }
    // A bare value is allowed for a tool with exactly one parameter: a JSON
    // string or number, else the rest of its line (lines after it are prose).
    let spec = tools.iter().find(|t| t.name == name);
    match spec.map(|s| s.params.as_slice()) {
        Some([only]) => {
            let value = match json_prefix(input) {
                Ok((value @ (Value::String(_) | Value::Number(_)), _)) => value,
                _ => Value::String(input.lines().next().unwrap_or("").trim().to_string()),
            };
            Ok(json!({ only.name.clone(): value }))
        }
        _ => Err(invalid(
            "`Action Input:` must be a JSON object of arguments",
        )),
    }
}

/// The JSON or pythonic calls of every fenced block (```` ``` ```` lines).
fn fences(text: &str) -> Vec<Result<Vec<RawCall>, InvalidAction>> {
    let mut found = Vec::new();
    let mut open: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match open.take() {
                Some(start) => {
                    let body = text[start..offset].trim();
                    if opens_call_list(body) {
                        found.push(read_call_list(body).map(|(calls, _)| calls));
                    } else if body.starts_with(['{', '[']) {
                        found.push(json_calls(body).map(|(calls, _)| calls));
                    }
                }
                None => open = Some(offset + line.len()),
            }
        }
        offset += line.len();
    }
    found
}

/// The body of a fence that opens `text` (```` ```json ```` and its closing
/// fence removed); `text` itself otherwise.
pub(crate) fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

/// The calls of the JSON values opening `text` (separated by space, `,` or
/// `;`: several are parallel calls), and the bytes they take; the text after
/// them is prose. The first value must be a call.
fn json_calls(text: &str) -> Result<(Vec<RawCall>, usize), InvalidAction> {
    let (first, mut used) = json_prefix(text).map_err(|e| {
        invalid(format!(
            "the action looks like JSON but does not parse: {}",
            e.reason
        ))
    })?;
    let mut calls = from_json(first)?;
    loop {
        let rest = &text[used..];
        let next = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
        if !next.starts_with(['{', '[']) || opens_call_list(next) {
            break;
        }
        let Ok((value, len)) = json_prefix(next) else {
            break;
        };
        let Ok(more) = from_json(value) else { break };
        calls.extend(more);
        used += rest.len() - next.len() + len;
    }
    Ok((calls, used))
}

/// The JSON value (object or list) opening `text`, trailing commas allowed,
/// and its length in bytes.
fn json_prefix(text: &str) -> Result<(Value, usize), InvalidAction> {
    let end = json_extent(text).ok_or_else(|| {
        invalid("unbalanced brackets or an unclosed string: write one complete JSON object")
    })?;
    let value = serde_json::from_str(&without_trailing_commas(&text[..end]))
        .map_err(|e| invalid(e.to_string()))?;
    Ok((value, end))
}

/// The end of the bracketed value opening `text` (strings skipped), or of
/// the JSON string or number opening it; `None` when it never closes.
fn json_extent(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    in_string = false;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ if depth == 0 => {
                // A bare number or word: up to the end of the line.
                return Some(text.find('\n').unwrap_or(text.len()));
            }
            _ => {}
        }
    }
    None
}

/// `text` with every comma that only space separates from a closing
/// bracket removed (outside strings): `{"path": "/",}` is read as
/// `{"path": "/"}`.
fn without_trailing_commas(text: &str) -> Cow<'_, str> {
    if !text.contains(',') {
        return Cow::Borrowed(text);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped, mut copied) = (false, false, 0);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b',' => {
                let next = bytes[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                if matches!(next, Some(b'}' | b']')) {
                    out.push_str(&text[copied..i]);
                    copied = i + 1;
                }
            }
            _ => {}
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// The calls of one JSON value: an OpenAI `tool_calls` object or list, a
/// `{"function": …}` entry, a `{"name", "arguments"|"parameters"}` object,
/// or a list of those.
pub(crate) fn from_json(value: Value) -> Result<Vec<RawCall>, InvalidAction> {
    match value {
        Value::Array(items) if items.is_empty() => Err(invalid("an empty list of tool calls")),
        Value::Array(items) => {
            let mut calls = Vec::new();
            for item in items {
                match item {
                    Value::Object(_) => calls.extend(from_json(item)?),
                    _ => return Err(invalid("a list of tool calls holds JSON objects only")),
                }
            }
            Ok(calls)
        }
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
                Value::String(s) => json_prefix(s.trim()).map(|(value, _)| value).map_err(|e| {
                    invalid(format!("`arguments` string is not JSON: {}", e.reason))
                })?,
                Value::Null => json!({}),
                other => other,
            };
            Ok(vec![(name, args)])
        }
        _ => Err(invalid("a tool call must be a JSON object")),
    }
}
