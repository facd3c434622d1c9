//! The numeric domain: exact rationals where possible, otherwise a high-precision
//! rational approximation (about 60 digits, see [`super::hp`]) with a running bound on its
//! absolute error, so that "equal" is only claimed when the error is provably tiny
//! relative to the values (and "different" only when they are provably apart).

use super::hp;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Caps that keep exact arithmetic bounded.
pub const MAX_EXACT_BITS: u64 = 60_000;
pub const MAX_INT_EXPONENT: u64 = 20_000;
pub const MAX_FACTORIAL: u64 = 3_000;
/// Largest `k` in a binomial coefficient over a non-integer `n`.
const MAX_FALLING: u64 = 200;

/// Approximate values are "equal" only when the error bounds are below this fraction of
/// their magnitude: far below anything a rounded answer could hit by accident.
const EQUAL_REL_TOL: f64 = 1e-40;

#[derive(Clone, Debug)]
pub enum Num {
    Exact(BigRational),
    /// `|true value - v| <= err`.
    Approx {
        v: BigRational,
        err: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Equal,
    Different,
    Unknown,
}

/// Why a value could not be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undefined {
    /// Provably outside the domain: a division by exact zero, an even root or a
    /// logarithm of a number known to be negative. Two expressions of which only one
    /// is defined at a generic point have different domains.
    Domain,
    /// Too large, too close to a boundary to tell, or not supported.
    Unknown,
}

impl Undefined {
    /// Outside the domain when `a ± ea` lies wholly below zero (or is an exact
    /// zero where `zero_is_outside`), otherwise unknown.
    pub fn below_zero(a: f64, ea: f64, zero_is_outside: bool) -> Undefined {
        if a + ea < 0.0 || (zero_is_outside && a == 0.0 && ea == 0.0) {
            Undefined::Domain
        } else {
            Undefined::Unknown
        }
    }
}

pub type NResult = Result<Num, Undefined>;

fn bits(q: &BigRational) -> u64 {
    q.numer().bits() + q.denom().bits()
}

fn abs_f64(q: &BigRational) -> f64 {
    rational_to_f64(q).abs()
}

/// A rounded value with its error bound (rounding adds [`hp::ROUND_REL`] relative).
pub fn approx(v: BigRational, err: f64) -> NResult {
    let v = hp::trunc(v);
    let mag = abs_f64(&v);
    let err = err + mag * hp::ROUND_REL;
    if err.is_finite() && mag.is_finite() {
        Ok(Num::Approx { v, err })
    } else {
        Err(Undefined::Unknown)
    }
}

pub fn rational_to_f64(q: &BigRational) -> f64 {
    q.to_f64().unwrap_or(f64::NAN)
}

/// A short decimal rendering of a rational written with a decimal point.
pub fn rational_to_decimal_string(q: &BigRational) -> String {
    let f = rational_to_f64(q);
    if f.is_finite() {
        format!("{f}")
    } else {
        format!("{q}")
    }
}

impl Num {
    pub fn int(n: i64) -> Num {
        Num::Exact(BigRational::from_integer(BigInt::from(n)))
    }

    /// The value (exact or central) and its error bound.
    pub fn parts(&self) -> (&BigRational, f64) {
        match self {
            Num::Exact(q) => (q, 0.0),
            Num::Approx { v, err } => (v, *err),
        }
    }

    /// An f64 estimate of the value and the error bound, for derivative bounds.
    pub fn as_f64(&self) -> (f64, f64) {
        let (v, e) = self.parts();
        (rational_to_f64(v), e)
    }

    fn check(q: BigRational) -> NResult {
        if bits(&q) > MAX_EXACT_BITS {
            approx(q, 0.0)
        } else {
            Ok(Num::Exact(q))
        }
    }

    pub fn neg(self) -> NResult {
        match self {
            Num::Exact(q) => Ok(Num::Exact(-q)),
            Num::Approx { v, err } => Ok(Num::Approx { v: -v, err }),
        }
    }

    pub fn add(self, o: Num) -> NResult {
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            return Num::check(a + b);
        }
        let ((a, ea), (b, eb)) = (self.parts(), o.parts());
        approx(hp::add_raw(a, b), ea + eb)
    }

    pub fn sub(self, o: Num) -> NResult {
        self.add(o.neg()?)
    }

    pub fn mul(self, o: Num) -> NResult {
        if self.is_zero_exact() || o.is_zero_exact() {
            // Zero times anything finite is exactly zero, however rounded the other is.
            return Ok(Num::int(0));
        }
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            return Num::check(a * b);
        }
        let ((a, ea), (b, eb)) = (self.parts(), o.parts());
        let err = abs_f64(a) * eb + abs_f64(b) * ea + ea * eb;
        approx(hp::mul_raw(a, b), err)
    }

    pub fn div(self, o: Num) -> NResult {
        let ((a, ea), (b, eb)) = (self.parts(), o.parts());
        if b.is_zero() {
            return Err(match o {
                Num::Exact(_) => Undefined::Domain,
                Num::Approx { .. } => Undefined::Unknown,
            });
        }
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            return Num::check(a / b);
        }
        let bm = abs_f64(b);
        if bm <= 2.0 * eb {
            return Err(Undefined::Unknown);
        }
        let v = hp::div_raw(a, b);
        let err = (ea + abs_f64(&v) * eb) / (bm - eb);
        approx(v, err)
    }

    pub fn pow(self, e: Num) -> NResult {
        if let Num::Exact(q) = &e {
            if q.is_integer() {
                return self.powi(q.to_integer());
            }
            if let Num::Exact(b) = &self
                && let Some(r) = exact_rational_power(b, q)
            {
                return Ok(Num::Exact(r));
            }
            // Odd roots of negative numbers are real: (-8)^(1/3) = -2.
            if self.parts().0.is_negative() && !(q.denom() % BigInt::from(2)).is_zero() {
                let odd_num = !(q.numer() % BigInt::from(2)).is_zero();
                let pos = self.neg()?.pow(e)?;
                return if odd_num { pos.neg() } else { Ok(pos) };
            }
            // x^(1/n) by an n-th root keeps full precision.
            if q.numer().is_one()
                && let Some(n) = q.denom().to_u32()
                && n <= 64
            {
                let (a, ea) = self.parts();
                let (af, _) = self.as_f64();
                if af <= 0.0 || af <= ea {
                    return Err(Undefined::below_zero(af, ea, false));
                }
                let r = hp::root(a, n).ok_or(Undefined::Unknown)?;
                let rel = ea / (af - ea) / f64::from(n);
                let rf = abs_f64(&r);
                return approx(r, rf * rel * 1.01);
            }
        }
        let (a, ea) = self.as_f64();
        let (b, eb) = e.as_f64();
        if a <= 0.0 || a <= ea {
            return Err(Undefined::below_zero(a, ea, false));
        }
        // a^b = exp(b ln a).
        let ln_a = hp::ln(self.parts().0).ok_or(Undefined::Unknown)?;
        let v = hp::exp(&hp::trunc(hp::mul_raw(e.parts().0, &ln_a))).ok_or(Undefined::Unknown)?;
        let rel = b.abs() * ea / (a - ea) + a.ln().abs() * eb;
        let vf = abs_f64(&v);
        approx(v, vf * rel * 1.01)
    }

    fn powi(self, n: BigInt) -> NResult {
        let Some(k) = n.abs().to_u64().filter(|k| *k <= MAX_INT_EXPONENT) else {
            return Err(Undefined::Unknown);
        };
        let neg = n.is_negative();
        match self {
            Num::Exact(b) => {
                if b.is_zero() {
                    return if neg {
                        Err(Undefined::Domain)
                    } else {
                        Ok(Num::Exact(b))
                    };
                }
                if bits(&b).saturating_mul(k) > MAX_EXACT_BITS {
                    // Too big to hold exactly: a rounded power, by repeated squaring.
                    let p = approx_powi(&b, k);
                    let p = if neg { p.recip() } else { p };
                    return approx(p, 0.0).and_then(|x| widen(x, (k as f64 + 2.0) * hp::ROUND_REL));
                }
                let p = num_traits::pow(b, k as usize);
                Num::check(if neg { p.recip() } else { p })
            }
            Num::Approx { v, err } => {
                let vf = abs_f64(&v);
                if neg && vf <= err {
                    return Err(Undefined::Unknown);
                }
                let kf = k as f64;
                let p = approx_powi(&v, k);
                let p = if neg { p.recip() } else { p };
                let rel_in = err / (vf - err).max(f64::MIN_POSITIVE);
                let rel = kf * rel_in * (1.0 + kf * rel_in).exp() + (kf + 2.0) * hp::ROUND_REL;
                let pf = abs_f64(&p);
                approx(p, pf * rel)
            }
        }
    }

    /// Applies a real function computed to high precision, given a bound on its
    /// derivative over the uncertainty interval (from f64 estimates) and the absolute
    /// error of the computation itself (0 for functions computed to relative precision,
    /// like exp; [`hp::SERIES_ABS_ERR`] for fixed-point series like sin or ln).
    pub fn smooth(
        self,
        f: impl Fn(&BigRational) -> Option<BigRational>,
        deriv_bound: impl Fn(f64, f64) -> f64,
        abs_floor: f64,
    ) -> NResult {
        let (a, ea) = self.as_f64();
        let v = f(self.parts().0).ok_or(Undefined::Unknown)?;
        let d = deriv_bound(a, ea);
        let vf = abs_f64(&v);
        approx(v, d * ea + vf * 16.0 * hp::ROUND_REL + abs_floor)
    }

    pub fn is_zero_exact(&self) -> bool {
        matches!(self, Num::Exact(q) if q.is_zero())
    }

    pub fn sqrt(self) -> NResult {
        self.pow(Num::Exact(BigRational::new(BigInt::one(), BigInt::from(2))))
    }
}

fn widen(n: Num, rel: f64) -> NResult {
    match n {
        Num::Approx { v, err } => {
            let e = err + abs_f64(&v) * rel;
            Ok(Num::Approx { v, err: e })
        }
        exact => Ok(exact),
    }
}

/// `b^k` with rounding after each step.
fn approx_powi(b: &BigRational, k: u64) -> BigRational {
    let mut result = BigRational::one();
    let mut base = hp::trunc(b.clone());
    let mut k = k;
    while k > 0 {
        if k & 1 == 1 {
            result = hp::trunc(hp::mul_raw(&result, &base));
        }
        base = hp::trunc(hp::mul_raw(&base, &base));
        k >>= 1;
    }
    result
}

/// `b^(p/q)` when it is rational: both numerator and denominator are perfect q-th powers.
fn exact_rational_power(b: &BigRational, e: &BigRational) -> Option<BigRational> {
    let q = e.denom().to_u32()?;
    if q > 64 || b.is_negative() {
        return None;
    }
    let root = |n: &BigInt| {
        let r = n.nth_root(q);
        (num_traits::pow(r.clone(), q as usize) == *n).then_some(r)
    };
    let base = BigRational::new(root(b.numer())?, root(b.denom())?);
    let p = e.numer().to_i64()?;
    if p.unsigned_abs() > MAX_INT_EXPONENT || base.is_zero() && p < 0 {
        return None;
    }
    let r = num_traits::pow(base, p.unsigned_abs() as usize);
    Some(if p < 0 { r.recip() } else { r })
}

/// Decides whether two values are equal. Exact values compare exactly. Approximate ones
/// are Equal only when both error bounds are tiny relative to the magnitude, and
/// Different only when the gap exceeds the bounds; anything else is Unknown.
pub fn decide(a: &Num, b: &Num) -> Decision {
    if let (Num::Exact(x), Num::Exact(y)) = (a, b) {
        return if x == y {
            Decision::Equal
        } else {
            Decision::Different
        };
    }
    let ((x, ex), (y, ey)) = (a.parts(), b.parts());
    let gap = abs_f64(&(x - y));
    let tol = ex + ey;
    if !gap.is_finite() || !tol.is_finite() {
        return Decision::Unknown;
    }
    if gap > tol * 1.5 {
        return Decision::Different;
    }
    let scale = abs_f64(x).max(abs_f64(y));
    if tol <= EQUAL_REL_TOL * scale && scale > 1e-250 && scale < 1e250 {
        Decision::Equal
    } else {
        Decision::Unknown
    }
}

/// Rounds to `places` decimal places (half away from zero), as an exact rational; `None`
/// when an approximate value is too close to a rounding boundary to tell.
pub fn round_to(n: &Num, places: u32) -> Option<BigRational> {
    let scale = BigRational::from_integer(num_traits::pow(BigInt::from(10), places as usize));
    let (v, err) = n.parts();
    let scaled = v * &scale;
    let rounded = scaled.round();
    if err > 0.0 {
        let frac = abs_f64(&(&scaled - scaled.trunc()));
        let margin = err * rational_to_f64(&scale);
        if (frac - 0.5).abs() <= margin * 2.0 || !margin.is_finite() {
            return None;
        }
    }
    Some(rounded / scale)
}

/// `n!` exactly, for small non-negative integers.
pub fn factorial(n: &Num) -> NResult {
    let k = int_arg(n, MAX_FACTORIAL)?;
    let mut acc = BigInt::one();
    for i in 2..=k {
        acc *= BigInt::from(i);
    }
    Ok(Num::Exact(BigRational::from_integer(acc)))
}

/// `C(n, k)` for small non-negative integers.
pub fn binomial(n: &Num, k: &Num) -> NResult {
    let k_small = int_arg(k, MAX_FALLING)?;
    if int_arg(n, MAX_FACTORIAL).is_err() {
        // `\binom{n}{2}` with a non-integer (sampled) n: the falling factorial
        // n(n-1)…(n-k+1)/k!, a polynomial in n, so identities like n(n-1)/2 hold.
        let mut acc = Num::int(1);
        for i in 0..k_small {
            let factor = n.clone().sub(Num::int(i as i64))?;
            acc = acc.mul(factor)?.div(Num::int(i as i64 + 1))?;
        }
        return Ok(acc);
    }
    let n = int_arg(n, MAX_FACTORIAL)?;
    let k = int_arg(k, MAX_FACTORIAL)?;
    if k > n {
        return Ok(Num::int(0));
    }
    let k = k.min(n - k);
    let mut acc = BigInt::one();
    for i in 0..k {
        acc = acc * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    Ok(Num::Exact(BigRational::from_integer(acc)))
}

pub fn int_arg(n: &Num, max: u64) -> Result<u64, Undefined> {
    match n {
        Num::Exact(q) if q.is_integer() && !q.is_negative() => q
            .to_integer()
            .to_u64()
            .filter(|k| *k <= max)
            .ok_or(Undefined::Unknown),
        _ => Err(Undefined::Unknown),
    }
}
