//! The tokenizer and the parser of our SQL: one `SELECT` form and conditions.

use super::table::Cell;
use crate::toolkit::tool_env::ToolError;

/// Longest query we read.
const MAX_SQL: usize = 4_000;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(i64),
    Text(String),
    Sym(&'static str),
}

fn tokenize(sql: &str) -> Result<Vec<Tok>, ToolError> {
    if sql.len() > MAX_SQL {
        return Err("query too long".into());
    }
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Tok::Word(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            out.push(Tok::Int(
                text.parse()
                    .map_err(|_| format!("number {text} too large"))?,
            ));
        } else if c == '\'' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err("unclosed string literal".into()),
                    Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                        s.push('\'');
                        i += 2;
                    }
                    Some('\'') => {
                        i += 1;
                        break;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            out.push(Tok::Text(s));
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let sym = ["!=", "<>", "<=", ">="].into_iter().find(|s| *s == two);
            let sym = match sym {
                Some(s) => s,
                None => match c {
                    ',' => ",",
                    ';' => ";",
                    '(' => "(",
                    ')' => ")",
                    '*' => "*",
                    '.' => ".",
                    '=' => "=",
                    '<' => "<",
                    '>' => ">",
                    other => return Err(format!("unexpected character `{other}`").into()),
                },
            };
            i += sym.len();
            out.push(Tok::Sym(sym));
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Agg {
    Count,
    Sum,
    Min,
    Max,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Col(Option<String>, String),
    Lit(Cell),
    Cmp(Box<Expr>, &'static str, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// `None` is `COUNT(*)`.
    Agg(Agg, Option<Box<Expr>>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Query {
    /// Empty for `*`.
    pub(super) items: Vec<(Expr, String)>,
    pub(super) from: Vec<(String, String)>,
    pub(super) joins: Vec<Expr>,
    pub(super) filter: Option<Expr>,
    pub(super) group_by: Vec<Expr>,
    pub(super) order_by: Vec<(Expr, bool)>,
    pub(super) limit: Option<usize>,
}

impl Query {
    /// Whether the query orders its result (`ORDER BY`).
    pub(crate) fn is_ordered(&self) -> bool {
        !self.order_by.is_empty()
    }
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    /// Open `NOT`s, parentheses and aggregates: bounded so that a query
    /// nested thousands deep is refused instead of exhausting the stack.
    depth: usize,
}

/// How deep conditions and aggregates may nest.
const MAX_NESTING: usize = 32;

const KEYWORDS: &[&str] = &[
    "select", "from", "join", "inner", "on", "where", "group", "by", "order", "asc", "desc",
    "limit", "and", "or", "not", "as",
];

impl Parser {
    fn peek_kw(&self, kw: &str) -> bool {
        matches!(self.toks.get(self.at), Some(Tok::Word(w)) if w.eq_ignore_ascii_case(kw))
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        let found = self.peek_kw(kw);
        self.at += usize::from(found);
        found
    }

    fn expect_kw(&mut self, kw: &str) -> Result<(), ToolError> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(format!("expected {} near {}", kw.to_uppercase(), self.near()).into())
        }
    }

    fn eat_sym(&mut self, sym: &str) -> bool {
        let found = matches!(self.toks.get(self.at), Some(Tok::Sym(s)) if *s == sym);
        self.at += usize::from(found);
        found
    }

    fn near(&self) -> String {
        match self.toks.get(self.at) {
            None => "the end".into(),
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Int(i)) => format!("`{i}`"),
            Some(Tok::Text(s)) => format!("'{s}'"),
            Some(Tok::Sym(s)) => format!("`{s}`"),
        }
    }

    fn ident(&mut self) -> Result<String, ToolError> {
        match self.toks.get(self.at) {
            Some(Tok::Word(w)) if !KEYWORDS.contains(&w.to_lowercase().as_str()) => {
                self.at += 1;
                Ok(w.to_lowercase())
            }
            _ => Err(format!("expected a name near {}", self.near()).into()),
        }
    }

    fn cond(&mut self) -> Result<Expr, ToolError> {
        let mut left = self.conj()?;
        while self.eat_kw("or") {
            left = Expr::Or(Box::new(left), Box::new(self.conj()?));
        }
        Ok(left)
    }

    fn conj(&mut self) -> Result<Expr, ToolError> {
        let mut left = self.unary()?;
        while self.eat_kw("and") {
            left = Expr::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    /// Runs `parse` one nesting level deeper.
    fn nested<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        if self.depth >= MAX_NESTING {
            return Err(format!(
                "nested deeper than {MAX_NESTING} levels near {}",
                self.near()
            )
            .into());
        }
        self.depth += 1;
        let parsed = parse(self);
        self.depth -= 1;
        parsed
    }

    fn unary(&mut self) -> Result<Expr, ToolError> {
        if self.eat_kw("not") {
            return Ok(Expr::Not(Box::new(self.nested(Self::unary)?)));
        }
        if self.eat_sym("(") {
            let inner = self.nested(Self::cond)?;
            return if self.eat_sym(")") {
                Ok(inner)
            } else {
                Err(format!("expected `)` near {}", self.near()).into())
            };
        }
        let left = self.value()?;
        let op = ["=", "!=", "<>", "<=", ">=", "<", ">"]
            .into_iter()
            .find(|op| self.eat_sym(op));
        let op = op.ok_or_else(|| format!("expected a comparison near {}", self.near()))?;
        Ok(Expr::Cmp(
            Box::new(left),
            if op == "<>" { "!=" } else { op },
            Box::new(self.value()?),
        ))
    }

    fn value(&mut self) -> Result<Expr, ToolError> {
        match self.toks.get(self.at).cloned() {
            Some(Tok::Int(i)) => {
                self.at += 1;
                Ok(Expr::Lit(Cell::Int(i)))
            }
            Some(Tok::Text(s)) => {
                self.at += 1;
                Ok(Expr::Lit(Cell::Text(s)))
            }
            Some(Tok::Word(w)) => {
                let agg = match w.to_lowercase().as_str() {
                    "count" => Some(Agg::Count),
                    "sum" => Some(Agg::Sum),
                    "min" => Some(Agg::Min),
                    "max" => Some(Agg::Max),
                    _ => None,
                };
                if let Some(agg) =
                    agg.filter(|_| matches!(self.toks.get(self.at + 1), Some(Tok::Sym("("))))
                {
                    self.at += 2;
                    let arg = if agg == Agg::Count && self.eat_sym("*") {
                        None
                    } else {
                        Some(Box::new(self.nested(Self::value)?))
                    };
                    if !self.eat_sym(")") {
                        return Err(format!("expected `)` near {}", self.near()).into());
                    }
                    return Ok(Expr::Agg(agg, arg));
                }
                let first = self.ident()?;
                if self.eat_sym(".") {
                    Ok(Expr::Col(Some(first), self.ident()?))
                } else {
                    Ok(Expr::Col(None, first))
                }
            }
            _ => Err(format!("expected a value near {}", self.near()).into()),
        }
    }

    fn table_ref(&mut self) -> Result<(String, String), ToolError> {
        let table = self.ident()?;
        self.eat_kw("as");
        let alias = if matches!(self.toks.get(self.at), Some(Tok::Word(w)) if !KEYWORDS.contains(&w.to_lowercase().as_str()))
        {
            self.ident()?
        } else {
            table.clone()
        };
        Ok((table, alias))
    }

    fn count(&mut self) -> Result<usize, ToolError> {
        match self.toks.get(self.at) {
            Some(Tok::Int(n)) if *n >= 0 => {
                self.at += 1;
                Ok(*n as usize)
            }
            _ => Err(format!("expected a count near {}", self.near()).into()),
        }
    }

    fn query(&mut self) -> Result<Query, ToolError> {
        self.expect_kw("select")?;
        let mut items = Vec::new();
        if !self.eat_sym("*") {
            loop {
                let expr = self.value()?;
                let name = if self.eat_kw("as") {
                    self.ident()?
                } else {
                    display(&expr)
                };
                items.push((expr, name));
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        self.expect_kw("from")?;
        let mut from = vec![self.table_ref()?];
        let mut joins = Vec::new();
        loop {
            self.eat_kw("inner");
            if !self.eat_kw("join") {
                break;
            }
            from.push(self.table_ref()?);
            self.expect_kw("on")?;
            joins.push(self.cond()?);
        }
        let filter = if self.eat_kw("where") {
            Some(self.cond()?)
        } else {
            None
        };
        let mut group_by = Vec::new();
        if self.eat_kw("group") {
            self.expect_kw("by")?;
            loop {
                group_by.push(self.value()?);
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        let mut order_by = Vec::new();
        if self.eat_kw("order") {
            self.expect_kw("by")?;
            loop {
                let key = self.value()?;
                let desc = self.eat_kw("desc");
                if !desc {
                    self.eat_kw("asc");
                }
                order_by.push((key, desc));
                if !self.eat_sym(",") {
                    break;
                }
            }
        }
        let limit = if self.eat_kw("limit") {
            Some(self.count()?)
        } else {
            None
        };
        if self.at != self.toks.len() {
            return Err(format!("unexpected {} after the query", self.near()).into());
        }
        Ok(Query {
            items,
            from,
            joins,
            filter,
            group_by,
            order_by,
            limit,
        })
    }
}

fn display(expr: &Expr) -> String {
    match expr {
        Expr::Col(_, c) => c.clone(),
        Expr::Lit(v) => v.to_string(),
        Expr::Agg(a, arg) => {
            let inner = arg.as_ref().map_or("*".into(), |e| display(e));
            format!("{}({inner})", format!("{a:?}").to_lowercase())
        }
        _ => "expr".into(),
    }
}

/// Parses a `SELECT`.
///
/// # Errors
/// A message naming what was expected and where.
pub(crate) fn parse_query(sql: &str) -> Result<Query, ToolError> {
    Parser {
        toks: statement(sql)?,
        at: 0,
        depth: 0,
    }
    .query()
}

/// Tokens of one statement: trailing `;` are dropped, any other is an error
/// at its place.
fn statement(sql: &str) -> Result<Vec<Tok>, ToolError> {
    let mut toks = tokenize(sql)?;
    while toks.last() == Some(&Tok::Sym(";")) {
        toks.pop();
    }
    Ok(toks)
}

/// Parses a condition (for the edit tools' `where`).
///
/// # Errors
/// As [`parse_query`].
pub(crate) fn parse_condition(sql: &str) -> Result<Expr, ToolError> {
    let mut p = Parser {
        toks: statement(sql)?,
        at: 0,
        depth: 0,
    };
    let cond = p.cond()?;
    if p.at != p.toks.len() {
        return Err(format!("unexpected {} after the condition", p.near()).into());
    }
    Ok(cond)
}
