//! Undoing the presentation around an answer, so every reader sees plain text.
//!
//! Prompts ask for the answer in `\boxed{}`; models dress it the way they would render it.
//! The presentations undone here change how the answer looks, never what it says:
//! - a code fence or inline code around the whole answer (```` ```text\n…\n``` ````);
//! - math delimiters around the whole answer (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`);
//! - LaTeX line breaks `\\` and `\newline` (rows of a grid, lines of a move list) become
//!   newlines; `\begin{array}{cc}`/`\end{array}` (and the matrix, tabular and aligned
//!   environments) and `\hline` go; in such a table `&` separates columns and becomes one
//!   space;
//! - text wrappers `\text{…}`, `\textbf{…}`, `\mathrm{…}`, `\mbox{…}`, a nested `\boxed{…}`
//!   and similar keep their content;
//! - LaTeX spacing (`\,`, `\;`, `\:`, `\ `, `\quad`, `\qquad`) is a space, `\!` nothing;
//! - every line is trimmed.
//!
//! - full-width characters (`４２`) are their ASCII forms, and the Unicode minus and
//!   dashes that stand for it (`−`, `–`) are `-`;
//! - the labels of a multi-line answer's lines go when every line has one: row labels
//!   (`Row 1: …`), numbering (`1. …`, `2) …`, `Step 3: …`) and bullets (`- `, `* `, `• `);
//! - a period (or `!`) closing a one-line answer goes (`\boxed{42.}`).
//!
//! Operators (`\times`, `\div`, `\left(`) are left to the readers that know what an
//! operator is. Every step is one pass over the text, and the output is never longer than
//! the input.

/// Environments that only lay out rows and columns.
const TABLE_ENVIRONMENTS: &[&str] = &[
    "array",
    "matrix",
    "pmatrix",
    "bmatrix",
    "Bmatrix",
    "vmatrix",
    "Vmatrix",
    "smallmatrix",
    "tabular",
    "aligned",
    "align",
    "align*",
    "gathered",
    "gather",
    "gather*",
    "split",
];

/// Commands whose braced argument is shown as is (the wrapper only changes the font or
/// draws a frame).
const WRAPPERS: &[&str] = &[
    "text",
    "textbf",
    "textrm",
    "texttt",
    "textit",
    "textsf",
    "textnormal",
    "mathrm",
    "mathbf",
    "mathtt",
    "mathsf",
    "mathit",
    "mbox",
    "boxed",
    "fbox",
];

/// Outer wrappers removed from the whole answer, at most this many layers.
const MAX_WRAPPER_LAYERS: usize = 4;

/// The plain text of an answer: wrappers and layout removed, lines trimmed.
pub fn plain_answer(answer: &str) -> String {
    let normal = normal_chars(answer);
    let mut text = normal.trim();
    for _ in 0..MAX_WRAPPER_LAYERS {
        match strip_outer_wrapper(text) {
            Some(inner) => text = inner.trim(),
            None => break,
        }
    }
    let flat = flatten_latex(text);
    let mut lines: Vec<&str> = Vec::with_capacity(16);
    lines.extend(super::lines(&flat).map(str::trim));
    unlabel_lines(&mut lines);
    let mut filled = lines.iter_mut().filter(|l| !l.is_empty());
    if let (Some(only), None) = (filled.next(), filled.next()) {
        *only = closing_period_removed(only);
    }
    // Lines are trimmed: dropping the blank ones at both ends trims the whole.
    let first = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let last = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(first, |l| l + 1);
    lines[first..last].join("\n")
}

/// Full-width forms as ASCII, the Unicode minus and dashes as `-`, the ideographic
/// space as a space (borrowed when there are none).
pub(crate) fn normal_chars(text: &str) -> std::borrow::Cow<'_, str> {
    let special = |c: char| {
        matches!(
            c,
            '\u{FF01}'..='\u{FF5E}' | '\u{3000}' | '−' | '–' | '‒' | '﹣'
        )
    };
    if text.is_ascii() || !text.contains(special) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '−' | '–' | '‒' | '﹣' => '-',
            c => c,
        })
        .collect()
}

/// `42.` → `42`: a closing period or exclamation mark after a word, number or bracket.
fn closing_period_removed(line: &str) -> &str {
    match line.strip_suffix(['.', '!']) {
        Some(rest) if rest.ends_with(|c: char| c.is_alphanumeric() || ")]}".contains(c)) => rest,
        _ => line,
    }
}

/// Removes the label of every line when all lines (two or more) carry one of the same
/// kind: `Row 1:`, `1.` / `1)` / `Step 1:` / `Move 1:` numbering in order, or a bullet.
fn unlabel_lines(lines: &mut [&str]) {
    if lines.iter().filter(|l| !l.is_empty()).count() < 2 {
        return;
    }
    type Label = fn(&str, usize) -> Option<usize>;
    const LABELS: [Label; 2] = [numbered_label, bullet_label];
    for label in LABELS {
        let mut n = 0;
        let cuts: Option<Vec<usize>> = lines
            .iter()
            .map(|line| match line.is_empty() {
                true => Some(0),
                false => {
                    n += 1;
                    label(line, n)
                }
            })
            .collect();
        if let Some(cuts) = cuts {
            for (line, cut) in lines.iter_mut().zip(cuts) {
                *line = line[cut..].trim_start();
            }
            return;
        }
    }
}

/// The length of a `Row n:`, `Step n:`, `Move n:`, `n.`, `n)` or `(n)` label numbering
/// line `n`.
fn numbered_label(line: &str, n: usize) -> Option<usize> {
    // Every label starts with a letter of a label word, a parenthesis or a digit.
    if !line.starts_with(|c: char| {
        matches!(c, 'r' | 's' | 'm' | 'l' | 'R' | 'S' | 'M' | 'L' | '(') || c.is_ascii_digit()
    }) {
        return None;
    }
    // Label words are compared ignoring ASCII case, with no copy of the line.
    let mut at = ["row", "step", "move", "line"]
        .iter()
        .find(|w| {
            line.as_bytes()
                .get(..w.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(w.as_bytes()))
        })
        .map_or(0, |w| w.len());
    let worded = at > 0;
    at += line[at..].len() - line[at..].trim_start().len();
    let paren = !worded && line[at..].starts_with('(');
    at += usize::from(paren);
    let digits = line[at..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || line[at..at + digits].parse::<usize>().ok()? != n {
        return None;
    }
    at += digits;
    let rest = &line[at..];
    let closer = match (worded, paren) {
        (_, true) => ")",
        (true, false) => [":", "."].into_iter().find(|c| rest.starts_with(c))?,
        (false, false) => [".", ")", ":"].into_iter().find(|c| rest.starts_with(c))?,
    };
    if !rest.starts_with(closer) {
        return None;
    }
    at += closer.len();
    // `1.5` is a number, not a label: the label ends at a space.
    (line[at..].starts_with(' ') || at == line.len() && worded).then_some(at)
}

/// The length of a `- `, `* ` or `• ` bullet.
fn bullet_label(line: &str, _: usize) -> Option<usize> {
    ["- ", "* ", "• "]
        .iter()
        .find(|b| line.starts_with(**b))
        .map(|b| b.len())
}

/// The inside of a fence, inline code or math delimiters around the whole text.
fn strip_outer_wrapper(text: &str) -> Option<&str> {
    for fence in ["```", "~~~"] {
        if let Some(body) = text.strip_prefix(fence).and_then(|t| t.strip_suffix(fence)) {
            // The rest of the opening line is an info string (`text`, `python`) unless
            // the whole fence is one line (```1 2 3```).
            return Some(match body.split_once('\n') {
                Some((info, rest)) if is_info_string(info) => rest,
                _ => body,
            });
        }
    }
    let pairs = [
        ("$$", "$$"),
        ("$", "$"),
        ("\\[", "\\]"),
        ("\\(", "\\)"),
        ("`", "`"),
    ];
    pairs.iter().find_map(|(open, close)| {
        text.strip_prefix(open)
            .and_then(|t| t.strip_suffix(close))
            .filter(|inner| !inner.trim().is_empty())
    })
}

/// The rest of a fence's opening line names a language (`text`, `python`, `c++`), as in
/// Markdown; a line of digits there is content (```` ```1234 ````).
fn is_info_string(line: &str) -> bool {
    let line = line.trim();
    line.is_empty()
        || (line.len() <= 20
            && line.starts_with(|c: char| c.is_ascii_alphabetic())
            && line
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-+_.#".contains(&b)))
}

/// One pass over the text: line breaks, layout environments, wrappers and spacing.
fn flatten_latex(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    if memchr::memchr3(b'\\', b'{', b'}', bytes).is_none() && memchr::memchr(b'&', bytes).is_none()
    {
        // Nothing LaTeX here: the text stays as it is.
        return std::borrow::Cow::Borrowed(text);
    }
    let is_table = text.contains("\\\\") || text.contains("\\begin{");
    let mut out = String::with_capacity(text.len());
    // For every open brace: whether its closing brace is dropped (a wrapper's).
    let mut braces: Vec<bool> = Vec::new();
    let mut rest = text;
    while let Some(ch) = rest.chars().next() {
        rest = &rest[ch.len_utf8()..];
        match ch {
            '\\' => rest = command(rest, &mut out, &mut braces),
            '{' => {
                braces.push(false);
                out.push('{');
            }
            '}' => {
                if braces.pop() != Some(true) {
                    out.push('}');
                }
            }
            '&' if is_table => {
                // One space between columns, however the cells were spaced.
                while out.ends_with([' ', '\t']) {
                    out.pop();
                }
                out.push(' ');
                rest = rest.trim_start_matches([' ', '\t']);
            }
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Handles the command after a backslash; returns the text after it.
fn command<'a>(rest: &'a str, out: &mut String, braces: &mut Vec<bool>) -> &'a str {
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
    if name_len == 0 {
        let Some(sym) = rest.chars().next() else {
            out.push('\\');
            return rest;
        };
        let after = &rest[sym.len_utf8()..];
        match sym {
            '\\' => out.push('\n'),
            ',' | ';' | ':' | ' ' => out.push(' '),
            '!' => {}
            _ => {
                out.push('\\');
                out.push(sym);
            }
        }
        return after;
    }
    let (name, after) = rest.split_at(name_len);
    match name {
        "newline" => out.push('\n'),
        "hline" => {}
        "quad" | "qquad" => out.push(' '),
        "begin" | "end" => {
            if let Some((env, tail)) = braced(after)
                && TABLE_ENVIRONMENTS.contains(&env.trim())
            {
                // `\begin{array}{cc}`: the column spec goes too.
                let tail = match (name, braced(tail)) {
                    ("begin", Some((_, spec_tail)))
                        if env.trim() == "array" || env.trim() == "tabular" =>
                    {
                        spec_tail
                    }
                    _ => tail,
                };
                out.push('\n');
                return tail;
            }
            out.push('\\');
            out.push_str(name);
        }
        _ if WRAPPERS.contains(&name) && after.trim_start().starts_with('{') => {
            let open = after.len() - after.trim_start().len();
            braces.push(true);
            return &after[open + 1..];
        }
        _ => {
            out.push('\\');
            out.push_str(name);
        }
    }
    after
}

/// `{inner}tail` → `(inner, tail)` for a short unnested group (environment names, column
/// specs); `None` otherwise.
fn braced(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix('{')?;
    let close = inner.bytes().take(40).position(|b| b == b'}')?;
    let body = &inner[..close];
    (!body.contains('{')).then(|| (body, &inner[close + 1..]))
}
