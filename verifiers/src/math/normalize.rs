//! String-level clean-ups: of a whole response (the reasoning, escape damage, chat
//! markers) and of one candidate answer before it is tokenised.

use super::separators;
use crate::answer::{AnswerError, MAX_ANSWER_BYTES, strip_reasoning};

/// Commands whose leading backslash is often doubled by bad JSON escaping (`\\frac`).
const KNOWN_COMMANDS: &[&str] = &[
    "frac", "dfrac", "tfrac", "cfrac", "sqrt", "boxed", "fbox", "left", "right", "le", "leq", "ge",
    "geq", "ne", "neq", "lt", "gt", "text", "textbf", "mathrm", "pi", "infty", "cdot", "times",
    "pm", "mp", "in", "cup", "sin", "cos", "tan", "log", "ln", "begin", "end", "quad", "qquad",
    "approx", "binom", "dbinom", "circ", "mbox", "emptyset", "theta", "alpha", "beta",
];

/// Cleans a whole response before extraction: the reasoning goes first (the shared rule
/// of [`strip_reasoning`]), then chat markers and escape damage.
///
/// # Errors
/// As [`strip_reasoning`]: reasoning never closed, or a response over the scanning cap;
/// visible text over [`MAX_ANSWER_BYTES`] (the whole visible reply is read, never a
/// window of it).
pub fn prepare_response(text: &str) -> Result<String, AnswerError> {
    prepare_visible(&strip_reasoning(text)?)
}

/// [`prepare_response`] for text whose reasoning is already removed: read once, so a
/// tag it mentions is never taken for reasoning again.
pub fn prepare_visible(visible: &str) -> Result<String, AnswerError> {
    let mut s: &str = visible;
    if let Some(i) = s.find("<|im_start|>") {
        s = &s[..i];
    }
    if s.len() > MAX_ANSWER_BYTES {
        return Err(AnswerError::AnswerTooLong {
            len: s.len(),
            cap: MAX_ANSWER_BYTES,
        });
    }
    Ok(repair_escapes(&crate::answer::normal_chars(s)))
}

/// Undoes common escape damage: `\f`, `\b`, `\t`, `\r` eaten by a JSON or Python string
/// (a form feed followed by `rac` was `\frac`), and doubled backslashes before commands.
fn repair_escapes(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next_alpha = chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
        let restored = match c {
            '\u{c}' if next_alpha => Some('f'),
            '\u{8}' if next_alpha => Some('b'),
            '\t' if next_alpha && word_at(&chars, i + 1).is_some_and(is_t_command) => Some('t'),
            '\r' if word_at(&chars, i + 1).as_deref() == Some("ight") => Some('r'),
            _ => None,
        };
        if let Some(r) = restored {
            // `\\\f` (an escaped backslash, then `\f` eaten) was a single command.
            if !out.ends_with('\\') || out.ends_with("\\\\") {
                out.push('\\');
            }
            out.push(r);
            i += 1;
            continue;
        }
        if c == '\\'
            && chars.get(i + 1) == Some(&'\\')
            && chars.get(i.wrapping_sub(1)) != Some(&'\\')
            && let Some(w) = word_at(&chars, i + 2)
            && KNOWN_COMMANDS.contains(&w.as_str())
        {
            out.push('\\');
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

fn is_t_command(w: String) -> bool {
    ["ext", "imes", "frac", "an", "heta", "extbf", "binom"].contains(&w.as_str())
}

fn word_at(chars: &[char], i: usize) -> Option<String> {
    let w: String = chars[i.min(chars.len())..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    (!w.is_empty()).then_some(w)
}

/// Replaces every occurrence of `from` with `to`.
fn replace_all(s: &mut String, from: &str, to: &str) {
    if s.contains(from) {
        *s = s.replace(from, to);
    }
}

/// Replaces a command only where it is not the prefix of a longer command name.
fn replace_cmd(s: &mut String, cmd: &str, to: &str) {
    if !s.contains(cmd) {
        return;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s.as_str();
    while let Some(i) = rest.find(cmd) {
        let after = &rest[i + cmd.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_alphabetic()) {
            out.push_str(cmd);
        } else {
            out.push_str(to);
        }
        rest = after;
    }
    out.push_str(rest);
    *s = out;
}

/// Normalises one LaTeX candidate.
pub fn normalize_latex(src: &str, decimal_comma: bool) -> String {
    let mut s = src.trim().to_string();
    replace_all(&mut s, "\\$", "");
    replace_all(&mut s, "$", "");
    repeating_decimals(&mut s);
    s = separators::group_digits(&s, true, decimal_comma);
    // Row separators `\\` must survive the `\ ` and `\,` spacing rules below.
    replace_all(&mut s, "\\\\", "\u{2}");
    for (from, to) in [
        ("\\dfrac", "\\frac"),
        ("\\tfrac", "\\frac"),
        ("\\cfrac", "\\frac"),
        ("\\dbinom", "\\binom"),
        ("^{\\prime\\prime}", "''"),
        ("^{\\prime}", "'"),
        ("^\\prime", "'"),
        ("\\prime", "'"),
        ("\\tbinom", "\\binom"),
        ("{}^\\circ", "\\degree "),
        ("^{\\circ}", "\\degree "),
        ("^\\circ", "\\degree "),
        ("\\circ", "\\degree "),
        ("°", "\\degree "),
        ("\\displaystyle", ""),
        ("\\qquad", " "),
        ("\\quad", " "),
        ("\\enspace", " "),
        ("\\thinspace", " "),
        ("\\,", " "),
        ("\\;", " "),
        ("\\:", " "),
        ("\\!", ""),
        ("\\ ", " "),
        ("~", " "),
        ("\\left.", ""),
        ("\\right.", ""),
    ] {
        replace_all(&mut s, from, to);
    }
    for cmd in [
        "\\left", "\\right", "\\bigl", "\\bigr", "\\Bigl", "\\Bigr", "\\big", "\\Big",
    ] {
        replace_cmd(&mut s, cmd, "");
    }
    percent_words(&mut s, "\\%");
    replace_all(&mut s, "\u{2}", "\\\\");
    trim_punctuation(&mut s);
    strip_trailing_unit(&mut s);
    s
}

/// Unit words written bare after a number at the end of an answer (`15 cm`, `3 m^2`).
const UNITS: &[&str] = &[
    "mm", "cm", "km", "m", "kg", "g", "mg", "s", "sec", "min", "h", "hr", "hours", "ft", "feet",
    "inches", "yd", "mi", "miles", "meters", "units", "dollars", "cents", "degrees", "mph", "sq",
    "L", "mL",
];

fn strip_trailing_unit(s: &mut String) {
    let body = s.trim_end();
    let body = body
        .strip_suffix("^2")
        .or_else(|| body.strip_suffix("^3"))
        .or_else(|| body.strip_suffix("^{2}"))
        .or_else(|| body.strip_suffix("^{3}"))
        .unwrap_or(body);
    let letters = body
        .chars()
        .rev()
        .take_while(char::is_ascii_alphabetic)
        .count();
    let word_start = body.len() - letters;
    let (head, word) = body.split_at(word_start);
    let head_trim = head.trim_end();
    // Only after a number (or a closing brace) with a space: `5 cm`, not `5cm` or `x m`.
    if UNITS.contains(&word)
        && head.len() > head_trim.len()
        && head_trim.ends_with(|c: char| c.is_ascii_digit() || c == '}')
        && !head_trim.ends_with("\\")
    {
        *s = head_trim.to_string();
    }
}

/// Normalises one plain-text candidate.
pub fn normalize_plain(src: &str, decimal_comma: bool) -> String {
    let mut s = src.trim().to_string();
    for c in ["$", "€", "£", "¥"] {
        replace_all(&mut s, c, "");
    }
    percent_words(&mut s, "%");
    s = separators::group_digits(&s, false, decimal_comma);
    trim_punctuation(&mut s);
    s
}

fn trim_punctuation(s: &mut String) {
    loop {
        let t = s.trim_end();
        if t.ends_with("..") {
            // An ellipsis (`1, 2, 3, ...`) is part of the answer, not punctuation.
            break;
        }
        let t = t
            .strip_suffix("\\\\")
            .or_else(|| t.strip_suffix(['.', ',', ';', ':']))
            .unwrap_or(t);
        if t.len() == s.len() {
            break;
        }
        *s = t.to_string();
    }
    let t = s.trim_start().trim_start_matches([',', ';', ':', '=']);
    *s = t.trim().to_string();
}

/// `28 percent`, `28pct`, `28 percentage` → `28%`.
fn percent_words(s: &mut String, sign: &str) {
    if !s.contains("percent") && !s.contains("pct") {
        return;
    }
    for w in ["percentage", "percent", "pct"] {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        while let Some(i) = rest.find(w) {
            let before = rest[..i].chars().next_back();
            let after = rest[i + w.len()..].chars().next();
            let standalone = !before.is_some_and(|c| c.is_ascii_alphabetic() || c == '\\')
                && !after.is_some_and(|c| c.is_ascii_alphabetic());
            out.push_str(&rest[..i]);
            out.push_str(if standalone { sign } else { w });
            rest = &rest[i + w.len()..];
        }
        out.push_str(rest);
        *s = out;
    }
}

/// `0.\overline{3}` → `\frac{1}{3}`, `1.2\overline{34}` → its exact fraction.
fn repeating_decimals(s: &mut String) {
    const BAR: &str = "\\overline{";
    while let Some(i) = s.find(BAR) {
        let head = &s[..i];
        let frac_digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let before_frac = &head[..head.len() - frac_digits];
        let Some(int_part) = before_frac.strip_suffix('.') else {
            return;
        };
        let int_digits = int_part.len()
            - int_part
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .len();
        let start = int_part.len() - int_digits;
        let body = &s[i + BAR.len()..];
        let Some(close) = body.find('}') else { return };
        let rep = &body[..close];
        if rep.is_empty() || rep.len() > 30 || !rep.chars().all(|c| c.is_ascii_digit()) {
            return;
        }
        let (int_s, frac_s) = (&int_part[start..], &head[head.len() - frac_digits..]);
        if frac_s.len() > 30 || int_s.len() > 30 {
            return;
        }
        // x = I.A(R) = (I·10^a·(10^r − 1) + A·(10^r − 1) + R) / (10^a·(10^r − 1)).
        let pow10 = |n: usize| num_bigint::BigInt::from(10).pow(n as u32);
        let parse = |t: &str| t.parse::<num_bigint::BigInt>().unwrap_or_default();
        let nines = pow10(rep.len()) - 1;
        let den = pow10(frac_s.len()) * &nines;
        let num = parse(int_s) * &den + parse(frac_s) * &nines + parse(rep);
        let replacement = format!("\\frac{{{num}}}{{{den}}}");
        s.replace_range(start..i + BAR.len() + close + 1, &replacement);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators() {
        assert_eq!(normalize_plain("1,000.99€", false), "1,000.99");
        assert_eq!(normalize_plain("2,74 $", true), "2.74");
        assert_eq!(normalize_plain("1 000 4/9", false), "1000 4/9");
        assert_eq!(normalize_plain("4 4/9 percent", false), "4 4/9 %");
        assert_eq!(normalize_latex("14{,}916", false), "14916");
        assert_eq!(normalize_latex("32,\\!349", false), "32349");
        assert_eq!(normalize_latex("-2,1", false), "-2,1");
        assert_eq!(normalize_latex("\\frac{1}{3}.", false), "\\frac{1}{3}");
    }

    #[test]
    fn escapes() {
        assert_eq!(prepare_response("\\\\frac{1}{2}").unwrap(), "\\frac{1}{2}");
        assert_eq!(prepare_response("\u{c}rac{1}{2}").unwrap(), "\\frac{1}{2}");
        assert_eq!(prepare_response("<think>5</think> 6").unwrap(), " 6");
        assert_eq!(prepare_response("<think>5"), Err(AnswerError::Truncated));
    }
}
