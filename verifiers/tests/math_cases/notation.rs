//! Notations that must be read, not dropped: complex values, solution sets of
//! inequalities and absolute values, set differences, vectors, nested boxes, and the
//! order of bare lists.

use crate::{cases, check, eq};
use proptest::prelude::*;
use verigym_verifiers::math::{MathConfig, verify};

#[test]
fn complex_values_are_evaluated() {
    check(&[
        ("$-1$", "\\boxed{e^{i\\pi}}", true),
        ("$1$", "\\boxed{e^{i\\pi}}", false),
        ("$i$", "\\boxed{e^{i\\pi/2}}", true),
        ("$-1$", "\\boxed{e^{\\pi i}}", true),
        (
            "$\\frac{\\sqrt{2}}{2}+\\frac{\\sqrt{2}}{2}i$",
            "\\boxed{e^{i\\pi/4}}",
            true,
        ),
        ("$5$", "\\boxed{|3+4i|}", true),
        ("$5$", "\\boxed{|3-4i|}", true),
        ("$7$", "\\boxed{|3+4i|}", false),
        ("$2i$", "\\boxed{\\sqrt{-4}}", true),
        ("$0$", "\\boxed{e^{i\\pi}+1}", true),
    ]);
}

#[test]
fn sets_of_reals_however_written() {
    check(&[
        (
            "$(-\\infty,-2)\\cup(2,\\infty)$",
            "\\boxed{x < -2 \\text{ or } x > 2}",
            true,
        ),
        ("$(-\\infty,-2)\\cup(2,\\infty)$", "\\boxed{|x| > 2}", true),
        ("$(-\\infty,-2]\\cup[2,\\infty)$", "\\boxed{|x| > 2}", false),
        ("$|x| > 2$", "\\boxed{x < -2 \\text{ or } x > 2}", true),
        ("$(-2,2)$", "\\boxed{|x|<2}", true),
        ("$-2<x<2$", "\\boxed{|x|<2}", true),
        ("$[-2,2]$", "\\boxed{|x|<2}", false),
        ("$(1,5)$", "\\boxed{|x-3|<2}", true),
        ("$(1,5)$", "\\boxed{|2x-6|<4}", true),
        ("$(1,5)$", "\\boxed{|x+3|<2}", false),
        (
            "$(-\\infty,-1)\\cup(-1,\\infty)$",
            "\\boxed{\\mathbb{R}\\setminus\\{-1\\}}",
            true,
        ),
        (
            "$x \\neq -1$",
            "\\boxed{\\mathbb{R}\\setminus\\{-1\\}}",
            true,
        ),
        (
            "$\\mathbb{R}\\setminus\\{1\\}$",
            "\\boxed{\\mathbb{R}\\setminus\\{-1\\}}",
            false,
        ),
        (
            "$(-\\infty,\\infty)$",
            "\\boxed{\\mathbb{R}\\setminus\\{-1\\}}",
            false,
        ),
        ("$(-\\infty,0)\\cup(0,\\infty)$", "\\boxed{x \\neq 0}", true),
        (
            "$x<-2 \\text{ or } x>2$",
            "\\boxed{x>2 \\text{ or } x<-2}",
            true,
        ),
        (
            "$x<-2 \\text{ or } x>2$",
            "\\boxed{x>2 \\text{ or } x<-3}",
            false,
        ),
        (
            "$x<-2 \\text{ or } x>2$",
            "\\boxed{y<-2 \\text{ or } y>2}",
            false,
        ),
        (
            "$(-\\infty, 3]$",
            "\\boxed{(-\\infty, 1] \\cup [1, 3]}",
            true,
        ),
        ("$x = 1 \\text{ or } x = 2$", "\\boxed{1, 2}", true),
        // "or" between separately written conditions is still a union.
        (
            "$(-\\infty,1)\\cup(2,\\infty)$",
            "The solution is $x < 1$ or $x > 2$.",
            true,
        ),
        (
            "$(-\\infty,1)\\cup(2,\\infty)$",
            "\\boxed{x < 1} or \\boxed{x > 2}",
            true,
        ),
        (
            "$(-\\infty,1)$",
            "The solution is $x < 1$ or $x > 2$.",
            false,
        ),
        ("$\\{1, 2\\}$", "\\boxed{1} or \\boxed{2}", true),
        ("$1$", "\\boxed{1} or \\boxed{2}", false),
        // Math-Verify's rule stays: a gold `x \in S` against an inequality needs
        // `allow_set_relation_comp`.
        ("$x \\in (-2, 2)$", "\\boxed{|x| < 2}", false),
    ]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// `|x - c| < r`, `c - r < x < c + r` and `(c - r, c + r)` are one set; with `\ge`
    /// the complement's closure, also as "or"-joined rays and as a union. Changing the
    /// closedness or the centre changes the set.
    #[test]
    fn absolute_value_conditions_are_intervals(c in -20i64..20, r in 1i64..15) {
        let (lo, hi) = (c - r, c + r);
        let inside = [
            format!("|x - ({c})| < {r}"),
            format!("{lo} < x < {hi}"),
            format!("({lo}, {hi})"),
        ];
        for a in &inside {
            for b in &inside {
                assert!(eq(&format!("${a}$"), &format!("\\boxed{{{b}}}")), "{} vs {}", a, b);
            }
        }
        let outside = [
            format!("|x - ({c})| \\ge {r}"),
            format!("x \\le {lo} \\text{{ or }} x \\ge {hi}"),
            format!("(-\\infty, {lo}] \\cup [{hi}, \\infty)"),
        ];
        for a in &outside {
            for b in &outside {
                assert!(eq(&format!("${a}$"), &format!("\\boxed{{{b}}}")), "{} vs {}", a, b);
            }
            assert!(!eq(&format!("${a}$"), &format!("\\boxed{{{}}}", inside[2])));
        }
        let gold = format!("${}$", inside[0]);
        assert!(!eq(&gold, &format!("\\boxed{{[{lo}, {hi}]}}")));
        assert!(!eq(&gold, &format!("\\boxed{{|x - ({})| < {r}}}", c + 1)));
        assert!(!eq(&gold, &format!("\\boxed{{(-\\infty, {lo}) \\cup ({hi}, \\infty)}}")));
    }

    /// `\mathbb{R} \setminus \{a\}` is `x \ne a` and `(-\infty, a) \cup (a, \infty)`.
    #[test]
    fn all_reals_but_a_point(a in -50i64..50) {
        let forms = [
            format!("\\mathbb{{R}} \\setminus \\{{{a}\\}}"),
            format!("x \\neq {a}"),
            format!("(-\\infty, {a}) \\cup ({a}, \\infty)"),
        ];
        for g in &forms {
            for p in &forms {
                assert!(eq(&format!("${g}$"), &format!("\\boxed{{{p}}}")), "{} vs {}", g, p);
            }
            assert!(!eq(&format!("${g}$"), &format!("\\boxed{{x \\neq {}}}", a + 1)));
            assert!(!eq(&format!("${g}$"), "\\boxed{\\mathbb{R}}"));
        }
    }

    /// `\langle a, b, c \rangle` is the ordered triple `(a, b, c)` and the column vector.
    #[test]
    fn angle_bracket_vectors(a in -9i64..9, b in -9i64..9, c in -9i64..9) {
        let vector = format!("\\boxed{{\\langle {a}, {b}, {c} \\rangle}}");
        assert!(eq(&format!("$({a}, {b}, {c})$"), &vector));
        assert!(eq(&format!("$\\begin{{pmatrix}} {a} \\\\ {b} \\\\ {c} \\end{{pmatrix}}$"), &vector));
        if a != b {
            assert!(!eq(&format!("$({b}, {a}, {c})$"), &vector));
        }
    }

    /// The absolute value of a complex number is its modulus.
    #[test]
    fn complex_modulus(a in -30i64..30, b in 1i64..30) {
        let pred = format!("\\boxed{{|{a} + {b}i|}}");
        let n = a * a + b * b;
        assert!(eq(&format!("$\\sqrt{{{n}}}$"), &pred), "{}", pred);
        assert!(!eq(&format!("$\\sqrt{{{}}}$", n + 1), &pred), "{}", pred);
    }
}

#[test]
fn nested_boxes_and_list_order() {
    check(&[
        ("$5$", "\\boxed{\\boxed{5}}", true),
        ("$5$", "\\boxed{\\fbox{5}}", true),
        ("$6$", "\\boxed{\\boxed{5}}", false),
        ("$1, 2, 3$", "\\boxed{3, 1, 2}", true),
        ("$(1, 2, 3)$", "\\boxed{(3, 1, 2)}", false),
    ]);
    let ordered = MathConfig {
        ordered_lists: true,
        ..MathConfig::default()
    };
    assert!(!verify("$1, 2, 3$", "\\boxed{3, 1, 2}", &ordered).equivalent);
    assert!(verify("$1, 2, 3$", "\\boxed{1, 2, 3}", &ordered).equivalent);
}
