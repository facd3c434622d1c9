//! Equivalence of two parsed answers.
//!
//! Scalars are compared exactly when both evaluate to rationals; rational functions of
//! variables by their canonical form ([`super::poly`]); other expressions with variables
//! at seeded sample points over the whole real line, domains included
//! ([`super::sample`]); constants numerically with error bounds. A decimal literal is
//! rounded first only when [`MathConfig::float_rounding`] asks. Containers recurse: sets
//! and bare lists as sets (lists in order with [`MathConfig::ordered_lists`]), tuples in
//! order, intervals with their closedness, matrices element-wise, relations up to a
//! constant factor; subsets of the real line however written ([`super::sets`]).

use super::MathConfig;
use super::ast::{Expr, RelOp};
use super::complex;
use super::eval;
use super::poly;
use super::sample;
use super::sets;
use super::shape::{
    IntervalRef, as_interval, canonical, chain_interval, expand_pm, hundredth, infinity_sign,
    integer_vars, is_constant, is_decimal_literal, is_scalar, letters, matrix_of, names_something,
    norm_text, oriented, ray_interval, work_estimate,
};
use super::value::{Decision, Num, Undefined, decide, round_to};
use num_traits::Signed;
use std::cell::Cell;

const MAX_VARS: usize = 12;
const MAX_ITEMS: usize = 64;
/// Budget for [`work_estimate`]: room for `1/2004!` against `1/2006!` and then some.
const MAX_WORK: u64 = 24_000;

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
    /// by the gold answer (assignments, `x \in S` against an inequality).
    pub fn equiv(&self, gold: &Expr, pred: &Expr) -> bool {
        if !self.spend() {
            return false;
        }
        // Text read two ways (`12,345`) matches what either reading matches.
        if let Expr::Readings(rs) = gold {
            return rs.iter().any(|r| self.equiv(r, pred));
        }
        if let Expr::Readings(rs) = pred {
            return rs.iter().any(|r| self.equiv(gold, r));
        }
        // `-5\%` is the percentage -5%, not the negation of one.
        if let Some(g) = signed_percent(gold) {
            return self.equiv(&g, pred);
        }
        if let Some(p) = signed_percent(pred) {
            return self.equiv(gold, &p);
        }
        let (g, p) = (expand_pm(gold), expand_pm(pred));
        let (g, p) = (g.as_ref().unwrap_or(gold), p.as_ref().unwrap_or(pred));
        if let (Some(a), Some(b)) = (infinity_sign(g), infinity_sign(p)) {
            return a == b;
        }
        if self.shaped_equiv(g, p) {
            return true;
        }
        // Subsets of the real line written differently: `|x| < 2` and `(-2, 2)`,
        // `x < -2 \text{ or } x > 2` and a union, `\mathbb{R} \setminus \{-1\}`.
        let gold_membership = matches!(g, Expr::Rel { ops, .. } if ops.as_slice() == [RelOp::In]);
        let set_vs_relation = gold_membership && sets::is_inequality(p);
        (sets::is_set_like(g) || sets::is_set_like(p))
            && (!set_vs_relation || self.cfg.allow_set_relation_comp)
            && sets::same_set(g, p, self.cfg.strict) == Some(true)
    }

    /// Equivalence by the shapes of the two answers.
    fn shaped_equiv(&self, g: &Expr, p: &Expr) -> bool {
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
            // A percentage on one side only, whichever side: it equals its fraction
            // (`25\%` and `0.25`); in LaTeX, where `\%` is also a unit marker, it equals
            // the number as written too (`25\%` and `25`). A plain-text `25%` is 0.25.
            (Expr::Percent(a, latex), other) | (other, Expr::Percent(a, latex)) => {
                self.scalar_equiv(&hundredth(a), other) || (*latex && self.scalar_equiv(a, other))
            }
            (Expr::List(a), Expr::List(b)) if self.cfg.ordered_lists => self.ordered(a, b),
            (Expr::Set(a) | Expr::List(a), Expr::Set(b) | Expr::List(b)) => self.same_members(a, b),
            (Expr::Union(a), Expr::Union(b)) => self.same_members(a, b),
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
                // A vector as a tuple and as a one-column (or one-row) matrix.
                match (g, p) {
                    (Expr::Tuple(t), m) => {
                        if let Some(v) = matrix_of(m).and_then(vector_entries) {
                            return self.ordered(t, &v);
                        }
                    }
                    (m, Expr::Tuple(t)) => {
                        if let Some(v) = matrix_of(m).and_then(vector_entries) {
                            return self.ordered(&v, t);
                        }
                    }
                    _ => {}
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
    fn same_members(&self, gold: &[Expr], pred: &[Expr]) -> bool {
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
            ([_, _], [RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge]) => ray_interval(items, ops),
            _ => None,
        }
    }

    fn rel_equiv(&self, g: &Expr, p: &Expr) -> bool {
        let (Some((gi, go)), Some((pi, po))) = (oriented(g), oriented(p)) else {
            return false;
        };
        // Set/relation comparison: always when the prediction is `x \in S` (a set answer
        // stated as membership), and for a gold `x \in S` only when the config allows.
        let allow_sets = self.cfg.allow_set_relation_comp || po.as_slice() == [RelOp::In];
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
        if work_estimate(a).saturating_add(work_estimate(b)) > MAX_WORK {
            return false;
        }
        let mut vars = Vec::new();
        eval::free_vars(a, &mut vars);
        eval::free_vars(b, &mut vars);
        if vars.len() > MAX_VARS {
            return false;
        }
        let rounding = self
            .cfg
            .float_rounding
            .filter(|_| is_decimal_literal(a) || is_decimal_literal(b));
        if rounding.is_none() && canonical(a) == canonical(b) {
            // The same expression up to the order of sums and products.
            return true;
        }
        if vars.is_empty() {
            let (Ok(x), Ok(y)) = (eval::eval(a, &[]), eval::eval(b, &[])) else {
                return false;
            };
            if let Some(places) = rounding {
                return match (round_to(&x, places), round_to(&y, places)) {
                    (Some(p), Some(q)) => p == q,
                    _ => false,
                };
            }
            return decide(&x, &y) == Decision::Equal;
        }
        if let Some(verdict) = complex_equiv(a, b, &vars) {
            return verdict;
        }
        if !vars.iter().any(|v| v == "i")
            && let Some(verdict) = poly::same_rational_function(a, b, &vars)
        {
            return verdict;
        }
        let ints = int_vars_of(a, b);
        let pair = |env: &eval::Env| (eval::eval(a, env), eval::eval(b, env));
        // Nothing evaluates (symbolic sums, indexed names): same shape only.
        sample::run(&vars, &ints, seed_for(a, b), pair)
            .unwrap_or_else(|| canonical(a) == canonical(b))
    }

    /// Whether `d1 = c * d2` for a constant `c != 0` (`c > 0` when `positive`).
    fn proportional(&self, d1: &Expr, d2: &Expr, positive: bool) -> bool {
        if work_estimate(d1) > MAX_WORK {
            return false;
        }
        let mut vars = Vec::new();
        eval::free_vars(d1, &mut vars);
        eval::free_vars(d2, &mut vars);
        if vars.len() > MAX_VARS {
            return false;
        }
        let trials = if vars.is_empty() {
            1
        } else {
            sample::MAX_TRIALS
        };
        let seed = seed_for(d1, d2);
        let ints = int_vars_of(d1, d2);
        let mut ratio: Option<Num> = None;
        let mut good = 0;
        for trial in 0..trials {
            let point = sample::point(&vars, &ints, trial, seed);
            let (x, y) = match (eval::eval(d1, &point.env), eval::eval(d2, &point.env)) {
                (Ok(x), Ok(y)) => (x, y),
                (Err(Undefined::Domain), Ok(_)) | (Ok(_), Err(Undefined::Domain))
                    if point.generic =>
                {
                    return false;
                }
                _ => continue,
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
            if vars.is_empty() || sample::enough(good, trial) {
                return true;
            }
        }
        good == 0 && canonical(d1) == canonical(d2)
    }
}

/// The entries of a one-row or one-column matrix.
fn vector_entries(rows: Vec<Vec<Expr>>) -> Option<Vec<Expr>> {
    match rows.as_slice() {
        [row] => Some(row.clone()),
        _ if rows.iter().all(|r| r.len() == 1) => Some(rows.into_iter().flatten().collect()),
        _ => None,
    }
}

/// With `i` among the variables, compare as complex numbers; `None` when some part does
/// not evaluate that way (then `i` is treated as an ordinary variable).
fn complex_equiv(a: &Expr, b: &Expr, vars: &[String]) -> Option<bool> {
    if !vars.iter().any(|v| v == "i") {
        return None;
    }
    let others: Vec<String> = vars.iter().filter(|v| *v != "i").cloned().collect();
    let trials = if others.is_empty() {
        1
    } else {
        sample::MAX_TRIALS
    };
    let seed = seed_for(a, b);
    let mut good = 0;
    for trial in 0..trials {
        let point = sample::point(&others, &[], trial, seed);
        let (Ok(x), Ok(y)) = (
            complex::eval_complex(a, &point.env),
            complex::eval_complex(b, &point.env),
        ) else {
            continue;
        };
        if complex::decide_complex(&x, &y) != Decision::Equal {
            return Some(false);
        }
        good += 1;
        if others.is_empty() || sample::enough(good, trial) {
            return Some(true);
        }
    }
    (good > 0).then_some(false)
}

fn int_vars_of(a: &Expr, b: &Expr) -> Vec<String> {
    let mut ints = Vec::new();
    integer_vars(a, &mut ints);
    integer_vars(b, &mut ints);
    ints
}

fn seed_for(a: &Expr, b: &Expr) -> u64 {
    let mut h = 0x5EED_1234_u64;
    for s in [canonical(a), canonical(b)] {
        for byte in s.bytes() {
            h = eval::mix64(h ^ u64::from(byte));
        }
    }
    h
}

/// `-(a%)` as `(-a)%`, so that a negative percentage compares as one.
fn signed_percent(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Neg(inner) => match inner.as_ref() {
            Expr::Percent(a, latex) => Some(Expr::Percent(Box::new(Expr::Neg(a.clone())), *latex)),
            _ => None,
        },
        _ => None,
    }
}
