//! `tools/sql-db-v2`: questions and edits on generated relational tables
//! through our own SQL subset and typed edit tools, verified by exact
//! result sets and by the whole final database.
//!
//! # Task
//! Three generated tables (`departments`, `employees`, `projects`) and one
//! task: list names matching a filter in order, a total over a join, the
//! department with the largest payroll, an update or delete by a condition
//! that needs a department id looked up, or an insert with the next free id.
//! A fixed share (`infeasible_share`) names a department that does not
//! exist: those pass only with no change and the verdict
//! `infeasible: NAMES` listing the departments there are (a query shows
//! them; a bare `infeasible` fails).
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]:
//! `list_tables`, `query` (one `SELECT` in the grammar of [`sql`]),
//! `insert_row`, `update_rows`, `delete_rows` (conditions in the same
//! grammar), `answer`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; SQL errors are error results that change
//! nothing.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The task, the tools, how to call, and the latest calls with results
//! (result tables as `a | b` lines). Structured: `task`, `tools` (OpenAI
//! function schemas), `history`, `answered`.
//!
//! # Reward
//! 1 and `passed` only when every table holds the expected rows (as a
//! multiset: row order is not state) and the answer matches (a JSON array
//! compared element by element in order, or a single value). Breakdown:
//! `correct`, `state_correct`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `departments` (3..=8), `employees` (6..=200), `projects` (4..=100),
//! `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! Tables and task come from the task rng; each candidate is screened (the
//! oracle passes through the agent's path; constant answers, the right
//! answer without the edit, and emptying every table do not).
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts carry evidence (a bare `infeasible` passed every
//! infeasible task).

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, random_format};
use crate::toolkit::final_answer::answers_match;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{MAX_ATTEMPTS, screen, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, ToolEnv, ToolError, answer_observation, apply_calls, turn_until,
};

mod generate;
pub(crate) mod questions;
pub mod sql;
mod task;
#[cfg(test)]
mod tests;

#[cfg_attr(not(feature = "sandbox"), allow(unused_imports))]
pub(crate) use generate::draw_db;
pub use task::{SqlDbConfig, SqlDbTask};

use task::gold;

use sql::{Cell, Db};

/// Rows a query result shows.
const SHOWN_ROWS: usize = 50;

#[derive(Clone, Debug)]
pub struct SqlDbEnv {
    task: SqlDbTask,
    db: Db,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let table = || Param::required("table", ParamType::String, "table name");
    let cond = || {
        Param::required(
            "where",
            ParamType::String,
            "SQL condition, e.g. dept_id = 3 AND salary > 100",
        )
    };
    vec![
        ToolSpec::new(
            "list_tables",
            "every table with its columns and row count",
            vec![],
        ),
        ToolSpec::new(
            "query",
            "run one SELECT (joins, WHERE, GROUP BY, ORDER BY, LIMIT; COUNT/SUM/MIN/MAX)",
            vec![Param::required(
                "sql",
                ParamType::String,
                "the SELECT statement",
            )],
        ),
        ToolSpec::new(
            "insert_row",
            "append a row",
            vec![
                table(),
                Param::required(
                    "values",
                    ParamType::String,
                    "JSON array of the row's values in column order",
                ),
            ],
        ),
        ToolSpec::new(
            "update_rows",
            "set one column on every row matching the condition",
            vec![
                table(),
                Param::required("column", ParamType::String, "column to set"),
                Param::required(
                    "value",
                    ParamType::String,
                    "new value (a number for integer columns)",
                ),
                cond(),
            ],
        ),
        ToolSpec::new(
            "delete_rows",
            "delete every row matching the condition",
            vec![table(), cond()],
        ),
        answer_tool("finish with the answer the task asks for"),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

fn cell_for(int: bool, value: &Value) -> Result<Cell, ToolError> {
    match (int, value) {
        (true, Value::Number(n)) => n
            .as_i64()
            .map(Cell::Int)
            .ok_or_else(|| format!("{n} is not an integer").into()),
        (true, Value::String(s)) => s
            .trim()
            .parse()
            .map(Cell::Int)
            .map_err(|_| format!("{s:?} is not an integer").into()),
        (false, Value::String(s)) => Ok(Cell::Text(s.clone())),
        (false, Value::Number(n)) => Ok(Cell::Text(n.to_string())),
        (_, other) => Err(format!("{other} is not a value").into()),
    }
}

/// Runs one non-answer tool; errors change nothing.
fn run_tool(db: &mut Db, call: &ToolCall) -> Result<String, ToolError> {
    let table_name = call.str("table").trim().to_lowercase();
    let table = |db: &Db| {
        db.get(&table_name)
            .cloned()
            .ok_or_else(|| format!("no table {table_name}"))
    };
    match call.name.as_str() {
        "list_tables" => Ok(db
            .iter()
            .map(|(name, t)| format!("{name}({}) {} rows", t.columns.join(", "), t.rows.len()))
            .collect::<Vec<_>>()
            .join("\n")),
        "query" => {
            let (columns, rows) = sql::execute(db, &sql::parse_query(call.str("sql"))?)?;
            let mut lines = vec![columns.join(" | ")];
            lines.extend(rows.iter().take(SHOWN_ROWS).map(|r| {
                r.iter()
                    .map(Cell::to_string)
                    .collect::<Vec<_>>()
                    .join(" | ")
            }));
            lines.push(format!(
                "({} rows{})",
                rows.len(),
                if rows.len() > SHOWN_ROWS {
                    ", first 50 shown"
                } else {
                    ""
                }
            ));
            Ok(lines.join("\n"))
        }
        "insert_row" => {
            let mut t = table(db)?;
            let values: Vec<Value> = serde_json::from_str(call.str("values"))
                .map_err(|e| format!("values must be a JSON array: {e}"))?;
            if values.len() != t.columns.len() {
                return Err(format!(
                    "{table_name} has {} columns: {}",
                    t.columns.len(),
                    t.columns.join(", ")
                )
                .into());
            }
            let row = t
                .int_columns
                .iter()
                .zip(&values)
                .map(|(int, v)| cell_for(*int, v))
                .collect::<Result<Vec<_>, _>>()?;
            if t.rows.len() >= 1_000 {
                return Err("table full".into());
            }
            t.rows.push(row);
            db.insert(table_name, t);
            Ok("inserted 1 row".into())
        }
        "update_rows" | "delete_rows" => {
            let mut t = table(db)?;
            let hits =
                sql::matching_rows(&t, &table_name, &sql::parse_condition(call.str("where"))?)?;
            if call.name == "delete_rows" {
                let mut i = 0;
                t.rows.retain(|_| {
                    i += 1;
                    !hits.contains(&(i - 1))
                });
                db.insert(table_name, t);
                return Ok(format!("deleted {} rows", hits.len()));
            }
            let column = call.str("column").trim().to_lowercase();
            let at = t
                .columns
                .iter()
                .position(|c| *c == column)
                .ok_or_else(|| format!("no column {column} in {table_name}"))?;
            let value = cell_for(t.int_columns[at], &json!(call.str("value")))?;
            for &h in &hits {
                t.rows[h][at] = value.clone();
            }
            db.insert(table_name, t);
            Ok(format!("updated {} rows", hits.len()))
        }
        other => Err(format!("no tool {other}").into()),
    }
}

/// Tables compared as multisets of rows.
fn same_db(a: &Db, b: &Db) -> bool {
    let sorted = |db: &Db| -> Vec<(String, Vec<String>, Vec<Vec<Cell>>)> {
        db.iter()
            .map(|(n, t)| {
                let mut rows = t.rows.clone();
                rows.sort();
                (n.clone(), t.columns.clone(), rows)
            })
            .collect()
    };
    sorted(a) == sorted(b)
}

/// A JSON-array answer matches element by element; anything else by
/// [`answers_match`].
fn answer_matches(given: &str, expected: &str) -> bool {
    let expected_list: Option<Vec<Value>> = serde_json::from_str(expected).ok();
    match expected_list {
        Some(want) => {
            let Ok(got) = serde_json::from_str::<Vec<Value>>(given.trim()) else {
                return false;
            };
            let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
            got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| answers_match(&text(g), &text(w)))
        }
        None => answers_match(given, expected),
    }
}

impl ToolEnv for SqlDbEnv {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(task: &SqlDbTask) -> bool {
        task.feasible
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = if call.name == "answer" {
            self.answered = Some(call.str("answer").to_string());
            "answer recorded".into()
        } else {
            run_tool(&mut self.db, &call).unwrap_or_else(|e| format!("error: {e}"))
        };
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for SqlDbEnv {
    type Config = SqlDbConfig;
    type Task = SqlDbTask;
    type Action = Calls;

    // v1's feasible tasks read as v2's (a task carries its expected answer);
    // its infeasible ones took a bare `infeasible`.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["feasible"] == false)),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/sql-db-v2",
        kind: EnvKind::MultiTurn,
        description: "Questions and edits on generated tables with our own SQL subset; exact result sets and final tables",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"departments":3,"employees":10,"projects":6}"#,
        r#"{"departments":4,"employees":20,"projects":10}"#,
        r#"{}"#,
        r#"{"departments":6,"employees":60,"projects":30}"#,
        r#"{"departments":8,"employees":120,"projects":60}"#,
    ];

    fn effort(task: &SqlDbTask) -> Option<f64> {
        tool_effort::<Self>(task.initial.values().map(|t| t.rows.len()).sum(), task)
    }

    fn validate(config: &SqlDbConfig) -> Result<(), ConfigError> {
        let ok = (3..=8).contains(&config.departments)
            && (6..=200).contains(&config.employees)
            && (4..=100).contains(&config.projects)
            && (0.0..=0.5).contains(&config.infeasible_share);
        if ok {
            Ok(())
        } else {
            Err("need departments 3..=8, employees 6..=200, projects 4..=100, infeasible_share 0..=0.5".into())
        }
    }

    fn generate(config: &SqlDbConfig, rng: &mut Rng) -> SqlDbTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let Some(mut task) = generate::draw(config, rng) else {
                continue;
            };
            task.expected = expected_db(&task);
            let answer = gold("answer", json!({"answer": task.answer}));
            let wipe: Vec<String> = ["departments", "employees", "projects"]
                .iter()
                .map(|t| gold("delete_rows", json!({"table": t, "where": "id > 0"})))
                .chain([answer.clone()])
                .collect();
            let mut extra = vec![wipe];
            if task.feasible && task.expected != task.initial {
                extra.push(vec![answer]);
            }
            if screen::<SqlDbEnv>(&task, &extra) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &SqlDbTask) -> Option<Value> {
        Some(json!(task.answer))
    }

    fn reset(task: &SqlDbTask, _rng: Rng) -> Self {
        SqlDbEnv {
            task: task.clone(),
            db: task.initial.clone(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        answer_observation(
            &format!(
                "You work on a relational database through tools.\nTask: {}\nChange nothing else. \
                 If a department the task names does not exist, change nothing and answer `infeasible: NAMES` \
                 listing the departments there are, alphabetically, separated by commas.",
                self.task.instruction
            ),
            &self.task.instruction,
            &TOOLS,
            &self.log,
            self.answered.as_deref(),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let state = same_db(&self.db, &self.task.expected);
        let answer = self
            .answered
            .as_deref()
            .is_some_and(|a| answer_matches(a, &self.task.answer));
        Score::binary(state && answer)
            .part("state_correct", f64::from(u8::from(state)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.task.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let tables = ["departments", "employees", "projects"];
        let table = tables[rng.below(3) as usize];
        let cond = format!("id = {}", rng.range_i64(1, 40));
        let call = match rng.below(6) {
            0 => ToolCall::new("list_tables", json!({})),
            1 => ToolCall::new(
                "query",
                json!({"sql": format!("SELECT * FROM {table} WHERE {cond}")}),
            ),
            2 => ToolCall::new(
                "insert_row",
                json!({"table": table, "values": "[1, \"x\", 2]"}),
            ),
            3 => ToolCall::new(
                "update_rows",
                json!({"table": table, "column": "name", "value": "x", "where": cond}),
            ),
            4 => ToolCall::new("delete_rows", json!({"table": table, "where": cond})),
            _ => ToolCall::new(
                "answer",
                json!({"answer": rng.range_i64(0, 100_000).to_string()}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        let rows: Vec<String> = self
            .db
            .iter()
            .map(|(n, t)| format!("{n}={}", t.rows.len()))
            .collect();
        format!(
            "{} calls={} answered={:?} expected={:?} state_ok={}",
            rows.join(" "),
            self.log.entries.len(),
            self.answered,
            self.task.answer,
            same_db(&self.db, &self.task.expected)
        )
    }
}

/// The database after the gold calls (the answer excluded), run through the
/// agent's parse/apply path.
fn expected_db(task: &SqlDbTask) -> Db {
    let mut env = SqlDbEnv::reset(task, Rng::from_seed(0));
    for text in &task.gold[..task.gold.len() - 1] {
        let call = env.parse_action(0, text).expect("gold calls parse");
        env.apply(0, call).expect("tool calls always apply");
    }
    env.db
}
