//! Digit grouping and decimal separators, before lexing.
//!
//! The policy (see the module guide in `mod.rs`):
//! * Separators that only ever group digits are removed between a group of one to three
//!   digits and following groups of exactly three: `12{,}345`, `32,\!349`, thin and
//!   non-breaking spaces (`12\,345`, `12\;345`, `12~345`, U+2009, U+202F, U+00A0) and a
//!   plain space (`1 000`). `3 5` is not grouped (two numbers side by side fail to parse).
//! * A bare comma followed by three digits (`12,345`) is left to the lexer, which reads
//!   it both ways (the number and the list, see [`super::ast::Expr::Readings`]).
//! * A comma is never a decimal point unless [`super::MathConfig::decimal_comma`] asks:
//!   then a comma between digits that cannot be a thousands separator (`2,74`, `0,111`,
//!   `2{,}5`) is one.

/// Separators that group digits: (text, comma-like). A comma-like separator that does
/// not group digits is a comma; a space-like one stays as it is.
const LATEX_SEPARATORS: &[(&str, bool)] = &[
    ("{,}", true),
    ("{, }", true),
    (",\\!", true),
    ("\\thinspace", false),
    ("\\,", false),
    ("\\;", false),
    ("\\:", false),
    ("\\ ", false),
    ("~", false),
    ("\u{2009}", false),
    ("\u{202F}", false),
    ("\u{A0}", false),
    (" ", false),
];

const PLAIN_SEPARATORS: &[(&str, bool)] = &[
    ("\u{2009}", false),
    ("\u{202F}", false),
    ("\u{A0}", false),
    (" ", false),
];

fn starts_at(chars: &[char], i: usize, pat: &str) -> bool {
    (i..)
        .zip(pat.chars())
        .all(|(k, p)| chars.get(k) == Some(&p))
}

fn digits_from(chars: &[char], i: usize) -> usize {
    chars[i.min(chars.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// Removes digit-grouping separators and, with `decimal_comma`, turns decimal commas
/// into points. Linear in the input.
pub fn group_digits(s: &str, latex: bool, decimal_comma: bool) -> String {
    let seps = if latex {
        LATEX_SEPARATORS
    } else {
        PLAIN_SEPARATORS
    };
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    // The number being read: digits since its start or its last removed separator,
    // whether it may start a grouping (not after a decimal point, no leading zero),
    // and the separator already removed in it.
    let mut run = 0usize;
    let mut groupable = false;
    let mut joined: Option<&str> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            if run == 0 && joined.is_none() {
                let prev = i.checked_sub(1).map(|p| chars[p]);
                groupable = prev != Some('.') && c != '0';
            }
            run += 1;
            out.push(c);
            i += 1;
            continue;
        }
        if c == ' ' && run > 0 {
            // `14 {, }916`: spaces before a comma-like separator belong to it.
            let k = i + chars[i..].iter().take_while(|c| **c == ' ').count();
            if seps
                .iter()
                .any(|(p, comma)| *comma && starts_at(&chars, k, p))
            {
                i = k;
                continue;
            }
        }
        let sep = seps.iter().find(|(p, _)| starts_at(&chars, i, p));
        if let Some(&(pat, comma_like)) = sep {
            let after = i + pat.chars().count();
            let mut k = after;
            if comma_like {
                while chars.get(k) == Some(&' ') {
                    k += 1;
                }
            }
            let digits = digits_from(&chars, k);
            let next = chars.get(k + digits).copied();
            let group_ok = digits == 3
                && !next.is_some_and(|n| n == '/' || (pat == " " && (n == ',' || n == '.')));
            let run_ok = groupable
                && match joined {
                    None => (1..=3).contains(&run),
                    Some(p) => p == pat && run == 3,
                };
            if run > 0 && group_ok && run_ok {
                joined = Some(pat);
                run = 0;
                i = k;
                continue;
            }
            if comma_like {
                let decimal = decimal_comma && run > 0 && digits > 0;
                out.push(if decimal { '.' } else { ',' });
                run = 0;
                joined = None;
                i = after;
                continue;
            }
        }
        if c == ',' && decimal_comma && run > 0 && joined.is_none() {
            // `2,74`, `0,111`: a comma that cannot group thousands is a decimal comma.
            let digits = digits_from(&chars, i + 1);
            let more = chars.get(i + 1 + digits) == Some(&',');
            let thousands = digits == 3 && groupable && run <= 3;
            if digits > 0 && !more && !thousands {
                out.push('.');
                run = 0;
                i += 1;
                continue;
            }
        }
        run = 0;
        joined = None;
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group_digits;

    #[test]
    fn groups_and_commas() {
        let latex = |s| group_digits(s, true, false);
        assert_eq!(latex("14{,}916"), "14916");
        assert_eq!(latex("32,\\!349"), "32349");
        assert_eq!(latex("14 {, }916"), "14916");
        assert_eq!(latex("12\\,345\\,678"), "12345678");
        assert_eq!(latex("12\\;345"), "12345");
        assert_eq!(latex("12\u{2009}345"), "12345");
        assert_eq!(latex("1 000"), "1000");
        assert_eq!(latex("3 5"), "3 5");
        assert_eq!(latex("12,345"), "12,345", "left to the lexer");
        assert_eq!(latex("2{,}5"), "2,5", "no decimal comma by default");
        assert_eq!(latex("0{,}125"), "0,125");
        assert_eq!(latex("1.234\\,567"), "1.234\\,567");
        assert_eq!(latex("5\\,\\text{cm}"), "5\\,\\text{cm}");
        let plain = |s| group_digits(s, false, false);
        assert_eq!(plain("1 000 4/9"), "1000 4/9");
        assert_eq!(plain("2,74"), "2,74");
        assert_eq!(plain("7,425,000"), "7,425,000");
        let comma = |s| group_digits(s, false, true);
        assert_eq!(comma("2,74"), "2.74");
        assert_eq!(comma("0,111"), "0.111");
        assert_eq!(comma("1,000.99"), "1,000.99");
        assert_eq!(group_digits("2{,}5", true, true), "2.5");
    }
}
