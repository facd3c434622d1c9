//! Reading one action out of a whole chat reply: the one-answer rule
//! (DESIGN.md rule 4) for every multi-turn env, tool env, web env and game,
//! applied before the env's own parser (single-turn envs read their answer
//! with the verifiers' `final_answer`, which shares the reasoning rule).
//!
//! A model's turn holds more than the action: reasoning (every convention that
//! `strip_reasoning` knows, and an end-of-turn marker that ends the reply), a
//! sentence before the move, a code fence around it, a remark after it.
//! [`parse_reply`] reads:
//!
//! 1. the reply without its reasoning, whole, when the env's parser accepts it
//!    (a reply the parser reads as it is keeps its meaning: tool calls anywhere
//!    in the turn, multi-line moves);
//! 2. else the answer position: every text after an `Action:`, `Move:` or
//!    `Command:` marker, every fenced code block, and every line outside the
//!    fences, that the parser accepts. They must all be the same action: a
//!    turn that holds two different actions is ambiguous and refused.
//!    Everything else (prose before or after, a check, a restatement of the
//!    same move) is not graded.
//!
//! When the parser itself finds two different actions in the whole reply
//! ([`InvalidAction::ambiguous`], e.g. two different tool calls in two
//! formats), the turn is refused at once, since a part read alone would pick
//! one side of the hedge. A line copied from the observation is never an
//! action (echoing the observation must not play the number in its last
//! line). Reasoning opened and never closed (a reply cut off inside it) is
//! refused as `truncated`. Work is linear in the reply: the reasoning scan is
//! one pass, and at most
//! [`MAX_VISIBLE_BYTES`] of visible text are split into lines.

use std::borrow::Cow;
use std::collections::HashSet;

use verigym_verifiers::answer::{AnswerError, strip_reasoning};

use crate::core::InvalidAction;

/// Longest visible text (after the reasoning) searched line by line.
pub const MAX_VISIBLE_BYTES: usize = 64 * 1024;

/// Markers that introduce the action on their line (ASCII case-insensitive,
/// after markdown emphasis or a heading sign).
const MARKERS: [&str; 3] = ["action:", "move:", "command:"];

/// Parses the action in `reply` with the env's own `parse`, by the rule of
/// this module.
///
/// # Errors
/// The parser's reason for the whole reply when no part of it parses;
/// `truncated` when reasoning was never closed; a hedge when two parts parse
/// to different actions.
pub fn parse_reply<A>(
    reply: &str,
    parse: impl Fn(&str) -> Result<A, InvalidAction>,
    observation: impl FnOnce() -> String,
) -> Result<A, InvalidAction> {
    let visible = match strip_reasoning(reply) {
        Ok(visible) => visible,
        Err(AnswerError::Truncated) => {
            return Err(InvalidAction::new(
                "truncated: the reply ends inside its reasoning (`<think>` never closed); close the reasoning, then write the action",
            ));
        }
        Err(e) => return Err(InvalidAction::new(e.to_string())),
    };
    parse_visible(&visible, parse, observation)
}

/// [`parse_reply`] of text whose reasoning is already removed (an env that reads a
/// second, stricter action out of the visible turn `parse_reply` gave it): a reasoning
/// tag the text mentions is text, never reasoning again.
///
/// # Errors
/// As [`parse_reply`], but for `truncated`.
pub fn parse_visible<A>(
    visible: &str,
    parse: impl Fn(&str) -> Result<A, InvalidAction>,
    observation: impl FnOnce() -> String,
) -> Result<A, InvalidAction> {
    let first_error = match parse(visible) {
        Ok(action) => return Ok(action),
        // The parser found two different actions in the turn: a part of it
        // read alone would pick one of them.
        Err(e) if e.ambiguous => return Err(e),
        Err(e) => e,
    };
    let visible = visible.trim();
    if visible.len() > MAX_VISIBLE_BYTES || !visible.contains('\n') && !has_marker(visible) {
        return Err(first_error);
    }
    let observed: HashSet<String> = observation().lines().map(normalized).collect();
    let fresh = |text: &&str| !observed.contains(&normalized(text));
    let mut candidates = marker_texts(visible);
    candidates.extend(fenced_blocks(visible));
    candidates.extend(lines_outside_fences(visible));
    candidates.retain(fresh);
    agreed(&candidates, &parse).unwrap_or(Err(first_error))
}

/// The one action the `candidates` that parse agree on; `None` when none parses.
fn agreed<A>(
    candidates: &[&str],
    parse: &impl Fn(&str) -> Result<A, InvalidAction>,
) -> Option<Result<A, InvalidAction>> {
    let mut chosen: Option<(&str, A)> = None;
    for &text in candidates {
        let Ok(action) = parse(text) else { continue };
        match &chosen {
            Some((first, _)) if normalized(first) != normalized(text) => {
                return Some(Err(hedge(first, text)));
            }
            _ => chosen = Some((text, action)),
        }
    }
    chosen.map(|(_, action)| Ok(action))
}

fn hedge(a: &str, b: &str) -> InvalidAction {
    InvalidAction::new(format!(
        "two different actions in one turn (`{}` and `{}`): send one action per turn",
        clip(a),
        clip(b)
    ))
}

fn clip(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(60) {
        Some((at, _)) => Cow::Owned(format!("{}…", &text[..at])),
        None => Cow::Borrowed(text),
    }
}

/// Whitespace-insensitive, case-insensitive form: `Reveal 3 4` repeats `reveal  3 4`.
fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A line without markdown decoration: list bullets, emphasis, inline code.
fn undecorated(line: &str) -> &str {
    let line = line.trim().trim_start_matches(['#', '>', '-', '•']).trim();
    let line = line.trim_matches('*').trim_matches('_').trim();
    line.strip_prefix('`')
        .and_then(|l| l.strip_suffix('`'))
        .unwrap_or(line)
        .trim()
}

/// The text after a marker at the start of `line`, if it has one.
fn after_marker(line: &str) -> Option<&str> {
    let line = undecorated(line);
    MARKERS.iter().find_map(|m| {
        let head = line.get(..m.len())?;
        head.eq_ignore_ascii_case(m)
            .then(|| undecorated(line[m.len()..].trim_start_matches(['*', '_'])))
    })
}

fn has_marker(text: &str) -> bool {
    text.lines().any(|l| after_marker(l).is_some())
}

/// The non-empty texts after marker lines, in order.
fn marker_texts(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(after_marker)
        .filter(|t| !t.is_empty())
        .collect()
}

/// The trimmed contents of the fenced code blocks (```` ``` ```` lines), in order.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut open: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with("```") {
            match open.take() {
                Some(start) => blocks.push(text[start..offset].trim()),
                None => open = Some(offset + line.len()),
            }
        }
        offset += line.len();
    }
    blocks.retain(|b| !b.is_empty());
    blocks
}

/// Lines with content outside fenced code blocks, decoration removed (the
/// blocks are candidates whole: a multi-line action is not split into moves).
fn lines_outside_fences(text: &str) -> Vec<&str> {
    let mut in_fence = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let line = undecorated(line);
        if !in_fence && !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strict parser: exactly `reveal R C` with digits.
    fn reveal(text: &str) -> Result<(u32, u32), InvalidAction> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words[..] {
            ["reveal", r, c] => match (r.parse(), c.parse()) {
                (Ok(r), Ok(c)) => Ok((r, c)),
                _ => Err(InvalidAction::new("not numbers")),
            },
            _ => Err(InvalidAction::new("usage: reveal R C")),
        }
    }

    const OBSERVATION: &str = "Board:\n# # #\nLast move: reveal 2 2\nMoves left: 5";

    fn read(reply: &str) -> Result<(u32, u32), InvalidAction> {
        parse_reply(reply, reveal, || OBSERVATION.to_string())
    }

    #[test]
    fn the_action_is_found_in_every_style_models_write() {
        let long = "Let me think about cell 3 4 and reveal 1 1 first. ".repeat(2_000);
        for reply in [
            "reveal 3 4".to_string(),
            format!("<think>{long}</think>\nreveal 3 4"),
            format!("{long}</think>\n\nreveal 3 4"),
            "The top-left corner is safe, so I open it.\nreveal 3 4".into(),
            "Thought: the 1 at (2,3) is satisfied.\nAction: reveal 3 4".into(),
            "**Action:** `reveal 3 4`\n\nThis opens the safe corner.".into(),
            "I'll reveal it.\n\n```\nreveal 3 4\n```\n".into(),
            "I'll reveal it.\n\n```text\nreveal 3 4\n```\nDone thinking.".into(),
            "Safe cell found.\n\n**reveal 3 4**".into(),
            "My move:\nreveal 3 4\nreveal 3  4".into(),
            "reveal 3 4\nThat should open the corner.".into(),
            "reveal 3 4\n\nCheck: the 1 at (2,3) is now satisfied.".into(),
            "reveal 3 4<|im_end|>\nreveal 5 6".into(),
            "◁think▷reveal 5 6?◁/think▷reveal 3 4".into(),
            "[THINK]reveal 5 6?[/THINK]\nreveal 3 4".into(),
            "<|channel|>analysis<|message|>reveal 5 6?<|end|><|start|>assistant<|channel|>final<|message|>reveal 3 4<|return|>".into(),
            "<think>x</think>\nreveal 3 4\n\nI closed my reasoning with </think> above.".into(),
        ] {
            assert_eq!(read(&reply), Ok((3, 4)), "{reply:?}");
        }
    }

    #[test]
    fn hedges_truncation_and_prose_after_are_refused() {
        for reply in [
            "reveal 3 4\nreveal 5 6",
            "Action: reveal 3 4\nAction: reveal 5 6",
            "```\nreveal 3 4\n```\nor\n```\nreveal 5 6\n```",
            "<think>reveal 3 4",
            "reveal 3 4\nThat should open the corner.\nreveal 5 6",
            "Action: reveal 3 4\n\n```\nreveal 5 6\n```",
            "",
            "   \n  ",
            "Action:",
            "I am not sure what to do.",
        ] {
            assert!(
                read(reply).is_err(),
                "{reply:?} was read as {:?}",
                read(reply)
            );
        }
        assert!(
            read("<think>reveal 3 4")
                .unwrap_err()
                .to_string()
                .starts_with("truncated")
        );
        assert!(
            read("reveal 3 4\nreveal 5 6")
                .unwrap_err()
                .to_string()
                .contains("two different")
        );
    }

    #[test]
    fn the_reasoning_never_supplies_the_action() {
        // The only move is inside the reasoning: nothing visible to act on.
        assert!(read("<think>reveal 3 4</think>\nI am done.").is_err());
        assert!(read("reveal 3 4</think>\nI give up.").is_err());
        // A draft in template-opened reasoning does not hedge the visible move.
        assert_eq!(read("maybe reveal 5 6?</think>\nreveal 3 4"), Ok((3, 4)));
    }

    #[test]
    fn a_line_copied_from_the_observation_is_not_an_action() {
        // Echoing the observation must not play the move it reports.
        assert!(read(OBSERVATION).is_err());
        // Quoting it before a move of one's own is fine, and not a hedge.
        assert_eq!(read(&format!("{OBSERVATION}\nreveal 3 4")), Ok((3, 4)));
    }

    #[test]
    fn an_ambiguous_reply_is_never_read_in_parts() {
        // A parser that sees two different actions in the whole reply.
        let strict = |text: &str| {
            if text.matches("reveal").count() > 1 {
                Err(InvalidAction::ambiguous("two different reveals"))
            } else {
                reveal(text)
            }
        };
        let reply = "```\nreveal 3 4\n```\nreveal 5 6";
        let got = parse_reply(reply, strict, String::new);
        assert_eq!(got.unwrap_err().reason, "two different reveals");
    }

    #[test]
    fn huge_visible_text_is_refused_without_line_scans() {
        let reply = format!("{}\nreveal 3 4", "word ".repeat(MAX_VISIBLE_BYTES));
        assert!(read(&reply).is_err());
    }
}
