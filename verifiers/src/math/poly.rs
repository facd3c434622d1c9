//! Canonical forms of polynomials and rational functions over exact rationals.
//!
//! Two expressions that are both rational functions of their variables (sums,
//! products, quotients and integer powers of rationals and variables) are equal
//! exactly when `n₁·d₂ = n₂·d₁` as polynomials: a decision with no sample points,
//! no precision and no probability. `\frac{x^2-1}{x-1}` equals `x+1` (the usual
//! convention for a removable singularity); `(x+1)^2` and `x^2+2x+1` are equal;
//! `x^2+1` and `x^2+2` are not. Anything else (radicals, functions, `π`, the
//! imaginary unit) returns `None` and is compared at sample points instead.
//!
//! Work is bounded: at most [`MAX_TERMS`] terms per polynomial, exponents up to
//! [`MAX_EXPONENT`], and a cap on the coefficient size; past a cap the form is
//! abandoned (`None`), never approximated.

use super::ast::Expr;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// Most terms in one polynomial.
const MAX_TERMS: usize = 300;
/// Largest integer exponent expanded.
const MAX_EXPONENT: u64 = 64;
/// Most multiplications of terms in one comparison.
const MAX_WORK: u64 = 20_000;
/// Largest coefficient size, in bits of numerator plus denominator.
const MAX_COEFF_BITS: u64 = 1_000;

/// A polynomial: exponent vector (one entry per variable) → coefficient, no zero
/// coefficients stored.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Poly(BTreeMap<Vec<u32>, BigRational>);

/// `num / den` with `den` not the zero polynomial.
struct RatFn {
    num: Poly,
    den: Poly,
}

struct Builder<'v> {
    vars: &'v [String],
    work: u64,
}

impl Poly {
    fn constant(c: BigRational, n: usize) -> Poly {
        let mut m = BTreeMap::new();
        if !c.is_zero() {
            m.insert(vec![0; n], c);
        }
        Poly(m)
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
}

impl Builder<'_> {
    fn n(&self) -> usize {
        self.vars.len()
    }

    fn check(&self, p: Poly) -> Option<Poly> {
        let big =
            p.0.values()
                .any(|c| c.numer().bits() + c.denom().bits() > MAX_COEFF_BITS);
        (p.0.len() <= MAX_TERMS && !big).then_some(p)
    }

    fn add(&mut self, a: &Poly, b: &Poly, negate_b: bool) -> Option<Poly> {
        self.work += (a.0.len() + b.0.len()) as u64;
        if self.work > MAX_WORK {
            return None;
        }
        let mut m = a.0.clone();
        for (k, v) in &b.0 {
            let v = if negate_b { -v.clone() } else { v.clone() };
            let e = m.entry(k.clone()).or_insert_with(BigRational::zero);
            *e += v;
            if e.is_zero() {
                m.remove(k);
            }
        }
        self.check(Poly(m))
    }

    fn mul(&mut self, a: &Poly, b: &Poly) -> Option<Poly> {
        self.work += (a.0.len() * b.0.len()) as u64;
        if self.work > MAX_WORK {
            return None;
        }
        let mut m: BTreeMap<Vec<u32>, BigRational> = BTreeMap::new();
        for (ka, va) in &a.0 {
            for (kb, vb) in &b.0 {
                let k: Vec<u32> = ka.iter().zip(kb).map(|(x, y)| x + y).collect();
                let e = m.entry(k).or_insert_with(BigRational::zero);
                *e += va * vb;
            }
        }
        m.retain(|_, v| !v.is_zero());
        self.check(Poly(m))
    }

    fn pow(&mut self, base: &Poly, k: u64) -> Option<Poly> {
        let mut acc = Poly::constant(BigRational::one(), self.n());
        for _ in 0..k {
            acc = self.mul(&acc, base)?;
        }
        Some(acc)
    }

    fn ratfn(&mut self, e: &Expr) -> Option<RatFn> {
        let n = self.n();
        let whole = |p: Poly| {
            Some(RatFn {
                num: p,
                den: Poly::constant(BigRational::one(), n),
            })
        };
        match e {
            Expr::Num { value, .. } => whole(Poly::constant(value.clone(), n)),
            Expr::Sym(s) => {
                let i = self.vars.iter().position(|v| v == s)?;
                let mut k = vec![0; n];
                k[i] = 1;
                whole(Poly(BTreeMap::from([(k, BigRational::one())])))
            }
            Expr::Neg(a) => {
                let a = self.ratfn(a)?;
                let zero = Poly::constant(BigRational::zero(), n);
                Some(RatFn {
                    num: self.add(&zero, &a.num, true)?,
                    den: a.den,
                })
            }
            Expr::Add(a, b) | Expr::Sub(a, b) => {
                let (a, b) = (self.ratfn(a)?, self.ratfn(b)?);
                let sub = matches!(e, Expr::Sub(..));
                if a.den == b.den {
                    // A shared denominator stays single instead of being squared.
                    return Some(RatFn {
                        num: self.add(&a.num, &b.num, sub)?,
                        den: a.den,
                    });
                }
                let left = self.mul(&a.num, &b.den)?;
                let right = self.mul(&b.num, &a.den)?;
                Some(RatFn {
                    num: self.add(&left, &right, sub)?,
                    den: self.mul(&a.den, &b.den)?,
                })
            }
            Expr::Mul(a, b) => {
                let (a, b) = (self.ratfn(a)?, self.ratfn(b)?);
                Some(RatFn {
                    num: self.mul(&a.num, &b.num)?,
                    den: self.mul(&a.den, &b.den)?,
                })
            }
            Expr::Div(a, b) => {
                let (a, b) = (self.ratfn(a)?, self.ratfn(b)?);
                if b.num.is_zero() {
                    return None;
                }
                Some(RatFn {
                    num: self.mul(&a.num, &b.den)?,
                    den: self.mul(&a.den, &b.num)?,
                })
            }
            Expr::Pow(a, k) => {
                let Expr::Num { value, .. } = strip_neg_num(k)? else {
                    return None;
                };
                let negative = matches!(&**k, Expr::Neg(_)) != value.is_negative();
                if !value.is_integer() {
                    return None;
                }
                let k = value.to_integer().abs().to_u64()?;
                if k > MAX_EXPONENT {
                    return None;
                }
                let a = self.ratfn(a)?;
                let (num, den) = (self.pow(&a.num, k)?, self.pow(&a.den, k)?);
                if negative {
                    if num.is_zero() {
                        return None;
                    }
                    Some(RatFn { num: den, den: num })
                } else {
                    Some(RatFn { num, den })
                }
            }
            _ => None,
        }
    }
}

fn strip_neg_num(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Num { .. } => Some(e),
        Expr::Neg(a) if matches!(&**a, Expr::Num { .. }) => Some(a),
        _ => None,
    }
}

/// Whether `a` and `b` are the same rational function of `vars`; `None` when either
/// is not a rational function or a cap is hit.
pub(super) fn same_rational_function(a: &Expr, b: &Expr, vars: &[String]) -> Option<bool> {
    let mut builder = Builder { vars, work: 0 };
    let ra = builder.ratfn(a)?;
    let rb = builder.ratfn(b)?;
    if ra.den.is_zero() || rb.den.is_zero() {
        return None;
    }
    let left = builder.mul(&ra.num, &rb.den)?;
    let right = builder.mul(&rb.num, &ra.den)?;
    Some(left == right)
}

/// Whether `e` is a polynomial of degree at most one in `var` with exact rational
/// coefficients: `(slope, intercept)`.
pub(super) fn linear_in(e: &Expr, var: &str) -> Option<(BigRational, BigRational)> {
    let vars = [var.to_string()];
    let mut builder = Builder {
        vars: &vars,
        work: 0,
    };
    let r = builder.ratfn(e)?;
    let den = r.den.0.get(&vec![0])?;
    if r.den.0.len() != 1 {
        return None;
    }
    let mut slope = BigRational::zero();
    let mut intercept = BigRational::zero();
    for (k, c) in &r.num.0 {
        match k[0] {
            0 => intercept = c / den,
            1 => slope = c / den,
            _ => return None,
        }
    }
    Some((slope, intercept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::parse_expr;
    use num_bigint::BigInt;

    fn int(n: i64) -> BigRational {
        BigRational::from_integer(BigInt::from(n))
    }

    fn same(a: &str, b: &str) -> Option<bool> {
        let (a, b) = (parse_expr(a).unwrap(), parse_expr(b).unwrap());
        let mut vars = Vec::new();
        crate::math::eval::free_vars(&a, &mut vars);
        crate::math::eval::free_vars(&b, &mut vars);
        same_rational_function(&a, &b, &vars)
    }

    #[test]
    fn decides_rational_functions() {
        assert_eq!(same("(x+1)^2", "x^2+2x+1"), Some(true));
        assert_eq!(same("\\frac{x^2-1}{x-1}", "x+1"), Some(true));
        assert_eq!(same("x^2+1", "x^2+2"), Some(false));
        assert_eq!(
            same("\\frac{1}{x}+\\frac{1}{y}", "\\frac{x+y}{xy}"),
            Some(true)
        );
        assert_eq!(same("x^{-2}", "\\frac{1}{x^2}"), Some(true));
        assert_eq!(same("0.5x", "\\frac{x}{2}"), Some(true));
        assert_eq!(same("\\sqrt{x}", "x"), None);
        assert_eq!(
            same("(x+y)^{100}", "(y+x)^{100}"),
            None,
            "over the term cap"
        );
        assert_eq!(
            linear_in(&parse_expr("2x-3").unwrap(), "x"),
            Some((int(2), int(-3)))
        );
    }
}
