//! Unit tests for the math verifier; the dev-set and property tests live in `tests/`.

use super::*;

fn cfg() -> MathConfig {
    MathConfig::default()
}

fn eq(g: &str, p: &str) -> bool {
    verify(g, p, &cfg()).equivalent
}

#[test]
fn exact_rationals() {
    assert!(eq("$\\frac{1}{2}$", "$0.5$"));
    assert!(!eq("$\\frac{1}{2^{99}}$", "$\\frac{1}{2^{98}}$"));
    assert!(!eq("$\\frac{1}{2004!}$", "$\\frac{1}{2006!}$"));
    assert!(eq("$\\frac{1}{2004!}$", "$\\frac{1}{2004!}$"));
}

#[test]
fn known_false_positives() {
    assert!(!eq("$1-\\frac{1}{e}$", "$1+\\frac{1}{e}$"));
    assert!(!eq("$2$", "$2^{10}.$"));
    assert!(!eq("$5$", "x + 3 = 5"));
}

#[test]
fn radicals_and_trig() {
    assert!(eq("$\\sqrt{8}$", "$2\\sqrt{2}$"));
    assert!(eq("$\\tan^2(y)+1$", "$\\sec^2(y)$"));
    // Exact by default: a decimal is never exactly an irrational value.
    assert!(!eq("$\\sqrt{2}$", "$1.41421356$"));
    let rounded = MathConfig {
        float_rounding: Some(8),
        ..MathConfig::default()
    };
    assert!(verify("$\\sqrt{2}$", "$1.41421356$", &rounded).equivalent);
    assert!(!verify("$\\sqrt{2}$", "$1.4142$", &rounded).equivalent);
}

#[test]
fn hedges_and_empties() {
    assert!(!eq("$3$", "\\boxed{3} or maybe \\boxed{4}"));
    assert!(!eq("$3$", "\\boxed{3 \\text{ or } 4}"));
    assert!(!eq("$3$", "\\boxed{}"));
    assert!(!eq("$3$", ""));
    assert!(!eq("$3$", "3 or 4"));
}

#[test]
fn config_knobs() {
    let boxed = MathConfig {
        require_boxed: true,
        ..MathConfig::default()
    };
    assert!(!verify("$3$", "The answer is $3$.", &boxed).equivalent);
    assert!(verify("$3$", "The answer is $\\boxed{3}$.", &boxed).equivalent);
    let loose = MathConfig {
        strict: false,
        ..MathConfig::default()
    };
    assert!(verify("$x = 3$", "$y = 3$", &loose).equivalent);
    assert!(!eq("$x = 3$", "$y = 3$"));
    let sets = MathConfig {
        allow_set_relation_comp: true,
        ..MathConfig::default()
    };
    assert!(verify("$x \\in (1, 2]$", "$1 < x \\le 2$", &sets).equivalent);
    let coarse = MathConfig {
        float_rounding: Some(2),
        ..MathConfig::default()
    };
    assert!(verify("$\\frac{1}{3}$", "0.33", &coarse).equivalent);
    assert!(!eq("$\\frac{1}{3}$", "0.33"));
    let latex_only = Targets {
        latex: true,
        expr: false,
    };
    let cfg = MathConfig {
        pred_targets: latex_only,
        ..MathConfig::default()
    };
    assert!(!verify("$3$", "the answer is 3", &cfg).equivalent);
}

#[test]
fn verify_is_thread_safe() {
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|k| {
                s.spawn(move || {
                    (0..50).all(|j| {
                        let n = k * 100 + j;
                        eq(&format!("${n}$"), &format!("\\boxed{{{n}}}"))
                            && !eq(&format!("${n}$"), &format!("\\boxed{{{}}}", n + 1))
                            && eq("$\\sin^2 x + \\cos^2 x$", "$1$")
                    })
                })
            })
            .collect();
        assert!(handles.into_iter().all(|h| h.join().expect("no panic")));
    });
}

#[test]
fn parsed_forms_are_reported() {
    let v = verify("$\\frac{1}{2}$", "so \\boxed{0.5}", &cfg());
    assert_eq!(v.gold_parsed.as_deref(), Some("(1/2)"));
    assert_eq!(v.prediction_parsed.as_deref(), Some("0.5"));
    assert!(v.equivalent, "{v:?}");
    assert!(parse_expr("\\frac{1}{2} + \\unknowncommand").is_err());
    assert!(extract_answer("...", Targets::default()).is_err());
    assert_eq!(
        extract_answer("\\boxed{}", Targets::default()),
        Err(crate::answer::AnswerError::EmptyBox)
    );
}

#[test]
fn hand_built_malformed_expressions_are_refused() {
    let bad_rel = Expr::Rel {
        items: vec![Expr::int(1)],
        ops: vec![RelOp::Eq],
    };
    assert!(!equivalent(&bad_rel, &bad_rel, &cfg()));
    assert_eq!(bad_rel.to_string(), "1");
    let bad_matrix = Expr::Matrix(vec![vec![Expr::int(1)], vec![]]);
    assert!(!equivalent(&bad_matrix, &bad_matrix, &cfg()));
    assert!(!equivalent(
        &Expr::Matrix(vec![]),
        &Expr::Matrix(vec![]),
        &cfg()
    ));
}

#[test]
fn honest_forms_of_the_one_answer_rule_pass() {
    let cfg = MathConfig::default();
    for (gold, pred) in [
        ("$2, 3$", "\\boxed{x = 2 \\text{ or } x = 3}"),
        ("$2, 3$", "\\boxed{x = 2, x = 3}"),
        ("$2, 3$", "\\boxed{x = 2 or x = 3}"),
        ("$2, 3$", "\\boxed{x_1 = 2, x_2 = 3}"),
        ("$-2, 3$", "\\boxed{x = −2 \\text{ or } x = 3}"),
        (
            "$\\frac{1}{2}, 3$",
            "\\boxed{x=\\frac{1}{2} \\quad \\text{or} \\quad x=3}",
        ),
        ("$42$", "\\boxed{42.}"),
        ("$42$", "\\boxed{４２}"),
        ("$1234$", "\\boxed{1,234}"),
        ("$-7$", "\\boxed{−7}"),
        ("$42$", "\\boxed{42}\n\n**Final answer: 42**"),
        ("$42$", "The answer is $42$.\n\n\\boxed{42}"),
        ("$42$", "\\boxed{42}<|im_end|>\n\\boxed{17}"),
        ("$42$", "◁think▷\\boxed{17}◁/think▷\\boxed{42}"),
        ("$42$", "[THINK]\\boxed{17}[/THINK]\\boxed{42}"),
    ] {
        assert!(verify(gold, pred, &cfg).equivalent, "{gold} vs {pred:?}");
    }
    for (gold, pred) in [
        ("$2$", "\\boxed{x = 2 \\text{ or } x = 3}"),
        ("$42$", "\\boxed{42}\n\nThe final answer is 17."),
        ("$42$", "Final answer: 17\n\n\\boxed{42}"),
        ("$42$", "The answer is not 42."),
        ("$42$", "<|channel|>analysis<|message|>\\boxed{42}<|end|>"),
    ] {
        assert!(!verify(gold, pred, &cfg).equivalent, "{gold} vs {pred:?}");
    }
}

#[test]
fn a_digit_grouping_in_the_gold_is_one_number() {
    let cfg = MathConfig::default();
    assert!(verify("3,000", "\\boxed{3000}", &cfg).equivalent);
    assert!(verify("$1,000,000$", "\\boxed{1,000,000}", &cfg).equivalent);
    assert!(!verify("3,000", "\\boxed{0, 3}", &cfg).equivalent);
    assert!(!verify("3,000", "\\boxed{3, 000}", &cfg).equivalent);
    // A gold list written with spaces stays a list.
    assert!(verify("3, 500", "\\boxed{500, 3}", &cfg).equivalent);
}
