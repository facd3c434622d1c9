//! Property and adversarial tests for the math verifier: polynomial identities must be
//! equivalent, perturbations must not, arbitrary input must not panic, and degenerate or
//! hedged answers must score nothing.

use proptest::prelude::*;
use verigym_verifiers::math::{MathConfig, verify, verify_with_prompt};

fn eq(gold: &str, pred: &str) -> bool {
    verify(gold, pred, &MathConfig::default()).equivalent
}

/// Coefficients of `prod (a_i x + b_i)`, lowest degree first.
fn expand(factors: &[(i64, i64)]) -> Vec<i64> {
    let mut poly = vec![1i64];
    for &(a, b) in factors {
        let mut next = vec![0i64; poly.len() + 1];
        for (k, c) in poly.iter().enumerate() {
            next[k] += c * b;
            next[k + 1] += c * a;
        }
        poly = next;
    }
    poly
}

fn factored_latex(factors: &[(i64, i64)], var: &str) -> String {
    factors
        .iter()
        .map(|(a, b)| format!("({a}{var} + ({b}))"))
        .collect::<Vec<_>>()
        .join("")
}

fn expanded_latex(coeffs: &[i64], var: &str) -> String {
    let mut terms = Vec::new();
    for (k, c) in coeffs.iter().enumerate().rev() {
        if *c == 0 {
            continue;
        }
        terms.push(match k {
            0 => format!("{c}"),
            1 => format!("{c}{var}"),
            _ => format!("{c}{var}^{{{k}}}"),
        });
    }
    if terms.is_empty() {
        "0".into()
    } else {
        terms.join(" + ").replace("+ -", "- ")
    }
}

fn factor() -> impl Strategy<Value = (i64, i64)> {
    (prop_oneof![1i64..=4, -4i64..=-1], -6i64..=6)
}

/// 64 cases by default; `PROPTEST_CASES=5000` for a longer fuzzing run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn expanded_equals_factored(factors in prop::collection::vec(factor(), 1..5), var in "[a-dx-z]") {
        let coeffs = expand(&factors);
        let gold = format!("${}$", factored_latex(&factors, &var));
        let pred = format!("The answer is $\\boxed{{{}}}$.", expanded_latex(&coeffs, &var));
        prop_assert!(eq(&gold, &pred), "{gold} vs {pred}");
    }

    #[test]
    fn perturbed_polynomials_differ(
        factors in prop::collection::vec(factor(), 1..5),
        which in 0usize..8,
        delta in prop_oneof![-3i64..=-1, 1i64..=3],
        kind in 0u8..3,
    ) {
        let coeffs = expand(&factors);
        let gold = format!("${}$", factored_latex(&factors, "x"));
        let pred = match kind {
            0 => {
                let mut c = coeffs.clone();
                let k = which % c.len();
                c[k] += delta;
                expanded_latex(&c, "x")
            }
            1 => {
                let mut c = coeffs.clone();
                let nonzero: Vec<usize> = (0..c.len()).filter(|k| c[*k] != 0).collect();
                let k = nonzero[which % nonzero.len()];
                c[k] = 0;
                expanded_latex(&c, "x")
            }
            _ => format!("{} + 0.0000001", expanded_latex(&coeffs, "x")),
        };
        let pred = format!("$\\boxed{{{pred}}}$");
        prop_assert!(!eq(&gold, &pred), "{gold} vs {pred}");
    }

    #[test]
    fn arbitrary_text_never_panics(gold in ".{0,60}", pred in ".{0,200}") {
        let _ = verify(&gold, &pred, &MathConfig::default());
    }

    #[test]
    fn latexish_text_never_panics(
        gold in prop::collection::vec(latex_token(), 0..20),
        pred in prop::collection::vec(latex_token(), 0..40),
    ) {
        let (g, p) = (gold.concat(), pred.concat());
        let _ = verify(&format!("${g}$"), &p, &MathConfig::default());
        let _ = verify(&g, &format!("\\boxed{{{p}}}"), &MathConfig::default());
    }

    #[test]
    fn wrong_integers_stay_wrong(gold in -1000i64..1000, wrong in -1000i64..1000, pad in "[a-z ]{0,40}") {
        prop_assume!(gold != wrong);
        let pred = format!("{pad} The answer is $\\boxed{{{wrong}}}$. {pad}");
        let gold_text = format!("${gold}$");
        let right = format!("{pad} so $\\boxed{{{gold}}}$");
        prop_assert!(!eq(&gold_text, &pred));
        prop_assert!(eq(&gold_text, &right));
    }
}

fn latex_token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "\\frac",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "\\sqrt",
        "^",
        "_",
        "x",
        "2",
        "10",
        "0",
        "!",
        "-",
        "+",
        "=",
        ",",
        "\\le",
        "\\pm",
        "\\pi",
        "|",
        "\\left(",
        "\\right)",
        "\\boxed{",
        "$",
        "9999",
        "\\begin{pmatrix}",
        "\\end{pmatrix}",
        "&",
        "\\\\",
        "\\text{",
        "\\%",
        ".",
        " ",
        "e",
        "\\sin",
        "\\log_",
        "\\binom",
        "\\cup",
        "\\infty",
        "4 4/9",
        "1,000",
        "{,}",
        "\\sum_{k=0}^{n}",
    ])
}

#[test]
fn huge_exponents_and_factorials_are_bounded() {
    let start = std::time::Instant::now();
    assert!(!eq("$1$", "$2^{2^{2^{2^{2^{2}}}}}$"));
    assert!(!eq("$1$", "$99999999!$"));
    assert!(!eq("$1$", "$10^{10^{10}}$"));
    assert!(!eq("$1$", "$\\binom{100000}{50000}$"));
    assert!(eq(
        "$\\frac{1}{2004!}$",
        "$\\frac{2005 \\cdot 2006}{2006!}$"
    ));
    assert!(!eq("$\\frac{1}{2004!}$", "$\\frac{1}{2006!}$"));
    let deep = format!("${}1{}$", "(".repeat(5000), ")".repeat(5000));
    assert!(!eq("$1$", &deep));
    let long_sum = format!("${}$", vec!["1"; 3000].join("+"));
    let _ = eq("$3000$", &long_sum);
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
}

#[test]
fn math_verify_false_positives() {
    assert!(!eq("$\\frac{1}{2^{99}}$", "$\\frac{1}{2^{98}}$"));
    assert!(!eq("$1-\\frac{1}{e}$", "$1+\\frac{1}{e}$"));
    assert!(!eq("$2$", "$2^{10}.$"));
    // An undelimited equation is not reduced to its last number.
    assert!(!eq("$5$", "x + 3 = 5"));
    assert!(!eq("$5$", "$x + 3 = 5$"));
    assert!(!eq("$\\frac{1}{2^{100}}$", "$0$"));
    assert!(!eq("$e^{-40}$", "$0$"));
    assert!(!eq("$1-\\cos(10^{-9})$", "$0$"));
}

#[test]
fn hedged_answers_are_wrong() {
    let gold = "$3$";
    for pred in [
        "\\boxed{3} or \\boxed{4}",
        "\\boxed{4} or \\boxed{3}",
        "It is \\boxed{3}. Actually no, \\boxed{4}. Hmm, \\boxed{3}",
        "\\boxed{3, 4}",
        "\\boxed{3 \\text{ or } 4}",
        "\\boxed{\\{1,2,3,4,5,6,7,8,9\\}}",
        "The answer is 3 or 4.",
        "The answer is 4 or 3.",
        "The answer is either $3$ or $4$.",
        "The final answer is $3$ or maybe $4$",
        "$3$, $4$",
        "3, 4, 5, 6",
        "\\boxed{\\pm 3}",
        "It is between 3 and 4.",
        "1 2 3 4 5 6 7 8 9 10",
        "1, 2, 3, ..., 10",
        "$3$ $4$",
        "\\text{\\boxed{4}} \\boxed{3}",
    ] {
        assert!(!eq(gold, pred), "hedge accepted: {pred}");
    }
    // Hedges whose last candidate is the gold value.
    for (gold, pred) in [
        ("$4$", "It is between 3 and 4."),
        ("$10$", "1 2 3 4 5 6 7 8 9 10"),
        ("$10$", "1, 2, 3, ..., 10"),
        ("$4$", "$3$ $4$"),
        ("$4$", "The answer is 3 or 4."),
        ("$4$", "The answer is 3, but possibly 4."),
        ("$4$", "It is 3, maybe 4"),
        ("$4$", "\\boxed{3} \\boxed{4}"),
        ("$4$", "\\boxed{3}\n\nHmm.\n\n\\boxed{4}"),
    ] {
        assert!(!eq(gold, pred), "hedge accepted: {pred}");
    }
    // A range in the sentence that then states a value is not a hedge.
    assert!(eq("$5$", "So the difference between 7 and 2 is 5."));
    assert!(eq(
        "$12$",
        "There are 2 ways to choose 1 or 2 items, giving 12 in total."
    ));
    assert!(!eq("$5$", "It could be 3, 4, or 5."));
    // Repeating the same value is not a hedge.
    assert!(eq(gold, "\\boxed{3} so again \\boxed{3}"));
    assert!(eq(
        gold,
        "The answer is $3$ or, equivalently, $\\frac{6}{2}$."
    ));
}

#[test]
fn empty_constant_echoed_and_padded_answers_are_wrong() {
    let gold = "$\\frac{7}{2}$";
    for pred in [
        "",
        " ",
        "\\boxed{}",
        "\\boxed{ }",
        "$$",
        "0",
        "1",
        "\\boxed{0}",
        "None",
        "\\boxed{x}",
    ] {
        assert!(!eq(gold, pred), "accepted: {pred:?}");
    }
    let prompt = "A tank holds 7 litres and is split in 2 halves; how much is in one half? 7/2";
    assert!(!verify_with_prompt(gold, prompt, prompt, &MathConfig::default()).equivalent);
    assert!(verify_with_prompt(gold, "\\boxed{3.5}", prompt, &MathConfig::default()).equivalent);
    let padding = "blah ".repeat(2000);
    assert!(!eq(gold, &format!("{padding} \\boxed{{3}} {padding} 7/2")));
    assert!(!eq(gold, &format!("7/2 {padding} \\boxed{{3}} {padding}")));
    assert!(!eq(gold, "\\boxed{3.5 + x - x + 1}"));
    // A number inside LaTeX that fails to parse is never read.
    assert!(!eq("$3$", "The value is $\\weird{3}$"));
}

#[test]
fn think_blocks_are_ignored() {
    assert!(!eq(
        "$5$",
        "<think>the answer is \\boxed{5}</think> so \\boxed{6}"
    ));
    assert!(eq("$5$", "<think>maybe \\boxed{6}</think> so \\boxed{5}"));
    assert!(!eq("$5$", "<think>the answer is \\boxed{5}"));
}

#[test]
fn structures() {
    assert!(eq("$(1,2)$", "$(1, 2)$"));
    assert!(!eq("$(1,2)$", "$(2, 1)$"));
    assert!(eq("$\\{1,2\\}$", "$\\{2, 1\\}$"));
    assert!(eq("$[1,2)$", "$[1, 2)$"));
    assert!(!eq("$[1,2)$", "$[1, 2]$"));
    assert!(eq(
        "$(-\\infty, 2] \\cup (3, \\infty)$",
        "$(3,\\infty)\\cup(-\\infty,2]$"
    ));
    assert!(eq("$x = 3$", "$3$"));
    assert!(eq("$3$", "$x = 3$"));
    assert!(!eq("$x + y = 3$", "$3$"));
    assert!(eq("$y = 2x + 1$", "$2x - y + 1 = 0$"));
    assert!(!eq("$y = 2x + 1$", "$y = 2x - 1$"));
    assert!(eq("$x > 2$", "$2 < x$"));
    assert!(!eq("$x > 2$", "$x \\ge 2$"));
    assert!(eq(
        "$\\begin{pmatrix}1 & 2\\\\3 & 4\\end{pmatrix}$",
        "$\\begin{bmatrix}1 & 2\\\\3 & 4\\end{bmatrix}$"
    ));
    assert!(eq("$\\binom{5}{2}$", "$10$"));
    assert!(eq("$\\sqrt[3]{-8}$", "$-2$"));
    assert!(eq("$|{-3}|$", "$3$"));
    assert!(eq("$\\log_2 8$", "$3$"));
    assert!(eq("$50\\%$", "$\\frac{1}{2}$"));
    assert!(eq("$\\text{Evelyn}$", "\\boxed{\\text{Evelyn}}"));
    assert!(eq("$1 \\pm \\sqrt{2}$", "$\\{1-\\sqrt{2}, 1+\\sqrt{2}\\}$"));
    assert!(eq("$\\sin\\frac{\\pi}{6}$", "$\\frac12$"));
}

#[test]
fn adversarial_sizes_are_fast() {
    let big = [
        "$1$, ".repeat(8000),
        "\\boxed{".repeat(6000),
        "(".repeat(30000),
        "{".repeat(30000),
        "1+".repeat(20000),
        "$\\frac{".repeat(5000),
        "\\sqrt{".repeat(5000) + &"}".repeat(5000),
        "9".repeat(100000),
        "the answer is ".repeat(3000),
        "\\boxed{1} and ".repeat(3000),
        "x^{x^{x^{x^{x^{x^{x^{x}}}}}}}".repeat(50),
        "$".repeat(50000),
        "1,000,".repeat(400) + "1",
        "\\boxed{5} or ".repeat(2000) + "43",
        "\\boxed{".repeat(3000) + "5" + &"}".repeat(3000),
        "\\text{5 ".repeat(300) + "apples" + &"}".repeat(300),
        "x < 1 \\text{ or } ".repeat(150) + "x > 2",
        format!(
            "$\\mathbb{{R}} \\setminus \\{{{}\\}}$",
            (0..300)
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(",")
        ),
        "|x - 1| < 2 \\cup ".repeat(120) + "(0, 1)",
        "12\\,345".repeat(300),
    ];
    for s in &big {
        let start = std::time::Instant::now();
        let _ = verify("$1$", s, &MathConfig::default());
        let _ = verify(s, "1", &MathConfig::default());
        let took = start.elapsed();
        assert!(
            took.as_millis() < 1500,
            "{took:?} on {}",
            &s[..40.min(s.len())]
        );
    }
}

#[test]
fn expensive_expressions_stay_bounded() {
    let cases = [
        format!("${}$", vec!["3000!"; 300].join("+")),
        format!("${}$", vec!["\\binom{3000}{1500}"; 100].join("+")),
        format!("${}$", vec!["\\sin(x)"; 200].join("+")),
        format!("${}$", vec!["x^{20000}"; 100].join("+")),
        format!("${}x{}$", "\\sin(".repeat(60), ")".repeat(60)),
        format!("${}$", vec!["e^{x}"; 200].join("\\cdot")),
        "$\\sum_{k=1}^{2000} k^{2000}$".to_string(),
        "$\\prod_{k=1}^{2000} \\sum_{j=1}^{2000} j$".to_string(),
        "$\\sum_{k=1}^{2000} \\sum_{j=1}^{k} \\sum_{i=1}^{j} i$".to_string(),
        "$\\sum_{k=1}^{50} \\sum_{j=1}^{50} \\sum_{i=1}^{2000} i$".to_string(),
        "$(x+y+z+w+v)^{64}$".to_string(),
        format!("${}$", vec!["(x+1)^{64}"; 40].join("\\cdot")),
        format!("${}$", vec!["\\frac{1}{x+1}"; 200].join("+")),
        format!(
            "$|x| < 2 \\text{{ or }} {}$",
            vec!["|x - 5| \\ge 1"; 30].join(" \\text{ or } ")
        ),
    ];
    for c in &cases {
        let start = std::time::Instant::now();
        let _ = verify("$1$", c, &MathConfig::default());
        let _ = verify(c, c, &MathConfig::default());
        let took = start.elapsed();
        assert!(
            took.as_millis() < 3000,
            "{took:?} on {}",
            &c[..40.min(c.len())]
        );
    }
}

/// Deep or long inputs must fit in a modest thread stack (1 MiB, unoptimised build):
/// nesting is capped by the parser and long chains are folded into balanced trees.
#[test]
fn small_stacks_suffice() {
    let inputs = vec![
        format!("${}1{}$", "(".repeat(200), ")".repeat(200)),
        format!("${}x{}$", "\\sqrt{".repeat(200), "}".repeat(200)),
        format!("${}x{}$", "\\sin(".repeat(200), ")".repeat(200)),
        format!("${}$", vec!["x"; 900].join("+")),
        format!("${}$", vec!["x"; 900].join("\\cdot ")),
        format!("${}$", vec!["x"; 600].join("-")),
        format!("${}$", vec!["2"; 600].join("/")),
        format!("${}2", "2^{".repeat(150)) + &"}".repeat(150) + "$",
        format!("${}1$", "-".repeat(900)),
        format!("${}$", "\\{".repeat(200) + &"\\}".repeat(200)),
        format!(
            "$\\boxed{{{}}}$",
            "\\frac{1}{".repeat(150) + "2" + &"}".repeat(150)
        ),
    ];
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for s in &inputs {
                let _ = verify(s, s, &MathConfig::default());
                let _ = verify("$1$", s, &MathConfig::default());
            }
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The same rational written in different ways is equal; a different one never is.
    #[test]
    fn rational_formats(p in -500i64..500, q in 1i64..60, dp in 1i64..7, fmt in 0usize..6) {
        let render = |p: i64, q: i64| match fmt {
            0 => format!("$\\boxed{{\\frac{{{p}}}{{{q}}}}}$"),
            1 => format!("The answer is {p}/{q}."),
            2 => format!("$\\dfrac{{{}}}{{{}}}$", p * 3, q * 3),
            3 => format!("so the final answer is $\\left( \\frac{{{p}}}{{{q}}} \\right)$"),
            4 => format!("\\[ x = \\frac{{{p}}}{{{q}}} \\]"),
            _ => format!("**Answer:** {p}/{q}"),
        };
        let gold = format!("$\\frac{{{p}}}{{{q}}}$");
        let same = render(p, q);
        prop_assert!(eq(&gold, &same), "{gold} vs {same}");
        let other = render(p + dp, q);
        prop_assert!(!eq(&gold, &other), "{gold} vs {other}");
    }
}
