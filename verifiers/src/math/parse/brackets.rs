//! Bracketed groups: tuples, intervals (open, closed, half-open), `\langle…\rangle`
//! vectors, and conditions joined by "or" (a union of solution sets, not a list of
//! candidates).

use super::{PResult, Parser, unexpected};
use crate::math::ParseError;
use crate::math::ast::{Expr, RelOp};
use crate::math::lex::Tok;

impl Parser {
    /// After `(` or `[`: a parenthesised value, a tuple, or an interval `(a, b]`.
    pub(super) fn parse_bracketed(&mut self, open: char) -> PResult {
        let mut items = Vec::new();
        loop {
            if matches!(self.peek(), Some(Tok::Op(')' | ']'))) && !items.is_empty() {
                break;
            }
            items.push(self.parse_rel()?);
            if !self.eat_op(',') && !self.eat_op(';') {
                break;
            }
        }
        let close = match self.bump() {
            Some(Tok::Op(c @ (')' | ']'))) => c,
            t => return Err(unexpected(t.as_ref())),
        };
        if items.len() == 1 && (open == '(') == (close == ')') {
            return Ok(items.pop().expect("one item"));
        }
        if items.len() == 2 && (open == '[' || close == ']') {
            let hi = items.pop().expect("two items");
            let lo = items.pop().expect("two items");
            return Ok(Expr::Interval {
                lo: Box::new(lo),
                hi: Box::new(hi),
                lo_closed: open == '[',
                hi_closed: close == ']',
            });
        }
        if open == '(' && close == ')' {
            return Ok(Expr::Tuple(items));
        }
        if open == '[' && close == ']' {
            return Ok(Expr::Tuple(items));
        }
        Err(ParseError::Unexpected("mismatched brackets".into()))
    }

    /// After `\langle`: a vector `\langle 1, 2, 3 \rangle`, an ordered tuple.
    pub(super) fn parse_angle_vector(&mut self) -> PResult {
        let mut items = Vec::new();
        while !self.is_cmd("rangle") {
            items.push(self.parse_rel()?);
            if !self.eat_op(',') && !self.eat_op(';') {
                break;
            }
        }
        if !self.is_cmd("rangle") {
            return Err(unexpected(self.peek()));
        }
        self.bump();
        Ok(Expr::Tuple(items))
    }
}

/// Whether a separator token is the word "or" (plain or in `\text{}`).
pub(super) fn is_or(t: &Tok) -> bool {
    match t {
        Tok::Word(w) => w == "or",
        Tok::Text(t) => t.trim().eq_ignore_ascii_case("or"),
        _ => false,
    }
}

/// `x < -2 \text{ or } x > 2`: conditions on one variable joined by "or" form the union
/// of their solution sets, not a list of candidate answers. Needs at least one
/// inequality (`x = 1 \text{ or } x = 2` stays a list of roots).
pub(super) fn union_of_conditions(items: Vec<Expr>, joined_by_or: bool) -> Expr {
    let condition = |e: &Expr| matches!(e, Expr::Rel { ops, .. } if !ops.contains(&RelOp::In));
    let inequality =
        |e: &Expr| matches!(e, Expr::Rel { ops, .. } if ops.iter().any(|o| *o != RelOp::Eq));
    if joined_by_or && items.iter().all(condition) && items.iter().any(inequality) {
        Expr::Union(items)
    } else {
        Expr::List(items)
    }
}
