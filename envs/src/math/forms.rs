//! The shapes a math answer must have besides its value ([`Form`]), and
//! the exact-decimal rule: boxing the question itself (`\boxed{3/4 + 2/5}`,
//! `\boxed{(x+1)(x-2)}` for an expansion) or a rounded decimal never counts
//! as the answer.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde::{Deserialize, Serialize};
use verigym_verifiers::math::{Expr, RelOp};

/// What shape the boxed answer must have, besides being equal to the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// One number: an integer, decimal or fraction (optionally `x = …`).
    Number,
    /// A polynomial with no product or power of a sum and no variable in a denominator.
    Expanded,
    /// A product of factors of degree at most one (powers allowed).
    Factored,
    /// An interval or a union of intervals.
    Interval,
    /// A tuple of numbers.
    Tuple,
    /// A matrix of numbers.
    Matrix,
    /// A set or list of values (radicals allowed).
    Values,
    /// Any polynomial expression (expanded or not).
    Polynomial,
    /// A rational function whose numerator and denominator degrees, as
    /// written, sum to at most `degree` (so an uncancelled form fails).
    Reduced { degree: u32 },
    /// `p_1^{k_1} \cdot p_2^{k_2} \cdots` with every `p_i` prime.
    PrimeFactors,
    /// A set or list of integer pairs, none repeated (a lone pair is one pair).
    Pairs,
    /// A complex number `a + bi` with rational `a` and `b` (either may be
    /// absent; `\frac{a + bi}{d}` too), no product or power left to work out.
    Complex,
    /// A rational multiple of one square root of an integer: `5`, `2\sqrt{3}`,
    /// `\frac{\sqrt{13}}{2}`.
    Surd,
}

/// The verifier compares decimals after rounding (to 6 places); a reward for
/// exact answers must not pay a rounded one. A decimal literal in the answer
/// is accepted only where the form holds plain numbers and only when it is
/// exactly the reference value (`0.5` for `\frac{1}{2}`, never `0.333333`).
pub(crate) fn decimals_exact(gold: &str, form: &Form, pred: &Expr) -> bool {
    let mut decimal = false;
    pred.walk(&mut |n| {
        decimal |= matches!(
            n,
            Expr::Num {
                decimals: Some(_),
                ..
            }
        )
    });
    if !decimal {
        return true;
    }
    if !matches!(form, Form::Number | Form::Tuple | Form::Matrix) {
        return false;
    }
    let Ok(gold) = verigym_verifiers::math::parse_expr(gold) else {
        return false;
    };
    match (numbers(&gold), numbers(pred)) {
        (Some(g), Some(p)) => g == p,
        _ => false,
    }
}

/// The exact values of a number, `x = number`, or a tuple or matrix of numbers.
fn numbers(e: &Expr) -> Option<Vec<BigRational>> {
    fn value(e: &Expr) -> Option<BigRational> {
        match e {
            Expr::Num { value, .. } => Some(value.clone()),
            Expr::Neg(a) => Some(-value(a)?),
            Expr::Div(a, b) => {
                let d = value(b)?;
                (!d.is_zero()).then(|| value(a).map(|n| n / d))?
            }
            _ => None,
        }
    }
    match e {
        Expr::Tuple(xs) => xs.iter().map(value).collect(),
        Expr::Matrix(rows) => rows.iter().flatten().map(value).collect(),
        Expr::Rel { items, ops } if ops == &[RelOp::Eq] && items.len() == 2 => numbers(&items[1]),
        other => Some(vec![value(other)?]),
    }
}

fn is_number(e: &Expr) -> bool {
    match e {
        Expr::Num { .. } => true,
        Expr::Neg(a) => is_number(a),
        // `42\%`: a number with its percent sign (the verifier compares the value).
        Expr::Percent(a, true) => is_number(a),
        Expr::Div(a, b) => is_number(a) && is_number(b),
        _ => false,
    }
}

fn has_var(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= matches!(n, Expr::Sym(_)));
    found
}

fn is_sum(e: &Expr) -> bool {
    match e {
        Expr::Add(..) | Expr::Sub(..) => true,
        Expr::Neg(a) => is_sum(a),
        _ => false,
    }
}

fn has_sum(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= is_sum(n));
    found
}

fn expanded(e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |n| match n {
        Expr::Mul(a, b) => ok &= !(has_sum(a) && has_var(a) || has_sum(b) && has_var(b)),
        Expr::Pow(a, b) => ok &= !has_sum(a) && !has_var(b),
        Expr::Div(_, b) => ok &= !has_var(b),
        Expr::Num { .. } | Expr::Sym(_) | Expr::Neg(_) | Expr::Add(..) | Expr::Sub(..) => {}
        _ => ok = false,
    });
    ok
}

/// Polynomial degree of an expression in its variables, `None` if not a polynomial.
fn degree(e: &Expr) -> Option<u32> {
    Some(match e {
        Expr::Num { .. } => 0,
        Expr::Sym(_) => 1,
        Expr::Neg(a) => degree(a)?,
        Expr::Add(a, b) | Expr::Sub(a, b) => degree(a)?.max(degree(b)?),
        Expr::Mul(a, b) => degree(a)? + degree(b)?,
        Expr::Div(a, b) if !has_var(b) => degree(a)?,
        Expr::Pow(a, b) => match &**b {
            Expr::Num { value, .. } if value.is_integer() && !value.is_negative() => {
                let n: u32 = value.to_integer().try_into().ok()?;
                degree(a)?.checked_mul(n)?
            }
            _ => return None,
        },
        _ => return None,
    })
}

/// `(numerator degree, denominator degree)` of a rational expression as written.
fn rational_degree(e: &Expr) -> Option<(u32, u32)> {
    Some(match e {
        Expr::Num { .. } => (0, 0),
        Expr::Sym(_) => (1, 0),
        Expr::Neg(a) => rational_degree(a)?,
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            ((n1 + d2).max(n2 + d1), d1 + d2)
        }
        Expr::Mul(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            (n1 + n2, d1 + d2)
        }
        Expr::Div(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            (n1 + d2, d1 + n2)
        }
        Expr::Pow(a, b) => match &**b {
            Expr::Num { value, .. } if value.is_integer() => {
                let k: i64 = value.to_integer().try_into().ok()?;
                let (n, d) = rational_degree(a)?;
                let k32 = u32::try_from(k.unsigned_abs()).ok()?.min(64);
                if k >= 0 {
                    (n * k32, d * k32)
                } else {
                    (d * k32, n * k32)
                }
            }
            _ => return None,
        },
        _ => return None,
    })
}

fn factored(e: &Expr) -> bool {
    fn factors<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match e {
            Expr::Mul(a, b) => {
                factors(a, out);
                factors(b, out);
            }
            Expr::Neg(a) => factors(a, out),
            Expr::Pow(a, _) => out.push(a),
            other => out.push(other),
        }
    }
    let mut list = Vec::new();
    factors(e, &mut list);
    degree(e).is_some() && list.iter().all(|f| degree(f).is_some_and(|d| d <= 1))
}

fn prime_factors(e: &Expr) -> bool {
    fn prime(e: &Expr) -> bool {
        match e {
            Expr::Num {
                value,
                decimals: None,
            } if value.is_integer() => {
                let n = value.to_integer();
                n > BigInt::one() && n < BigInt::from(1u64 << 40) && {
                    let n: u64 = n.try_into().unwrap_or(0);
                    (2..)
                        .take_while(|d| d * d <= n)
                        .all(|d| !n.is_multiple_of(d))
                }
            }
            _ => false,
        }
    }
    match e {
        Expr::Mul(a, b) => prime_factors(a) && prime_factors(b),
        Expr::Pow(a, b) => {
            prime(a)
                && matches!(&**b, Expr::Num { value, decimals: None } if value.is_integer() && value.is_positive())
        }
        other => prime(other),
    }
}

/// Whether a parsed answer has the shape `form` asks for.
pub fn form_holds(form: &Form, e: &Expr) -> bool {
    match form {
        Form::Number => match e {
            Expr::Rel { items, ops } => {
                ops == &[RelOp::Eq] && matches!(items[0], Expr::Sym(_)) && is_number(&items[1])
            }
            other => is_number(other),
        },
        Form::Expanded => expanded(e),
        Form::Factored => factored(e),
        // `(a, b)` parses as a pair; the verifier reads it as the open interval.
        Form::Interval => {
            matches!(e, Expr::Interval { .. } | Expr::Union(_))
                || matches!(e, Expr::Tuple(xs) if xs.len() == 2)
        }
        Form::Tuple => matches!(e, Expr::Tuple(xs) if xs.iter().all(is_number)),
        Form::Matrix => matches!(e, Expr::Matrix(rows) if rows.iter().flatten().all(is_number)),
        Form::Values => !has_var(e),
        Form::Polynomial => degree(e).is_some(),
        Form::Reduced { degree } => rational_degree(e).is_some_and(|(n, d)| n + d <= *degree),
        Form::PrimeFactors => prime_factors(e),
        Form::Pairs => distinct_pairs(e),
        Form::Complex => complex_parts(e).is_some(),
        Form::Surd => surd(e),
    }
}

fn integer(e: &Expr) -> Option<BigInt> {
    match e {
        Expr::Num {
            value,
            decimals: None,
        } if value.is_integer() => Some(value.to_integer()),
        Expr::Neg(a) => integer(a).map(|n| -n),
        _ => None,
    }
}

fn distinct_pairs(e: &Expr) -> bool {
    let items = match e {
        Expr::Set(xs) | Expr::List(xs) => xs.as_slice(),
        Expr::Tuple(_) => std::slice::from_ref(e),
        _ => return false,
    };
    let pairs: Option<Vec<(BigInt, BigInt)>> = items
        .iter()
        .map(|p| match p {
            Expr::Tuple(xs) if xs.len() == 2 => Some((integer(&xs[0])?, integer(&xs[1])?)),
            _ => None,
        })
        .collect();
    pairs.is_some_and(|mut ps| {
        let n = ps.len();
        ps.sort();
        ps.dedup();
        ps.len() == n
    })
}

fn is_unit_i(e: &Expr) -> bool {
    matches!(e, Expr::Sym(s) if s == "i")
}

/// A real number or an imaginary term `bi`: `(real, imaginary)` term counts.
fn complex_term(e: &Expr) -> Option<(u8, u8)> {
    match e {
        _ if is_number(e) => Some((1, 0)),
        _ if is_unit_i(e) => Some((0, 1)),
        Expr::Neg(a) => complex_term(a),
        Expr::Mul(a, b) if is_number(a) && is_unit_i(b) || is_unit_i(a) && is_number(b) => {
            Some((0, 1))
        }
        Expr::Div(a, b) if is_number(b) => complex_term(a).filter(|&t| t == (0, 1)),
        _ => None,
    }
}

/// `(real, imaginary)` term counts of `a + bi`, at most one of each.
fn complex_parts(e: &Expr) -> Option<(u8, u8)> {
    let (re, im) = match e {
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let ((r1, i1), (r2, i2)) = (complex_term(a)?, complex_term(b)?);
            (r1 + r2, i1 + i2)
        }
        Expr::Div(a, b) if is_number(b) && matches!(&**a, Expr::Add(..) | Expr::Sub(..)) => {
            complex_parts(a)?
        }
        Expr::Neg(a) if matches!(&**a, Expr::Add(..) | Expr::Sub(..)) => return None,
        other => complex_term(other)?,
    };
    (re <= 1 && im <= 1).then_some((re, im))
}

fn surd(e: &Expr) -> bool {
    fn root(e: &Expr) -> bool {
        match e {
            Expr::Func(verigym_verifiers::math::Func::Sqrt, a) => is_number(a),
            _ => false,
        }
    }
    fn times_root(e: &Expr) -> bool {
        match e {
            Expr::Neg(a) => times_root(a),
            Expr::Mul(a, b) => is_number(a) && root(b) || root(a) && is_number(b),
            other => root(other),
        }
    }
    match e {
        _ if is_number(e) => true,
        Expr::Neg(a) => surd(a),
        Expr::Div(a, b) => is_number(b) && times_root(a),
        other => times_root(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_verifiers::math::parse_expr;

    fn holds(form: Form, text: &str) -> bool {
        form_holds(&form, &parse_expr(text).unwrap())
    }

    #[test]
    fn forms_accept_their_shapes_only() {
        assert!(holds(Form::Number, "-\\frac{7}{3}"));
        assert!(holds(Form::Number, "0.75"));
        assert!(holds(Form::Number, "x = 4"));
        assert!(!holds(Form::Number, "3/4 + 2/5"));
        assert!(holds(Form::Expanded, "x^2 + 2x + 1"));
        assert!(holds(Form::Expanded, "2 \\cdot x^{3} - \\frac{x}{2}"));
        assert!(!holds(Form::Expanded, "(x+1)^2"));
        assert!(!holds(Form::Expanded, "(x+1)(x-1)"));
        assert!(holds(Form::Factored, "(x+1)(x-2)"));
        assert!(holds(Form::Factored, "-2(x+1)^{2}(3x-2)"));
        assert!(!holds(Form::Factored, "x^2 - x - 2"));
        assert!(holds(Form::PrimeFactors, "2^{3} \\cdot 3 \\cdot 7"));
        assert!(!holds(Form::PrimeFactors, "168"));
        assert!(!holds(Form::PrimeFactors, "4 \\cdot 42"));
        assert!(holds(Form::Interval, "(-\\infty, 3]"));
        assert!(holds(Form::Tuple, "(1, -2)"));
        assert!(holds(Form::Pairs, "\\{(0, 6), (5, 3)\\}"));
        assert!(holds(Form::Pairs, "(0, 6), (5, -3)"));
        assert!(!holds(Form::Pairs, "\\{(0, 6), (5, 3), (0, 6)\\}"));
        assert!(!holds(Form::Pairs, "\\{(0, 6, 1)\\}"));
        assert!(!holds(Form::Pairs, "\\{(\\frac{1}{2}, 6)\\}"));
        assert!(holds(Form::Complex, "3 - 4i"));
        assert!(holds(Form::Complex, "-\\frac{3}{5} + \\frac{4}{5}i"));
        assert!(holds(Form::Complex, "\\frac{-3 + 4i}{5}"));
        assert!(holds(Form::Complex, "-i"));
        assert!(holds(Form::Complex, "7"));
        assert!(!holds(Form::Complex, "(1 + i)^{2}"));
        assert!(!holds(Form::Complex, "(1 + i)(2 - i)"));
        assert!(!holds(Form::Complex, "1 + 2i + 3i"));
        assert!(holds(Form::Surd, "2\\sqrt{13}"));
        assert!(holds(Form::Surd, "\\frac{\\sqrt{130}}{5}"));
        assert!(holds(Form::Surd, "\\frac{3}{4}"));
        assert!(!holds(Form::Surd, "\\sqrt{3^2 + 4^2}"));
        assert!(!holds(Form::Surd, "|3 + 4i|"));
    }
}
