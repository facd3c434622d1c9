//! `logic/cfg-derivation-v1`: give a leftmost derivation of a string from
//! a context-free grammar; any valid leftmost derivation passes.
//!
//! # Task
//! A random grammar over `nonterminals` nonterminals (`S` the start
//! symbol, then `A`, `B`, …) and `terminals` terminals (`a`, `b`, `c`),
//! 2..=3 rules per nonterminal, each a terminal or two to three symbols (no
//! empty and no unit rules; every nonterminal reachable and productive),
//! and a string of `min_len..=max_len` terminals drawn by a random leftmost
//! derivation (so it is in the language). `min_len` is at least 4, so no
//! single rule derives the string and the string alone never passes.
//! Derivations with a form that reads as an English word (`aS`, `bE`) are
//! redrawn: the one-answer rule reads such a stated answer as prose.
//!
//! # Action
//! The sentential forms of a leftmost derivation, from `S` to the string,
//! separated by `=>`, `⇒`, `->`, `→`, commas or new lines; spaces inside a
//! form are ignored, and a leading `S` may be left out. In `\boxed{…}` or
//! as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The grammar, one line per nonterminal (`S -> aSb | AB`), and the string.
//! Structured: the same.
//!
//! # Reward
//! 1 and `passed` when every form comes from the one before by replacing its
//! leftmost nonterminal with one alternative of that nonterminal's rule and
//! the last form is the string (any leftmost derivation passes, as for an
//! ambiguous grammar; the check never compares with the reference); else
//! 0. A symbol the grammar lacks is unreadable. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nonterminals` (2..=8), `terminals` (2..=3), `min_len` (4..=30),
//! `max_len` (`min_len..=30`).
//!
//! # Seeding
//! The grammar and the derivation come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::cfg::{Grammar, Sym, draw_grammar, form_text, random_derivation};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CfgDerivationConfig {
    pub nonterminals: usize,
    pub terminals: usize,
    pub min_len: usize,
    pub max_len: usize,
}

impl Default for CfgDerivationConfig {
    fn default() -> Self {
        CfgDerivationConfig {
            nonterminals: 3,
            terminals: 2,
            min_len: 6,
            max_len: 9,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CfgDerivationTask {
    pub grammar: Grammar,
    /// The string to derive.
    pub word: String,
    /// One leftmost derivation, as forms (the reference).
    pub derivation: Vec<String>,
}

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 4000;

/// The forms that are English words the one-answer rule reads as prose
/// (every such word spelled with the grammar letters).
const PROSE_FORMS: &[&str] = &["as", "be"];

/// Separators between forms, each read as a break.
const ARROWS: &[&str] = &["=>", "⇒", "->", "→", "⟹", ",", ";"];

/// The forms of an answer, as symbol lists.
fn parse_forms(grammar: &Grammar, answer: &str) -> Result<Vec<Vec<Sym>>, CheckError> {
    let mut text = answer.to_string();
    for arrow in ARROWS {
        text = text.replace(arrow, "\n");
    }
    let mut forms = Vec::new();
    for line in text.lines() {
        let form: Vec<Sym> = line
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                grammar.symbol(c).ok_or_else(|| {
                    CheckError::unreadable(format!("`{c}` is no symbol of the grammar"))
                })
            })
            .collect::<Result<_, _>>()?;
        if !form.is_empty() {
            forms.push(form);
        }
    }
    if forms.is_empty() {
        return Err("no sentential forms given".into());
    }
    if forms[0] != [Sym::N(0)] {
        forms.insert(0, vec![Sym::N(0)]);
    }
    Ok(forms)
}

/// Whether `next` is `prev` with its leftmost nonterminal rewritten by one
/// of the grammar's rules.
fn leftmost_step(grammar: &Grammar, prev: &[Sym], next: &[Sym]) -> bool {
    let Some(i) = prev.iter().position(|s| matches!(s, Sym::N(_))) else {
        return false;
    };
    let Sym::N(n) = prev[i] else { return false };
    let (head, tail) = (&prev[..i], &prev[i + 1..]);
    if next.len() < head.len() + tail.len() || !next.starts_with(head) || !next.ends_with(tail) {
        return false;
    }
    let middle = &next[i..next.len() - tail.len()];
    grammar
        .rules
        .iter()
        .any(|(lhs, rhs)| *lhs == n && rhs.as_slice() == middle)
}

pub struct CfgDerivation;

pub type CfgDerivationEnv = SingleTurn<CfgDerivation>;

impl CfgDerivation {
    fn draw(config: &CfgDerivationConfig, rng: &mut Rng) -> Option<CfgDerivationTask> {
        let grammar = draw_grammar(config.nonterminals, config.terminals, rng)?;
        for _ in 0..20 {
            let forms = random_derivation(&grammar, config.max_len, rng)?;
            let word = forms.last()?;
            // A form that reads as an English word (`aS` as "as", `bE` as
            // "be") makes a stated derivation look like prose to the
            // one-answer rule, which then misses a disagreeing statement.
            let reads_as_prose = forms
                .iter()
                .any(|f| PROSE_FORMS.contains(&form_text(f).to_ascii_lowercase().as_str()));
            if word.len() >= config.min_len && !reads_as_prose {
                return Some(CfgDerivationTask {
                    word: form_text(word),
                    derivation: forms.iter().map(|f| form_text(f)).collect(),
                    grammar,
                });
            }
        }
        None
    }
}

impl Question for CfgDerivation {
    type Config = CfgDerivationConfig;
    type Task = CfgDerivationTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/cfg-derivation-v1",
        kind: EnvKind::SingleTurn,
        description: "Give a leftmost derivation of a string from a context-free grammar; any valid leftmost derivation passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nonterminals":2,"min_len":4,"max_len":5}"#,
        r#"{"nonterminals":2,"min_len":5,"max_len":6}"#,
        r#"{"nonterminals":3,"min_len":5,"max_len":7}"#,
        "{}",
        r#"{"nonterminals":4,"terminals":3,"min_len":8,"max_len":12}"#,
        r#"{"nonterminals":5,"terminals":3,"min_len":10,"max_len":15}"#,
        r#"{"nonterminals":6,"terminals":3,"min_len":13,"max_len":18}"#,
    ];

    fn effort(task: &CfgDerivationTask) -> Option<f64> {
        Some((task.derivation.len() * task.grammar.rules.len()) as f64)
    }

    fn validate(config: &CfgDerivationConfig) -> Result<(), ConfigError> {
        if !(2..=8).contains(&config.nonterminals) {
            return Err("nonterminals must be in 2..=8".into());
        }
        if !(2..=3).contains(&config.terminals) {
            return Err("terminals must be in 2..=3".into());
        }
        if !(4..=30).contains(&config.min_len) || !(config.min_len..=30).contains(&config.max_len) {
            return Err("need 4 <= min_len <= max_len <= 30".into());
        }
        Ok(())
    }

    fn generate(config: &CfgDerivationConfig, rng: &mut Rng) -> CfgDerivationTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(
        config: &CfgDerivationConfig,
        rng: &mut Rng,
    ) -> Result<CfgDerivationTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no grammar in {MAX_DRAWS} draws derived a string of {}..={} symbols; widen the lengths or add nonterminals",
                    config.min_len, config.max_len
                )
            },
        )
    }

    fn prompt(task: &CfgDerivationTask) -> String {
        format!(
            "Here is a context-free grammar with start symbol S (uppercase letters are nonterminals, \
             lowercase letters are terminals, | separates alternatives):\n{}\n\nGive a leftmost derivation \
             of the string {} from S: the sentential forms from S to the string, each obtained from the one \
             before by replacing its leftmost nonterminal with one alternative of that nonterminal's rule. \
             Answer with the forms separated by =>, like S => aSb => aabb, inside \\boxed{{}}.",
            task.grammar.lines().join("\n"),
            task.word
        )
    }

    fn structured(task: &CfgDerivationTask) -> Value {
        json!({ "start": "S", "rules": task.grammar.lines(), "string": task.word })
    }

    fn reference(task: &CfgDerivationTask) -> String {
        task.derivation.join(" => ")
    }

    fn check(task: &CfgDerivationTask, answer: &str) -> Result<bool, CheckError> {
        let forms = parse_forms(&task.grammar, answer)?;
        let steps_hold = forms
            .windows(2)
            .all(|pair| leftmost_step(&task.grammar, &pair[0], &pair[1]));
        let last = forms.last().map(|f| form_text(f));
        Ok(steps_hold && last.as_deref() == Some(task.word.as_str()))
    }
}

#[cfg(test)]
#[path = "cfg_derivation_tests.rs"]
mod tests;
