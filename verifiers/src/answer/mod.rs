//! The one graded answer: how every single-turn env reads a reply (DESIGN.md rule 4).
//!
//! 1. **Reasoning goes first** ([`strip_reasoning`]): `<think>`, `<thinking>`,
//!    `<reasoning>`, Kimi's `◁think▷`, Magistral's `[THINK]` blocks, template-opened
//!    reasoning ending in a lone closing tag, gpt-oss harmony analysis channels; a chat
//!    end-of-turn marker ends the reply. Reasoning is never graded and never counts
//!    against the answer. Reasoning opened and never closed is
//!    [`AnswerError::Truncated`]: a cut-off reply never passes on a draft.
//! 2. **Answer position** ([`position`]): the last `\boxed{…}`/`\fbox{…}`; with no box,
//!    the last final-answer statement (`Answer: R`, `The final answer is R.`, `**Final
//!    Answer:** R`); with neither, the whole visible text (an optional label and a
//!    trailing period allowed). Exactly this one answer is graded.
//! 3. **Ambiguity**: every other box and statement must agree with it. Two boxes that
//!    differ, or a box and a statement that disagree (either order), are two answers:
//!    [`AnswerError::Hedged`]. Alternatives inside the box (`3 or 4`, every option) are
//!    left to the env's comparison, which never reads them as one value.
//! 4. **Nothing else is graded**: a check after the box (`Check: 6 × 7 = 42`), a
//!    restatement in bold, an explanation, prose that mentions other values. An
//!    alternative in prose can never raise a reward when only one answer is graded, and
//!    a strict rule on prose only punishes honest habits.
//! 5. **Presentation is undone** ([`plain_answer`]): fences and math delimiters around
//!    the answer, LaTeX rows and tables, `\text{…}` wrappers, spacing, full-width
//!    characters and the Unicode minus, row labels and list numbering of multi-line
//!    answers, a period closing a one-line answer.
//!
//! Caps apply to what remains after the reasoning: [`MAX_RESPONSE_BYTES`] on the whole
//! response, [`MAX_ANSWER_BYTES`] on the visible text. Every step is linear in the reply.
//! There is no "last number in the text" fallback: it rewards echoing the prompt and
//! padding.
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
//! assert!(matches!(final_answer("\\boxed{3}\n\nFinal answer: 4"), Err(AnswerError::Hedged(..))));
//! // Text outside answer position is not graded.
//! assert_eq!(final_answer("\\boxed{42}\n\nCheck: 6 × 7 = 42.").unwrap(), "42");
//! assert_eq!(final_answer("\\boxed{42} (17 was my first guess)").unwrap(), "42");
//! assert_eq!(final_answer("\\boxed{42}<|im_end|>\n\\boxed{17}").unwrap(), "42");
//! ```

mod boxes;
mod error;
mod lines;
pub mod position;
mod presentation;
mod reasoning;
mod trailing;

pub use boxes::{BoxSpan, boxed_contents, boxed_spans};
pub use error::AnswerError;
pub use lines::lines;
pub(crate) use presentation::normal_chars;
pub use presentation::plain_answer;
pub use reasoning::{END_OF_TURN_MARKERS, MAX_RESPONSE_BYTES, strip_reasoning};
pub use trailing::{same_tokens, states_other};

/// Longest visible text (after the reasoning) that is read: room for a long reply from
/// a model that reasons in the open (about 60k tokens).
pub const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// Labels that may open an unboxed answer (matched ignoring ASCII case).
const ANSWER_LABELS: [&str; 4] = ["final answer is", "the answer is", "final answer", "answer"];

/// The single final answer of a response, following the module rules.
///
/// # Errors
/// An [`AnswerError`]: empty, truncated, oversized, ambiguous (two answers in answer
/// position) or malformed responses.
pub fn final_answer(response: &str) -> Result<String, AnswerError> {
    let text = strip_reasoning(response)?;
    if text.len() > MAX_ANSWER_BYTES {
        return Err(AnswerError::AnswerTooLong {
            len: text.len(),
            cap: MAX_ANSWER_BYTES,
        });
    }
    let spans = boxes::boxed_spans(&text)?;
    let wholes: Vec<_> = spans.iter().map(|b| b.whole.clone()).collect();
    let statements = position::statements(&text, &wholes);
    let statement_texts = statements.iter().map(|s| s.text(&text));
    let (answer, others): (String, Vec<&str>) = match spans.split_last() {
        Some((last, earlier)) => {
            let answer = plain_answer(&text[last.content.clone()]);
            if answer.is_empty() {
                return Err(AnswerError::EmptyBox);
            }
            for other in earlier {
                let other = plain_answer(&text[other.content.clone()]);
                if !same_box(&other, &answer) {
                    return Err(AnswerError::Hedged(other, answer));
                }
            }
            (answer, statement_texts.collect())
        }
        None => {
            let mut texts: Vec<&str> = statement_texts.collect();
            match texts.pop() {
                Some(last) => (one_line_answer(last), texts),
                None => (one_line_answer(strip_label(&text)), Vec::new()),
            }
        }
    };
    if answer.is_empty() {
        return Err(AnswerError::Empty);
    }
    let same = |t: &str| plain_answer(t) == answer;
    if let Some(other) = others.into_iter().find(|t| states_other(t, &answer, &same)) {
        return Err(AnswerError::Hedged(plain_answer(other), answer));
    }
    Ok(answer)
}

/// Two boxes hold one answer when they differ only in spacing and ASCII case, or are the
/// same number (`42` and `42.0`). Punctuation and operators count: `(3+4)*5` and
/// `(3*4)+5` hold the same words but are two answers.
fn same_box(a: &str, b: &str) -> bool {
    let compact = |t: &str| {
        t.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect::<String>()
    };
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    a == b
        || compact(a) == compact(b)
        || matches!((number(a), number(b)), (Some(x), Some(y)) if x == y)
}

/// An unboxed answer's plain text, without a closing period. A grid (a block of two
/// or more rows of one length) keeps its dots, which are cells (`..#`), except one
/// that makes its last row longer than the others.
fn one_line_answer(text: &str) -> String {
    let text = text.trim();
    let grid_body = |t: &str| {
        let rows: Vec<&str> = t.lines().map(str::trim).collect();
        let width = rows.first().map(|r| r.chars().count());
        (rows.len() >= 2 && rows.iter().all(|r| Some(r.chars().count()) == width))
            .then(|| t.to_string())
    };
    if let Some(grid) = grid_body(text).or_else(|| text.strip_suffix('.').and_then(grid_body)) {
        return plain_answer(&grid);
    }
    let answer = plain_answer(text.trim_end_matches('.'));
    answer.trim_end_matches('.').trim_end().to_string()
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
