//! Tokeniser for normalised answer strings (LaTeX or plain text).

use super::ParseError;

/// Whether a candidate came from LaTeX (a span or a box) or from plain text. The two
/// differ in a few places: `x^10` means `x^1 0` in LaTeX, multi-letter words are products
/// of variables in LaTeX but an error in plain text, `%` is a unit marker in LaTeX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Latex,
    Plain,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Digits with at most one `.`.
    Num(String),
    /// `whole num/den` written with a space (plain text only); validated by the parser.
    Mixed(String, String, String),
    Letter(char),
    /// A multi-letter plain word that names a function, constant or separator.
    Word(String),
    /// `\name`, or a one-character command such as `\{`.
    Cmd(String),
    /// The raw content of `\text{…}` and its relatives.
    Text(String),
    Op(char),
    Le,
    Ge,
    Ne,
    RowSep,
    Percent,
    /// `'` (or `\prime`) after a name: `f'(x)`, `y''`.
    Prime,
}

/// Plain words that are understood in both modes.
const WORDS: &[&str] = &[
    "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
    "ln", "log", "exp", "sqrt", "pi", "and", "or", "inf", "infty", "infinity",
];

/// Font commands whose braced argument is a word when it holds only letters.
const FONT_CMDS: &[&str] = &["mathrm", "mathbf", "mathit", "mathsf", "textsf"];

/// Commands whose braced argument is plain text.
const TEXT_CMDS: &[&str] = &[
    "text",
    "textbf",
    "textit",
    "textnormal",
    "mbox",
    "textrm",
    "texttt",
];

/// Tokenises a normalised candidate. With `join_groups`, a comma followed by exactly
/// three digits continues the number before it (`12,345` is one number) outside
/// brackets; without, every comma is a separator. The caller parses both readings.
pub fn lex(src: &str, mode: Mode, join_groups: bool) -> Result<Vec<Tok>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let mut toks = Vec::with_capacity(chars.len() / 2 + 1);
    // Bracket depth: inside `(…)`, `[…]`, `\{…\}` and `\langle…\rangle` a comma
    // always separates items.
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '(' | '[' | '⟨' => depth += 1,
            ')' | ']' | '⟩' => depth = depth.saturating_sub(1),
            '\\' => match chars.get(i + 1) {
                Some('{') => depth += 1,
                Some('}') => depth = depth.saturating_sub(1),
                Some('l') if starts_with(&chars, i + 1, "langle") => depth += 1,
                Some('r') if starts_with(&chars, i + 1, "rangle") => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            },
            _ => {}
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            if mode == Mode::Plain
                && let Some((tok, next)) = mixed_number(&chars, i)
            {
                toks.push(tok);
                i = next;
                continue;
            }
            let start = i;
            let mut seen_dot = false;
            if join_groups && depth == 0 {
                i = thousands_groups(&chars, i);
                if i > start {
                    let digits: String = chars[start..i]
                        .iter()
                        .filter(|c| c.is_ascii_digit())
                        .collect();
                    let mut j = i;
                    if chars.get(j) == Some(&'.')
                        && chars.get(j + 1).is_some_and(char::is_ascii_digit)
                    {
                        j += 1;
                        while chars.get(j).is_some_and(char::is_ascii_digit) {
                            j += 1;
                        }
                    }
                    let frac: String = chars[i..j].iter().collect();
                    toks.push(Tok::Num(format!("{digits}{frac}")));
                    i = j;
                    continue;
                }
            }
            while i < chars.len() {
                let d = chars[i];
                if d.is_ascii_digit() {
                    i += 1;
                } else if d == '.'
                    && !seen_dot
                    && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())
                {
                    seen_dot = true;
                    i += 1;
                } else {
                    break;
                }
            }
            if mode == Mode::Plain
                && let Some((mantissa, exp, next)) = scientific(&chars, start, i)
            {
                // `1e-7` in plain text is scientific notation, not `1·e − 7`.
                toks.extend([
                    Tok::Op('('),
                    Tok::Num(mantissa),
                    Tok::Op('*'),
                    Tok::Num("10".into()),
                    Tok::Op('^'),
                    Tok::Op('('),
                ]);
                if exp.starts_with('-') {
                    toks.push(Tok::Op('-'));
                }
                toks.extend([
                    Tok::Num(exp.trim_start_matches(['-', '+']).to_string()),
                    Tok::Op(')'),
                    Tok::Op(')'),
                ]);
                i = next;
                continue;
            }
            toks.push(Tok::Num(chars[start..i].iter().collect()));
            continue;
        }
        if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word.len() == 1 {
                toks.push(Tok::Letter(c));
            } else if WORDS.contains(&word.to_ascii_lowercase().as_str()) {
                toks.push(Tok::Word(word.to_ascii_lowercase()));
            } else if word.eq_ignore_ascii_case("e") {
                toks.push(Tok::Letter('e'));
            } else if mode == Mode::Plain {
                return Err(ParseError::UnknownWord(word));
            } else {
                toks.extend(word.chars().map(Tok::Letter));
            }
            continue;
        }
        if c == '\\' {
            i += 1;
            let Some(&n) = chars.get(i) else {
                return Err(ParseError::Unexpected("trailing backslash".into()));
            };
            if n == '\\' {
                toks.push(Tok::RowSep);
                i += 1;
                continue;
            }
            if !n.is_ascii_alphabetic() {
                i += 1;
                match n {
                    '%' => toks.push(Tok::Percent),
                    '{' | '}' | '|' => toks.push(Tok::Cmd(n.to_string())),
                    ',' | ';' | ':' | '!' | ' ' => {}
                    _ => return Err(ParseError::UnknownCommand(n.to_string())),
                }
                continue;
            }
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphabetic() {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            if TEXT_CMDS.contains(&name.as_str()) {
                let (content, next) = braced_raw(&chars, i)?;
                toks.push(Tok::Text(content));
                i = next;
            } else if FONT_CMDS.contains(&name.as_str())
                && let Ok((content, next)) = braced_raw(&chars, i)
                && content.trim().len() >= 2
                && content
                    .trim()
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || c == ' ')
                && !WORDS.contains(&content.trim())
            {
                // `\mathrm{cm}`: a word in a math font is a unit or a name, not a product.
                toks.push(Tok::Text(content));
                i = next;
            } else {
                toks.push(Tok::Cmd(name));
            }
            continue;
        }
        let two = chars.get(i + 1).copied();
        let tok = match (c, two) {
            ('<', Some('=')) => Some(Tok::Le),
            ('>', Some('=')) => Some(Tok::Ge),
            ('!', Some('=')) => Some(Tok::Ne),
            _ => None,
        };
        if let Some(t) = tok {
            toks.push(t);
            i += 2;
            continue;
        }
        i += 1;
        toks.push(match c {
            '+' | '-' | '*' | '/' | '^' | '_' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | ','
            | ';' | ':' | '=' | '<' | '>' | '!' | '&' => Tok::Op(c),
            '%' => Tok::Percent,
            '\'' | '′' => Tok::Prime,
            '−' | '–' => Tok::Op('-'),
            '×' | '·' | '⋅' => Tok::Op('*'),
            '÷' => Tok::Op('/'),
            '≤' => Tok::Le,
            '⟨' => Tok::Cmd("langle".into()),
            '⟩' => Tok::Cmd("rangle".into()),
            '≥' => Tok::Ge,
            '≠' => Tok::Ne,
            'π' => Tok::Cmd("pi".into()),
            '∞' => Tok::Cmd("infty".into()),
            '√' => Tok::Cmd("sqrt".into()),
            '±' => Tok::Cmd("pm".into()),
            '∪' => Tok::Cmd("cup".into()),
            '∈' => Tok::Cmd("in".into()),
            '°' => Tok::Cmd("degree".into()),
            '≈' => Tok::Cmd("approx".into()),
            '²' => Tok::Cmd("squared".into()),
            '³' => Tok::Cmd("cubed".into()),
            _ => return Err(ParseError::BadChar(c)),
        });
    }
    // `x²`: a superscript digit is a power.
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        match &t {
            Tok::Cmd(c) if c == "squared" || c == "cubed" => {
                out.push(Tok::Op('^'));
                out.push(Tok::Num(if c == "squared" { "2" } else { "3" }.into()));
            }
            _ => out.push(t),
        }
    }
    Ok(out)
}

fn starts_with(chars: &[char], i: usize, word: &str) -> bool {
    word.chars()
        .enumerate()
        .all(|(k, w)| chars.get(i + k) == Some(&w))
}

/// `d{1,3}(,\s*ddd)+` starting at `i` (a whole integer part with at least one group):
/// the index after the last group, or `i` when there is no such grouping. The first
/// group must not start with 0 (`0,125` is not a thousands grouping).
fn thousands_groups(chars: &[char], i: usize) -> usize {
    if i > 0 && chars[i - 1] == '.' || chars[i] == '0' {
        return i;
    }
    let run = |j: usize| chars[j..].iter().take_while(|c| c.is_ascii_digit()).count();
    let first = run(i);
    if !(1..=3).contains(&first) {
        return i;
    }
    let mut end = i + first;
    loop {
        if chars.get(end) != Some(&',') {
            break;
        }
        // No space may follow a grouping comma: `32, 349` is a list of two numbers.
        let k = end + 1;
        if k >= chars.len() || run(k) != 3 {
            break;
        }
        end = k + 3;
    }
    if end == i + first { i } else { end }
}

/// `1.5e-7`: the mantissa spans `start..end`; returns it, the signed exponent digits and
/// the index after them.
fn scientific(chars: &[char], start: usize, end: usize) -> Option<(String, String, usize)> {
    if !matches!(chars.get(end), Some('e' | 'E')) {
        return None;
    }
    let mut j = end + 1;
    let sign_start = j;
    if matches!(chars.get(j), Some('+' | '-')) {
        j += 1;
    }
    let digits_start = j;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    if j == digits_start || chars.get(j).is_some_and(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some((
        chars[start..end].iter().collect(),
        chars[sign_start..j].iter().collect(),
        j,
    ))
}

/// Reads `{…}` starting at `i` (after optional spaces) and returns its raw content.
fn braced_raw(chars: &[char], mut i: usize) -> Result<(String, usize), ParseError> {
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    if chars.get(i) != Some(&'{') {
        return Err(ParseError::Unexpected("text command without braces".into()));
    }
    let mut depth = 0usize;
    let start = i + 1;
    while i < chars.len() {
        match chars[i] {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok((chars[start..i].iter().collect(), i + 1));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(ParseError::Eof)
}

/// Recognises a plain-text mixed number `W N/D` at `i` (a space between the whole part and
/// the fraction, nothing numeric glued on either side).
fn mixed_number(chars: &[char], i: usize) -> Option<(Tok, usize)> {
    if i > 0 && matches!(chars[i - 1], '/' | '.' | ')' | '^' | '_') {
        return None;
    }
    let digits = |mut j: usize| {
        let s = j;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        (s, j)
    };
    let (ws, we) = digits(i);
    if we == ws || chars.get(we) != Some(&' ') {
        return None;
    }
    let mut j = we;
    while chars.get(j) == Some(&' ') {
        j += 1;
    }
    let (ns, ne) = digits(j);
    if ne == ns || chars.get(ne) != Some(&'/') {
        return None;
    }
    let (ds, de) = digits(ne + 1);
    if de == ds
        || chars
            .get(de)
            .is_some_and(|c| c.is_ascii_digit() || *c == '.' || *c == '/')
    {
        return None;
    }
    let s = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
    Some((Tok::Mixed(s(ws, we), s(ns, ne), s(ds, de)), de))
}
