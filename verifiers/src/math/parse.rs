//! Recursive-descent parser from tokens to [`Expr`].
//!
//! Precedence, loosest first: list separators (`,` `;` "and" "or"), relation chains,
//! `\cup` and `:`, `+ - \pm`, `* / ` and juxtaposition, unary signs, `^`, postfix `! %`.
//! Unknown commands are errors: a candidate that does not parse is not an answer.

use super::ParseError;
use super::ast::{Constant, Expr, Func, RelOp};
use super::lex::{Mode, Tok};
use super::units::is_unit_word;

mod brackets;
mod commands;
mod fold;

use brackets::{is_or, union_of_conditions};
pub use commands::number;
use commands::{in_base, is_atom_product, mixed};
use fold::{Chain, fold_chain, latex_mixed_number};

const MAX_DEPTH: usize = 50;

/// Text that may follow a value as its unit or a remark: words naming units (`cm`,
/// `square units`, `m^2`), with numbers only after `mod`/`base` (`(mod 7)`), and no
/// word offering an alternative.
fn is_unit_remark(t: &str) -> bool {
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || "()[],;:".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().all(|(i, w)| {
        is_unit_word(w)
            || (w.chars().all(|c| c.is_ascii_digit())
                && i > 0
                && ["mod", "modulo", "base"].contains(&words[i - 1]))
    })
}

pub struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
    abs_depth: usize,
    /// Inside the argument of a trigonometric function, where `30^\circ` means π/6.
    trig_depth: usize,
    mode: Mode,
}

type PResult = Result<Expr, ParseError>;

fn unexpected(t: Option<&Tok>) -> ParseError {
    match t {
        Some(t) => ParseError::Unexpected(format!("{t:?}")),
        None => ParseError::Eof,
    }
}

impl Parser {
    pub fn new(toks: Vec<Tok>, mode: Mode) -> Self {
        Parser {
            toks,
            pos: 0,
            depth: 0,
            abs_depth: 0,
            trig_depth: 0,
            mode,
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    fn eat_op(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Op(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_op(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_op(c) {
            Ok(())
        } else {
            Err(unexpected(self.peek()))
        }
    }

    fn is_cmd(&self, name: &str) -> bool {
        matches!(self.peek(), Some(Tok::Cmd(n)) if n == name)
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(ParseError::TooDeep)
        } else {
            Ok(())
        }
    }

    /// Parses the whole token stream as one answer.
    pub fn parse_answer(&mut self) -> PResult {
        if self.toks.is_empty() {
            return Err(ParseError::Empty);
        }
        if let [Tok::Text(t)] = self.toks.as_slice() {
            let t = t.trim();
            if t.is_empty() {
                return Err(ParseError::Empty);
            }
            return Ok(Expr::Text(t.to_string()));
        }
        let e = self.parse_list()?;
        if self.pos < self.toks.len() {
            return Err(unexpected(self.peek()));
        }
        Ok(e)
    }

    fn at_separator(&self) -> bool {
        match self.peek() {
            Some(Tok::Op(',' | ';')) => true,
            Some(Tok::Word(w)) => w == "and" || w == "or",
            Some(Tok::Text(t)) => {
                let t = t.trim();
                t.is_empty() || t == "and" || t == "or" || t == "," || t == "und" || t == "et"
            }
            _ => false,
        }
    }

    fn parse_list(&mut self) -> PResult {
        let mut items = Vec::new();
        // Whether every gap between items holds the word "or".
        let mut all_or = true;
        loop {
            let mut gap_or = false;
            while self.at_separator() {
                gap_or |= self.peek().is_some_and(is_or);
                self.bump();
            }
            if self.at_list_end() {
                break;
            }
            all_or &= gap_or || items.is_empty();
            items.push(self.parse_rel()?);
            if !self.at_separator() {
                break;
            }
        }
        match items.len() {
            0 => Err(ParseError::Empty),
            1 => Ok(items.pop().expect("one item")),
            _ => Ok(union_of_conditions(items, all_or)),
        }
    }

    fn at_list_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Tok::Op(')' | ']' | '}' | '&')) | Some(Tok::RowSep)
        ) || self.is_cmd("}")
            || self.is_cmd("end")
    }

    fn rel_op(&self) -> Option<RelOp> {
        Some(match self.peek()? {
            Tok::Op('=') => RelOp::Eq,
            Tok::Op('<') => RelOp::Lt,
            Tok::Op('>') => RelOp::Gt,
            Tok::Le => RelOp::Le,
            Tok::Ge => RelOp::Ge,
            Tok::Ne => RelOp::Ne,
            Tok::Cmd(c) => match c.as_str() {
                "le" | "leq" | "leqslant" => RelOp::Le,
                "ge" | "geq" | "geqslant" => RelOp::Ge,
                "lt" => RelOp::Lt,
                "gt" => RelOp::Gt,
                "ne" | "neq" => RelOp::Ne,
                "in" => RelOp::In,
                _ => return None,
            },
            _ => return None,
        })
    }

    fn parse_rel(&mut self) -> PResult {
        let mut items = vec![self.parse_union()?];
        let mut ops = Vec::new();
        loop {
            if self.is_cmd("approx") {
                self.bump();
                if ops.is_empty() {
                    // `x \approx 11` states a value like `x = 11`.
                    ops.push(RelOp::Eq);
                    items.push(self.parse_union()?);
                } else {
                    // `x = 1/3 \approx 0.33`: the approximation is commentary, drop it.
                    self.parse_union()?;
                }
                continue;
            }
            let Some(op) = self.rel_op() else { break };
            self.bump();
            ops.push(op);
            items.push(self.parse_union()?);
        }
        if ops.is_empty() {
            return Ok(items.pop().expect("one item"));
        }
        if ops.len() > 1 && ops.iter().all(|o| *o == RelOp::Eq) {
            // `x = 5+5+1 = 11`: a chain of equalities states its first and last members.
            let last = items.pop().expect("items");
            items.truncate(1);
            items.push(last);
            ops.truncate(1);
        }
        Ok(Expr::Rel { items, ops })
    }

    fn parse_union(&mut self) -> PResult {
        let first = self.parse_sum()?;
        if self.is_cmd("setminus") || self.is_cmd("backslash") {
            // `\mathbb{R} \setminus \{-1\}`.
            self.bump();
            let removed = self.parse_sum()?;
            return Ok(Expr::Difference(Box::new(first), Box::new(removed)));
        }
        if self.is_cmd("cup") {
            let mut parts = vec![first];
            while self.is_cmd("cup") {
                self.bump();
                parts.push(self.parse_sum()?);
            }
            return Ok(Expr::Union(parts));
        }
        if self.peek() == Some(&Tok::Op(':')) {
            let mut parts = vec![first];
            while self.eat_op(':') {
                parts.push(self.parse_sum()?);
            }
            return Ok(Expr::Ratio(parts));
        }
        Ok(first)
    }

    fn parse_sum(&mut self) -> PResult {
        // (negated?, term); folded into a tree at the end so long sums stay shallow.
        let mut terms = vec![(false, self.parse_term()?)];
        loop {
            if self.eat_op('+') {
                terms.push((false, self.parse_term()?));
            } else if self.eat_op('-') {
                terms.push((true, self.parse_term()?));
            } else if self.is_cmd("pm") || self.is_cmd("mp") {
                self.bump();
                let acc = fold_chain(std::mem::take(&mut terms), Chain::Sum);
                let rhs = self.parse_term()?;
                terms.push((false, Expr::PlusMinus(Some(Box::new(acc)), Box::new(rhs))));
            } else {
                return Ok(fold_chain(terms, Chain::Sum));
            }
        }
    }

    fn starts_factor(&self) -> bool {
        match self.peek() {
            Some(Tok::Num(_) | Tok::Mixed(..) | Tok::Letter(_) | Tok::Word(_)) => {
                !self.at_separator()
            }
            Some(Tok::Op('(' | '[' | '{')) => true,
            Some(Tok::Op('|')) => self.abs_depth == 0,
            Some(Tok::Cmd(c)) => !matches!(
                c.as_str(),
                "cdot"
                    | "times"
                    | "div"
                    | "ast"
                    | "pm"
                    | "mp"
                    | "cup"
                    | "approx"
                    | "end"
                    | "}"
                    | "le"
                    | "leq"
                    | "leqslant"
                    | "ge"
                    | "geq"
                    | "geqslant"
                    | "lt"
                    | "gt"
                    | "ne"
                    | "neq"
                    | "in"
                    | "rfloor"
                    | "rceil"
                    | "rvert"
                    | "right"
                    | "degree"
                    | "rangle"
                    | "setminus"
                    | "backslash"
            ),
            _ => false,
        }
    }

    fn parse_term(&mut self) -> PResult {
        // (divided?, factor); folded at the end like sums.
        let mut factors = vec![(false, self.parse_unary()?)];
        let mut last_is_number = matches!(factors[0].1, Expr::Num { .. });
        loop {
            let mul = self.eat_op('*')
                || (matches!(self.peek(), Some(Tok::Cmd(c)) if c == "cdot" || c == "times" || c == "ast")
                    && self.bump().is_some());
            if mul {
                let rhs = self.parse_unary()?;
                last_is_number = matches!(rhs, Expr::Num { .. });
                factors.push((false, rhs));
                continue;
            }
            if self.eat_op('/') || (self.is_cmd("div") && self.bump().is_some()) {
                let rhs = self.parse_unary()?;
                last_is_number = false;
                factors.push((true, rhs));
                continue;
            }
            if self.is_cmd("degree") && self.trig_depth == 0 {
                self.bump();
                continue;
            }
            if let Some(Tok::Text(t)) = self.peek() {
                if !self.at_separator() && !t.trim().is_empty() {
                    // A unit after a quantity (`5\text{ cm}^2`) is not part of the value;
                    // text that adds a number or offers an alternative (`5 \text{(or
                    // maybe 43)}`) is a second candidate, not a unit.
                    if !is_unit_remark(t) {
                        return Err(ParseError::Unexpected(format!(
                            "text {t:?} after the value adds another candidate"
                        )));
                    }
                    self.bump();
                    if self.eat_op('^') {
                        self.parse_exponent()?;
                    }
                    continue;
                }
                return Ok(fold_chain(factors, Chain::Product));
            }
            if !self.starts_factor() {
                return Ok(fold_chain(factors, Chain::Product));
            }
            if last_is_number && matches!(self.peek(), Some(Tok::Num(_) | Tok::Mixed(..))) {
                return Err(ParseError::Unexpected("two numbers side by side".into()));
            }
            let rhs = self.parse_power()?;
            if let Some((false, last)) = factors.last()
                && factors.len() == 1
                && let Some(m) = latex_mixed_number(last, &rhs)
            {
                // `2\frac{1}{3}` is the mixed number 7/3, as in the MATH dataset.
                factors[0].1 = m;
                last_is_number = true;
                continue;
            }
            last_is_number = matches!(rhs, Expr::Num { .. });
            factors.push((false, rhs));
        }
    }

    fn parse_unary(&mut self) -> PResult {
        self.enter()?;
        let r = if self.eat_op('-') {
            self.parse_unary().map(|e| Expr::Neg(Box::new(e)))
        } else if self.eat_op('+') {
            self.parse_unary()
        } else if self.is_cmd("pm") || self.is_cmd("mp") {
            self.bump();
            self.parse_unary()
                .map(|e| Expr::PlusMinus(None, Box::new(e)))
        } else {
            self.parse_power()
        };
        self.depth -= 1;
        r
    }

    fn parse_power(&mut self) -> PResult {
        let base = self.parse_postfix()?;
        if self.eat_op('^') {
            let exp = self.parse_exponent()?;
            let mut e = Expr::Pow(Box::new(base), Box::new(exp));
            while self.eat_op('!') {
                e = Expr::Factorial(Box::new(e));
            }
            return Ok(e);
        }
        Ok(base)
    }

    fn parse_exponent(&mut self) -> PResult {
        if self.mode == Mode::Latex {
            return self.parse_arg();
        }
        self.parse_unary()
    }

    fn parse_postfix(&mut self) -> PResult {
        let mut e = self.parse_primary()?;
        loop {
            if self.is_cmd("degree") {
                // A bare angle answer `90^\circ` is the number 90; inside sin/cos/tan it
                // is converted to radians.
                self.bump();
                if self.trig_depth > 0 {
                    let rad = Expr::Div(
                        Box::new(Expr::Const(Constant::Pi)),
                        Box::new(Expr::int(180)),
                    );
                    e = Expr::Mul(Box::new(e), Box::new(rad));
                }
                continue;
            }
            if self.eat_op('!') {
                e = Expr::Factorial(Box::new(e));
            } else if self.peek() == Some(&Tok::Percent) {
                self.bump();
                e = Expr::Percent(Box::new(e), self.mode == Mode::Latex);
            } else {
                return Ok(e);
            }
        }
    }

    /// A macro argument: a braced group, or a single token (one digit of a number).
    fn parse_arg(&mut self) -> PResult {
        match self.peek() {
            Some(Tok::Op('{')) => {
                self.bump();
                let e = self.parse_list()?;
                self.expect_op('}')?;
                Ok(e)
            }
            Some(Tok::Num(s)) => {
                let s = s.clone();
                let mut cs = s.chars();
                let first = cs.next().unwrap_or('0');
                let rest: String = cs.collect();
                if rest.is_empty() || first == '.' {
                    self.bump();
                    return number(&s);
                }
                self.toks[self.pos] = Tok::Num(rest);
                number(&first.to_string())
            }
            Some(Tok::Op('-')) => {
                self.bump();
                Ok(Expr::Neg(Box::new(self.parse_arg()?)))
            }
            _ => self.parse_primary(),
        }
    }

    fn parse_primary(&mut self) -> PResult {
        self.enter()?;
        let r = self.parse_primary_inner();
        self.depth -= 1;
        r
    }

    fn parse_primary_inner(&mut self) -> PResult {
        let tok = self.bump().ok_or(ParseError::Eof)?;
        match tok {
            Tok::Num(s) => {
                let n = number(&s)?;
                if self.peek() == Some(&Tok::Op('_')) && !s.contains('.') {
                    self.bump();
                    let base = self.parse_arg()?;
                    return in_base(&s, &base);
                }
                Ok(n)
            }
            Tok::Mixed(w, n, d) => mixed(&w, &n, &d),
            Tok::Letter(c) => self.parse_symbol(c),
            Tok::Word(w) => match w.as_str() {
                "pi" => Ok(Expr::Const(Constant::Pi)),
                "inf" | "infty" | "infinity" => Ok(Expr::Const(Constant::Infinity)),
                "log" => self.parse_log(),
                _ => match Func::from_name(&w) {
                    Some(f) => self.parse_function(f),
                    None => Err(ParseError::Unexpected(w)),
                },
            },
            Tok::Op('(') => self.parse_bracketed('('),
            Tok::Op('[') => self.parse_bracketed('['),
            Tok::Op('{') => {
                let e = self.parse_list()?;
                self.expect_op('}')?;
                Ok(e)
            }
            Tok::Op('|') => {
                self.abs_depth += 1;
                let e = self.parse_sum();
                self.abs_depth -= 1;
                let e = e?;
                self.expect_op('|')?;
                Ok(Expr::Func(Func::Abs, Box::new(e)))
            }
            Tok::Cmd(c) => self.parse_command(&c),
            Tok::Text(t) => Ok(Expr::Text(t.trim().to_string())),
            other => Err(unexpected(Some(&other))),
        }
    }

    fn parse_symbol(&mut self, c: char) -> PResult {
        let mut name = c.to_string();
        while self.peek() == Some(&Tok::Prime) {
            self.bump();
            name.push('\'');
        }
        if name.len() > 1 {
            // `f'(x)`, `y''`: a derivative's name, so that `f'(x) = 3x^2` states a value.
            if self.peek() == Some(&Tok::Op('(')) {
                self.bump();
                let args = self.parse_list()?;
                self.expect_op(')')?;
                let args = match args {
                    Expr::List(xs) => xs,
                    x => vec![x],
                };
                return Ok(Expr::Apply(name, args));
            }
            return Ok(Expr::Sym(name));
        }
        if self.eat_op('_') {
            let sub = self.parse_arg()?;
            return Ok(match sub {
                Expr::Num { .. } | Expr::Sym(_) => Expr::Sym(format!("{c}_{sub}")),
                _ if is_atom_product(&sub) => Expr::Sym(format!("{c}_{sub}")),
                _ => Expr::Apply(format!("{c}_"), vec![sub]),
            });
        }
        if matches!(c, 'f' | 'g' | 'h') && self.peek() == Some(&Tok::Op('(')) {
            self.bump();
            let args = self.parse_list()?;
            self.expect_op(')')?;
            let args = match args {
                Expr::List(xs) => xs,
                x => vec![x],
            };
            return Ok(Expr::Apply(c.to_string(), args));
        }
        if c == 'e' {
            return Ok(Expr::Const(Constant::E));
        }
        Ok(Expr::Sym(c.to_string()))
    }
}
