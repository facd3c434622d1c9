//! Multiple-choice answers: which of the option letters did the response pick?
//!
//! Preference: a boxed letter, then a letter right after "answer is"/"answer:"/"option",
//! then a line that starts with a letter (`B.` or `(B)`), then a single standalone letter
//! anywhere. Two different letters where one is expected is a hedge and picks nothing.

use super::{Verdict, extract, normalize};

/// Whether `c` can border a standalone letter.
fn is_boundary(c: Option<char>) -> bool {
    c.is_none_or(|c| !c.is_alphanumeric() && c != '\\')
}

/// Standalone occurrences of the choices in `text` (case-sensitive), as (byte, choice).
fn standalone<'c>(text: &str, choices: &[&'c str]) -> Vec<(usize, &'c str)> {
    let mut out = Vec::new();
    for (i, _) in text.char_indices() {
        for &ch in choices {
            if text[i..].starts_with(ch)
                && is_boundary(text[..i].chars().next_back())
                && is_boundary(text[i + ch.len()..].chars().next())
            {
                out.push((i, ch));
            }
        }
    }
    out
}

/// The single distinct choice among `hits`, if exactly one.
fn only_one<'c>(hits: &[(usize, &'c str)]) -> Option<&'c str> {
    let first = hits.first()?.1;
    hits.iter().all(|h| h.1 == first).then_some(first)
}

/// The choice an answer names: the option it opens with (`D`, `(D) 5427`, `D. 5427`,
/// `Option D`, `\text{(D)}`), else its one standalone letter.
fn picked_in<'c>(answer: &str, choices: &[&'c str]) -> Option<&'c str> {
    let plain = answer
        .replace("\\text{", " ")
        .replace("\\textbf{", " ")
        .replace("\\mathrm{", " ");
    let lead = plain.trim_start().trim_start_matches(['(', '*', '{', ' ']);
    let lower = lead.to_ascii_lowercase();
    let lead = ["option ", "choice "]
        .iter()
        .find(|w| lower.starts_with(**w))
        .map_or(lead, |w| lead[w.len()..].trim_start());
    let opening = choices.iter().copied().find(|c| {
        lead.starts_with(*c)
            && lead[c.len()..]
                .chars()
                .next()
                .is_none_or(|n| ".):} ".contains(n))
    });
    match opening {
        Some(c) => {
            // `A or B`, `A and C`, `A/B`: two options where one is asked.
            let rest = lead[c.len()..].trim_start().to_ascii_lowercase();
            let joined = ["or ", "and ", "/", "&"]
                .iter()
                .any(|j| rest.starts_with(j));
            (!joined).then_some(c)
        }
        None => only_one(&standalone(&plain, choices)),
    }
}

/// Extracts the chosen option (one of `choices`, matched case-sensitively; callers pass
/// the spellings they accept, e.g. `["A", "B", "C", "D"]`), by the one-answer rule: the
/// last box, else the last final-answer statement, is graded, and every box and
/// statement must name the same option (two boxes, or a box and a statement, that
/// differ pick nothing).
pub fn extract_choice(response: &str, choices: &[&str]) -> Option<String> {
    let text = normalize::prepare_response(response).ok()?;
    let boxes = extract::find_boxes(&text);
    let whole: Vec<_> = boxes.iter().map(|b| b.start..b.end).collect();
    let statements = crate::answer::position::statements(&text, &whole);
    let mut named = boxes
        .iter()
        .map(|b| picked_in(&b.content, choices))
        .collect::<Vec<_>>();
    if named.is_empty()
        && let Some(last) = statements.last()
    {
        named.push(picked_in(last.text(&text), choices));
    }
    if let Some(&pick) = named.last() {
        let pick = pick?;
        let agree = named.iter().all(|n| *n == Some(pick))
            && statements
                .iter()
                .all(|s| picked_in(s.text(&text), choices).is_none_or(|p| p == pick));
        return agree.then(|| pick.to_string());
    }
    let lower = text.to_ascii_lowercase();
    let anchor = ["option", "choice is"]
        .iter()
        .filter_map(|a| lower.rfind(a).map(|i| i + a.len()))
        .max();
    if let Some(start) = anchor {
        let tail = &text[start..];
        let sentence_end = tail.find(['\n']).unwrap_or(tail.len());
        let hits = standalone(&tail[..sentence_end], choices);
        if !hits.is_empty() {
            return only_one(&hits).map(str::to_string);
        }
    }
    let line_start = text.lines().rev().find_map(|line| {
        let l = line.trim_start().trim_start_matches(['(', '*']);
        choices
            .iter()
            .find(|c| l.starts_with(**c) && l[c.len()..].starts_with(['.', ')', ':']))
            .copied()
    });
    if let Some(c) = line_start {
        return Some(c.to_string());
    }
    only_one(&standalone(&text, choices)).map(str::to_string)
}

/// Checks a multiple-choice response against the gold letter (compared ignoring case).
pub fn verify_choice(gold: &str, response: &str, choices: &[&str]) -> Verdict {
    let picked = extract_choice(response, choices);
    let gold = gold.trim();
    let equivalent = !gold.is_empty()
        && picked
            .as_deref()
            .is_some_and(|p| p.eq_ignore_ascii_case(gold));
    Verdict {
        equivalent,
        gold_parsed: (!gold.is_empty()).then(|| gold.to_string()),
        reason: match &picked {
            None => "prediction: no single choice found".to_string(),
            Some(_) if equivalent => "equivalent".to_string(),
            Some(_) => "not equivalent".to_string(),
        },
        prediction_parsed: picked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABCD: &[&str] = &["A", "B", "C", "D"];

    #[test]
    fn picks_one_letter() {
        assert_eq!(
            extract_choice("The answer is A.", ABCD).as_deref(),
            Some("A")
        );
        assert_eq!(
            extract_choice("A. Because B is not valid", ABCD).as_deref(),
            Some("A")
        );
        assert_eq!(
            extract_choice("Because B is valid", ABCD).as_deref(),
            Some("B")
        );
        assert_eq!(
            extract_choice("So \\boxed{\\text{(C)}}", ABCD).as_deref(),
            Some("C")
        );
        assert_eq!(extract_choice("No valid answer here", ABCD), None);
    }

    #[test]
    fn hedges_pick_nothing() {
        assert_eq!(extract_choice("The answer is A or B", ABCD), None);
        assert_eq!(extract_choice("\\boxed{A, B}", ABCD), None);
        assert_eq!(extract_choice("Maybe A, maybe C", ABCD), None);
        assert!(!verify_choice("A", "A B C D", ABCD).equivalent);
        assert!(verify_choice("a", "Final answer is A", ABCD).equivalent);
        assert_eq!(
            extract_choice("\\boxed{A}\n\nLater: \\boxed{B}", ABCD),
            None
        );
        assert_eq!(extract_choice("\\boxed{A}\n\nFinal answer: B", ABCD), None);
        assert_eq!(extract_choice("The answer is B.\n\n\\boxed{A}", ABCD), None);
        assert_eq!(extract_choice("\\boxed{A, B, C, D}", ABCD), None);
    }

    #[test]
    fn a_letter_with_its_option_text_is_that_letter() {
        for response in [
            "\\boxed{(D) 5427}",
            "\\boxed{D. 5427}",
            "\\boxed{\\text{Option D}}",
            "\\fbox{D}",
            "\\boxed{(B) A triangle}",
            "\\boxed{D}\n\n**Final answer: (D) 5427**",
            "The answer is (D) 5427.",
            "**Answer:** D. 5427",
        ] {
            let want = if response.contains("(B)") { "B" } else { "D" };
            assert_eq!(
                extract_choice(response, ABCD).as_deref(),
                Some(want),
                "{response:?}"
            );
        }
    }
}
