//! Effort measures for the math difficulty scales (see [`crate::Env::effort`]):
//! the work a schoolbook solver does on a task. They are read back from the
//! task's text, so tasks (and their golden hashes) stay exactly as they were.
//!
//! Work is counted in digit operations: adding two integers costs the longer
//! one's digits, multiplying costs the product of their digit counts. That is
//! what makes `347 \times 29` harder than `3 + 4` although both answers are
//! short, and what characters of the reference answer miss.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use verigym_verifiers::math::{Expr, parse_expr};

/// Longest naive expansion (in terms) measured; beyond it the effort is unknown.
const MAX_TERMS: usize = 20_000;
/// Highest power expanded by repeated multiplication.
const MAX_POWER: u32 = 64;

/// The `$…$` spans of a question, in order.
pub fn math_spans(text: &str) -> Vec<&str> {
    text.split('$').skip(1).step_by(2).collect()
}

/// The integers written in `text` (a leading `-` included), in order.
pub fn integers_in(text: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == '-' && current.is_empty()) {
            current.push(c);
        } else {
            if let Ok(n) = current.parse() {
                out.push(n);
            }
            current.clear();
            if c == '-' {
                current.push(c);
            }
        }
    }
    out
}

/// Decimal digits of an integer (`0` has one).
pub fn digits(n: &BigInt) -> f64 {
    n.magnitude().to_string().len() as f64
}

/// Digits a rational is written with: numerator, plus the denominator when not 1.
pub fn rational_digits(q: &BigRational) -> f64 {
    let numer = digits(q.numer());
    if q.is_integer() {
        numer
    } else {
        numer + digits(q.denom())
    }
}

/// Evaluates an arithmetic expression exactly and counts the digit
/// operations a schoolbook evaluation spends: integer addition or
/// subtraction the longer operand's digits, fraction addition the cross
/// products, multiplication and division the product of the operands'
/// digits, a power its repeated multiplications. `None` for anything that is
/// not plain arithmetic on numbers.
pub fn schoolbook(e: &Expr) -> Option<(BigRational, f64)> {
    Some(match e {
        Expr::Num { value, .. } => (value.clone(), 0.0),
        Expr::Neg(a) => {
            let (v, w) = schoolbook(a)?;
            (-v, w)
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let ((x, wx), (y, wy)) = (schoolbook(a)?, schoolbook(b)?);
            let cost = if x.is_integer() && y.is_integer() {
                rational_digits(&x).max(rational_digits(&y))
            } else {
                rational_digits(&x) * rational_digits(&y)
            };
            let value = if matches!(e, Expr::Add(..)) {
                x + y
            } else {
                x - y
            };
            (value, wx + wy + cost)
        }
        Expr::Mul(a, b) | Expr::Div(a, b) => {
            let ((x, wx), (y, wy)) = (schoolbook(a)?, schoolbook(b)?);
            let cost = rational_digits(&x) * rational_digits(&y);
            let value = if matches!(e, Expr::Mul(..)) {
                x * y
            } else if y.is_zero() {
                return None;
            } else {
                x / y
            };
            (value, wx + wy + cost)
        }
        Expr::Pow(a, b) => {
            let ((x, wx), (n, wn)) = (schoolbook(a)?, schoolbook(b)?);
            let n = small_exponent(&n)?;
            let mut acc = BigRational::one();
            let mut work = wx + wn;
            for i in 0..n {
                if i > 0 {
                    work += rational_digits(&acc) * rational_digits(&x);
                }
                acc *= &x;
            }
            (acc, work)
        }
        _ => return None,
    })
}

fn small_exponent(n: &BigRational) -> Option<u32> {
    if !n.is_integer() || n.is_negative() {
        return None;
    }
    n.to_integer().to_u32().filter(|&k| k <= MAX_POWER)
}

/// [`schoolbook`] work of the arithmetic expression written in `latex`.
pub fn schoolbook_work(latex: &str) -> Option<f64> {
    schoolbook(&parse_expr(latex).ok()?).map(|(_, work)| work)
}

/// A naive expansion of a polynomial expression: the digit count of every
/// term it multiplies out to (before collecting like terms), and the digit
/// multiplications spent getting there. `None` for non-polynomials and for
/// expansions past [`MAX_TERMS`] terms.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    pub term_digits: Vec<f64>,
    pub work: f64,
}

impl Expansion {
    fn product(&self, other: &Expansion) -> Option<Expansion> {
        if self.term_digits.len() * other.term_digits.len() > MAX_TERMS {
            return None;
        }
        let mut work = self.work + other.work;
        let mut term_digits = Vec::new();
        for a in &self.term_digits {
            for b in &other.term_digits {
                work += a * b;
                term_digits.push(a + b);
            }
        }
        Some(Expansion { term_digits, work })
    }
}

/// Expands `e` naively (see [`Expansion`]).
pub fn expand(e: &Expr) -> Option<Expansion> {
    if !has_sum(e) {
        return Some(Expansion {
            term_digits: vec![rational_digits(&coefficient(e)?)],
            work: 0.0,
        });
    }
    match e {
        Expr::Neg(a) => expand(a),
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let (mut x, y) = (expand(a)?, expand(b)?);
            x.term_digits.extend(y.term_digits);
            x.work += y.work;
            Some(x)
        }
        Expr::Mul(a, b) => expand(a)?.product(&expand(b)?),
        Expr::Pow(a, n) => {
            let n = small_exponent(&coefficient(n)?)?;
            let base = expand(a)?;
            let mut acc = base.clone();
            for _ in 1..n {
                acc = acc.product(&base)?;
                // The base's own work is spent once, not once per factor.
                acc.work -= base.work;
            }
            Some(acc)
        }
        _ => None,
    }
}

/// [`expand`] of the polynomial written in `latex`.
pub fn expansion_of(latex: &str) -> Option<Expansion> {
    expand(&parse_expr(latex).ok()?)
}

fn has_sum(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= matches!(n, Expr::Add(..) | Expr::Sub(..)));
    found
}

/// The numeric coefficient of a monomial (`-3x^{2}` → -3).
fn coefficient(e: &Expr) -> Option<BigRational> {
    match e {
        Expr::Num { value, .. } => Some(value.clone()),
        Expr::Sym(_) => Some(BigRational::one()),
        Expr::Neg(a) => coefficient(a).map(|c| -c),
        Expr::Mul(a, b) => Some(coefficient(a)? * coefficient(b)?),
        Expr::Div(a, b) => {
            let d = coefficient(b)?;
            (!d.is_zero()).then_some(coefficient(a)? / d)
        }
        Expr::Pow(a, n) => match &**a {
            Expr::Sym(_) => Some(BigRational::one()),
            base => {
                let k = small_exponent(&coefficient(n)?)?;
                Some(num_traits::pow::Pow::pow(&coefficient(base)?, k))
            }
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schoolbook_counts_digit_operations() {
        // 3 + 4: one one-digit addition.
        assert_eq!(schoolbook_work("3 + 4"), Some(1.0));
        // 347 \times 29: 3 by 2 digits.
        assert_eq!(schoolbook_work("347 \\times 29"), Some(6.0));
        // (2)^{3}: two multiplications of one-digit numbers.
        assert_eq!(schoolbook_work("2^{3}"), Some(2.0));
        assert!(
            schoolbook_work("12 \\div 4 - 7 \\times 13").unwrap()
                > schoolbook_work("12 - 7").unwrap()
        );
        assert_eq!(schoolbook_work("x + 1"), None);
        assert_eq!(schoolbook_work("1 \\div 0"), None);
    }

    #[test]
    fn expansion_counts_term_products() {
        let monomial = expansion_of("-3x^{2}").unwrap();
        assert_eq!(monomial.term_digits, vec![1.0]);
        assert_eq!(monomial.work, 0.0);
        let sum = expansion_of("3x^{2} + 12x - 5").unwrap();
        assert_eq!(sum.term_digits, vec![1.0, 2.0, 1.0]);
        assert_eq!(sum.work, 0.0);
        // (x + 2)(x - 3): four one-digit products.
        let product = expansion_of("(x + 2)(x - 3)").unwrap();
        assert_eq!(product.term_digits.len(), 4);
        assert_eq!(product.work, 4.0);
        // A square is the product of the base with itself.
        assert_eq!(expansion_of("(x + 2)^{2}").unwrap(), product_of_same());
        assert!(expansion_of("\\sin(x) + 1").is_none());
    }

    fn product_of_same() -> Expansion {
        expansion_of("(x + 2)(x + 2)").unwrap()
    }

    #[test]
    fn integers_and_spans_are_read() {
        assert_eq!(integers_in("of 12, -18 and 30."), vec![12, -18, 30]);
        assert_eq!(
            math_spans("Let $f(x) = x$. Find $f'(x)$."),
            vec!["f(x) = x", "f'(x)"]
        );
    }
}
