//! Writing math tasks: LaTeX for exact numbers and polynomials, and the
//! small number helpers the generators share.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::rng::Rng;

/// `12`, `-\frac{7}{3}`.
pub fn latex_rational(q: &BigRational) -> String {
    if q.is_integer() {
        return q.numer().to_string();
    }
    let sign = if q.is_negative() { "-" } else { "" };
    format!("{sign}\\frac{{{}}}{{{}}}", q.numer().abs(), q.denom())
}

pub fn rat(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

pub fn int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// A polynomial in `var` from coefficients, lowest degree first: `3x^{2} - x + \frac{1}{2}`.
pub fn latex_poly(coeffs: &[BigRational], var: &str) -> String {
    let mut out = String::new();
    for (k, c) in coeffs.iter().enumerate().rev() {
        if c.is_zero() {
            continue;
        }
        let magnitude = c.abs();
        let sign = match (out.is_empty(), c.is_negative()) {
            (true, true) => "-",
            (true, false) => "",
            (false, true) => " - ",
            (false, false) => " + ",
        };
        let coef = if k > 0 && magnitude.is_one() {
            String::new()
        } else {
            latex_rational(&magnitude)
        };
        let power = match k {
            0 => String::new(),
            1 => var.to_string(),
            _ => format!("{var}^{{{k}}}"),
        };
        out.push_str(&format!("{sign}{coef}{power}"));
    }
    if out.is_empty() { "0".into() } else { out }
}

/// [`latex_poly`] over integer coefficients.
pub fn latex_poly_i(coeffs: &[i64], var: &str) -> String {
    latex_poly(&coeffs.iter().map(|&c| int(c)).collect::<Vec<_>>(), var)
}

/// The product of two polynomials (coefficients lowest first).
pub fn poly_mul(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut out = vec![0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// `(2x - 3)` for the linear factor `a x + b`.
pub fn linear_factor(a: i64, b: i64, var: &str) -> String {
    format!("({})", latex_poly_i(&[b, a], var))
}

/// A non-zero integer in `-hi..=hi`.
pub fn nonzero(rng: &mut Rng, hi: i64) -> i64 {
    loop {
        let v = rng.range_i64(-hi, hi);
        if v != 0 {
            return v;
        }
    }
}

/// `+ 3` / `- 3` for writing `x + 3` from a signed term.
pub fn signed(v: i64) -> String {
    if v < 0 {
        format!("- {}", -v)
    } else {
        format!("+ {v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_helpers_write_canonical_forms() {
        assert_eq!(latex_poly_i(&[-6, -1, 1], "x"), "x^{2} - x - 6");
        assert_eq!(
            latex_poly(&[rat(1, 2), int(0), int(-3)], "x"),
            "-3x^{2} + \\frac{1}{2}"
        );
        assert_eq!(latex_rational(&rat(-14, 6)), "-\\frac{7}{3}");
    }
}
