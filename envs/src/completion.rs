//! The model's reply inside the text a trainer hands back.
//!
//! Trainers decode whole sequences: OpenRLHF's reward `query` is the
//! chat-templated prompt followed by the reply, special tokens included, and
//! every decoded turn may end in an end-of-turn marker. Scoring the prompt
//! along with the reply would let the task's own text count as an answer,
//! so the prompt is cut off exactly, or the reply is refused.
//!
//! Trainers also hand back chat messages (TRL's conversational completions,
//! an OpenAI-compatible server's response). One rule turns them into
//! actions, for every trainer route and the server alike:
//!
//! - only assistant messages count;
//! - each tool call is one action `{"tool_calls": [CALL]}` with the call in
//!   OpenAI's shape (`{"type": "function", "function": {"name",
//!   "arguments"}}`; TRL's and flat `{"name", "arguments"}` calls are put in
//!   that shape): trainers' tool loops run and answer each call on its own,
//!   and a replay must play the same moves. A call of the env's *action
//!   tool* (`answer`, `act`, `play`: how a text env or game is offered to a
//!   tool-calling trainer) is its `action` argument instead;
//! - a single chat response ([`response_action`]: the server's `response`,
//!   the HTTP agent) is one turn: all its calls are one action, which the
//!   tool envs run in order;
//! - a message without calls is its text (content parts joined), with a
//!   separate `reasoning_content` (or `reasoning`) put in front as
//!   `<think>…</think>`: reasoning, which every env's reader drops and
//!   reward shaping may score, never graded;
//! - in a conversation that holds tool calls, assistant text without a call
//!   is not an action (TRL's tool loop ends a rollout with such a message);
//! - a single-turn env grades the last action.

use serde_json::{Value, json};

/// End-of-turn markers of the common chat templates (ChatML/Qwen, Llama 3,
/// Phi, Gemma, SentencePiece EOS, harmony): the reply reader's own list.
pub const END_OF_TURN: &[&str] = &verigym_verifiers::answer::END_OF_TURN_MARKERS;

/// Where an assistant turn starts in the common chat templates, for a query
/// whose prompt part does not decode back to the exact prompt text.
const ASSISTANT_STARTS: &[&str] = &[
    "<|im_start|>assistant\n",
    "<|start_header_id|>assistant<|end_header_id|>\n\n",
    "<|assistant|>\n",
    "<start_of_turn>model\n",
];

/// `text` without trailing end-of-turn markers and whitespace.
pub fn strip_end_of_turn(text: &str) -> &str {
    let mut text = text.trim_end();
    while let Some(rest) = END_OF_TURN.iter().find_map(|m| text.strip_suffix(m)) {
        text = rest.trim_end();
    }
    text
}

/// A query that holds neither its prompt nor an assistant turn, so its reply
/// cannot be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the query holds neither its prompt nor an assistant turn; send the decoded prompt + reply as \
     `query` and the prompt text as `prompts`"
)]
pub struct NoReplyFound;

/// The reply in `query` (prompt followed by reply), end-of-turn markers
/// stripped: the text after `prompt` when the query starts with it or holds
/// it, else after the last assistant-turn start.
///
/// # Errors
/// [`NoReplyFound`] when the query holds neither its prompt nor an assistant turn.
pub fn reply_after_prompt<'a>(query: &'a str, prompt: &str) -> Result<&'a str, NoReplyFound> {
    if let Some(reply) = query.strip_prefix(prompt) {
        return Ok(strip_end_of_turn(reply));
    }
    let trimmed = prompt.trim();
    if !trimmed.is_empty()
        && let Some(at) = query.rfind(trimmed)
    {
        // The prompt's trailing newline was trimmed to find it: drop it from the reply too.
        return Ok(strip_end_of_turn(query[at + trimmed.len()..].trim_start()));
    }
    ASSISTANT_STARTS
        .iter()
        .filter_map(|start| query.rfind(start).map(|at| at + start.len()))
        .max()
        .map(|at| strip_end_of_turn(&query[at..]))
        .ok_or(NoReplyFound)
}

/// Why a completion could not be read as actions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CompletionError(pub String);

/// A message's text: its content, or the text parts of a content list.
fn content_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str).unwrap_or("text") == "text")
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    }
}

/// A message's text with its separate reasoning in front as `<think>…</think>`.
fn text_action(message: &Value) -> String {
    let content = content_text(message);
    let reasoning = ["reasoning_content", "reasoning"]
        .iter()
        .find_map(|key| message.get(*key).and_then(Value::as_str))
        .filter(|r| !r.trim().is_empty());
    match reasoning {
        Some(reasoning) => format!("<think>{reasoning}</think>\n{content}"),
        None => content,
    }
}

/// One tool call in OpenAI's shape: `{"type": "function", "function":
/// {"name", "arguments"}}`; a flat `{"name", "arguments"}` call is wrapped.
fn openai_call(call: &Value) -> Value {
    if call.get("function").is_some() {
        return call.clone();
    }
    let name = call.get("name").cloned().unwrap_or(Value::Null);
    let arguments = call
        .get("arguments")
        .or_else(|| call.get("parameters"))
        .cloned()
        .unwrap_or_else(|| json!({}));
    json!({"type": "function", "function": {"name": name, "arguments": arguments}})
}

/// The `action` argument of a call of the action tool, or `None` for a
/// call of any other tool.
fn action_tool_argument(call: &Value, action_tool: &str) -> Option<String> {
    let function = call.get("function").unwrap_or(call);
    if function.get("name").and_then(Value::as_str) != Some(action_tool) {
        return None;
    }
    let arguments = function.get("arguments").cloned().unwrap_or(Value::Null);
    // Arguments as JSON text, as OpenAI sends them; text that is not JSON
    // is the action itself.
    let arguments = match arguments {
        Value::String(text) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        other => other,
    };
    Some(match arguments {
        Value::Object(map) => match map.get("action") {
            Some(Value::String(action)) => action.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        },
        Value::String(action) => action,
        other => other.to_string(),
    })
}

/// The non-empty tool calls of a message.
fn tool_calls(message: &Value) -> &[Value] {
    message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The actions of one assistant message, by the rule of this module.
pub fn message_actions(message: &Value, action_tool: Option<&str>) -> Vec<String> {
    let calls = tool_calls(message);
    if calls.is_empty() {
        return vec![text_action(message)];
    }
    calls
        .iter()
        .map(
            |call| match action_tool.and_then(|tool| action_tool_argument(call, tool)) {
                Some(action) => action,
                None => json!({ "tool_calls": [openai_call(call)] }).to_string(),
            },
        )
        .collect()
}

/// One turn's action: its text, or all its calls as one
/// `{"tool_calls": [...]}` action that the env runs in order.
fn turn_action(message: &Value) -> String {
    let calls = tool_calls(message);
    if calls.is_empty() {
        return text_action(message);
    }
    json!({ "tool_calls": calls.iter().map(openai_call).collect::<Vec<_>>() }).to_string()
}

/// The assistant messages of a completion: a string is one message's
/// content, a message object one message, a list a conversation.
///
/// # Errors
/// Anything else.
fn assistant_messages(completion: &Value) -> Result<Vec<Value>, CompletionError> {
    let is_assistant = |m: &Value| {
        m.is_object() && m.get("role").and_then(Value::as_str).unwrap_or("assistant") == "assistant"
    };
    match completion {
        Value::Null => Ok(Vec::new()),
        Value::String(text) => Ok(vec![json!({"role": "assistant", "content": text})]),
        Value::Object(_) => Ok(vec![completion.clone()]
            .into_iter()
            .filter(is_assistant)
            .collect()),
        Value::Array(messages) => Ok(messages
            .iter()
            .filter(|m| is_assistant(m))
            .cloned()
            .collect()),
        other => Err(CompletionError(format!(
            "a completion must be text or a list of chat messages, got `{}`",
            clip(&other.to_string())
        ))),
    }
}

/// The actions of a completion, one per assistant turn (see the module
/// docs); `action_tool` names the action method of a text env or game.
///
/// # Errors
/// A completion that is neither text nor chat messages.
pub fn completion_actions(
    completion: &Value,
    action_tool: Option<&str>,
) -> Result<Vec<String>, CompletionError> {
    let messages = assistant_messages(completion)?;
    let with_calls = messages.iter().any(|m| !tool_calls(m).is_empty());
    Ok(messages
        .iter()
        .filter(|m| !with_calls || !tool_calls(m).is_empty())
        .flat_map(|m| message_actions(m, action_tool))
        .collect())
}

/// A single-turn answer: the last action of the completion (empty when it
/// holds none).
///
/// # Errors
/// As [`completion_actions`].
pub fn completion_answer(
    completion: &Value,
    action_tool: Option<&str>,
) -> Result<String, CompletionError> {
    Ok(completion_actions(completion, action_tool)?
        .pop()
        .unwrap_or_default())
}

/// A reply cut off by the caller (`finish_reason: "length"`) reads as
/// reasoning opened and never closed: `truncated`, never a pass on a draft.
const CUT_OFF_REPLY: &str = "<think>";

/// The action of a chat-completions response (or of a bare message), with
/// the message itself for a conversation to continue. A choice whose
/// `finish_reason` is `"length"` was cut off: its action is truncated.
///
/// # Errors
/// A response without `choices[0].message` that is not a message itself.
pub fn response_action(response: &Value) -> Result<(String, Value), CompletionError> {
    let message = match response.get("choices") {
        Some(_) => response.pointer("/choices/0/message").ok_or_else(|| {
            CompletionError(format!(
                "no choices[0].message in {}",
                clip(&response.to_string())
            ))
        })?,
        None if ["role", "content", "tool_calls"]
            .iter()
            .any(|key| response.get(*key).is_some()) =>
        {
            response
        }
        None => {
            return Err(CompletionError(format!(
                "a response must be a chat completion or a message, got `{}`",
                clip(&response.to_string())
            )));
        }
    };
    let cut_off = response
        .pointer("/choices/0/finish_reason")
        .and_then(Value::as_str)
        == Some("length");
    let action = if cut_off {
        CUT_OFF_REPLY.to_string()
    } else {
        turn_action(message)
    };
    Ok((action, message.clone()))
}

/// At most 200 characters of `text`, for an error message.
fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROMPT: &str = "<|im_start|>user\nWhat is 2+3?<|im_end|>\n<|im_start|>assistant\n";

    #[test]
    fn the_prompt_is_cut_off_and_end_markers_dropped() {
        let query = format!("{PROMPT}The answer is \\boxed{{5}}<|im_end|><|endoftext|>");
        assert_eq!(
            reply_after_prompt(&query, PROMPT).unwrap(),
            "The answer is \\boxed{5}"
        );
        // Decoding may lose the prompt's leading token: found inside.
        let query = format!("<s>{PROMPT}5</s>");
        assert_eq!(reply_after_prompt(&query, PROMPT).unwrap(), "5");
    }

    #[test]
    fn without_the_prompt_the_last_assistant_turn_counts_or_nothing_does() {
        let query = "<|im_start|>user\nWhat is  2+3?<|im_end|>\n<|im_start|>assistant\n7<|im_end|>";
        assert_eq!(reply_after_prompt(query, PROMPT).unwrap(), "7");
        assert!(reply_after_prompt("What is 2+3? 5", "Compute 2+3").is_err());
        assert_eq!(reply_after_prompt(PROMPT, PROMPT).unwrap(), "");
    }
}
