//! Commas between digits: a list separator, or a thousands separator in groups of
//! exactly three digits; never a decimal point unless `decimal_comma` asks. Pairs,
//! intervals (open, closed, half-open), sets and lists parse and differ by kind; inside
//! brackets a space after a comma never changes a verdict. Outside brackets it does: a
//! grouping comma has no space after it, so `12,345` is one number (or the list 12, 345)
//! and `12, 345` is a list.

use crate::{cases, check, check_with, eq};
use proptest::prelude::*;
use verigym_verifiers::math::{MathConfig, verify};

#[test]
fn pairs_intervals_and_sets_written_without_spaces() {
    check(&[
        ("(3,4)", "[3,4]", false),
        ("(3,4)", "3.4", false),
        ("$(3,4)$", "\\boxed{3.4}", false),
        ("3.4", "(3,4)", false),
        ("(1,2)", "(1, 2)", true),
        ("$(1,2)$", "The pair is (1, 2).", true),
        ("[1,3)", "[1, 3)", true),
        ("[1,3)", "$[1,3)$", true),
        ("[1,3)", "(1,3]", false),
        ("[1,3)", "[1,3]", false),
        ("[1,3)", "(1,3)", false),
        ("\\{3,4\\}", "\\{4,3\\}", true),
        ("\\{3,4\\}", "\\{3,5\\}", false),
        ("$\\{3,4\\}$", "\\boxed{\\{4, 3\\}}", true),
        ("(3,4)", "\\{3,4\\}", false),
        ("3, 4", "4,3", true),
    ]);
}

#[test]
fn thousands_separators() {
    check(&[
        ("$12345$", "\\boxed{12{,}345}", true),
        ("$12345$", "\\boxed{12\\,345}", true),
        ("$12345$", "\\boxed{12\\;345}", true),
        ("$12345$", "\\boxed{12\u{2009}345}", true),
        ("$12345$", "\\boxed{12\u{202F}345}", true),
        ("$12345$", "\\boxed{12,345}", true),
        ("$1234567$", "\\boxed{1,234,567}", true),
        ("$1234567$", "The answer is 1,234,567.", true),
        ("$12345$", "\\boxed{12{,}345}", true),
        ("$1234$", "\\boxed{12,34}", false),
        ("$10000$", "\\boxed{1,0000}", false),
        ("$345$", "\\boxed{12{,}345}", false),
        ("$345$", "\\boxed{12,345}", false),
        ("$12$", "\\boxed{12\\,345}", false),
        ("$12.5$", "\\boxed{12{,}5}", false),
        ("$0.125$", "\\boxed{0,125}", false),
    ]);
}

#[test]
fn a_space_after_a_comma_separates_bare_items() {
    check(&[
        ("$32349$", "32, 349", false),
        ("$32349$", "\\boxed{32, 349}", false),
        ("$32349$", "\\boxed{32,349}", true),
        ("32, 349", "\\boxed{349, 32}", true),
        ("$1234567$", "1, 234, 567", false),
    ]);
}

#[test]
fn decimal_commas_only_when_asked() {
    let cfg = MathConfig {
        decimal_comma: true,
        ..MathConfig::default()
    };
    let cases: &[(&str, &str, bool)] = &[
        ("$2.74$", "2,74", true),
        ("$12.5$", "\\boxed{12{,}5}", true),
        ("$0.125$", "\\boxed{0,125}", true),
        ("$12345$", "\\boxed{12{,}345}", true),
    ];
    check_with(cases, &cfg);
    for (g, p, _) in cases.iter().take(3) {
        assert!(!eq(g, p), "{g} vs {p} without decimal_comma");
    }
}

/// One item of a comma-separated answer: an integer (often of three digits, so that
/// digit grouping is in play), a decimal or a fraction.
fn item() -> impl Strategy<Value = String> {
    prop_oneof![
        (-20i64..=20).prop_map(|n| n.to_string()),
        (100i64..=999).prop_map(|n| n.to_string()),
        (0i64..=9, 1i64..=99).prop_map(|(a, b)| format!("{a}.{b}")),
        (1i64..=9, 2i64..=9).prop_map(|(a, b)| format!("\\frac{{{a}}}{{{b}}}")),
    ]
}

/// An answer whose commas separate items inside brackets: a pair, an interval of any
/// closedness or a set, boxed or in `$…$` or bare. (Outside brackets a space does
/// matter: `12,345` is a digit-grouped number, `12, 345` a list of two; see
/// `a_space_after_a_comma_separates_bare_items`.)
fn answer() -> impl Strategy<Value = String> {
    let items = prop::collection::vec(item(), 2..5);
    let body = (items, 0usize..4).prop_map(|(xs, shape)| match shape {
        0 => format!("({})", xs.join(",")),
        1 => format!("[{},{}]", xs[0], xs[1]),
        2 => format!("[{},{})", xs[0], xs[1]),
        _ => format!("\\{{{}\\}}", xs.join(",")),
    });
    (body, 0usize..3).prop_map(|(b, wrap)| match wrap {
        0 => format!("\\boxed{{{b}}}"),
        1 => format!("${b}$"),
        _ => b,
    })
}

/// `s` with one space after every comma (`spaced`) or none.
fn respace(s: &str, spaced: bool) -> String {
    let tight = s.replace(", ", ",");
    if spaced {
        tight.replace(',', ", ")
    } else {
        tight
    }
}

/// A prediction related to the gold: the same, with items swapped, with brackets
/// changed, or another answer altogether.
fn related(gold: &str, other: &str, how: usize) -> String {
    match how {
        0 => gold.to_string(),
        1 => gold.replace('(', "[").replace(')', "]"),
        2 => gold.replacen('[', "(", 1),
        3 => {
            let parts: Vec<&str> = gold.split(',').collect();
            let mut parts = parts.clone();
            parts.reverse();
            parts.join(",")
        }
        _ => other.to_string(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Inserting or removing spaces after commas never changes a verdict, on either side.
    #[test]
    fn spaces_after_commas_never_change_a_verdict(
        gold in answer(),
        other in answer(),
        how in 0usize..5,
        g_spaced: bool,
        p_spaced: bool,
    ) {
        let cfg = MathConfig::default();
        let pred = related(&gold, &other, how);
        let base = verify(&gold, &pred, &cfg).equivalent;
        let spaced = verify(&respace(&gold, g_spaced), &respace(&pred, p_spaced), &cfg).equivalent;
        assert_eq!(base, spaced, "{} vs {}", gold, pred);
        if how == 0 {
            assert!(base, "an answer equals itself: {}", gold);
        }
    }

    /// For `a < b`: the pair or open interval `(a,b)`, the closed and half-open intervals,
    /// the set `\{a,b\}` and the decimal `a.b` are five different answers.
    #[test]
    fn brackets_and_commas_tell_kinds_apart(a in 0i64..50, gap in 1i64..50, spaced: bool) {
        let b = a + gap;
        let sep = if spaced { ", " } else { "," };
        let forms = [
            format!("({a}{sep}{b})"),
            format!("[{a}{sep}{b}]"),
            format!("[{a}{sep}{b})"),
            format!("({a}{sep}{b}]"),
            format!("\\{{{a}{sep}{b}\\}}"),
            format!("{a}.{b}"),
        ];
        for (i, g) in forms.iter().enumerate() {
            for (j, p) in forms.iter().enumerate() {
                assert_eq!(eq(g, p), i == j, "{} vs {}", g, p);
            }
        }
        assert!(eq(&format!("\\{{{a}{sep}{b}\\}}"), &format!("\\{{{b},{a}\\}}")));
    }
}
