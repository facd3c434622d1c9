//! Evaluation of scalar expressions at a point (an assignment of values to variables).

use super::ast::{Constant, Expr, Func};
use super::hp;
use super::value::{self, NResult, Num, Undefined};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// Variable values: a small sorted list beats a map for the handful of names we see.
pub type Env = [(String, Num)];

const MAX_BIGOP_TERMS: u64 = 2_000;

/// Deterministic 64-bit mixer (splitmix64's finaliser).
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hash_str(s: &str, mut h: u64) -> u64 {
    for b in s.bytes() {
        h = mix64(h ^ u64::from(b));
    }
    h
}

pub fn eval(e: &Expr, env: &Env) -> NResult {
    match e {
        Expr::Num { value, .. } => Ok(Num::Exact(value.clone())),
        Expr::Sym(s) => env
            .iter()
            .find(|(n, _)| n == s)
            .map(|(_, v)| v.clone())
            .ok_or(Undefined::Unknown),
        Expr::Const(Constant::Pi) => value::approx(hp::pi(), 0.0),
        Expr::Const(Constant::E) => value::approx(hp::e(), 0.0),
        Expr::Const(Constant::Infinity) => Err(Undefined::Unknown),
        Expr::Neg(a) => eval(a, env)?.neg(),
        Expr::Add(a, b) => eval(a, env)?.add(eval(b, env)?),
        Expr::Sub(a, b) => eval(a, env)?.sub(eval(b, env)?),
        Expr::Mul(a, b) => eval(a, env)?.mul(eval(b, env)?),
        Expr::Div(a, b) => eval(a, env)?.div(eval(b, env)?),
        Expr::Pow(a, b) => {
            if matches!(&**a, Expr::Const(Constant::E)) {
                return eval_func(Func::Exp, eval(b, env)?);
            }
            eval(a, env)?.pow(eval(b, env)?)
        }
        Expr::Func(f, a) => {
            if let Some(v) = exact_trig(*f, a, env) {
                return Ok(v);
            }
            eval_func(*f, eval(a, env)?)
        }
        Expr::Root(n, a) => {
            let n = eval(n, env)?;
            eval(a, env)?.pow(Num::int(1).div(n)?)
        }
        Expr::Log(b, a) => {
            let b = eval_func(Func::Ln, eval(b, env)?)?;
            eval_func(Func::Ln, eval(a, env)?)?.div(b)
        }
        Expr::Factorial(a) => value::factorial(&eval(a, env)?),
        Expr::Binom(n, k) => value::binomial(&eval(n, env)?, &eval(k, env)?),
        Expr::Percent(a, _) => eval(a, env)?.div(Num::int(100)),
        Expr::Apply(name, args) => {
            // An unknown function: any fixed pseudo-random function of exact arguments
            // keeps `f(x) = f(x)` true and `f(x) = f(y)` false with high probability.
            let mut h = hash_str(name, 0x5EED);
            for a in args {
                match eval(a, env)? {
                    Num::Exact(q) => h = hash_str(&q.to_string(), h),
                    Num::Approx { .. } => return Err(Undefined::Unknown),
                }
            }
            // Integer values keep sums of many such terms cheap (no growing denominators).
            Ok(Num::int((h % 1_000_003) as i64 + 1))
        }
        Expr::BigOp {
            product,
            var,
            lo,
            hi,
            body,
        } => {
            let lo = int_value(&eval(lo, env)?)?;
            let hi = int_value(&eval(hi, env)?)?;
            let mut nested = false;
            body.walk(&mut |n| nested |= matches!(n, Expr::BigOp { .. }));
            // Nested sums multiply their costs: keep the outer one short.
            let cap = if nested {
                MAX_BIGOP_TERMS / 40
            } else {
                MAX_BIGOP_TERMS
            };
            if hi >= lo && (hi - lo) as u64 > cap {
                return Err(Undefined::Unknown);
            }
            let mut acc = Num::int(i64::from(*product));
            let mut local: Vec<(String, Num)> = env.to_vec();
            local.retain(|(n, _)| n != var);
            local.push((var.clone(), Num::int(0)));
            let slot = local.len() - 1;
            for k in lo..=hi {
                local[slot].1 = Num::int(k);
                let t = eval(body, &local)?;
                acc = if *product { acc.mul(t)? } else { acc.add(t)? };
            }
            Ok(acc)
        }
        _ => Err(Undefined::Unknown),
    }
}

/// `q` when `e` is `q·π` for an exact rational `q`.
fn pi_multiple(e: &Expr, env: &Env) -> Option<BigRational> {
    let exact = |x: &Expr| match eval(x, env) {
        Ok(Num::Exact(q)) => Some(q),
        _ => None,
    };
    match e {
        Expr::Const(Constant::Pi) => Some(BigRational::from_integer(BigInt::from(1))),
        Expr::Neg(a) => pi_multiple(a, env).map(|q| -q),
        Expr::Mul(a, b) => match pi_multiple(a, env) {
            Some(q) => Some(q * exact(b)?),
            None => Some(exact(a)? * pi_multiple(b, env)?),
        },
        Expr::Div(a, b) => {
            let d = exact(b)?;
            (!d.is_zero()).then(|| pi_multiple(a, env).map(|q| q / d))?
        }
        _ => None,
    }
}

/// sin, cos and tan of rational multiples of π, when the value is rational: exact, so
/// that `\sin(\pi)` is exactly 0 rather than 1.2e-16.
fn exact_trig(f: Func, arg: &Expr, env: &Env) -> Option<Num> {
    if !matches!(f, Func::Sin | Func::Cos | Func::Tan) {
        return None;
    }
    let q = pi_multiple(arg, env)?;
    let six = q * BigRational::from_integer(BigInt::from(6));
    if !six.is_integer() {
        return None;
    }
    // Sine of k·π/6 for k mod 12; None where the value is irrational.
    const SIN: [Option<(i64, i64)>; 12] = [
        Some((0, 1)),
        Some((1, 2)),
        None,
        Some((1, 1)),
        None,
        Some((1, 2)),
        Some((0, 1)),
        Some((-1, 2)),
        None,
        Some((-1, 1)),
        None,
        Some((-1, 2)),
    ];
    let k = six.to_integer() % BigInt::from(12);
    let k = ((k + BigInt::from(12)) % BigInt::from(12)).to_usize()?;
    let sin =
        |k: usize| SIN[k % 12].map(|(n, d)| BigRational::new(BigInt::from(n), BigInt::from(d)));
    let value = match f {
        Func::Sin => sin(k)?,
        Func::Cos => sin(k + 3)?,
        _ => {
            let c = sin(k + 3)?;
            if c.is_zero() {
                return None;
            }
            sin(k)? / c
        }
    };
    Some(Num::Exact(value))
}

fn int_value(n: &Num) -> Result<i64, Undefined> {
    match n {
        Num::Exact(q) if q.is_integer() => q.to_integer().to_i64().ok_or(Undefined::Unknown),
        _ => Err(Undefined::Unknown),
    }
}

/// Absolute error of the fixed-point series behind sin, cos, atan, ln.
const ABS: f64 = hp::SERIES_ABS_ERR;

fn eval_func(f: Func, x: Num) -> NResult {
    if x.is_zero_exact() {
        match f {
            Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Sinh | Func::Tanh => {
                return Ok(Num::int(0));
            }
            Func::Cos | Func::Cosh | Func::Exp | Func::Sec => return Ok(Num::int(1)),
            _ => {}
        }
    }
    if let Num::Exact(q) = &x {
        match f {
            Func::Abs => return Ok(Num::Exact(num_traits::Signed::abs(q))),
            Func::Floor => return Ok(Num::Exact(q.floor())),
            Func::Ceil => return Ok(Num::Exact(q.ceil())),
            Func::Ln if q == &BigRational::from_integer(BigInt::from(1)) => {
                return Ok(Num::int(0));
            }
            _ => {}
        }
    }
    let (a, ea) = x.as_f64();
    let lo_abs = (a.abs() - ea).max(0.0);
    let half = |q: BigRational| q / BigRational::from_integer(BigInt::from(2));
    match f {
        Func::Sqrt => x.sqrt(),
        Func::Abs => x_abs(x),
        Func::Sin => x.smooth(|q| hp::sin_cos(q).map(|p| p.0), |_, _| 1.0, ABS),
        Func::Cos => x.smooth(|q| hp::sin_cos(q).map(|p| p.1), |_, _| 1.0, ABS),
        Func::Tan | Func::Sec | Func::Csc | Func::Cot => {
            let denom = if matches!(f, Func::Tan | Func::Sec) {
                a.cos()
            } else {
                a.sin()
            };
            if denom.abs() <= 4.0 * ea + 1e-12 {
                return Err(Undefined::Unknown);
            }
            let m = 1.0 / (denom.abs() - 2.0 * ea);
            let g = move |q: &BigRational| {
                let (s, c) = hp::sin_cos(q)?;
                let one = BigRational::from_integer(BigInt::from(1));
                Some(match f {
                    Func::Tan => s / c,
                    Func::Sec => one / c,
                    Func::Csc => one / s,
                    _ => c / s,
                })
            };
            x.smooth(g, move |_, _| m * m * 1.01, ABS * m * m)
        }
        Func::Asin | Func::Acos => {
            if a.abs() + ea >= 1.0 {
                return Err(if a.abs() - ea > 1.0 {
                    Undefined::Domain
                } else {
                    Undefined::Unknown
                });
            }
            let g = if f == Func::Asin { hp::asin } else { hp::acos };
            let hi = a.abs() + ea;
            x.smooth(g, move |_, _| 1.01 / (1.0 - hi * hi).sqrt(), ABS)
        }
        Func::Atan => x.smooth(hp::atan, |_, _| 1.0, ABS),
        Func::Exp => x.smooth(hp::exp, |a, e| (a + e).exp() * 1.01, 0.0),
        Func::Sinh | Func::Cosh | Func::Tanh => {
            let g = move |q: &BigRational| {
                let (p, n) = (hp::exp(q)?, hp::exp(&-q)?);
                Some(match f {
                    Func::Sinh => half(&p - &n),
                    Func::Cosh => half(&p + &n),
                    _ => (&p - &n) / (&p + &n),
                })
            };
            x.smooth(g, |a, e| (a.abs() + e).exp() * 1.01, ABS)
        }
        Func::Ln => {
            if a <= ea || a <= 0.0 {
                return Err(Undefined::below_zero(a, ea, true));
            }
            x.smooth(hp::ln, move |_, _| 1.01 / lo_abs, ABS)
        }
        Func::Floor | Func::Ceil => {
            let (v, err) = x.parts();
            let err = BigRational::from_float(err).ok_or(Undefined::Unknown)?;
            let g = |q: BigRational| {
                if f == Func::Floor {
                    q.floor()
                } else {
                    q.ceil()
                }
            };
            let (lo, hi) = (g(v - &err), g(v + &err));
            // Only decidable when the uncertainty interval holds no integer.
            if lo != hi {
                return Err(Undefined::Unknown);
            }
            Ok(Num::Exact(lo))
        }
    }
}

fn x_abs(x: Num) -> NResult {
    let (a, _) = x.as_f64();
    if a < 0.0 { x.neg() } else { Ok(x) }
}

/// Free variable names of an expression, sorted and deduplicated.
pub fn free_vars(e: &Expr, out: &mut Vec<String>) {
    let mut bound: Vec<String> = Vec::new();
    e.walk(&mut |n| {
        if let Expr::BigOp { var, .. } = n {
            bound.push(var.clone());
        }
    });
    e.walk(&mut |n| {
        if let Expr::Sym(s) = n
            && !bound.contains(s)
        {
            out.push(s.clone());
        }
    });
    out.sort();
    out.dedup();
}
