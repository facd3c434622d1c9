//! Folding operator chains into trees, and LaTeX mixed numbers.

use crate::math::ast::Expr;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Chain {
    Sum,
    Product,
}

/// Chains up to this length fold left-associatively (`a - b + c` reads back as written);
/// longer ones fold as a balanced tree, so a 500-term sum is 9 levels deep, not 500.
const SHORT_CHAIN: usize = 8;

pub(super) fn fold_chain(mut items: Vec<(bool, Expr)>, kind: Chain) -> Expr {
    let combine = |a: Expr, inverse: bool, b: Expr| match (kind, inverse) {
        (Chain::Sum, false) => Expr::Add(Box::new(a), Box::new(b)),
        (Chain::Sum, true) => Expr::Sub(Box::new(a), Box::new(b)),
        (Chain::Product, false) => Expr::Mul(Box::new(a), Box::new(b)),
        (Chain::Product, true) => Expr::Div(Box::new(a), Box::new(b)),
    };
    if items.len() <= SHORT_CHAIN {
        let mut it = items.into_iter();
        let (inv0, first) = it.next().expect("a chain has a first item");
        let first = if inv0 { invert(first, kind) } else { first };
        return it.fold(first, |acc, (inv, x)| combine(acc, inv, x));
    }
    // Balanced: inverse items become `-x` or `1/x` so the operation is associative.
    let mut level: Vec<Expr> = items
        .drain(..)
        .map(|(inv, x)| if inv { invert(x, kind) } else { x })
        .collect();
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        let mut it = level.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => combine(a, false, b),
                None => a,
            });
        }
        level = next;
    }
    level.pop().expect("non-empty chain")
}

fn invert(x: Expr, kind: Chain) -> Expr {
    match kind {
        Chain::Sum => Expr::Neg(Box::new(x)),
        Chain::Product => Expr::Div(Box::new(Expr::int(1)), Box::new(x)),
    }
}

/// `W\frac{N}{D}` with integer literals and a proper fraction → the number `W + N/D`;
/// `-W\frac{N}{D}` → `-(W + N/D)` (the sign covers the whole mixed number).
pub(super) fn latex_mixed_number(whole: &Expr, frac: &Expr) -> Option<Expr> {
    if let Expr::Neg(w) = whole {
        return latex_mixed_number(w, frac).map(|m| Expr::Neg(Box::new(m)));
    }
    let int = |e: &Expr| match e {
        Expr::Num {
            value,
            decimals: None,
        } if value.is_integer() => Some(value.clone()),
        _ => None,
    };
    let Expr::Div(n, d) = frac else { return None };
    let (w, n, d) = (int(whole)?, int(n)?, int(d)?);
    if num_traits::Zero::is_zero(&d) || n >= d {
        return None;
    }
    Some(Expr::Num {
        value: w + n / d,
        decimals: None,
    })
}
