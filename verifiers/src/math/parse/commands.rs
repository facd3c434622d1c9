//! The LaTeX command half of the parser: `\\frac`, `\\sqrt`, functions, environments,
//! big operators, and the number literals.

use super::{PResult, Parser, unexpected};
use crate::math::ParseError;
use crate::math::ast::{Constant, Expr, Func};
use crate::math::lex::Tok;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

const MAX_DIGITS: usize = 400;

const GREEK: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Sigma",
    "Phi",
    "Psi",
    "Omega",
];

/// Wrappers that only change the font: their argument is parsed as if bare.
const TRANSPARENT: &[&str] = &[
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "boldsymbol",
    "bm",
    "vec",
    "mathbb",
    "mathcal",
    "operatorname",
    "displaystyle",
    "textstyle",
    "overrightarrow",
    // A box inside the box: `\boxed{\boxed{5}}` is 5.
    "boxed",
    "fbox",
];

/// The variable of a Leibniz operator `\frac{d}{dx}` (numerator exactly `d`,
/// denominator `d` times one variable), if `n / d` is one.
fn leibniz_operator(n: &Expr, d: &Expr) -> Option<String> {
    let is_d = |e: &Expr| matches!(e, Expr::Sym(s) if s == "d");
    match (n, d) {
        (n, Expr::Mul(a, b)) if is_d(n) && is_d(a) => match &**b {
            Expr::Sym(v) if v != "d" => Some(v.clone()),
            _ => None,
        },
        _ => None,
    }
}

impl Parser {
    pub(super) fn parse_command(&mut self, c: &str) -> PResult {
        match c {
            "frac" => {
                let n = self.parse_arg()?;
                let d = self.parse_arg()?;
                if let Some(var) = leibniz_operator(&n, &d) {
                    // `\frac{d}{dx}(x^3 + 2x)`: the derivative of what follows, a name
                    // (so `\frac{d}{dx}(…) = 3x^2 + 2` states a value), not `d/(dx)` times it.
                    let operand = if self.starts_factor() {
                        vec![self.parse_term()?]
                    } else {
                        Vec::new()
                    };
                    return Ok(Expr::Apply(format!("d/d{var}"), operand));
                }
                Ok(Expr::Div(Box::new(n), Box::new(d)))
            }
            "sqrt" => {
                if self.eat_op('[') {
                    let idx = self.parse_sum()?;
                    self.expect_op(']')?;
                    let x = self.parse_arg()?;
                    return Ok(Expr::Root(Box::new(idx), Box::new(x)));
                }
                let x = self.parse_arg()?;
                Ok(Expr::Func(Func::Sqrt, Box::new(x)))
            }
            "binom" => {
                let n = self.parse_arg()?;
                let k = self.parse_arg()?;
                Ok(Expr::Binom(Box::new(n), Box::new(k)))
            }
            "pi" => Ok(Expr::Const(Constant::Pi)),
            "infty" | "infin" => Ok(Expr::Const(Constant::Infinity)),
            "emptyset" | "varnothing" => Ok(Expr::Set(Vec::new())),
            "{" => {
                let mut items = Vec::new();
                while !self.is_cmd("}") {
                    items.push(self.parse_rel()?);
                    if !self.eat_op(',') && !self.eat_op(';') {
                        break;
                    }
                }
                if !self.is_cmd("}") {
                    return Err(unexpected(self.peek()));
                }
                self.bump();
                Ok(Expr::Set(items))
            }
            "lfloor" | "lceil" => {
                let e = self.parse_sum()?;
                let close = if c == "lfloor" { "rfloor" } else { "rceil" };
                if !self.is_cmd(close) {
                    return Err(unexpected(self.peek()));
                }
                self.bump();
                let f = if c == "lfloor" {
                    Func::Floor
                } else {
                    Func::Ceil
                };
                Ok(Expr::Func(f, Box::new(e)))
            }
            "lvert" | "vert" | "|" => {
                self.abs_depth += 1;
                let e = self.parse_sum();
                self.abs_depth -= 1;
                let e = e?;
                if !(self.is_cmd("rvert") || self.is_cmd("vert") || self.is_cmd("|")) {
                    return Err(unexpected(self.peek()));
                }
                self.bump();
                Ok(Expr::Func(Func::Abs, Box::new(e)))
            }
            "log" => self.parse_log(),
            "langle" => self.parse_angle_vector(),
            "begin" => self.parse_environment(),
            "sum" | "prod" => self.parse_big_op(c == "prod"),
            _ if GREEK.contains(&c) => {
                if self.eat_op('_') {
                    let sub = self.parse_arg()?;
                    return Ok(Expr::Sym(format!("{c}_{sub}")));
                }
                Ok(Expr::Sym(c.to_string()))
            }
            "mathbb"
                if matches!(
                    (
                        self.toks.get(self.pos),
                        self.toks.get(self.pos + 1),
                        self.toks.get(self.pos + 2)
                    ),
                    (
                        Some(Tok::Op('{')),
                        Some(Tok::Letter('R')),
                        Some(Tok::Op('}'))
                    )
                ) =>
            {
                // `\mathbb{R}`: all reals, the interval (-∞, ∞).
                self.pos += 3;
                let inf = || Box::new(Expr::Const(Constant::Infinity));
                Ok(Expr::Interval {
                    lo: Box::new(Expr::Neg(inf())),
                    hi: inf(),
                    lo_closed: false,
                    hi_closed: false,
                })
            }
            _ if TRANSPARENT.contains(&c) => {
                if c == "displaystyle" || c == "textstyle" {
                    return self.parse_power();
                }
                // `\operatorname{ln}`: the word lexes as one function token.
                if let (Some(Tok::Op('{')), Some(Tok::Word(w)), Some(Tok::Op('}'))) = (
                    self.toks.get(self.pos),
                    self.toks.get(self.pos + 1),
                    self.toks.get(self.pos + 2),
                ) && let Some(f) = Func::from_name(w)
                {
                    self.pos += 3;
                    return self.parse_function(f);
                }
                let inner = self.parse_arg()?;
                // `\operatorname{sin}` and `\mathrm{ln}` name functions.
                match word_of(&inner).and_then(|w| Func::from_name(&w)) {
                    Some(f) => self.parse_function(f),
                    None => Ok(inner),
                }
            }
            _ => match Func::from_name(c) {
                Some(f) => self.parse_function(f),
                None => Err(ParseError::UnknownCommand(c.to_string())),
            },
        }
    }

    pub(super) fn parse_log(&mut self) -> PResult {
        if self.eat_op('_') {
            let base = self.parse_arg()?;
            let arg = self.parse_function_arg()?;
            return Ok(Expr::Log(Box::new(base), Box::new(arg)));
        }
        self.parse_function(Func::Ln)
    }

    pub(super) fn parse_function(&mut self, f: Func) -> PResult {
        let mut power = None;
        if self.eat_op('^') {
            power = Some(self.parse_exponent()?);
        }
        let trig = matches!(
            f,
            Func::Sin | Func::Cos | Func::Tan | Func::Sec | Func::Csc | Func::Cot
        );
        self.trig_depth += usize::from(trig);
        let arg = self.parse_function_arg();
        self.trig_depth -= usize::from(trig);
        let arg = arg?;
        Ok(match power {
            None => Expr::Func(f, Box::new(arg)),
            Some(p) if is_minus_one(&p) && f.inverse().is_some() => {
                Expr::Func(f.inverse().expect("checked"), Box::new(arg))
            }
            Some(p) => Expr::Pow(Box::new(Expr::Func(f, Box::new(arg))), Box::new(p)),
        })
    }

    /// `\sin(x)`, `\sin{x}`, or an unbracketed product such as `\sin 2x` (which stops at
    /// the next function, so `\sin b \cos a` is two factors).
    fn parse_function_arg(&mut self) -> PResult {
        match self.peek() {
            Some(Tok::Op('(')) => {
                self.bump();
                let e = self.parse_sum()?;
                self.expect_op(')')?;
                Ok(e)
            }
            Some(Tok::Op('{')) => self.parse_arg(),
            _ => {
                let mut acc = self.parse_unary()?;
                while self.starts_factor() && !self.next_is_function() {
                    let rhs = self.parse_power()?;
                    acc = Expr::Mul(Box::new(acc), Box::new(rhs));
                }
                Ok(acc)
            }
        }
    }

    fn next_is_function(&self) -> bool {
        match self.peek() {
            Some(Tok::Cmd(c)) | Some(Tok::Word(c)) => Func::from_name(c).is_some(),
            Some(Tok::Op('(' | '[' | '{' | '|')) => true,
            _ => false,
        }
    }

    fn parse_environment(&mut self) -> PResult {
        self.expect_op('{')?;
        let mut name = String::new();
        while let Some(Tok::Letter(c)) = self.peek() {
            name.push(*c);
            self.bump();
        }
        self.expect_op('}')?;
        if !matches!(
            name.as_str(),
            "pmatrix" | "bmatrix" | "matrix" | "Bmatrix" | "smallmatrix" | "array"
        ) {
            return Err(ParseError::UnknownCommand(format!("begin{{{name}}}")));
        }
        if name == "array" && self.eat_op('{') {
            while !self.eat_op('}') {
                self.bump().ok_or(ParseError::Eof)?;
            }
        }
        let mut rows: Vec<Vec<Expr>> = vec![Vec::new()];
        loop {
            if self.is_cmd("end") {
                self.bump();
                self.expect_op('{')?;
                while let Some(Tok::Letter(_)) = self.peek() {
                    self.bump();
                }
                self.expect_op('}')?;
                break;
            }
            if self.peek() == Some(&Tok::RowSep) {
                self.bump();
                rows.push(Vec::new());
                continue;
            }
            if self.eat_op('&') {
                continue;
            }
            let cell = self.parse_rel()?;
            rows.last_mut().expect("a row").push(cell);
        }
        rows.retain(|r| !r.is_empty());
        let width = rows.first().map_or(0, Vec::len);
        if width == 0 || rows.iter().any(|r| r.len() != width) {
            return Err(ParseError::Unexpected("ragged matrix".into()));
        }
        Ok(Expr::Matrix(rows))
    }

    fn parse_big_op(&mut self, product: bool) -> PResult {
        self.expect_op('_')?;
        self.expect_op('{')?;
        let var = match self.bump() {
            Some(Tok::Letter(c)) => c.to_string(),
            t => return Err(unexpected(t.as_ref())),
        };
        self.expect_op('=')?;
        let lo = self.parse_sum()?;
        self.expect_op('}')?;
        self.expect_op('^')?;
        let hi = self.parse_arg()?;
        let body = self.parse_term()?;
        Ok(Expr::BigOp {
            product,
            var,
            lo: Box::new(lo),
            hi: Box::new(hi),
            body: Box::new(body),
        })
    }
}

fn is_minus_one(e: &Expr) -> bool {
    matches!(e, Expr::Neg(x) if matches!(&**x, Expr::Num { value, .. } if value.is_one()))
}

pub(super) fn is_atom_product(e: &Expr) -> bool {
    match e {
        Expr::Sym(_) | Expr::Num { .. } => true,
        Expr::Mul(a, b) => is_atom_product(a) && is_atom_product(b),
        _ => false,
    }
}

/// The letters of a product of one-letter symbols (`\mathrm{ln}` parses as `l*n`).
fn word_of(e: &Expr) -> Option<String> {
    match e {
        Expr::Sym(s) if s.len() == 1 => Some(s.clone()),
        Expr::Const(Constant::E) => Some("e".into()),
        Expr::Mul(a, b) => Some(word_of(a)? + &word_of(b)?),
        _ => None,
    }
}

/// An exact number from its digits; remembers how many decimal places were written.
pub fn number(s: &str) -> PResult {
    if s.len() > MAX_DIGITS {
        return Err(ParseError::BadNumber("too many digits".into()));
    }
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let digits = format!("{int}{}", frac.unwrap_or(""));
    let n: BigInt = if digits.is_empty() {
        return Err(ParseError::BadNumber(s.into()));
    } else {
        digits
            .parse()
            .map_err(|_| ParseError::BadNumber(s.into()))?
    };
    let places = frac.map_or(0, str::len) as u32;
    // Most numbers are integers: no denominator to reduce by.
    let value = if places == 0 {
        BigRational::from_integer(n)
    } else {
        BigRational::new(n, num_traits::pow(BigInt::from(10), places as usize))
    };
    Ok(Expr::Num {
        value,
        decimals: frac.map(|_| places),
    })
}

/// `204_5`: digits in another base, read as an integer.
pub(super) fn in_base(digits: &str, base: &Expr) -> PResult {
    let b = match base {
        Expr::Num {
            value,
            decimals: None,
        } if value.is_integer() => value.to_integer(),
        _ => return Err(ParseError::BadNumber("bad base".into())),
    };
    let b: u32 = b
        .try_into()
        .map_err(|_| ParseError::BadNumber("bad base".into()))?;
    if !(2..=36).contains(&b) {
        return Err(ParseError::BadNumber("bad base".into()));
    }
    let n = BigInt::parse_bytes(digits.as_bytes(), b)
        .ok_or_else(|| ParseError::BadNumber(format!("{digits} in base {b}")))?;
    Ok(Expr::Num {
        value: BigRational::from_integer(n),
        decimals: None,
    })
}

/// `4 4/9` = 40/9. A proper fraction is required: `11 6/6` and `4 4/0` are errors, so
/// that nothing is read out of them.
pub(super) fn mixed(w: &str, n: &str, d: &str) -> PResult {
    let parse = |s: &str| {
        s.parse::<BigInt>()
            .map_err(|_| ParseError::BadNumber(s.into()))
    };
    let (w, n, d) = (parse(w)?, parse(n)?, parse(d)?);
    if d.is_zero() || n >= d {
        return Err(ParseError::BadNumber("not a proper mixed number".into()));
    }
    Ok(Expr::Num {
        value: BigRational::from_integer(w) + BigRational::new(n, d),
        decimals: None,
    })
}
