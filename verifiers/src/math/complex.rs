//! The imaginary unit: when an answer uses `i`, both sides are evaluated as complex
//! numbers (pairs of [`Num`]) under `+ - * /` and integer powers, so `(1+i)^2` equals
//! `2i`. Anything else containing `i` falls back to treating `i` as a variable.

use super::ast::Expr;
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
        Expr::Pow(a, b) => {
            let base = eval_complex(a, env)?;
            let k = match eval::eval(b, env)? {
                Num::Exact(q) if q.is_integer() => q.to_integer(),
                _ => return Err(Undefined),
            };
            let n = k
                .abs()
                .to_u64()
                .filter(|n| *n <= MAX_POWER)
                .ok_or(Undefined)?;
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

/// Compares two complex values part by part.
pub fn decide_complex(a: &Complex, b: &Complex) -> Decision {
    match (decide(&a.re, &b.re), decide(&a.im, &b.im)) {
        (Decision::Equal, Decision::Equal) => Decision::Equal,
        (Decision::Different, _) | (_, Decision::Different) => Decision::Different,
        _ => Decision::Unknown,
    }
}
