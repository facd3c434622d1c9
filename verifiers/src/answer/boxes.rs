//! Finding `\boxed{…}` / `\fbox{…}` answers: one left-to-right pass, brace-matched.

use std::ops::Range;

use super::error::AnswerError;

const BOX_COMMANDS: [&str; 2] = ["\\boxed", "\\fbox"];

/// Contents of every top-level `\boxed{…}` / `\fbox{…}` in order, brace-matched (spaces
/// between the command and its brace are allowed; a box inside a box is part of the outer
/// one's content).
///
/// # Errors
/// [`AnswerError::UnbalancedBox`] when a box never closes.
pub fn boxed_contents(text: &str) -> Result<Vec<&str>, AnswerError> {
    Ok(boxed_spans(text)?
        .into_iter()
        .map(|b| &text[b.content])
        .collect())
}

/// One box: the byte ranges of the whole command and of its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxSpan {
    pub whole: Range<usize>,
    pub content: Range<usize>,
}

/// Every top-level box (see [`boxed_contents`]), in order.
///
/// # Errors
/// [`AnswerError::UnbalancedBox`] when a box never closes.
pub fn boxed_spans(text: &str) -> Result<Vec<BoxSpan>, AnswerError> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(rel) = text[at..].find('\\') {
        let start = at + rel;
        let Some(body_start) = box_body_start(text, start) else {
            at = start + 1;
            continue;
        };
        let end = closing_brace(bytes, body_start).ok_or(AnswerError::UnbalancedBox)?;
        found.push(BoxSpan {
            whole: start..end + 1,
            content: body_start..end,
        });
        at = end + 1;
    }
    Ok(found)
}

/// The brace that closes the group whose content starts at `from` (jumping from brace to
/// brace, so a long box costs a few vector steps).
fn closing_brace(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1usize;
    for at in memchr::memchr2_iter(b'{', b'}', &bytes[from..]) {
        if bytes[from + at] == b'{' {
            depth += 1;
        } else {
            depth -= 1;
            if depth == 0 {
                return Some(from + at);
            }
        }
    }
    None
}

/// Where the content of a box starts, when a box command begins at `start`.
fn box_body_start(text: &str, start: usize) -> Option<usize> {
    let rest = &text[start..];
    let command = BOX_COMMANDS.iter().find(|c| rest.starts_with(**c))?;
    let after = &rest[command.len()..];
    let spaces = after.len() - after.trim_start().len();
    after[spaces..]
        .starts_with('{')
        .then_some(start + command.len() + spaces + 1)
}
