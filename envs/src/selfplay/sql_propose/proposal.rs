//! Reading and validating a `selfplay/sql-propose-v1` proposal by running its query on
//! the task's databases, and grading a solver's query against it.

use super::{MAX_JOIN_ROWS, MAX_PROPOSAL, QUESTION_BYTES, SqlExample, SqlProposeTask};
use crate::core::InvalidAction;
use crate::selfplay::buffer::{Proposal, normalize_text};
use crate::selfplay::{Rejection, field, fields};
use crate::tools::sql_db::questions::{HIDDEN, MAX_ANSWER, Rows, hidden_db, same, write_statement};
use crate::tools::sql_db::sql::{Db, execute_within, parse_query};

/// The databases a query runs on: the shown one, then the hidden ones.
pub(super) fn databases(task: &SqlProposeTask) -> Vec<Db> {
    let mut dbs = vec![task.db.clone()];
    dbs.extend((0..HIDDEN).map(|i| hidden_db(&task.db, task.hidden_seed, i)));
    dbs
}

/// `db` with every table's rows in reverse order.
fn reversed(db: &Db) -> Db {
    let mut db = db.clone();
    for table in db.values_mut() {
        table.rows.reverse();
    }
    db
}

/// A validated proposal with what its attempts are judged against.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub example: SqlExample,
    /// Whether the query has `ORDER BY` (rows are then compared in order).
    pub ordered: bool,
    pub columns: usize,
    /// The result on each of [`databases`].
    pub expected: Vec<Rows>,
    /// The hidden databases, drawn once for the episode.
    hidden: Vec<Db>,
}

/// The columns and per-database results of `sql`, or why it cannot be run.
pub(super) fn results(dbs: &[Db], sql: &str) -> Result<(bool, usize, Vec<Rows>), String> {
    if let Some(write) = write_statement(sql) {
        return Err(format!(
            "{write} modifies data: the query must be one SELECT"
        ));
    }
    let query = parse_query(sql).map_err(|e| format!("our SQL cannot read the query: {e}"))?;
    let mut columns = 0;
    let mut all = Vec::new();
    for db in dbs {
        let (names, rows) = execute_within(db, &query, MAX_JOIN_ROWS)
            .map_err(|e| format!("the query failed: {e}"))?;
        columns = names.len();
        all.push(rows);
    }
    Ok((query.is_ordered(), columns, all))
}

/// The proposer's action text for an example.
pub fn proposal_text(example: &SqlExample) -> String {
    format!("QUESTION: {}\nSQL: {}\n", example.question, example.sql)
}

/// The query of a proposal: the `SQL:` line, or when that is empty the first fenced
/// block after it.
fn proposal_sql(text: &str) -> Result<String, Rejection> {
    let lines = fields(text, "sql");
    let distinct: std::collections::BTreeSet<String> =
        lines.iter().map(|l| normalize_text(l)).collect();
    if distinct.len() > 1 {
        return Err(Rejection::new(
            "format",
            "write one `SQL:` line: two different queries make no proposal",
        ));
    }
    match lines.first() {
        Some(line) if !line.is_empty() => Ok(line.to_string()),
        Some(_) => {
            let after = text
                .lines()
                .skip_while(|l| field(l, "sql").is_none())
                .skip(1)
                .skip_while(|l| !l.trim_start().starts_with("```"))
                .skip(1)
                .take_while(|l| !l.trim_start().starts_with("```"))
                .collect::<Vec<_>>()
                .join("\n");
            Ok(after.trim().to_string())
        }
        None => Ok(String::new()),
    }
}

/// Reads and validates a proposal over the task's databases (`dbs`, from [`databases`]).
///
/// # Errors
/// The [`Rejection`]: `size`, `format`, `sql`, `empty`, `copy` or `ambiguous`, with the
/// reason.
pub fn validate_proposal(
    task: &SqlProposeTask,
    dbs: &[Db],
    text: &str,
) -> Result<Judged, Rejection> {
    if text.len() > MAX_PROPOSAL {
        return Err(Rejection::new(
            "size",
            format!("the proposal is over {MAX_PROPOSAL} bytes: write one question and one query"),
        ));
    }
    let questions = fields(text, "question");
    let distinct: std::collections::BTreeSet<String> =
        questions.iter().map(|q| normalize_text(q)).collect();
    if distinct.len() > 1 {
        return Err(Rejection::new(
            "format",
            "write one `QUESTION:` line: two different questions make no proposal",
        ));
    }
    let example = SqlExample {
        question: field(text, "question").unwrap_or_default().to_string(),
        sql: proposal_sql(text)?,
    };
    if !QUESTION_BYTES.contains(&example.question.len())
        || example.sql.is_empty()
        || example.sql.len() > MAX_ANSWER
    {
        return Err(Rejection::new(
            "format",
            format!(
                "write the question (10 to 1,000 bytes) on one `QUESTION: ...` line and its query (at most \
                 {MAX_ANSWER} bytes) on one `SQL: ...` line"
            ),
        ));
    }
    let (ordered, columns, expected) =
        results(dbs, &example.sql).map_err(|e| Rejection::new("sql", e))?;
    if expected[0].is_empty() {
        return Err(Rejection::new(
            "empty",
            "the query returns no row on the shown database: ask a question with an answer",
        ));
    }
    for (i, reference) in task.references.iter().enumerate() {
        let same_results = || {
            results(dbs, &reference.sql).is_ok_and(|(_, n, rows)| {
                n == columns && rows.iter().zip(&expected).all(|(r, e)| same(ordered, r, e))
            })
        };
        if reference.key() == example.key() || same_results() {
            return Err(Rejection::new(
                "copy",
                format!("the proposal copies reference example {i}: propose a new question"),
            ));
        }
    }
    let flipped: Vec<Db> = dbs.iter().map(reversed).collect();
    let (_, _, again) = results(&flipped, &example.sql).map_err(|e| Rejection::new("sql", e))?;
    // Exact comparison when ordered; a multiset otherwise (`same`).
    if !again
        .iter()
        .zip(&expected)
        .all(|(a, e)| same(ordered, a, e))
    {
        return Err(Rejection::new(
            "ambiguous",
            "the result depends on the order rows are stored in (a tie under ORDER BY, or LIMIT without \
             ORDER BY): order by enough columns to make the answer unique",
        ));
    }
    Ok(Judged {
        example,
        ordered,
        columns,
        expected,
        hidden: dbs[1..].to_vec(),
    })
}

/// One query read out of a solver reply (after its reasoning): the whole text, or one
/// part by `crate::reply`'s rule.
pub(super) fn solver_query(text: &str) -> Result<String, InvalidAction> {
    let text = text.trim();
    if text.is_empty() {
        return Err(InvalidAction::new("no query: answer with one SELECT"));
    }
    if text.len() > MAX_ANSWER {
        return Err(InvalidAction::new(format!(
            "query longer than {MAX_ANSWER} characters"
        )));
    }
    parse_query(text)
        .map(|_| text.to_string())
        .map_err(|e| InvalidAction::new(format!("our SQL cannot read the query: {e}")))
}

/// Verifies one solver query against a validated proposal on the shown database and the
/// hidden ones.
pub fn verify_query(judged: &Judged, db: &Db, sql: &str) -> (bool, String) {
    let dbs: Vec<&Db> = std::iter::once(db).chain(&judged.hidden).collect();
    for (i, (db, expected)) in dbs.into_iter().zip(&judged.expected).enumerate() {
        let verdict = results(std::slice::from_ref(db), sql);
        match verdict {
            Err(e) => return (false, e),
            Ok((_, n, rows))
                if n != judged.columns || !same(judged.ordered, &rows[0], expected) =>
            {
                let place = if i == 0 {
                    "the shown database".to_string()
                } else {
                    format!("hidden database {i}")
                };
                return (false, format!("the result differs on {place}"));
            }
            Ok(_) => {}
        }
    }
    (true, "same result on every database".into())
}
