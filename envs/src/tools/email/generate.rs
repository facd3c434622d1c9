//! Candidate tasks of `tools/email` (the env screens them): a random
//! mailbox, then a goal whose mails are found by sender and topic.

use super::task::{EmailConfig, EmailTask, Goal, Mail, Mailbox, gold_calls};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Anika", "Basil", "Carmen", "Dario", "Edda", "Felix", "Greta", "Hamid", "Irene", "Joel",
    "Kira", "Linus", "Maya", "Noor", "Otto", "Priya",
];
const LAST: &[&str] = &[
    "Alvarez", "Brandt", "Chen", "Dahl", "Evans", "Ferreira", "Grant", "Holm", "Iqbal", "Janssen",
    "Keller", "Lund",
];
const TOPICS: &[&str] = &[
    "budget review",
    "offsite plan",
    "vendor contract",
    "hiring update",
    "server outage",
    "travel booking",
    "design mockups",
    "client feedback",
    "expense report",
    "launch checklist",
    "security audit",
    "team lunch",
    "board slides",
    "tax filing",
];
const LABELS: &[&str] = &["work", "finance", "personal"];
const GOAL_LABELS: &[&str] = &[
    "follow-up",
    "urgent",
    "clients",
    "to-review",
    "waiting",
    "later",
];
const CODE_PREFIXES: &[&str] = &["INV", "REF", "PO", "TKT", "CASE"];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn title(topic: &str) -> String {
    let mut chars = topic.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// A random mailbox; every mail has a reference code in its body and
/// `(sender, topic)` pairs are unique.
fn mailbox(config: &EmailConfig, rng: &mut Rng) -> (Vec<(String, String)>, Mailbox) {
    let mut contacts: Vec<(String, String)> = Vec::new();
    while contacts.len() < config.contacts {
        let (first, last) = (pick(rng, FIRST), pick(rng, LAST));
        let name = format!("{first} {last}");
        if contacts
            .iter()
            .all(|(n, _)| !n.starts_with(first) && !n.ends_with(last))
        {
            let address = format!(
                "{}.{}@corp.example",
                first.to_lowercase(),
                last.to_lowercase()
            );
            contacts.push((name, address));
        }
    }
    let ids = crate::tools::distinct(rng, 10000, 99999, config.mails * 2);
    let mut used: Vec<(usize, &str)> = Vec::new();
    let mut mails = Vec::new();
    for i in 0..config.mails {
        let (who, topic) = loop {
            let pair = (rng.below(contacts.len() as u64) as usize, pick(rng, TOPICS));
            if !used.contains(&pair) {
                break pair;
            }
        };
        used.push((who, topic));
        let code = format!("{}-{}", pick(rng, CODE_PREFIXES), ids[config.mails + i]);
        let subject = match rng.below(3) {
            0 => title(topic),
            1 => format!("Re: {topic}"),
            _ => format!("{} (update)", title(topic)),
        };
        let body = format!(
            "Hi, a note on the {topic}. The reference code is {code}. {}",
            pick(
                rng,
                &["Thanks!", "Let me know.", "Best regards.", "Talk soon."]
            )
        );
        let attachments = match rng.below(3) {
            0 => vec![],
            1 => vec![format!("{}.pdf", topic.replace(' ', "-"))],
            _ => vec![
                format!("{}.pdf", topic.replace(' ', "-")),
                format!("notes-{}.txt", ids[i] % 100),
            ],
        };
        let labels = if rng.chance(0.3) {
            vec![pick(rng, LABELS).to_string()]
        } else {
            vec![]
        };
        mails.push(Mail {
            id: format!("M-{}", ids[i]),
            from: contacts[who].1.clone(),
            from_name: contacts[who].0.clone(),
            subject,
            body,
            days_ago: rng.range_i64(0, 30),
            labels,
            attachments,
        });
    }
    (
        contacts,
        Mailbox {
            mails,
            sent: Vec::new(),
        },
    )
}

fn topic_of(mail: &Mail) -> &'static str {
    TOPICS
        .iter()
        .find(|t| mail.body.contains(&format!("on the {t}.")))
        .copied()
        .unwrap_or("")
}

/// A candidate task, or `None` when the mailbox cannot hold the drawn goal.
pub(super) fn draw(config: &EmailConfig, rng: &mut Rng) -> Option<EmailTask> {
    let (contacts, mailbox) = mailbox(config, rng);
    let n = mailbox.mails.len();
    let target = &mailbox.mails[rng.below(n as u64) as usize];
    let topic = topic_of(target);
    let (goal, instruction, queries) = match rng.below(3) {
        0 => {
            if target.attachments.is_empty() {
                return None;
            }
            let others: Vec<&(String, String)> =
                contacts.iter().filter(|c| c.1 != target.from).collect();
            let to = others[rng.below(others.len() as u64) as usize];
            let instruction = format!(
                "Forward {}'s email about the {topic} to {} ({}), with its attachments.",
                target.from_name, to.0, to.1
            );
            let goal = Goal::Forward {
                mail: target.id.clone(),
                to: to.1.clone(),
            };
            (
                goal,
                instruction,
                vec![format!("{} {topic}", target.from_name)],
            )
        }
        1 => {
            let theirs: Vec<&Mail> = mailbox
                .mails
                .iter()
                .filter(|m| m.from == target.from)
                .collect();
            let mut days: Vec<i64> = theirs.iter().map(|m| m.days_ago).collect();
            days.sort();
            days.dedup();
            // Within the last k days: some of theirs, not all (at most 12 shown).
            if theirs.len() > 12 || days.len() < 2 {
                return None;
            }
            let k = days[rng.below(days.len() as u64 - 1) as usize];
            let label = pick(rng, GOAL_LABELS).to_string();
            let mails: Vec<String> = theirs
                .iter()
                .filter(|m| m.days_ago <= k)
                .map(|m| m.id.clone())
                .collect();
            let instruction = format!(
                "Label every email from {} received in the last {k} days (days_ago {k} or less) as `{label}`.",
                target.from_name
            );
            (
                Goal::Label { mails, label },
                instruction,
                vec![target.from_name.clone()],
            )
        }
        _ => {
            let source = &mailbox.mails[rng.below(n as u64) as usize];
            if source.id == target.id {
                return None;
            }
            let code = source
                .body
                .split("reference code is ")
                .nth(1)?
                .split('.')
                .next()?
                .to_string();
            let instruction = format!(
                "Reply to {}'s email about the {topic} with the reference code from {}'s email about the {}.",
                target.from_name,
                source.from_name,
                topic_of(source)
            );
            let queries = vec![
                format!("{} {}", source.from_name, topic_of(source)),
                format!("{} {topic}", target.from_name),
            ];
            let goal = Goal::Reply {
                mail: target.id.clone(),
                source: source.id.clone(),
                code,
            };
            (goal, instruction, queries)
        }
    };
    let mut task = EmailTask {
        mailbox,
        instruction,
        goal,
        queries,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    Some(task)
}
