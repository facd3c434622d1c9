//! `logic/dfa-minimise-v1`: minimise a DFA by grouping its states into
//! classes of equivalent states (the states of the minimal DFA; the
//! partition is proven by Moore's refinement).
//!
//! # Task
//! A complete DFA with `states` states named by random three-letter names,
//! over `symbols` letters (`a`, `b`, `c`), every state reachable from the
//! start. It is drawn as a random core automaton whose states are split
//! into copies (each copy's transitions go to random copies of the core
//! targets), so equivalent states exist; draws whose minimal DFA has fewer
//! than 2 states or more than `states - 2` are redrawn, so neither "all
//! one class" nor "every state alone" passes.
//!
//! # Action
//! Every state exactly once, grouped into the classes of equivalent states
//! (two states are equivalent when they accept exactly the same strings):
//! classes in braces or parentheses (`{QAX, BRT} {CLM}`) or separated by
//! `;`, `|` or new lines; names in a class separated by spaces or commas;
//! case is ignored, and classes and names may come in any order. The
//! number of classes is the minimal DFA's number of states. In `\boxed{…}`
//! or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The states (start and accepting marked) and the transition table.
//! Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the classes are exactly the equivalence classes
//! (Moore's partition refinement); else 0. An unknown name is unreadable.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `states` (4..=40), `symbols` (2..=3).
//!
//! # Seeding
//! The core, the copies, the names and the listing order come from the task
//! rng.
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
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const LETTERS: &[u8] = b"abc";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DfaMinimiseConfig {
    pub states: usize,
    pub symbols: usize,
}

impl Default for DfaMinimiseConfig {
    fn default() -> Self {
        DfaMinimiseConfig {
            states: 8,
            symbols: 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DfaMinimiseTask {
    /// State names, in listed order; state 0 is the start.
    pub names: Vec<String>,
    pub symbols: usize,
    pub accepting: Vec<bool>,
    /// `delta[state][symbol]`.
    pub delta: Vec<Vec<usize>>,
    /// Moore's class of each state (classes numbered by first state).
    pub class: Vec<usize>,
}

/// Moore's refinement: each state's class (numbered in order of first
/// state) and the rounds it took.
pub(crate) fn moore(accepting: &[bool], delta: &[Vec<usize>]) -> (Vec<usize>, usize) {
    let n = accepting.len();
    let mut class: Vec<usize> = accepting.iter().map(|&a| usize::from(a)).collect();
    let mut rounds = 0;
    loop {
        rounds += 1;
        let signature = |s: usize| {
            (
                class[s],
                delta[s].iter().map(|&t| class[t]).collect::<Vec<_>>(),
            )
        };
        let mut seen: Vec<(usize, Vec<usize>)> = Vec::new();
        let next: Vec<usize> = (0..n)
            .map(|s| {
                let sig = signature(s);
                seen.iter().position(|x| *x == sig).unwrap_or_else(|| {
                    seen.push(sig);
                    seen.len() - 1
                })
            })
            .collect();
        let count = |c: &[usize]| c.iter().collect::<BTreeSet<_>>().len();
        if count(&next) == count(&class) {
            return (next, rounds);
        }
        class = next;
    }
}

/// The classes an answer names (each a list of state indices).
fn parse_classes(answer: &str, names: &[String]) -> Result<Vec<Vec<usize>>, CheckError> {
    let mut classes = Vec::new();
    let mut total = 0;
    for group in answer.split(|c: char| "{}()[];|\n\\".contains(c)) {
        let tokens: Vec<&str> = group
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            continue;
        }
        total += tokens.len();
        if total > names.len() {
            return Err(format!("more than the {} state names", names.len()).into());
        }
        classes.push(read_names(tokens.into_iter(), names, "state")?);
    }
    if classes.is_empty() {
        return Err("no state names given".into());
    }
    Ok(classes)
}

pub struct DfaMinimise;

pub type DfaMinimiseEnv = SingleTurn<DfaMinimise>;

impl DfaMinimise {
    fn draw(config: &DfaMinimiseConfig, rng: &mut Rng) -> Option<DfaMinimiseTask> {
        let (n, k) = (config.states, config.symbols);
        let core = rng.range_usize(2, n - 2);
        let core_accepting: Vec<bool> = (0..core).map(|_| rng.chance(0.4)).collect();
        let core_delta: Vec<Vec<usize>> = (0..core)
            .map(|_| (0..k).map(|_| rng.below(core as u64) as usize).collect())
            .collect();
        // Copies: every core state once, the rest at random.
        let mut of: Vec<usize> = (0..core)
            .chain((core..n).map(|_| rng.below(core as u64) as usize))
            .collect();
        rng.shuffle(&mut of);
        let copies: Vec<Vec<usize>> = (0..core)
            .map(|q| (0..n).filter(|&s| of[s] == q).collect())
            .collect();
        let mut delta: Vec<Vec<usize>> = (0..n)
            .map(|s| {
                core_delta[of[s]]
                    .iter()
                    .map(|&q| *rng.choose(&copies[q]).expect("every core state has a copy"))
                    .collect()
            })
            .collect();
        let mut accepting: Vec<bool> = (0..n).map(|s| core_accepting[of[s]]).collect();
        // The start first: move a copy of core state 0 to index 0.
        let start = copies[0][0];
        let mut order: Vec<usize> = (0..n).collect();
        order.swap(0, start);
        let mut position = vec![0; n];
        for (p, &s) in order.iter().enumerate() {
            position[s] = p;
        }
        delta = order
            .iter()
            .map(|&s| delta[s].iter().map(|&t| position[t]).collect())
            .collect();
        accepting = order.iter().map(|&s| accepting[s]).collect();
        let mut reached = vec![false; n];
        let mut stack = vec![0];
        reached[0] = true;
        while let Some(s) = stack.pop() {
            for &t in &delta[s] {
                if !reached[t] {
                    reached[t] = true;
                    stack.push(t);
                }
            }
        }
        if reached.contains(&false) {
            return None;
        }
        let (class, _) = moore(&accepting, &delta);
        let minimal = class.iter().collect::<BTreeSet<_>>().len();
        if !(2..=n - 2).contains(&minimal) {
            return None;
        }
        Some(DfaMinimiseTask {
            names: draw_names(n, rng),
            symbols: k,
            accepting,
            delta,
            class,
        })
    }

    fn classes(task: &DfaMinimiseTask) -> Vec<Vec<usize>> {
        let count = task.class.iter().max().map_or(0, |m| m + 1);
        (0..count)
            .map(|c| {
                (0..task.names.len())
                    .filter(|&s| task.class[s] == c)
                    .collect()
            })
            .collect()
    }
}

impl Question for DfaMinimise {
    type Config = DfaMinimiseConfig;
    type Task = DfaMinimiseTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/dfa-minimise-v1",
        kind: EnvKind::SingleTurn,
        description: "Group a DFA's states into classes of equivalent states (the minimal DFA's states; proven by Moore's refinement)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"states":4}"#,
        r#"{"states":5}"#,
        r#"{"states":6}"#,
        "{}",
        r#"{"states":10,"symbols":3}"#,
        r#"{"states":14,"symbols":3}"#,
        r#"{"states":20,"symbols":3}"#,
    ];

    fn effort(task: &DfaMinimiseTask) -> Option<f64> {
        let (_, rounds) = moore(&task.accepting, &task.delta);
        Some((task.names.len() * task.symbols * (rounds + 1)) as f64)
    }

    fn validate(config: &DfaMinimiseConfig) -> Result<(), ConfigError> {
        if !(4..=40).contains(&config.states) {
            return Err("states must be in 4..=40".into());
        }
        if !(2..=3).contains(&config.symbols) {
            return Err("symbols must be in 2..=3".into());
        }
        Ok(())
    }

    fn generate(config: &DfaMinimiseConfig, rng: &mut Rng) -> DfaMinimiseTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &DfaMinimiseConfig, rng: &mut Rng) -> Result<DfaMinimiseTask, NoTask> {
        draw_until(
            5000,
            || Self::draw(config, rng),
            || "no reachable DFA with 2..=states-2 classes in 5000 draws; change states".into(),
        )
    }

    fn prompt(task: &DfaMinimiseTask) -> String {
        let letters: Vec<String> = (0..task.symbols)
            .map(|x| (LETTERS[x] as char).to_string())
            .collect();
        let rows: Vec<String> = (0..task.names.len())
            .map(|s| {
                let moves: Vec<String> = (0..task.symbols)
                    .map(|x| format!("{} -> {}", letters[x], task.names[task.delta[s][x]]))
                    .collect();
                format!("{}: {}", task.names[s], moves.join(", "))
            })
            .collect();
        let accepting: Vec<&str> = (0..task.names.len())
            .filter(|&s| task.accepting[s])
            .map(|s| task.names[s].as_str())
            .collect();
        format!(
            "A deterministic finite automaton over the alphabet {{{}}} has {} states. The start state is {} \
             and the accepting states are {}. Transitions:\n{}\n\nMinimise it: group the states into classes \
             of equivalent states (two states are equivalent when exactly the same strings lead from them to \
             acceptance); the minimal DFA has one state per class. Answer with every state exactly once, each \
             class in braces, like {{X, Y}} {{Z}}, inside \\boxed{{}}.",
            letters.join(", "),
            task.names.len(),
            task.names[0],
            accepting.join(", "),
            rows.join("\n")
        )
    }

    fn structured(task: &DfaMinimiseTask) -> Value {
        let transitions: Vec<Value> = (0..task.names.len())
            .map(|s| {
                let row: serde_json::Map<String, Value> = (0..task.symbols)
                    .map(|x| {
                        (
                            (LETTERS[x] as char).to_string(),
                            json!(task.names[task.delta[s][x]]),
                        )
                    })
                    .collect();
                json!({ "state": task.names[s], "accepting": task.accepting[s], "on": row })
            })
            .collect();
        json!({ "start": task.names[0], "states": transitions })
    }

    fn reference(task: &DfaMinimiseTask) -> String {
        Self::classes(task)
            .iter()
            .map(|c| {
                let names: Vec<&str> = c.iter().map(|&s| task.names[s].as_str()).collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &DfaMinimiseTask, answer: &str) -> Result<bool, CheckError> {
        let classes = parse_classes(answer, &task.names)?;
        let mut seen = vec![false; task.names.len()];
        for &s in classes.iter().flatten() {
            if std::mem::replace(&mut seen[s], true) {
                return Ok(false);
            }
        }
        if seen.contains(&false) {
            return Ok(false);
        }
        let canonical = |classes: Vec<Vec<usize>>| -> BTreeSet<BTreeSet<usize>> {
            classes
                .into_iter()
                .map(|c| c.into_iter().collect())
                .collect()
        };
        Ok(canonical(classes) == canonical(Self::classes(task)))
    }
}

#[cfg(test)]
#[path = "dfa_minimise_tests.rs"]
mod tests;
