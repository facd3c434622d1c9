//! Final-answer extraction shared by every single-turn env.
//!
//! The rules are deliberately strict, because this is a reward function and
//! every leniency is an exploit:
//! - the reasoning is removed first ([`strip_reasoning`]: `<think>…</think>`,
//!   `<thinking>`, `<reasoning>` blocks, and everything before a lone `</think>`, which is
//!   how reasoning opened by the chat template arrives). Reasoning is never graded and never
//!   counts against the answer: draft boxes in it are not hedges, and its length is not
//!   the answer's. Reasoning opened and never closed is [`AnswerError::Truncated`];
//! - the caps apply to what remains: [`MAX_RESPONSE_BYTES`] on the whole response (so the
//!   work is bounded), [`MAX_ANSWER_BYTES`] on the text after the reasoning;
//! - if that text has `\boxed{…}`/`\fbox{…}` boxes, the answer is the last
//!   one, and *every* box must hold the same answer (a box per candidate is a
//!   hedge and gets nothing); prose, a markdown heading, a bold "**Final answer:**" or
//!   math delimiters around the box do not matter, nor does prose after it, but text
//!   after it that offers another candidate (`\boxed{42} or 17`, `\boxed{42}\n17`) is a
//!   hedge ([`trailing_candidate`] states the rule);
//! - otherwise the whole text, trimmed, is the answer (an optional `Answer:` /
//!   `Final answer:` label, also as a markdown heading or in bold, and a trailing
//!   period are allowed);
//! - the presentation of the answer is undone ([`plain_answer`]): a code fence or math
//!   delimiters around it, LaTeX line breaks `\\` (rows), table environments and `&`
//!   column separators, `\text{…}` wrappers and LaTeX spacing.
//!
//! There is no "last number in the text" fallback: it rewards echoing the
//! prompt and padding, which are exactly the hacks we must not pay for.
//!
//! ```
//! use verigym_verifiers::answer::{final_answer, AnswerError};
//! let response = "<think>maybe \\boxed{3}?</think>\n## Final answer\n\\boxed{4}";
//! assert_eq!(final_answer(response).unwrap(), "4");
//! // Template-opened reasoning: the completion starts inside it.
//! assert_eq!(final_answer("so \\boxed{3}? no…</think> \\boxed{4}").unwrap(), "4");
//! assert_eq!(final_answer("\\boxed{1 & 2 \\\\ 3 & 4}").unwrap(), "1 2\n3 4");
//! assert_eq!(final_answer("<think>still thinking"), Err(AnswerError::Truncated));
//! assert!(matches!(final_answer("\\boxed{3} or \\boxed{4}"), Err(AnswerError::Hedged(..))));
//! assert!(matches!(final_answer("\\boxed{3} or 4"), Err(AnswerError::AlternativeOffered(..))));
//! assert_eq!(final_answer("\\boxed{42}\n\nCheck: 6 × 7 = 42.").unwrap(), "42");
//! ```

mod boxes;
mod error;
mod presentation;
mod reasoning;
mod trailing;

pub use boxes::boxed_contents;
pub use error::AnswerError;
pub use presentation::plain_answer;
pub use reasoning::{MAX_RESPONSE_BYTES, strip_reasoning};
pub use trailing::{candidate_after_action, same_tokens, trailing_candidate};

/// Longest text after the reasoning that is read as an answer.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// Labels that may open an unboxed answer (matched ignoring ASCII case).
const ANSWER_LABELS: [&str; 4] = ["final answer is", "the answer is", "final answer", "answer"];

/// The single final answer of a response, following the module rules.
///
/// # Errors
/// An [`AnswerError`]: empty, truncated, oversized, hedged (boxes that disagree) or
/// malformed responses.
pub fn final_answer(response: &str) -> Result<String, AnswerError> {
    let text = strip_reasoning(response)?;
    if text.len() > MAX_ANSWER_BYTES {
        return Err(AnswerError::AnswerTooLong {
            len: text.len(),
            cap: MAX_ANSWER_BYTES,
        });
    }
    let spans = boxes::boxed_spans(&text)?;
    if let Some((last_span, earlier)) = spans.split_last() {
        let last = plain_answer(&text[last_span.clone()]);
        if last.is_empty() {
            return Err(AnswerError::EmptyBox);
        }
        for other in earlier {
            let other = plain_answer(&text[other.clone()]);
            if other != last {
                return Err(AnswerError::Hedged(other, last));
            }
        }
        let tail = &text[last_span.end + 1..];
        if trailing_candidate(tail, &last, &|t| same_tokens(t, &last)).is_some() {
            return Err(AnswerError::AlternativeOffered(last));
        }
        return Ok(last);
    }
    let labelled = strip_label(&text).trim_end_matches('.');
    let answer = plain_answer(labelled);
    let answer = answer.trim_end_matches('.').trim_end();
    if answer.is_empty() {
        return Err(AnswerError::Empty);
    }
    Ok(answer.to_string())
}

/// The text after an answer label: `Answer: 5`, `The answer is 5`, `**Final answer:** 5`,
/// `## Final Answer\n5`. Text without a label is returned trimmed.
fn strip_label(text: &str) -> &str {
    let text = text.trim();
    let body = text.trim_start_matches('#').trim_start();
    let (body, bold) = match body.strip_prefix("**").or_else(|| body.strip_prefix("__")) {
        Some(rest) => (rest.trim_start(), true),
        None => (body, false),
    };
    // `get` rather than slicing: a multi-byte character may straddle the cut.
    let Some(label) = ANSWER_LABELS.iter().find(|label| {
        body.get(..label.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(label))
    }) else {
        return text;
    };
    let after_label = &body[label.len()..];
    let own_line = after_label
        .trim_start_matches([' ', '\t', '\r'])
        .starts_with('\n');
    let mut rest = after_label.trim_start();
    let mut colon = false;
    if let Some(after) = rest.strip_prefix(':') {
        rest = after;
        colon = true;
    }
    if bold {
        rest = rest
            .strip_prefix("**")
            .or_else(|| rest.strip_prefix("__"))
            .unwrap_or(rest);
        if let Some(after) = rest.trim_start().strip_prefix(':') {
            rest = after;
            colon = true;
        }
    }
    // A bare word "answer" must be followed by a colon, a line break or a markdown
    // decoration to be a label (else `answer 42 ...` would lose its first word).
    let labelled = colon || bold || label.ends_with(" is") || text.starts_with('#');
    if !labelled && !own_line {
        return text;
    }
    let rest = rest.trim();
    if bold {
        // `**Final answer: 42**`: the closing bold mark ends the answer.
        return rest
            .strip_suffix("**")
            .or_else(|| rest.strip_suffix("__"))
            .unwrap_or(rest)
            .trim();
    }
    rest
}

#[cfg(test)]
mod tests;
