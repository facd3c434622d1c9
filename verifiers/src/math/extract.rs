//! Finding answer candidates in a whole response.
//!
//! Order of preference: the last `\boxed{}`/`\fbox{}` group (adjacent boxes joined as a
//! list), else the last final-answer statement (the shared answer-position rule of
//! [`crate::answer::position`]), then the rest of the response; inside a region, the
//! candidate that ends last wins. A LaTeX span or undelimited LaTeX stretch that fails to parse is skipped whole:
//! numbers are never read out of it.

use crate::answer::position::Statement;

use super::scan::{
    brace_pairs, covered, find_spans, latex_islands, mask, matching_brace, plain_runs, span_ranges,
};

/// One piece of text that may hold the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub text: String,
    pub latex: bool,
    pub source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Boxed,
    AnswerPhrase,
    Body,
}

/// A `\boxed{…}` found in the text: byte range of the whole command and its content.
#[derive(Clone, Debug)]
pub struct BoxMatch {
    pub start: usize,
    pub end: usize,
    pub content: String,
}

/// Candidates for plain text spans are tried at most this many per region.
const MAX_REGION_CANDIDATES: usize = 12;

/// All boxes, in order of appearance.
pub fn find_boxes(s: &str) -> Vec<BoxMatch> {
    let mut out = Vec::new();
    let closes = brace_pairs(s);
    let mut from = 0;
    while let Some(rel) = s[from..].find(['\\']) {
        let i = from + rel;
        from = i + 1;
        let rest = &s[i..];
        let Some(cmd_len) = ["\\boxed", "\\fbox"]
            .iter()
            .find(|c| rest.starts_with(**c))
            .map(|c| c.len())
        else {
            continue;
        };
        let after = &rest[cmd_len..];
        let trimmed = after.trim_start();
        let skip = after.len() - trimmed.len();
        if let Some(body) = trimmed.strip_prefix('{') {
            let open = i + cmd_len + skip;
            let Some(close) = closes.get(&open).map(|c| c - open - 1) else {
                continue;
            };
            let end = i + cmd_len + skip + 1 + close + 1;
            out.push(BoxMatch {
                start: i,
                end,
                content: body[..close].to_string(),
            });
            from = end;
        } else if skip > 0 {
            // `\boxed 5`: one token.
            let tok: String = trimmed
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '$')
                .collect();
            if !tok.is_empty() {
                let end = i + cmd_len + skip + tok.len();
                out.push(BoxMatch {
                    start: i,
                    end,
                    content: tok,
                });
                from = end;
            }
        }
    }
    out
}

/// Words a joining gap may hold outside `\text{}`: the joining words and the names of
/// the spacing commands.
const JOINING_WORDS: [&str; 4] = ["and", "or", "quad", "qquad"];

/// Whether the text between two boxes (or spans) only separates them: punctuation,
/// spacing, `\text{…}` remarks and the words "and"/"or".
fn is_joining_gap(gap: &str, allow_remarks: bool) -> bool {
    // Most gaps are prose: a word other than "and"/"or" (or a spacing command's name)
    // outside `\text{}` rejects one without copying it.
    if !(allow_remarks && gap.contains("\\text{"))
        && gap
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| !w.is_empty() && !JOINING_WORDS.iter().any(|j| w.eq_ignore_ascii_case(j)))
    {
        return false;
    }
    let mut g = gap.to_string();
    if allow_remarks {
        while let Some(i) = g.find("\\text{") {
            match matching_brace(&g[i + 6..]) {
                Some(c) => g.replace_range(i..i + 6 + c + 1, " "),
                None => return false,
            }
        }
    }
    for sp in [
        "\\quad", "\\qquad", "\\,", "\\;", "\\ ", "\\\\", "\\[", "\\]", "\\(", "\\)",
    ] {
        g = g.replace(sp, " ");
    }
    g.split(|c: char| !c.is_ascii_alphanumeric())
        .all(|w| w.is_empty() || w.eq_ignore_ascii_case("and") || w.eq_ignore_ascii_case("or"))
        && (allow_remarks || !g.contains(['.', '\n']))
}

/// How two joined answers are written: with the word "or" where the gap says "or"
/// (conditions joined by "or" are a union, not a list), else with a comma.
fn joiner(gap: &str) -> &'static str {
    let or = gap
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.eq_ignore_ascii_case("or"));
    if or { " \\text{ or } " } else { ", " }
}

/// Groups of adjacent boxes; the answer is the last group, joined as a list.
pub fn box_groups(s: &str, boxes: &[BoxMatch]) -> Vec<(usize, usize, String)> {
    let mut groups: Vec<(usize, usize, String)> = Vec::new();
    for b in boxes {
        if let Some(last) = groups.last_mut()
            && is_joining_gap(&s[last.1..b.start], true)
        {
            last.2.push_str(joiner(&s[last.1..b.start]));
            last.2.push_str(&b.content);
            last.1 = b.end;
            continue;
        }
        groups.push((b.start, b.end, b.content.clone()));
    }
    groups
}

/// Candidates from one region of text, latest first.
fn region_candidates(
    region: &str,
    latex: bool,
    plain: bool,
    source: Source,
    out: &mut Vec<Candidate>,
) {
    let mut spans = find_spans(region);
    // Only the last spans can hold the answer; older ones would only cost time.
    let keep_from = spans.len().saturating_sub(MAX_REGION_CANDIDATES * 2);
    let masked_ranges = span_ranges(&spans);
    spans.drain(..keep_from);
    let mut found: Vec<(usize, Candidate)> = Vec::new();
    if latex {
        for (k, sp) in spans.iter().enumerate() {
            let cand = |text: String| Candidate {
                text,
                latex: true,
                source,
            };
            found.push((sp.end, cand(sp.content.clone())));
            // Spans separated only by commas or "and"/"or" form one list answer.
            let mut j = k;
            let mut joined = sp.content.clone();
            while j > 0 && is_joining_gap(&region[spans[j - 1].end..spans[j].start], false) {
                let gap = &region[spans[j - 1].end..spans[j].start];
                joined = format!("{}{}{}", spans[j - 1].content, joiner(gap), joined);
                j -= 1;
            }
            if j < k
                && (k + 1 == spans.len()
                    || !is_joining_gap(&region[sp.end..spans[k + 1].start], false))
            {
                found.push((sp.end + 1, cand(joined)));
            }
        }
        if spans.is_empty() && region.contains('\\') && region.len() <= 300 {
            found.push((
                region.len(),
                Candidate {
                    text: region.to_string(),
                    latex: true,
                    source,
                },
            ));
        }
    }
    // LaTeX written without delimiters (`so x = \frac{1}{2}`): candidates in LaTeX mode,
    // and never a source of plain numbers (the `2` of `\frac{1}{2}` is not an answer).
    let span_masked = mask(region, &masked_ranges);
    let islands = latex_islands(&span_masked);
    if latex {
        for &(a, b) in islands.iter().rev().take(MAX_REGION_CANDIDATES) {
            found.push((
                b,
                Candidate {
                    text: region[a..b].to_string(),
                    latex: true,
                    source,
                },
            ));
        }
    }
    if plain {
        let short = region.trim();
        if spans.is_empty() && !short.is_empty() && short.len() <= 40 {
            // A short region is tried whole first: `A`, `(B)`, `x = 5`, `3 or 4`.
            found.push((
                region.len() + 2,
                Candidate {
                    text: short.to_string(),
                    latex: false,
                    source,
                },
            ));
        }
        let mut all_ranges = masked_ranges.clone();
        all_ranges.extend(islands.iter().copied());
        let masked = mask(region, &all_ranges);
        for (end, text) in plain_runs(&masked) {
            found.push((
                end,
                Candidate {
                    text,
                    latex: false,
                    source,
                },
            ));
        }
    }
    found.sort_by_key(|c| std::cmp::Reverse(c.0));
    out.extend(
        found
            .into_iter()
            .take(MAX_REGION_CANDIDATES)
            .map(|(_, c)| c),
    );
}

/// The text in which a hedge ("3 or 4") around the chosen answer would show: the
/// answer-phrase tail, or the last sentence of the response.
pub fn hedge_window<'t>(prepared: &'t str, located: &Located, source: Source) -> &'t str {
    if source == Source::AnswerPhrase
        && let Some(statement) = located.last_statement(prepared)
    {
        return statement;
    }
    let body = prepared.trim_end().trim_end_matches(['.', '!']);
    let inside = covered(body.len(), &span_ranges(&find_spans(body)));
    let mut start = 0;
    for (i, c) in body.char_indices() {
        if inside[i] {
            continue;
        }
        let next = body.as_bytes().get(i + 1).copied();
        if (c == '.' && next.is_some_and(|n| n.is_ascii_whitespace())) || c == '\n' {
            start = i + 1;
        }
    }
    &body[start..]
}

/// Whether the text offers alternatives: "or", "either", "maybe", "perhaps", "possibly",
/// or a range "between 3 and 4" that is not followed by a value ("the difference between
/// 7 and 2 is 5" states 5).
pub fn offers_alternatives(window: &str) -> bool {
    let words: Vec<&str> = window
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '=')
        .filter(|w| !w.is_empty())
        .collect();
    let is = |w: &str, list: &[&str]| list.iter().any(|a| w.eq_ignore_ascii_case(a));
    if words
        .iter()
        .any(|w| is(w, &["or", "either", "maybe", "perhaps", "possibly"]))
    {
        return true;
    }
    match words.iter().rposition(|w| is(w, &["between"])) {
        Some(i) => !words[i + 1..]
            .iter()
            .any(|w| is(w, &["is", "are", "equals", "was", "="])),
        None => false,
    }
}

/// Every candidate of a window, in reading order.
fn window_candidates(window: &str, latex: bool, plain: bool) -> Vec<Candidate> {
    let mut out = Vec::new();
    region_candidates(window, latex, plain, Source::Body, &mut out);
    out.reverse();
    out
}

/// The candidates that end the window and are linked to each other by alternative words
/// ("3 or 4", "3, maybe 4", "between 3 and 4"); prose between values ("2 ways to pick 1
/// or 2 items, giving 12") breaks the chain.
pub fn alternative_chain(
    window: &str,
    latex: bool,
    plain: bool,
    parses: impl Fn(&Candidate) -> bool,
) -> Vec<Candidate> {
    let allow_and = window
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.eq_ignore_ascii_case("between"));
    let mut chain: Vec<Candidate> = Vec::new();
    let mut cursor = window.len();
    for cand in window_candidates(window, latex, plain).into_iter().rev() {
        let text = cand.text.trim();
        if text.is_empty() || chain.len() >= 32 || !parses(&cand) {
            continue;
        }
        let Some(pos) = window[..cursor].rfind(text) else {
            continue;
        };
        if !chain.is_empty() && !is_alternative_gap(&window[pos + text.len()..cursor], allow_and) {
            break;
        }
        chain.push(cand);
        cursor = pos;
    }
    chain
}

/// Only delimiters, punctuation and at least one word offering an alternative.
fn is_alternative_gap(gap: &str, allow_and: bool) -> bool {
    let mut offers = false;
    for w in gap
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
    {
        let w = w.to_ascii_lowercase();
        match w.as_str() {
            "or" | "maybe" | "perhaps" | "possibly" => offers = true,
            "and" if allow_and => offers = true,
            "either" | "but" | "text" => {}
            _ => return false,
        }
    }
    offers
}

/// Where in a prepared response the answer may sit, found in one pass each: its boxes,
/// their groups, and its final-answer statements ([`crate::answer::position`]).
pub struct Located {
    pub boxes: Vec<BoxMatch>,
    /// Adjacent boxes joined ([`box_groups`]); the last group is the answer position.
    pub groups: Vec<(usize, usize, String)>,
    /// Final-answer statements outside boxes, in order.
    pub statements: Vec<Statement>,
    /// A negated statement (`The answer is not 41.`) was seen.
    pub negated: bool,
}

impl Located {
    pub fn new(prepared: &str) -> Located {
        let boxes = find_boxes(prepared);
        let groups = box_groups(prepared, &boxes);
        let wholes: Vec<_> = boxes.iter().map(|b| b.start..b.end).collect();
        let (statements, negated) =
            crate::answer::position::statements_and_negation(prepared, &wholes);
        Located {
            boxes,
            groups,
            statements,
            negated,
        }
    }

    /// The text of the last final-answer statement.
    pub fn last_statement<'t>(&self, prepared: &'t str) -> Option<&'t str> {
        self.statements.last().map(|s| s.math_text(prepared))
    }
}

/// All candidates, best first: the last box group (the answer position, and then the
/// only candidate: a box is never passed over for prose), else the last final-answer
/// statement ([`crate::answer::position`]), then the rest of the response.
pub fn candidates(prepared: &str, located: &Located, latex: bool, plain: bool) -> Vec<Candidate> {
    let mut out = Vec::new();
    if latex && let Some((_, _, content)) = located.groups.last() {
        out.push(Candidate {
            text: content.clone(),
            latex: true,
            source: Source::Boxed,
        });
        return out;
    }
    match located.last_statement(prepared) {
        Some(statement) => {
            region_candidates(statement, latex, plain, Source::AnswerPhrase, &mut out);
        }
        // `The answer is not 41.` states no answer: no value is read out of it.
        None if located.negated => return out,
        None => {}
    }
    region_candidates(prepared, latex, plain, Source::Body, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_are_brace_matched_and_grouped() {
        let s = "so \\boxed{\\frac{1}{2}} and \\boxed{3}. Later \\boxed{4}";
        let b = find_boxes(s);
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].content, "\\frac{1}{2}");
        let g = box_groups(s, &b);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].2, "\\frac{1}{2}, 3");
        assert_eq!(g[1].2, "4");
    }

    #[test]
    fn runs_skip_words_and_spans() {
        let runs = plain_runs("AZYUK2A");
        assert!(runs.is_empty(), "{runs:?}");
        let text = "the answer is not 10, it is $\\foo 3$";
        let c = candidates(text, &Located::new(text), false, true);
        assert!(c.iter().all(|c| !c.text.contains('3')), "{c:?}");
    }

    #[test]
    fn islands() {
        let text = "so we get x = \\frac{1}{2} here, and 7 apples";
        let isl = latex_islands(text);
        assert_eq!(isl.len(), 1);
        assert_eq!(&text[isl[0].0..isl[0].1], "x = \\frac{1}{2}");
        let long = format!("{} {}", "words ".repeat(80), text);
        let c = candidates(&long, &Located::new(&long), true, true);
        assert_eq!(c[0].text.trim(), "7");
        assert!(
            c.iter().any(|c| c.latex && c.text == "x = \\frac{1}{2}"),
            "{c:?}"
        );
        assert!(
            c.iter()
                .all(|c| c.text.trim() != "2" && c.text.trim() != "1"),
            "{c:?}"
        );
    }
}
