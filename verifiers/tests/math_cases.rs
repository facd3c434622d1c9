//! A table of typical answer pairs (MATH-style, GSM-style, adversarial), each with the
//! verdict we want. `x \\in I` against `a < x <= b` is false by default (Math-Verify's
//! `allow_set_relation_comp` is off by default).

use verigym_verifiers::math::{MathConfig, verify};

fn check(cases: &[(&str, &str, bool)]) {
    let mut bad = Vec::new();
    for (g, p, want) in cases {
        let v = verify(g, p, &MathConfig::default());
        if v.equivalent != *want {
            bad.push(format!("{g:?} vs {p:?}: want {want} -> {v:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

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
        ("$\\frac{1}{3}$", "0.333333", true),
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

fn check_with(cases: &[(&str, &str, bool)], cfg: &MathConfig) {
    let mut bad = Vec::new();
    for (g, p, want) in cases {
        let v = verify(g, p, cfg);
        if v.equivalent != *want {
            bad.push(format!("{g:?} vs {p:?}: want {want} -> {v:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// Short cases adapted from Math-Verify's own test suite (MIT licence), beyond the dev
/// set, with the configuration their tests use.
#[test]
fn math_verify_suite_extras() {
    let targets = |latex, expr| verigym_verifiers::math::Targets { latex, expr };
    let cfg = |latex, expr, rounding| MathConfig {
        gold_targets: targets(latex, expr),
        pred_targets: targets(latex, expr),
        float_rounding: rounding,
        ..MathConfig::default()
    };
    check_with(
        &[
            ("71/6", "+11 5/6", true),
            ("4/9", "0 4/9", true),
            ("103/9", "11 + 4/9", true),
            ("95/9", "11 + 4/9", false),
            ("5", "$5.00", true),
            ("4", "The answer is 4 0/0.", false),
            ("0", "The answer is 4 0/0.", false),
            ("139/90", "11/10\n4/9", false),
            ("1000", "1 000", true),
            ("1000.0", "1,000.0", true),
            ("1000.99", "1000,99", true),
            ("1,22", "1.22", true),
            ("1000.99", "1,000.99$", true),
        ],
        &cfg(false, true, 6),
    );
    check_with(
        &[
            ("10/9", "\\frac{10}{9}", true),
            ("$[0,1)$", "$[0,1)$", true),
            ("$[0,9)$", "$[0,1)$", false),
            ("$(0,9)$", "$[0,9)$", false),
            ("$28\\%$", "28 %", true),
            ("$0.28$", "28", false),
            ("$28/100$", "28", false),
            ("$\\frac{1}{12}$", "$0.0833333333333333$", true),
            ("$(a+5)(b+2)$", "$(+5)(b+2)$", false),
            ("$4$", "$\\frac{34}{16}+\\frac{\\sqrt{1358}}{16}$", false),
            ("$1\\sqrt{19}$", "$1$", false),
            ("$\\text{E}$", "$E$", true),
            ("\\(\\boxed{\\text{C}}\\).", "$\\boxed{\\text{(C)}}.$", true),
            (
                " So the answer is: \\[ \\boxed{11111111100} \\]",
                "is $\\boxed{11,\\! 111,\\! 111,\\! 100}$",
                true,
            ),
            ("$\\sqrt{2}$", "$\\sqrt{2}.$", true),
            ("$\\frac{1}{3}$", "$$\\frac{1}{3}.$$", true),
            ("$1, 2, 3$", "$1, 2, 3, ...$", false),
            (
                "$[-3,2]$",
                "so $\\boxed{[-3, 2]}$. Wait, no: $\\boxed{(-\\infty, -3] \\cup [2, \\infty)}$",
                false,
            ),
            (
                "$10455$",
                "$0.04 \\cdot 10,000 \\cdot \\frac{1}{2} = \\boxed{200}$ and then $\\boxed{255}$. Final Answer: The final answer is $10,455$. I hope it is correct.",
                true,
            ),
            (
                "$16386.20$",
                "worth $\\boxed{\\$16,\\!386.20}$ at the end. The answer is $16,\\!386.20$.",
                true,
            ),
        ],
        &cfg(true, true, 6),
    );
    check_with(
        &[("$(\\frac{3}{5},\\frac{8}{3}]$", "$(0.6,2.6667]$", true)],
        &cfg(true, true, 2),
    );
    check_with(
        &[
            ("$9$", "Answer \\[ 9 \\]", true),
            ("$9$", "Answer \\( 9 \\)", true),
            ("$10$", "Answer \\( (9+1) \\)", true),
            ("$9$", "Answer $ \n 9 \n $", false),
            ("$9$", "Answer \\( \n 9 \n \\)", false),
            ("$9$", "Answer \\[ \n 9 \n \\]", true),
            ("$x < 3$", "We find that $x \\lt 3$.", true),
            ("$x \\leq 2$", "Thus $x <= 2$ is our answer.", true),
            ("$x > 5$", "Therefore $x < 5$ is the solution.", false),
            ("$x \\leq 5$", "$5 \\geq x$", true),
            ("$7 = 11a+c$", "$11a+c$", false),
            ("$11$", "$x=11$", true),
            ("$11$", "$x\\approx11$", true),
            ("$z = 1 + 1 = 2$", "$z = 3+3 = 2$", true),
            ("$x^2/4 + y^2/3 = 1$", "$x^2/16 + y^2/12 = 1/4$", true),
            (
                "$\\begin{pmatrix}1 & 2 \\\\3 & 4\\end{pmatrix}$",
                "Special matrix: $ \\left[\\begin{array}{cc}1 & 2 \\\\3 & 4\\end{array}\\right] $",
                true,
            ),
            (
                "$f(2) < f(1) < f(4)$",
                "Hence, $\\boxed{f(2) < f(1) < f(4)}.$",
                true,
            ),
            (
                "$9$",
                "Then, $129^{34}+96^{38} \\equiv \\boxed{9} \\pmod{11}.$",
                true,
            ),
            (
                "x \\in \\boxed{\\{-1\\} \\cup [0,7)}.$",
                "x \\in \\boxed{\\{-1\\} \\cup [0,7)}.$",
                true,
            ),
            (
                "\\boxed{\n\\begin{pmatrix} 0 & 3 \\\\ 0 & -1 \\end{pmatrix}\n}.\n\\end{align*}",
                "\\boxed{\n\\begin{pmatrix} 0 & 3 \\\\ 0 & -1 \\end{pmatrix}\n}.\n\\end{align*}",
                true,
            ),
            (
                "between $\\boxed{12\\text{ and }13}$.",
                "located between $\\boxed{12 $ and $13 }. $ Final Answer: The final answer is \"$12 $ and $13 $\".",
                true,
            ),
        ],
        &cfg(true, false, 6),
    );
    check_with(
        &[
            ("$n=2, 3, 4$", "$n=1, 2, 3$", false),
            ("$D = (0, 1)$", "$D = (0, 1.5)$", false),
            ("$19, 46, and 82$", "$21, 36, and 82$", false),
            (
                "$1 - \\frac{1}{\\mathrm{e}}$",
                "$1 + \\frac{1}{\\mathrm{e}}$",
                false,
            ),
            ("$\\pm 2021$", "${-2021, 2021}$", true),
        ],
        &MathConfig::default(),
    );
    let sets = MathConfig {
        allow_set_relation_comp: false,
        ..cfg(true, false, 6)
    };
    check_with(&[("$-2 \\le x \\le 7$", "$x \\in [-2,7]$", true)], &sets);
}

/// Probes from Math-Verify issue reports (#14, #25, #60, #64) and undelimited equations.
#[test]
fn issue_probes() {
    let long = "We simplify step by step and check every case. ".repeat(8);
    check(&[
        (
            "$\\frac{2^{2005}+1}{3 \\cdot 2^{2006}}$",
            "$\\frac{1}{3 \\cdot 2^{2006}}$",
            false,
        ),
        ("$1, 2, \\ldots, n$", "$1, 3, 5, \\ldots, 2n-1$", false),
        ("$1:2:3:\\ldots$", "$1:4:9:\\ldots$", false),
        ("3*x-1*y+13=0", "3x + 4y + 14=0", false),
        ("$\\sqrt{1/n}$", "$\\frac{1}{\\sqrt{n}}$", true),
        ("f(x) = 0", "\\forall x>0, f(x) = 0", false),
        (
            "Final Answer\n\\[\n\\boxed{m \\geq \\sqrt{2}}\n\\]",
            "the solution to the problem is $m \\in [\\sqrt{2}, +\\infty)$",
            true,
        ),
        (
            "73",
            "Right: 122 + 294 + 489 = 905\n\nThus, the number is **73**.\n\n---\n\n✅ Final Answer: **73**",
            true,
        ),
        (
            "\\left( 3, \\frac{\\pi}{2} \\right)",
            "(3, \\frac{2\\pi}{3})",
            false,
        ),
        (
            "\\left( 3, \\frac{\\pi}{2} \\right)",
            "(3, \\frac{\\pi}{2})",
            true,
        ),
        ("$4$", "$4\\sqrt(2)$", false),
        ("2/3", "\\frac{2}{3}", true),
        ("$5$", &format!("{long} so we get x + y = 5"), false),
        ("$5$", &format!("{long} so we get x = 5"), true),
        ("$5$", &format!("{long} and 2x = 5"), false),
        ("$\\frac{2}{3}$", &format!("{long} P(A) = 2/3"), true),
    ]);
}

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
