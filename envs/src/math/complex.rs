//! `math/complex-v1`: complex arithmetic and moduli, in exact form.
//!
//! # Task
//! A product `(a + bi)(c + di)`, a quotient `\frac{a + bi}{c + di}` or a
//! power `(a + bi)^n` of Gaussian integers, to write as `x + yi` with exact
//! rational `x` and `y`; or the modulus `|z|` of such a product or quotient,
//! as an exact surd (`5`, `2\sqrt{13}`, `\frac{\sqrt{130}}{5}`).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds `x + yi` (either part may
//! be omitted when it is zero; `\frac{x + yi}{d}` too) or, for a modulus, a
//! rational multiple of one square root.
//!
//! # Observation
//! The expression in LaTeX and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed value equals the result exactly (the
//! verifier evaluates `i` as the imaginary unit), else 0. The expression
//! itself, or anything with a product or power left to work out, is not the
//! asked form and fails. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kind` (`product`, `quotient`, `power`, `modulus` or `mixed`),
//! `max_part` (2–99, the largest real or imaginary part of an operand),
//! `max_power` (2–12).
//!
//! # Seeding
//! Operands have non-zero real and imaginary parts. Results 0, ±1 and 2,
//! and results written in the question, are redrawn.
//!
//! # Version history
//! v1: first version.

use num_rational::Ratio;
use num_traits::{One, Signed, Zero};
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::nonzero;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::digits::{push_i128, push_u64};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ComplexConfig {
    pub kind: String,
    pub max_part: i64,
    pub max_power: u32,
}

impl Default for ComplexConfig {
    fn default() -> Self {
        ComplexConfig {
            kind: "mixed".into(),
            max_part: 12,
            max_power: 5,
        }
    }
}

pub struct ComplexFamily;
pub type Complex = MathEnv<ComplexFamily>;

/// An exact complex number `re + im·i`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cx {
    pub re: Q,
    pub im: Q,
}

/// An exact rational on machine integers. Every value the generator makes
/// fits with room to spare: operand parts are at most 99, a power's base
/// part at most 33 with exponent at most 12 (|z|^12 < 10^21), and quotients
/// and moduli of two operands stay below 10^9; i128 keeps the arithmetic
/// exact without the heap allocations of a big rational.
pub type Q = Ratio<i128>;

impl Cx {
    pub fn int(re: i64, im: i64) -> Cx {
        Cx {
            re: Q::from_integer(re.into()),
            im: Q::from_integer(im.into()),
        }
    }
    /// The integer parts `(a, b)` of a Gaussian integer `a + bi`.
    fn gaussian(&self) -> Option<(i128, i128)> {
        (self.re.is_integer() && self.im.is_integer()).then(|| (*self.re.numer(), *self.im.numer()))
    }

    pub fn mul(&self, o: &Cx) -> Cx {
        // Products and powers of Gaussian integers, most of what the
        // generator computes, need no rational reduction.
        if let (Some((a, b)), Some((c, d))) = (self.gaussian(), o.gaussian()) {
            return Cx {
                re: Q::from_integer(a * c - b * d),
                im: Q::from_integer(a * d + b * c),
            };
        }
        Cx {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
    pub fn norm(&self) -> Q {
        if let Some((a, b)) = self.gaussian() {
            return Q::from_integer(a * a + b * b);
        }
        self.re * self.re + self.im * self.im
    }
    pub fn div(&self, o: &Cx) -> Cx {
        let n = o.norm();
        let p = self.mul(&Cx {
            re: o.re,
            im: -o.im,
        });
        Cx {
            re: p.re / n,
            im: p.im / n,
        }
    }
    pub fn pow(&self, n: u32) -> Cx {
        (0..n).fold(Cx::int(1, 0), |acc, _| acc.mul(self))
    }
}

/// `q` in LaTeX: an integer, or `\frac{p}{q}` with the sign in front (the
/// spelling of [`super::latex::latex_rational`]).
pub fn latex_rational(q: &Q) -> String {
    let mut text = String::with_capacity(16);
    push_rational(&mut text, q);
    text
}

/// `x + yi` in LaTeX, with zero parts left out.
pub fn latex_cx(z: &Cx) -> String {
    let mut text = String::with_capacity(24);
    push_cx(&mut text, z);
    text
}

// The writers append to one buffer: a task writes up to five numbers, and a
// `format!` per piece cost more than the arithmetic.

fn push_rational(text: &mut String, q: &Q) {
    if q.is_integer() {
        return push_i128(text, *q.numer());
    }
    if q.is_negative() {
        text.push('-');
    }
    text.push_str("\\frac{");
    push_i128(text, q.numer().abs());
    text.push_str("}{");
    push_i128(text, *q.denom());
    text.push('}');
}

fn push_cx(text: &mut String, z: &Cx) {
    // `|y|i`, with a coefficient of one left out.
    let push_imaginary = |text: &mut String, y: &Q| {
        let magnitude = y.abs();
        if !magnitude.is_one() {
            push_rational(text, &magnitude);
        }
        text.push('i');
    };
    match (z.re.is_zero(), z.im.is_zero()) {
        (_, true) => push_rational(text, &z.re),
        (true, false) => {
            if z.im.is_negative() {
                text.push('-');
            }
            push_imaginary(text, &z.im);
        }
        (false, false) => {
            push_rational(text, &z.re);
            text.push_str(if z.im.is_negative() { " - " } else { " + " });
            push_imaginary(text, &z.im);
        }
    }
}

/// `a + bi` for integer parts.
fn push_gaussian(text: &mut String, (a, b): (i64, i64)) {
    push_cx(text, &Cx::int(a, b));
}

/// `(k, m)` with `n = k²·m` and `m` square-free.
pub fn split_square(mut m: u64) -> (u64, u64) {
    let mut k = 1;
    let mut p = 2;
    while p * p <= m {
        while m.is_multiple_of(p * p) {
            m /= p * p;
            k *= p;
        }
        p += 1;
    }
    (k, m)
}

/// The square root of a non-negative rational `q` as `\frac{k\sqrt{m}}{d}`, simplified.
pub fn latex_sqrt(q: &Q) -> Option<String> {
    // sqrt(N/D) = sqrt(N·D)/D
    let nd = u64::try_from(q.numer().checked_mul(*q.denom())?).ok()?;
    let (k, m) = split_square(nd);
    let coef = Q::new(k.into(), *q.denom());
    let mut text = String::with_capacity(24);
    if m == 1 {
        push_rational(&mut text, &coef);
        return Some(text);
    }
    let fraction = !coef.is_integer();
    if fraction {
        text.push_str("\\frac{");
    }
    if !coef.numer().is_one() {
        push_i128(&mut text, *coef.numer());
    }
    text.push_str("\\sqrt{");
    push_u64(&mut text, m);
    text.push('}');
    if fraction {
        text.push_str("}{");
        push_i128(&mut text, *coef.denom());
        text.push('}');
    }
    Some(text)
}

const FORM_NOTE: &str = "Write the result in the form $a + bi$ with $a$ and $b$ exact (integers or fractions in lowest terms).";

fn operand(rng: &mut Rng, k: i64) -> (i64, i64) {
    (nonzero(rng, k), nonzero(rng, k))
}

impl Family for ComplexFamily {
    type Config = ComplexConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/complex-v1",
        kind: EnvKind::SingleTurn,
        description: "Products, quotients and powers of complex numbers in exact form a + bi, and moduli as exact surds",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: all four kinds mixed, with larger
    /// parts and higher powers.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_part":4,"max_power":2}"#,
        r#"{"max_part":6,"max_power":3}"#,
        r#"{"max_part":9,"max_power":4}"#,
        "{}",
        r#"{"max_part":25,"max_power":6}"#,
        r#"{"max_part":50,"max_power":8}"#,
        r#"{"max_part":99,"max_power":12}"#,
    ];

    /// Digit operations: four digit-products per complex product (a
    /// conjugate product and two divisions more for a quotient), `n - 1`
    /// products of growing length for a power, and the squares and the
    /// square-root simplification for a modulus.
    fn effort(task: &MathTask) -> Option<f64> {
        let span = effort::math_spans(&task.question).into_iter().next()?;
        let numbers = effort::integers_in(span);
        let d = numbers
            .iter()
            .take(4)
            .map(|x| x.unsigned_abs().max(1).to_string().len() as f64)
            .fold(0.0, f64::max);
        let product = 4.0 * d * d + 4.0 * d;
        Some(if task.question.contains("modulus") {
            2.0 * product + 2.0 * d * d
        } else if span.contains("^{") {
            let n = *numbers.last()? as f64;
            (1..n as usize)
                .map(|k| 4.0 * k as f64 * d * d + 4.0 * k as f64 * d)
                .sum()
        } else if span.contains("\\frac") {
            3.0 * product + 4.0 * d * d
        } else {
            product
        })
    }

    fn validate(config: &ComplexConfig) -> Result<(), ConfigError> {
        if !["product", "quotient", "power", "modulus", "mixed"].contains(&config.kind.as_str()) {
            return Err("kind must be product, quotient, power, modulus or mixed".into());
        }
        if !(2..=99).contains(&config.max_part) {
            return Err("max_part must be in 2..=99".into());
        }
        if !(2..=12).contains(&config.max_power) {
            return Err("max_power must be in 2..=12".into());
        }
        Ok(())
    }

    /// Answers come from `latex_cx` and `latex_sqrt`: one spelling per value.
    const CANONICAL_ANSWERS: bool = true;

    fn draw(config: &ComplexConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = match config.kind.as_str() {
            "mixed" => *rng.choose(&["product", "quotient", "power", "modulus"])?,
            other => other,
        };
        let k = config.max_part;
        let (z, w) = (operand(rng, k), operand(rng, k));
        let (zc, wc) = (Cx::int(z.0, z.1), Cx::int(w.0, w.1));
        // The question is written into one buffer; the rng draws come in
        // the order they always did, so tasks are unchanged.
        let mut question = String::with_capacity(320);
        let (answer, form) = match kind {
            "product" => {
                question.push_str("Compute $(");
                push_gaussian(&mut question, z);
                question.push_str(")(");
                push_gaussian(&mut question, w);
                question.push_str(")$. ");
                question.push_str(FORM_NOTE);
                (latex_cx(&zc.mul(&wc)), Form::Complex)
            }
            "quotient" => {
                question.push_str("Compute $\\frac{");
                push_gaussian(&mut question, z);
                question.push_str("}{");
                push_gaussian(&mut question, w);
                question.push_str("}$. ");
                question.push_str(FORM_NOTE);
                (latex_cx(&zc.div(&wc)), Form::Complex)
            }
            "power" => {
                let small = (k / 3).max(2);
                let z = operand(rng, small);
                let n = rng.range_i64(2, config.max_power.into()) as u32;
                question.push_str("Compute $(");
                push_gaussian(&mut question, z);
                question.push_str(")^{");
                push_u64(&mut question, n.into());
                question.push_str("}$. ");
                question.push_str(FORM_NOTE);
                (latex_cx(&Cx::int(z.0, z.1).pow(n)), Form::Complex)
            }
            _ => {
                question.push_str("Compute the modulus $|z|$ of $z = ");
                let value = if rng.chance(0.5) {
                    question.push('(');
                    push_gaussian(&mut question, z);
                    question.push_str(")(");
                    push_gaussian(&mut question, w);
                    question.push(')');
                    zc.mul(&wc)
                } else {
                    question.push_str("\\frac{");
                    push_gaussian(&mut question, z);
                    question.push_str("}{");
                    push_gaussian(&mut question, w);
                    question.push('}');
                    zc.div(&wc)
                };
                question.push_str(
                    "$. Give the exact value, simplified (an integer, a fraction, or a rational \
                     multiple of a square root such as $3\\sqrt{2}$).",
                );
                (latex_sqrt(&value.norm())?, Form::Surd)
            }
        };
        // Keep the answers short enough to write out. An `a + bi` answer over 40
        // bytes is redrawn too: the math verifier reads a plain one-line answer
        // whole only up to 40 bytes and in runs of math characters beyond, which
        // drop the `i`, so such a reference would not pass.
        if answer.len() > 400 || (form == Form::Complex && answer.len() > 40) {
            return None;
        }
        Some(MathTask {
            question,
            answer,
            form,
        })
    }
}

#[cfg(test)]
#[path = "complex_tests.rs"]
mod tests;
