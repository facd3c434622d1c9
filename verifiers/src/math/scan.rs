//! Low-level text scanning for extraction: brace matching, LaTeX spans, undelimited
//! LaTeX islands and plain-text runs. All linear in the input.

/// Longest box content considered.
const MAX_BOX_CHARS: usize = 4_000;

/// For every `{` (by byte index), the index of its matching `}`: one linear pass, so
/// many unclosed boxes cannot make extraction quadratic.
pub(super) fn brace_pairs(s: &str) -> std::collections::HashMap<usize, usize> {
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
pub(super) fn matching_brace(s: &str) -> Option<usize> {
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

/// A LaTeX span: byte range including delimiters, and its content.
#[derive(Clone, Debug)]
pub(super) struct Span {
    pub start: usize,
    pub end: usize,
    pub content: String,
}

/// `$…$`, `$$…$$`, `\(…\)`, `\[…\]`, left to right, not nested.
pub(super) fn find_spans(s: &str) -> Vec<Span> {
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
        // Inline math (`$…$`, `\(…\)`) stays on one line; display math may not.
        let inline = open == "$" || open == "\\(";
        let limit = body_start + if inline { 4_000 } else { 20_000 };
        let mut j = body_start;
        let mut found = None;
        while j < b.len() && j < limit {
            if b[j..].starts_with(close.as_bytes()) && !(close == "$" && b[j - 1] == b'\\') {
                found = Some(j);
                break;
            }
            if inline && b[j] == b'\n' {
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
pub(super) fn plain_runs(masked: &str) -> Vec<(usize, String)> {
    let chars: Vec<(usize, char)> = masked.char_indices().collect();
    let allowed = |c: char| {
        matches!(
            c,
            '0'..='9'
                | ' '
                | '\t'
                | '+'
                | '-'
                | '*'
                | '/'
                | '^'
                | '('
                | ')'
                | '.'
                | ','
                | '%'
                | '='
                | '<'
                | '>'
                | '!'
                | '$'
                | '€'
                | '£'
        )
    };
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
        // Most runs are the spaces between words: no digit, no expression (checked
        // again below, after a glued prefix goes).
        if !chars[start..k].iter().any(|(_, c)| c.is_ascii_digit()) {
            continue;
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
        if text.trim_start().starts_with(['=', '<', '>']) && !names_one_thing(&chars[..start]) {
            // `x + y = 5`: the right side of an equation whose left side is not a plain
            // name; the number is not an answer on its own.
            continue;
        }
        // `f(x) = 5`: the run starts at `) = 5`; drop dangling closers and relation signs.
        let trimmed =
            text.trim_start_matches(|c: char| c.is_whitespace() || ")=<>,;:!*".contains(c));
        let trimmed =
            trimmed.trim_end_matches(|c: char| c.is_whitespace() || "(=<>+*/^-".contains(c));
        out.push((end_byte, trimmed.to_string()));
    }
    out
}

/// Which bytes lie inside one of the (disjoint) ranges; linear in the text length.
pub(super) fn covered(len: usize, ranges: &[(usize, usize)]) -> Vec<bool> {
    let mut inside = vec![false; len];
    for &(a, b) in ranges {
        inside[a.min(len)..b.min(len)]
            .iter_mut()
            .for_each(|x| *x = true);
    }
    inside
}

pub(super) fn span_ranges(spans: &[Span]) -> Vec<(usize, usize)> {
    spans.iter().map(|s| (s.start, s.end)).collect()
}

/// Stretches of undelimited LaTeX around each `\command`: commands, brace groups,
/// digits, single-letter variables, operators and single spaces; a word of two or more
/// letters ends it. Byte ranges, in order.
pub(super) fn latex_islands(masked: &str) -> Vec<(usize, usize)> {
    let b = masked.as_bytes();
    let closes = brace_pairs(masked);
    let word_len = |i: usize| {
        b[i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count()
    };
    let is_op = |c: u8| b"+-*/^_=()[]|!<>.,0123456789 ".contains(&c);
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
            continue;
        }
        // Extend backwards over operators, digits and lone letters.
        let mut start = i;
        while start > 0 {
            let c = b[start - 1];
            let lone_letter = c.is_ascii_alphabetic()
                && !(start >= 2 && b[start - 2].is_ascii_alphabetic())
                && !b[start].is_ascii_alphabetic();
            if (is_op(c) && c != b',' && c != b'.') || lone_letter {
                start -= 1;
            } else {
                break;
            }
        }
        let mut j = i;
        while j < b.len() {
            let c = b[j];
            if c == b'\\' {
                match b.get(j + 1) {
                    Some(c) if c.is_ascii_alphabetic() => j += 1 + word_len(j + 1),
                    Some(c) if c.is_ascii() => j += 2,
                    _ => break,
                }
            } else if c == b'{' {
                match closes.get(&j) {
                    Some(&close) => j = close + 1,
                    None => break,
                }
            } else if c.is_ascii_alphabetic() {
                if word_len(j) >= 2 {
                    break;
                }
                j += 1;
            } else if is_op(c) && !(c == b' ' && b.get(j + 1) == Some(&b' ')) {
                let next_at = b[j + 1..]
                    .iter()
                    .position(|n| *n != b' ')
                    .map(|p| j + 1 + p);
                let next_math = next_at.is_some_and(|p| {
                    let n = b[p];
                    // A digit, a command, a bracket, a sign, or a lone letter (`x>0, f(x)`).
                    n.is_ascii_digit()
                        || b"\\(-".contains(&n)
                        || (n.is_ascii_alphabetic() && word_len(p) == 1)
                });
                if c == b'.' && !b.get(j + 1).is_some_and(|n| n.is_ascii_digit()) {
                    break;
                }
                if c == b',' && !next_math {
                    break;
                }
                j += 1;
            } else {
                break;
            }
        }
        while j > start && b[j - 1] == b' ' {
            j -= 1;
        }
        let start = start + (masked[start..j].len() - masked[start..j].trim_start().len());
        if let Some(last) = out.last_mut()
            && start <= last.1
        {
            last.1 = last.1.max(j);
        } else if j > start {
            out.push((start, j));
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether the text before a `= …` run ends in a lone variable name (`so x`), not in a
/// formula (`x + y`, `2x`).
fn names_one_thing(before: &[(usize, char)]) -> bool {
    let mut it = before
        .iter()
        .rev()
        .map(|(_, c)| *c)
        .skip_while(|c| *c == ' ');
    let Some(last) = it.next() else { return false };
    if !last.is_ascii_alphabetic() {
        return false;
    }
    // The letter must be a word of its own, and not follow an operator or a number.
    match it.next() {
        None => true,
        Some(c) if c.is_alphanumeric() => false,
        Some(' ') => {
            let prev = it.find(|c| *c != ' ');
            prev.is_none_or(|c| c.is_alphabetic() || ",;:".contains(c))
        }
        Some(c) => !"+-*/^=<>".contains(c),
    }
}

/// Blanks out the given byte ranges (keeping length), so plain runs never see them.
pub(super) fn mask(s: &str, ranges: &[(usize, usize)]) -> String {
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
