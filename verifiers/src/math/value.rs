//! The numeric domain: exact rationals where possible, otherwise an f64 with a running
//! bound on its absolute error, so that "equal" is only claimed when the error is provably
//! small relative to the values (and "different" only when they are provably apart).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Caps that keep exact arithmetic bounded.
pub const MAX_EXACT_BITS: u64 = 60_000;
pub const MAX_INT_EXPONENT: u64 = 20_000;
pub const MAX_FACTORIAL: u64 = 3_000;

const ULP: f64 = f64::EPSILON;

#[derive(Clone, Debug)]
pub enum Num {
    Exact(BigRational),
    /// `|true value - v| <= err`.
    Approx {
        v: f64,
        err: f64,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Equal,
    Different,
    Unknown,
}

/// Why a value could not be computed (outside the domain, too large, unsupported).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undefined;

pub type NResult = Result<Num, Undefined>;

fn bits(q: &BigRational) -> u64 {
    q.numer().bits() + q.denom().bits()
}

fn approx(v: f64, err: f64) -> NResult {
    if v.is_finite() && err.is_finite() {
        Ok(Num::Approx { v, err })
    } else {
        Err(Undefined)
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

    pub fn as_f64(&self) -> (f64, f64) {
        match self {
            Num::Exact(q) => {
                let v = rational_to_f64(q);
                (v, v.abs() * ULP)
            }
            Num::Approx { v, err } => (*v, *err),
        }
    }

    pub fn exact(&self) -> Option<&BigRational> {
        match self {
            Num::Exact(q) => Some(q),
            Num::Approx { .. } => None,
        }
    }

    fn check(q: BigRational) -> NResult {
        if bits(&q) > MAX_EXACT_BITS {
            let v = rational_to_f64(&q);
            approx(v, v.abs() * ULP)
        } else {
            Ok(Num::Exact(q))
        }
    }

    pub fn neg(self) -> NResult {
        match self {
            Num::Exact(q) => Ok(Num::Exact(-q)),
            Num::Approx { v, err } => approx(-v, err),
        }
    }

    pub fn add(self, o: Num) -> NResult {
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            return Num::check(a + b);
        }
        let ((a, ea), (b, eb)) = (self.as_f64(), o.as_f64());
        let v = a + b;
        approx(v, ea + eb + v.abs() * ULP)
    }

    pub fn sub(self, o: Num) -> NResult {
        self.add(o.neg()?)
    }

    pub fn mul(self, o: Num) -> NResult {
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            return Num::check(a * b);
        }
        let ((a, ea), (b, eb)) = (self.as_f64(), o.as_f64());
        let v = a * b;
        approx(v, a.abs() * eb + b.abs() * ea + ea * eb + v.abs() * ULP)
    }

    pub fn div(self, o: Num) -> NResult {
        if let (Num::Exact(a), Num::Exact(b)) = (&self, &o) {
            if b.is_zero() {
                return Err(Undefined);
            }
            return Num::check(a / b);
        }
        let ((a, ea), (b, eb)) = (self.as_f64(), o.as_f64());
        if b.abs() <= 2.0 * eb || b == 0.0 {
            return Err(Undefined);
        }
        let v = a / b;
        approx(v, (ea + v.abs() * eb) / (b.abs() - eb) + v.abs() * ULP)
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
            let den = q.denom();
            if self.as_f64().0 < 0.0 && !(den % BigInt::from(2)).is_zero() {
                let odd_num = !(q.numer() % BigInt::from(2)).is_zero();
                let pos = self.neg()?.pow(e)?;
                return if odd_num { pos.neg() } else { Ok(pos) };
            }
        }
        let ((a, ea), (b, eb)) = (self.as_f64(), e.as_f64());
        if a <= 0.0 || a <= ea {
            return Err(Undefined);
        }
        let v = a.powf(b);
        let rel = b.abs() * ea / (a - ea) + a.ln().abs() * eb;
        approx(v, v.abs() * rel * 1.01 + v.abs() * 4.0 * ULP)
    }

    fn powi(self, n: BigInt) -> NResult {
        let Some(k) = n.abs().to_u64().filter(|k| *k <= MAX_INT_EXPONENT) else {
            return Err(Undefined);
        };
        let neg = n.is_negative();
        match self {
            Num::Exact(b) => {
                if b.is_zero() {
                    return if neg {
                        Err(Undefined)
                    } else {
                        Ok(Num::Exact(b))
                    };
                }
                if bits(&b).saturating_mul(k) > MAX_EXACT_BITS {
                    let v = rational_to_f64(&b).powi(k as i32);
                    let v = if neg { 1.0 / v } else { v };
                    return approx(v, v.abs() * ULP * (k as f64 + 2.0));
                }
                let p = num_traits::pow(b, k as usize);
                Num::check(if neg { p.recip() } else { p })
            }
            Num::Approx { v, err } => {
                if neg && v.abs() <= err {
                    return Err(Undefined);
                }
                let kf = k as f64;
                let r = v.powi(if neg { -(k as i32) } else { k as i32 });
                let rel_in = err / (v.abs() - err).max(f64::MIN_POSITIVE);
                let rel = kf * rel_in * (1.0 + kf * rel_in).exp();
                approx(r, r.abs() * rel + r.abs() * ULP * (kf + 2.0))
            }
        }
    }

    /// Applies a smooth real function given its value and a bound on its derivative on
    /// the uncertainty interval.
    pub fn smooth(self, f: impl Fn(f64) -> f64, deriv_bound: impl Fn(f64, f64) -> f64) -> NResult {
        let (a, ea) = self.as_f64();
        let v = f(a);
        let d = deriv_bound(a, ea);
        approx(v, d * ea + (v.abs() + 1.0) * 4.0 * ULP)
    }

    pub fn is_zero_exact(&self) -> bool {
        matches!(self, Num::Exact(q) if q.is_zero())
    }

    pub fn sqrt(self) -> NResult {
        self.pow(Num::Exact(BigRational::new(BigInt::one(), BigInt::from(2))))
    }
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
    let ((x, ex), (y, ey)) = (a.as_f64(), b.as_f64());
    if !x.is_finite() || !y.is_finite() {
        return Decision::Unknown;
    }
    let gap = (x - y).abs();
    let tol = ex + ey;
    if gap > tol + 1e-300 {
        return Decision::Different;
    }
    let scale = x.abs().max(y.abs());
    if tol <= 1e-9 * scale && scale > 1e-250 {
        Decision::Equal
    } else {
        Decision::Unknown
    }
}

/// Rounds to `places` decimal places (half away from zero), as an exact rational.
pub fn round_to(n: &Num, places: u32) -> Option<BigRational> {
    let scale = num_traits::pow(BigInt::from(10), places as usize);
    match n {
        Num::Exact(q) => {
            let scaled = q * BigRational::from_integer(scale.clone());
            Some(BigRational::new(scaled.round().to_integer(), scale))
        }
        Num::Approx { v, err } => {
            let s = v * 10f64.powi(places as i32);
            if !s.is_finite() || s.abs() > 1e15 {
                return None;
            }
            let r = s.round();
            // Refuse when the error could move the value across a rounding boundary.
            if ((s - s.trunc()).abs() - 0.5).abs() < err * 10f64.powi(places as i32) + 1e-9 {
                return None;
            }
            Some(BigRational::new(BigInt::from(r as i64), scale))
        }
    }
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
            .ok_or(Undefined),
        _ => Err(Undefined),
    }
}
