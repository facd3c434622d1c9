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

mod exec;
mod parse;
mod table;
#[cfg(test)]
mod tests;

pub(crate) use exec::{execute, execute_within, matching_rows};
pub(crate) use parse::{parse_condition, parse_query};
pub use table::{Cell, Db, Table};
