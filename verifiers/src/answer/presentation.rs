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
    let mut text = answer.trim();
    for _ in 0..MAX_WRAPPER_LAYERS {
        match strip_outer_wrapper(text) {
            Some(inner) => text = inner.trim(),
            None => break,
        }
    }
    let flat = flatten_latex(text);
    let lines: Vec<&str> = flat.lines().map(str::trim).collect();
    lines.join("\n").trim().to_string()
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
fn flatten_latex(text: &str) -> String {
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
    out
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
