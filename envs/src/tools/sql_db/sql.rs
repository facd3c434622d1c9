//! Our own small SQL: a tokenizer, a parser for one `SELECT` form and for
//! conditions, and an executor over in-memory tables. Nothing is evaluated
//! but this grammar.
//!
//! ```text
//! SELECT * | item [AS name], …  FROM t [a] [JOIN t [a] ON cond]…
//!   [WHERE cond] [GROUP BY expr, …] [ORDER BY expr|n [ASC|DESC], …] [LIMIT n]
//! item: expr | COUNT(*) | COUNT(expr) | SUM(expr) | MIN(expr) | MAX(expr)
//! cond: cond OR cond | cond AND cond | NOT cond | (cond) | expr op expr
//! op:   = != <> < <= > >=          expr: column | t.column | integer | 'text'
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A cell: integers and text only (no NULLs in generated tables).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Int(i64),
    Text(String),
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Text(s) => write!(f, "{s}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub columns: Vec<String>,
    /// Per column: true for integers, false for text.
    pub int_columns: Vec<bool>,
    pub rows: Vec<Vec<Cell>>,
}

pub type Db = BTreeMap<String, Table>;

/// Longest query we read, and most rows a join may build.
const MAX_SQL: usize = 4_000;
const MAX_ROWS: usize = 50_000;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(i64),
    Text(String),
    Sym(&'static str),
}

fn tokenize(sql: &str) -> Result<Vec<Tok>, String> {
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
                    other => return Err(format!("unexpected character `{other}`")),
                },
            };
            i += sym.len();
            out.push(Tok::Sym(sym));
        }
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    Count,
    Sum,
    Min,
    Max,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
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
pub struct Query {
    /// Empty for `*`.
    items: Vec<(Expr, String)>,
    from: Vec<(String, String)>,
    joins: Vec<Expr>,
    filter: Option<Expr>,
    group_by: Vec<Expr>,
    order_by: Vec<(Expr, bool)>,
    limit: Option<usize>,
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

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

    fn expect_kw(&mut self, kw: &str) -> Result<(), String> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(format!(
                "expected {} near {}",
                kw.to_uppercase(),
                self.near()
            ))
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

    fn ident(&mut self) -> Result<String, String> {
        match self.toks.get(self.at) {
            Some(Tok::Word(w)) if !KEYWORDS.contains(&w.to_lowercase().as_str()) => {
                self.at += 1;
                Ok(w.to_lowercase())
            }
            _ => Err(format!("expected a name near {}", self.near())),
        }
    }

    fn cond(&mut self) -> Result<Expr, String> {
        let mut left = self.conj()?;
        while self.eat_kw("or") {
            left = Expr::Or(Box::new(left), Box::new(self.conj()?));
        }
        Ok(left)
    }

    fn conj(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while self.eat_kw("and") {
            left = Expr::And(Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat_kw("not") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat_sym("(") {
            let inner = self.cond()?;
            return if self.eat_sym(")") {
                Ok(inner)
            } else {
                Err(format!("expected `)` near {}", self.near()))
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

    fn value(&mut self) -> Result<Expr, String> {
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
                        Some(Box::new(self.value()?))
                    };
                    if !self.eat_sym(")") {
                        return Err(format!("expected `)` near {}", self.near()));
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
            _ => Err(format!("expected a value near {}", self.near())),
        }
    }

    fn table_ref(&mut self) -> Result<(String, String), String> {
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

    fn count(&mut self) -> Result<usize, String> {
        match self.toks.get(self.at) {
            Some(Tok::Int(n)) if *n >= 0 => {
                self.at += 1;
                Ok(*n as usize)
            }
            _ => Err(format!("expected a count near {}", self.near())),
        }
    }

    fn query(&mut self) -> Result<Query, String> {
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
            return Err(format!("unexpected {} after the query", self.near()));
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
pub fn parse_query(sql: &str) -> Result<Query, String> {
    Parser {
        toks: statement(sql)?,
        at: 0,
    }
    .query()
}

/// Tokens of one statement: trailing `;` are dropped, any other is an error
/// at its place.
fn statement(sql: &str) -> Result<Vec<Tok>, String> {
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
pub fn parse_condition(sql: &str) -> Result<Expr, String> {
    let mut p = Parser {
        toks: statement(sql)?,
        at: 0,
    };
    let cond = p.cond()?;
    if p.at != p.toks.len() {
        return Err(format!("unexpected {} after the condition", p.near()));
    }
    Ok(cond)
}

/// Column bindings of a row: (table alias, column name).
type Scope = [(String, String)];

fn lookup(scope: &Scope, table: &Option<String>, col: &str) -> Result<usize, String> {
    let hits: Vec<usize> = (0..scope.len())
        .filter(|&i| scope[i].1 == col && table.as_ref().is_none_or(|t| *t == scope[i].0))
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "no column {}{col}",
            table.as_ref().map_or(String::new(), |t| format!("{t}."))
        )),
        _ => Err(format!(
            "column {col} is ambiguous: qualify it with its table"
        )),
    }
}

/// Evaluates a non-aggregate expression on one row; conditions give 1 or 0.
pub fn eval(expr: &Expr, scope: &Scope, row: &[Cell]) -> Result<Cell, String> {
    let truth = |b: bool| Cell::Int(i64::from(b));
    let test = |e: &Expr| eval(e, scope, row).map(|c| c == Cell::Int(1));
    Ok(match expr {
        Expr::Col(t, c) => row[lookup(scope, t, c)?].clone(),
        Expr::Lit(v) => v.clone(),
        Expr::Cmp(a, op, b) => {
            let (a, b) = (eval(a, scope, row)?, eval(b, scope, row)?);
            if std::mem::discriminant(&a) != std::mem::discriminant(&b) {
                return Err(format!("cannot compare {a} with {b}: quote text as 'text'"));
            }
            truth(match *op {
                "=" => a == b,
                "!=" => a != b,
                "<" => a < b,
                "<=" => a <= b,
                ">" => a > b,
                _ => a >= b,
            })
        }
        Expr::And(a, b) => truth(test(a)? && test(b)?),
        Expr::Or(a, b) => truth(test(a)? || test(b)?),
        Expr::Not(a) => truth(!test(a)?),
        Expr::Agg(..) => {
            return Err("aggregates are only allowed in the select list and ORDER BY".into());
        }
    })
}

fn aggregate(
    agg: Agg,
    arg: &Option<Box<Expr>>,
    scope: &Scope,
    rows: &[&Vec<Cell>],
) -> Result<Cell, String> {
    let values: Vec<Cell> = match arg {
        None => return Ok(Cell::Int(rows.len() as i64)),
        Some(e) => rows
            .iter()
            .map(|r| eval(e, scope, r))
            .collect::<Result<_, _>>()?,
    };
    Ok(match agg {
        Agg::Count => Cell::Int(values.len() as i64),
        Agg::Sum => Cell::Int(
            values
                .iter()
                .map(|v| {
                    if let Cell::Int(i) = v {
                        Ok(*i)
                    } else {
                        Err("SUM needs numbers".to_string())
                    }
                })
                .sum::<Result<i64, _>>()?,
        ),
        Agg::Min => values.into_iter().min().unwrap_or(Cell::Int(0)),
        Agg::Max => values.into_iter().max().unwrap_or(Cell::Int(0)),
    })
}

/// Evaluates a select item over a group of rows.
fn eval_group(expr: &Expr, scope: &Scope, rows: &[&Vec<Cell>]) -> Result<Cell, String> {
    match expr {
        Expr::Agg(agg, arg) => aggregate(*agg, arg, scope, rows),
        other => rows
            .first()
            .map_or(Ok(Cell::Int(0)), |r| eval(other, scope, r)),
    }
}

fn is_agg(expr: &Expr) -> bool {
    matches!(expr, Expr::Agg(..))
}

/// Runs a query: the column names and the rows.
///
/// # Errors
/// Unknown tables or columns, type mismatches, oversized joins.
pub fn execute(db: &Db, query: &Query) -> Result<(Vec<String>, Vec<Vec<Cell>>), String> {
    let mut scope: Vec<(String, String)> = Vec::new();
    let mut rows: Vec<Vec<Cell>> = vec![Vec::new()];
    for (i, (table, alias)) in query.from.iter().enumerate() {
        let t = db.get(table).ok_or_else(|| {
            format!(
                "no table {table}; tables: {}",
                db.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })?;
        scope.extend(t.columns.iter().map(|c| (alias.clone(), c.clone())));
        if rows.len() * t.rows.len().max(1) > MAX_ROWS {
            return Err("join too large: add ON conditions".into());
        }
        let mut joined = Vec::new();
        for left in &rows {
            for right in &t.rows {
                let row: Vec<Cell> = left.iter().chain(right).cloned().collect();
                let keep = match i.checked_sub(1).map(|j| &query.joins[j]) {
                    Some(on) => eval(on, &scope, &row)? == Cell::Int(1),
                    None => true,
                };
                if keep {
                    joined.push(row);
                }
            }
        }
        rows = joined;
    }
    if let Some(filter) = &query.filter {
        let mut kept = Vec::new();
        for row in rows {
            if eval(filter, &scope, &row)? == Cell::Int(1) {
                kept.push(row);
            }
        }
        rows = kept;
    }
    let items: Vec<(Expr, String)> = if query.items.is_empty() {
        scope
            .iter()
            .map(|(t, c)| (Expr::Col(Some(t.clone()), c.clone()), c.clone()))
            .collect()
    } else {
        query.items.clone()
    };
    let grouped = !query.group_by.is_empty() || items.iter().any(|(e, _)| is_agg(e));
    let groups: Vec<Vec<&Vec<Cell>>> = if grouped {
        let mut by_key: BTreeMap<Vec<Cell>, Vec<&Vec<Cell>>> = BTreeMap::new();
        for row in &rows {
            let key = query
                .group_by
                .iter()
                .map(|e| eval(e, &scope, row))
                .collect::<Result<Vec<_>, _>>()?;
            by_key.entry(key).or_default().push(row);
        }
        if by_key.is_empty() && query.group_by.is_empty() {
            by_key.insert(Vec::new(), Vec::new());
        }
        by_key.into_values().collect()
    } else {
        rows.iter().map(|r| vec![r]).collect()
    };
    let mut out: Vec<(Vec<Cell>, Vec<Cell>)> = Vec::new();
    for group in &groups {
        let row = items
            .iter()
            .map(|(e, _)| eval_group(e, &scope, group))
            .collect::<Result<Vec<_>, _>>()?;
        let mut keys = Vec::new();
        for (key, _) in &query.order_by {
            let position = match key {
                Expr::Lit(Cell::Int(n)) if *n >= 1 && (*n as usize) <= items.len() => {
                    Some(*n as usize - 1)
                }
                Expr::Col(None, c) => items.iter().position(|(_, name)| name == c),
                _ => None,
            }
            .or_else(|| items.iter().position(|(e, _)| e == key));
            keys.push(match position {
                Some(p) => row[p].clone(),
                None => eval_group(key, &scope, group)?,
            });
        }
        out.push((keys, row));
    }
    out.sort_by(|a, b| {
        for (i, (_, desc)) in query.order_by.iter().enumerate() {
            let ord = a.0[i].cmp(&b.0[i]);
            let ord = if *desc { ord.reverse() } else { ord };
            if ord != std::cmp::Ordering::Equal {
                return ord;
            }
        }
        std::cmp::Ordering::Equal
    });
    let mut result: Vec<Vec<Cell>> = out.into_iter().map(|(_, r)| r).collect();
    if let Some(n) = query.limit {
        result.truncate(n);
    }
    Ok((items.into_iter().map(|(_, n)| n).collect(), result))
}

/// Indices of the rows of `table` that satisfy `cond`.
///
/// # Errors
/// As [`eval`].
pub fn matching_rows(table: &Table, name: &str, cond: &Expr) -> Result<Vec<usize>, String> {
    let scope: Vec<(String, String)> = table
        .columns
        .iter()
        .map(|c| (name.to_string(), c.clone()))
        .collect();
    let mut hits = Vec::new();
    for (i, row) in table.rows.iter().enumerate() {
        if eval(cond, &scope, row)? == Cell::Int(1) {
            hits.push(i);
        }
    }
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db() -> Db {
        let t = |cols: &[&str], rows: Vec<Vec<Cell>>| Table {
            columns: cols.iter().map(|c| c.to_string()).collect(),
            int_columns: rows[0].iter().map(|c| matches!(c, Cell::Int(_))).collect(),
            rows,
        };
        let (i, s) = (Cell::Int, |x: &str| Cell::Text(x.into()));
        let mut db = Db::new();
        db.insert(
            "dept".into(),
            t(
                &["id", "name"],
                vec![vec![i(1), s("ops")], vec![i(2), s("lab")]],
            ),
        );
        db.insert(
            "emp".into(),
            t(
                &["id", "name", "dept_id", "salary"],
                vec![
                    vec![i(1), s("Ann"), i(1), i(300)],
                    vec![i(2), s("Bo"), i(2), i(500)],
                    vec![i(3), s("Cy"), i(2), i(100)],
                    vec![i(4), s("O'Neil"), i(1), i(700)],
                ],
            ),
        );
        db
    }

    fn run(sql: &str) -> Result<String, String> {
        let (cols, rows) = execute(&db(), &parse_query(sql)?)?;
        let rows: Vec<String> = rows
            .iter()
            .map(|r| r.iter().map(Cell::to_string).collect::<Vec<_>>().join("|"))
            .collect();
        Ok(format!("{} : {}", cols.join(","), rows.join(" ; ")))
    }

    #[test]
    fn queries_give_exact_result_sets() {
        assert_eq!(
            run("select name from emp where salary > 200 and not name = 'Bo' order by name")
                .unwrap(),
            "name : Ann ; O'Neil"
        );
        assert_eq!(
            run("SELECT d.name, COUNT(*) AS n, SUM(e.salary) FROM emp e JOIN dept d ON e.dept_id = d.id GROUP BY d.name ORDER BY n DESC, 1").unwrap(),
            "name,n,sum(salary) : lab|2|600 ; ops|2|1000"
        );
        assert_eq!(
            run("select max(salary), min(name) from emp where dept_id = 9").unwrap(),
            "max(salary),min(name) : 0|0"
        );
        assert_eq!(
            run("select count(*) from emp where name = 'O''Neil' or (salary <= 100)").unwrap(),
            "count(*) : 2"
        );
        assert_eq!(
            run("select * from dept order by id desc limit 1").unwrap(),
            "id,name : 2|lab"
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        for (sql, want) in [
            ("select nope from emp", "no column nope"),
            ("select id from emp join dept on dept_id = id", "ambiguous"),
            ("select name from emp where salary > 'x'", "cannot compare"),
            (
                "select name from staff",
                "no table staff; tables: dept, emp",
            ),
            (
                "select name from emp where",
                "expected a value near the end",
            ),
            ("delete from emp", "expected SELECT"),
            ("select name from emp; drop table emp", "unexpected `;`"),
            ("select name from emp;", "name"),
            ("select name from emp where name = 'x", "unclosed string"),
        ] {
            let got = run(sql).unwrap_or_else(|e| e);
            assert!(got.contains(want), "{sql}: {got}");
        }
    }
}
