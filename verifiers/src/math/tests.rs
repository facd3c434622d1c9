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
    assert!(eq("$\\sqrt{2}$", "$1.41421356$"));
    assert!(!eq("$\\sqrt{2}$", "$1.4142$"));
}

#[test]
fn hedges_and_empties() {
    assert!(!eq("$3$", "\\boxed{3} or maybe \\boxed{4}"));
    assert!(!eq("$3$", "\\boxed{3 \\text{ or } 4}"));
    assert!(!eq("$3$", "\\boxed{}"));
    assert!(!eq("$3$", ""));
    assert!(!eq("$3$", "3 or 4"));
}
