//! Completeness probes of the one-answer rule (DESIGN.md rule 4): the honest
//! habits of real models that the rule says cost nothing, written around the
//! reference. Each is a class, not an example: checks and restatements after
//! the answer, prose that mentions other values, every reasoning convention of
//! the major open model families, end-of-turn markers, and the presentations
//! of the answer itself (a closing period, row labels, numbered and bulleted
//! lines, full-width digits and the Unicode minus, digit grouping, units,
//! currency, degrees and percent on numbers).
//!
//! Styles return `None` where they do not apply to a reference (a unit on a
//! grid, a row label on one number, anything on a fenced program).

use crate::testing::probes::{bare_words, unbox};
use crate::testing::styles::Style;

/// The reference's box content when it is a one-line boxed answer.
fn one_line(reference: &str) -> Option<&str> {
    let inner = reference.strip_prefix("\\boxed{")?.strip_suffix('}')?;
    (!inner.contains('\n') && !inner.trim().is_empty()).then_some(inner)
}

/// The reference's box content when it has several lines (grids, move lists).
fn rows(reference: &str) -> Option<Vec<&str>> {
    let inner = reference.strip_prefix("\\boxed{")?.strip_suffix('}')?;
    let rows: Vec<&str> = inner.lines().filter(|l| !l.trim().is_empty()).collect();
    (rows.len() >= 2 && !inner.contains("```")).then_some(rows)
}

/// The reference's box content when it is one number (integer, decimal or fraction).
fn number(reference: &str) -> Option<&str> {
    let inner = one_line(reference)?.trim();
    let digits = inner.trim_start_matches('-');
    let numeric = !digits.is_empty()
        && digits.starts_with(|c: char| c.is_ascii_digit())
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '/');
    numeric.then_some(inner)
}

/// One decimal number (no fraction: `7/3\%` is no way to write a percentage).
fn decimal(reference: &str) -> Option<&str> {
    number(reference).filter(|n| !n.contains('/'))
}

/// A boxed reference at all (a fenced program is judged by running it).
fn boxed(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("\\boxed{")
        .and_then(|r| r.strip_suffix('}'))
}

/// `1234567` → `1,234,567` (integers only).
fn grouped(number: &str) -> Option<String> {
    let (sign, digits) = match number.strip_prefix('-') {
        Some(d) => ("-", d),
        None => ("", number),
    };
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    Some(format!("{sign}{out}"))
}

/// Digits as full-width forms and `-` as the Unicode minus.
fn full_width(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(c as u32 + 0xFEE0).unwrap_or(c),
            '-' => '−',
            c => c,
        })
        .collect()
}

/// Styles of a single-turn answer that the one-answer rule must accept.
pub(crate) const RULE_ANSWER_STYLES: &[(&str, Style)] = &[
    ("style_check_after", |r, _| {
        boxed(r)?;
        Some(format!(
            "{r}\n\nCheck: substituting back, 3 + 4 = 7 and 12 - 5 = 7, so every condition holds."
        ))
    }),
    ("style_bold_restatement", |r, _| {
        boxed(r)?;
        Some(match one_line(r) {
            Some(inner) => format!("{r}\n\n**Final answer: {inner}**"),
            None => format!("{r}\n\n**Final answer:**\n\n{}", unbox(r)),
        })
    }),
    ("style_statement_before_box", |r, _| {
        let inner = one_line(r)?;
        Some(format!("So the answer is {inner}.\n\n{r}"))
    }),
    ("style_prose_mentions_other_values", |r, draft| {
        boxed(r)?;
        Some(format!(
            "{r}\n\nMy first attempt gave {}, but it failed the check, so I discarded it.",
            bare_words(draft)
        ))
    }),
    ("style_rows_after_box", |r, _| {
        let rows = rows(r)?;
        Some(format!(
            "{r}\n\nThat is, the answer reads:\n{}",
            rows.join("\n")
        ))
    }),
    ("style_period_in_box", |r, _| {
        let inner = one_line(r)?;
        (!inner.ends_with('.')).then(|| format!("\\boxed{{{inner}.}}"))
    }),
    ("style_row_labels", |r, _| {
        let rows = rows(r)?;
        let labelled: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, row)| format!("Row {}: {}", i + 1, row.trim()))
            .collect();
        Some(format!("\\boxed{{\n{}\n}}", labelled.join("\n")))
    }),
    ("style_numbered_lines", |r, _| {
        let rows = rows(r)?;
        let numbered: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, row)| format!("{}. {}", i + 1, row.trim()))
            .collect();
        Some(format!("\\boxed{{\n{}\n}}", numbered.join("\n")))
    }),
    ("style_bulleted_lines", |r, _| {
        let rows = rows(r)?;
        let bulleted: Vec<String> = rows.iter().map(|row| format!("- {}", row.trim())).collect();
        Some(format!("\\boxed{{\n{}\n}}", bulleted.join("\n")))
    }),
    // Move and step lists (lines with words: grids of digits or symbols are not lists).
    ("style_comma_joined_moves", |r, _| {
        let rows = rows(r)?;
        let moves = rows
            .iter()
            .all(|row| !row.contains(',') && row.chars().any(|c| c.is_ascii_alphabetic()));
        moves.then(|| {
            let joined: Vec<&str> = rows.iter().map(|row| row.trim()).collect();
            format!("\\boxed{{{}}}", joined.join(", "))
        })
    }),
    ("style_full_width_digits", |r, _| {
        let n = number(r)?;
        Some(format!("\\boxed{{{}}}", full_width(n)))
    }),
    ("style_digit_grouping", |r, _| {
        let n = grouped(number(r)?)?;
        Some(format!("The total comes to {n}.\n\n\\boxed{{{n}}}"))
    }),
    ("style_unit_after_number", |r, _| {
        let n = number(r)?;
        Some(format!("\\boxed{{{n} \\text{{ units}}}}"))
    }),
    ("style_currency", |r, _| {
        let n = decimal(r)?;
        Some(match n.strip_prefix('-') {
            Some(abs) => format!("\\boxed{{-\\${abs}}}"),
            None => format!("\\boxed{{\\${n}}}"),
        })
    }),
    ("style_degrees", |r, _| {
        let n = decimal(r)?;
        Some(format!("\\boxed{{{n}^\\circ}}"))
    }),
    ("style_percent", |r, _| {
        let n = decimal(r)?;
        Some(format!("\\boxed{{{n}\\%}}"))
    }),
];

/// Reasoning conventions and turn endings: they apply to single-turn answers and to
/// every action of a multi-turn env alike.
pub(crate) const RULE_REPLY_STYLES: &[(&str, Style)] = &[
    ("style_kimi_reasoning", |a, draft| {
        Some(format!("◁think▷Maybe {draft}? Let me check.◁/think▷\n{a}"))
    }),
    ("style_magistral_reasoning", |a, draft| {
        Some(format!(
            "[THINK]A draft: {draft}. Checking it again.[/THINK]\n\n{a}"
        ))
    }),
    ("style_harmony_channels", |a, draft| {
        Some(format!(
            "<|channel|>analysis<|message|>A draft: {draft}. Let me verify.<|end|><|start|>assistant<|channel|>final<|message|>{a}<|return|>"
        ))
    }),
    ("style_end_of_turn_marker", |a, draft| {
        Some(format!("{a}<|im_end|>\n{draft}"))
    }),
    ("style_eot_id_marker", |a, _| {
        Some(format!("{a}\n<|eot_id|>"))
    }),
    // A closing tag after a closed block is text: after the answer it erases nothing.
    ("style_close_tag_mentioned_after", |a, draft| {
        Some(format!(
            "<think>A draft: {draft}.</think>\n{a}\n\nI ended my reasoning with </think> above."
        ))
    }),
    ("style_tags_in_a_fence", |a, _| {
        (!a.contains("```")).then(|| {
            format!(
                "{a}\n\nTo hide drafts, models wrap them like this:\n```\n<think>draft</think>\n```"
            )
        })
    }),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn style(name: &str) -> Style {
        RULE_ANSWER_STYLES
            .iter()
            .chain(RULE_REPLY_STYLES)
            .find(|(n, _)| *n == name)
            .unwrap()
            .1
    }

    #[test]
    fn number_styles_apply_to_numbers_only() {
        assert_eq!(
            style("style_digit_grouping")("\\boxed{-1234567}", "").as_deref(),
            Some("The total comes to -1,234,567.\n\n\\boxed{-1,234,567}")
        );
        assert_eq!(style("style_digit_grouping")("\\boxed{123}", ""), None);
        assert_eq!(
            style("style_full_width_digits")("\\boxed{-42}", "").as_deref(),
            Some("\\boxed{−４２}")
        );
        assert_eq!(style("style_percent")("\\boxed{1 2\n3 4}", ""), None);
        assert_eq!(style("style_currency")("\\boxed{UNSAT}", ""), None);
    }

    #[test]
    fn row_styles_label_every_row() {
        assert_eq!(
            style("style_row_labels")("\\boxed{1 2\n3 4}", "").as_deref(),
            Some("\\boxed{\nRow 1: 1 2\nRow 2: 3 4\n}")
        );
        assert_eq!(style("style_numbered_lines")("\\boxed{7}", ""), None);
    }

    #[test]
    fn every_style_keeps_the_answer_visible() {
        for (name, style) in RULE_ANSWER_STYLES.iter().chain(RULE_REPLY_STYLES) {
            let Some(text) = style("\\boxed{1 2\n3 4}", "\\boxed{7}") else {
                continue;
            };
            let visible = verigym_verifiers::answer::strip_reasoning(&text).unwrap();
            assert!(
                visible.contains("1 2") || visible.contains("Row 1"),
                "{name}: {visible:?}"
            );
        }
    }
}
