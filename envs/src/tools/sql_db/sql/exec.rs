//! Executing parsed queries and conditions over in-memory tables.

use std::collections::BTreeMap;

use super::parse::{Agg, Expr, Query};
use super::table::{Cell, Db, Table};
use crate::toolkit::tool_env::ToolError;

/// Most rows a join may build.
const MAX_ROWS: usize = 50_000;

/// Column bindings of a row: (table alias, column name).
type Scope = [(String, String)];

fn lookup(scope: &Scope, table: &Option<String>, col: &str) -> Result<usize, ToolError> {
    let hits: Vec<usize> = (0..scope.len())
        .filter(|&i| scope[i].1 == col && table.as_ref().is_none_or(|t| *t == scope[i].0))
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!(
            "no column {}{col}",
            table.as_ref().map_or(String::new(), |t| format!("{t}."))
        )
        .into()),
        _ => Err(format!("column {col} is ambiguous: qualify it with its table").into()),
    }
}

/// Evaluates a non-aggregate expression on one row; conditions give 1 or 0.
pub(crate) fn eval(expr: &Expr, scope: &Scope, row: &[Cell]) -> Result<Cell, ToolError> {
    let truth = |b: bool| Cell::Int(i64::from(b));
    let test = |e: &Expr| eval(e, scope, row).map(|c| c == Cell::Int(1));
    Ok(match expr {
        Expr::Col(t, c) => row[lookup(scope, t, c)?].clone(),
        Expr::Lit(v) => v.clone(),
        Expr::Cmp(a, op, b) => {
            let (a, b) = (eval(a, scope, row)?, eval(b, scope, row)?);
            if std::mem::discriminant(&a) != std::mem::discriminant(&b) {
                return Err(format!("cannot compare {a} with {b}: quote text as 'text'").into());
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
) -> Result<Cell, ToolError> {
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
fn eval_group(expr: &Expr, scope: &Scope, rows: &[&Vec<Cell>]) -> Result<Cell, ToolError> {
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
pub(crate) fn execute(db: &Db, query: &Query) -> Result<(Vec<String>, Vec<Vec<Cell>>), ToolError> {
    execute_within(db, query, MAX_ROWS)
}

/// [`execute`] with a tighter bound on the rows a join may build.
///
/// # Errors
/// As [`execute`]; a join over `max_rows` rows is refused before it is built.
pub(crate) fn execute_within(
    db: &Db,
    query: &Query,
    max_rows: usize,
) -> Result<(Vec<String>, Vec<Vec<Cell>>), ToolError> {
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
        if rows.len() * t.rows.len().max(1) > max_rows {
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
pub(crate) fn matching_rows(
    table: &Table,
    name: &str,
    cond: &Expr,
) -> Result<Vec<usize>, ToolError> {
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
