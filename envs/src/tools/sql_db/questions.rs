//! What `code/sql-query` and `selfplay/sql-propose` share over the tables of
//! [`super`]: template questions with their reference queries, hidden
//! databases, running a query within the join cap, and comparing results
//! (order-insensitively unless the question asks for an order). Not behind
//! the `sandbox` feature: running our SQL needs no sandbox.
// Without `sandbox` only sql-propose is built, which leaves the parts that
// only `code/sql-query` uses unread.
#![cfg_attr(not(feature = "sandbox"), allow(dead_code))]

use crate::rng::{Rng, mix_seed};
use crate::single_turn::CheckError;
use crate::tools::sql_db::sql::{Cell, Db, execute_within, parse_query};
use crate::tools::sql_db::{SqlDbConfig, draw_db};

/// Most rows one query's joins may build.
pub(crate) const MAX_JOIN_ROWS: usize = 5_000;
/// Longest answer we run.
pub(crate) const MAX_ANSWER: usize = 2_000;
/// Hidden databases per task.
pub(crate) const HIDDEN: u64 = 2;
/// Employees and projects of each hidden database.
pub(crate) const HIDDEN_EMPLOYEES: usize = 150;
pub(crate) const HIDDEN_PROJECTS: usize = 80;
pub(crate) const CITIES: &[&str] = &["Lyon", "Porto", "Gdansk", "Leeds", "Turin", "Malmo"];
pub(crate) const STATUSES: &[&str] = &["active", "planned", "cancelled", "done"];
pub(crate) const TABLES: [&str; 3] = ["departments", "employees", "projects"];
const WRITES: &[&str] = &[
    "insert", "update", "delete", "drop", "create", "alter", "replace", "truncate",
];

/// The statement's first word, upper-cased, when it is one that writes
/// (`INSERT`, `DROP`, ...): only one SELECT is ever run.
pub(crate) fn write_statement(sql: &str) -> Option<String> {
    let first = sql
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    WRITES
        .contains(&first.as_str())
        .then(|| first.to_uppercase())
}

/// The SQL dialect, as both prompts state it.
pub(crate) const DIALECT: &str = "The SQL dialect is small: SELECT * or a list of items [AS alias] FROM \
     table [alias] [JOIN table [alias] ON condition]... [WHERE condition] [GROUP BY ...] [ORDER BY item \
     or column position [ASC|DESC], ...] [LIMIT n]; items are columns (table.column where ambiguous), \
     integers, 'text', COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x); conditions use = != <> < <= > >= \
     AND OR NOT and parentheses. No subqueries, DISTINCT, HAVING or arithmetic.";

/// A result: its rows (column names are never compared).
pub type Rows = Vec<Vec<Cell>>;

/// Why an answer cannot be run, or its rows.
pub(crate) fn run(db: &Db, sql: &str) -> Result<(usize, Rows), String> {
    let query = parse_query(sql).map_err(|e| format!("our SQL cannot read the query: {e}"))?;
    let (names, rows) =
        execute_within(db, &query, MAX_JOIN_ROWS).map_err(|e| format!("the query failed: {e}"))?;
    Ok((names.len(), rows))
}

/// Whether a result equals the expected one (as a multiset unless ordered).
pub(crate) fn same(ordered: bool, got: &Rows, expected: &Rows) -> bool {
    let sorted = |rows: &Rows| {
        let mut rows = rows.clone();
        rows.sort();
        rows
    };
    got == expected || (!ordered && sorted(got) == sorted(expected))
}

/// The SQL of an answer, trimmed; a statement that writes is refused.
pub(crate) fn answer_sql(answer: &str) -> Result<String, CheckError> {
    let text = answer.trim();
    if text.is_empty() {
        return Err("no query: answer with one SELECT".into());
    }
    if text.len() > MAX_ANSWER {
        return Err(format!("query longer than {MAX_ANSWER} characters").into());
    }
    if let Some(write) = write_statement(text) {
        return Err(format!(
            "{write} modifies data: only one SELECT is run, on a read-only database"
        )
        .into());
    }
    Ok(text.to_string())
}

/// A query in a ```` ```sql ```` block.
pub fn fenced(sql: &str) -> String {
    format!("```sql\n{sql}\n```")
}

pub(crate) struct Draft {
    pub question: String,
    pub reference: String,
    pub ordered: bool,
    /// The reference with a condition dropped or changed: must differ.
    pub near: Vec<String>,
}

/// The integer `column` of a random row of `table`.
pub(crate) fn pick(rng: &mut Rng, db: &Db, table: &str, column: usize) -> i64 {
    let rows = &db[table].rows;
    match rows[rng.below(rows.len() as u64) as usize][column] {
        Cell::Int(i) => i,
        Cell::Text(_) => 0,
    }
}

/// One question over `db` from a template of a tier drawn uniformly from the first
/// `complexity` (1..=4).
pub(crate) fn draft(complexity: usize, db: &Db, rng: &mut Rng) -> Draft {
    let x = pick(rng, db, "employees", 3) - rng.below(2) as i64;
    let b = pick(rng, db, "projects", 4) - rng.below(2) as i64 * 50;
    let y = rng.range_i64(2008, 2022);
    let s = STATUSES[rng.below(4) as usize];
    let city = CITIES[rng.below(CITIES.len() as u64) as usize];
    let k = rng.range_i64(2, 4);
    let tier = rng.below(complexity as u64);
    let second = rng.chance(0.5);
    let emp_dept = "employees e JOIN departments d ON e.dept_id = d.id";
    let (question, reference, ordered, near) = match (tier, second) {
        (0, false) => (
            format!(
                "List the name of every employee who earns more than {x} and was hired before {y}."
            ),
            format!("SELECT name FROM employees WHERE salary > {x} AND hired < {y}"),
            false,
            vec![
                format!("SELECT name FROM employees WHERE salary > {x}"),
                format!("SELECT name FROM employees WHERE hired < {y}"),
            ],
        ),
        (0, true) => (
            format!(
                "List the name and budget of every project with status '{s}' and a budget of at least {b}."
            ),
            format!("SELECT name, budget FROM projects WHERE status = '{s}' AND budget >= {b}"),
            false,
            vec![
                format!("SELECT name, budget FROM projects WHERE status = '{s}'"),
                format!("SELECT name, budget FROM projects WHERE budget >= {b}"),
            ],
        ),
        (1, false) => (
            format!(
                "For each department id that has employees hired after {y}, give the department id, the number of \
                 those employees and the total of their salaries (one row per department id)."
            ),
            format!(
                "SELECT dept_id, COUNT(*), SUM(salary) FROM employees WHERE hired > {y} GROUP BY dept_id"
            ),
            false,
            vec![
                "SELECT dept_id, COUNT(*), SUM(salary) FROM employees GROUP BY dept_id".into(),
                format!(
                    "SELECT dept_id, COUNT(*), SUM(salary) FROM employees WHERE hired >= {y} GROUP BY dept_id"
                ),
            ],
        ),
        (1, true) => (
            format!(
                "List the name and salary of the {k} best-paid employees hired in {y} or later, best paid first; \
                 break ties by name in alphabetical order."
            ),
            format!(
                "SELECT name, salary FROM employees WHERE hired >= {y} ORDER BY salary DESC, name LIMIT {k}"
            ),
            true,
            vec![format!(
                "SELECT name, salary FROM employees ORDER BY salary DESC, name LIMIT {k}"
            )],
        ),
        (2, false) => (
            format!(
                "List the name of every employee who works in a department located in {city} and was hired \
                 before {y}."
            ),
            format!("SELECT e.name FROM {emp_dept} WHERE d.city = '{city}' AND e.hired < {y}"),
            false,
            vec![
                format!("SELECT e.name FROM {emp_dept} WHERE d.city = '{city}'"),
                format!("SELECT e.name FROM {emp_dept} WHERE e.hired < {y}"),
            ],
        ),
        (2, true) => (
            format!(
                "For each department that has projects with status '{s}' and a budget over {b}, give the \
                 department's name, the number of those projects and the total of their budgets (one row per \
                 department)."
            ),
            format!(
                "SELECT d.name, COUNT(*), SUM(p.budget) FROM projects p JOIN departments d ON p.dept_id = d.id \
                 WHERE p.status = '{s}' AND p.budget > {b} GROUP BY d.name"
            ),
            false,
            vec![
                format!(
                    "SELECT d.name, COUNT(*), SUM(p.budget) FROM projects p JOIN departments d ON p.dept_id = d.id \
                     WHERE p.status = '{s}' GROUP BY d.name"
                ),
                format!(
                    "SELECT d.name, COUNT(*), SUM(p.budget) FROM projects p JOIN departments d ON p.dept_id = d.id \
                     WHERE p.budget > {b} GROUP BY d.name"
                ),
            ],
        ),
        (_, false) => (
            format!(
                "Counting only employees hired before {y}: list the names of the {k} departments with the largest \
                 total salary of those employees, each with that total, largest total first; break ties by \
                 department name in alphabetical order."
            ),
            format!(
                "SELECT d.name, SUM(e.salary) AS total FROM {emp_dept} WHERE e.hired < {y} GROUP BY d.name \
                 ORDER BY total DESC, d.name LIMIT {k}"
            ),
            true,
            vec![format!(
                "SELECT d.name, SUM(e.salary) AS total FROM {emp_dept} GROUP BY d.name ORDER BY total DESC, d.name \
                 LIMIT {k}"
            )],
        ),
        (_, true) => (
            format!(
                "List the name, the salary and the department name of every employee who earns at least {x} and \
                 works in a department located in {city}, highest salary first; break ties by employee name in \
                 alphabetical order."
            ),
            format!(
                "SELECT e.name, e.salary, d.name FROM {emp_dept} WHERE e.salary >= {x} AND d.city = '{city}' \
                 ORDER BY e.salary DESC, e.name"
            ),
            true,
            vec![
                format!(
                    "SELECT e.name, e.salary, d.name FROM {emp_dept} WHERE d.city = '{city}' ORDER BY e.salary DESC, \
                     e.name"
                ),
                format!(
                    "SELECT e.name, e.salary, d.name FROM {emp_dept} WHERE e.salary >= {x} ORDER BY e.salary DESC, \
                     e.name"
                ),
            ],
        ),
    };
    Draft {
        question,
        reference,
        ordered,
        near,
    }
}

/// Queries a blind policy could write: every table whole, its names, its
/// row count and its first row.
pub(crate) fn trivial_queries() -> Vec<String> {
    TABLES
        .iter()
        .flat_map(|t| {
            [
                format!("SELECT * FROM {t}"),
                format!("SELECT name FROM {t}"),
                format!("SELECT COUNT(*) FROM {t}"),
                format!("SELECT * FROM {t} LIMIT 1"),
                format!("SELECT name FROM {t} LIMIT 1"),
            ]
        })
        .collect()
}

/// Hidden database `i` of a task: `shown`'s departments, freshly drawn (and
/// more) employees and projects. Larger than the shown tables, so that two
/// thresholds with no row between them there still differ here.
pub fn hidden_db(shown: &Db, seed: u64, i: u64) -> Db {
    let config = SqlDbConfig {
        departments: shown["departments"].rows.len(),
        employees: HIDDEN_EMPLOYEES,
        projects: HIDDEN_PROJECTS,
        infeasible_share: 0.0,
    };
    let mut db = draw_db(&config, &mut Rng::from_seed(mix_seed(seed, i)));
    db.insert("departments".into(), shown["departments"].clone());
    db
}

pub(crate) fn schema(db: &Db) -> Vec<String> {
    TABLES
        .iter()
        .map(|t| {
            let table = &db[*t];
            let columns: Vec<String> = table
                .columns
                .iter()
                .zip(&table.int_columns)
                .map(|(c, &int)| format!("{c} {}", if int { "INTEGER" } else { "TEXT" }))
                .collect();
            format!("{t}({})", columns.join(", "))
        })
        .collect()
}

/// The rows shown of each table: every department, the first `others` of the
/// other tables.
pub(crate) fn shown_rows(db: &Db, others: usize) -> Vec<(String, Vec<String>)> {
    TABLES
        .iter()
        .map(|t| {
            let table = &db[*t];
            let take = if *t == "departments" {
                usize::MAX
            } else {
                others
            };
            let rows = table
                .rows
                .iter()
                .take(take)
                .map(|r| {
                    r.iter()
                        .map(|c| match c {
                            Cell::Int(i) => i.to_string(),
                            Cell::Text(s) => format!("'{s}'"),
                        })
                        .collect::<Vec<_>>()
                        .join(" | ")
                })
                .collect();
            (t.to_string(), rows)
        })
        .collect()
}
