//! `math/limits-v1`: limits of rational functions and standard transcendental limits.
//!
//! # Task
//! "Find $\lim_{x \to 2} \frac{x^{2} + x - 6}{x^{2} - 4}$." Four kinds: a
//! rational function at a point where it is continuous (`substitution`), a
//! rational function at a point where numerator and denominator both vanish
//! (`removable`), a rational function at infinity (`infinity`: equal
//! degrees, or a slant asymptote subtracted), and standard transcendental
//! limits (`transcendental`: `sin`, `tan`, `1 - cos`, `e^{ax}`, `ln(1+ax)`
//! and the `(1 + a/x)^{bx}` family). Every limit is finite; the answer is an
//! exact rational or `e` to a rational power.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds the limit: a number or
//! fraction, or a power of `e` such as `e^{6}` or `e^{\frac{3}{2}}` (read by
//! [`crate::single_turn`] and the math verifier).
//!
//! # Observation
//! The limit in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed value equals the limit (powers of `e`
//! compared by the verifier's high-precision evaluation), else 0. An answer
//! that still holds `x` fails. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kinds` (non-empty subset of `substitution`, `removable`, `infinity`,
//! `transcendental`), `max_coef` (2–12), `degree` (1–3, of the rational
//! functions' factors).
//!
//! # Seeding
//! Limits 0, ±1, 2 and limits written in the question are redrawn.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::latex::{int, latex_poly_i, latex_rational, nonzero, poly_mul, rat};
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

const KINDS: [&str; 4] = ["substitution", "removable", "infinity", "transcendental"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    pub kinds: Vec<String>,
    pub max_coef: i64,
    pub degree: usize,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
            max_coef: 9,
            degree: 2,
        }
    }
}

pub struct LimitsFamily;
pub type Limits = MathEnv<LimitsFamily>;

/// A limit's value: a rational `q`, or `e^q`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Rational(BigRational),
    ExpOf(BigRational),
}

/// `p(x)` at a rational point, coefficients lowest first.
pub fn eval(p: &[i64], x: &BigRational) -> BigRational {
    p.iter()
        .rev()
        .fold(BigRational::zero(), |acc, &c| acc * x + int(c))
}

fn random_poly(rng: &mut Rng, degree: usize, k: i64) -> Vec<i64> {
    let mut p: Vec<i64> = (0..=degree).map(|_| rng.range_i64(-k, k)).collect();
    p[degree] = nonzero(rng, k);
    p
}

fn frac(num: &[i64], den: &[i64]) -> String {
    format!(
        "\\frac{{{}}}{{{}}}",
        latex_poly_i(num, "x"),
        latex_poly_i(den, "x")
    )
}

/// `\sin(3x)`, `\sin(x)`.
fn of(f: &str, a: i64) -> String {
    match a {
        1 => format!("\\{f}(x)"),
        -1 => format!("\\{f}(-x)"),
        _ => format!("\\{f}({a}x)"),
    }
}

/// `e^{3x}`, `e^{-x}`.
fn exp(a: i64) -> String {
    match a {
        1 => "e^{x}".into(),
        -1 => "e^{-x}".into(),
        _ => format!("e^{{{a}x}}"),
    }
}

/// `3x`, `x`, `-x` (a coefficient written before `x`, or a term).
fn times_x(a: i64) -> String {
    latex_poly_i(&[0, a], "x")
}

/// ` + 3x`, ` - x`: a term after another.
fn plus_x(b: i64) -> String {
    let term = times_x(b.abs());
    if b < 0 {
        format!(" - {term}")
    } else {
        format!(" + {term}")
    }
}

/// One transcendental template: `(limit point, expression, value)`.
/// Templates 5 and 6 use `|a|` and `|c|` (so no sign sits in a denominator).
pub fn transcendental(template: usize, a: i64, b: i64, c: i64) -> (&'static str, String, Value) {
    let r = |n: i64, d: i64| Value::Rational(rat(n, d));
    match template {
        0 => (
            "0",
            format!("\\frac{{{}{}}}{{{}}}", of("sin", a), plus_x(b), times_x(c)),
            r(a + b, c),
        ),
        1 => (
            "0",
            format!("\\frac{{1 - {}}}{{{}x^{{2}}}}", of("cos", a), coef(c)),
            r(a * a, 2 * c),
        ),
        2 => (
            "0",
            format!("\\frac{{{}{}}}{{{}}}", coef(c), of("tan", a), of("sin", b)),
            r(c * a, b),
        ),
        3 => (
            "0",
            format!("\\frac{{{} - {}}}{{{}}}", exp(a), exp(b), times_x(c)),
            r(a - b, c),
        ),
        4 => (
            "0",
            format!(
                "\\frac{{{}\\ln(1{})}}{{{} - 1}}",
                coef(c),
                plus_x(a),
                exp(b)
            ),
            r(c * a, b),
        ),
        5 => {
            let (a, c) = (a.abs(), c.abs());
            (
                "\\infty",
                format!(
                    "\\left(1 + \\frac{{{a}}}{{{}}}\\right)^{{{}}}",
                    times_x(c),
                    times_x(b)
                ),
                Value::ExpOf(rat(a * b, c)),
            )
        }
        _ => {
            let c = c.abs();
            (
                "0",
                format!(
                    "\\left(1{}\\right)^{{\\frac{{{b}}}{{{}}}}}",
                    plus_x(a),
                    times_x(c)
                ),
                Value::ExpOf(rat(a * b, c)),
            )
        }
    }
}

/// A coefficient written before a function: `3`, ``, `-`.
fn coef(c: i64) -> String {
    match c {
        1 => String::new(),
        -1 => "-".into(),
        _ => c.to_string(),
    }
}

pub const TEMPLATES: usize = 7;

fn draw_kind(kind: &str, config: &LimitsConfig, rng: &mut Rng) -> Option<(String, String, Value)> {
    let k = config.max_coef;
    let d = config.degree;
    Some(match kind {
        "substitution" => {
            let a = rng.range_i64(-5, 5);
            let (num, den) = (random_poly(rng, d, k), random_poly(rng, d, k));
            let den_at = eval(&den, &int(a));
            if den_at.is_zero() {
                return None;
            }
            let value = eval(&num, &int(a)) / den_at;
            (a.to_string(), frac(&num, &den), Value::Rational(value))
        }
        "removable" => {
            let a = nonzero(rng, 5);
            let (f, g) = (
                random_poly(rng, d.saturating_sub(1).max(1), k),
                random_poly(rng, d.saturating_sub(1).max(1), k),
            );
            let (fa, ga) = (eval(&f, &int(a)), eval(&g, &int(a)));
            if ga.is_zero() || fa.is_zero() {
                return None;
            }
            let factor = [-a, 1];
            let text = frac(&poly_mul(&factor, &f), &poly_mul(&factor, &g));
            (a.to_string(), text, Value::Rational(fa / ga))
        }
        "infinity" => {
            if d >= 2 && rng.chance(0.5) {
                // (a x^2 + b x + c)/(p x + q) - (a/p) x -> (b p - a q) / p^2.
                let (num, den) = (random_poly(rng, 2, k), random_poly(rng, 1, k));
                let slope = rat(num[2], den[1]);
                let value = rat(num[1] * den[1] - num[2] * den[0], den[1] * den[1]);
                let slope_text = if slope.is_one() {
                    "x".into()
                } else if slope == -BigRational::one() {
                    "(-x)".into()
                } else if slope.is_integer() {
                    format!("({}x)", latex_rational(&slope))
                } else {
                    format!("\\left({}\\right)x", latex_rational(&slope))
                };
                let text = format!("\\left({} - {slope_text}\\right)", frac(&num, &den));
                ("\\infty".to_string(), text, Value::Rational(value))
            } else {
                let (num, den) = (random_poly(rng, d, k), random_poly(rng, d, k));
                let value = rat(num[d], den[d]);
                (
                    "\\infty".to_string(),
                    frac(&num, &den),
                    Value::Rational(value),
                )
            }
        }
        _ => {
            let template = rng.range_usize(0, TEMPLATES - 1);
            let (a, b, c) = (nonzero(rng, k), nonzero(rng, k), nonzero(rng, k));
            if template == 3 && a == b {
                return None;
            }
            let (point, text, value) = transcendental(template, a, b, c);
            (point.to_string(), text, value)
        }
    })
}

impl Family for LimitsFamily {
    type Config = LimitsConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/limits-v1",
        kind: EnvKind::SingleTurn,
        description: "Finite limits of rational functions (at a point or at infinity) and standard transcendental limits; answer a fraction or a power of e",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: substitution, then 0/0 forms and
    /// limits at infinity, then all kinds (the default), then higher
    /// degrees, larger coefficients and transcendental limits.
    const LEVELS: &'static [&'static str] = &[
        r#"{"kinds":["substitution"],"max_coef":5,"degree":1}"#,
        r#"{"kinds":["substitution","removable"],"max_coef":5,"degree":2}"#,
        r#"{"kinds":["removable","infinity"],"max_coef":9,"degree":2}"#,
        "{}",
        r#"{"kinds":["removable","infinity","transcendental"],"max_coef":9,"degree":3}"#,
        r#"{"kinds":["removable","transcendental"],"max_coef":12,"degree":3}"#,
        r#"{"kinds":["transcendental"],"max_coef":12,"degree":3}"#,
    ];

    /// The method's weight (2 for a rational function, 8 for a
    /// transcendental limit, whose rule must be recognised) times the digits
    /// the limit is written with.
    fn effort(task: &MathTask) -> Option<f64> {
        let q = &task.question;
        let weight = if ["\\sin", "\\cos", "\\tan", "\\ln", "e^{"]
            .iter()
            .any(|f| q.contains(f))
        {
            8.0
        } else {
            2.0
        };
        let span = super::effort::math_spans(q).into_iter().next()?;
        let digits = span.chars().filter(char::is_ascii_digit).count() as f64;
        Some(weight * digits)
    }

    fn validate(config: &LimitsConfig) -> Result<(), ConfigError> {
        if config.kinds.is_empty() || config.kinds.iter().any(|k| !KINDS.contains(&k.as_str())) {
            return Err(
                "kinds must be a non-empty subset of substitution, removable, infinity, transcendental"
                    .into(),
            );
        }
        if !(2..=12).contains(&config.max_coef) {
            return Err("max_coef must be in 2..=12".into());
        }
        if !(1..=3).contains(&config.degree) {
            return Err("degree must be in 1..=3".into());
        }
        Ok(())
    }

    fn draw(config: &LimitsConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = rng.choose(&config.kinds)?.clone();
        let (point, text, value) = draw_kind(&kind, config, rng)?;
        let (answer, form) = match value {
            Value::Rational(q) => (latex_rational(&q), Form::Number),
            Value::ExpOf(q) if q.is_zero() => return None,
            Value::ExpOf(q) => (format!("e^{{{}}}", latex_rational(&q)), Form::Values),
        };
        Some(MathTask {
            question: format!(
                "Find $\\lim_{{x \\to {point}}} {text}$. The limit is finite; give its exact value (an integer, a fraction, or a power of $e$)."
            ),
            answer,
            form,
        })
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
