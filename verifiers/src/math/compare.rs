//! Equivalence of two parsed answers.
//!
//! Scalars are compared exactly when both evaluate to rationals, by seeded random
//! evaluation when they contain variables (Schwartz–Zippel), and numerically with error
//! bounds otherwise; a decimal literal switches to comparison after rounding. Containers
//! recurse: sets and bare lists as multisets, tuples in order, intervals with their
//! closedness, matrices element-wise, relations up to a constant factor.

use super::MathConfig;
use super::ast::{Constant, Expr, RelOp};
use super::eval;
use super::value::{Decision, Num, decide, round_to};
use num_traits::Signed;
use std::cell::Cell;

/// Random points tried per comparison, and how many must succeed.
const MAX_TRIALS: u64 = 10;
const NEEDED_POINTS: usize = 4;
const MAX_VARS: usize = 12;
const MAX_ITEMS: usize = 64;

pub struct Comparer<'a> {
    pub cfg: &'a MathConfig,
    /// Remaining comparison steps: keeps adversarial inputs bounded.
    budget: Cell<u32>,
}

impl<'a> Comparer<'a> {
    pub fn new(cfg: &'a MathConfig) -> Self {
        Comparer {
            cfg,
            budget: Cell::new(4_000),
        }
    }

    fn spend(&self) -> bool {
        let b = self.budget.get();
        if b == 0 {
            return false;
        }
        self.budget.set(b - 1);
        true
    }

    /// Is `pred` an acceptable answer for `gold`? Not symmetric: a few rules are driven
    /// by the gold answer (assignments, percentages).
    pub fn equiv(&self, gold: &Expr, pred: &Expr) -> bool {
        if !self.spend() {
            return false;
        }
        let (g, p) = (expand_pm(gold), expand_pm(pred));
        let (g, p) = (g.as_ref().unwrap_or(gold), p.as_ref().unwrap_or(pred));
        if let (Some(a), Some(b)) = (infinity_sign(g), infinity_sign(p)) {
            return a == b;
        }
        match (g, p) {
            (Expr::Text(a), Expr::Text(b)) => norm_text(a) == norm_text(b),
            (Expr::Text(t), other) | (other, Expr::Text(t)) => {
                letters(other).is_some_and(|l| l.eq_ignore_ascii_case(&norm_text(t)))
            }
            (Expr::Rel { .. }, Expr::Rel { .. }) => self.rel_equiv(g, p),
            (Expr::Rel { .. }, _) => match self.relation_value(g) {
                Some(v) => self.equiv(&v, p),
                None => false,
            },
            (_, Expr::Rel { .. }) => match self.relation_value(p) {
                Some(v) => self.equiv(g, &v),
                None => false,
            },
            (Expr::Percent(a, _), Expr::Percent(b, _)) => self.scalar_equiv(a, b),
            (Expr::Percent(a, _), other) => {
                // A gold percentage accepts its bare number or its fraction.
                self.scalar_equiv(a, other) || self.scalar_equiv(&hundredth(a), other)
            }
            (other, Expr::Percent(b, latex)) => {
                self.scalar_equiv(other, &hundredth(b)) || (*latex && self.scalar_equiv(other, b))
            }
            (Expr::Set(a) | Expr::List(a), Expr::Set(b) | Expr::List(b)) => self.multiset(a, b),
            (Expr::Union(a), Expr::Union(b)) => self.multiset(a, b),
            (Expr::Tuple(a) | Expr::List(a), Expr::Tuple(b) | Expr::List(b))
            | (Expr::Ratio(a), Expr::Ratio(b)) => self.ordered(a, b),
            (Expr::Interval { .. }, _) | (_, Expr::Interval { .. }) => {
                match (as_interval(g), as_interval(p)) {
                    (Some(a), Some(b)) => self.interval_equiv(a, b),
                    _ => false,
                }
            }
            _ => {
                if let (Some(a), Some(b)) = (matrix_of(g), matrix_of(p)) {
                    return a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| self.ordered(x, y));
                }
                if is_scalar(g) && is_scalar(p) {
                    return self.scalar_equiv(g, p);
                }
                false
            }
        }
    }

    fn ordered(&self, a: &[Expr], b: &[Expr]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.equiv(x, y))
    }

    /// Order-insensitive comparison with set semantics: every gold member is matched by
    /// a predicted one and vice versa (a repeated member adds nothing, but an extra
    /// different member — a hedge — fails).
    fn multiset(&self, gold: &[Expr], pred: &[Expr]) -> bool {
        if gold.len() > MAX_ITEMS || pred.len() > MAX_ITEMS || gold.is_empty() != pred.is_empty() {
            return false;
        }
        let mut pred_hit = vec![false; pred.len()];
        for g in gold {
            let mut any = false;
            for (j, p) in pred.iter().enumerate() {
                if self.equiv(g, p) {
                    pred_hit[j] = true;
                    any = true;
                }
            }
            if !any {
                return false;
            }
        }
        pred_hit.iter().all(|h| *h)
    }

    fn interval_equiv(&self, a: IntervalRef<'_>, b: IntervalRef<'_>) -> bool {
        a.2 == b.2 && a.3 == b.3 && self.endpoint_equiv(a.0, b.0) && self.endpoint_equiv(a.1, b.1)
    }

    fn endpoint_equiv(&self, a: &Expr, b: &Expr) -> bool {
        match (infinity_sign(a), infinity_sign(b)) {
            (Some(x), Some(y)) => x == y,
            (None, None) => self.equiv(a, b),
            _ => false,
        }
    }

    /// The value a relation states when the other side is a bare answer: `x = 3` → 3,
    /// `(p,q) = (3,2)` → (3,2), `x \in S` → S, `a < x < b` → the interval. Only when the
    /// left side names something (a variable, `f(x)`, `|AB|`, `A:B`); `2x + z = 1` states
    /// no value.
    fn relation_value(&self, e: &Expr) -> Option<Expr> {
        let Expr::Rel { items, ops } = e else {
            return None;
        };
        match (items.as_slice(), ops.as_slice()) {
            ([l, r], [RelOp::Eq | RelOp::In]) if names_something(l) => Some(r.clone()),
            // `3/4 = 0.75`: a true equation between constants states its value.
            ([l, r], [RelOp::Eq]) if is_constant(l) && is_constant(r) && self.equiv(l, r) => {
                Some(r.clone())
            }
            ([_, _, _], [_, _]) => chain_interval(items, ops),
            _ => None,
        }
    }

    fn rel_equiv(&self, g: &Expr, p: &Expr) -> bool {
        let (Some((gi, go)), Some((pi, po))) = (oriented(g), oriented(p)) else {
            return false;
        };
        let allow_sets = self.cfg.allow_set_relation_comp;
        if go.len() != po.len() {
            // `x \in [a, b]` against `a <= x <= b` compares sets only when allowed.
            if allow_sets {
                let (gv, pv) = (self.set_form(g), self.set_form(p));
                if let (Some(a), Some(b)) = (gv, pv) {
                    return self.equiv(&a, &b);
                }
            }
            return false;
        }
        if go != po {
            if allow_sets && let (Some(a), Some(b)) = (self.set_form(g), self.set_form(p)) {
                return self.equiv(&a, &b);
            }
            return false;
        }
        if go.len() == 1 {
            let (op, (l1, r1), (l2, r2)) = (go[0], (&gi[0], &gi[1]), (&pi[0], &pi[1]));
            if !self.cfg.strict && op == RelOp::Eq && names_something(l1) && names_something(l2) {
                return self.equiv(r1, r2);
            }
            if op != RelOp::In && [l1, r1, l2, r2].iter().all(|e| is_scalar(e)) {
                let d1 = Expr::Sub(Box::new(r1.clone()), Box::new(l1.clone()));
                let d2 = Expr::Sub(Box::new(r2.clone()), Box::new(l2.clone()));
                let positive = matches!(op, RelOp::Lt | RelOp::Le);
                return self.proportional(&d1, &d2, positive);
            }
            return (self.equiv(l1, l2) && self.equiv(r1, r2))
                || (op == RelOp::Eq && self.equiv(l1, r2) && self.equiv(r1, l2));
        }
        self.ordered(&gi, &pi)
    }

    /// `x \in S` → S; a double inequality → its interval; used only for set/relation
    /// comparison.
    fn set_form(&self, e: &Expr) -> Option<Expr> {
        self.relation_value(e)
    }

    /// Scalar equivalence: exact, sampled at random points, or numeric.
    pub fn scalar_equiv(&self, a: &Expr, b: &Expr) -> bool {
        let mut vars = Vec::new();
        eval::free_vars(a, &mut vars);
        eval::free_vars(b, &mut vars);
        if vars.len() > MAX_VARS {
            return false;
        }
        let rounding = is_decimal_literal(a) || is_decimal_literal(b);
        if !rounding && canonical(a) == canonical(b) {
            // The same expression up to the order of sums and products.
            return true;
        }
        if vars.is_empty() {
            let (Ok(x), Ok(y)) = (eval::eval(a, &[]), eval::eval(b, &[])) else {
                return false;
            };
            if rounding {
                let places = self.cfg.float_rounding;
                return match (round_to(&x, places), round_to(&y, places)) {
                    (Some(p), Some(q)) => p == q,
                    _ => false,
                };
            }
            return decide(&x, &y) == Decision::Equal;
        }
        let mut good = 0;
        for trial in 0..MAX_TRIALS {
            let env = point(&vars, trial);
            let (Ok(x), Ok(y)) = (eval::eval(a, &env), eval::eval(b, &env)) else {
                if trial + 1 == MAX_TRIALS && good == 0 {
                    // Nothing evaluates (symbolic sums, indexed names): same shape only.
                    return canonical(a) == canonical(b);
                }
                continue;
            };
            match decide(&x, &y) {
                Decision::Equal => good += 1,
                _ => return false,
            }
            if good >= NEEDED_POINTS {
                return true;
            }
        }
        false
    }

    /// Whether `d1 = c * d2` for a constant `c != 0` (`c > 0` when `positive`).
    fn proportional(&self, d1: &Expr, d2: &Expr, positive: bool) -> bool {
        let mut vars = Vec::new();
        eval::free_vars(d1, &mut vars);
        eval::free_vars(d2, &mut vars);
        if vars.len() > MAX_VARS {
            return false;
        }
        let trials = if vars.is_empty() { 1 } else { MAX_TRIALS };
        let needed = if vars.is_empty() { 1 } else { NEEDED_POINTS };
        let mut ratio: Option<Num> = None;
        let mut good = 0;
        for trial in 0..trials {
            let env = point(&vars, trial);
            let (Ok(x), Ok(y)) = (eval::eval(d1, &env), eval::eval(d2, &env)) else {
                if trial + 1 == trials && good == 0 {
                    return canonical(d1) == canonical(d2);
                }
                continue;
            };
            let zero = Num::int(0);
            match (decide(&x, &zero), decide(&y, &zero)) {
                (Decision::Equal, Decision::Equal) => {}
                (Decision::Different, Decision::Different) => {
                    let Ok(r) = x.div(y) else { return false };
                    match &ratio {
                        None => {
                            let neg = r.parts().0.is_negative();
                            if positive && neg {
                                return false;
                            }
                            ratio = Some(r);
                        }
                        Some(c) => {
                            if decide(c, &r) != Decision::Equal {
                                return false;
                            }
                        }
                    }
                }
                _ => return false,
            }
            good += 1;
            if good >= needed {
                return true;
            }
        }
        false
    }
}

type IntervalRef<'e> = (&'e Expr, &'e Expr, bool, bool);

fn as_interval(e: &Expr) -> Option<IntervalRef<'_>> {
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

fn infinity_sign(e: &Expr) -> Option<bool> {
    match e {
        Expr::Const(Constant::Infinity) => Some(true),
        Expr::Neg(x) => infinity_sign(x).map(|s| !s),
        _ => None,
    }
}

/// A relation with `>`/`>=` rewritten as `<`/`<=` (reversing the chain), when the chain
/// runs in one direction.
fn oriented(e: &Expr) -> Option<(Vec<Expr>, Vec<RelOp>)> {
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
fn chain_interval(items: &[Expr], ops: &[RelOp]) -> Option<Expr> {
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

/// Whether an expression is a name for a quantity rather than a formula: a variable,
/// `f(x)`, `x_1`, `|AB|`, `AB`, `A:B`, `\frac{NO}{BO}`, `(p, q)`.
fn names_something(e: &Expr) -> bool {
    match e {
        Expr::Sym(_) | Expr::Apply(..) => true,
        Expr::Func(super::ast::Func::Abs, x) => names_something(x),
        Expr::Mul(a, b) | Expr::Div(a, b) => names_something(a) && names_something(b),
        Expr::Tuple(xs) | Expr::Ratio(xs) => xs.iter().all(names_something),
        Expr::Const(Constant::E) => true,
        _ => false,
    }
}

fn is_scalar(e: &Expr) -> bool {
    !matches!(
        e,
        Expr::Tuple(_)
            | Expr::Set(_)
            | Expr::List(_)
            | Expr::Interval { .. }
            | Expr::Union(_)
            | Expr::Matrix(_)
            | Expr::Ratio(_)
            | Expr::Rel { .. }
            | Expr::Text(_)
            | Expr::PlusMinus(..)
    ) && !contains_container(e)
}

fn contains_container(e: &Expr) -> bool {
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

/// A scalar without variables.
fn is_constant(e: &Expr) -> bool {
    let mut vars = Vec::new();
    eval::free_vars(e, &mut vars);
    vars.is_empty() && is_scalar(e)
}

fn is_decimal_literal(e: &Expr) -> bool {
    match e {
        Expr::Num { decimals, .. } => decimals.is_some(),
        Expr::Neg(x) => is_decimal_literal(x),
        _ => false,
    }
}

fn hundredth(e: &Expr) -> Expr {
    Expr::Div(Box::new(e.clone()), Box::new(Expr::int(100)))
}

fn point(vars: &[String], trial: u64) -> Vec<(String, Num)> {
    vars.iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), eval::sample_point(0x5EED_1234, trial, i)))
        .collect::<Vec<_>>()
}

/// `a ± b` → `{a + b, a - b}`; sets and lists with ± members are flattened.
fn expand_pm(e: &Expr) -> Option<Expr> {
    fn both(a: &Option<Box<Expr>>, b: &Expr) -> [Expr; 2] {
        let a = a.as_deref().cloned().unwrap_or_else(|| Expr::int(0));
        [
            Expr::Add(Box::new(a.clone()), Box::new(b.clone())),
            Expr::Sub(Box::new(a), Box::new(b.clone())),
        ]
    }
    match e {
        Expr::PlusMinus(a, b) => Some(Expr::Set(both(a, b).to_vec())),
        Expr::Set(xs) | Expr::List(xs) if xs.iter().any(|x| matches!(x, Expr::PlusMinus(..))) => {
            let mut out = Vec::new();
            for x in xs {
                match x {
                    Expr::PlusMinus(a, b) => out.extend(both(a, b)),
                    x => out.push(x.clone()),
                }
            }
            Some(Expr::Set(out))
        }
        _ => None,
    }
}

/// Matrix value of a matrix expression (sums, scalar multiples, products), built
/// symbolically so that entries are compared like any scalar.
fn matrix_of(e: &Expr) -> Option<Vec<Vec<Expr>>> {
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

fn scale(m: Vec<Vec<Expr>>, s: &Expr) -> Vec<Vec<Expr>> {
    m.into_iter()
        .map(|r| {
            r.into_iter()
                .map(|x| Expr::Mul(Box::new(s.clone()), Box::new(x)))
                .collect()
        })
        .collect()
}

fn norm_text(t: &str) -> String {
    t.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The letters of a product of single-letter symbols (`Even` parsed in LaTeX as
/// `E*v*e*n`), for comparison with a `\text{}` answer.
fn letters(e: &Expr) -> Option<String> {
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
fn canonical(e: &Expr) -> String {
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
