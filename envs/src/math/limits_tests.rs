use super::*;
use crate::math::question::check;
use crate::math::testing;
use num_traits::ToPrimitive;

#[test]
fn references_verify_and_do_not_transfer() {
    for preset in LimitsFamily::SPEC.presets {
        let config: LimitsConfig = serde_json::from_str(preset.overrides).unwrap();
        let tasks = testing::references_hold::<LimitsFamily>(&config, 600);
        testing::attacks_fail::<LimitsFamily>(&tasks[0]);
    }
}

fn value_f64(v: &Value) -> f64 {
    match v {
        Value::Rational(q) => q.to_f64().unwrap(),
        Value::ExpOf(q) => q.to_f64().unwrap().exp(),
    }
}

/// The templates' functions in floating point, to approach the limit numerically.
fn template_f64(template: usize, a: f64, b: f64, c: f64, x: f64) -> f64 {
    match template {
        0 => ((a * x).sin() + b * x) / (c * x),
        1 => (1.0 - (a * x).cos()) / (c * x * x),
        2 => c * (a * x).tan() / (b * x).sin(),
        3 => ((a * x).exp() - (b * x).exp()) / (c * x),
        4 => c * (a * x).ln_1p() / (b * x).exp_m1(),
        5 => (1.0 + a.abs() / (c.abs() * x)).powf(b * x),
        _ => (1.0 + a * x).powf(b / (c.abs() * x)),
    }
}

#[test]
fn transcendental_values_match_numeric_limits() {
    let mut rng = Rng::from_seed(4);
    for _ in 0..300 {
        let template = rng.range_usize(0, TEMPLATES - 1);
        let (a, b, c) = (
            nonzero(&mut rng, 6),
            nonzero(&mut rng, 6),
            nonzero(&mut rng, 6),
        );
        let (_, _, value) = transcendental(template, a, b, c);
        let x = if template == 5 { 1e7 } else { 1e-6 };
        let numeric = template_f64(template, a as f64, b as f64, c as f64, x);
        let exact = value_f64(&value);
        assert!(
            (numeric - exact).abs() < 1e-3 * exact.abs().max(1.0),
            "template {template} a={a} b={b} c={c}: {numeric} vs {exact}"
        );
    }
}

#[test]
fn rational_limits_match_numeric_limits() {
    let mut rng = Rng::from_seed(6);
    for kind in ["substitution", "removable", "infinity"] {
        let config = LimitsConfig {
            kinds: vec![kind.into()],
            max_coef: 6,
            degree: 2,
        };
        let mut checked = 0;
        while checked < 100 {
            let Some((point, text, value)) = draw_kind(kind, &config, &mut rng) else {
                continue;
            };
            let x: f64 = if point == "\\infty" {
                1e7
            } else {
                point.parse::<f64>().unwrap() + 1e-7
            };
            let numeric = eval_text(&text, x);
            let exact = value_f64(&value);
            assert!(
                (numeric - exact).abs() < 1e-4 * exact.abs().max(1.0),
                "{kind}: {text} at {point}: {numeric} vs {exact}"
            );
            checked += 1;
        }
    }
}

/// Evaluates the generated LaTeX at `x` in floating point (the verifier's parser
/// reads it, the substitution is done here).
fn eval_text(text: &str, x: f64) -> f64 {
    use verigym_verifiers::math::Expr;
    fn go(e: &Expr, x: f64) -> f64 {
        match e {
            Expr::Num { value, .. } => value.to_f64().unwrap(),
            Expr::Sym(_) => x,
            Expr::Neg(a) => -go(a, x),
            Expr::Add(a, b) => go(a, x) + go(b, x),
            Expr::Sub(a, b) => go(a, x) - go(b, x),
            Expr::Mul(a, b) => go(a, x) * go(b, x),
            Expr::Div(a, b) => go(a, x) / go(b, x),
            Expr::Pow(a, b) => go(a, x).powf(go(b, x)),
            other => panic!("unexpected {other:?}"),
        }
    }
    let text = text.replace("\\left(", "(").replace("\\right)", ")");
    go(&verigym_verifiers::math::parse_expr(&text).unwrap(), x)
}

#[test]
fn only_the_limit_passes() {
    let (point, text, value) = transcendental(5, 3, 2, 1);
    assert_eq!(value, Value::ExpOf(rat(6, 1)));
    let task = MathTask {
        question: format!("Find $\\lim_{{x \\to {point}}} {text}$."),
        answer: "e^{6}".into(),
        form: Form::Values,
    };
    for good in ["\\boxed{e^{6}}", "\\boxed{e^6}", "\\boxed{(e^{3})^{2}}"] {
        assert!(check(&task, good).0, "{good}");
    }
    for bad in [
        "\\boxed{e^{5}}",
        "\\boxed{403.4287934927351}",
        "\\boxed{6}",
        "\\boxed{e^{6}} \\boxed{e^{5}}",
        "\\boxed{\\left(1 + \\frac{3}{x}\\right)^{2x}}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
    let task = MathTask {
        question: "Find $\\lim_{x \\to 2} \\frac{x^{2} + x - 6}{x^{2} - 4}$.".into(),
        answer: "\\frac{5}{4}".into(),
        form: Form::Number,
    };
    assert!(check(&task, "\\boxed{\\frac{5}{4}}").0);
    assert!(check(&task, "\\boxed{1.25}").0);
    assert!(!check(&task, "\\boxed{\\frac{x+3}{x+2}}").0);
    assert!(!check(&task, "\\boxed{\\infty}").0);
}
