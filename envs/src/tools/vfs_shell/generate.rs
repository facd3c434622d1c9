//! Candidate tasks of `tools/vfs-shell`: a world and a chore with its gold
//! calls (the env runs them to get the expected tree, then screens the task).

use serde_json::json;

use super::fs;
use super::task::VfsShellConfig;
use crate::rng::Rng;
use crate::toolkit::calls::call_text;
use crate::toolkit::final_answer::infeasible_answer;

const VENDORS: &[&str] = &[
    "Acme Corp",
    "Borealis Ltd",
    "Cobalt Works",
    "Dunmore Supply",
    "Everly Foods",
    "Fenwick Labs",
    "Garnet Print",
    "Harbor Lines",
];
const SERVICES: &[&str] = &["api", "worker", "billing", "auth", "search"];
const LEVELS: &[&str] = &["INFO", "INFO", "INFO", "WARN", "ERROR", "FATAL"];
const MESSAGES: &[&str] = &[
    "request served",
    "cache refreshed",
    "connection timeout",
    "retrying job",
    "disk usage high",
    "user signed in",
    "upstream timeout",
    "queue drained",
    "config reloaded",
    "payment settled",
];
const NOTE_WORDS: &[&str] = &[
    "meeting",
    "roadmap",
    "budget",
    "hiring",
    "offsite",
    "travel",
    "backlog",
    "security",
    "launch",
    "audit",
    "pricing",
    "onboarding",
];
const SENTENCES: &[&str] = &[
    "Review the open items before Friday.",
    "Ask finance about the quarter.",
    "Draft is ready for comments.",
    "Move the sync to Tuesday.",
    "Numbers look better than last month.",
    "Follow up with the vendor.",
    "Keep this short.",
    "Decision postponed.",
];

struct Invoice {
    id: u32,
    vendor: &'static str,
    amount: i64,
    paid: bool,
    path: String,
}

pub(super) struct World {
    pub(super) tree: fs::Tree,
    invoices: Vec<Invoice>,
    logs: Vec<(String, String)>,
    notes: Vec<String>,
}

pub(super) fn draw_world(config: &VfsShellConfig, rng: &mut Rng) -> World {
    let mut tree = fs::Tree::new();
    for dir in ["/invoices", "/logs", "/notes"] {
        tree.insert(dir.into(), None);
    }
    let ids = crate::tools::distinct(rng, 1000, 9999, config.invoices);
    let mut invoices = Vec::new();
    for id in ids {
        let id = id as u32;
        let dir = if config.by_year {
            let year = 2021 + rng.below(4);
            let dir = format!("/invoices/{year}");
            tree.insert(dir.clone(), None);
            dir
        } else {
            "/invoices".to_string()
        };
        let invoice = Invoice {
            id,
            vendor: VENDORS[rng.below(VENDORS.len() as u64) as usize],
            amount: rng.range_i64(40, 2000),
            paid: rng.chance(0.5),
            path: format!("{dir}/inv-{id}.txt"),
        };
        let content = format!(
            "invoice: INV-{}\nvendor: {}\namount: {}\nstatus: {}\n",
            invoice.id,
            invoice.vendor,
            invoice.amount,
            if invoice.paid { "paid" } else { "unpaid" }
        );
        tree.insert(invoice.path.clone(), Some(content));
        invoices.push(invoice);
    }
    let mut logs = Vec::new();
    for i in 0..config.logs {
        let service = SERVICES[rng.below(SERVICES.len() as u64) as usize];
        let path = format!("/logs/{service}-{:02}.log", i + 1);
        let lines: Vec<String> = (0..rng.range_usize(3, 6))
            .map(|_| {
                format!(
                    "{:02}:{:02}:{:02} {} {}",
                    rng.below(24),
                    rng.below(60),
                    rng.below(60),
                    LEVELS[rng.below(LEVELS.len() as u64) as usize],
                    MESSAGES[rng.below(MESSAGES.len() as u64) as usize]
                )
            })
            .collect();
        let content = lines.join("\n") + "\n";
        tree.insert(path.clone(), Some(content.clone()));
        logs.push((path, content));
    }
    let mut words: Vec<&str> = NOTE_WORDS.to_vec();
    rng.shuffle(&mut words);
    let mut notes = Vec::new();
    for word in words.iter().take(config.notes) {
        let lines: Vec<&str> = (0..rng.range_usize(1, 6))
            .map(|_| SENTENCES[rng.below(SENTENCES.len() as u64) as usize])
            .collect();
        tree.insert(format!("/notes/{word}.txt"), Some(lines.join("\n") + "\n"));
        notes.push(word.to_string());
    }
    World {
        tree,
        invoices,
        logs,
        notes,
    }
}

/// A chore: its text, gold calls (the answer call excluded) and answer.
pub(super) struct Chore {
    pub(super) instruction: String,
    pub(super) gold: Vec<String>,
    pub(super) answer: String,
    pub(super) feasible: bool,
}

fn vendor_slug(vendor: &str) -> String {
    vendor.to_lowercase().replace(' ', "-")
}

fn moves_into(dir: &str, paths: &[&str]) -> Vec<String> {
    let mut gold = vec![call_text("mkdir", json!({"path": dir}))];
    gold.extend(
        paths
            .iter()
            .map(|p| call_text("mv", json!({"source": p, "target": dir}))),
    );
    gold
}

pub(super) fn draw_chore(world: &World, config: &VfsShellConfig, rng: &mut Rng) -> Option<Chore> {
    let infeasible = rng.chance(config.infeasible_share);
    let kind = if infeasible {
        4 + rng.below(2)
    } else {
        rng.below(6)
    };
    let inv = &world.invoices;
    Some(match kind {
        0 => {
            let mut amounts: Vec<i64> = inv.iter().map(|i| i.amount).collect();
            amounts.sort();
            let threshold = amounts[rng.range_usize(0, amounts.len() - 3)];
            let chosen: Vec<&Invoice> = inv.iter().filter(|i| i.amount > threshold).collect();
            if chosen.len() < 2 || chosen.len() == inv.len() {
                return None;
            }
            let paths: Vec<&str> = chosen.iter().map(|i| i.path.as_str()).collect();
            Chore {
                instruction: format!(
                    "Move every invoice under /invoices whose amount is over {threshold} into /archive \
                     (create /archive if it is missing; keep the file names). Then answer with the total \
                     amount of the invoices you moved."
                ),
                gold: moves_into("/archive", &paths),
                answer: chosen.iter().map(|i| i.amount).sum::<i64>().to_string(),
                feasible: true,
            }
        }
        1 => {
            let vendor = VENDORS[rng.below(VENDORS.len() as u64) as usize];
            let chosen: Vec<&Invoice> = inv
                .iter()
                .filter(|i| i.vendor == vendor && !i.paid)
                .collect();
            if chosen.len() < 2 {
                return None;
            }
            let paths: Vec<&str> = chosen.iter().map(|i| i.path.as_str()).collect();
            Chore {
                instruction: format!(
                    "Move every unpaid invoice from {vendor} (anywhere under /invoices) into /archive/unpaid \
                     (create it if it is missing; keep the file names). Then answer with their total amount."
                ),
                gold: moves_into("/archive/unpaid", &paths),
                answer: chosen.iter().map(|i| i.amount).sum::<i64>().to_string(),
                feasible: true,
            }
        }
        2 => {
            let word = ["ERROR", "FATAL", "timeout"][rng.below(3) as usize];
            let doomed: Vec<&str> = world
                .logs
                .iter()
                .filter(|(_, c)| c.contains(word))
                .map(|(p, _)| p.as_str())
                .collect();
            if doomed.len() < 2 || doomed.len() == world.logs.len() {
                return None;
            }
            Chore {
                instruction: format!(
                    "Delete every log file in /logs that contains the text `{word}` on any line. \
                     Then answer with how many files you deleted."
                ),
                gold: doomed
                    .iter()
                    .map(|p| call_text("rm", json!({"path": p})))
                    .collect(),
                answer: doomed.len().to_string(),
                feasible: true,
            }
        }
        3 => {
            let vendor = VENDORS[rng.below(VENDORS.len() as u64) as usize];
            let mut chosen: Vec<&Invoice> = inv.iter().filter(|i| i.vendor == vendor).collect();
            if chosen.len() < 2 {
                return None;
            }
            chosen.sort_by_key(|i| i.id);
            let path = format!("/reports/{}.txt", vendor_slug(vendor));
            let content: String = chosen.iter().map(|i| format!("INV-{}\n", i.id)).collect();
            Chore {
                instruction: format!(
                    "Write the file {path} listing the ids (like INV-1234) of all invoices from {vendor} \
                     under /invoices, one per line in ascending order (create /reports if it is missing). \
                     Then answer with the total amount of those invoices."
                ),
                gold: vec![
                    call_text("mkdir", json!({"path": "/reports"})),
                    call_text("write", json!({"path": path, "content": content})),
                ],
                answer: chosen.iter().map(|i| i.amount).sum::<i64>().to_string(),
                feasible: true,
            }
        }
        4 => {
            let (id, invoice) = if infeasible {
                let id = loop {
                    let id = rng.range_i64(1000, 9999) as u32;
                    if !inv.iter().any(|i| i.id == id) {
                        break id;
                    }
                };
                (id, None)
            } else {
                let i = &inv[rng.below(inv.len() as u64) as usize];
                (i.id, Some(i))
            };
            Chore {
                instruction: format!(
                    "Copy invoice INV-{id} into /backup (create /backup if it is missing; keep the file \
                     name). Then answer with its amount. If there is no such invoice, answer \
                     `infeasible: INV-NNNN` with the id of the existing invoice whose number is closest \
                     to {id} (the lower one on a tie)."
                ),
                gold: invoice.map_or_else(Vec::new, |i| {
                    vec![
                        call_text("mkdir", json!({"path": "/backup"})),
                        call_text("cp", json!({"source": i.path, "target": "/backup"})),
                    ]
                }),
                answer: invoice.map_or_else(
                    || infeasible_answer(&format!("INV-{}", closest_invoice(inv, id))),
                    |i| i.amount.to_string(),
                ),
                feasible: !infeasible,
            }
        }
        _ => {
            let name = if infeasible {
                let unused: Vec<&&str> = NOTE_WORDS
                    .iter()
                    .filter(|w| !world.notes.iter().any(|n| n == **w))
                    .collect();
                unused
                    .get(rng.below(unused.len().max(1) as u64) as usize)?
                    .to_string()
            } else {
                world.notes[rng.below(world.notes.len() as u64) as usize].clone()
            };
            let source = format!("/notes/{name}.txt");
            let lines = world
                .tree
                .get(&source)
                .and_then(|n| n.as_ref())
                .map(|c| c.lines().count());
            Chore {
                instruction: format!(
                    "Copy the note {source} to /backup/{name}.txt (create /backup if it is missing). \
                     Then answer with the number of lines in the note. If there is no such note, answer \
                     `infeasible: NAMES` listing the names of the notes in /notes without `.txt`, \
                     alphabetically, separated by commas."
                ),
                gold: lines.map_or_else(Vec::new, |_| {
                    vec![
                        call_text("mkdir", json!({"path": "/backup"})),
                        call_text(
                            "cp",
                            json!({"source": source, "target": format!("/backup/{name}.txt")}),
                        ),
                    ]
                }),
                answer: lines.map_or_else(
                    || {
                        let mut names = world.notes.clone();
                        names.sort();
                        infeasible_answer(&names.join(", "))
                    },
                    |n| n.to_string(),
                ),
                feasible: !infeasible,
            }
        }
    })
}

/// The id of the invoice whose number is closest to `id` (the lower on a
/// tie): what listing /invoices shows someone looking for a missing one.
fn closest_invoice(invoices: &[Invoice], id: u32) -> u32 {
    invoices
        .iter()
        .map(|i| i.id)
        .min_by_key(|&other| (other.abs_diff(id), other))
        .expect("worlds have invoices")
}
