//! The config, mailbox, goals and reference calls of `tools/email`.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mail {
    pub id: String,
    pub from: String,
    pub from_name: String,
    pub subject: String,
    pub body: String,
    pub days_ago: i64,
    pub labels: Vec<String>,
    pub attachments: Vec<String>,
}

/// A message the agent sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// `reply` or `forward`.
    pub kind: String,
    /// The mail replied to or forwarded.
    pub of: String,
    pub to: String,
    pub body: String,
    pub attachments: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailbox {
    pub mails: Vec<Mail>,
    pub sent: Vec<Sent>,
}

impl Mailbox {
    pub(crate) fn mail(&self, id: &str) -> Option<&Mail> {
        self.mails.iter().find(|m| m.id == id)
    }
}

/// What the user asks for (mails by id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Forward `mail` to `to` with all its attachments.
    Forward { mail: String, to: String },
    /// Add `label` to exactly these mails.
    Label { mails: Vec<String>, label: String },
    /// Reply to `mail` with `code` (read from `source`) in the body.
    Reply {
        mail: String,
        source: String,
        code: String,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EmailConfig {
    pub contacts: usize,
    pub mails: usize,
}

impl Default for EmailConfig {
    fn default() -> Self {
        EmailConfig {
            contacts: 6,
            mails: 24,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmailTask {
    pub mailbox: Mailbox,
    pub instruction: String,
    pub goal: Goal,
    /// Search queries the reference uses (one per looked-up mail).
    pub queries: Vec<String>,
    /// The reference calls, `done` last.
    pub gold: Vec<String>,
}

/// The words of a text, lowercased (letters and digits).
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether `body` holds `code` as a whole token (codes like `INV-48213`).
pub(crate) fn holds_code(body: &str, code: &str) -> bool {
    body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .any(|w| w.trim_matches('-').eq_ignore_ascii_case(code))
}

/// Whether `text` holds `word` (lowercase letters and digits) as a word.
pub(crate) fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case(word))
}

/// What a finished mailbox is checked against (worked out at reset).
#[derive(Clone, Debug)]
pub(crate) struct Target {
    /// Every mail's labels once the goal is done.
    pub labels: Vec<Vec<String>>,
    /// The forwarded mail's attachments (forward goals).
    pub attachments: Vec<String>,
}

impl EmailTask {
    pub(crate) fn target(&self) -> Target {
        let labels = self
            .mailbox
            .mails
            .iter()
            .map(|m| {
                let mut want = m.labels.clone();
                if let Goal::Label { mails, label } = &self.goal
                    && mails.contains(&m.id)
                    && !want.contains(label)
                {
                    want.push(label.clone());
                }
                want
            })
            .collect();
        let attachments = match &self.goal {
            Goal::Forward { mail, .. } => self
                .mailbox
                .mail(mail)
                .map(|m| m.attachments.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        Target {
            labels,
            attachments,
        }
    }
}

fn same_set(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
}

/// Whether the mailbox `now` is the state `goal` asks for: the labels of
/// every mail, and exactly the messages the goal sends.
pub(crate) fn reached(goal: &Goal, target: &Target, now: &Mailbox) -> bool {
    let labels_ok = target
        .labels
        .iter()
        .zip(&now.mails)
        .all(|(want, m)| same_set(want, &m.labels));
    let sent_ok = match (goal, now.sent.as_slice()) {
        (Goal::Label { .. }, sent) => sent.is_empty(),
        (Goal::Forward { mail, to }, [s]) => {
            s.kind == "forward"
                && &s.of == mail
                && s.to.eq_ignore_ascii_case(to)
                && same_set(&target.attachments, &s.attachments)
        }
        (Goal::Reply { mail, code, .. }, [s]) => {
            s.kind == "reply" && &s.of == mail && holds_code(&s.body, code)
        }
        _ => false,
    };
    labels_ok && sent_ok
}

/// The reference calls: search for each mail involved, read the source of
/// a reply, act, and close.
pub(super) fn gold_calls(task: &EmailTask) -> Vec<String> {
    let search = |q: &str| call_text("search", json!({"query": q}));
    let mut gold = Vec::new();
    match &task.goal {
        Goal::Forward { mail, to } => {
            gold.push(search(&task.queries[0]));
            gold.push(call_text(
                "forward",
                json!({"email_id": mail, "to": to, "attachments": true}),
            ));
        }
        Goal::Label { mails, label } => {
            gold.push(search(&task.queries[0]));
            for mail in mails {
                gold.push(call_text(
                    "add_label",
                    json!({"email_id": mail, "label": label}),
                ));
            }
        }
        Goal::Reply { mail, source, code } => {
            gold.push(search(&task.queries[0]));
            gold.push(call_text("read", json!({"email_id": source})));
            gold.push(search(&task.queries[1]));
            gold.push(call_text(
                "reply",
                json!({"email_id": mail, "body": format!("The reference code is {code}.")}),
            ));
        }
    }
    gold.push(call_text("done", json!({})));
    gold
}
