//! The sheet of `tools/spreadsheet`: what cells hold, their values,
//! evaluation (memoised; cycles and over-long reference chains become error
//! values, never a panic or a hang) and row insertion.

use std::collections::BTreeMap;

use super::formula::{
    Addr, CmpOp, Expr, FormulaError, Func, MAX_CHAIN, MAX_COLS, MAX_ENTRY, MAX_ROWS, Op, fmt_num,
    parse_formula, render,
};

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
