//! Removing the reasoning from a response: the one implementation every extractor uses.
//!
//! Reasoning models write their reasoning between `<think>` and `</think>` (also
//! `<thinking>`, `<reasoning>`; tags match ASCII-case-insensitively). Two shapes arrive:
//! - **blocks**: `<think>…</think>answer`; every block is removed, text between blocks is
//!   kept (it is visible to the reader, so a box there still counts);
//! - **template-opened**: the chat template put `<think>` in the prompt, so the completion
//!   is `reasoning…</think>answer`. A closing tag with no opening tag before it ends
//!   reasoning that began at the start: everything before it is dropped.
//!
//! A tag opened and never closed means the response was cut off inside its reasoning:
//! [`AnswerError::Truncated`], which scorers report as `truncated`. Nested opening tags
//! inside a block are part of the reasoning. The scan is one pass over the `<` bytes, so
//! its cost is linear in the response length; the whole response is capped at
//! [`MAX_RESPONSE_BYTES`] so that the work stays bounded.

use std::borrow::Cow;

use super::error::AnswerError;

/// Longest response scanned at all, reasoning included (4 MiB: about a million tokens).
pub const MAX_RESPONSE_BYTES: usize = 4 << 20;

const OPENING_TAGS: [&str; 3] = ["<think>", "<thinking>", "<reasoning>"];
const CLOSING_TAGS: [&str; 3] = ["</think>", "</thinking>", "</reasoning>"];

/// The response without its reasoning (borrowed when nothing needs joining).
///
/// # Errors
/// [`AnswerError::ResponseTooLong`] over [`MAX_RESPONSE_BYTES`];
/// [`AnswerError::Truncated`] when reasoning is opened and never closed.
pub fn strip_reasoning(response: &str) -> Result<Cow<'_, str>, AnswerError> {
    if response.len() > MAX_RESPONSE_BYTES {
        return Err(AnswerError::ResponseTooLong {
            len: response.len(),
            cap: MAX_RESPONSE_BYTES,
        });
    }
    let bytes = response.as_bytes();
    // Byte ranges of the text outside reasoning, in order.
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut piece_start = 0;
    let mut inside = false;
    // A tag holds no `<` after its first byte, so every `<` is a possible tag start.
    for (lt, _) in response.match_indices('<') {
        // Every tag starts `</`, `<t` or `<r`: most other `<` go without comparing tags.
        let may_be_tag = bytes
            .get(lt + 1)
            .is_some_and(|b| matches!(b.to_ascii_lowercase(), b'/' | b't' | b'r'));
        if !may_be_tag {
            continue;
        }
        if let Some(len) = tag_len_at(bytes, lt, &CLOSING_TAGS) {
            if !inside {
                // A closing tag with no opening one: the template opened the reasoning,
                // so everything so far was reasoning.
                kept.clear();
            }
            inside = false;
            piece_start = lt + len;
        } else if !inside && tag_len_at(bytes, lt, &OPENING_TAGS).is_some() {
            kept.push((piece_start, lt));
            inside = true;
        }
    }
    if inside {
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

/// Length of the tag from `tags` that starts at `at`, if any (ASCII case-insensitive).
fn tag_len_at(bytes: &[u8], at: usize, tags: &[&str]) -> Option<usize> {
    tags.iter()
        .map(|t| t.as_bytes())
        .find(|t| {
            bytes
                .get(at..at + t.len())
                .is_some_and(|b| b.eq_ignore_ascii_case(t))
        })
        .map(<[u8]>::len)
}
