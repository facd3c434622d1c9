//! Expressions in variables: rational functions by their canonical form, everything
//! else at sample points over the whole real line with the domain taken into account.
//! Pairs that agree only for positive arguments differ; true identities still hold.

use crate::{cases, check, eq};
use proptest::prelude::*;

#[test]
fn positive_only_identities_differ() {
    check(&[
        ("$x$", "\\boxed{|x|}", false),
        ("$|x|$", "\\boxed{x}", false),
        ("$x$", "\\boxed{\\sqrt{x^2}}", false),
        ("$\\ln(x^2)$", "\\boxed{2\\ln x}", false),
        ("$2\\ln x$", "\\boxed{\\ln(x^2)}", false),
        ("$x$", "\\boxed{(\\sqrt{x})^2}", false),
        ("$x$", "\\boxed{e^{\\ln x}}", false),
        ("$1$", "\\boxed{\\frac{|x|}{x}}", false),
        ("$xy$", "\\boxed{\\sqrt{x^2 y^2}}", false),
        ("$\\sqrt{x}\\sqrt{y}$", "\\boxed{\\sqrt{xy}}", false),
    ]);
}

#[test]
fn true_identities_still_hold() {
    check(&[
        ("$|x|$", "\\boxed{\\sqrt{x^2}}", true),
        ("$x^2$", "\\boxed{|x|^2}", true),
        ("$\\frac{x^2-1}{x-1}$", "\\boxed{x+1}", true),
        ("$\\frac{x^2}{x}$", "\\boxed{x}", true),
        (
            "$\\frac{1}{x}+\\frac{1}{y}$",
            "\\boxed{\\frac{x+y}{xy}}",
            true,
        ),
        ("$\\sin^2 x + \\cos^2 x$", "\\boxed{1}", true),
        ("$\\ln(2x)$", "\\boxed{\\ln 2 + \\ln x}", true),
        ("$\\sqrt{4x}$", "\\boxed{2\\sqrt{x}}", true),
        ("$e^{x+1}$", "\\boxed{e \\cdot e^x}", true),
        ("$x^{1/3}$", "\\boxed{\\sqrt[3]{x}}", true),
        ("$\\sqrt{1/n}$", "\\boxed{\\frac{1}{\\sqrt{n}}}", true),
        ("$(x+1)^{20}$", "\\boxed{(1+x)^{20}}", true),
    ]);
}

/// `(a, b)` pairs that are equal for every positive `x` but not for every real `x`:
/// the absolute value, even powers under roots, logarithms of powers, signs.
fn positive_only(c: i64, d: i64, k: u32) -> Vec<(String, String)> {
    let e = 2 * k;
    vec![
        (format!("{c}x + {d}"), format!("{c}|x| + {d}")),
        (format!("{c}x + {d}"), format!("{c}\\sqrt{{x^{{2}}}} + {d}")),
        (format!("x^{{{}}}", e + 1), format!("|x|^{{{}}}", e + 1)),
        (format!("\\ln(x^{{{e}}})"), format!("{e}\\ln x")),
        (
            format!("{c}\\ln(x^{{{e}}}) + {d}"),
            format!("{}\\ln(x) + {d}", c * i64::from(e)),
        ),
        (format!("\\sqrt{{x^{{{e}}}}}"), format!("x^{{{k}}}")),
        (format!("{c}"), format!("\\frac{{{c}|x|}}{{x}}")),
        (format!("{c}x"), format!("{c}(\\sqrt{{x}})^{{2}}")),
        (
            format!("\\frac{{{c}}}{{x}}"),
            format!("\\frac{{{c}}}{{\\sqrt{{x^2}}}}"),
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Every pair that differs only off the positive axis is "not equivalent", either
    /// way round; each side still equals itself.
    #[test]
    fn pairs_that_differ_only_off_the_positive_axis(
        c in prop_oneof![1i64..9, -9i64..-1],
        d in -9i64..9,
        k in 1u32..4,
    ) {
        for (a, b) in positive_only(c, d, k) {
            // `\sqrt{x^{2k}} = x^k` is an identity when k is even.
            if b.starts_with("x^") && k % 2 == 0 {
                continue;
            }
            let (ga, pb) = (format!("${a}$"), format!("\\boxed{{{b}}}"));
            let (gb, pa) = (format!("${b}$"), format!("\\boxed{{{a}}}"));
            assert!(!eq(&ga, &pb), "{} vs {}", a, b);
            assert!(!eq(&gb, &pa), "{} vs {}", b, a);
            assert!(eq(&ga, &pa), "{} vs itself", a);
            assert!(eq(&gb, &pb), "{} vs itself", b);
        }
    }

    /// Rational functions compare by canonical form, whatever the sample points: a
    /// product of linear factors over a common denominator equals its expansion and
    /// differs from it with any one coefficient changed.
    #[test]
    fn rational_functions_by_canonical_form(
        a in -9i64..9,
        b in 1i64..9,
        c in -9i64..9,
        delta in prop_oneof![-3i64..0, 1i64..4],
    ) {
        prop_assume!(a != c);
        let gold = format!("$\\frac{{(x - ({a}))(x - ({c}))}}{{{b}(x - ({c}))}}$");
        let right = format!("\\boxed{{\\frac{{x}}{{{b}}} - \\frac{{{a}}}{{{b}}}}}");
        let wrong = format!("\\boxed{{\\frac{{x}}{{{b}}} - \\frac{{{}}}{{{b}}}}}", a + delta);
        assert!(eq(&gold, &right), "{} vs {}", gold, right);
        assert!(!eq(&gold, &wrong), "{} vs {}", gold, wrong);
    }
}
