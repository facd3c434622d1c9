//! The audit's text probes: one answer per task, built from the task's
//! reference, another task's reference and the card, given every turn.
//! Each must fail: empty and whitespace answers, a constant (another task's
//! reference), the echoed prompt and givens, hedges, and junk in the answer
//! format.
//!
//! Hedges carry the right answer and a second candidate. The second one is
//! written in the answer's format (`A or B`, `A, B`, two boxes: flagged)
//! and outside it ([`OUTSIDE_HEDGES`]: reported, not yet flagged): the
//! other answer's bare words and numbers after the answer (`[7, 3], [5] 6 2
//! 1`, `42 17`), after `or`, and inside `\text{}` (`42 \text{(or maybe 17)}`,
//! inside the box when the answer is boxed).

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
    // Another task's reference, digits randomised: the right format and a
    // typical magnitude, but nothing learned from this task.
    ("junk_in_format", |_, other, _, rng| {
        randomise_digits(other, rng)
    }),
];

/// Hedges outside the answer format: reported, not yet flagged. The
/// single-turn answer reader keeps the last `\boxed{}` and drops the text
/// after it, so `\boxed{42} 17` and `\boxed{42} or 17` pass
/// `math/arithmetic-v1@easy` (measured 60/60); they become soundness probes
/// once that reader refuses a second candidate after the box.
pub(crate) const OUTSIDE_HEDGES: &[(&str, ProbeAnswer)] = &[
    ("hedge_outside_after", |right, other, _, _| {
        format!("{right} {}", bare_words(other))
    }),
    ("hedge_outside_or", |right, other, _, _| {
        format!("{right} or {}", bare_words(other))
    }),
    ("hedge_outside_text", |right, other, _, _| {
        let aside = format!("\\text{{(or maybe {})}}", bare_words(other));
        match right
            .strip_prefix("\\boxed{")
            .and_then(|r| r.strip_suffix('}'))
        {
            Some(inner) => format!("\\boxed{{{inner} {aside}}}"),
            None => format!("{right} {aside}"),
        }
    }),
];

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

    fn probe(name: &str) -> ProbeAnswer {
        TEXT_PROBES
            .iter()
            .chain(OUTSIDE_HEDGES)
            .find(|p| p.0 == name)
            .unwrap()
            .1
    }

    #[test]
    fn junk_keeps_the_format_but_not_the_digits() {
        let mut rng = Rng::from_seed(4);
        let junk = randomise_digits("\\boxed{-7/3}", &mut rng);
        assert!(junk.starts_with("\\boxed{-") && junk.ends_with('}') && junk.contains('/'));
        assert_eq!(randomise_digits("abc", &mut rng).len(), 3);
    }

    #[test]
    fn hedges_outside_the_format_add_the_other_answer_bare() {
        let card = TaskCard {
            id: String::new(),
            env_id: String::new(),
            env_version: 1,
            config: serde_json::Value::Null,
            config_hash: String::new(),
            seed: 0,
            prompt: String::new(),
            task: serde_json::Value::Null,
            reference: None,
        };
        let mut rng = Rng::from_seed(1);
        let mut hedge =
            |name: &str, right: &str, other: &str| probe(name)(right, other, &card, &mut rng);
        assert_eq!(
            hedge("hedge_outside_after", "[7, 3], [5]", "[6, 2], [1]"),
            "[7, 3], [5] 6 2 1"
        );
        assert_eq!(hedge("hedge_outside_or", "42", "\\boxed{17}"), "42 or 17");
        assert_eq!(
            hedge("hedge_outside_text", "\\boxed{42}", "\\boxed{-17}"),
            "\\boxed{42 \\text{(or maybe -17)}}"
        );
        assert_eq!(
            hedge("hedge_outside_text", "BAKO", "DIMU"),
            "BAKO \\text{(or maybe DIMU)}"
        );
    }
}
