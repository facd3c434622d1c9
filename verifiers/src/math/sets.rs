//! Subsets of the real line, however they are written, in one canonical form.
//!
//! Intervals, unions, inequalities (`x \ge 2`, `-1 < x \le 3`), absolute-value
//! conditions (`|x| < 2`, `|2x - 1| \ge 3`), conditions joined by "or", `x \ne c`,
//! `x \in S`, `\mathbb{R} \setminus \{…\}` and finite sets of numbers all become a sorted
//! list of disjoint, non-touching intervals with evaluated endpoints. Two answers are
//! the same set when these lists match piece by piece (endpoints equal as numbers,
//! closedness equal). `|x| < 2` is `(-2, 2)`; `x < -2 \text{ or } x > 2` is
//! `(-\infty, -2) \cup (2, \infty)`; `\mathbb{R} \setminus \{-1\}` is
//! `(-\infty, -1) \cup (-1, \infty)`.
//!
//! Endpoints must be constants that evaluate (`\sqrt{2}`, `\frac{1}{3}`, `\pi`); anything
//! else leaves the answer to the member-wise comparison. At most [`MAX_PIECES`] pieces.

use super::ast::{Expr, RelOp};
use super::eval;
use super::poly::linear_in;
use super::shape::{infinity_sign, oriented};
use super::value::{Decision, Num, decide, rational_to_f64};
use num_traits::{Signed, Zero};
use std::cmp::Ordering;

const MAX_PIECES: usize = 32;

/// An interval endpoint.
#[derive(Clone, Debug)]
enum End {
    NegInf,
    PosInf,
    At(Num),
}

#[derive(Clone, Debug)]
struct Piece {
    lo: End,
    hi: End,
    lo_closed: bool,
    hi_closed: bool,
}

/// A subset of ℝ and the variable its conditions name (none for a bare interval).
#[derive(Clone, Debug)]
pub(super) struct RealSet {
    var: Option<String>,
    pieces: Vec<Piece>,
}

/// Whether an answer is written as a set of reals (so that the set reading is the one
/// the writer meant): an interval, a union, a set difference or a condition.
pub(super) fn is_set_like(e: &Expr) -> bool {
    match e {
        Expr::Interval { .. } | Expr::Union(_) | Expr::Difference(..) => true,
        Expr::Rel { ops, .. } => ops.iter().all(|o| *o != RelOp::Eq),
        _ => false,
    }
}

/// Whether `e` is an inequality (not `=`, not `\in`), or conditions joined by "or".
pub(super) fn is_inequality(e: &Expr) -> bool {
    match e {
        Expr::Rel { ops, .. } => ops
            .iter()
            .all(|o| matches!(o, RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge | RelOp::Ne)),
        Expr::Union(parts) => parts.iter().all(|p| matches!(p, Expr::Rel { .. })),
        _ => false,
    }
}

/// Whether two answers denote the same subset of ℝ; `None` when either is not a set of
/// reals this module can read. With `strict`, the variables named must agree.
pub(super) fn same_set(a: &Expr, b: &Expr, strict: bool) -> Option<bool> {
    let (a, b) = (real_set(a)?, real_set(b)?);
    if strict
        && let (Some(x), Some(y)) = (&a.var, &b.var)
        && x != y
    {
        return Some(false);
    }
    let (pa, pb) = (canonical(a.pieces)?, canonical(b.pieces)?);
    if pa.len() != pb.len() {
        return Some(false);
    }
    for (x, y) in pa.iter().zip(&pb) {
        let same = x.lo_closed == y.lo_closed
            && x.hi_closed == y.hi_closed
            && cmp_end(&x.lo, &y.lo)? == Ordering::Equal
            && cmp_end(&x.hi, &y.hi)? == Ordering::Equal;
        if !same {
            return Some(false);
        }
    }
    Some(true)
}

fn end_of(e: &Expr) -> Option<End> {
    match infinity_sign(e) {
        Some(true) => Some(End::PosInf),
        Some(false) => Some(End::NegInf),
        None => {
            let mut vars = Vec::new();
            eval::free_vars(e, &mut vars);
            if !vars.is_empty() {
                return None;
            }
            eval::eval(e, &[]).ok().map(End::At)
        }
    }
}

fn interval(lo: End, hi: End, lo_closed: bool, hi_closed: bool) -> Piece {
    Piece {
        lo_closed: lo_closed && matches!(lo, End::At(_)),
        hi_closed: hi_closed && matches!(hi, End::At(_)),
        lo,
        hi,
    }
}

fn all_reals() -> Vec<Piece> {
    vec![interval(End::NegInf, End::PosInf, false, false)]
}

fn point(v: Num) -> Piece {
    interval(End::At(v.clone()), End::At(v), true, true)
}

fn real_set(e: &Expr) -> Option<RealSet> {
    let bare = |pieces| Some(RealSet { var: None, pieces });
    match e {
        Expr::Interval {
            lo,
            hi,
            lo_closed,
            hi_closed,
        } => bare(vec![interval(
            end_of(lo)?,
            end_of(hi)?,
            *lo_closed,
            *hi_closed,
        )]),
        // Inside a union, `(a, b)` is an open interval.
        Expr::Tuple(xs) if xs.len() == 2 => bare(vec![interval(
            end_of(&xs[0])?,
            end_of(&xs[1])?,
            false,
            false,
        )]),
        Expr::Set(xs) => {
            let mut pieces = Vec::with_capacity(xs.len());
            for x in xs.iter().take(MAX_PIECES + 1) {
                match end_of(x)? {
                    End::At(v) => pieces.push(point(v)),
                    _ => return None,
                }
            }
            bare(pieces)
        }
        Expr::Union(parts) => {
            let mut var: Option<String> = None;
            let mut pieces = Vec::new();
            for part in parts.iter().take(MAX_PIECES + 1) {
                let s = real_set(part)?;
                if let Some(v) = s.var {
                    if var.as_ref().is_some_and(|w| *w != v) {
                        return None;
                    }
                    var = Some(v);
                }
                pieces.extend(s.pieces);
            }
            Some(RealSet { var, pieces })
        }
        Expr::Difference(a, b) => {
            let mut s = real_set(a)?;
            let removed = real_set(b)?;
            for p in removed.pieces {
                let End::At(v) = &p.lo else { return None };
                if cmp_end(&p.lo, &p.hi)? != Ordering::Equal {
                    return None;
                }
                s.pieces = remove_point(s.pieces, v)?;
            }
            Some(s)
        }
        Expr::Rel { items, ops } => relation_set(items, ops),
        _ => None,
    }
}

fn var_name(e: &Expr) -> Option<&str> {
    match e {
        Expr::Sym(s) => Some(s),
        _ => None,
    }
}

fn relation_set(items: &[Expr], ops: &[RelOp]) -> Option<RealSet> {
    if let ([l, r], [op]) = (items, ops) {
        if let Some(v) = var_name(l) {
            return condition(v, *op, r, false);
        }
        if let Some(v) = var_name(r) {
            return condition(v, *op, l, true);
        }
        // `|x - c| < r` or `r > |x - c|`.
        for (side, bound, flipped) in [(l, r, false), (r, l, true)] {
            if let Expr::Func(super::ast::Func::Abs, inner) = side {
                let mut vars = Vec::new();
                eval::free_vars(inner, &mut vars);
                if let [v] = vars.as_slice() {
                    let op = if flipped { flip(*op)? } else { *op };
                    return absolute(v, inner, op, bound);
                }
            }
        }
        return None;
    }
    // `a < x \le b`.
    let e = Expr::Rel {
        items: items.to_vec(),
        ops: ops.to_vec(),
    };
    let (items, ops) = oriented(&e)?;
    match (items.as_slice(), ops.as_slice()) {
        ([a, x, b], [o1, o2])
            if matches!(o1, RelOp::Lt | RelOp::Le) && matches!(o2, RelOp::Lt | RelOp::Le) =>
        {
            let v = var_name(x)?.to_string();
            let piece = interval(end_of(a)?, end_of(b)?, *o1 == RelOp::Le, *o2 == RelOp::Le);
            Some(RealSet {
                var: Some(v),
                pieces: vec![piece],
            })
        }
        _ => None,
    }
}

fn flip(op: RelOp) -> Option<RelOp> {
    Some(match op {
        RelOp::Lt => RelOp::Gt,
        RelOp::Le => RelOp::Ge,
        RelOp::Gt => RelOp::Lt,
        RelOp::Ge => RelOp::Le,
        RelOp::Ne | RelOp::Eq => op,
        RelOp::In => return None,
    })
}

/// `v op bound` (`bound op v` when `flipped`).
fn condition(v: &str, op: RelOp, bound: &Expr, flipped: bool) -> Option<RealSet> {
    let op = if flipped { flip(op)? } else { op };
    let var = Some(v.to_string());
    if op == RelOp::In {
        let s = real_set(bound)?;
        return Some(RealSet { var, ..s });
    }
    let End::At(b) = end_of(bound)? else {
        return None;
    };
    let pieces = match op {
        RelOp::Lt | RelOp::Le => vec![interval(End::NegInf, End::At(b), false, op == RelOp::Le)],
        RelOp::Gt | RelOp::Ge => vec![interval(End::At(b), End::PosInf, op == RelOp::Ge, false)],
        RelOp::Eq => vec![point(b)],
        RelOp::Ne => remove_point(all_reals(), &b)?,
        RelOp::In => return None,
    };
    Some(RealSet { var, pieces })
}

/// `|p·v + q| op r`: within (or beyond) `r/|p|` of the centre `-q/p`.
fn absolute(v: &str, inner: &Expr, op: RelOp, bound: &Expr) -> Option<RealSet> {
    let (p, q) = linear_in(inner, v)?;
    if p.is_zero() {
        return None;
    }
    let End::At(r) = end_of(bound)? else {
        return None;
    };
    let zero = Num::int(0);
    let sign = match decide(&r, &zero) {
        Decision::Equal => Ordering::Equal,
        Decision::Different => rational_to_f64(r.parts().0).partial_cmp(&0.0)?,
        Decision::Unknown => return None,
    };
    let centre = Num::Exact(-q / &p);
    let var = Some(v.to_string());
    if sign == Ordering::Less || (sign == Ordering::Equal && op != RelOp::Le) {
        // `|…| < r` with r ≤ 0 is empty (`≤ 0` is the centre); `> r` is everything
        // (but the centre when r = 0).
        let pieces = match (op, sign) {
            (RelOp::Lt | RelOp::Le, _) => Vec::new(),
            (RelOp::Gt, Ordering::Equal) => remove_point(all_reals(), &centre)?,
            _ => all_reals(),
        };
        return Some(RealSet { var, pieces });
    }
    let half = r.div(Num::Exact(p.abs())).ok()?;
    let lo = centre.clone().sub(half.clone()).ok()?;
    let hi = centre.add(half).ok()?;
    let pieces = match op {
        RelOp::Lt | RelOp::Le => vec![interval(
            End::At(lo),
            End::At(hi),
            op == RelOp::Le,
            op == RelOp::Le,
        )],
        RelOp::Gt | RelOp::Ge => vec![
            interval(End::NegInf, End::At(lo), false, op == RelOp::Ge),
            interval(End::At(hi), End::PosInf, op == RelOp::Ge, false),
        ],
        _ => return None,
    };
    Some(RealSet { var, pieces })
}

fn cmp_num(a: &Num, b: &Num) -> Option<Ordering> {
    match decide(a, b) {
        Decision::Equal => Some(Ordering::Equal),
        Decision::Different => {
            let d = a.clone().sub(b.clone()).ok()?;
            Some(if d.parts().0.is_negative() {
                Ordering::Less
            } else {
                Ordering::Greater
            })
        }
        Decision::Unknown => None,
    }
}

fn cmp_end(a: &End, b: &End) -> Option<Ordering> {
    Some(match (a, b) {
        (End::NegInf, End::NegInf) | (End::PosInf, End::PosInf) => Ordering::Equal,
        (End::NegInf, _) | (_, End::PosInf) => Ordering::Less,
        (_, End::NegInf) | (End::PosInf, _) => Ordering::Greater,
        (End::At(x), End::At(y)) => cmp_num(x, y)?,
    })
}

/// Removes one point from a list of pieces (splitting the piece that holds it).
fn remove_point(pieces: Vec<Piece>, v: &Num) -> Option<Vec<Piece>> {
    let at = End::At(v.clone());
    let mut out = Vec::with_capacity(pieces.len() + 1);
    for p in pieces {
        let after_lo = match cmp_end(&p.lo, &at)? {
            Ordering::Less => true,
            Ordering::Equal => p.lo_closed,
            Ordering::Greater => false,
        };
        let before_hi = match cmp_end(&at, &p.hi)? {
            Ordering::Less => true,
            Ordering::Equal => p.hi_closed,
            Ordering::Greater => false,
        };
        if !(after_lo && before_hi) {
            out.push(p);
            continue;
        }
        out.push(interval(p.lo, at.clone(), p.lo_closed, false));
        out.push(interval(at.clone(), p.hi, false, p.hi_closed));
    }
    (out.len() <= MAX_PIECES).then_some(out)
}

/// Sorted, non-empty, disjoint and non-touching pieces.
fn canonical(mut pieces: Vec<Piece>) -> Option<Vec<Piece>> {
    if pieces.len() > MAX_PIECES {
        return None;
    }
    let mut kept = Vec::with_capacity(pieces.len());
    for p in pieces.drain(..) {
        match cmp_end(&p.lo, &p.hi)? {
            Ordering::Less => kept.push(p),
            Ordering::Equal if p.lo_closed && p.hi_closed => kept.push(p),
            _ => {}
        }
    }
    // Insertion sort by lower end (closed first): few pieces, and the comparison can
    // fail, which `sort_by` cannot report.
    let mut sorted: Vec<Piece> = Vec::with_capacity(kept.len());
    for p in kept {
        let mut at = sorted.len();
        for (i, q) in sorted.iter().enumerate() {
            let before = match cmp_end(&p.lo, &q.lo)? {
                Ordering::Less => true,
                Ordering::Equal => p.lo_closed && !q.lo_closed,
                Ordering::Greater => false,
            };
            if before {
                at = i;
                break;
            }
        }
        sorted.insert(at, p);
    }
    let mut merged: Vec<Piece> = Vec::with_capacity(sorted.len());
    for p in sorted {
        if let Some(last) = merged.last_mut() {
            let touches = match cmp_end(&p.lo, &last.hi)? {
                Ordering::Less => true,
                Ordering::Equal => p.lo_closed || last.hi_closed,
                Ordering::Greater => false,
            };
            if touches {
                match cmp_end(&p.hi, &last.hi)? {
                    Ordering::Greater => {
                        last.hi = p.hi;
                        last.hi_closed = p.hi_closed;
                    }
                    Ordering::Equal => last.hi_closed |= p.hi_closed,
                    Ordering::Less => {}
                }
                if cmp_end(&p.lo, &last.lo)? == Ordering::Equal {
                    last.lo_closed |= p.lo_closed;
                }
                continue;
            }
        }
        merged.push(p);
    }
    Some(merged)
}
