//! Shapes of answers for comparison: intervals from relations, names versus formulas,
//! matrices from matrix expressions, canonical strings, cost estimates.

use super::ast::{Constant, Expr, Func, RelOp};
use super::eval;
use num_traits::Signed;

pub(super) type IntervalRef<'e> = (&'e Expr, &'e Expr, bool, bool);

pub(super) fn as_interval(e: &Expr) -> Option<IntervalRef<'_>> {
    match e {
        Expr::Interval {
            lo,
            hi,
            lo_closed,
            hi_closed,
        } => Some((lo, hi, *lo_closed, *hi_closed)),
        // `(a, b)` is a pair or an open interval; next to an interval it is the latter.
        Expr::Tuple(xs) if xs.len() == 2 => Some((&xs[0], &xs[1], false, false)),
        _ => None,
    }
}

pub(super) fn infinity_sign(e: &Expr) -> Option<bool> {
    match e {
        Expr::Const(Constant::Infinity) => Some(true),
        Expr::Neg(x) => infinity_sign(x).map(|s| !s),
        _ => None,
    }
}

/// A relation with `>`/`>=` rewritten as `<`/`<=` (reversing the chain), when the chain
/// runs in one direction.
pub(super) fn oriented(e: &Expr) -> Option<(Vec<Expr>, Vec<RelOp>)> {
    let Expr::Rel { items, ops } = e else {
        return None;
    };
    let greater = ops.iter().any(|o| matches!(o, RelOp::Gt | RelOp::Ge));
    let less = ops.iter().any(|o| matches!(o, RelOp::Lt | RelOp::Le));
    if greater && less {
        return None;
    }
    if !greater {
        return Some((items.clone(), ops.clone()));
    }
    let mut items = items.clone();
    items.reverse();
    let ops = ops
        .iter()
        .rev()
        .map(|o| match o {
            RelOp::Gt => RelOp::Lt,
            RelOp::Ge => RelOp::Le,
            o => *o,
        })
        .collect();
    Some((items, ops))
}

/// `a < x <= b` (or reversed) with a named middle → the interval `(a, b]`.
pub(super) fn chain_interval(items: &[Expr], ops: &[RelOp]) -> Option<Expr> {
    let e = Expr::Rel {
        items: items.to_vec(),
        ops: ops.to_vec(),
    };
    let (items, ops) = oriented(&e)?;
    if !names_something(&items[1]) || !ops.iter().all(|o| matches!(o, RelOp::Lt | RelOp::Le)) {
        return None;
    }
    Some(Expr::Interval {
        lo: Box::new(items[0].clone()),
        hi: Box::new(items[2].clone()),
        lo_closed: ops[0] == RelOp::Le,
        hi_closed: ops[1] == RelOp::Le,
    })
}

/// `x >= a` → `[a, ∞)`, `x < a` → `(-∞, a)` (either side may hold the name).
pub(super) fn ray_interval(items: &[Expr], ops: &[RelOp]) -> Option<Expr> {
    let (name_left, bound) = if names_something(&items[0]) {
        (true, &items[1])
    } else if names_something(&items[1]) {
        (false, &items[0])
    } else {
        return None;
    };
    // Normalise to `name op bound`.
    let op = match (name_left, ops[0]) {
        (true, op) => op,
        (false, RelOp::Lt) => RelOp::Gt,
        (false, RelOp::Le) => RelOp::Ge,
        (false, RelOp::Gt) => RelOp::Lt,
        (false, _) => RelOp::Le,
    };
    let inf = Expr::Const(Constant::Infinity);
    let (lo, hi) = match op {
        RelOp::Gt | RelOp::Ge => (bound.clone(), inf),
        _ => (Expr::Neg(Box::new(inf)), bound.clone()),
    };
    Some(Expr::Interval {
        lo: Box::new(lo),
        hi: Box::new(hi),
        lo_closed: op == RelOp::Ge,
        hi_closed: op == RelOp::Le,
    })
}

/// Whether an expression is a name for a quantity rather than a formula: a variable,
/// `f(x)`, `x_1`, `|AB|`, `AB`, `A:B`, `\frac{NO}{BO}`, `(p, q)`.
pub(super) fn names_something(e: &Expr) -> bool {
    match e {
        Expr::Sym(_) | Expr::Apply(..) => true,
        Expr::Func(Func::Abs, x) => names_something(x),
        Expr::Mul(a, b) | Expr::Div(a, b) => names_something(a) && names_something(b),
        Expr::Tuple(xs) | Expr::Ratio(xs) => xs.iter().all(names_something),
        Expr::Const(Constant::E) => true,
        _ => false,
    }
}

pub(super) fn is_scalar(e: &Expr) -> bool {
    !matches!(
        e,
        Expr::Tuple(_)
            | Expr::Set(_)
            | Expr::List(_)
            | Expr::Interval { .. }
            | Expr::Union(_)
            | Expr::Difference(..)
            | Expr::Readings(_)
            | Expr::Matrix(_)
            | Expr::Ratio(_)
            | Expr::Rel { .. }
            | Expr::Text(_)
            | Expr::PlusMinus(..)
    ) && !contains_container(e)
}

pub(super) fn contains_container(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| {
        if matches!(
            n,
            Expr::Matrix(_) | Expr::Tuple(_) | Expr::Set(_) | Expr::Interval { .. } | Expr::Text(_)
        ) {
            found = true;
        }
    });
    found
}

/// Rough cost of exact evaluation: the literal sizes of factorials, binomials and integer
/// exponents. `3000! + 3000! + …` is refused up front instead of taking seconds.
pub(super) fn work_estimate(e: &Expr) -> u64 {
    let lit = |x: &Expr| match x {
        Expr::Num { value, .. } if value.is_integer() => {
            num_traits::ToPrimitive::to_u64(&value.to_integer().abs()).unwrap_or(u64::MAX)
        }
        Expr::Neg(inner) => match &**inner {
            Expr::Num { value, .. } if value.is_integer() => {
                num_traits::ToPrimitive::to_u64(&value.to_integer().abs()).unwrap_or(u64::MAX)
            }
            _ => 0,
        },
        _ => 0,
    };
    let mut total = 0u64;
    e.walk(&mut |n| {
        let cost = match n {
            Expr::Factorial(a) | Expr::Binom(a, _) => lit(a),
            Expr::Pow(_, k) => lit(k) / 4,
            // Each term of a sum with literal bounds costs its body again.
            Expr::BigOp { hi, body, .. } => {
                lit(hi).saturating_mul(work_estimate(body).saturating_add(1)) / 4
            }
            _ => 0,
        };
        total = total.saturating_add(cost);
    });
    total
}

/// A scalar without variables.
pub(super) fn is_constant(e: &Expr) -> bool {
    let mut vars = Vec::new();
    eval::free_vars(e, &mut vars);
    vars.is_empty() && is_scalar(e)
}

pub(super) fn is_decimal_literal(e: &Expr) -> bool {
    match e {
        Expr::Num { decimals, .. } => decimals.is_some(),
        Expr::Neg(x) => is_decimal_literal(x),
        _ => false,
    }
}

pub(super) fn hundredth(e: &Expr) -> Expr {
    Expr::Div(Box::new(e.clone()), Box::new(Expr::int(100)))
}

/// Most `±` signs expanded in one value (2^3 = 8 values).
const MAX_PM_SIGNS: usize = 3;

/// `a ± b` → `{a + b, a - b}`, also where the `±` sits inside a value
/// (`\frac{3 \pm \sqrt{65}}{4}` is the set of both roots); sets and lists with such
/// members are flattened. `None` when there is nothing to expand.
pub(super) fn expand_pm(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Set(xs) | Expr::List(xs) if xs.iter().any(has_pm) => {
            let mut out = Vec::new();
            for x in xs {
                match pm_values(x) {
                    Some(values) => out.extend(values),
                    None => out.push(x.clone()),
                }
            }
            Some(Expr::Set(out))
        }
        Expr::Set(_) | Expr::List(_) => None,
        _ => pm_values(e).map(Expr::Set),
    }
}

fn has_pm(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= matches!(n, Expr::PlusMinus(..)));
    found
}

/// Every value of a scalar with `±` signs in it, each sign taken as `+` and as `-`;
/// `None` without a sign, with more than [`MAX_PM_SIGNS`], or with one inside
/// something other than arithmetic (a tuple, a relation).
fn pm_values(e: &Expr) -> Option<Vec<Expr>> {
    if !has_pm(e) {
        return None;
    }
    let mut values = vec![e.clone()];
    for _ in 0..MAX_PM_SIGNS {
        if !values.iter().any(has_pm) {
            return Some(values);
        }
        let mut next = Vec::with_capacity(values.len() * 2);
        for v in &values {
            next.push(choose_first_pm(v, true)?);
            next.push(choose_first_pm(v, false)?);
        }
        values = next;
    }
    (!values.iter().any(has_pm)).then_some(values)
}

/// `e` with its first `±` (in pre-order) taken as `+` (`plus`) or `-`; `None` when
/// that sign sits somewhere this does not rewrite.
fn choose_first_pm(e: &Expr, plus: bool) -> Option<Expr> {
    let boxed = |x: &Expr| choose_first_pm(x, plus).map(Box::new);
    let pair = |a: &Expr, b: &Expr| -> Option<(Box<Expr>, Box<Expr>)> {
        if has_pm(a) {
            Some((boxed(a)?, Box::new(b.clone())))
        } else {
            Some((Box::new(a.clone()), boxed(b)?))
        }
    };
    Some(match e {
        Expr::PlusMinus(a, b) => {
            let a = a.as_deref().cloned().unwrap_or_else(|| Expr::int(0));
            let (a, b) = (Box::new(a), b.clone());
            if plus {
                Expr::Add(a, b)
            } else {
                Expr::Sub(a, b)
            }
        }
        Expr::Neg(a) => Expr::Neg(boxed(a)?),
        Expr::Func(f, a) => Expr::Func(*f, boxed(a)?),
        Expr::Add(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Add(a, b)
        }
        Expr::Sub(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Sub(a, b)
        }
        Expr::Mul(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Mul(a, b)
        }
        Expr::Div(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Div(a, b)
        }
        Expr::Pow(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Pow(a, b)
        }
        Expr::Root(a, b) => {
            let (a, b) = pair(a, b)?;
            Expr::Root(a, b)
        }
        _ => return None,
    })
}

/// Matrix value of a matrix expression (sums, scalar multiples, products), built
/// symbolically so that entries are compared like any scalar.
pub(super) fn matrix_of(e: &Expr) -> Option<Vec<Vec<Expr>>> {
    let bin = |f: fn(Box<Expr>, Box<Expr>) -> Expr, a: &Expr, b: &Expr| {
        f(Box::new(a.clone()), Box::new(b.clone()))
    };
    match e {
        Expr::Matrix(rows) => Some(rows.clone()),
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let (x, y) = (matrix_of(a)?, matrix_of(b)?);
            if x.len() != y.len() || x[0].len() != y[0].len() {
                return None;
            }
            let f = if matches!(e, Expr::Add(..)) {
                Expr::Add
            } else {
                Expr::Sub
            };
            Some(
                x.iter()
                    .zip(&y)
                    .map(|(r, s)| r.iter().zip(s).map(|(p, q)| bin(f, p, q)).collect())
                    .collect(),
            )
        }
        Expr::Neg(a) => Some(
            matrix_of(a)?
                .into_iter()
                .map(|r| r.into_iter().map(|x| Expr::Neg(Box::new(x))).collect())
                .collect(),
        ),
        Expr::Mul(a, b) => match (matrix_of(a), matrix_of(b)) {
            (Some(x), Some(y)) => {
                if x[0].len() != y.len() || x.len() * y[0].len() > 400 {
                    return None;
                }
                let entry = |i: usize, j: usize| {
                    (0..y.len())
                        .map(|k| bin(Expr::Mul, &x[i][k], &y[k][j]))
                        .reduce(|s, t| Expr::Add(Box::new(s), Box::new(t)))
                        .expect("non-empty")
                };
                Some(
                    (0..x.len())
                        .map(|i| (0..y[0].len()).map(|j| entry(i, j)).collect())
                        .collect(),
                )
            }
            (Some(x), None) if is_scalar(b) => Some(scale(x, b)),
            (None, Some(y)) if is_scalar(a) => Some(scale(y, a)),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn scale(m: Vec<Vec<Expr>>, s: &Expr) -> Vec<Vec<Expr>> {
    m.into_iter()
        .map(|r| {
            r.into_iter()
                .map(|x| Expr::Mul(Box::new(s.clone()), Box::new(x)))
                .collect()
        })
        .collect()
}

pub(super) fn norm_text(t: &str) -> String {
    t.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The letters of a product of single-letter symbols (`Even` parsed in LaTeX as
/// `E*v*e*n`), for comparison with a `\text{}` answer.
pub(super) fn letters(e: &Expr) -> Option<String> {
    match e {
        Expr::Sym(s) if s.chars().all(|c| c.is_ascii_alphabetic()) => Some(s.to_lowercase()),
        Expr::Const(Constant::E) => Some("e".into()),
        Expr::Const(Constant::Pi) => Some("pi".into()),
        Expr::Mul(a, b) => Some(letters(a)? + &letters(b)?),
        _ => None,
    }
}

/// A canonical string for structural comparison: sums and products are flattened and
/// their operands sorted, so `F_k F_{n-k-1}` and `F_{n-k-1} F_k` agree.
pub(super) fn canonical(e: &Expr) -> String {
    fn flatten(e: &Expr, add: bool, out: &mut Vec<String>) {
        match (e, add) {
            (Expr::Add(a, b), true) | (Expr::Mul(a, b), false) => {
                flatten(a, add, out);
                flatten(b, add, out);
            }
            (Expr::Sub(a, b), true) => {
                flatten(a, add, out);
                out.push(format!("-{}", canonical(b)));
            }
            _ => out.push(canonical(e)),
        }
    }
    match e {
        Expr::Add(..) | Expr::Sub(..) | Expr::Mul(..) => {
            let add = !matches!(e, Expr::Mul(..));
            let mut parts = Vec::new();
            flatten(e, add, &mut parts);
            parts.sort();
            format!("{}[{}]", if add { "+" } else { "*" }, parts.join(","))
        }
        Expr::Apply(name, args) => {
            format!(
                "{name}({})",
                args.iter().map(canonical).collect::<Vec<_>>().join(",")
            )
        }
        Expr::BigOp {
            product,
            var,
            lo,
            hi,
            body,
        } => format!(
            "{}({var},{},{},{})",
            if *product { "prod" } else { "sum" },
            canonical(lo),
            canonical(hi),
            canonical(body)
        ),
        Expr::Neg(a) => format!("-{}", canonical(a)),
        Expr::Div(a, b) => format!("({})/({})", canonical(a), canonical(b)),
        Expr::Pow(a, b) => format!("({})^({})", canonical(a), canonical(b)),
        other => other.to_string(),
    }
}

/// Variables that must be integers to evaluate: those in the bounds of sums and products
/// and in factorial arguments.
pub(super) fn integer_vars(e: &Expr, out: &mut Vec<String>) {
    e.walk(&mut |n| match n {
        Expr::BigOp { lo, hi, .. } => {
            eval::free_vars(lo, out);
            eval::free_vars(hi, out);
        }
        Expr::Factorial(a) => eval::free_vars(a, out),
        _ => {}
    });
    out.sort();
    out.dedup();
}

/// Structural invariants the parser guarantees; an [`Expr`] built by hand may break them,
/// and comparison refuses such input instead of indexing out of bounds.
pub(super) fn well_formed(e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |n| match n {
        Expr::Rel { items, ops } => ok &= !ops.is_empty() && items.len() == ops.len() + 1,
        Expr::Readings(xs) => ok &= !xs.is_empty(),
        Expr::Matrix(rows) => {
            let width = rows.first().map_or(0, Vec::len);
            ok &= width > 0 && rows.iter().all(|r| r.len() == width);
        }
        _ => {}
    });
    ok
}
