//! Comparing a program's stdout with the expected output, the way open judges' default
//! checkers do (Codeforces' `wcmp`/`rcmp`, DMOJ's `standard`): token by token.
//!
//! * Tokens are the maximal runs of non-whitespace bytes, whitespace being ASCII space,
//!   tab, CR, LF, VT and FF. So trailing spaces, blank trailing lines, CRLF line ends and
//!   the amount of whitespace between tokens do not matter; the number and order of tokens
//!   do, so extra or missing output (a hedge such as `3 or 4`) is wrong.
//! * A token compares exactly (case-sensitive, `007` ≠ `7`, `3.0` ≠ `3`), except where the
//!   expected token is a decimal number with a fraction or an exponent (`0.5`, `2.`, `1e-3`)
//!   and the program's token is a finite decimal number too: then they match when the
//!   absolute or the relative error is at most the tolerance,
//!   `|expected − got| ≤ tolerance · max(1, |expected|)` ([`DEFAULT_FLOAT_TOLERANCE`] =
//!   10⁻⁶, the usual "absolute or relative error ≤ 1e-6" of problem statements).
//!   `nan`, `inf` and hexadecimal floats compare exactly.

use serde::{Deserialize, Serialize};

/// Absolute-or-relative error accepted between floating-point tokens by default.
pub const DEFAULT_FLOAT_TOLERANCE: f64 = 1e-6;

/// Longest excerpt of a token kept in a [`Mismatch`].
const EXCERPT_CHARS: usize = 80;

/// How stdout is compared with the expected output (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct OutputComparison {
    /// For decimal tokens with a fraction or exponent in the expected output; `0.0` makes
    /// every comparison exact.
    pub float_tolerance: f64,
}

impl Default for OutputComparison {
    fn default() -> Self {
        OutputComparison {
            float_tolerance: DEFAULT_FLOAT_TOLERANCE,
        }
    }
}

/// Where the output first differs. Excerpts of the expected output are included: show
/// them to a model only for public tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Mismatch {
    /// Token `index` (0-based; on 1-based output line `line`) differs.
    Token {
        index: usize,
        line: usize,
        expected: String,
        got: String,
    },
    /// The output stopped after `got_tokens` of `expected_tokens` tokens.
    TooShort {
        expected_tokens: usize,
        got_tokens: usize,
    },
    /// The output goes on past the `expected_tokens` expected tokens.
    TooLong {
        expected_tokens: usize,
        extra: String,
    },
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mismatch::Token {
                index,
                line,
                expected,
                got,
            } => write!(
                f,
                "token {} (line {line}): expected `{expected}`, got `{got}`",
                index + 1
            ),
            Mismatch::TooShort {
                expected_tokens,
                got_tokens,
            } => write!(
                f,
                "output ends after {got_tokens} of {expected_tokens} expected tokens"
            ),
            Mismatch::TooLong {
                expected_tokens,
                extra,
            } => write!(
                f,
                "output goes on after the {expected_tokens} expected tokens with `{extra}`"
            ),
        }
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c')
}

/// Tokens with the 1-based line each starts on.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut line = 1;
    let mut rest = text;
    std::iter::from_fn(move || {
        let skip = rest.bytes().take_while(|&b| is_space(b));
        let mut skipped = 0;
        for b in skip {
            line += usize::from(b == b'\n');
            skipped += 1;
        }
        rest = &rest[skipped..];
        if rest.is_empty() {
            return None;
        }
        let len = rest.bytes().position(is_space).unwrap_or(rest.len());
        let (tok, tail) = rest.split_at(len);
        rest = tail;
        Some((line, tok))
    })
}

/// `Ok` when `got` matches `expected` under `cmp`; else the first difference.
pub fn compare_stdout(expected: &str, got: &str, cmp: &OutputComparison) -> Result<(), Mismatch> {
    let mut want = tokens(expected);
    let mut have = tokens(got);
    let mut index = 0;
    loop {
        match (want.next(), have.next()) {
            (None, None) => return Ok(()),
            (Some(_), None) => {
                return Err(Mismatch::TooShort {
                    expected_tokens: index + 1 + want.count(),
                    got_tokens: index,
                });
            }
            (None, Some((_, extra))) => {
                return Err(Mismatch::TooLong {
                    expected_tokens: index,
                    extra: excerpt(extra),
                });
            }
            (Some((_, e)), Some((line, g))) => {
                if !tokens_match(e, g, cmp.float_tolerance) {
                    return Err(Mismatch::Token {
                        index,
                        line,
                        expected: excerpt(e),
                        got: excerpt(g),
                    });
                }
            }
        }
        index += 1;
    }
}

fn tokens_match(expected: &str, got: &str, tolerance: f64) -> bool {
    if expected == got {
        return true;
    }
    let tolerant = tolerance > 0.0;
    if !tolerant || !is_fractional_decimal(expected) || decimal_shape(got).is_none() {
        return false;
    }
    match (expected.parse::<f64>(), got.parse::<f64>()) {
        (Ok(e), Ok(g)) if e.is_finite() && g.is_finite() => {
            (e - g).abs() <= tolerance * e.abs().max(1.0)
        }
        _ => false,
    }
}

/// Decimal literal shape `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`;
/// returns whether it has a fraction or exponent part.
fn decimal_shape(tok: &str) -> Option<bool> {
    let b = tok.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_digits = digits(&mut i);
    let mut fractional = false;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        fractional = true;
        frac_digits = digits(&mut i);
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
        fractional = true;
    }
    (i == b.len()).then_some(fractional)
}

fn is_fractional_decimal(tok: &str) -> bool {
    decimal_shape(tok) == Some(true)
}

fn excerpt(tok: &str) -> String {
    match tok.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}…", &tok[..end]),
        None => tok.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same(e: &str, g: &str) -> bool {
        compare_stdout(e, g, &OutputComparison::default()).is_ok()
    }

    #[test]
    fn whitespace_does_not_matter_tokens_do() {
        assert!(same("1 2\n3\n", "1 2\n3"));
        assert!(same("1 2\n3\n", "1   2   \r\n3\r\n\n\n  "));
        assert!(same("1 2\n3\n", "1\n2 3"));
        assert!(same("", "\n\n \t"));
        assert!(!same("1 2 3", "1 2"));
        assert!(!same("1 2", "1 2 3"));
        assert!(!same("3", "3 or 4"));
        assert!(!same("YES", "yes"));
        assert!(!same("7", "007"));
        assert!(!same("3", "3.0"));
        assert!(!same("0", "-0"));
        assert!(!same("", "0"));
        assert!(!same("0", ""));
    }

    #[test]
    fn floats_within_tolerance() {
        assert!(same("0.3333333333", "0.333333"));
        assert!(same("0.5", "0.5000001"));
        assert!(same("2.0", "2"));
        assert!(same("1e-3", "0.001"));
        assert!(same("123456789.0", "123456789.1"));
        assert!(!same("0.5", "0.502"));
        assert!(!same("0.5", "0.5x"));
        assert!(!same("0.5", "nan"));
        assert!(!same("1.5", "inf"));
        assert!(!same("2.5", "0x1.4p1"));
        assert!(!same("1000000.0", "1000002"));
        let exact = OutputComparison {
            float_tolerance: 0.0,
        };
        assert!(compare_stdout("0.5", "0.5000001", &exact).is_err());
    }

    #[test]
    fn mismatch_names_the_first_difference() {
        let cmp = OutputComparison::default();
        assert_eq!(
            compare_stdout("1 2\n3 4\n", "1 2\n3 5\n", &cmp),
            Err(Mismatch::Token {
                index: 3,
                line: 2,
                expected: "4".into(),
                got: "5".into()
            })
        );
        assert_eq!(
            compare_stdout("1 2 3", "1", &cmp),
            Err(Mismatch::TooShort {
                expected_tokens: 3,
                got_tokens: 1
            })
        );
        assert_eq!(
            compare_stdout("1", "1 PASSED", &cmp),
            Err(Mismatch::TooLong {
                expected_tokens: 1,
                extra: "PASSED".into()
            })
        );
        let long = "x".repeat(500);
        let Err(Mismatch::Token { got, .. }) = compare_stdout("y", &long, &cmp) else {
            panic!()
        };
        assert!(got.chars().count() <= EXCERPT_CHARS + 1);
    }

    proptest! {
        #[test]
        fn reflexive_and_whitespace_blind(words in prop::collection::vec("[a-z0-9.+-]{1,6}", 0..12),
                                         seps in prop::collection::vec("[ \t\r\n]{1,3}", 12)) {
            let canonical = words.join(" ");
            let mut spaced = String::new();
            for (w, s) in words.iter().zip(&seps) {
                spaced.push_str(s);
                spaced.push_str(w);
            }
            spaced.push_str("\n\n");
            prop_assert!(same(&canonical, &spaced));
            prop_assert!(same(&spaced, &canonical));
        }

        #[test]
        fn changing_one_token_is_caught(words in prop::collection::vec("[a-z]{1,6}", 1..12),
                                        at in any::<prop::sample::Index>()) {
            let mut changed = words.clone();
            let i = at.index(words.len());
            changed[i].push('z');
            prop_assert!(!same(&words.join(" "), &changed.join(" ")));
            let mut dropped = words.clone();
            dropped.remove(i);
            prop_assert!(!same(&words.join(" "), &dropped.join(" ")));
        }
    }
}
