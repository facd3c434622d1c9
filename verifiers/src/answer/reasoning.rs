//! Removing the reasoning from a response: the one implementation every reader uses.
//!
//! What is reasoning, and what is visible text (the rule of DESIGN.md rule 4):
//! - **Blocks** the reply opens: `<think>…</think>`, `<thinking>`, `<reasoning>` (ASCII
//!   case-insensitive), Kimi's `◁think▷…◁/think▷` and Magistral's `[THINK]…[/THINK]`. An
//!   opening tag opens a block only at the start of the reply or of a line, outside a code
//!   fence of visible text: visible text that merely mentions a tag (`I wrap drafts in
//!   <think> tags`) is text. Nested opening tags inside a block are reasoning.
//! - **Template-opened reasoning**: the chat template put the opening tag in the prompt,
//!   so the completion is `reasoning…</think>answer`. A closing tag is read that way only
//!   when it is the reply's first tag and stands outside a code fence and inline code;
//!   a closing tag after a block was closed, or inside a fence of visible text, is text
//!   and never erases what precedes it.
//! - **gpt-oss harmony**: `<|channel|>analysis<|message|>…<|end|>` messages are
//!   reasoning; the visible text is the last `final` channel's message. A harmony reply
//!   with no final message never reached its answer: truncated.
//! - **End of turn**: a chat end-of-turn marker (`<|im_end|>`, `<|eot_id|>`, `<|eom_id|>`,
//!   `<|end|>`, `</s>`, `<|endoftext|>`, `<|return|>`, Gemma's `<end_of_turn>`) ends the
//!   reply; what follows it was never part of the turn.
//!
//! A block opened and never closed means the reply was cut off inside its reasoning:
//! [`AnswerError::Truncated`]; it never passes on a draft. Reasoning returned in a
//! separate field (`reasoning_content`) never reaches this function. The scan is one
//! pass over the bytes, so its cost is linear in the response length; the whole
//! response is capped at [`MAX_RESPONSE_BYTES`] so that the work stays bounded.

use std::borrow::Cow;

use super::error::AnswerError;

/// Longest response scanned at all, reasoning included (4 MiB: about a million tokens).
pub const MAX_RESPONSE_BYTES: usize = 4 << 20;

/// Reasoning block delimiters, (opening, closing), matched ignoring ASCII case.
const BLOCKS: [(&str, &str); 5] = [
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
    ("◁think▷", "◁/think▷"),
    ("[THINK]", "[/THINK]"),
];

/// Markers that end a chat turn (the harmony ones are read by [`harmony_final`] first).
pub const END_OF_TURN_MARKERS: [&str; 8] = [
    "<|im_end|>",
    "<end_of_turn>",
    "<|eot_id|>",
    "<|eom_id|>",
    "<|end|>",
    "</s>",
    "<|endoftext|>",
    "<|return|>",
];

/// The response without its reasoning (borrowed when nothing needs joining).
///
/// # Errors
/// [`AnswerError::ResponseTooLong`] over [`MAX_RESPONSE_BYTES`];
/// [`AnswerError::Truncated`] when reasoning is opened and never closed (or a harmony
/// reply has no final message).
pub fn strip_reasoning(response: &str) -> Result<Cow<'_, str>, AnswerError> {
    if response.len() > MAX_RESPONSE_BYTES {
        return Err(AnswerError::ResponseTooLong {
            len: response.len(),
            cap: MAX_RESPONSE_BYTES,
        });
    }
    // Every tag and marker starts with `<`, `[` or the first byte of `◁`: a reply
    // without any is all visible text (most short answers).
    if memchr::memchr3(b'<', b'[', 0xE2, response.as_bytes()).is_none() {
        return Ok(Cow::Borrowed(response));
    }
    let response = match harmony_final(response) {
        Some(Ok(final_message)) => final_message,
        Some(Err(e)) => return Err(e),
        None => response,
    };
    let response = end_of_turn(response);
    strip_blocks(response)
}

/// The reply up to its first end-of-turn marker.
fn end_of_turn(response: &str) -> &str {
    // Every marker starts with `<`: one scan over those.
    for (at, _) in response.match_indices('<') {
        let rest = &response[at..];
        if END_OF_TURN_MARKERS.iter().any(|m| rest.starts_with(m)) {
            return &response[..at];
        }
    }
    response
}

/// The last `final` message of a harmony reply; `None` when the reply is not one.
fn harmony_final(response: &str) -> Option<Result<&str, AnswerError>> {
    const CHANNEL: &str = "<|channel|>";
    const MESSAGE: &str = "<|message|>";
    if !response.contains(CHANNEL) {
        return None;
    }
    let mut last_final = None;
    for piece in response.split(CHANNEL).skip(1) {
        let Some((header, body)) = piece.split_once(MESSAGE) else {
            continue;
        };
        let channel = header.split_whitespace().next().unwrap_or("");
        if channel.starts_with("final") {
            let end = ["<|end|>", "<|return|>", "<|start|>", "<|call|>"]
                .iter()
                .filter_map(|m| body.find(m))
                .min()
                .unwrap_or(body.len());
            last_final = Some(&body[..end]);
        }
    }
    Some(last_final.ok_or(AnswerError::Truncated))
}

/// One pass over the text: blocks, template-opened reasoning, fences of visible text.
fn strip_blocks(response: &str) -> Result<Cow<'_, str>, AnswerError> {
    let bytes = response.as_bytes();
    // Byte ranges of the text outside reasoning, in order.
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut piece_start = 0;
    // The closing tag of the open block, if inside one.
    let mut inside: Option<&str> = None;
    let mut any_tag = false;
    let mut in_fence = false;
    // The first byte of the current line that is not a space or tab.
    let mut line_first = first_non_blank(bytes, 0);
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if b == b'\n' {
            line_first = first_non_blank(bytes, at + 1);
            at += 1;
            continue;
        }
        if inside.is_none() && at == line_first && is_fence(&bytes[at..]) {
            in_fence = !in_fence;
            at += 3;
            continue;
        }
        // Every tag starts with `<`, `[` or the first byte of `◁` (0xE2).
        if !matches!(b, b'<' | b'[' | 0xE2) {
            at += 1;
            continue;
        }
        match inside {
            Some(close) if starts_with_ignore_case(&bytes[at..], close) => {
                inside = None;
                at += close.len();
                piece_start = at;
                // Visible text starts afresh after the block, as on a new line.
                line_first = first_non_blank(bytes, at);
                continue;
            }
            Some(_) => {}
            None if !in_fence => {
                if let Some((open, close)) = BLOCKS
                    .iter()
                    .find(|(open, _)| starts_with_ignore_case(&bytes[at..], open))
                    && at == line_first
                {
                    kept.push((piece_start, at));
                    inside = Some(close);
                    any_tag = true;
                    at += open.len();
                    continue;
                }
                if let Some((_, close)) = BLOCKS
                    .iter()
                    .find(|(_, close)| starts_with_ignore_case(&bytes[at..], close))
                {
                    let in_code = at > 0 && bytes[at - 1] == b'`';
                    if !any_tag && !in_code {
                        // The reply's first tag closes reasoning the template opened:
                        // everything so far was reasoning.
                        kept.clear();
                        piece_start = at + close.len();
                        line_first = first_non_blank(bytes, piece_start);
                    }
                    any_tag = true;
                    at += close.len();
                    continue;
                }
            }
            None => {}
        }
        at += 1;
    }
    if inside.is_some() {
        return Err(AnswerError::Truncated);
    }
    kept.push((piece_start, response.len()));
    kept.retain(|(a, b)| a < b);
    Ok(match kept.as_slice() {
        [] => Cow::Borrowed(""),
        [(a, b)] => Cow::Borrowed(&response[*a..*b]),
        pieces => Cow::Owned(pieces.iter().map(|&(a, b)| &response[a..b]).collect()),
    })
}

/// Offset of the first byte of the line at `line_start` that is not a space or tab.
fn first_non_blank(bytes: &[u8], line_start: usize) -> usize {
    line_start
        + bytes[line_start..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
            .count()
}

/// A code fence line: three backticks or tildes.
fn is_fence(rest: &[u8]) -> bool {
    rest.starts_with(b"```") || rest.starts_with(b"~~~")
}

fn starts_with_ignore_case(bytes: &[u8], tag: &str) -> bool {
    bytes
        .get(..tag.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(tag.as_bytes()))
}
