//! `logic/cfg-membership-v1`: say which strings a context-free grammar
//! generates (decided by CYK on the grammar's Chomsky normal form).
//!
//! # Task
//! A random grammar over `nonterminals` nonterminals (`S` the start
//! symbol, then `A`, `B`, …) and `terminals` terminals (`a`, `b`, `c`),
//! 2..=3 rules per nonterminal, each a terminal or two to three symbols (no
//! empty and no unit rules; every nonterminal reachable and productive),
//! and `strings` distinct strings of 2..=`max_len` terminals, each with a
//! random three-letter label. Between 2 and `strings - 2` of them are in the
//! language (drawn per task, from random derivations); the rest are edits
//! of members or random strings that CYK on the normal form rejects.
//!
//! # Action
//! The labels of the strings in the language, separated by spaces, commas
//! or `;`, in any order; case is ignored. In `\boxed{…}` or as the whole
//! reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grammar, one line per nonterminal (`S -> aSb | AB`), and the labelled
//! strings. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the labels name exactly the members, each once;
//! else 0 (an unknown label is unreadable). Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nonterminals` (2..=8), `terminals` (2..=3), `strings` (4..=16),
//! `max_len` (3..=24).
//!
//! # Seeding
//! The grammar, the strings and the labels come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::logic::solvers::cfg::{
    Grammar, Sym, draw_grammar, random_derivation, to_cnf, word_text,
};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CfgMembershipConfig {
    pub nonterminals: usize,
    pub terminals: usize,
    pub strings: usize,
    pub max_len: usize,
}

impl Default for CfgMembershipConfig {
    fn default() -> Self {
        CfgMembershipConfig {
            nonterminals: 3,
            terminals: 2,
            strings: 6,
            max_len: 8,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CfgMembershipTask {
    pub grammar: Grammar,
    /// The strings' labels, in listed order.
    pub labels: Vec<String>,
    /// The strings, as terminal indices.
    pub words: Vec<Vec<u8>>,
    /// Whether each string is in the language (CYK).
    pub member: Vec<bool>,
}

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2000;

pub struct CfgMembership;

pub type CfgMembershipEnv = SingleTurn<CfgMembership>;

impl CfgMembership {
    fn draw(config: &CfgMembershipConfig, rng: &mut Rng) -> Option<CfgMembershipTask> {
        let grammar = draw_grammar(config.nonterminals, config.terminals, rng)?;
        let cnf = to_cnf(&grammar);
        let wanted = rng.range_usize(2, config.strings - 2);
        let mut seen: BTreeSet<Vec<u8>> = BTreeSet::new();
        let mut members: Vec<Vec<u8>> = Vec::new();
        for _ in 0..wanted * 6 {
            let forms = random_derivation(&grammar, config.max_len, rng)?;
            let word: Vec<u8> = forms
                .last()?
                .iter()
                .map(|s| match s {
                    Sym::T(t) => *t,
                    Sym::N(_) => unreachable!("a finished form"),
                })
                .collect();
            if word.len() >= 2 && seen.insert(word.clone()) {
                members.push(word);
                if members.len() == wanted {
                    break;
                }
            }
        }
        if members.len() < wanted {
            return None;
        }
        let mut others: Vec<Vec<u8>> = Vec::new();
        let terminals = config.terminals as u64;
        for _ in 0..(config.strings - wanted) * 12 {
            let mut word = if rng.chance(0.25) {
                let len = rng.range_usize(2, config.max_len);
                (0..len).map(|_| rng.below(terminals) as u8).collect()
            } else {
                rng.choose(&members)?.clone()
            };
            for _ in 0..rng.range_usize(1, 2) {
                let i = rng.below(word.len() as u64) as usize;
                match rng.below(3) {
                    0 => word[i] = (word[i] + 1 + rng.below(terminals - 1) as u8) % terminals as u8,
                    1 if word.len() < config.max_len => word.insert(i, rng.below(terminals) as u8),
                    _ if word.len() > 2 => {
                        word.remove(i);
                    }
                    _ => {}
                }
            }
            if !cnf.accepts(&word) && seen.insert(word.clone()) {
                others.push(word);
                if others.len() == config.strings - wanted {
                    break;
                }
            }
        }
        if others.len() < config.strings - wanted {
            return None;
        }
        let mut listed: Vec<(Vec<u8>, bool)> = members
            .into_iter()
            .map(|w| (w, true))
            .chain(others.into_iter().map(|w| (w, false)))
            .collect();
        rng.shuffle(&mut listed);
        // Labels made only of the terminals' letters would read as strings.
        let labels = loop {
            let labels = draw_names(config.strings, rng);
            if labels.iter().all(|l| l.bytes().any(|b| b > b'C')) {
                break labels;
            }
        };
        let (words, member) = listed.into_iter().unzip();
        Some(CfgMembershipTask {
            grammar,
            labels,
            words,
            member,
        })
    }
}

impl Question for CfgMembership {
    type Config = CfgMembershipConfig;
    type Task = CfgMembershipTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/cfg-membership-v1",
        kind: EnvKind::SingleTurn,
        description: "Say which labelled strings a context-free grammar generates (decided by CYK on its normal form)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nonterminals":2,"strings":4,"max_len":4}"#,
        r#"{"nonterminals":2,"strings":5,"max_len":6}"#,
        r#"{"nonterminals":3,"strings":6,"max_len":6}"#,
        "{}",
        r#"{"nonterminals":4,"terminals":3,"strings":8,"max_len":10}"#,
        r#"{"nonterminals":5,"terminals":3,"strings":10,"max_len":12}"#,
        r#"{"nonterminals":6,"terminals":3,"strings":12,"max_len":16}"#,
    ];

    fn effort(task: &CfgMembershipTask) -> Option<f64> {
        let cubes: usize = task.words.iter().map(|w| w.len().pow(3)).sum();
        Some((cubes * task.grammar.rules.len()) as f64)
    }

    fn validate(config: &CfgMembershipConfig) -> Result<(), ConfigError> {
        if !(2..=8).contains(&config.nonterminals) {
            return Err("nonterminals must be in 2..=8".into());
        }
        if !(2..=3).contains(&config.terminals) {
            return Err("terminals must be in 2..=3".into());
        }
        if !(4..=16).contains(&config.strings) {
            return Err("strings must be in 4..=16".into());
        }
        if !(3..=24).contains(&config.max_len) {
            return Err("max_len must be in 3..=24".into());
        }
        Ok(())
    }

    fn generate(config: &CfgMembershipConfig, rng: &mut Rng) -> CfgMembershipTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(
        config: &CfgMembershipConfig,
        rng: &mut Rng,
    ) -> Result<CfgMembershipTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no grammar in {MAX_DRAWS} draws had enough members and non-members of at most {} symbols; raise max_len or lower strings",
                    config.max_len
                )
            },
        )
    }

    fn prompt(task: &CfgMembershipTask) -> String {
        let strings: Vec<String> = task
            .labels
            .iter()
            .zip(&task.words)
            .map(|(label, word)| format!("{label}: {}", word_text(word)))
            .collect();
        format!(
            "Here is a context-free grammar with start symbol S (uppercase letters are nonterminals, \
             lowercase letters are terminals, | separates alternatives):\n{}\n\nWhich of these strings \
             can the grammar generate?\n{}\n\nAnswer with the labels of exactly the strings in the \
             language, separated by spaces, inside \\boxed{{}}.",
            task.grammar.lines().join("\n"),
            strings.join("\n")
        )
    }

    fn structured(task: &CfgMembershipTask) -> Value {
        let strings: Vec<Value> = task
            .labels
            .iter()
            .zip(&task.words)
            .map(|(label, word)| json!({ "label": label, "string": word_text(word) }))
            .collect();
        json!({ "start": "S", "rules": task.grammar.lines(), "strings": strings })
    }

    fn reference(task: &CfgMembershipTask) -> String {
        task.labels
            .iter()
            .zip(&task.member)
            .filter(|(_, m)| **m)
            .map(|(label, _)| label.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &CfgMembershipTask, answer: &str) -> Result<bool, CheckError> {
        let tokens = answer
            .split(|c: char| c.is_whitespace() || ",;{}[]()".contains(c))
            .filter(|t| !t.is_empty());
        let named = read_names(tokens, &task.labels, "string label")?;
        let distinct: BTreeSet<usize> = named.iter().copied().collect();
        let members: BTreeSet<usize> = (0..task.labels.len()).filter(|&i| task.member[i]).collect();
        Ok(distinct.len() == named.len() && distinct == members)
    }
}

#[cfg(test)]
#[path = "cfg_membership_tests.rs"]
mod tests;
