//! Typical answer pairs (MATH-style, GSM-style, adversarial), each with the verdict we
//! want: formats, phrasing, degrees, words, undelimited LaTeX, units, Unicode.

use crate::check;

#[test]
fn typical_answers() {
    let cases: &[(&str, &str, bool)] = &[
        ("$\\frac{\\sqrt{3}}{2}$", "$\\frac{1}{2}\\sqrt{3}$", true),
        ("$\\dfrac{3}{4}$", "0.75", true),
        ("$x^2+1$", "$1+x^2$", true),
        ("$\\frac{1}{\\sqrt{2}}$", "$\\frac{\\sqrt{2}}{2}$", true),
        ("$10\\%$", "$0.1$", true),
        ("$5$", "\\boxed{\\$5.00}", true),
        ("$5$", "\\boxed{5 \\text{ dollars}}", true),
        ("$\\text{(A)}$", "The answer is (A)", true),
        ("A", "The answer is A.", true),
        ("$\\textbf{(C)}$", "\\boxed{C}", true),
        ("$3\\sqrt{3}$", "$\\sqrt{27}$", true),
        ("$\\infty$", "$\\infty$", true),
        ("$-\\infty$", "$\\infty$", false),
        ("$\\emptyset$", "$\\{\\}$", true),
        ("$x \\in (0,1)$", "$(0,1)$", true),
        ("$\\frac{a}{b}$", "$a/b$", true),
        ("$\\cos^2 x + \\sin^2 x$", "$1$", true),
        ("$5!$", "$120$", true),
        ("$1.5\\times10^{3}$", "$1500$", true),
        ("$3.0 \\times 10^8$", "300000000", true),
        ("$\\frac{-1}{2}$", "$-\\frac12$", true),
        ("$[0,1]$", "$\\left[ 0, 1 \\right]$", true),
        ("$\\frac{1}{2}x$", "$x/2$", true),
        ("$45^\\circ$", "$45$", true),
        ("$\\frac{3}{2}$", "$1\\frac{1}{2}$", true),
        ("$\\frac{7}{3}$", "2\\frac{1}{3}", true),
        ("$x=2$", "$x=2$ or $x=3$", false),
        ("$2, 3$", "$x=2$ or $x=3$", true),
        ("$\\sqrt{2}$", "\\boxed{\\sqrt2}", true),
        ("$(3, -1)$", "\\boxed{(3,-1)}", true),
        ("$\\frac{\\pi}{3}$", "\\boxed{\\frac{\\pi}{3}}", true),
        ("$\\frac{\\pi}{3}$", "\\boxed{60^\\circ}", false),
        ("$y^4-2y^3+7y^2+y-5$", "\\boxed{y^4-2y^3+7y^2+y-5}", true),
        ("$\\$18.90$", "\\boxed{18.90}", true),
        (
            "$2\\sqrt{5}$",
            "The final answer is $2 \\sqrt{5}$. I hope it is correct.",
            true,
        ),
        ("$-2$", "\\boxed{-2}", true),
        ("$11\\sqrt2$", "\\boxed{11\\sqrt{2}}", true),
        ("$\\text{odd}$", "\\boxed{\\text{odd}}", true),
        ("$\\text{odd}$", "\\boxed{\\text{even}}", false),
        ("$6-5i$", "\\boxed{6 - 5i}", true),
        ("$i$", "\\boxed{i}", true),
        ("$0$", "\\boxed{\\sin(\\pi)}", true),
        ("$1$", "\\boxed{\\cos(2\\pi)}", true),
        ("$1,2,3$", "$\\boxed{1}, \\boxed{2}, \\boxed{3}$", true),
        ("$\\frac{1}{3}$", "0.333333", false),
        ("$\\frac{1}{3}$", "0.33", false),
        ("$100$", "\\boxed{100\\text{ cm}^2}", true),
        ("$2$", "\\boxed{2} \\text{ and the rest}", true),
    ];
    check(cases);
}
#[test]
fn precision_and_phrasing() {
    let cases: &[(&str, &str, bool)] = &[
        ("0.0000001", "1e-7", true),
        ("0.0000001", "1.0E-7", true),
        ("$2e-1$", "$2e-1$", true),
        ("$5$", "I think it's 5", true),
        ("$5$", "5 or 6", false),
        ("$12$", "The answer is: $12$", true),
        ("$\\frac{5}{2}$", "**Answer:** 5/2", true),
        ("$\\frac{5}{2}$", "Answer: \\frac{5}{2}", true),
        ("$x^2-4$", "\\boxed{(x-2)(x+2)}", true),
        ("$x^2-4$", "\\boxed{(x-2)^2}", false),
        ("$\\frac{x^2-1}{x-1}$", "\\boxed{x+1}", true),
        ("$a+b$", "\\boxed{b+a}", true),
        ("$a+b$", "\\boxed{a+c}", false),
        ("$\\ln 8$", "\\boxed{3\\ln 2}", true),
        ("$\\log_2 3$", "\\boxed{\\frac{\\ln 3}{\\ln 2}}", true),
        ("$e^2$", "\\boxed{\\exp(2)}", true),
        (
            "$2^{100}$",
            "\\boxed{1267650600228229401496703205376}",
            true,
        ),
        (
            "$2^{100}$",
            "\\boxed{1267650600228229401496703205377}",
            false,
        ),
        ("$\\sqrt{10^{20}+1}$", "\\boxed{10^{10}}", false),
        ("$\\pi + 10^{-20}$", "\\boxed{\\pi}", false),
        ("$(1,2),(3,4)$", "\\boxed{(3,4),(1,2)}", true),
        ("$\\{(1,2),(3,4)\\}$", "\\boxed{(3,4),(1,2)}", true),
        ("$(1, 2]$", "\\boxed{(1,2]}", true),
        ("$x\\in(1,2]$", "\\boxed{1 < x \\le 2}", false),
        ("$f(x) = 2x+1$", "\\boxed{2x+1}", true),
        ("$\\frac{1}{4}$", "The probability is $\\frac{1}{4}$.", true),
        (
            "$\\frac{1}{4}$",
            "The probability is $\\frac{1}{4}$, so the complement is $\\frac{3}{4}$.",
            false,
        ),
    ];
    check(cases);
}

#[test]
fn degrees() {
    check(&[
        ("$90^\\circ$", "\\boxed{90}", true),
        ("$90$", "\\boxed{90^{\\circ}}", true),
        ("$90$", "90°", true),
        ("$\\frac{\\sqrt{2}}{2}$", "\\boxed{\\sin 45^\\circ}", true),
        ("$\\frac{1}{2}$", "\\boxed{\\cos(60^\\circ)}", true),
        ("$\\frac{1}{2}$", "\\boxed{\\cos 60}", false),
        ("$\\frac{\\pi}{3}$", "\\boxed{60^\\circ}", false),
    ]);
}

#[test]
fn words_and_constant_equations() {
    check(&[
        ("$\\text{Evelyn}$", "Evelyn", true),
        ("$\\text{Evelyn}$", "The answer is Evelyn.", true),
        ("$\\text{Evelyn}$", "The answer is Briana.", false),
        ("$\\text{Yes}$", "yes", true),
        ("$5$", "Evelyn", false),
        ("$\\frac{3}{4}$", "The answer is 3/4 = 0.75", true),
        ("$\\frac{3}{4}$", "\\boxed{\\frac{3}{4} = 0.75}", true),
        ("$5$", "\\boxed{2+2 = 5}", false),
        ("$5$", "\\boxed{5 = 5}", true),
    ]);
}

#[test]
fn undelimited_latex() {
    let long = "We work through the algebra carefully. ".repeat(10);
    check(&[
        (
            "$\\frac{1}{2}$",
            &format!("{long} so we get x = \\frac{{1}}{{2}}"),
            true,
        ),
        (
            "$2$",
            &format!("{long} so we get x = \\frac{{1}}{{2}}"),
            false,
        ),
        ("$1$", &format!("{long} so we get \\frac{{1}}{{2}}"), false),
        (
            "$3\\sqrt{2}$",
            &format!("{long} Therefore the length is 3\\sqrt{{2}}."),
            true,
        ),
        (
            "$2$",
            &format!("{long} Therefore the length is 3\\sqrt{{2}}."),
            false,
        ),
    ]);
}

#[test]
fn complex_numbers() {
    check(&[
        ("$2i$", "\\boxed{(1+i)^2}", true),
        ("$6-5i$", "\\boxed{-5i+6}", true),
        ("$6-5i$", "\\boxed{6+5i}", false),
        ("$-1$", "\\boxed{i^2}", true),
        (
            "$\\frac{1}{2}-\\frac{1}{2}i$",
            "\\boxed{\\frac{1}{1+i}}",
            true,
        ),
        (
            "$\\frac{\\sqrt{3}}{2}+\\frac{1}{2}i$",
            "\\boxed{\\frac{1}{2}i+\\frac{\\sqrt3}{2}}",
            true,
        ),
        ("$x + iy$", "\\boxed{iy + x}", true),
        ("$\\sum_{i=1}^{3} i$", "\\boxed{6}", true),
    ]);
}

#[test]
fn units_and_currency() {
    check(&[
        ("$5$", "\\boxed{5\\mathrm{cm}}", true),
        ("$5$", "\\boxed{5 \\mathrm{~cm}}", true),
        ("$15$", "$15 cm$", true),
        ("$15$", "\\boxed{15 \\text{ cm}^2}", true),
        ("$12$", "\\boxed{12 m^2}", true),
        ("$1000$", "\\boxed{\\$1,000}", true),
        ("$1000$", "\\boxed{\\$1,001}", false),
        ("$5x$", "\\boxed{5 x}", true),
        ("$\\mathrm{e}$", "\\boxed{e}", true),
        ("$\\ln 2$", "\\boxed{\\operatorname{ln} 2}", true),
    ]);
}
#[test]
fn unicode_math() {
    check(&[
        ("$x^2+1$", "x² + 1", true),
        ("$\\sqrt{2}$", "The answer is √2", true),
        ("$2\\pi$", "2π", true),
        ("$6$", "2 × 3", true),
        ("$\\frac{1}{3}$", "x ≈ 0.3333", false),
        ("$8$", "2³", true),
    ]);
}
