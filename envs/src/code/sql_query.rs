//! `code/sql-query-v1`: answer a question in English about a generated
//! database with one SQL query, judged by running it (text-to-SQL, checked
//! by execution, never by the query's text).
//!
//! # Task
//! The three tables of `tools/sql-db` (`departments`, `employees`,
//! `projects`, drawn by its generator) and a question from one of eight
//! templates over four tiers: filters on one table; grouping or an ordered
//! top-k on one table; joins; joins with grouping, ordering and a limit.
//! `complexity` says how many tiers are drawn from (uniformly). Two hidden
//! databases with the same `departments` and freshly drawn employees (150)
//! and projects (80) go with each task. Draws whose reference result is empty on the
//! shown database, or equal to a trivial query's (`SELECT * FROM t`, a
//! table's names, its row count, its first row) or to the reference with a
//! condition dropped, are redrawn, so a blind query fails.
//!
//! # Action
//! One `SELECT` in our SQL (`tools::sql_db::sql`: `SELECT … FROM … [JOIN …
//! ON …] [WHERE …] [GROUP BY …] [ORDER BY … [ASC|DESC]] [LIMIT n]`, with
//! `COUNT`, `SUM`, `MIN`, `MAX`), read as the code envs read a program: the
//! reply's reasoning is dropped, then its last fenced block (```` ```sql ````)
//! is the query, else the whole reply; a trailing `;` is dropped. (A box is
//! not read: the shared final-answer rule takes a statement holding SQL's
//! words `from`, `and` for prose, so a box beside another query would not
//! count as a hedge.)
//!
//! # Observation
//! The schema, every department row, the first three rows of the other two
//! tables, the grammar and the question. Structured: the question, the
//! schema and the shown rows.
//!
//! # Reward
//! 1 and `passed` when the query's result equals the reference query's on
//! the shown database and on both hidden ones: the same number of columns,
//! the same rows as a multiset (in the same order where the question asks
//! for one); column names are ignored, values compared exactly. So any
//! equivalent query passes (another join order, aliases, reordered
//! conditions, `dept_id = 3` for a department named in the question), and a
//! query that hard-codes the shown answer fails on the hidden databases. A
//! statement that modifies data, a query our SQL cannot read, one that fails
//! (unknown table or column, type mismatch) or one whose joins would build
//! over 5000 rows scores 0 with `format` 0 and the reason. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `departments` (3..=8), `employees` (6..=200), `projects` (4..=100),
//! `complexity` (1..=4).
//!
//! # Seeding
//! Tables, hidden tables, template and constants come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset, Score};
use crate::error::{ConfigError, NoTask};
use crate::rng::{Rng, mix_seed};
use crate::sandboxed::extract_code;
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};
use crate::tools::sql_db::sql::{Cell, Db, execute_within, parse_query};
use crate::tools::sql_db::{SqlDbConfig, draw_db};

/// Most rows one query's joins may build.
const MAX_JOIN_ROWS: usize = 5_000;
/// Longest answer we run.
const MAX_ANSWER: usize = 2_000;
/// Hidden databases per task.
const HIDDEN: u64 = 2;
/// Employees and projects of each hidden database.
const HIDDEN_EMPLOYEES: usize = 150;
const HIDDEN_PROJECTS: usize = 80;
const CITIES: &[&str] = &["Lyon", "Porto", "Gdansk", "Leeds", "Turin", "Malmo"];
const STATUSES: &[&str] = &["active", "planned", "cancelled", "done"];
const TABLES: [&str; 3] = ["departments", "employees", "projects"];
const WRITES: &[&str] = &[
    "insert", "update", "delete", "drop", "create", "alter", "replace", "truncate",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SqlQueryConfig {
    pub departments: usize,
    pub employees: usize,
    pub projects: usize,
    /// How many tiers of templates are drawn from (1: filters only .. 4:
    /// joins with grouping, ordering and a limit).
    pub complexity: usize,
}

impl Default for SqlQueryConfig {
    fn default() -> Self {
        SqlQueryConfig {
            departments: 5,
            employees: 30,
            projects: 15,
            complexity: 3,
        }
    }
}

/// A result: its rows (column names are never compared).
pub type Rows = Vec<Vec<Cell>>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlQueryTask {
    pub question: String,
    /// The shown database.
    pub db: Db,
    /// The hidden databases' seed ([`hidden_db`]).
    pub hidden_seed: u64,
    pub reference: String,
    /// Whether the question asks for an order.
    pub ordered: bool,
    /// The reference result on the shown database, then on each hidden one.
    pub expected: Vec<Rows>,
    pub columns: usize,
}

/// Why an answer cannot be run, or its rows.
fn run(db: &Db, sql: &str) -> Result<(usize, Rows), String> {
    let query = parse_query(sql).map_err(|e| format!("our SQL cannot read the query: {e}"))?;
    let (names, rows) =
        execute_within(db, &query, MAX_JOIN_ROWS).map_err(|e| format!("the query failed: {e}"))?;
    Ok((names.len(), rows))
}

/// Whether a result equals the expected one (as a multiset unless ordered).
fn same(ordered: bool, got: &Rows, expected: &Rows) -> bool {
    let sorted = |rows: &Rows| {
        let mut rows = rows.clone();
        rows.sort();
        rows
    };
    got == expected || (!ordered && sorted(got) == sorted(expected))
}

/// The SQL of an answer, trimmed; a statement that writes is refused.
fn answer_sql(answer: &str) -> Result<String, CheckError> {
    let text = answer.trim();
    if text.is_empty() {
        return Err("no query: answer with one SELECT".into());
    }
    if text.len() > MAX_ANSWER {
        return Err(format!("query longer than {MAX_ANSWER} characters").into());
    }
    let first = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    if WRITES.contains(&first.as_str()) {
        return Err(format!(
            "{} modifies data: only one SELECT is run, on a read-only database",
            first.to_uppercase()
        )
        .into());
    }
    Ok(text.to_string())
}

/// A query in a ```` ```sql ```` block.
pub fn fenced(sql: &str) -> String {
    format!("```sql\n{sql}\n```")
}

struct Draft {
    question: String,
    reference: String,
    ordered: bool,
    /// The reference with a condition dropped or changed: must differ.
    near: Vec<String>,
}

/// The integer `column` of a random row of `table`.
fn pick(rng: &mut Rng, db: &Db, table: &str, column: usize) -> i64 {
    let rows = &db[table].rows;
    match rows[rng.below(rows.len() as u64) as usize][column] {
        Cell::Int(i) => i,
        Cell::Text(_) => 0,
    }
}

/// One question over `db` from a template of the drawn tier.
fn draft(config: &SqlQueryConfig, db: &Db, rng: &mut Rng) -> Draft {
    let x = pick(rng, db, "employees", 3) - rng.below(2) as i64;
    let b = pick(rng, db, "projects", 4) - rng.below(2) as i64 * 50;
    let y = rng.range_i64(2008, 2022);
    let s = STATUSES[rng.below(4) as usize];
    let city = CITIES[rng.below(CITIES.len() as u64) as usize];
    let k = rng.range_i64(2, 4);
    let tier = rng.below(config.complexity as u64);
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
fn trivial_queries() -> Vec<String> {
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

fn sql_config(config: &SqlQueryConfig) -> SqlDbConfig {
    SqlDbConfig {
        departments: config.departments,
        employees: config.employees,
        projects: config.projects,
        infeasible_share: 0.0,
    }
}

impl SqlQuery {
    fn draw(config: &SqlQueryConfig, rng: &mut Rng) -> Option<SqlQueryTask> {
        let db = draw_db(&sql_config(config), rng);
        let draft = draft(config, &db, rng);
        let (columns, shown) = run(&db, &draft.reference).expect("the reference runs");
        if shown.is_empty() {
            return None;
        }
        let blind = trivial_queries().into_iter().chain(draft.near);
        for sql in blind {
            let (n, rows) = run(&db, &sql).expect("a screen query runs");
            if n == columns && same(draft.ordered, &rows, &shown) {
                return None;
            }
        }
        let hidden_seed = rng.next_u64();
        let mut expected = vec![shown];
        for i in 0..HIDDEN {
            let hidden = hidden_db(&db, hidden_seed, i);
            expected.push(
                run(&hidden, &draft.reference)
                    .expect("the reference runs")
                    .1,
            );
        }
        Some(SqlQueryTask {
            question: draft.question,
            db,
            hidden_seed,
            reference: draft.reference,
            ordered: draft.ordered,
            expected,
            columns,
        })
    }

    fn schema(db: &Db) -> Vec<String> {
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

    /// The rows shown of each table: every department, three of the others.
    fn shown_rows(db: &Db) -> Vec<(String, Vec<String>)> {
        TABLES
            .iter()
            .map(|t| {
                let table = &db[*t];
                let take = if *t == "departments" { usize::MAX } else { 3 };
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
}

pub struct SqlQuery;

pub type SqlQueryEnv = SingleTurn<SqlQuery>;

impl Question for SqlQuery {
    type Config = SqlQueryConfig;
    type Task = SqlQueryTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "code/sql-query-v1",
        kind: EnvKind::SingleTurn,
        description: "Answer a question about a generated database with one SQL query; judged by running it on that database and two hidden ones",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"departments":3,"employees":10,"projects":6,"complexity":1}"#,
        r#"{"departments":4,"employees":16,"projects":8,"complexity":1}"#,
        r#"{"departments":4,"employees":20,"projects":10,"complexity":2}"#,
        "{}",
        r#"{"departments":6,"employees":50,"projects":25,"complexity":3}"#,
        r#"{"departments":7,"employees":80,"projects":40,"complexity":4}"#,
        r#"{"departments":8,"employees":120,"projects":60,"complexity":4}"#,
    ];

    fn effort(task: &SqlQueryTask) -> Option<f64> {
        let rows: usize = task.db.values().map(|t| t.rows.len()).sum();
        Some(task.reference.split_whitespace().count() as f64 + rows as f64 / 10.0)
    }

    fn validate(config: &SqlQueryConfig) -> Result<(), ConfigError> {
        if !(3..=8).contains(&config.departments)
            || !(6..=200).contains(&config.employees)
            || !(4..=100).contains(&config.projects)
            || !(1..=4).contains(&config.complexity)
        {
            return Err(
                "need departments 3..=8, employees 6..=200, projects 4..=100, complexity 1..=4"
                    .into(),
            );
        }
        Ok(())
    }

    fn generate(config: &SqlQueryConfig, rng: &mut Rng) -> SqlQueryTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &SqlQueryConfig, rng: &mut Rng) -> Result<SqlQueryTask, NoTask> {
        draw_until(
            500,
            || Self::draw(config, rng),
            || {
                "no question in 500 draws had a non-empty answer that no trivial query gives; raise \
                 employees or projects"
                    .into()
            },
        )
    }

    fn prompt(task: &SqlQueryTask) -> String {
        let db = &task.db;
        let mut shown = String::new();
        for (table, rows) in Self::shown_rows(db) {
            let total = db[&table].rows.len();
            shown.push_str(&format!(
                "{table} ({} of {total} rows):\n{}\n",
                rows.len(),
                rows.join("\n")
            ));
        }
        format!(
            "A database has these tables (employees.dept_id and projects.dept_id refer to departments.id; \
             project status is one of 'active', 'planned', 'cancelled', 'done'):\n{}\n\n{shown}\n\
             Write one SQL query that answers the question below on this database and on any other database \
             with the same departments. The SQL dialect is small: SELECT * or a list of items [AS alias] FROM \
             table [alias] [JOIN table [alias] ON condition]... [WHERE condition] [GROUP BY ...] [ORDER BY item \
             or column position [ASC|DESC], ...] [LIMIT n]; items are columns (table.column where ambiguous), \
             integers, 'text', COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x); conditions use = != <> < <= > >= \
             AND OR NOT and parentheses. No subqueries, DISTINCT, HAVING or arithmetic. Column names of the \
             result do not matter; row order matters only where the question asks for one.\n\n\
             Question: {}\n\nAnswer with the query in a ```sql fenced block (the last block of your reply \
             is run).",
            Self::schema(db).join("\n"),
            task.question
        )
    }

    fn structured(task: &SqlQueryTask) -> Value {
        let rows: serde_json::Map<String, Value> = Self::shown_rows(&task.db)
            .into_iter()
            .map(|(t, rows)| (t, json!(rows)))
            .collect();
        json!({
            "question": task.question,
            "schema": Self::schema(&task.db),
            "rows": rows,
        })
    }

    fn reference(task: &SqlQueryTask) -> String {
        task.reference.clone()
    }

    /// The query is the last fenced block (or the whole reply), run once.
    fn grade(task: &SqlQueryTask, reply: &str) -> Graded {
        let (sql, _) = extract_code(reply);
        match Self::check(task, &sql) {
            Ok(correct) => Score::binary(correct).part("format", 1.0).into(),
            Err(e) => Graded {
                score: Score::binary(false).part("format", 0.0),
                events: vec![e.to_string()],
            },
        }
    }

    fn oracle(task: &SqlQueryTask) -> Option<String> {
        Some(fenced(&task.reference))
    }

    fn check(task: &SqlQueryTask, answer: &str) -> Result<bool, CheckError> {
        let sql = answer_sql(answer)?;
        let matches = |db: &Db, expected: &Rows| -> Result<bool, CheckError> {
            let (columns, rows) = run(db, &sql)?;
            Ok(columns == task.columns && same(task.ordered, &rows, expected))
        };
        if !matches(&task.db, &task.expected[0])? {
            return Ok(false);
        }
        // The hidden tables are drawn only for a query right on the shown ones.
        for i in 0..HIDDEN {
            let hidden = hidden_db(&task.db, task.hidden_seed, i);
            if !matches(&hidden, &task.expected[i as usize + 1])? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
#[path = "sql_query_tests.rs"]
mod tests;
