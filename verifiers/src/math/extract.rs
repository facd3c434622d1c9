//! Finding answer candidates in a whole response.
//!
//! Order of preference: the last `\boxed{}`/`\fbox{}` group (adjacent boxes joined as a
//! list), then the text after the last "final answer is"/"answer:" phrase, then the rest
//! of the response; inside a region, the candidate that ends last wins. A LaTeX span that
//! fails to parse is skipped whole: numbers are never read out of it.

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

const ANSWER_PHRASES: &[&str] = &[
    "final answer is",
    "final answer:",
    "answer is",
    "answer:",
    "result is",
];

/// Longest box content considered.
const MAX_BOX_CHARS: usize = 4_000;

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

/// For every `{` (by byte index), the index of its matching `}`: one linear pass, so
/// many unclosed boxes cannot make extraction quadratic.
fn brace_pairs(s: &str) -> std::collections::HashMap<usize, usize> {
    let mut pairs = std::collections::HashMap::new();
    let mut stack = Vec::new();
    let mut escaped = false;
    for (i, c) in s.bytes().enumerate() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            b'\\' => escaped = true,
            b'{' => stack.push(i),
            b'}' => {
                if let Some(o) = stack.pop() {
                    pairs.insert(o, i);
                }
            }
            _ => {}
        }
    }
    pairs
}

/// Byte index of the `}` closing an already-opened `{`.
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 1usize;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if i > MAX_BOX_CHARS {
            // No answer is this long; an unclosed brace must not cost O(n) per box.
            return None;
        }
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether the text between two boxes (or spans) only separates them: punctuation,
/// spacing, `\text{…}` remarks and the words "and"/"or".
fn is_joining_gap(gap: &str, allow_remarks: bool) -> bool {
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

/// Groups of adjacent boxes; the answer is the last group, joined as a list.
pub fn box_groups(s: &str, boxes: &[BoxMatch]) -> Vec<(usize, usize, String)> {
    let mut groups: Vec<(usize, usize, String)> = Vec::new();
    for b in boxes {
        if let Some(last) = groups.last_mut()
            && is_joining_gap(&s[last.1..b.start], true)
        {
            last.1 = b.end;
            last.2.push_str(", ");
            last.2.push_str(&b.content);
            continue;
        }
        groups.push((b.start, b.end, b.content.clone()));
    }
    groups
}

/// A LaTeX span: byte range including delimiters, and its content.
#[derive(Clone, Debug)]
struct Span {
    start: usize,
    end: usize,
    content: String,
}

/// `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, left to right, not nested.
fn find_spans(s: &str) -> Vec<Span> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (open, close): (&str, &str) = if b[i..].starts_with(b"$$") {
            ("$$", "$$")
        } else if b[i] == b'$' && (i == 0 || b[i - 1] != b'\\') {
            ("$", "$")
        } else if b[i..].starts_with(b"\\(") {
            ("\\(", "\\)")
        } else if b[i..].starts_with(b"\\[") {
            ("\\[", "\\]")
        } else {
            i += 1;
            continue;
        };
        let body_start = i + open.len();
        let mut j = body_start;
        let mut found = None;
        while j < b.len() {
            if b[j..].starts_with(close.as_bytes()) && !(close == "$" && b[j - 1] == b'\\') {
                found = Some(j);
                break;
            }
            j += 1;
        }
        match found {
            Some(j) => {
                out.push(Span {
                    start: i,
                    end: j + close.len(),
                    content: s[body_start..j].to_string(),
                });
                i = j + close.len();
            }
            None => i = body_start,
        }
    }
    out
}

/// Plain-text stretches that may be an expression: digits, operators, brackets and
/// spaces, not glued to a word on the left; a following "percent" word is kept.
fn plain_runs(masked: &str) -> Vec<(usize, String)> {
    let chars: Vec<(usize, char)> = masked.char_indices().collect();
    let allowed = |c: char| c.is_ascii_digit() || " \t+-*/^().,%=<>!$€£".contains(c);
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        if !allowed(chars[k].1) {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && allowed(chars[k].1) {
            k += 1;
        }
        let mut text: String = chars[start..k].iter().map(|(_, c)| c).collect();
        let glued = start > 0 && chars[start - 1].1.is_alphanumeric();
        if glued {
            // `AZYUK2A`, `x2`: a digit glued to a word is part of a name.
            let skip = text
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            text = text.chars().skip(skip).collect();
        }
        let end_byte = chars.get(k).map_or(masked.len(), |(b, _)| *b);
        let rest = &masked[end_byte..];
        for w in ["percentage", "percent", "pct"] {
            if rest.starts_with(w)
                && !rest[w.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
            {
                text.push('%');
            }
        }
        if !text.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        if chars.get(k).is_some_and(|(_, c)| c.is_ascii_alphabetic()) {
            // `2A`: glued to a word on the right; keep units like `m²` out of it.
            let tail_digits = text.chars().rev().take_while(char::is_ascii_digit).count();
            let next_is_unit = masked[end_byte..]
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .count()
                <= 3;
            if tail_digits > 0 && !next_is_unit {
                continue;
            }
        }
        out.push((end_byte, text));
    }
    out
}

/// Which bytes lie inside one of the (disjoint) ranges; linear in the text length.
fn covered(len: usize, ranges: &[(usize, usize)]) -> Vec<bool> {
    let mut inside = vec![false; len];
    for &(a, b) in ranges {
        inside[a.min(len)..b.min(len)]
            .iter_mut()
            .for_each(|x| *x = true);
    }
    inside
}

fn span_ranges(spans: &[Span]) -> Vec<(usize, usize)> {
    spans.iter().map(|s| (s.start, s.end)).collect()
}

/// Blanks out the given byte ranges (keeping length), so plain runs never see them.
fn mask(s: &str, ranges: &[(usize, usize)]) -> String {
    let inside = covered(s.len(), ranges);
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if inside[i] {
            for _ in 0..c.len_utf8() {
                out.push('\u{1}');
            }
        } else {
            out.push(c);
        }
    }
    out
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
                joined = format!("{}, {}", spans[j - 1].content, joined);
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
        let masked = mask(region, &masked_ranges);
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

/// The text after the last answer phrase, up to the end of its sentence.
fn answer_tail(s: &str) -> Option<&str> {
    let lower = s.to_ascii_lowercase();
    let (pos, len) = ANSWER_PHRASES
        .iter()
        .filter_map(|p| lower.rfind(p).map(|i| (i, p.len())))
        .max_by_key(|(i, l)| (*i + *l, *l))?;
    let tail = &s[pos + len..];
    let inside = covered(tail.len(), &span_ranges(&find_spans(tail)));
    let bytes = tail.as_bytes();
    let mut end = tail.len();
    for (i, c) in tail.char_indices() {
        if inside[i] {
            continue;
        }
        let next = bytes.get(i + 1).copied();
        let sentence_end = match c {
            '.' => next.is_none_or(|n| n.is_ascii_whitespace()),
            '\n' => next == Some(b'\n'),
            _ => false,
        };
        if sentence_end {
            end = i;
            break;
        }
    }
    Some(&tail[..end])
}

/// The text in which a hedge ("3 or 4") around the chosen answer would show: the
/// answer-phrase tail, or the last sentence of the response.
pub fn hedge_window(prepared: &str, source: Source) -> &str {
    if source == Source::AnswerPhrase
        && let Some(tail) = answer_tail(prepared)
    {
        return tail;
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

/// Whether the text offers alternatives ("or", "either").
pub fn offers_alternatives(window: &str) -> bool {
    window
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.eq_ignore_ascii_case("or") || w.eq_ignore_ascii_case("either"))
}

/// Every candidate of a window, in reading order.
pub fn window_candidates(window: &str, latex: bool, plain: bool) -> Vec<Candidate> {
    let mut out = Vec::new();
    region_candidates(window, latex, plain, Source::Body, &mut out);
    out.reverse();
    out
}

/// All candidates, best first. `latex`/`plain` select the extraction targets.
pub fn candidates(prepared: &str, latex: bool, plain: bool) -> Vec<Candidate> {
    let mut out = Vec::new();
    if latex {
        let boxes = find_boxes(prepared);
        if let Some((_, _, content)) = box_groups(prepared, &boxes).pop() {
            out.push(Candidate {
                text: content,
                latex: true,
                source: Source::Boxed,
            });
        }
    }
    if let Some(tail) = answer_tail(prepared) {
        region_candidates(tail, latex, plain, Source::AnswerPhrase, &mut out);
    }
    region_candidates(prepared, latex, plain, Source::Body, &mut out);
    out
}

/// The last number-like atom of a plain run that did not parse as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    Found(String),
    /// The last atom is a malformed mixed number (`4 0/0`, `11 6/6`): read nothing.
    Poisoned,
}

/// Finds the last number, fraction, or mixed number (with an optional `%`) in `run`.
pub fn last_numeric_atom(run: &str) -> Option<Atom> {
    let c: Vec<char> = run.chars().collect();
    let digits = |mut j: usize| {
        while j < c.len() && c[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let mut last: Option<(String, bool)> = None;
    let mut i = 0;
    while i < c.len() {
        let glued = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '.');
        if !c[i].is_ascii_digit() || glued {
            i += 1;
            continue;
        }
        let neg = i > 0 && c[i - 1] == '-' && (i < 2 || !c[i - 2].is_ascii_alphanumeric());
        let start = if neg { i - 1 } else { i };
        let mut j = digits(i);
        let whole_is_int = c.get(j) != Some(&'.');
        if c.get(j) == Some(&'.') && c.get(j + 1).is_some_and(char::is_ascii_digit) {
            j = digits(j + 1);
        }
        let mut mixed = false;
        // Mixed number: `W N/D` with an integer whole part.
        let mut k = j;
        while c.get(k) == Some(&' ') {
            k += 1;
        }
        if whole_is_int && k > j && c.get(k).is_some_and(char::is_ascii_digit) {
            let n_end = digits(k);
            if c.get(n_end) == Some(&'/') && c.get(n_end + 1).is_some_and(char::is_ascii_digit) {
                j = digits(n_end + 1);
                mixed = true;
            }
        }
        if !mixed && c.get(j) == Some(&'/') && c.get(j + 1).is_some_and(char::is_ascii_digit) {
            j = digits(j + 1);
        }
        let mut k = j;
        while c.get(k) == Some(&' ') {
            k += 1;
        }
        if c.get(k) == Some(&'%') {
            j = k + 1;
        }
        last = Some((c[start..j].iter().collect(), mixed));
        i = j;
    }
    let (text, mixed) = last?;
    if mixed && super::parse_plain_expr(&text).is_err() {
        return Some(Atom::Poisoned);
    }
    Some(Atom::Found(text))
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
        let c = candidates("the answer is not 10, it is $\\foo 3$", false, true);
        assert!(c.iter().all(|c| !c.text.contains('3')), "{c:?}");
    }

    #[test]
    fn atoms() {
        assert_eq!(last_numeric_atom("4 4/9 2"), Some(Atom::Found("2".into())));
        assert_eq!(last_numeric_atom("1000 0/0"), Some(Atom::Poisoned));
        assert_eq!(
            last_numeric_atom("x -4 4/9 %"),
            Some(Atom::Found("-4 4/9 %".into()))
        );
        assert_eq!(
            last_numeric_atom("11.0 4/9"),
            Some(Atom::Found("4/9".into()))
        );
    }
}
