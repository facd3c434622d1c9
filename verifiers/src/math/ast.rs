//! The answer AST and its canonical text form.
//!
//! The canonical form (the `Display` impl) is what a [`super::Verdict`] reports as the
//! parsed answer; it is fully parenthesised so that it is unambiguous, not pretty.

use num_bigint::BigInt;
use num_rational::BigRational;
use std::fmt;

/// Named constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constant {
    Pi,
    E,
    Infinity,
}

/// One-argument functions with a fixed meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Sec,
    Csc,
    Cot,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Ln,
    Exp,
    Sqrt,
    Abs,
    Floor,
    Ceil,
}

impl Func {
    pub fn name(self) -> &'static str {
        match self {
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Sec => "sec",
            Func::Csc => "csc",
            Func::Cot => "cot",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Ln => "ln",
            Func::Exp => "exp",
            Func::Sqrt => "sqrt",
            Func::Abs => "abs",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
        }
    }

    /// The function named by a LaTeX command or a plain word, if any.
    pub fn from_name(name: &str) -> Option<Func> {
        Some(match name {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" | "tg" => Func::Tan,
            "sec" => Func::Sec,
            "csc" | "cosec" => Func::Csc,
            "cot" | "ctg" => Func::Cot,
            "arcsin" | "asin" => Func::Asin,
            "arccos" | "acos" => Func::Acos,
            "arctan" | "atan" => Func::Atan,
            "sinh" => Func::Sinh,
            "cosh" => Func::Cosh,
            "tanh" => Func::Tanh,
            "ln" | "log" => Func::Ln,
            "exp" => Func::Exp,
            "sqrt" => Func::Sqrt,
            "abs" => Func::Abs,
            _ => return None,
        })
    }

    /// The inverse function, for `\sin^{-1}` style notation.
    pub fn inverse(self) -> Option<Func> {
        Some(match self {
            Func::Sin => Func::Asin,
            Func::Cos => Func::Acos,
            Func::Tan => Func::Atan,
            _ => return None,
        })
    }
}

/// Relation operators. `>` and `≥` are kept as written; comparison flips them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
}

impl RelOp {
    pub fn symbol(self) -> &'static str {
        match self {
            RelOp::Eq => "=",
            RelOp::Ne => "!=",
            RelOp::Lt => "<",
            RelOp::Le => "<=",
            RelOp::Gt => ">",
            RelOp::Ge => ">=",
            RelOp::In => " in ",
        }
    }
}

/// A parsed answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An exact number; `decimals` is `Some(k)` when it was written with `k` decimal places.
    Num {
        value: BigRational,
        decimals: Option<u32>,
    },
    Sym(String),
    Const(Constant),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Pow(Box<Expr>, Box<Expr>),
    /// `a ± b` (`a` absent for a leading `±`): stands for the set of both values.
    PlusMinus(Option<Box<Expr>>, Box<Expr>),
    Func(Func, Box<Expr>),
    /// `\sqrt[index]{radicand}`.
    Root(Box<Expr>, Box<Expr>),
    /// `\log_{base}(arg)`.
    Log(Box<Expr>, Box<Expr>),
    Factorial(Box<Expr>),
    Binom(Box<Expr>, Box<Expr>),
    /// An uninterpreted function or indexed name: `f(x)`, `F_{n-1}`.
    Apply(String, Vec<Expr>),
    /// `x%`; `latex` records a LaTeX `\%` (a unit marker) versus a plain `%` (a /100).
    Percent(Box<Expr>, bool),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    /// Bare comma- or "and"-separated answers; compared as a set.
    List(Vec<Expr>),
    Interval {
        lo: Box<Expr>,
        hi: Box<Expr>,
        lo_closed: bool,
        hi_closed: bool,
    },
    Union(Vec<Expr>),
    /// `A \setminus B`: a set of reals without some of its members.
    Difference(Box<Expr>, Box<Expr>),
    Matrix(Vec<Vec<Expr>>),
    /// `a : b` (ratios, clock times): compared element-wise.
    Ratio(Vec<Expr>),
    /// A relation chain `items[0] ops[0] items[1] ops[1] ...`.
    Rel {
        items: Vec<Expr>,
        ops: Vec<RelOp>,
    },
    Text(String),
    /// One text with several readings, equal to anything one of them equals: `12,345`
    /// is the number 12345 or the list 12, 345 (a comma followed by three digits is a
    /// thousands separator or a list separator, and text cannot tell which). Only at
    /// the root of an answer; the readings differ only in how those commas are read.
    Readings(Vec<Expr>),
    /// `\sum`/`\prod` with bounds.
    BigOp {
        product: bool,
        var: String,
        lo: Box<Expr>,
        hi: Box<Expr>,
        body: Box<Expr>,
    },
}

impl Expr {
    pub fn int(n: i64) -> Expr {
        Expr::Num {
            value: BigRational::from_integer(BigInt::from(n)),
            decimals: None,
        }
    }

    /// Walks the tree, calling `f` on every node (pre-order).
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Num { .. } | Expr::Sym(_) | Expr::Const(_) | Expr::Text(_) => {}
            Expr::Neg(a) | Expr::Func(_, a) | Expr::Factorial(a) | Expr::Percent(a, _) => a.walk(f),
            Expr::Add(a, b)
            | Expr::Sub(a, b)
            | Expr::Mul(a, b)
            | Expr::Div(a, b)
            | Expr::Pow(a, b)
            | Expr::Root(a, b)
            | Expr::Log(a, b)
            | Expr::Binom(a, b)
            | Expr::Difference(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::PlusMinus(a, b) => {
                if let Some(a) = a {
                    a.walk(f);
                }
                b.walk(f);
            }
            Expr::Apply(_, xs)
            | Expr::Tuple(xs)
            | Expr::Set(xs)
            | Expr::List(xs)
            | Expr::Union(xs)
            | Expr::Readings(xs)
            | Expr::Ratio(xs) => xs.iter().for_each(|x| x.walk(f)),
            Expr::Rel { items, .. } => items.iter().for_each(|x| x.walk(f)),
            Expr::Matrix(rows) => rows.iter().flatten().for_each(|x| x.walk(f)),
            Expr::Interval { lo, hi, .. } => {
                lo.walk(f);
                hi.walk(f);
            }
            Expr::BigOp { lo, hi, body, .. } => {
                lo.walk(f);
                hi.walk(f);
                body.walk(f);
            }
        }
    }
}

fn join(f: &mut fmt::Formatter<'_>, xs: &[Expr], sep: &str) -> fmt::Result {
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Num { value, decimals } => match decimals {
                Some(_) if !value.is_integer() => {
                    write!(f, "{}", super::value::rational_to_decimal_string(value))
                }
                _ => write!(f, "{value}"),
            },
            Expr::Sym(s) => f.write_str(s),
            Expr::Const(Constant::Pi) => f.write_str("pi"),
            Expr::Const(Constant::E) => f.write_str("E"),
            Expr::Const(Constant::Infinity) => f.write_str("oo"),
            Expr::Neg(a) => write!(f, "(-{a})"),
            Expr::Add(a, b) => write!(f, "({a} + {b})"),
            Expr::Sub(a, b) => write!(f, "({a} - {b})"),
            Expr::Mul(a, b) => write!(f, "({a}*{b})"),
            Expr::Div(a, b) => write!(f, "({a}/{b})"),
            Expr::Pow(a, b) => write!(f, "({a}^{b})"),
            Expr::PlusMinus(None, b) => write!(f, "(±{b})"),
            Expr::PlusMinus(Some(a), b) => write!(f, "({a} ± {b})"),
            Expr::Func(func, a) => write!(f, "{}({a})", func.name()),
            Expr::Root(n, a) => write!(f, "root({a}, {n})"),
            Expr::Log(b, a) => write!(f, "log({a}, {b})"),
            Expr::Factorial(a) => write!(f, "({a})!"),
            Expr::Binom(n, k) => write!(f, "binomial({n}, {k})"),
            Expr::Apply(name, args) => {
                write!(f, "{name}(")?;
                join(f, args, ", ")?;
                f.write_str(")")
            }
            Expr::Percent(a, _) => write!(f, "{a}%"),
            Expr::Tuple(xs) => {
                f.write_str("(")?;
                join(f, xs, ", ")?;
                f.write_str(")")
            }
            Expr::Set(xs) => {
                f.write_str("{")?;
                join(f, xs, ", ")?;
                f.write_str("}")
            }
            Expr::List(xs) => join(f, xs, ", "),
            Expr::Interval {
                lo,
                hi,
                lo_closed,
                hi_closed,
            } => write!(
                f,
                "{}{lo}, {hi}{}",
                if *lo_closed { "[" } else { "(" },
                if *hi_closed { "]" } else { ")" }
            ),
            Expr::Union(xs) => join(f, xs, " U "),
            Expr::Difference(a, b) => write!(f, "({a} \\ {b})"),
            Expr::Readings(xs) => join(f, xs, " | "),
            Expr::Matrix(rows) => {
                f.write_str("Matrix([")?;
                for (i, row) in rows.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str("[")?;
                    join(f, row, ", ")?;
                    f.write_str("]")?;
                }
                f.write_str("])")
            }
            Expr::Ratio(xs) => join(f, xs, ":"),
            Expr::Rel { items, ops } => {
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(ops.get(i - 1).map_or(" ? ", |o| o.symbol()))?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
            Expr::Text(t) => write!(f, "text({t})"),
            Expr::BigOp {
                product,
                var,
                lo,
                hi,
                body,
            } => write!(
                f,
                "{}({body}, ({var}, {lo}, {hi}))",
                if *product { "Product" } else { "Sum" }
            ),
        }
    }
}
