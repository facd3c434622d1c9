//! The small formula language of `tools/spreadsheet`: cell addresses,
//! parsing (with a length and a nesting cap) and rendering. The sheet and
//! evaluation are in [`super::sheet`].
//!
//! Language: numbers, `"text"`, cell references (`B2`, `$B$2`), ranges
//! (`B2:B9`, only as arguments of SUM, AVERAGE, MIN, MAX and COUNT),
//! `+ - * /`, unary minus, parentheses, one comparison (`= <> < > <= >=`,
//! giving 1 or 0), `IF(test, then, else?)` and `ROUND(x, digits)`.

/// The sheet's size: rows `1..=MAX_ROWS`, columns `A..=L`.
pub const MAX_ROWS: usize = 64;
pub const MAX_COLS: usize = 12;
/// The longest cell entry (formula or text), in characters.
pub const MAX_ENTRY: usize = 200;
/// Parentheses, function calls and signs nested deeper than this are refused.
pub(super) const MAX_NESTING: usize = 16;
/// A formula reached through a longer chain of references evaluates to
/// `#DEPTH!`: with [`MAX_NESTING`] it bounds the evaluator's recursion.
pub(super) const MAX_CHAIN: usize = 48;

/// Why an entry was refused (the cell keeps its content).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormulaError {
    #[error("the entry is longer than {MAX_ENTRY} characters")]
    TooLong,
    #[error("the formula nests deeper than {MAX_NESTING} levels")]
    TooDeep,
    #[error("unexpected `{0}` in the formula")]
    Unexpected(String),
    #[error("the formula ends too early")]
    End,
    #[error("unknown function or cell `{0}` (cells are A1..L64)")]
    Unknown(String),
    #[error("a range like B2:B9 can only be an argument of SUM, AVERAGE, MIN, MAX or COUNT")]
    RangeOutside,
    #[error("{0} takes {1} arguments")]
    Arity(&'static str, &'static str),
}

/// A cell, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Addr {
    pub row: usize,
    pub col: usize,
}

impl Addr {
    pub fn new(row: usize, col: usize) -> Self {
        Addr { row, col }
    }

    /// `B12`, `b12` or `$B$12` (surrounding spaces ignored); `None` outside the sheet.
    pub fn parse(text: &str) -> Option<Addr> {
        let text: String = text.trim().chars().filter(|c| *c != '$').collect();
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        let col = (letter as u8 - b'A') as usize;
        ((1..=MAX_ROWS).contains(&row) && col < MAX_COLS).then(|| Addr::new(row - 1, col))
    }

    pub fn name(&self) -> String {
        format!("{}{}", col_name(self.col), self.row + 1)
    }
}

pub fn col_name(col: usize) -> char {
    (b'A' + col as u8) as char
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Sum,
    Average,
    Min,
    Max,
    Count,
    If,
    Round,
}

impl Func {
    fn named(name: &str) -> Option<Func> {
        Some(match name.to_ascii_uppercase().as_str() {
            "SUM" => Func::Sum,
            "AVERAGE" => Func::Average,
            "MIN" => Func::Min,
            "MAX" => Func::Max,
            "COUNT" => Func::Count,
            "IF" => Func::If,
            "ROUND" => Func::Round,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Func::Sum => "SUM",
            Func::Average => "AVERAGE",
            Func::Min => "MIN",
            Func::Max => "MAX",
            Func::Count => "COUNT",
            Func::If => "IF",
            Func::Round => "ROUND",
        }
    }

    fn takes_ranges(self) -> bool {
        !matches!(self, Func::If | Func::Round)
    }
}

/// A parsed formula. Sums and products are flat chains, so a long formula
/// is wide, not deep.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    Str(String),
    Ref(Addr),
    /// Top-left and bottom-right corners.
    Range(Addr, Addr),
    Neg(Box<Expr>),
    Chain(Box<Expr>, Vec<(Op, Expr)>),
    Cmp(Box<Expr>, CmpOp, Box<Expr>),
    Call(Func, Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Str(String),
    Word(String),
    Sym(char),
    Cmp(CmpOp),
}

fn tokenize(src: &str) -> Result<Vec<Tok>, FormulaError> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            // Literals of up to 15 digits read back exactly from their render.
            if text.len() > 16 {
                return Err(FormulaError::Unexpected(text));
            }
            let n: f64 = text.parse().map_err(|_| FormulaError::Unexpected(text))?;
            out.push(Tok::Num(n));
        } else if c.is_ascii_alphabetic() || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '$') {
                i += 1;
            }
            out.push(Tok::Word(chars[start..i].iter().collect()));
        } else if c == '"' {
            let end = chars[i + 1..]
                .iter()
                .position(|&q| q == '"')
                .ok_or(FormulaError::End)?;
            out.push(Tok::Str(chars[i + 1..i + 1 + end].iter().collect()));
            i += end + 2;
        } else if "+-*/(),:".contains(c) {
            out.push(Tok::Sym(c));
            i += 1;
        } else if "=<>".contains(c) {
            let next = chars.get(i + 1).copied();
            let (op, len) = match (c, next) {
                ('<', Some('=')) => (CmpOp::Le, 2),
                ('>', Some('=')) => (CmpOp::Ge, 2),
                ('<', Some('>')) => (CmpOp::Ne, 2),
                ('<', _) => (CmpOp::Lt, 1),
                ('>', _) => (CmpOp::Gt, 1),
                _ => (CmpOp::Eq, 1),
            };
            out.push(Tok::Cmp(op));
            i += len;
        } else {
            return Err(FormulaError::Unexpected(c.to_string()));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn next(&mut self) -> Result<Tok, FormulaError> {
        let tok = self.toks.get(self.at).cloned().ok_or(FormulaError::End)?;
        self.at += 1;
        Ok(tok)
    }

    fn sym(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Sym(c))
    }

    fn expect(&mut self, c: char) -> Result<(), FormulaError> {
        match self.next()? {
            Tok::Sym(s) if s == c => Ok(()),
            other => Err(unexpected(&other)),
        }
    }

    fn enter(&mut self) -> Result<(), FormulaError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(FormulaError::TooDeep);
        }
        Ok(())
    }

    fn comparison(&mut self) -> Result<Expr, FormulaError> {
        let left = self.chain(true)?;
        if let Some(Tok::Cmp(op)) = self.peek().cloned() {
            self.at += 1;
            let right = self.chain(true)?;
            return Ok(Expr::Cmp(Box::new(left), op, Box::new(right)));
        }
        Ok(left)
    }

    /// `additive` chains of `+ -` over products, else chains of `* /` over signed factors.
    fn chain(&mut self, additive: bool) -> Result<Expr, FormulaError> {
        let operand = |p: &mut Parser| {
            if additive { p.chain(false) } else { p.unary() }
        };
        let first = operand(self)?;
        let mut rest = Vec::new();
        loop {
            let op = match self.peek() {
                Some(Tok::Sym('+')) if additive => Op::Add,
                Some(Tok::Sym('-')) if additive => Op::Sub,
                Some(Tok::Sym('*')) if !additive => Op::Mul,
                Some(Tok::Sym('/')) if !additive => Op::Div,
                _ => break,
            };
            self.at += 1;
            rest.push((op, operand(self)?));
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Expr::Chain(Box::new(first), rest)
        })
    }

    fn unary(&mut self) -> Result<Expr, FormulaError> {
        if self.sym('-') || self.sym('+') {
            let minus = self.sym('-');
            self.at += 1;
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            return Ok(if minus {
                Expr::Neg(Box::new(inner))
            } else {
                inner
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, FormulaError> {
        match self.next()? {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Sym('(') => {
                self.enter()?;
                let inner = self.comparison()?;
                self.expect(')')?;
                self.depth -= 1;
                Ok(inner)
            }
            Tok::Word(word) if self.sym('(') => {
                let func = Func::named(&word).ok_or(FormulaError::Unknown(word))?;
                self.at += 1;
                self.enter()?;
                let mut args = vec![self.argument(func)?];
                while self.sym(',') {
                    self.at += 1;
                    args.push(self.argument(func)?);
                }
                self.expect(')')?;
                self.depth -= 1;
                let arity = match func {
                    Func::If => (2..=3)
                        .contains(&args.len())
                        .then_some(())
                        .ok_or(FormulaError::Arity("IF", "2 or 3")),
                    Func::Round => (args.len() == 2)
                        .then_some(())
                        .ok_or(FormulaError::Arity("ROUND", "2")),
                    _ => (args.len() <= 30)
                        .then_some(())
                        .ok_or(FormulaError::Arity("an aggregate", "1 to 30")),
                };
                arity?;
                Ok(Expr::Call(func, args))
            }
            Tok::Word(word) => {
                let addr = Addr::parse(&word).ok_or(FormulaError::Unknown(word))?;
                if self.sym(':') {
                    return Err(FormulaError::RangeOutside);
                }
                Ok(Expr::Ref(addr))
            }
            other => Err(unexpected(&other)),
        }
    }

    fn argument(&mut self, func: Func) -> Result<Expr, FormulaError> {
        if let (Some(Tok::Word(a)), Some(Tok::Sym(':')), Some(Tok::Word(b))) = (
            self.toks.get(self.at).cloned(),
            self.toks.get(self.at + 1).cloned(),
            self.toks.get(self.at + 2).cloned(),
        ) {
            if !func.takes_ranges() {
                return Err(FormulaError::RangeOutside);
            }
            let from = Addr::parse(&a).ok_or(FormulaError::Unknown(a))?;
            let to = Addr::parse(&b).ok_or(FormulaError::Unknown(b))?;
            self.at += 3;
            return Ok(Expr::Range(
                Addr::new(from.row.min(to.row), from.col.min(to.col)),
                Addr::new(from.row.max(to.row), from.col.max(to.col)),
            ));
        }
        self.comparison()
    }
}

fn unexpected(tok: &Tok) -> FormulaError {
    FormulaError::Unexpected(match tok {
        Tok::Num(n) => fmt_num(*n),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Word(w) => w.clone(),
        Tok::Sym(c) => c.to_string(),
        Tok::Cmp(_) => "comparison".into(),
    })
}

/// Parses a formula without its leading `=`.
pub fn parse_formula(src: &str) -> Result<Expr, FormulaError> {
    if src.chars().count() > MAX_ENTRY {
        return Err(FormulaError::TooLong);
    }
    let mut parser = Parser {
        toks: tokenize(src)?,
        at: 0,
        depth: 0,
    };
    let expr = parser.comparison()?;
    match parser.peek() {
        None => Ok(expr),
        Some(tok) => Err(unexpected(tok)),
    }
}

/// A number as the sheet shows it: integers plainly, others with at most
/// six decimals.
pub fn fmt_num(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        return format!("{x:e}");
    }
    if x.fract() == 0.0 {
        return format!("{}", x as i64);
    }
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// A formula as text (parenthesised where a nested chain or comparison needs it).
pub fn render(e: &Expr) -> String {
    fn wrapped(e: &Expr) -> String {
        match e {
            Expr::Chain(..) | Expr::Cmp(..) => format!("({})", render(e)),
            _ => render(e),
        }
    }
    match e {
        // Shortest digits that read back exactly (never an exponent).
        Expr::Num(n) => format!("{n}"),
        Expr::Str(s) => format!("\"{s}\""),
        Expr::Ref(a) => a.name(),
        Expr::Range(a, b) => format!("{}:{}", a.name(), b.name()),
        Expr::Neg(inner) => format!("-{}", wrapped(inner.as_ref())),
        Expr::Chain(first, rest) => {
            let mul = is_mul(e);
            // A comparison anywhere, and any chain but a product inside a
            // sum, keeps its parentheses (else it would read back flattened).
            let part = |x: &Expr| match x {
                Expr::Chain(..) if !mul && is_mul(x) => render(x),
                _ => wrapped(x),
            };
            let first = part(first.as_ref());
            let mut out = first;
            for (op, x) in rest {
                out.push(match op {
                    Op::Add => '+',
                    Op::Sub => '-',
                    Op::Mul => '*',
                    Op::Div => '/',
                });
                out.push_str(&part(x));
            }
            out
        }
        Expr::Cmp(a, op, b) => {
            let sym = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "<>",
                CmpOp::Lt => "<",
                CmpOp::Gt => ">",
                CmpOp::Le => "<=",
                CmpOp::Ge => ">=",
            };
            format!("{}{sym}{}", wrapped(a.as_ref()), wrapped(b.as_ref()))
        }
        Expr::Call(f, args) => {
            let args: Vec<String> = args.iter().map(render).collect();
            format!("{}({})", f.name(), args.join(","))
        }
    }
}

fn is_mul(e: &Expr) -> bool {
    matches!(e, Expr::Chain(_, rest) if matches!(rest.first(), Some((Op::Mul | Op::Div, _))))
}
