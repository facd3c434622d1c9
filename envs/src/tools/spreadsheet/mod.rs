//! `tools/spreadsheet-v1`: a spreadsheet assistant reads a generated item
//! sheet, edits cells and writes formulas as the user asks, under a policy
//! (a locked Totals row, closed `final` rows), and is scored on the
//! evaluated final sheet.
//!
//! # Task
//! A sheet (cells A1..L64) with an item table: headers in row 1, 5 to 30
//! item rows (name, quantity, unit price, Status `open` or `final`, and
//! sometimes a `Line total` column of formulas), a locked Totals row of
//! SUM formulas under them, and a tax-rate cell beside the table. The user
//! asks, in words and naming items rather than cells, for one to three of:
//! fix a wrong number of an item; fix an item's broken line-total formula;
//! add an item as a new last row above the Totals row; add a column of
//! formulas (quantity × price, or with the tax rate); put a labelled
//! SUM/AVERAGE/MIN/MAX of a column beside the table, as a formula or as a
//! value. A share of tasks (`refuse_share`) asks instead for one change the
//! policy forbids (typing into the Totals row, changing a `final` row),
//! which must be refused. The formula language is the module
//! [`formula`]'s (evaluated by [`sheet`]): numbers, references, ranges, `+ - * /`, SUM, AVERAGE,
//! MIN, MAX, COUNT, IF, ROUND and one comparison, with an entry-length and
//! a nesting cap; cycles and over-long reference chains evaluate to error
//! values.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `sheet_info`,
//! `read_range` (at most 12 rows a call; reads), `set_cell` (a number, text
//! or a `=formula`; carried out even where the policy forbids it, as a
//! real sheet would), `insert_row`, and the closing calls `submit` and
//! `refuse`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; bad cells and formulas that do not parse are
//! error results that change nothing.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The policy, the user's request, the tools, how to call them, and the
//! calls so far with their results. Structured: `policy`, `request`,
//! `tools` (OpenAI function schemas), `history`, `closing`.
//!
//! # Reward
//! 1 and `passed` only when the closing call is the policy's (`submit`
//! after an allowed request, `refuse` with the broken rule's reason and the
//! cell the request would change), no cell of the Totals row and no cell
//! A to D of a `final` row was written (even with the same content, even
//! when the user asked), and the evaluated final sheet equals the target:
//! every cell's value (numbers within a relative 1e-6, text without case),
//! first as it is, then in two recomputations where every number typed in
//! the target is replaced by a perturbed one in both sheets. So a formula
//! the request asked for must be a formula reading the right cells (a
//! typed constant fails), no existing formula may be replaced by its
//! value, and no other cell may change; only the cells whose request said
//! a value will do are exempt from the perturbed comparison. A refused
//! request must leave the sheet as it was. Breakdown: `state_correct`,
//! `policy_kept`, `closing_correct` (the sheet is judged once the episode
//! is over; `state_correct` is 0 before that).
//!
//! # Episode end
//! The first closing call (terminated); the step cap truncates (score as it
//! stands, which is 0 without a closing call).
//!
//! # Parameters
//! `rows` (5..=30 item rows), `requests` (1..=3 allowed requests a task),
//! `refuse_share` (0..=0.5).
//!
//! # Seeding
//! The sheet, the requests and their wording, and the perturbation seed
//! come from the task rng; each candidate is screened (the oracle passes
//! through the agent's path; `submit` at once, refusing with a wrong reason,
//! carrying out a refused request, and the reference with every asked
//! formula typed as its value, fail).
//!
//! # Version history
//! v1: first version.

use std::sync::{Arc, LazyLock, OnceLock};

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, random_format};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{draw_screened, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, RESOLUTION_CALL_HELP, ToolEnv, ToolError, apply_calls, observation_text,
    tool_observation, turn_until,
};
use crate::tools::policy_desk::Desk;

pub mod formula;
#[cfg(test)]
mod formula_tests;
mod generate;
pub mod sheet;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Outcome, SheetConfig, SheetTask};

use formula::{Addr, MAX_COLS, MAX_ROWS, col_name};
use generate::READ_ROWS;
use sheet::{Content, Sheet};
use task::{POLICY, REASONS, Target};

/// Columns A to D of a row: what a `final` row closes.
const CLOSED_COLS: usize = 4;

/// How the episode was closed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Closing {
    Submit,
    Refuse { reason: String, cell: String },
}

/// The target's entries, the cells where a value will do, and the
/// perturbation seed.
type Want = (Vec<(String, String)>, Vec<String>, u64);

/// The running sheet and what it is scored against.
#[derive(Clone, Debug)]
pub struct Spreadsheet {
    sheet: Sheet,
    request: String,
    /// The sheet the episode must end with (the start, for a refusal): its
    /// entries, the cells where a value will do, and the perturbation seed;
    /// read into a [`Target`] only once the episode is closed.
    want: Arc<Want>,
    target: OnceLock<Arc<Target>>,
    /// The policy's refusal: reason and cell.
    refusal: Option<(String, Addr)>,
    /// The Totals row now (0-based; insertions above move it).
    locked: usize,
    /// The `final` rows now (0-based).
    finals: Vec<usize>,
    /// Writes into the Totals row, and into columns A to D of `final` rows.
    locked_writes: usize,
    final_writes: usize,
    /// Whether the sheet equals the target, computed once per change.
    state: OnceLock<bool>,
    gold: Arc<[String]>,
    log: Log,
    count: CallCount,
    closing: Option<Closing>,
}

/// The agent's role and policy.
const DESK: Desk = Desk {
    role: "You are a spreadsheet assistant working in the user's sheet (cells A1..L64).",
    policy: POLICY,
    speaker: "User",
};

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let cell = |what: &str| Param::required("cell", ParamType::String, what);
    vec![
        ToolSpec::new("sheet_info", "the used area of the sheet", vec![]),
        ToolSpec::new(
            "read_range",
            "the cells of a range (at most 12 rows a call): values, and formulas in brackets",
            vec![Param::required(
                "range",
                ParamType::String,
                "a range like A1:H12, or one cell",
            )],
        ),
        ToolSpec::new(
            "set_cell",
            "write a cell: a number, text, or a formula starting with = (blank clears it)",
            vec![
                cell("the cell, like E2"),
                Param::required(
                    "content",
                    ParamType::String,
                    "the entry, like 12.5 or =B2*C2",
                ),
            ],
        ),
        ToolSpec::new(
            "insert_row",
            "insert a blank row before this row: rows below move down, references follow, and a range of several rows ending just above grows to take it in",
            vec![Param::required(
                "row",
                ParamType::Integer,
                "the row number, like 14",
            )],
        ),
        ToolSpec::new(
            "submit",
            "finish: the request is done (ends the episode)",
            vec![],
        )
        .ending(),
        ToolSpec::new(
            "refuse",
            "refuse the request under the policy (ends the episode)",
            vec![
                Param::required("reason", ParamType::String, "policy reason").one_of(&REASONS),
                cell("the cell the request would change"),
            ],
        )
        .ending(),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

fn addr(text: &str) -> Result<Addr, ToolError> {
    Addr::parse(text).ok_or_else(|| {
        ToolError::from(format!(
            "error: no cell `{}` (cells are A1..{}{MAX_ROWS})",
            text.chars().take(20).collect::<String>(),
            col_name(MAX_COLS - 1)
        ))
    })
}

impl Spreadsheet {
    fn run(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        Ok(match call.name.as_str() {
            "sheet_info" => {
                let (rows, cols) = self.sheet.used();
                json!({"used": format!("A1:{}{}", col_name(cols.max(1) - 1), rows.max(1)), "rows": rows, "columns": cols})
                    .to_string()
            }
            "read_range" => {
                let text = call.str("range");
                let (a, b) = match text.split_once(':') {
                    Some((a, b)) => (addr(a)?, addr(b)?),
                    None => (addr(text)?, addr(text)?),
                };
                let (top, bottom) = (a.row.min(b.row), a.row.max(b.row));
                if bottom - top >= READ_ROWS {
                    return Err(format!("error: read at most {READ_ROWS} rows a call").into());
                }
                let shown: Vec<Addr> = (top..=bottom)
                    .flat_map(|row| {
                        (a.col.min(b.col)..=a.col.max(b.col)).map(move |col| Addr::new(row, col))
                    })
                    .filter(|at| self.sheet.get(*at).is_some())
                    .collect();
                let values = self.sheet.values_at(&shown);
                let value = |at: Addr| {
                    shown
                        .iter()
                        .position(|s| *s == at)
                        .map(|i| values[i].show())
                };
                let mut out = Vec::new();
                for row in top..=bottom {
                    let cells: Vec<String> = (a.col.min(b.col)..=a.col.max(b.col))
                        .map(|col| Addr::new(row, col))
                        .filter_map(|at| {
                            let content = self.sheet.get(at)?;
                            let shown = value(at)?;
                            Some(match content {
                                Content::Formula(_) => {
                                    format!("{} {shown} [{}]", at.name(), content.entry())
                                }
                                _ => format!("{} {shown}", at.name()),
                            })
                        })
                        .collect();
                    let cells = if cells.is_empty() {
                        "(empty)".to_string()
                    } else {
                        cells.join(" | ")
                    };
                    out.push(format!("{}: {cells}", row + 1));
                }
                out.join("\n")
            }
            "set_cell" => {
                let at = addr(call.str("cell"))?;
                let content = Content::parse(call.str("content"))
                    .map_err(|e| ToolError::from(format!("error: {e}; the cell is unchanged")))?;
                if at.row == self.locked {
                    self.locked_writes += 1;
                }
                if at.col < CLOSED_COLS && self.finals.contains(&at.row) {
                    self.final_writes += 1;
                }
                self.sheet.set(at, content);
                self.state = OnceLock::new();
                format!("{} = {}", at.name(), self.sheet.values_at(&[at])[0].show())
            }
            "insert_row" => {
                let row = call.int("row");
                if !(1..=MAX_ROWS as i64).contains(&row) {
                    return Err(format!("error: row must be in 1..={MAX_ROWS}").into());
                }
                let row = row as usize - 1;
                self.sheet
                    .insert_row(row)
                    .map_err(|e| ToolError::from(format!("error: {e}")))?;
                self.state = OnceLock::new();
                let down = |r: &mut usize| {
                    if *r >= row {
                        *r += 1;
                    }
                };
                down(&mut self.locked);
                self.finals.iter_mut().for_each(down);
                format!(
                    "inserted a blank row {}; the rows below moved down",
                    row + 1
                )
            }
            "submit" => {
                self.closing = Some(Closing::Submit);
                "submitted; episode closed".into()
            }
            "refuse" => {
                self.closing = Some(Closing::Refuse {
                    reason: call.str("reason").to_string(),
                    cell: call.str("cell").trim().to_string(),
                });
                "refused; episode closed".into()
            }
            other => return Err(format!("error: no tool {other}").into()),
        })
    }
}

impl ToolEnv for Spreadsheet {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    /// Refusal tasks are this env's infeasible ones.
    fn feasible(task: &SheetTask) -> bool {
        matches!(task.expected, Outcome::Submit { .. })
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call).unwrap_or_else(|e| e.message);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

fn sheet_of(entries: &[(String, String)]) -> Sheet {
    // Generated cards always parse; a hand-edited one that does not starts blank.
    Sheet::from_entries(entries).unwrap_or_default()
}

impl Env for Spreadsheet {
    type Config = SheetConfig;
    type Task = SheetTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/spreadsheet-v1",
        kind: EnvKind::MultiTurn,
        description: "Spreadsheet assistant: fix values and formulas, add rows, formula columns and aggregates, or refuse edits to locked and final rows; scored on the evaluated sheet, recomputed with perturbed inputs",
        players: 1,
        max_steps: 60,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Seven levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"rows":5,"requests":1}"#,
        r#"{"rows":8,"requests":1}"#,
        r#"{"rows":10,"requests":2}"#,
        r#"{}"#,
        r#"{"rows":18,"requests":2}"#,
        r#"{"rows":24,"requests":3}"#,
        r#"{"rows":30,"requests":3}"#,
    ];

    fn effort(task: &SheetTask) -> Option<f64> {
        tool_effort::<Self>(task.initial.len(), task)
    }

    fn validate(config: &SheetConfig) -> Result<(), ConfigError> {
        if !(5..=30).contains(&config.rows) {
            return Err("rows must be in 5..=30".into());
        }
        if !(1..=3).contains(&config.requests) {
            return Err("requests must be in 1..=3".into());
        }
        if !(0.0..=0.5).contains(&config.refuse_share) {
            return Err("refuse_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &SheetConfig, rng: &mut Rng) -> SheetTask {
        draw_screened::<Spreadsheet>(
            || Some(generate::draw(config, rng)),
            generate::degenerate_scripts,
        )
    }

    fn reference(task: &SheetTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &SheetTask, _rng: Rng) -> Self {
        let (want, value_only, refusal) = match &task.expected {
            Outcome::Submit { target, value_only } => (target, value_only.clone(), None),
            Outcome::Refuse { reason, cell } => (
                &task.initial,
                Vec::new(),
                Addr::parse(cell).map(|a| (reason.clone(), a)),
            ),
        };
        Spreadsheet {
            sheet: sheet_of(&task.initial),
            request: task.request.clone(),
            want: Arc::new((want.clone(), value_only, task.perturb)),
            target: OnceLock::new(),
            refusal,
            locked: task.totals_row.saturating_sub(1),
            finals: task
                .final_rows
                .iter()
                .map(|r| r.saturating_sub(1))
                .collect(),
            locked_writes: 0,
            final_writes: 0,
            state: OnceLock::new(),
            gold: task.gold.clone().into(),
            log: Log::default(),
            count: CallCount::default(),
            closing: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.closing.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        let text = observation_text(
            &DESK.head(&self.request),
            &TOOLS,
            RESOLUTION_CALL_HELP,
            &self.log,
        );
        tool_observation(
            text,
            tool_specs(),
            &self.log,
            json!({"policy": POLICY, "request": self.request, "closing": self.closing}),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let closing = match (&self.closing, &self.refusal) {
            (Some(Closing::Submit), None) => true,
            (Some(Closing::Refuse { reason, cell }), Some((want, at))) => {
                reason == want && Addr::parse(cell) == Some(*at)
            }
            _ => false,
        };
        let policy = self.locked_writes == 0 && self.final_writes == 0;
        // The sheet is judged once the episode is over: before that the
        // score is 0 whatever it holds (the driver scores after every call).
        let state = self.turn() == Turn::Over
            && *self.state.get_or_init(|| {
                let target = self.target.get_or_init(|| {
                    let (entries, value_only, seed) = &*self.want;
                    let cells = value_only.iter().filter_map(|c| Addr::parse(c)).collect();
                    Arc::new(Target::new(sheet_of(entries), cells, *seed))
                });
                target.matches(&self.sheet)
            });
        let bit = |b: bool| f64::from(u8::from(b));
        Score::binary(closing && policy && state)
            .part("state_correct", bit(state))
            .part("policy_kept", bit(policy))
            .part("closing_correct", bit(closing))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let (rows, _) = self.sheet.used();
        let cell = |rng: &mut Rng| {
            Addr::new(
                rng.below(rows.max(1) as u64 + 1) as usize,
                rng.below(8) as usize,
            )
            .name()
        };
        let anywhere = Addr::new(
            rng.below(MAX_ROWS as u64) as usize,
            rng.below(MAX_COLS as u64) as usize,
        )
        .name();
        let content = match rng.below(4) {
            0 => rng.range_i64(0, 500).to_string(),
            1 => format!("=B{0}*C{0}", rng.range_i64(2, 20)),
            2 => format!("=SUM(B2:B{})", rng.range_i64(3, 30)),
            _ => "open".to_string(),
        };
        let call = match rng.below(6) {
            0 => ToolCall::new("sheet_info", json!({})),
            1 => {
                let top = rng.range_i64(1, rows.max(1) as i64);
                ToolCall::new(
                    "read_range",
                    json!({"range": format!("A{top}:H{}", top + 11)}),
                )
            }
            2 | 3 => ToolCall::new("set_cell", json!({"cell": cell(rng), "content": content})),
            4 => ToolCall::new(
                "insert_row",
                json!({"row": rng.range_i64(1, rows.max(1) as i64 + 1)}),
            ),
            _ if rng.chance(0.5) => ToolCall::new("submit", json!({})),
            _ => ToolCall::new(
                "refuse",
                json!({"reason": REASONS[rng.below(REASONS.len() as u64) as usize], "cell": anywhere}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} closing={:?} locked_writes={} final_writes={} cells={}",
            self.log.entries.len(),
            self.closing,
            self.locked_writes,
            self.final_writes,
            self.sheet.cells.len()
        )
    }
}
