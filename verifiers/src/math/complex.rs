//! The imaginary unit: when an answer uses `i`, both sides are evaluated as complex
//! numbers (pairs of [`Num`]) under `+ - * /`, integer powers, the exponential
//! (`e^{i\pi} = -1`, with exact trigonometry at rational multiples of π), the modulus
//! (`|3+4i| = 5`) and the principal square root of a negative real (`\sqrt{-4} = 2i`),
//! so `(1+i)^2` equals `2i`. Anything else containing `i` falls back to treating `i` as
//! a variable.

use super::ast::{Constant, Expr, Func};
use super::eval::{self, Env};
use super::value::{Decision, NResult, Num, Undefined, decide};
use num_traits::{Signed, ToPrimitive};

/// Largest integer power of a complex value.
const MAX_POWER: u64 = 1_000;

#[derive(Clone, Debug)]
pub struct Complex {
    re: Num,
    im: Num,
}

type CResult = Result<Complex, Undefined>;

fn real(n: Num) -> Complex {
    Complex {
        re: n,
        im: Num::int(0),
    }
}

fn mul(a: &Complex, b: &Complex) -> CResult {
    let re =
        a.re.clone()
            .mul(b.re.clone())?
            .sub(a.im.clone().mul(b.im.clone())?)?;
    let im =
        a.re.clone()
            .mul(b.im.clone())?
            .add(a.im.clone().mul(b.re.clone())?)?;
    Ok(Complex { re, im })
}

fn div(a: &Complex, b: &Complex) -> CResult {
    let norm: NResult =
        b.re.clone()
            .mul(b.re.clone())?
            .add(b.im.clone().mul(b.im.clone())?);
    let norm = norm?;
    let conj = Complex {
        re: b.re.clone(),
        im: b.im.clone().neg()?,
    };
    let p = mul(a, &conj)?;
    Ok(Complex {
        re: p.re.div(norm.clone())?,
        im: p.im.div(norm)?,
    })
}

/// Evaluates with `i` as the imaginary unit and other variables from `env`.
pub fn eval_complex(e: &Expr, env: &Env) -> CResult {
    match e {
        Expr::Sym(s) if s == "i" => Ok(Complex {
            re: Num::int(0),
            im: Num::int(1),
        }),
        Expr::Neg(a) => {
            let a = eval_complex(a, env)?;
            Ok(Complex {
                re: a.re.neg()?,
                im: a.im.neg()?,
            })
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let (a, b) = (eval_complex(a, env)?, eval_complex(b, env)?);
            if matches!(e, Expr::Add(..)) {
                Ok(Complex {
                    re: a.re.add(b.re)?,
                    im: a.im.add(b.im)?,
                })
            } else {
                Ok(Complex {
                    re: a.re.sub(b.re)?,
                    im: a.im.sub(b.im)?,
                })
            }
        }
        Expr::Mul(a, b) => mul(&eval_complex(a, env)?, &eval_complex(b, env)?),
        Expr::Div(a, b) => div(&eval_complex(a, env)?, &eval_complex(b, env)?),
        Expr::Pow(a, b) if matches!(&**a, Expr::Const(Constant::E)) => exp(b, env),
        Expr::Func(Func::Exp, b) => exp(b, env),
        Expr::Func(Func::Abs, a) => {
            let z = eval_complex(a, env)?;
            let norm = z.re.clone().mul(z.re)?.add(z.im.clone().mul(z.im)?)?;
            Ok(real(norm.sqrt()?))
        }
        Expr::Func(Func::Sqrt, a) => {
            let z = eval_complex(a, env)?;
            if !z.im.is_zero_exact() {
                return Err(Undefined::Unknown);
            }
            let zero = Num::int(0);
            if decide(&z.re, &zero) == Decision::Different && z.re.parts().0.is_negative() {
                return Ok(Complex {
                    re: zero,
                    im: z.re.neg()?.sqrt()?,
                });
            }
            Ok(real(z.re.sqrt()?))
        }
        Expr::Pow(a, b) => {
            let base = eval_complex(a, env)?;
            let k = match eval::eval(b, env)? {
                Num::Exact(q) if q.is_integer() => q.to_integer(),
                _ => return Err(Undefined::Unknown),
            };
            let n = k
                .abs()
                .to_u64()
                .filter(|n| *n <= MAX_POWER)
                .ok_or(Undefined::Unknown)?;
            let mut acc = real(Num::int(1));
            for _ in 0..n {
                acc = mul(&acc, &base)?;
            }
            if k.is_negative() {
                acc = div(&real(Num::int(1)), &acc)?;
            }
            Ok(acc)
        }
        // Everything else must be real: evaluate it normally.
        other => Ok(real(eval::eval(other, env)?)),
    }
}

/// `e^z` for `z = x + i y` written with `i` linearly: `e^x (\cos y + i \sin y)`, with
/// `\cos y` and `\sin y` evaluated from their expressions (exact at rational multiples
/// of π, so `e^{i\pi}` is exactly -1).
fn exp(z: &Expr, env: &Env) -> CResult {
    let (x, y) = split_imaginary(z).ok_or(Undefined::Unknown)?;
    let apply = |f: Func, e: Option<Expr>, at_zero: i64| match e {
        Some(e) => eval::eval(&Expr::Func(f, Box::new(e)), env),
        None => Ok(Num::int(at_zero)),
    };
    let scale = apply(Func::Exp, x, 1)?;
    let cos = apply(Func::Cos, y.clone(), 1)?;
    let sin = apply(Func::Sin, y, 0)?;
    Ok(Complex {
        re: scale.clone().mul(cos)?,
        im: scale.mul(sin)?,
    })
}

fn has_i(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= matches!(n, Expr::Sym(s) if s == "i"));
    found
}

/// `(x, y)` with `e = x + i y` (`None` for a part that is exactly zero), when `i`
/// appears only linearly: in sums, and in products or quotients with `i`-free factors.
fn split_imaginary(e: &Expr) -> Option<(Option<Expr>, Option<Expr>)> {
    type Part = Option<Expr>;
    let un = |f: fn(Box<Expr>) -> Expr, a: Part| a.map(|a| f(Box::new(a)));
    let scale = |f: fn(Box<Expr>, Box<Expr>) -> Expr, a: Part, c: &Expr, left: bool| {
        a.map(|a| match left {
            true => f(Box::new(c.clone()), Box::new(a)),
            false => f(Box::new(a), Box::new(c.clone())),
        })
    };
    if !has_i(e) {
        return Some((Some(e.clone()), None));
    }
    Some(match e {
        Expr::Sym(s) if s == "i" => (None, Some(Expr::int(1))),
        Expr::Neg(a) => {
            let (x, y) = split_imaginary(a)?;
            (un(Expr::Neg, x), un(Expr::Neg, y))
        }
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let sub = matches!(e, Expr::Sub(..));
            let ((x1, y1), (x2, y2)) = (split_imaginary(a)?, split_imaginary(b)?);
            let join = |p: Part, q: Part| match (p, q) {
                (p, None) => p,
                (None, Some(q)) if sub => Some(Expr::Neg(Box::new(q))),
                (None, q) => q,
                (Some(p), Some(q)) if sub => Some(Expr::Sub(Box::new(p), Box::new(q))),
                (Some(p), Some(q)) => Some(Expr::Add(Box::new(p), Box::new(q))),
            };
            (join(x1, x2), join(y1, y2))
        }
        Expr::Mul(a, b) if !has_i(a) => {
            let (x, y) = split_imaginary(b)?;
            (scale(Expr::Mul, x, a, true), scale(Expr::Mul, y, a, true))
        }
        Expr::Mul(a, b) if !has_i(b) => {
            let (x, y) = split_imaginary(a)?;
            (scale(Expr::Mul, x, b, false), scale(Expr::Mul, y, b, false))
        }
        Expr::Div(a, b) if !has_i(b) => {
            let (x, y) = split_imaginary(a)?;
            (scale(Expr::Div, x, b, false), scale(Expr::Div, y, b, false))
        }
        _ => return None,
    })
}

/// Compares two complex values part by part.
pub fn decide_complex(a: &Complex, b: &Complex) -> Decision {
    match (decide(&a.re, &b.re), decide(&a.im, &b.im)) {
        (Decision::Equal, Decision::Equal) => Decision::Equal,
        (Decision::Different, _) | (_, Decision::Different) => Decision::Different,
        _ => Decision::Unknown,
    }
}
