//! Final-answer extraction shared by every single-turn env.
//!
//! The rules are deliberately strict, because this is a reward function and
//! every leniency is an exploit:
//! - `<think>…</think>` blocks are dropped first (reasoning is never graded);
//! - if the response has `\boxed{…}`/`\fbox{…}` boxes, the answer is the last
//!   one, and *every* box must hold the same text (a box per candidate is a
//!   hedge and gets nothing);
//! - otherwise the whole response, trimmed, is the answer (an optional
//!   `Answer:` / `Final answer:` prefix and trailing period are allowed).
//!
//! There is no "last number in the text" fallback: it rewards echoing the
//! prompt and padding, which are exactly the hacks we must not pay for.

use thiserror::Error;

/// Responses longer than this are rejected before any scanning (bounded work).
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;

/// Why no final answer could be taken from a response.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExtractError {
    #[error("empty response")]
    Empty,
    #[error("response is {0} bytes, over the {MAX_RESPONSE_BYTES}-byte cap")]
    TooLong(usize),
    #[error("unbalanced braces in \\boxed{{…}}")]
    UnbalancedBox,
    #[error("empty \\boxed{{}}")]
    EmptyBox,
    #[error("several different boxed answers ({0} and {1}): hedged answers score zero")]
    Hedged(String, String),
}

/// Removes `<think>…</think>` blocks (an unclosed `<think>` drops the rest).
pub fn strip_think(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Contents of every `\boxed{…}` / `\fbox{…}` in order, brace-matched.
///
/// # Errors
/// [`ExtractError::UnbalancedBox`] when a box never closes.
pub fn boxed_contents(text: &str) -> Result<Vec<&str>, ExtractError> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let open = ["\\boxed{", "\\fbox{", "\\boxed {"]
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, p.len())))
            .min();
        let Some((at, len)) = open else { break };
        let body_start = i + at + len;
        let mut depth = 1usize;
        let mut j = body_start;
        while j < bytes.len() && depth > 0 {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        if depth != 0 {
            return Err(ExtractError::UnbalancedBox);
        }
        found.push(&text[body_start..j - 1]);
        i = j;
    }
    Ok(found)
}

/// The single final answer of a response, following the module rules.
///
/// # Errors
/// Empty, oversized, hedged (boxes that disagree) or malformed responses.
pub fn final_answer(response: &str) -> Result<String, ExtractError> {
    if response.len() > MAX_RESPONSE_BYTES {
        return Err(ExtractError::TooLong(response.len()));
    }
    let text = strip_think(response);
    let boxes = boxed_contents(&text)?;
    if let Some(last) = boxes.last() {
        let last = last.trim();
        if last.is_empty() {
            return Err(ExtractError::EmptyBox);
        }
        if let Some(other) = boxes.iter().map(|b| b.trim()).find(|b| *b != last) {
            return Err(ExtractError::Hedged(other.to_string(), last.to_string()));
        }
        return Ok(last.to_string());
    }
    let mut answer = text.trim();
    for prefix in [
        "final answer:",
        "answer:",
        "final answer is",
        "the answer is",
    ] {
        // `get` rather than slicing: a multi-byte character may straddle the cut.
        if answer
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
        {
            answer = answer[prefix.len()..].trim();
        }
    }
    let answer = answer.trim_end_matches('.').trim();
    let answer = answer
        .strip_prefix('$')
        .and_then(|a| a.strip_suffix('$'))
        .unwrap_or(answer)
        .trim();
    if answer.is_empty() {
        return Err(ExtractError::Empty);
    }
    Ok(answer.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_last_box_and_strips_reasoning() {
        assert_eq!(final_answer("so \\boxed{12}").unwrap(), "12");
        assert_eq!(
            final_answer("<think>\\boxed{3}</think> done: \\boxed{ 4 }").unwrap(),
            "4"
        );
        assert_eq!(
            final_answer("\\boxed{\\frac{1}{2}}").unwrap(),
            "\\frac{1}{2}"
        );
        assert_eq!(final_answer("Answer: -7/3.").unwrap(), "-7/3");
        assert_eq!(final_answer("$5$").unwrap(), "5");
    }

    #[test]
    fn rejects_hedges_empties_and_unbalanced_boxes() {
        assert!(matches!(
            final_answer("\\boxed{3} or \\boxed{4}"),
            Err(ExtractError::Hedged(..))
        ));
        assert_eq!(final_answer("\\boxed{}"), Err(ExtractError::EmptyBox));
        assert_eq!(final_answer("   "), Err(ExtractError::Empty));
        assert_eq!(final_answer("\\boxed{1"), Err(ExtractError::UnbalancedBox));
        assert_eq!(final_answer("<think>12"), Err(ExtractError::Empty));
        let long = "1".repeat(MAX_RESPONSE_BYTES + 1);
        assert!(matches!(final_answer(&long), Err(ExtractError::TooLong(_))));
    }

    #[test]
    fn multibyte_text_near_the_prefix_length_does_not_panic() {
        assert_eq!(
            final_answer("3 × [7 + 100 − 25] = 246").unwrap(),
            "3 × [7 + 100 − 25] = 246"
        );
        assert_eq!(final_answer("ééééééé").unwrap(), "ééééééé");
    }

    #[test]
    fn repeated_identical_boxes_are_not_a_hedge() {
        assert_eq!(final_answer("\\boxed{7} so \\boxed{7}").unwrap(), "7");
    }
}
