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
use crate::rng::Rng;
use crate::sandboxed::extract_code;
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};
use crate::tools::sql_db::questions::{
    DIALECT, HIDDEN, answer_sql, draft, run, same, schema, shown_rows, trivial_queries,
};
pub use crate::tools::sql_db::questions::{Rows, fenced, hidden_db};
use crate::tools::sql_db::sql::Db;
use crate::tools::sql_db::{SqlDbConfig, draw_db};

/// Rows shown of `employees` and `projects` (every department is shown).
const SHOWN: usize = 3;

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
        let draft = draft(config.complexity, &db, rng);
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
        for (table, rows) in shown_rows(db, SHOWN) {
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
             with the same departments. {DIALECT} Column names of the \
             result do not matter; row order matters only where the question asks for one.\n\n\
             Question: {}\n\nAnswer with the query in a ```sql fenced block (the last block of your reply \
             is run).",
            schema(db).join("\n"),
            task.question
        )
    }

    fn structured(task: &SqlQueryTask) -> Value {
        let rows: serde_json::Map<String, Value> = shown_rows(&task.db, SHOWN)
            .into_iter()
            .map(|(t, rows)| (t, json!(rows)))
            .collect();
        json!({
            "question": task.question,
            "schema": schema(&task.db),
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
