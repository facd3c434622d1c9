//! Values that need care: repeating decimals, counting variables, tiny but decidable
//! values, all reals, `±` inside a value, derivative names.

use crate::check;

#[test]
fn repeating_decimals() {
    check(&[
        ("$\\frac{1}{3}$", "\\boxed{0.\\overline{3}}", true),
        ("$\\frac{1}{7}$", "\\boxed{0.\\overline{142857}}", true),
        ("$\\frac{37}{30}$", "\\boxed{1.2\\overline{3}}", true),
        ("$\\frac{1}{3}$", "\\boxed{0.\\overline{33}}", true),
        ("$\\frac{1}{3}$", "\\boxed{0.\\overline{4}}", false),
    ]);
}

#[test]
fn counting_variables() {
    check(&[
        ("$\\binom{n}{2}$", "\\boxed{\\frac{n(n-1)}{2}}", true),
        ("$\\binom{n}{2}$", "\\boxed{\\frac{n(n+1)}{2}}", false),
        ("$\\frac{n(n+1)}{2}$", "\\boxed{\\sum_{k=1}^{n} k}", true),
        ("$\\frac{n(n+1)}{2}$", "\\boxed{\\sum_{k=1}^{n} k^2}", false),
        ("$(n+1)!$", "\\boxed{(n+1) \\cdot n!}", true),
        ("$(n+1)!$", "\\boxed{n \\cdot n!}", false),
        ("$2^n$", "\\boxed{\\sum_{k=0}^{n} \\binom{n}{k}}", true),
    ]);
}

#[test]
fn small_but_decidable_values() {
    check(&[
        ("$e^{-50}$", "\\boxed{\\frac{1}{e^{50}}}", true),
        ("$e^{-50}$", "\\boxed{\\frac{1}{e^{49}}}", false),
        ("$\\ln(1 + 10^{-20})$", "\\boxed{\\ln(1 + 10^{-20})}", true),
        ("$\\sin(10^{-30})$", "\\boxed{10^{-30}}", false),
        (
            "$\\sqrt{2} \\cdot 10^{-30}$",
            "\\boxed{\\frac{\\sqrt{8}}{2 \\cdot 10^{30}}}",
            true,
        ),
        ("$0$", "\\boxed{e^{-1000}}", false),
    ]);
}

#[test]
fn all_reals() {
    check(&[
        ("$(-\\infty, \\infty)$", "\\boxed{\\mathbb{R}}", true),
        ("$(-\\infty, \\infty)$", "$x \\in \\mathbb{R}$", true),
        ("$(0, \\infty)$", "\\boxed{\\mathbb{R}}", false),
    ]);
}

/// A `±` inside a value stands for both values: `\frac{3 \pm \sqrt{65}}{4}` is the set of
/// the two roots, compared as a set (one root alone, a wrong root, or extra values fail).
#[test]
fn plus_minus_inside_a_value() {
    let gold = "$\\left\\{\\frac{3+\\sqrt{65}}{4}, \\frac{3-\\sqrt{65}}{4}\\right\\}$";
    let roots = "$\\frac{3+\\sqrt{65}}{4}, \\frac{3-\\sqrt{65}}{4}$";
    check(&[
        // Right, in several spellings.
        (gold, "\\boxed{\\frac{3 \\pm \\sqrt{65}}{4}}", true),
        (gold, "\\boxed{x = \\frac{3 \\pm \\sqrt{65}}{4}}", true),
        (
            gold,
            "\\boxed{\\frac{3}{4} \\pm \\frac{\\sqrt{65}}{4}}",
            true,
        ),
        (gold, "\\boxed{\\frac{3 \\mp \\sqrt{65}}{4}}", true),
        (roots, "\\boxed{\\dfrac{3 \\pm \\sqrt{65}}{4}}", true),
        (
            gold,
            "The roots are $x = \\frac{3 \\pm \\sqrt{65}}{4}$, so \\boxed{\\frac{3 \\pm \\sqrt{65}}{4}}.",
            true,
        ),
        (
            "$1+\\sqrt{2}, 1-\\sqrt{2}$",
            "\\boxed{x = 1 \\pm \\sqrt 2}",
            true,
        ),
        ("$1+\\sqrt{2}, 1-\\sqrt{2}$", "$x = 1 \\pm \\sqrt{2}$", true),
        (
            "$\\{1-\\sqrt{2}, 1+\\sqrt{2}\\}$",
            "\\boxed{1 \\pm \\sqrt{2}}",
            true,
        ),
        (
            "$x = 1 \\pm \\sqrt{2}$",
            "\\boxed{1+\\sqrt{2}, 1-\\sqrt{2}}",
            true,
        ),
        // Wrong: one root, wrong roots, the other sign of the radical, a constant.
        (gold, "\\boxed{\\frac{3 + \\sqrt{65}}{4}}", false),
        (gold, "\\boxed{\\frac{3 \\pm \\sqrt{63}}{4}}", false),
        (gold, "\\boxed{\\frac{-3 \\pm \\sqrt{65}}{4}}", false),
        (gold, "\\boxed{\\frac{3 \\pm \\sqrt{65}}{2}}", false),
        (gold, "\\boxed{3 \\pm \\sqrt{65}}", false),
        (gold, "\\boxed{0}", false),
        (
            "$1+\\sqrt{2}, 1-\\sqrt{2}$",
            "\\boxed{x = 1 \\pm \\sqrt 3}",
            false,
        ),
        (
            "$1+\\sqrt{2}, 1-\\sqrt{2}$",
            "\\boxed{x = 1 + \\sqrt 2}",
            false,
        ),
        ("$1+\\sqrt{2}$", "\\boxed{1 \\pm \\sqrt 2}", false),
        // Hedged: both roots plus more values, or two ± answers at once.
        (
            gold,
            "\\boxed{\\frac{3 \\pm \\sqrt{65}}{4}, \\frac{-3 \\pm \\sqrt{65}}{4}}",
            false,
        ),
        (gold, "\\boxed{\\frac{3 \\pm \\sqrt{65}}{4} \\pm 1}", false),
        (gold, "\\boxed{\\frac{3 \\pm \\sqrt{65}}{4}, 0}", false),
        // Padded with text around the box: still the answer.
        (
            gold,
            "After the quadratic formula we get \\boxed{\\frac{3 \\pm \\sqrt{65}}{4}} as the two solutions.",
            true,
        ),
        // Empty and echoed-question answers.
        (gold, "", false),
        (gold, "\\boxed{2x^2 - 3x - 7 = 0}", false),
    ]);
}

/// `f'(x) = …`, `y' = …` and `\frac{d}{dx}(…) = …` name what they state, like `x = …`:
/// the right-hand side is compared.
#[test]
fn derivative_prefixes_are_stripped() {
    let gold = "$3x^2 + 2$";
    check(&[
        // Right.
        (gold, "\\boxed{f'(x) = 3x^2 + 2}", true),
        (gold, "\\boxed{f^{\\prime}(x) = 3x^{2} + 2}", true),
        (gold, "\\boxed{f^\\prime(x) = 2 + 3x^2}", true),
        (gold, "\\boxed{y' = 3x^2 + 2}", true),
        (gold, "\\boxed{g'(x)=3 x^2+2}", true),
        (gold, "\\boxed{\\frac{d}{dx}(x^3 + 2x) = 3x^2 + 2}", true),
        (
            gold,
            "\\boxed{\\frac{d}{dx}\\left(x^3 + 2x\\right) = 3x^2 + 2}",
            true,
        ),
        (gold, "\\boxed{\\dfrac{dy}{dx} = 3x^2 + 2}", true),
        (gold, "So $f'(x) = 3x^2 + 2$.", true),
        ("$f'(x) = 3x^2 + 2$", "\\boxed{3x^2 + 2}", true),
        ("$f'(x) = 3x^2 + 2$", "\\boxed{f'(x) = 2 + 3x^2}", true),
        // Left sides still count by default (`strict`), as for `x = 3` against `y = 3`.
        ("$f'(x) = 3x^2 + 2$", "\\boxed{y' = 2 + 3x^2}", false),
        ("$6x$", "\\boxed{f''(x) = 6x}", true),
        // Wrong: another derivative, the function itself, the prefix alone.
        (gold, "\\boxed{f'(x) = 3x^2}", false),
        (gold, "\\boxed{f'(x) = 3x^2 + 2x}", false),
        (gold, "\\boxed{f(x) = x^3 + 2x}", false),
        (gold, "\\boxed{\\frac{d}{dx}(x^3 + 2x) = x^3 + 2x}", false),
        (gold, "\\boxed{f'(x)}", false),
        (gold, "\\boxed{y'}", false),
        // Hedged: two candidate derivatives.
        (
            gold,
            "\\boxed{f'(x) = 3x^2 + 2 \\text{ or } f'(x) = 3x^2}",
            false,
        ),
        (gold, "\\boxed{3x^2 + 2, 3x^2}", false),
        // Padded: text and a restated question around the boxed answer.
        (
            gold,
            "Differentiating $f(x) = x^3 + 2x$ term by term gives \\boxed{f'(x) = 3x^2 + 2}.",
            true,
        ),
        // The derivative sign does not turn an equation without a name into a value.
        (gold, "\\boxed{2 = 3x^2 + 2}", false),
    ]);
}
