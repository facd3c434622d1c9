//! The sheet of `tools/spreadsheet` and its small formula language: cell
//! addresses, parsing (with a length and a nesting cap), evaluation (memoised,
//! with cycles and over-long reference chains turned into error values, never
//! a panic or a hang), row insertion and rendering.
//!
//! Language: numbers, `"text"`, cell references (`B2`, `$B$2`), ranges
//! (`B2:B9`, only as arguments of SUM, AVERAGE, MIN, MAX and COUNT),
//! `+ - * /`, unary minus, parentheses, one comparison (`= <> < > <= >=`,
//! giving 1 or 0), `IF(test, then, else?)` and `ROUND(x, digits)`.

use std::collections::BTreeMap;

/// The sheet's size: rows `1..=MAX_ROWS`, columns `A..=L`.
pub const MAX_ROWS: usize = 64;
pub const MAX_COLS: usize = 12;
/// The longest cell entry (formula or text), in characters.
pub const MAX_ENTRY: usize = 200;
/// Parentheses, function calls and signs nested deeper than this are refused.
const MAX_NESTING: usize = 16;
/// A formula reached through a longer chain of references evaluates to
/// `#DEPTH!`: with [`MAX_NESTING`] it bounds the evaluator's recursion.
const MAX_CHAIN: usize = 48;

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

/// What a cell holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    Num(f64),
    Text(String),
    Formula(Expr),
}

impl Content {
    /// Reads an entry as a user types it: `=…` is a formula, a number (with
    /// an optional `$`, thousands commas or a trailing `%`) is a number, and
    /// anything else is text; blank clears the cell (`None`).
    pub fn parse(entry: &str) -> Result<Option<Content>, FormulaError> {
        let entry = entry.trim();
        if entry.chars().count() > MAX_ENTRY {
            return Err(FormulaError::TooLong);
        }
        if entry.is_empty() {
            return Ok(None);
        }
        if let Some(src) = entry.strip_prefix('=') {
            return parse_formula(src).map(|e| Some(Content::Formula(e)));
        }
        Ok(Some(match number(entry) {
            Some(n) => Content::Num(n),
            None => Content::Text(entry.to_string()),
        }))
    }

    /// The entry that [`Content::parse`] reads back as this content.
    pub fn entry(&self) -> String {
        match self {
            Content::Num(n) => format!("{n}"),
            Content::Text(t) => t.clone(),
            Content::Formula(e) => format!("={}", render(e)),
        }
    }
}

fn number(entry: &str) -> Option<f64> {
    let mut s = entry.trim_start_matches('$').replace(',', "");
    let percent = s.ends_with('%');
    if percent {
        s.pop();
    }
    let ok = s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b));
    let n: f64 = s.parse().ok().filter(|n: &f64| ok && n.is_finite())?;
    Some(if percent { n / 100.0 } else { n })
}

/// A cell's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Empty,
    Num(f64),
    Text(String),
    Err(Fault),
}

/// An error value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Div0,
    Value,
    Cycle,
    Depth,
    Num,
}

impl Value {
    pub fn show(&self) -> String {
        match self {
            Value::Empty => String::new(),
            Value::Num(n) => fmt_num(*n),
            Value::Text(t) => t.clone(),
            Value::Err(f) => match f {
                Fault::Div0 => "#DIV/0!",
                Fault::Value => "#VALUE!",
                Fault::Cycle => "#CYCLE!",
                Fault::Depth => "#DEPTH!",
                Fault::Num => "#NUM!",
            }
            .into(),
        }
    }

    /// Equal as the checker compares values: numbers within a relative
    /// 1e-6, text trimmed and without case, errors of the same kind.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Empty, Value::Empty) => true,
            (Value::Num(a), Value::Num(b)) => (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0),
            (Value::Text(a), Value::Text(b)) => a.trim().eq_ignore_ascii_case(b.trim()),
            (Value::Err(a), Value::Err(b)) => a == b,
            _ => false,
        }
    }
}

/// A sheet: the non-empty cells.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheet {
    pub cells: BTreeMap<Addr, Content>,
}

/// Why a row could not be inserted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    #[error("row must be in 1..={MAX_ROWS}")]
    BadRow,
    #[error("the sheet is full: row {MAX_ROWS} is in use")]
    Full,
    #[error("cell {0}: {1}")]
    Entry(String, FormulaError),
    #[error("no cell {0}")]
    BadCell(String),
}

impl Sheet {
    /// A sheet from `(cell, entry)` pairs.
    pub fn from_entries(entries: &[(String, String)]) -> Result<Sheet, SheetError> {
        let mut sheet = Sheet::default();
        for (cell, entry) in entries {
            let addr = Addr::parse(cell).ok_or_else(|| SheetError::BadCell(cell.clone()))?;
            let content = Content::parse(entry).map_err(|e| SheetError::Entry(cell.clone(), e))?;
            sheet.set(addr, content);
        }
        Ok(sheet)
    }

    /// The cells as `(cell, entry)` pairs, row by row.
    pub fn entries(&self) -> Vec<(String, String)> {
        let mut cells: Vec<(&Addr, &Content)> = self.cells.iter().collect();
        cells.sort_by_key(|(a, _)| (a.row, a.col));
        cells
            .into_iter()
            .map(|(a, c)| (a.name(), c.entry()))
            .collect()
    }

    pub fn get(&self, addr: Addr) -> Option<&Content> {
        self.cells.get(&addr)
    }

    pub fn set(&mut self, addr: Addr, content: Option<Content>) {
        match content {
            Some(c) => self.cells.insert(addr, c),
            None => self.cells.remove(&addr),
        };
    }

    /// The number of rows and columns up to the last non-empty cell.
    pub fn used(&self) -> (usize, usize) {
        self.cells
            .keys()
            .fold((0, 0), |(r, c), a| (r.max(a.row + 1), c.max(a.col + 1)))
    }

    /// Inserts a blank row before `row` (0-based): cells and references at
    /// or below it move down one, and a range of several rows that ends
    /// just above it grows to take the new row in.
    pub fn insert_row(&mut self, row: usize) -> Result<(), SheetError> {
        if row >= MAX_ROWS {
            return Err(SheetError::BadRow);
        }
        let last = MAX_ROWS - 1;
        let full = self.cells.iter().any(|(a, c)| {
            a.row == last || matches!(c, Content::Formula(e) if touches_row(e, last))
        });
        if full {
            return Err(SheetError::Full);
        }
        let cells = std::mem::take(&mut self.cells);
        for (a, mut c) in cells {
            if let Content::Formula(e) = &mut c {
                shift(e, row);
            }
            let at = if a.row >= row {
                Addr::new(a.row + 1, a.col)
            } else {
                a
            };
            self.cells.insert(at, c);
        }
        Ok(())
    }

    /// The values of `cells` alone (and of the cells they read).
    pub fn values_at(&self, cells: &[Addr]) -> Vec<Value> {
        let mut eval = Eval::new(self);
        cells.iter().map(|a| eval.cell(*a, 0)).collect()
    }

    /// Every cell's value.
    pub fn evaluate(&self) -> Values {
        let mut eval = Eval::new(self);
        for addr in self.cells.keys() {
            eval.cell(*addr, 0);
        }
        Values {
            grid: eval
                .memo
                .into_iter()
                .map(|s| match s {
                    Slot::Done(v) => v,
                    _ => Value::Empty,
                })
                .collect(),
        }
    }
}

fn touches_row(e: &Expr, row: usize) -> bool {
    match e {
        Expr::Ref(a) => a.row == row,
        Expr::Range(a, b) => a.row == row || b.row == row,
        Expr::Neg(x) => touches_row(x, row),
        Expr::Chain(x, rest) => {
            touches_row(x, row) || rest.iter().any(|(_, y)| touches_row(y, row))
        }
        Expr::Cmp(x, _, y) => touches_row(x, row) || touches_row(y, row),
        Expr::Call(_, args) => args.iter().any(|x| touches_row(x, row)),
        Expr::Num(_) | Expr::Str(_) => false,
    }
}

fn shift(e: &mut Expr, row: usize) {
    let down = |a: &mut Addr| {
        if a.row >= row {
            a.row += 1;
        }
    };
    match e {
        Expr::Ref(a) => down(a),
        Expr::Range(a, b) => {
            let grows = a.row < b.row && b.row + 1 == row;
            down(a);
            down(b);
            if grows {
                b.row += 1;
            }
        }
        Expr::Neg(x) => shift(x, row),
        Expr::Chain(x, rest) => {
            shift(x, row);
            rest.iter_mut().for_each(|(_, y)| shift(y, row));
        }
        Expr::Cmp(x, _, y) => {
            shift(x, row);
            shift(y, row);
        }
        Expr::Call(_, args) => args.iter_mut().for_each(|x| shift(x, row)),
        Expr::Num(_) | Expr::Str(_) => {}
    }
}

/// Every cell's value, by address.
#[derive(Clone, Debug)]
pub struct Values {
    grid: Vec<Value>,
}

impl Values {
    pub fn get(&self, addr: Addr) -> &Value {
        &self.grid[addr.row * MAX_COLS + addr.col]
    }
}

#[derive(Clone, Debug)]
enum Slot {
    Todo,
    Busy,
    Done(Value),
}

struct Eval<'a> {
    sheet: &'a Sheet,
    memo: Vec<Slot>,
}

type Num = Result<f64, Fault>;

fn finite(x: f64) -> Num {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Fault::Num)
    }
}

impl<'a> Eval<'a> {
    fn new(sheet: &'a Sheet) -> Self {
        Eval {
            sheet,
            memo: vec![Slot::Todo; MAX_ROWS * MAX_COLS],
        }
    }

    fn cell(&mut self, addr: Addr, depth: usize) -> Value {
        let sheet: &'a Sheet = self.sheet;
        let at = addr.row * MAX_COLS + addr.col;
        match &self.memo[at] {
            Slot::Done(v) => return v.clone(),
            Slot::Busy => return Value::Err(Fault::Cycle),
            Slot::Todo => {}
        }
        let value = match sheet.get(addr) {
            None => Value::Empty,
            Some(Content::Num(n)) => Value::Num(*n),
            Some(Content::Text(t)) => Value::Text(t.clone()),
            Some(Content::Formula(_)) if depth >= MAX_CHAIN => Value::Err(Fault::Depth),
            Some(Content::Formula(e)) => {
                self.memo[at] = Slot::Busy;
                match self.value(e, depth + 1) {
                    // A formula that points at an empty cell shows 0.
                    Value::Empty => Value::Num(0.0),
                    v => v,
                }
            }
        };
        self.memo[at] = Slot::Done(value.clone());
        value
    }

    fn num(&mut self, e: &Expr, depth: usize) -> Num {
        match self.value(e, depth) {
            Value::Empty => Ok(0.0),
            Value::Num(n) => Ok(n),
            Value::Text(_) => Err(Fault::Value),
            Value::Err(f) => Err(f),
        }
    }

    fn value(&mut self, e: &Expr, depth: usize) -> Value {
        let result = match e {
            Expr::Num(n) => return Value::Num(*n),
            Expr::Str(s) => return Value::Text(s.clone()),
            Expr::Ref(a) => return self.cell(*a, depth),
            Expr::Range(..) => Err(Fault::Value),
            Expr::Neg(x) => self.num(x, depth).map(|v| -v),
            Expr::Chain(first, rest) => self.chain(first, rest, depth),
            Expr::Cmp(a, op, b) => self.compare(a, *op, b, depth),
            Expr::Call(Func::If, args) => {
                return match self.num(&args[0], depth) {
                    Err(f) => Value::Err(f),
                    Ok(test) => match args.get(if test != 0.0 { 1 } else { 2 }) {
                        None => Value::Num(0.0),
                        Some(branch) => match self.value(branch, depth) {
                            Value::Empty => Value::Num(0.0),
                            v => v,
                        },
                    },
                };
            }
            Expr::Call(Func::Round, args) => self.round(&args[0], &args[1], depth),
            Expr::Call(func, args) => self.aggregate(*func, args, depth),
        };
        match result.and_then(finite) {
            Ok(n) => Value::Num(n),
            Err(f) => Value::Err(f),
        }
    }

    fn chain(&mut self, first: &Expr, rest: &[(Op, Expr)], depth: usize) -> Num {
        let mut acc = self.num(first, depth)?;
        for (op, x) in rest {
            let v = self.num(x, depth)?;
            acc = match op {
                Op::Add => acc + v,
                Op::Sub => acc - v,
                Op::Mul => acc * v,
                Op::Div if v == 0.0 => return Err(Fault::Div0),
                Op::Div => acc / v,
            };
            acc = finite(acc)?;
        }
        Ok(acc)
    }

    fn compare(&mut self, a: &Expr, op: CmpOp, b: &Expr, depth: usize) -> Num {
        use std::cmp::Ordering;
        let (x, y) = (self.value(a, depth), self.value(b, depth));
        let order = match (&x, &y) {
            (Value::Err(f), _) | (_, Value::Err(f)) => return Err(*f),
            (Value::Text(s), Value::Text(t)) => s.to_lowercase().cmp(&t.to_lowercase()),
            (Value::Text(s), Value::Empty) => s.as_str().cmp(""),
            (Value::Empty, Value::Text(t)) => "".cmp(t.as_str()),
            (Value::Text(_), _) | (_, Value::Text(_)) => return Err(Fault::Value),
            _ => {
                let n = |v: &Value| if let Value::Num(n) = v { *n } else { 0.0 };
                n(&x).partial_cmp(&n(&y)).unwrap_or(Ordering::Equal)
            }
        };
        let holds = match op {
            CmpOp::Eq => order == Ordering::Equal,
            CmpOp::Ne => order != Ordering::Equal,
            CmpOp::Lt => order == Ordering::Less,
            CmpOp::Gt => order == Ordering::Greater,
            CmpOp::Le => order != Ordering::Greater,
            CmpOp::Ge => order != Ordering::Less,
        };
        Ok(f64::from(u8::from(holds)))
    }

    fn round(&mut self, x: &Expr, digits: &Expr, depth: usize) -> Num {
        let x = self.num(x, depth)?;
        let digits = self.num(digits, depth)?.trunc();
        if !(-6.0..=6.0).contains(&digits) {
            return Err(Fault::Value);
        }
        let scale = 10f64.powi(digits as i32);
        finite((x * scale).round() / scale)
    }

    fn aggregate(&mut self, func: Func, args: &[Expr], depth: usize) -> Num {
        let mut numbers = Vec::new();
        for arg in args {
            if let Expr::Range(a, b) = arg {
                for row in a.row..=b.row {
                    for col in a.col..=b.col {
                        match self.cell(Addr::new(row, col), depth) {
                            Value::Num(n) => numbers.push(n),
                            Value::Err(f) => return Err(f),
                            Value::Empty | Value::Text(_) => {}
                        }
                    }
                }
            } else {
                match self.value(arg, depth) {
                    Value::Num(n) => numbers.push(n),
                    Value::Err(f) => return Err(f),
                    Value::Text(_) => return Err(Fault::Value),
                    Value::Empty => {}
                }
            }
        }
        let fold = |init: f64, f: fn(f64, f64) -> f64| numbers.iter().copied().fold(init, f);
        Ok(match func {
            Func::Sum => fold(0.0, |a, b| a + b),
            Func::Average if numbers.is_empty() => return Err(Fault::Div0),
            Func::Average => fold(0.0, |a, b| a + b) / numbers.len() as f64,
            Func::Min if numbers.is_empty() => 0.0,
            Func::Min => fold(f64::INFINITY, f64::min),
            Func::Max if numbers.is_empty() => 0.0,
            Func::Max => fold(f64::NEG_INFINITY, f64::max),
            Func::Count => numbers.len() as f64,
            Func::If | Func::Round => return Err(Fault::Value),
        })
    }
}
