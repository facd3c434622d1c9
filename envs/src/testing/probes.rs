//! The audit's text probes: one answer per task, built from the task's
//! reference, another task's reference and the card, given every turn.
//! Each must fail: empty and whitespace answers, a constant (another task's
//! reference), the echoed prompt and givens, hedges, and junk in the answer
//! format.
//!
//! Hedges carry the right answer and a second one in answer position (the
//! one-answer rule, DESIGN.md rule 4): in the answer's format (`A or B`,
//! `A, B`, two boxes side by side or far apart, both inside one box), a box
//! and a final-answer statement that disagree (either order), and outside
//! the format where the whole reply is the answer ([`OUTSIDE_HEDGES`]: the
//! other answer's bare words after an unboxed answer, after `or`, and inside
//! `\text{}` within the answer or its box). A negated statement (`The answer
//! is not R`) states nothing, and a reply cut off inside its reasoning never
//! passes on the draft there. All must fail. Prose after a box is not in
//! answer position, so an alternative there neither passes nor fails a reply
//! by itself (the completeness styles check that side).

use crate::card::TaskCard;
use crate::rng::Rng;

/// A probe's answer from the task's reference action, another task's
/// reference action, the card, and a generator.
pub(crate) type ProbeAnswer = fn(&str, &str, &TaskCard, &mut Rng) -> String;

/// The text probes that must fail, by name.
pub(crate) const TEXT_PROBES: &[(&str, ProbeAnswer)] = &[
    ("empty", |_, _, _, _| String::new()),
    ("whitespace", |_, _, _, _| " \n\t ".into()),
    ("constant_other_reference", |_, other, _, _| {
        other.to_string()
    }),
    ("echo_prompt", |_, _, card, _| card.prompt.clone()),
    ("echo_givens", |_, _, card, _| card.task.to_string()),
    ("hedge_or", |right, other, _, _| {
        format!("{right} or {other}")
    }),
    ("hedge_list", |right, other, _, _| {
        format!("{right}, {other}")
    }),
    ("hedge_boxes", |right, other, _, _| {
        format!("\\boxed{{{}}} \\boxed{{{}}}", unbox(right), unbox(other))
    }),
    ("hedge_boxes_far_apart", |right, other, _, _| {
        // A program's answer position is its last fenced block (the in-format
        // hedges cover a second program): these probes are for values.
        if is_program(right) {
            return String::new();
        }
        format!(
            "\\boxed{{{}}}\n\nLet me double-check by working through every case again; the checks all hold.\n\nSo, in the end: \\boxed{{{}}}",
            unbox(right),
            unbox(other)
        )
    }),
    ("hedge_inside_box_or", |right, other, _, _| {
        if is_program(right) {
            return String::new();
        }
        format!(
            "\\boxed{{{} \\text{{ or }} {}}}",
            unbox(right),
            unbox(other)
        )
    }),
    ("statement_after_box_disagrees", |right, other, _, _| {
        if is_program(right) {
            return String::new();
        }
        format!("{right}\n\nFinal answer:\n{}", unbox(other))
    }),
    ("statement_before_box_disagrees", |right, other, _, _| {
        if is_program(right) {
            return String::new();
        }
        format!("The final answer is:\n{}\n\n{right}", unbox(other))
    }),
    // A negated statement of the answer: read from its statement, so only where the
    // answer is a value (an action or a program is read from its own syntax).
    ("negated_statement", |right, _, _, _| {
        let value = unbox(right);
        match value.contains("```") || value.contains("<tool_call>") {
            true => String::new(),
            false => format!("The answer is not {value}."),
        }
    }),
    ("truncated_after_draft", |right, _, _, _| {
        format!("<think>Let me try {right} as a draft and check it")
    }),
    ("harmony_analysis_only", |right, _, _, _| {
        format!("<|channel|>analysis<|message|>The answer is {right}.<|end|>")
    }),
    // Another task's reference, digits randomised: the right format and a
    // typical magnitude, but nothing learned from this task.
    ("junk_in_format", |_, other, _, rng| {
        randomise_digits(other, rng)
    }),
];

/// A hedge outside the answer format, from the task's reference and another
/// task's; `None` where the reference is a fenced program.
pub(crate) type OutsideHedge = fn(&str, &str) -> Option<String>;

/// Hedges outside the answer format: the other answer's bare words after
/// the answer, after `or`, and in `\text{(or maybe …)}`. A program is judged
/// by running it, and words outside its fence are not code, so these do not
/// apply to fenced programs (a second program is a second fence, which the
/// in-format hedges cover). Nor after a tool call: a call is read from its
/// call syntax, and words after it are prose that is never read (DESIGN
/// rule 4; a second call is a second `<tool_call>`, which the in-format
/// hedges cover).
pub(crate) const OUTSIDE_HEDGES: &[(&str, OutsideHedge)] = &[
    ("hedge_outside_after", |right, other| {
        unboxed(right, other).then(|| format!("{right} {}", bare_words(other)))
    }),
    ("hedge_outside_or", |right, other| {
        unboxed(right, other).then(|| format!("{right} or {}", bare_words(other)))
    }),
    ("hedge_outside_text", |right, other| {
        if !applies(right, other) {
            return None;
        }
        let aside = format!("\\text{{(or maybe {})}}", bare_words(other));
        Some(
            match right
                .strip_prefix("\\boxed{")
                .and_then(|r| r.strip_suffix('}'))
            {
                Some(inner) => format!("\\boxed{{{inner} {aside}}}"),
                None => format!("{right} {aside}"),
            },
        )
    }),
];

/// Whether `other` after `right` is in answer position: only where the
/// whole reply is the answer (an unboxed reference); after a box it is prose.
fn unboxed(right: &str, other: &str) -> bool {
    !right.trim_start().starts_with("\\boxed{") && applies(right, other)
}

/// Whether `other` after `right` is a second candidate: never after a program (see
/// [`OUTSIDE_HEDGES`]), and a lone choice letter (`C`) is none after an answer that is
/// not a letter. A pool mixing multiple-choice and numeric rows pairs `\boxed{14}`
/// with `C`, which reads as a unit there; the letter task's `\boxed{B} 14` still must
/// fail.
fn applies(right: &str, other: &str) -> bool {
    let letter = |text: &str| {
        let words = bare_words(text);
        words.len() == 1 && words.chars().all(|c| c.is_ascii_alphabetic())
    };
    !is_program(right) && !is_tool_call(right) && (letter(right) || !letter(other))
}

/// A reference that is a tool call (the tool envs' oracles write Hermes
/// `<tool_call>` blocks).
fn is_tool_call(reference: &str) -> bool {
    reference.trim_start().starts_with("<tool_call>")
}

/// A reference that is a program in a code fence
/// (alone, or after a command word such as the REPL's `submit`).
fn is_program(reference: &str) -> bool {
    reference.lines().any(|line| {
        let line = line.trim_start();
        line.starts_with("```") && !line.starts_with("```json")
    })
}

pub(crate) fn unbox(text: &str) -> &str {
    text.strip_prefix("\\boxed{")
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(text)
}

/// An answer's words and numbers without its format (brackets, boxes,
/// separators): `\boxed{[6, 2], [1]}` is `6 2 1`.
pub(crate) fn bare_words(text: &str) -> String {
    let spaced: String = unbox(text)
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                ' '
            }
        })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The reference with every digit replaced by a random one (and, when it
/// has no digits, its characters shuffled): plausible format, wrong content.
pub(crate) fn randomise_digits(text: &str, rng: &mut Rng) -> String {
    if text.bytes().any(|b| b.is_ascii_digit()) {
        text.chars()
            .map(|c| {
                if c.is_ascii_digit() {
                    char::from(b'0' + rng.below(10) as u8)
                } else {
                    c
                }
            })
            .collect()
    } else {
        let mut chars: Vec<char> = text.chars().collect();
        rng.shuffle(&mut chars);
        chars.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hedge(name: &str, right: &str, other: &str) -> Option<String> {
        let probe = OUTSIDE_HEDGES.iter().find(|p| p.0 == name).unwrap().1;
        probe(right, other)
    }

    #[test]
    fn junk_keeps_the_format_but_not_the_digits() {
        let mut rng = Rng::from_seed(4);
        let junk = randomise_digits("\\boxed{-7/3}", &mut rng);
        assert!(junk.starts_with("\\boxed{-") && junk.ends_with('}') && junk.contains('/'));
        assert_eq!(randomise_digits("abc", &mut rng).len(), 3);
    }

    #[test]
    fn words_after_a_tool_call_are_no_hedge() {
        let call =
            "<tool_call>\n{\"arguments\":{\"answer\":\"42\"},\"name\":\"answer\"}\n</tool_call>";
        for name in [
            "hedge_outside_after",
            "hedge_outside_or",
            "hedge_outside_text",
        ] {
            assert_eq!(hedge(name, call, "17"), None, "{name}");
        }
    }

    #[test]
    fn hedges_outside_the_format_add_the_other_answer_bare() {
        assert_eq!(
            hedge("hedge_outside_after", "[7, 3], [5]", "[6, 2], [1]").as_deref(),
            Some("[7, 3], [5] 6 2 1")
        );
        assert_eq!(
            hedge("hedge_outside_or", "42", "\\boxed{17}").as_deref(),
            Some("42 or 17")
        );
        assert_eq!(
            hedge("hedge_outside_text", "\\boxed{42}", "\\boxed{-17}").as_deref(),
            Some("\\boxed{42 \\text{(or maybe -17)}}")
        );
        assert_eq!(
            hedge("hedge_outside_text", "BAKO", "DIMU").as_deref(),
            Some("BAKO \\text{(or maybe DIMU)}")
        );
        let program = "```python\ndef f():\n    return 1\n```";
        for (name, _) in OUTSIDE_HEDGES {
            assert_eq!(hedge(name, program, "```python\nx\n```"), None, "{name}");
            // A choice letter is no second candidate after a number; a number after a
            // choice letter, or a letter after a letter, is.
            assert_eq!(hedge(name, "14", "\\boxed{C}"), None, "{name}");
            assert!(hedge(name, "B", "\\boxed{14}").is_some(), "{name}");
            assert!(hedge(name, "B", "\\boxed{C}").is_some(), "{name}");
        }
        // After a box, words are prose, not answer position: only the hedge inside
        // the box applies.
        assert_eq!(
            hedge("hedge_outside_after", "\\boxed{42}", "\\boxed{17}"),
            None
        );
        assert_eq!(
            hedge("hedge_outside_or", "\\boxed{42}", "\\boxed{17}"),
            None
        );
        assert!(hedge("hedge_outside_text", "\\boxed{B}", "\\boxed{14}").is_some());
    }
}
