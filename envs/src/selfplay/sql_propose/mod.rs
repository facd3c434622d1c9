//! `selfplay/sql-propose-v1`: propose a question about a generated database with the SQL
//! that answers it; solve it with SQL. Both are checked by execution.
//!
//! # Task
//! A database drawn by `tools/sql-db`'s generator (`departments`, `employees`, `projects`),
//! the seed of two hidden databases with the same departments and freshly drawn employees
//! and projects (as in `code/sql-query`), reference examples for the proposer (from
//! `reference_pool` when the config has one, else `code/sql-query`'s template questions
//! from its first `complexity` tiers) and the scripted proposal the oracle proposer plays
//! (another template question, valid by the rules below).
//!
//! # Action
//! - Proposer (player 0): `QUESTION: ...` (one line) and `SQL: ...` (one `SELECT` on one
//!   line, or an empty `SQL:` followed by a fenced block holding it). Any text is
//!   accepted; an invalid proposal ends the episode with the penalty.
//! - Solver (player 1), `solver_samples` times: one `SELECT` in our SQL
//!   (`tools::sql_db::sql`). Each turn is read out of the whole reply by `crate::reply`:
//!   reasoning is dropped, then the reply as it is, the text after an `Action:`, `Move:`
//!   or `Command:` marker, a fenced block (```` ```sql ````), or a line that is a query;
//!   two different queries in one turn are a hedge, and a reply with no query, or a
//!   hedge, is an attempt that failed (never a refused move).
//!
//! # Observation
//! The proposer sees the schema, every department and the first twelve rows of the other
//! tables (with their row counts: a text observation stays a few KB at every level), the
//! dialect, the
//! reference examples (`references` in the JSON) and the rules of validity; the solver
//! sees the schema, every department and the first three rows of the other tables (as in
//! `code/sql-query`), the dialect, the question and its attempt number, never the
//! proposer's SQL or the other attempts. The JSON carries the ledger (whose turn,
//! attempts so far), the schema and the question once proposed.
//!
//! # Validation of a proposal
//! The reply is at most 8,000 bytes (`size`); one question of 10 to 1,000 bytes and one
//! query of at most 2,000 bytes (`format`); the query parses in our grammar, writes
//! nothing and runs on the shown and both hidden databases with its joins building at
//! most 20,000 rows (`sql`); its result on the shown database has a row (`empty`); the
//! question is not a reference's, and the results on every database are not a reference
//! query's (`copy`); and the result is one answer: running on the same databases with
//! every table's rows stored in reverse order gives the same result (as a sequence when
//! the query has `ORDER BY`, else as a multiset), so a tie under `ORDER BY` or a `LIMIT`
//! over an unordered result, whose answer depends on storage order, is refused
//! (`ambiguous`). Our SQL has no subqueries, recursion or functions, and joins are
//! capped, so each check is bounded.
//!
//! # Verification of an attempt
//! As `code/sql-query`: the attempt's result has as many columns as the proposer's and
//! the same rows, in the same order when the proposer's query has `ORDER BY`, else as a
//! multiset, on the shown database and on both hidden ones (a query that hard-codes the
//! shown answer fails there). Column names are ignored; values are compared exactly.
//!
//! # Reward
//! As in [`super`]: solver `1/N` per verified attempt; proposer learnability; penalty
//! `-invalid_penalty` (default 0.5) for an invalid proposal, with `rejected_<code>`.
//!
//! # Episode end
//! After an invalid proposal, or after the solver's `solver_samples`-th attempt.
//!
//! # Parameters
//! `solver_samples` (1–16), `references` (0–8), `departments` (3–8), `employees`
//! (6–120), `projects` (4–60), `complexity` (1–4: template tiers of the generated
//! examples), `invalid_penalty` (0–1), `reference_pool` (validated proposals to draw
//! references from).
//!
//! # Seeding
//! The seed draws the database, the hidden databases' seed, the reference examples (or
//! picks them from `reference_pool`) and the oracle's scripted proposal; the
//! model-written proposal is not seeded.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::buffer::{Proposal, normalize_text};
use super::episode::{EPISODE_SPEC, ProposeSolve, ProposeSolveEnv, draw_references};
use super::{MAX_SOLVER_SAMPLES, PROPOSER, Rejection};
use crate::core::{EnvSpec, Player, Preset};
use crate::error::ConfigError;
use crate::reply::parse_visible;
use crate::rng::Rng;
use crate::tools::sql_db::questions::{DIALECT, draft, schema, shown_rows};
use crate::tools::sql_db::sql::Db;
use crate::tools::sql_db::{SqlDbConfig, draw_db};

mod proposal;

pub use proposal::{Judged, proposal_text, validate_proposal, verify_query};
use proposal::{databases, results, solver_query};

/// Longest proposal reply read.
const MAX_PROPOSAL: usize = 8_000;
/// Bounds of the question's length in bytes.
const QUESTION_BYTES: std::ops::RangeInclusive<usize> = 10..=1_000;
/// Rows of `employees` and `projects` the solver sees.
const SOLVER_SHOWN: usize = 3;
/// Rows of `employees` and `projects` the proposer sees: enough to word a question
/// about, while the observation stays within a text-game budget (PettingZoo's 4 KB) at
/// every level; validity is checked on the whole table.
const PROPOSER_SHOWN: usize = 12;
/// Template draws tried for the scripted proposal and each reference.
const DRAWS: usize = 500;
/// Most rows one query's joins may build before their `ON` conditions filter them:
/// above `code/sql-query`'s 5,000 so that a question may join employees with projects
/// on the hidden databases (150 × 80 rows), still a few milliseconds of work.
const MAX_JOIN_ROWS: usize = 20_000;

/// A question and the SQL that answers it: a reference, a proposal, a buffer entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlExample {
    pub question: String,
    pub sql: String,
}

impl Proposal for SqlExample {
    fn normalized(&self) -> String {
        normalize_text(&self.question)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SqlProposeConfig {
    /// Solver attempts per proposal (1–16).
    pub solver_samples: usize,
    /// Reference examples shown to the proposer (0–8).
    pub references: usize,
    pub departments: usize,
    pub employees: usize,
    pub projects: usize,
    /// Template tiers of generated examples (1: filters .. 4: joins with grouping,
    /// ordering and a limit).
    pub complexity: usize,
    /// Subtracted from the proposer's reward for an invalid proposal (0–1).
    pub invalid_penalty: f64,
    /// Validated proposals to draw reference examples from instead of generating them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reference_pool: Vec<SqlExample>,
}

impl Default for SqlProposeConfig {
    fn default() -> Self {
        SqlProposeConfig {
            solver_samples: 4,
            references: 2,
            departments: 5,
            employees: 30,
            projects: 15,
            complexity: 3,
            invalid_penalty: 0.5,
            reference_pool: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlProposeTask {
    pub solver_samples: usize,
    pub invalid_penalty: f64,
    pub complexity: usize,
    /// The shown database.
    pub db: Db,
    /// The hidden databases' seed (`code/sql-query`'s `hidden_db`).
    pub hidden_seed: u64,
    pub references: Vec<SqlExample>,
    pub scripted: SqlExample,
}

/// `selfplay/sql-propose-v1`: the shared propose-then-solve episode on SQL questions.
pub type SqlPropose = ProposeSolveEnv<SqlProposeTask>;

/// Each table's rows as text, the first `others` of `employees` and `projects`.
fn tables_text(db: &Db, others: usize) -> String {
    let mut text = String::new();
    for (table, rows) in shown_rows(db, others) {
        let total = db[&table].rows.len();
        text.push_str(&format!(
            "{table} ({} of {total} rows):\n{}\n",
            rows.len(),
            rows.join("\n")
        ));
    }
    text
}

const SCHEMA_NOTE: &str = "employees.dept_id and projects.dept_id refer to departments.id; project status \
                           is one of 'active', 'planned', 'cancelled', 'done'";

fn db_config(c: &SqlProposeConfig) -> SqlDbConfig {
    SqlDbConfig {
        departments: c.departments,
        employees: c.employees,
        projects: c.projects,
        infeasible_share: 0.0,
    }
}

/// A template example over `db` whose query returns a row there.
fn template_example(complexity: usize, db: &Db, rng: &mut Rng) -> SqlExample {
    let mut last = None;
    for _ in 0..DRAWS {
        let d = draft(complexity, db, rng);
        let example = SqlExample {
            question: d.question,
            sql: d.reference,
        };
        if results(std::slice::from_ref(db), &example.sql).is_ok_and(|(_, _, r)| !r[0].is_empty()) {
            return example;
        }
        last = Some(example);
    }
    last.expect("DRAWS > 0")
}

impl ProposeSolve for SqlProposeTask {
    type Config = SqlProposeConfig;
    type Proposal = Judged;

    const SPEC: EnvSpec = EnvSpec {
        id: "selfplay/sql-propose-v1",
        description: "Propose-and-solve self-play on SQL: a question and its query over a generated database, answered by the solver's query; both checked by execution; learnability reward",
        presets: &Preset::graded(LEVELS, [0, 2, 4]),
        ..EPISODE_SPEC
    };

    const LEVELS: &'static [&'static str] = LEVELS;

    fn effort(&self) -> Option<f64> {
        // As code/sql-query: the scripted query's words and the rows to read.
        let rows: usize = self.db.values().map(|t| t.rows.len()).sum();
        Some(self.scripted.sql.split_whitespace().count() as f64 + rows as f64 / 10.0)
    }

    fn validate_config(c: &SqlProposeConfig) -> Result<(), ConfigError> {
        if !(1..=MAX_SOLVER_SAMPLES).contains(&c.solver_samples) {
            return Err("solver_samples must be 1..=16".into());
        }
        if c.references > 8 {
            return Err("references must be 0..=8".into());
        }
        if !(3..=8).contains(&c.departments)
            || !(6..=120).contains(&c.employees)
            || !(4..=60).contains(&c.projects)
            || !(1..=4).contains(&c.complexity)
        {
            return Err(
                "need departments 3..=8, employees 6..=120, projects 4..=60, complexity 1..=4"
                    .into(),
            );
        }
        if !(0.0..=1.0).contains(&c.invalid_penalty) {
            return Err("invalid_penalty must be 0..=1".into());
        }
        Ok(())
    }

    fn generate(c: &SqlProposeConfig, rng: &mut Rng) -> SqlProposeTask {
        loop {
            let db = draw_db(&db_config(c), rng);
            let hidden_seed = rng.next_u64();
            let references = draw_references(&c.reference_pool, c.references, rng, |rng| {
                template_example(c.complexity, &db, rng)
            });
            let mut task = SqlProposeTask {
                solver_samples: c.solver_samples,
                invalid_penalty: c.invalid_penalty,
                complexity: c.complexity,
                db,
                hidden_seed,
                references,
                scripted: SqlExample {
                    question: String::new(),
                    sql: String::new(),
                },
            };
            let dbs = databases(&task);
            // The scripted proposal passes the same validation a model's does.
            for _ in 0..DRAWS {
                let example = template_example(c.complexity, &task.db, rng);
                if validate_proposal(&task, &dbs, &proposal_text(&example)).is_ok() {
                    task.scripted = example;
                    return task;
                }
            }
        }
    }

    fn solver_samples(&self) -> usize {
        self.solver_samples
    }

    fn invalid_penalty(&self) -> f64 {
        self.invalid_penalty
    }

    fn render_name(&self) -> String {
        "selfplay/sql-propose".into()
    }

    fn proposer_prompt(&self) -> String {
        let mut text = format!(
            "You are the proposer in a propose-and-solve game. Write a question in English about the \
             database below and one SQL query that answers it. The solver sees the schema, every department \
             and three rows of the other tables, and writes its own query {} times; an attempt counts when \
             its result equals yours on this database and on two hidden ones with the same departments and \
             other employees and projects. Your reward is high when the solver gets it right in some but not \
             all of its attempts.\n\nThe query must return at least one row here, must not give the same \
             results as a reference example, and its result must not depend on the order rows are stored \
             in (break ties under ORDER BY; no LIMIT without ORDER BY). Rows are compared in order only when \
             your query has ORDER BY, so say the order in the question. A join may build at most \
             {MAX_JOIN_ROWS} rows before its ON condition filters them; the hidden databases have 150 \
             employees and 80 projects. {DIALECT}\n\nTables ({SCHEMA_NOTE}):\n{}\n\n{}",
            self.solver_samples,
            schema(&self.db).join("\n"),
            tables_text(&self.db, PROPOSER_SHOWN),
        );
        for (i, r) in self.references.iter().enumerate() {
            text.push_str(&format!("\nReference example {i}:\n{}", proposal_text(r)));
        }
        text.push_str("\nReply with a `QUESTION: ...` line and a `SQL: ...` line.");
        text
    }

    fn solver_prompt(&self, p: &Judged, head: &str) -> String {
        let question = &p.example.question;
        format!(
            "{head}\n\nA database has these tables ({SCHEMA_NOTE}):\n{}\n\n{}\n\
             Write one SQL query that answers the question below on this database and on any other database \
             with the same departments. {DIALECT} A join may build at most {MAX_JOIN_ROWS} rows before \
             its ON condition filters them. Column names of the result do not matter; row order matters \
             only where the question asks for one.\n\nQuestion: {question}\n\nAnswer with the query \
             in a ```sql fenced block.",
            schema(&self.db).join("\n"),
            tables_text(&self.db, SOLVER_SHOWN),
        )
    }

    fn fields(&self, proposal: Option<&Judged>, player: Player) -> Value {
        json!({
            "references": if player == PROPOSER { json!(self.references) } else { json!(null) },
            "schema": schema(&self.db),
            "question": proposal.map(|p| &p.example.question),
        })
    }

    fn check_proposal(&self, text: &str) -> Result<Judged, Rejection> {
        validate_proposal(self, &databases(self), text)
    }

    fn grade(
        &self,
        proposal: &Judged,
        answer: &str,
        prompt: impl FnOnce() -> String,
    ) -> (Option<bool>, String) {
        // `answer` is the visible turn (the reasoning was removed once, by the shared
        // rule); the query is read out of it by the same rule, without stripping again.
        let (ok, note) = match parse_visible(answer, solver_query, prompt) {
            Ok(sql) => verify_query(proposal, &self.db, &sql),
            Err(e) => (false, e.reason),
        };
        (Some(ok), note)
    }

    fn scripted_proposal(&self) -> String {
        proposal_text(&self.scripted)
    }

    fn solution(&self, proposal: &Judged) -> String {
        let sql = &proposal.example.sql;
        if sql.contains('\n') {
            format!("```sql\n{sql}\n```")
        } else {
            sql.clone()
        }
    }

    fn random_action(&self, _proposal: Option<&Judged>, player: Player, rng: &mut Rng) -> String {
        let example = template_example(self.complexity, &self.db, rng);
        if player == PROPOSER {
            proposal_text(&example)
        } else {
            example.sql
        }
    }
}

/// The difficulty scale: the database's size and the template tiers of the examples.
const LEVELS: &[&str] = &[
    r#"{"departments":3,"employees":10,"projects":6,"complexity":1}"#,
    r#"{"departments":4,"employees":16,"projects":8,"complexity":2}"#,
    "{}",
    r#"{"departments":6,"employees":50,"projects":25,"complexity":4}"#,
    r#"{"departments":7,"employees":80,"projects":40,"complexity":4}"#,
];
