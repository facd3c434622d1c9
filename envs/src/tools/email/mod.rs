//! `tools/email-v1`: an email assistant searches a generated mailbox, then
//! forwards, labels or replies as the user asks; scored on the mailbox's
//! final state.
//!
//! # Task
//! A mailbox of generated mails (sender, subject, body with a reference
//! code, days ago, labels, attachments) from a few contacts, each pair of
//! sender and topic once, and one instruction naming mails by sender and
//! topic: forward a mail with its attachments to a colleague, label every
//! mail from a sender within the last k days, or reply to one mail with
//! the reference code read from another. The ids of the mails are never in
//! the instruction: only `search` finds them.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `search`,
//! `read` (reads), `reply`, `forward`, `add_label`, `remove_label`
//! (changes), and the closing call `done`. Unparseable calls and bad
//! arguments are [`crate::InvalidAction`]s; unknown mails are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The instruction, the tools, how to call them, and the calls so far with
//! their results. Structured: `instruction`, `tools` (OpenAI function
//! schemas), `history`, `done`.
//!
//! # Reward
//! 1 and `passed` only when `done` was called and the final mailbox is the
//! asked one: every mail's labels (the asked label on exactly the asked
//! mails, no other label added or removed) and exactly the asked messages
//! sent (a forward of the right mail to the right address with all its
//! attachments; a reply to the right mail whose body holds the reference
//! code as a whole token). Any wording of a reply passes. Breakdown:
//! `state_correct`.
//!
//! # Episode end
//! `done` (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `contacts` (3..=12), `mails` (6..=80, at most 10 per contact).
//!
//! # Seeding
//! The mailbox, the goal and its wording come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! `done` at once, and labelling every mail of the sender, fail).
//!
//! # Version history
//! v1: first version.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{draw_screened, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, RESOLUTION_CALL_HELP, ToolEnv, apply_calls, observation_text, tool_observation,
    turn_until,
};

mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use task::{EmailConfig, EmailTask, Goal, Mail, Mailbox, Sent};

/// Most search results shown.
const SHOWN: usize = 12;

/// The running mailbox. It copies only the task's mailbox (the part the
/// tools change) and what it scores and prompts with.
#[derive(Clone, Debug)]
pub struct Email {
    instruction: String,
    goal: Goal,
    gold: std::sync::Arc<[String]>,
    target: task::Target,
    mailbox: Mailbox,
    log: Log,
    count: CallCount,
    done: bool,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let id = || Param::required("email_id", ParamType::String, "email id like M-12345");
    vec![
        ToolSpec::new(
            "search",
            "mails whose sender, subject or body hold every word of the query, newest first (id, sender, subject, days ago)",
            vec![Param::required(
                "query",
                ParamType::String,
                "words to look for",
            )],
        ),
        ToolSpec::new(
            "read",
            "a mail in full, with labels and attachments",
            vec![id()],
        ),
        ToolSpec::new(
            "reply",
            "reply to a mail's sender",
            vec![
                id(),
                Param::required("body", ParamType::String, "the reply text"),
            ],
        ),
        ToolSpec::new(
            "forward",
            "forward a mail to an address",
            vec![
                id(),
                Param::required("to", ParamType::String, "the address to send to"),
                Param::required(
                    "attachments",
                    ParamType::Boolean,
                    "whether to include its attachments",
                ),
            ],
        ),
        ToolSpec::new(
            "add_label",
            "add a label to a mail",
            vec![
                id(),
                Param::required("label", ParamType::String, "the label"),
            ],
        ),
        ToolSpec::new(
            "remove_label",
            "remove a label from a mail",
            vec![
                id(),
                Param::required("label", ParamType::String, "the label"),
            ],
        ),
        ToolSpec::new("done", "finish (ends the episode)", vec![]).ending(),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl Email {
    fn run(&mut self, call: &ToolCall) -> String {
        let id = call.str("email_id").trim().to_ascii_uppercase();
        if call.has("email_id") && self.mailbox.mail(&id).is_none() {
            return "error: no such email".into();
        }
        let at = self.mailbox.mails.iter().position(|m| m.id == id);
        match call.name.as_str() {
            "search" => {
                let query = task::words(call.str("query"));
                let mut hits: Vec<&Mail> = self
                    .mailbox
                    .mails
                    .iter()
                    .filter(|m| {
                        query.iter().all(|q| {
                            [&m.from_name, &m.from, &m.subject, &m.body]
                                .iter()
                                .any(|field| task::has_word(field, q))
                        })
                    })
                    .collect();
                hits.sort_by_key(|m| m.days_ago);
                let total = hits.len();
                let rows: Vec<Value> = hits
                    .iter()
                    .take(SHOWN)
                    .map(|m| json!({"email_id": m.id, "from": m.from_name, "subject": m.subject, "days_ago": m.days_ago}))
                    .collect();
                json!({"matches": total, "shown": rows}).to_string()
            }
            "read" => {
                serde_json::to_string(&self.mailbox.mails[at.unwrap_or(0)]).unwrap_or_default()
            }
            "reply" | "forward" => {
                let mail = &self.mailbox.mails[at.unwrap_or(0)];
                let forward = call.name == "forward";
                let with =
                    forward && call.args.get("attachments").and_then(Value::as_bool) == Some(true);
                self.mailbox.sent.push(Sent {
                    kind: call.name.clone(),
                    of: mail.id.clone(),
                    to: if forward {
                        call.str("to").trim().to_string()
                    } else {
                        mail.from.clone()
                    },
                    body: call.str("body").to_string(),
                    attachments: if with {
                        mail.attachments.clone()
                    } else {
                        Vec::new()
                    },
                });
                "sent".into()
            }
            "add_label" | "remove_label" => {
                let label = call.str("label").trim().trim_matches('`').to_lowercase();
                if label.is_empty() {
                    return "error: empty label".into();
                }
                let labels = &mut self.mailbox.mails[at.unwrap_or(0)].labels;
                if call.name == "add_label" {
                    if !labels.contains(&label) {
                        labels.push(label);
                    }
                } else {
                    labels.retain(|l| *l != label);
                }
                "ok".into()
            }
            "done" => {
                self.done = true;
                "done".into()
            }
            other => format!("error: no tool {other}"),
        }
    }
}

impl ToolEnv for Email {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(_task: &EmailTask) -> bool {
        true
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Email {
    type Config = EmailConfig;
    type Task = EmailTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/email-v1",
        kind: EnvKind::MultiTurn,
        description: "Email assistant: search a mailbox, then forward with attachments, label or reply with a looked-up code; scored on the final mailbox",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Seven levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"contacts":3,"mails":8}"#,
        r#"{"contacts":4,"mails":12}"#,
        r#"{"contacts":5,"mails":16}"#,
        r#"{}"#,
        r#"{"contacts":8,"mails":36}"#,
        r#"{"contacts":10,"mails":50}"#,
        r#"{"contacts":12,"mails":72}"#,
    ];

    fn effort(task: &EmailTask) -> Option<f64> {
        tool_effort::<Self>(task.mailbox.mails.len(), task)
    }

    fn validate(config: &EmailConfig) -> Result<(), ConfigError> {
        if !(3..=12).contains(&config.contacts) {
            return Err("contacts must be in 3..=12".into());
        }
        if !(6..=80).contains(&config.mails) || config.mails > 10 * config.contacts {
            return Err("mails must be in 6..=80 and at most 10 per contact".into());
        }
        Ok(())
    }

    fn generate(config: &EmailConfig, rng: &mut Rng) -> EmailTask {
        draw_screened::<Email>(|| generate::draw(config, rng), degenerate_scripts)
    }

    fn reference(task: &EmailTask) -> Option<Value> {
        serde_json::to_value(&task.goal).ok()
    }

    fn reset(task: &EmailTask, _rng: Rng) -> Self {
        Email {
            instruction: task.instruction.clone(),
            goal: task.goal.clone(),
            gold: task.gold.clone().into(),
            target: task.target(),
            mailbox: task.mailbox.clone(),
            log: Log::default(),
            count: CallCount::default(),
            done: false,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.done || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        let text = observation_text(
            &format!(
                "You are an email assistant working in the user's mailbox. Do exactly what the user asks, nothing more, then call done.\n\nUser: {}",
                self.instruction
            ),
            &TOOLS,
            RESOLUTION_CALL_HELP,
            &self.log,
        );
        tool_observation(
            text,
            tool_specs(),
            &self.log,
            json!({"instruction": self.instruction, "done": self.done}),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let state = task::reached(&self.goal, &self.target, &self.mailbox);
        Score::binary(self.done && state).part("state_correct", f64::from(u8::from(state)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let mails = &self.mailbox.mails;
        let mail = &mails[rng.below(mails.len() as u64) as usize];
        let other = &mails[rng.below(mails.len() as u64) as usize];
        let call = match rng.below(7) {
            0 => ToolCall::new("search", json!({"query": other.from_name})),
            1 => ToolCall::new("read", json!({"email_id": mail.id})),
            2 => ToolCall::new("reply", json!({"email_id": mail.id, "body": other.subject})),
            3 => ToolCall::new(
                "forward",
                json!({"email_id": mail.id, "to": format!("someone{}@elsewhere.example", rng.below(100)), "attachments": rng.chance(0.5)}),
            ),
            4 => ToolCall::new("add_label", json!({"email_id": mail.id, "label": "misc"})),
            5 => ToolCall::new(
                "remove_label",
                json!({"email_id": mail.id, "label": "work"}),
            ),
            _ => ToolCall::new("done", json!({})),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} done={} sent={} goal={:?}",
            self.log.entries.len(),
            self.done,
            self.mailbox.sent.len(),
            self.goal
        )
    }
}

/// `done` at once, and labelling every mail of a label goal's sender.
fn degenerate_scripts(task: &EmailTask) -> Vec<Vec<String>> {
    let done = call_text("done", json!({}));
    let mut scripts = vec![vec![done.clone()]];
    if let Goal::Label { mails, label } = &task.goal {
        let from = &task
            .mailbox
            .mail(&mails[0])
            .map(|m| m.from.clone())
            .unwrap_or_default();
        let mut all: Vec<String> = task
            .mailbox
            .mails
            .iter()
            .filter(|m| &m.from == from)
            .map(|m| call_text("add_label", json!({"email_id": m.id, "label": label})))
            .collect();
        all.push(done);
        scripts.push(all);
    }
    scripts
}
