//! The expressions of the mirrored min_coins lines: a lexer, a precedence parser and an
//! evaluator with Python's or C's semantics (see the parent module).

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Val {
    Int(i64),
    Inf,
}

/// Why a run stopped without a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Stop {
    /// The program fails (an exception, a trap): every test on this amount kills it.
    Crash,
    /// The host cannot tell what the sandbox would do.
    Unmirrored,
}

pub(crate) type Outcome = Result<Val, Stop>;

#[derive(Clone, Copy, Debug)]
pub(super) enum Var {
    A,
    C,
    J,
    Amount,
    Inf,
}

#[derive(Clone, Debug)]
pub(super) enum Expr {
    Int(i64),
    Var(Var),
    Best(Box<Expr>),
    Coins(Box<Expr>),
    Neg(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
}

const OPS: &[&str] = &[
    "&&", "||", "<=", ">=", "==", "!=", "//", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]",
];

fn lex(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
        } else if b[i].is_ascii_alphanumeric() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(src[start..i].to_string());
        } else {
            let op = OPS
                .iter()
                .find(|op| src[i..].starts_with(**op))
                .unwrap_or_else(|| panic!("mirror: unexpected `{}` in `{src}`", &src[i..]));
            out.push((*op).to_string());
            i += op.len();
        }
    }
    out
}

/// Binary operators by binding strength, loosest first (Python words mapped to C's).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["<", "<=", ">", ">=", "==", "!="],
    &["+", "-"],
    &["*", "/", "//", "%"],
];

pub(super) struct Parser {
    toks: Vec<String>,
    at: usize,
}

impl Parser {
    pub(super) fn parse(src: &str) -> Expr {
        let toks = lex(src)
            .into_iter()
            .map(|t| match t.as_str() {
                "and" => "&&".into(),
                "or" => "||".into(),
                _ => t,
            })
            .collect();
        let mut p = Parser { toks, at: 0 };
        let e = p.binary(0);
        assert_eq!(p.at, p.toks.len(), "mirror: trailing tokens in `{src}`");
        e
    }

    fn peek(&self) -> Option<&str> {
        self.toks.get(self.at).map(String::as_str)
    }

    fn eat(&mut self, want: &str) {
        assert_eq!(self.peek(), Some(want), "mirror: expected `{want}`");
        self.at += 1;
    }

    fn binary(&mut self, level: usize) -> Expr {
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut left = self.binary(level + 1);
        while let Some(op) = self
            .peek()
            .and_then(|t| LEVELS[level].iter().find(|o| **o == t))
        {
            self.at += 1;
            let right = self.binary(level + 1);
            left = Expr::Bin(op, Box::new(left), Box::new(right));
        }
        left
    }

    fn unary(&mut self) -> Expr {
        let tok = self
            .peek()
            .expect("mirror: expression ends early")
            .to_string();
        self.at += 1;
        match tok.as_str() {
            "-" => Expr::Neg(Box::new(self.unary())),
            "+" => self.unary(),
            "(" => {
                let e = self.binary(0);
                self.eat(")");
                e
            }
            "best" | "coins" => {
                self.eat("[");
                let index = Box::new(self.binary(0));
                self.eat("]");
                if tok == "best" {
                    Expr::Best(index)
                } else {
                    Expr::Coins(index)
                }
            }
            _ => match tok.parse::<i64>() {
                Ok(n) => Expr::Int(n),
                Err(_) => Expr::Var(match tok.as_str() {
                    "a" => Var::A,
                    "c" => Var::C,
                    "j" => Var::J,
                    "amount" => Var::Amount,
                    "INF" => Var::Inf,
                    other => panic!("mirror: unknown name `{other}`"),
                }),
            },
        }
    }
}

/// The state one evaluation sees.
pub(super) struct Ctx<'a> {
    pub(super) python: bool,
    pub(super) best: &'a mut Vec<Val>,
    pub(super) coins: &'a [i64],
    pub(super) a: i64,
    pub(super) c: i64,
    pub(super) j: i64,
    pub(super) amount: i64,
    /// Highest index read or written, and whether a negative one was read.
    pub(super) max_index: i64,
    pub(super) negative: bool,
    /// When set, the only cell a read may see (the return reads `best[amount]` only).
    pub(super) only: Option<(i64, Val)>,
}

impl Ctx<'_> {
    pub(super) fn index(&mut self, i: i64) -> Result<usize, Stop> {
        self.max_index = self.max_index.max(i);
        let len = self.best.len() as i64;
        if self.python {
            self.negative |= i < 0;
            let k = if i < 0 { i + len } else { i };
            if (0..len).contains(&k) {
                Ok(k as usize)
            } else {
                Err(Stop::Crash)
            }
        } else if (0..len).contains(&i) {
            Ok(i as usize)
        } else {
            Err(Stop::Unmirrored)
        }
    }

    pub(super) fn int(&mut self, e: &Expr) -> Result<i64, Stop> {
        match self.eval(e)? {
            Val::Int(n) => Ok(n),
            Val::Inf => Err(Stop::Crash),
        }
    }

    pub(super) fn truthy(&mut self, e: &Expr) -> Result<bool, Stop> {
        Ok(self.eval(e)? != Val::Int(0))
    }

    pub(super) fn eval(&mut self, e: &Expr) -> Result<Val, Stop> {
        use Val::{Inf, Int};
        Ok(match e {
            Expr::Int(n) => Int(*n),
            Expr::Var(v) => match v {
                Var::A => Int(self.a),
                Var::C => Int(self.c),
                Var::J => Int(self.j),
                Var::Amount => Int(self.amount),
                Var::Inf => Inf,
            },
            Expr::Best(i) => {
                let i = self.int(i)?;
                if let Some((k, v)) = self.only {
                    return if i == k { Ok(v) } else { Err(Stop::Unmirrored) };
                }
                let k = self.index(i)?;
                self.best[k]
            }
            Expr::Coins(j) => {
                let j = self.int(j)?;
                usize::try_from(j)
                    .ok()
                    .and_then(|j| self.coins.get(j))
                    .map(|&c| Int(c))
                    .ok_or(Stop::Unmirrored)?
            }
            Expr::Neg(x) => match self.eval(x)? {
                Int(n) => Int(n.checked_neg().ok_or(Stop::Unmirrored)?),
                Inf => return Err(Stop::Unmirrored),
            },
            Expr::Bin("&&", l, r) => Int(i64::from(self.truthy(l)? && self.truthy(r)?)),
            Expr::Bin("||", l, r) => Int(i64::from(self.truthy(l)? || self.truthy(r)?)),
            Expr::Bin(op, l, r) => {
                let (x, y) = (self.eval(l)?, self.eval(r)?);
                let rank = |v: Val| match v {
                    Int(n) => (0, n),
                    Inf => (1, 0),
                };
                let (x0, y0) = (rank(x), rank(y));
                match (*op, x, y) {
                    ("<", ..) => Int(i64::from(x0 < y0)),
                    ("<=", ..) => Int(i64::from(x0 <= y0)),
                    (">", ..) => Int(i64::from(x0 > y0)),
                    (">=", ..) => Int(i64::from(x0 >= y0)),
                    ("==", ..) => Int(i64::from(x0 == y0)),
                    ("!=", ..) => Int(i64::from(x0 != y0)),
                    ("+" | "-", Inf, Int(_)) => Inf,
                    ("+", Int(_), Inf) => Inf,
                    (_, Int(x), Int(y)) => Int(self.arith(op, x, y)?),
                    _ => return Err(Stop::Unmirrored),
                }
            }
        })
    }

    fn arith(&self, op: &str, x: i64, y: i64) -> Result<i64, Stop> {
        if matches!(op, "/" | "//" | "%") && y == 0 {
            return Err(Stop::Crash);
        }
        let r = match op {
            "+" => x.checked_add(y),
            "-" => x.checked_sub(y),
            "*" => x.checked_mul(y),
            "/" if !self.python => x.checked_div(y),
            "//" if self.python => x.checked_div_euclid(y).map(|q| {
                // Floor division: Euclid's quotient rounds toward -inf only for y > 0.
                if y < 0 && x.rem_euclid(y) != 0 {
                    q + 1
                } else {
                    q
                }
            }),
            "%" if self.python => Some(((x % y) + y) % y),
            "%" => x.checked_rem(y),
            _ => None,
        };
        r.ok_or(Stop::Unmirrored)
    }
}
