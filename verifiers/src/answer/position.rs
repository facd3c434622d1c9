//! Answer position: where in the visible text the one graded answer sits.
//!
//! The rule (DESIGN.md rule 4), once for every reader:
//! - the answer is the last `\boxed{}` / `\fbox{}`; with no box, the last **final-answer
//!   statement** (`Answer: R`, `The final answer is R.`, `**Final Answer:** R`, a
//!   `## Final Answer` heading over the answer); with neither, the whole visible text;
//! - every other box and every statement is in answer position too, and must agree with
//!   the graded answer: two boxes that differ (however far apart), or a box and a
//!   statement that disagree (in either order), are two answers, and the reply is
//!   ambiguous;
//! - everything else is never graded: checks and restatements after the answer,
//!   explanations, prose that mentions other values (`17 was my first guess`, `\boxed{42},
//!   though 17 also came up`).
//!
//! A statement is an answer label at the start of a sentence, after at most a few
//! lead-in words (`So the answer is`, `Therefore, the final answer is`, `My final
//! answer:`, `On reflection, the final answer is`) none of which makes the sentence
//! talk about an answer instead (`whether`, `first`, `check`, `to`, …), followed by `:`, `=`, `is`, or a line break (the heading form, whose answer
//! is the next paragraph). `The answer is not R` states nothing, and a sentence that
//! only talks about the answer (`let me check whether the answer is right`) is no
//! statement. A statement whose text holds a box is that box.

use std::ops::Range;

/// Words that, before an answer label in its sentence, make it talk about an answer
/// rather than state the final one (`let me check whether the answer is right`, `my
/// first answer was 17`, `to answer this`).
const NOT_LEAD_INS: &[&str] = &[
    "whether",
    "if",
    "check",
    "checking",
    "verify",
    "verifying",
    "confirm",
    "not",
    "know",
    "find",
    "finding",
    "compute",
    "computing",
    "get",
    "getting",
    "what",
    "how",
    "why",
    "when",
    "where",
    "which",
    "suppose",
    "assume",
    "assuming",
    "unless",
    "until",
    "before",
    "after",
    "maybe",
    "perhaps",
    "possibly",
    "could",
    "might",
    "would",
    "should",
    "may",
    "wrong",
    "incorrect",
    "first",
    "initial",
    "draft",
    "previous",
    "earlier",
    "original",
    "tentative",
    "partial",
    "intermediate",
    "guess",
    "compare",
    "see",
    "to",
    "an",
    "no",
    "another",
    "other",
    "alternative",
    "expected",
    "gold",
    "reference",
    "question",
    "asks",
    "for",
];

/// The word every answer label holds.
const LABEL: &str = "answer";

/// Most lead-in words before an answer label.
const MAX_LEAD_INS: usize = 6;

/// Longest statement text kept (a paragraph under a heading).
const MAX_STATEMENT_BYTES: usize = 2 * 1024;

/// Most statements read, the last ones (bounded work on a reply of labels).
const MAX_STATEMENTS: usize = 256;

/// How far back the lead-in of a label is looked for.
const MAX_LEAD_IN_BYTES: usize = 120;

/// A final-answer statement: the byte range of its answer text in the visible text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub span: Range<usize>,
}

impl Statement {
    /// The statement's answer text with markdown emphasis and end punctuation removed,
    /// math delimiters kept (a math reader reads what they delimit as LaTeX).
    pub fn math_text<'t>(&self, visible: &'t str) -> &'t str {
        visible[self.span.clone()]
            .trim()
            .trim_matches(['*', '_'])
            .trim_end_matches(['.', ',', ';', '!'])
            .trim()
    }

    /// The statement's answer text, decoration (bold, math delimiters, end punctuation)
    /// removed.
    pub fn text<'t>(&self, visible: &'t str) -> &'t str {
        undecorated(&visible[self.span.clone()])
    }
}

/// Every final-answer statement of `visible`, in order, except those whose answer text
/// overlaps a box (`boxes`: byte ranges of whole box commands).
pub fn statements(visible: &str, boxes: &[Range<usize>]) -> Vec<Statement> {
    statements_and_negation(visible, boxes).0
}

/// [`statements`], and whether a negated statement (`The answer is not 41.`) outside
/// `boxes` was seen too, from one scan: a reader that would otherwise read a value out
/// of the prose must not read that one.
pub fn statements_and_negation(visible: &str, boxes: &[Range<usize>]) -> (Vec<Statement>, bool) {
    let mut negated_seen = false;
    let statements = scan(visible, boxes)
        .into_iter()
        .filter_map(|(s, negated)| {
            negated_seen |= negated;
            (!negated).then_some(s)
        })
        .collect();
    (statements, negated_seen)
}

/// Statements with whether each is negated.
fn scan(visible: &str, boxes: &[Range<usize>]) -> Vec<(Statement, bool)> {
    // Most replies hold no label at all: say so without copying the text.
    // The `w` of `answer` is a rarer letter than its `a`: look for those, then the word.
    let bytes = visible.as_bytes();
    let holds_label = memchr::memchr2_iter(b'w', b'W', bytes).any(|w| {
        w.checked_sub(3)
            .and_then(|start| bytes.get(start..start + LABEL.len()))
            .is_some_and(|word| word.eq_ignore_ascii_case(LABEL.as_bytes()))
    });
    if !holds_label {
        return Vec::new();
    }
    let lower = visible.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut found = Vec::new();
    for (at, _) in lower.rmatch_indices(LABEL) {
        if found.len() == MAX_STATEMENTS {
            break;
        }
        let before_ok = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        let after = at + LABEL.len();
        let after_ok = bytes.get(after).is_none_or(|b| !b.is_ascii_alphanumeric());
        if !before_ok || !after_ok || !led_in(&lower[..at]) {
            continue;
        }
        let Some(span) = answer_after_label(visible, &lower, after) else {
            continue;
        };
        let text = undecorated(&visible[span.clone()]);
        let negated = text
            .get(..4)
            .is_some_and(|w| w.eq_ignore_ascii_case("not "));
        let overlaps_box = boxes
            .iter()
            .any(|b| b.start < span.end && span.start < b.end);
        if text.is_empty() || overlaps_box {
            continue;
        }
        found.push((Statement { span }, negated));
    }
    found.reverse();
    found
}

/// Whether the text of the sentence before an answer label is only lead-in words.
fn led_in(head: &str) -> bool {
    let mut from = head.len().saturating_sub(MAX_LEAD_IN_BYTES);
    while !head.is_char_boundary(from) {
        from += 1;
    }
    let head = &head[from..];
    let sentence_start = head
        .char_indices()
        .rev()
        .find(|&(i, c)| {
            c == '\n' || (matches!(c, '.' | '!' | '?') && head[i + 1..].starts_with(' '))
        })
        .map_or(0, |(i, c)| i + c.len_utf8());
    if sentence_start == 0 && from > 0 {
        // The sentence started further back: more words than a lead-in has.
        return false;
    }
    let words: Vec<&str> = head[sentence_start..]
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    words.len() <= MAX_LEAD_INS && !words.iter().any(|w| NOT_LEAD_INS.contains(w))
}

/// The range of the answer text after a label ending at `after`: `: R`, `= R`, `is R`,
/// `would be R`, or the next paragraph when the label ends its line.
fn answer_after_label(visible: &str, lower: &str, after: usize) -> Option<Range<usize>> {
    let skip = |from: usize, chars: &[char]| {
        from + lower[from..].len() - lower[from..].trim_start_matches(chars).len()
    };
    let mut at = skip(after, &[' ', '\t', '*', '_']);
    let rest = &lower[at..];
    let mut heading = false;
    if let Some(connector) = [":", "=", "is", "would be", "will be", "should be"]
        .iter()
        .find(|c| rest.starts_with(**c))
    {
        at += connector.len();
        if connector.ends_with(|c: char| c.is_ascii_alphabetic())
            && lower[at..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '\'')
        {
            // `isn't`, `island`: not the connector.
            return None;
        }
    } else if rest.starts_with(['\n', '\r']) || rest.is_empty() {
        heading = true;
    } else {
        return None;
    }
    at = skip(at, &[' ', '\t', '*', '_', ':']);
    if lower[at..].starts_with(['\n', '\r']) {
        heading = true;
    }
    if heading {
        at = skip(at, &[' ', '\t', '\r', '\n', '*', '_', ':']);
        let end = paragraph_end(visible, at);
        return (at < end).then_some(at..end);
    }
    let end = sentence_end(visible, at);
    (at < end).then_some(at..end)
}

/// The end of the sentence starting at `from`: a line break, or a `.`, `!` or `?`
/// followed by a space, outside math delimiters and braces.
fn sentence_end(visible: &str, from: usize) -> usize {
    let bytes = visible.as_bytes();
    let mut depth = 0usize;
    let mut in_math = false;
    let mut limit = (from + MAX_STATEMENT_BYTES).min(bytes.len());
    while !visible.is_char_boundary(limit) {
        limit -= 1;
    }
    for i in from..limit {
        match bytes[i] {
            b'\n' => return i,
            b'$' => in_math = !in_math,
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'.' | b'!' | b'?'
                if depth == 0
                    && !in_math
                    && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()) =>
            {
                return i;
            }
            _ => {}
        }
    }
    limit
}

/// The end of the paragraph starting at `from`: a blank line.
fn paragraph_end(visible: &str, from: usize) -> usize {
    let limit = (from + MAX_STATEMENT_BYTES).min(visible.len());
    let mut end = visible[from..]
        .find("\n\n")
        .map_or(visible.len(), |i| from + i);
    end = end.min(limit);
    while !visible.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// A statement's text without bold, math delimiters and end punctuation around it.
pub(crate) fn undecorated(text: &str) -> &str {
    let mut t = text.trim();
    loop {
        let before = t.len();
        for (open, close) in [
            ("**", "**"),
            ("__", "__"),
            ("$$", "$$"),
            ("$", "$"),
            ("\\(", "\\)"),
            ("\\[", "\\]"),
        ] {
            if let Some(inner) = t.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
                t = inner.trim();
            }
        }
        t = t
            .trim_end_matches(['.', ',', ';', '!', '*', '_'])
            .trim_start_matches(['*', '_'])
            .trim();
        if t.len() == before {
            return t;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(visible: &str) -> Vec<&str> {
        statements(visible, &[])
            .into_iter()
            .map(|s| undecorated(&visible[s.span]))
            .collect()
    }

    #[test]
    fn statements_in_the_forms_models_write() {
        assert_eq!(texts("Answer: 42"), ["42"]);
        assert_eq!(texts("So the answer is 42. Done."), ["42"]);
        assert_eq!(texts("Therefore, the final answer is $-7$."), ["-7"]);
        assert_eq!(texts("**Final Answer:** 42"), ["42"]);
        assert_eq!(texts("**Final Answer: 42**"), ["42"]);
        assert_eq!(texts("## Final Answer\n\n1 2\n3 4\n\nDone."), ["1 2\n3 4"]);
        assert_eq!(
            texts("The answer is 5 and 6 is wrong."),
            ["5 and 6 is wrong"]
        );
    }

    #[test]
    fn talk_about_the_answer_is_no_statement() {
        for text in [
            "The answer is not 41.",
            "Let me check whether the answer is right.",
            "To answer this, we count.",
            "The answer isn't 3.",
            "I answered 4 before.",
            "Before I answer: 3 + 4 = 7.",
        ] {
            assert!(texts(text).is_empty(), "{text:?}: {:?}", texts(text));
        }
    }

    #[test]
    fn a_statement_holding_a_box_is_that_box() {
        let visible = "The final answer is \\boxed{42}.";
        let start = visible.find('\\').unwrap();
        let the_box = start..visible.len() - 1;
        assert!(statements(visible, std::slice::from_ref(&the_box)).is_empty());
    }
}
