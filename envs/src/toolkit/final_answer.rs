//! The final `answer` of a tool or web episode: matching it against the
//! expected one, and the `infeasible: EVIDENCE` verdict of tasks that cannot
//! be done.

/// The expected answer of an infeasible task: the verdict and the
/// task-specific evidence that only exploring the task reveals (a bare
/// `infeasible` is a constant any policy can say, so it never passes).
///
/// # Panics
/// If `evidence` has no word (an empty evidence would be a constant).
pub fn infeasible_answer(evidence: &str) -> String {
    assert!(
        !evidence_words(evidence).is_empty(),
        "infeasible evidence needs a word"
    );
    format!("infeasible: {evidence}")
}

/// The evidence of an `infeasible: EVIDENCE` verdict; `None` when `answer`
/// is not one (a bare `infeasible` has no colon, so no evidence).
pub fn infeasible_evidence(answer: &str) -> Option<&str> {
    let answer = answer.trim();
    let head = answer.get(..10)?;
    if !head.eq_ignore_ascii_case("infeasible") {
        return None;
    }
    answer[10..].trim_start().strip_prefix(':').map(str::trim)
}

/// Evidence as its words: case, punctuation and spacing do not matter;
/// every word and number does, so a hedge (`X or Y`, `X, Y`) adds words and
/// fails.
pub fn evidence_words(text: &str) -> String {
    let spaced: String = text
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `given` is the infeasible verdict with exactly this evidence.
pub fn infeasible_matches(given: &str, evidence: &str) -> bool {
    infeasible_evidence(given).is_some_and(|g| {
        let words = evidence_words(g);
        !words.is_empty() && words == evidence_words(evidence)
    })
}

/// Whether a final answer matches the expected one: case, surrounding
/// space and a final full stop do not matter; numbers compare by value
/// (`1,234`, `$1234` and `1234.0` are 1234). Hedged answers ("3 or 4")
/// match nothing. An expected `infeasible: EVIDENCE` matches only the
/// verdict with the same evidence ([`infeasible_matches`]).
pub fn answers_match(given: &str, expected: &str) -> bool {
    if let Some(evidence) = infeasible_evidence(expected) {
        return infeasible_matches(given, evidence);
    }
    let norm = |s: &str| s.trim().trim_end_matches('.').trim().to_lowercase();
    let (g, e) = (norm(given), norm(expected));
    if g == e {
        return true;
    }
    match (number(&g), number(&e)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn number(s: &str) -> Option<f64> {
    let s = s.strip_prefix('$').unwrap_or(s);
    if s.is_empty()
        || !s
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-'))
    {
        return None;
    }
    s.replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|f| f.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_match_after_light_normalisation_only() {
        for (given, expected) in [
            ("1,234", "1234"),
            ("$1234", "1234"),
            ("1234.0", "1234"),
            (" Fenwy. ", "fenwy"),
            ("INFEASIBLE: inv-4790.", "infeasible: INV-4790"),
            ("infeasible : INV 4790", "infeasible: INV-4790"),
            ("Infeasible: Budget, Pricing", "infeasible: budget, pricing"),
        ] {
            assert!(answers_match(given, expected), "{given:?} vs {expected:?}");
        }
        for (given, expected) in [
            ("3 or 4", "3"),
            ("12345", "1234"),
            ("about 1234", "1234"),
            ("", "0"),
            ("1234, 1235", "1234"),
            // Infeasible verdicts need the task's exact evidence.
            ("infeasible", "infeasible: INV-4790"),
            ("infeasible:", "infeasible: INV-4790"),
            ("infeasible INV-4790", "infeasible: INV-4790"),
            ("infeasible: INV-4791", "infeasible: INV-4790"),
            ("infeasible: INV-4790 or INV-4791", "infeasible: INV-4790"),
            ("infeasible: INV-4790, INV-4791", "infeasible: INV-4790"),
            (
                "infeasible: INV-4790 or infeasible: INV-4791",
                "infeasible: INV-4790",
            ),
            ("infeasible: budget", "infeasible: budget, pricing"),
            ("INV-4790", "infeasible: INV-4790"),
            ("infeasible: INV-4790", "4790"),
        ] {
            assert!(!answers_match(given, expected), "{given:?} vs {expected:?}");
        }
    }

    #[test]
    fn infeasible_verdicts_carry_evidence() {
        assert_eq!(infeasible_evidence(" Infeasible : x y "), Some("x y"));
        assert_eq!(infeasible_evidence("infeasible"), None);
        assert_eq!(infeasible_evidence("feasible: x"), None);
        assert!(infeasible_matches("infeasible: X-Y", "x y"));
        assert!(!infeasible_matches("infeasible: ", "x"));
        assert!(!infeasible_matches("infeasible: x", ""));
    }

    #[test]
    #[should_panic(expected = "infeasible evidence needs a word")]
    fn infeasible_answers_refuse_empty_evidence() {
        infeasible_answer(" - ");
    }
}
