//! The numeric policy (exact by default, tolerance opt-in), the percent rule (the same
//! on either side), negative mixed numbers, and numbers written inside `\text{}`.

use crate::{cases, check, eq};
use proptest::prelude::*;
use verigym_verifiers::math::{MathConfig, verify};

fn rounding(places: u32) -> MathConfig {
    MathConfig {
        float_rounding: Some(places),
        ..MathConfig::default()
    }
}

/// `p/q` written with `places` decimals, truncated.
fn truncated(p: i64, q: i64, places: u32) -> String {
    let scale = 10i128.pow(places);
    let digits = (i128::from(p) * scale) / i128::from(q);
    let int = digits / scale;
    let frac = digits % scale;
    format!("{int}.{frac:0width$}", width = places as usize)
}

/// Decimal places of `p/q` when it terminates.
fn places_needed(p: i64, q: i64) -> Option<u32> {
    let (mut a, mut b) = (p, q);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    let mut den = q / a;
    let (mut twos, mut fives) = (0, 0);
    while den % 2 == 0 {
        den /= 2;
        twos += 1;
    }
    while den % 5 == 0 {
        den /= 5;
        fives += 1;
    }
    (den == 1).then_some(twos.max(fives))
}

#[test]
fn decimals_are_exact_by_default() {
    check(&[
        ("$\\frac{1}{3}$", "\\boxed{0.3333333333}", false),
        ("$100$", "\\boxed{100.00000001}", false),
        ("$100.00000001$", "\\boxed{100}", false),
        ("$\\sqrt{2}$", "\\boxed{1.41421356}", false),
        ("$\\pi$", "\\boxed{3.14159265358979}", false),
        ("$\\frac{1}{2}$", "\\boxed{0.5}", true),
        ("$\\frac{3}{8}$", "\\boxed{0.375}", true),
        ("$0.375$", "\\boxed{\\frac{3}{8}}", true),
        ("$2.50$", "\\boxed{2.5}", true),
    ]);
    let cfg = rounding(6);
    assert!(verify("$\\frac{1}{3}$", "\\boxed{0.3333333333}", &cfg).equivalent);
    assert!(verify("$100$", "\\boxed{100.00000001}", &cfg).equivalent);
    assert!(!verify("$\\frac{1}{3}$", "\\boxed{0.33}", &cfg).equivalent);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// A decimal equals a fraction only when it is exactly that value: a truncation of a
    /// repeating decimal never does, however many places; the exact decimal of a
    /// terminating fraction always does. With an opt-in rounding to `k` places, any
    /// decimal correct to more places passes.
    #[test]
    fn a_decimal_equals_a_fraction_only_when_exact(
        p in 1i64..200,
        q in prop::sample::select(vec![3i64, 7, 9, 11, 12, 13, 15, 21]),
        places in 1u32..15,
    ) {
        prop_assume!(p % q != 0);
        let gold = format!("$\\frac{{{p}}}{{{q}}}$");
        let decimal = truncated(p, q, places);
        let exact = places >= places_needed(p, q).unwrap_or(u32::MAX);
        assert_eq!(eq(&gold, &format!("\\boxed{{{decimal}}}")), exact, "{}", decimal);
        assert_eq!(eq(&format!("${decimal}$"), &format!("\\boxed{{\\frac{{{p}}}{{{q}}}}}")), exact);
        let tol = verify(&gold, &format!("\\boxed{{{}}}", truncated(p, q, 12)), &rounding(6));
        assert!(tol.equivalent, "{:?}", tol);
    }

    /// `n` and `n + 10^-k` differ for every k: no decimal is "close enough" by default.
    #[test]
    fn near_misses_differ(n in 1i64..100_000, k in 1usize..12) {
        let near = format!("{n}.{}1", "0".repeat(k - 1));
        assert!(!eq(&format!("${n}$"), &format!("\\boxed{{{near}}}")));
        assert!(!eq(&format!("${near}$"), &format!("\\boxed{{{n}}}")));
    }

    /// A percentage on one side only gives the same verdict whichever side it is on:
    /// LaTeX `n\%` equals `n` and `n/100`; a plain-text `n%` equals `n/100` only.
    #[test]
    fn the_percent_rule_is_symmetric(n in 1i64..300) {
        let latex_pct = format!("${n}\\%$");
        let plain_pct = format!("{n}%");
        let bare = format!("${n}$");
        let fraction = format!("$\\frac{{{n}}}{{100}}$");
        for (a, b, want) in [
            (&latex_pct, &bare, true),
            (&latex_pct, &fraction, true),
            (&plain_pct, &bare, false),
            (&plain_pct, &fraction, true),
            (&latex_pct, &plain_pct, true),
        ] {
            assert_eq!(eq(a, b), want, "{} vs {}", a, b);
            assert_eq!(eq(b, a), want, "{} vs {}", b, a);
        }
        assert!(!eq(&latex_pct, &format!("${}$", n + 1)));
    }

    /// `-W\frac{N}{D}` is the negative mixed number `-(W + N/D)`, like `W\frac{N}{D}` is
    /// `W + N/D`; never `-W·N/D`.
    #[test]
    fn negative_mixed_numbers(w in 1i64..50, n in 1i64..11, extra in 1i64..11) {
        let d = n + extra;
        let mixed = format!("\\boxed{{-{w}\\frac{{{n}}}{{{d}}}}}");
        let value = format!("$-\\frac{{{}}}{{{d}}}$", w * d + n);
        let product = format!("$-\\frac{{{}}}{{{d}}}$", w * n);
        assert!(eq(&value, &mixed), "{}", mixed);
        assert!(!eq(&product, &mixed), "{}", mixed);
        assert!(eq(&format!("${w}\\frac{{{n}}}{{{d}}}$"), &format!("\\boxed{{\\frac{{{}}}{{{d}}}}}", w * d + n)));
    }

    /// A number inside `\text{}` is that number, with or without a unit word after it;
    /// a second number or an alternative in the text is not a single value.
    #[test]
    fn numbers_inside_text(
        n in 1i64..10_000,
        unit in prop::sample::select(vec!["apples", "cm", "dollars", "students", "ways"]),
    ) {
        let gold = format!("${n}$");
        assert!(eq(&gold, &format!("\\boxed{{\\text{{{n}}}}}")));
        assert!(eq(&format!("$\\text{{{n}}}$"), &format!("\\boxed{{{n}}}")));
        assert!(eq(&gold, &format!("\\boxed{{\\text{{{n} {unit}}}}}")));
        assert!(eq(&gold, &format!("\\boxed{{{n} \\text{{ {unit}}}}}")));
        assert!(!eq(&gold, &format!("\\boxed{{\\text{{{} {unit}}}}}", n + 1)));
        assert!(!eq(&gold, &format!("\\boxed{{\\text{{{n} or {} {unit}}}}}", n + 1)));
        assert!(!eq(&gold, &format!("\\boxed{{\\text{{{n} {unit} and {} more}}}}", n + 1)));
    }
}

#[test]
fn words_inside_text_stay_words() {
    check(&[
        ("$\\text{Evelyn}$", "\\boxed{\\text{Evelyn}}", true),
        ("$\\text{(B)}$", "\\boxed{\\text{(B)}}", true),
        ("$5$", "\\boxed{\\text{five}}", false),
        ("$\\text{odd}$", "\\boxed{\\text{even}}", false),
    ]);
}
