//! High-precision real functions on big rationals (about 60 significant digits).
//!
//! f64 cannot tell `π + 10^{-20}` from `π`, or `\sqrt{10^{20}+1}` from `10^{10}`; a
//! reward function must. Values are kept as rationals truncated to [`PREC`] significant
//! bits; transcendental functions work in fixed point with [`WORK`] fractional bits.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::sync::OnceLock;

/// Significant bits kept in a value.
pub const PREC: i64 = 200;
/// Fractional bits used inside the series.
const WORK: u32 = 260;
/// Relative error of one rounded operation (generous: `2^-190`).
pub const ROUND_REL: f64 = 6.4e-58;
/// Absolute error of a fixed-point series result (`2^-260` per step, a few hundred
/// steps, generous).
pub const SERIES_ABS_ERR: f64 = 1e-70;

/// Largest argument accepted by exp (beyond it, the value is out of any useful range).
const MAX_EXP_ARG: f64 = 20_000.0;
/// Largest argument accepted by sin/cos (argument reduction loses bits beyond it).
const MAX_TRIG_ARG: f64 = 1e6;

fn pow2(k: u32) -> BigInt {
    BigInt::one() << k
}

/// `floor(log2 |q|)`, up to one.
pub fn ilog2(q: &BigRational) -> i64 {
    q.numer().bits() as i64 - q.denom().bits() as i64
}

/// Rounds to [`PREC`] significant bits (a power-of-two denominator keeps sizes bounded).
/// Integer arithmetic only: this is the hot path of approximate evaluation.
pub fn trunc(q: BigRational) -> BigRational {
    if q.is_zero() || (q.numer().bits() + q.denom().bits()) as i64 <= 2 * PREC {
        return q;
    }
    let k = PREC - ilog2(&q);
    let (n, d) = if k >= 0 {
        (q.numer() << (k as u64), q.denom().clone())
    } else {
        (q.numer().clone(), q.denom() << ((-k) as u64))
    };
    let (mut m, r) = (&n / &d, &n % &d);
    if (r.abs() << 1u32) >= d.abs() {
        m += if n.is_negative() != d.is_negative() {
            -1
        } else {
            1
        };
    }
    if k <= 0 {
        return BigRational::from_integer(m << ((-k) as u64));
    }
    dyadic(m, k as u64)
}

/// `m / 2^k` in lowest terms: a power-of-two denominator only needs the trailing zeros
/// of `m` (no gcd).
fn dyadic(m: BigInt, k: u64) -> BigRational {
    if m.is_zero() {
        return BigRational::zero();
    }
    let t = m.trailing_zeros().unwrap_or(0).min(k);
    BigRational::new_raw(m >> t, BigInt::one() << (k - t))
}

/// `a * b` without reducing by the gcd: an approximate value is rounded by [`trunc`]
/// next, which divides once instead (the gcd of 200-bit numbers was the hot spot of
/// symbolic comparison). The value is exact; only its representation is not lowest terms.
pub fn mul_raw(a: &BigRational, b: &BigRational) -> BigRational {
    BigRational::new_raw(a.numer() * b.numer(), a.denom() * b.denom())
}

/// `a + b` without reducing (see [`mul_raw`]).
pub fn add_raw(a: &BigRational, b: &BigRational) -> BigRational {
    if a.denom() == b.denom() {
        return BigRational::new_raw(a.numer() + b.numer(), a.denom().clone());
    }
    BigRational::new_raw(
        a.numer() * b.denom() + b.numer() * a.denom(),
        a.denom() * b.denom(),
    )
}

/// `a / b` without reducing (see [`mul_raw`]); `b` is not zero. The denominator is
/// kept positive, as every reader of a rational expects.
pub fn div_raw(a: &BigRational, b: &BigRational) -> BigRational {
    let (n, d) = (a.numer() * b.denom(), a.denom() * b.numer());
    if d.is_negative() {
        BigRational::new_raw(-n, -d)
    } else {
        BigRational::new_raw(n, d)
    }
}

fn to_fixed(q: &BigRational) -> BigInt {
    (q.numer() << WORK) / q.denom()
}

fn from_fixed(x: BigInt) -> BigRational {
    dyadic(x, u64::from(WORK))
}

fn mul_fixed(a: &BigInt, b: &BigInt) -> BigInt {
    (a * b) >> WORK
}

/// `atanh(z)` for small fixed-point `z` (|z| <= 1/3).
fn atanh_fixed(z: &BigInt) -> BigInt {
    let z2 = mul_fixed(z, z);
    let mut term = z.clone();
    let mut sum = BigInt::zero();
    let mut k = 0u32;
    while !term.is_zero() && k < 400 {
        sum += &term / BigInt::from(2 * k + 1);
        term = mul_fixed(&term, &z2);
        k += 1;
    }
    sum
}

/// `atan(z)` for small fixed-point `z` (|z| <= 1/4).
fn atan_small_fixed(z: &BigInt) -> BigInt {
    let z2 = mul_fixed(z, z);
    let mut term = z.clone();
    let mut sum = BigInt::zero();
    let mut k = 0u32;
    while !term.is_zero() && k < 400 {
        let t = &term / BigInt::from(2 * k + 1);
        if k.is_multiple_of(2) {
            sum += t;
        } else {
            sum -= t;
        }
        term = mul_fixed(&term, &z2);
        k += 1;
    }
    sum
}

fn ln2_fixed() -> &'static BigInt {
    static LN2: OnceLock<BigInt> = OnceLock::new();
    LN2.get_or_init(|| atanh_fixed(&(pow2(WORK) / BigInt::from(3))) * 2)
}

fn pi_fixed() -> &'static BigInt {
    static PI: OnceLock<BigInt> = OnceLock::new();
    PI.get_or_init(|| {
        // Machin: π = 16 atan(1/5) − 4 atan(1/239).
        let a = atan_small_fixed(&(pow2(WORK) / BigInt::from(5)));
        let b = atan_small_fixed(&(pow2(WORK) / BigInt::from(239)));
        a * 16 - b * 4
    })
}

pub fn pi() -> BigRational {
    static PI: OnceLock<BigRational> = OnceLock::new();
    PI.get_or_init(|| trunc(from_fixed(pi_fixed().clone())))
        .clone()
}

pub fn e() -> BigRational {
    static E: OnceLock<BigRational> = OnceLock::new();
    E.get_or_init(|| exp(&BigRational::one()).expect("e is in range"))
        .clone()
}

/// `q^(1/n)` for `q >= 0`.
pub fn root(q: &BigRational, n: u32) -> Option<BigRational> {
    if q.is_negative() || n == 0 {
        return None;
    }
    if q.is_zero() {
        return Some(q.clone());
    }
    // Scale so the integer root has about PREC bits: q · 2^(n·k).
    let k = PREC - ilog2(q) / i64::from(n);
    let shift = |x: &BigInt, bits: i64| {
        if bits >= 0 {
            x << (bits as u64)
        } else {
            x >> ((-bits) as u64)
        }
    };
    let scaled = shift(q.numer(), i64::from(n) * k) / q.denom();
    let r = scaled.nth_root(n);
    Some(trunc(if k >= 0 {
        dyadic(r, k as u64)
    } else {
        BigRational::from_integer(r * pow2((-k) as u32))
    }))
}

pub fn exp(q: &BigRational) -> Option<BigRational> {
    let x = q.to_f64()?;
    if x.abs() > MAX_EXP_ARG {
        return None;
    }
    // x = n·ln2 + r with |r| <= ln2/2; exp(x) = 2^n · exp(r).
    let n = (x / std::f64::consts::LN_2).round() as i64;
    let r = to_fixed(q) - ln2_fixed() * BigInt::from(n);
    let mut term = pow2(WORK);
    let mut sum = BigInt::zero();
    let mut k = 1u32;
    while !term.is_zero() && k < 400 {
        sum += &term;
        term = mul_fixed(&term, &r) / BigInt::from(k);
        k += 1;
    }
    let v = from_fixed(sum);
    let two_n = BigRational::from_integer(pow2(n.unsigned_abs() as u32));
    Some(trunc(if n >= 0 { v * two_n } else { v / two_n }))
}

pub fn ln(q: &BigRational) -> Option<BigRational> {
    if !q.is_positive() {
        return None;
    }
    // q = 2^n · m with m in [1, 2); ln q = n·ln2 + 2·atanh((m−1)/(m+1)).
    let mut n = ilog2(q);
    let scale = |k: i64| {
        let p = BigRational::from_integer(pow2(k.unsigned_abs() as u32));
        if k >= 0 { q / p } else { q * p }
    };
    let mut m = scale(n);
    let one = BigRational::one();
    let two = BigRational::from_integer(BigInt::from(2));
    if m < one {
        n -= 1;
        m = scale(n);
    } else if m >= two {
        n += 1;
        m = scale(n);
    }
    let z = to_fixed(&((&m - &one) / (&m + &one)));
    let s = atanh_fixed(&z) * 2 + ln2_fixed() * BigInt::from(n);
    Some(trunc(from_fixed(s)))
}

/// Returns (sin q, cos q).
pub fn sin_cos(q: &BigRational) -> Option<(BigRational, BigRational)> {
    let x = q.to_f64()?;
    if x.abs() > MAX_TRIG_ARG {
        return None;
    }
    let two_pi = pi_fixed() * 2;
    let k = (x / std::f64::consts::TAU).round() as i64;
    // Reduce to [-π, π], then divide by 2^HALVINGS so the series is short, and double
    // back: sin 2t = 2 sin t cos t, cos 2t = 1 − 2 sin² t.
    const HALVINGS: u32 = 5;
    let r = (to_fixed(q) - &two_pi * BigInt::from(k)) >> HALVINGS;
    let r2 = mul_fixed(&r, &r);
    let (mut s, mut c) = (BigInt::zero(), BigInt::zero());
    let (mut ts, mut tc) = (r.clone(), pow2(WORK));
    let mut k = 0u32;
    while (!ts.is_zero() || !tc.is_zero()) && k < 200 {
        if k.is_multiple_of(2) {
            s += &ts;
            c += &tc;
        } else {
            s -= &ts;
            c -= &tc;
        }
        let (a, b) = (2 * k + 2, 2 * k + 3);
        ts = mul_fixed(&ts, &r2) / BigInt::from(a * b);
        tc = mul_fixed(&tc, &r2) / BigInt::from((2 * k + 1) * a);
        k += 1;
    }
    for _ in 0..HALVINGS {
        let s2 = mul_fixed(&s, &c) * 2;
        c = pow2(WORK) - mul_fixed(&s, &s) * 2;
        s = s2;
    }
    Some((trunc(from_fixed(s)), trunc(from_fixed(c))))
}

pub fn atan(q: &BigRational) -> Option<BigRational> {
    if q.abs() > BigRational::one() {
        let half_pi = from_fixed(pi_fixed() / 2);
        let inner = atan(&q.recip())?;
        return Some(trunc(if q.is_positive() {
            half_pi - inner
        } else {
            -half_pi - inner
        }));
    }
    // Two halvings: atan x = 2·atan(x / (1 + sqrt(1 + x²))), leaving |x| <= 0.2.
    let mut x = to_fixed(q);
    for _ in 0..2 {
        let s = (mul_fixed(&x, &x) + pow2(WORK)) << WORK;
        let s = s.sqrt();
        x = (x << WORK) / (pow2(WORK) + s);
    }
    Some(trunc(from_fixed(atan_small_fixed(&x) * 4)))
}

pub fn asin(q: &BigRational) -> Option<BigRational> {
    let one = BigRational::one();
    if q.abs() >= one {
        return None;
    }
    let c = root(&(&one - q * q), 2)?;
    atan(&(q / c))
}

pub fn acos(q: &BigRational) -> Option<BigRational> {
    Some(trunc(from_fixed(pi_fixed() / 2) - asin(q)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(q: &BigRational) -> f64 {
        q.to_f64().unwrap()
    }

    fn r(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    #[test]
    fn functions_match_f64() {
        assert!((f(&pi()) - std::f64::consts::PI).abs() < 1e-15);
        assert!((f(&e()) - std::f64::consts::E).abs() < 1e-15);
        for x in [0.3, 1.7, -2.5, 10.0, 123.456] {
            let (s, c) = sin_cos(&r(x)).unwrap();
            assert!((f(&s) - x.sin()).abs() < 1e-13, "sin {x}");
            assert!((f(&c) - x.cos()).abs() < 1e-13, "cos {x}");
            assert!(
                (f(&atan(&r(x)).unwrap()) - x.atan()).abs() < 1e-13,
                "atan {x}"
            );
            assert!(
                (f(&exp(&r(x)).unwrap()) / x.exp() - 1.0).abs() < 1e-13,
                "exp {x}"
            );
        }
        for x in [0.001, 0.5, 1.0, 2.0, 1e10] {
            assert!((f(&ln(&r(x)).unwrap()) - x.ln()).abs() < 1e-12, "ln {x}");
            assert!((f(&root(&r(x), 2).unwrap()) / x.sqrt() - 1.0).abs() < 1e-14);
        }
        // Identities hold far beyond f64 precision.
        let tiny = BigRational::new(BigInt::one(), BigInt::from(10).pow(55u32));
        for x in [0.3, 2.5, -7.25, 1000.125, 99999.5] {
            let q = r(x);
            let (s, c) = sin_cos(&q).unwrap();
            let one = &s * &s + &c * &c - BigRational::one();
            assert!(one.abs() < tiny, "sin^2+cos^2 at {x}");
            if x > 0.0 {
                let back = exp(&ln(&q).unwrap()).unwrap() - &q;
                assert!(back.abs() < &tiny * &q, "exp(ln {x})");
                let t = atan(&q).unwrap();
                let (st, ct) = sin_cos(&t).unwrap();
                assert!(
                    (st / ct - &q).abs() < &tiny * (&q * &q + BigRational::one()),
                    "tan(atan {x})"
                );
            }
        }
        // Far beyond f64: sqrt(10^20 + 1) − 10^10 = 5·10^-11.
        let big = BigRational::from_integer(BigInt::from(10).pow(20u32) + 1);
        let d = root(&big, 2).unwrap() - BigRational::from_integer(BigInt::from(10).pow(10u32));
        assert!((f(&d) - 5e-11).abs() < 1e-20);
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    #[test]
    #[ignore]
    fn hp_timing() {
        let q = BigRational::new(BigInt::from(523), BigInt::from(194));
        for (name, f) in [
            (
                "sin_cos",
                Box::new(|q: &BigRational| sin_cos(q).map(|p| p.0))
                    as Box<dyn Fn(&BigRational) -> Option<BigRational>>,
            ),
            ("exp", Box::new(exp)),
            ("ln", Box::new(ln)),
            ("atan", Box::new(atan)),
            ("sqrt", Box::new(|q: &BigRational| root(q, 2))),
            ("trunc", Box::new(|q: &BigRational| Some(trunc(q * pi())))),
        ] {
            let t = std::time::Instant::now();
            for _ in 0..100 {
                std::hint::black_box(f(&q));
            }
            println!("{name}: {:?}", t.elapsed() / 100);
        }
    }
}
