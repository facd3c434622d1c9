//! `code/regex-extract-v1`: write a regular expression that extracts one
//! field from generated text records; it is run on hidden records.
//!
//! # Task
//! Records of one generated format: `fields` fields, each a key from a
//! per-task draw of key words, a key–value separator and a value of one of
//! four kinds (an integer, a date `YYYY-MM-DD`, a lowercase word, a code of
//! two capitals and three digits), joined by a record separator. At least
//! one other field has the target's kind, so a pattern for the kind alone
//! picks the wrong value; from level 2 the fields come in a random order
//! per record and other fields may be missing, from level 3 the spaces
//! around the key–value separator vary per record. The prompt shows
//! `examples` records with the value to extract; `hidden` more records of
//! the same generator are never shown. Draws that a trivial pattern passes
//! (`.*`, `(.*)`, a pattern of the value's kind) are redrawn.
//!
//! # Action
//! One regular expression, read by the shared answer-position rule
//! (`crate::single_turn`: reasoning dropped, the last `\boxed{}`, else the
//! last final-answer statement's first line, else the whole reply; every
//! other box and statement must hold the same expression), surrounding
//! backticks removed, at most 500 characters.
//!
//! # Observation
//! The format described in words, the examples and the field to extract.
//! Structured: the examples (record, value) and the key.
//!
//! # Reward
//! 1 and `passed` when, on every example and hidden record, the first
//! match of the expression (run by the `regex` crate: finite automata, no
//! backtracking, compiled under a 1 MiB size limit) exists and its first
//! capture group (the whole match when it has none) is exactly the value.
//! An expression that does not compile, is empty or too long scores 0 with
//! `format` 0; it is never compared as text, so any working pattern passes.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `level` (1–3: the format's variation, as above), `fields` (3–8),
//! `examples` (2–8), `hidden` (5–100).
//!
//! # Seeding
//! The format and all records come from the task's rng; redrawn (at most
//! 500 draws, else an error saying what to relax) as above.
//!
//! # Version history
//! v1: first version.

use regex::RegexBuilder;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::output_prediction::read_reply;
use crate::budget::draw_until;
use crate::core::Score;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

const MAX_DRAWS: u64 = 500;
const MAX_ANSWER: usize = 500;
const SIZE_LIMIT: usize = 1 << 20;
const KEYS: &[&str] = &[
    "id", "user", "date", "due", "ref", "code", "city", "amount", "qty", "price", "owner", "tag",
    "status", "zone", "batch", "lot", "sent", "seen", "item", "note",
];
const KV: &[&str] = &["=", ":", "->", "=>", "~"];
const SEPS: &[&str] = &["; ", ", ", " | ", " / ", " ;; "];
const KINDS: [&str; 4] = ["integer", "date", "word", "code"];
const KIND_PATTERNS: [&str; 4] = [r"\d+", r"\d{4}-\d{2}-\d{2}", r"[a-z]+", r"[A-Z]{2}\d{3}"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RegexExtractConfig {
    pub level: u8,
    pub fields: usize,
    pub examples: usize,
    pub hidden: usize,
}

impl Default for RegexExtractConfig {
    fn default() -> Self {
        RegexExtractConfig {
            level: 2,
            fields: 5,
            examples: 4,
            hidden: 30,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub text: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegexTask {
    pub level: u8,
    pub keys: Vec<String>,
    /// Kind index of each key.
    pub kinds: Vec<usize>,
    pub target: usize,
    pub kv: String,
    pub sep: String,
    pub examples: Vec<Record>,
    pub hidden: Vec<Record>,
}

fn value(kind: usize, rng: &mut Rng) -> String {
    match kind {
        0 => rng.range_i64(0, 99_999).to_string(),
        1 => format!(
            "{}-{:02}-{:02}",
            rng.range_i64(1990, 2039),
            rng.range_i64(1, 12),
            rng.range_i64(1, 28)
        ),
        2 => {
            let n = rng.range_usize(3, 8);
            (0..n)
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect()
        }
        _ => format!(
            "{}{}{:03}",
            char::from(b'A' + rng.below(26) as u8),
            char::from(b'A' + rng.below(26) as u8),
            rng.range_i64(0, 999)
        ),
    }
}

impl RegexTask {
    fn record(&self, rng: &mut Rng) -> Record {
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        if self.level >= 2 {
            rng.shuffle(&mut order);
            order.retain(|&i| i == self.target || !rng.chance(0.2));
        }
        let mut target = String::new();
        let parts: Vec<String> = order
            .iter()
            .map(|&i| {
                let v = value(self.kinds[i], rng);
                if i == self.target {
                    target.clone_from(&v);
                }
                let (l, r) = if self.level >= 3 {
                    (
                        " ".repeat(rng.range_usize(0, 2)),
                        " ".repeat(rng.range_usize(0, 2)),
                    )
                } else {
                    (String::new(), String::new())
                };
                format!("{}{l}{}{r}{v}", self.keys[i], self.kv)
            })
            .collect();
        Record {
            text: parts.join(&self.sep),
            value: target,
        }
    }
}

/// Whether `pattern` extracts every record's value.
fn extracts(pattern: &str, records: &[Record]) -> Result<bool, CheckError> {
    let re = RegexBuilder::new(pattern)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| CheckError::unreadable(format!("not a regular expression: {e}")))?;
    Ok(records.iter().all(|r| {
        re.captures(&r.text).is_some_and(|c| {
            c.get(1)
                .or_else(|| c.get(0))
                .is_some_and(|m| m.as_str() == r.value)
        })
    }))
}

/// The expression an answer holds: surrounding spaces and backticks
/// removed, not empty, at most [`MAX_ANSWER`] characters.
fn pattern(answer: &str) -> Result<&str, CheckError> {
    let pattern = answer.trim().trim_matches('`').trim();
    if pattern.is_empty() {
        return Err("no expression".into());
    }
    if pattern.len() > MAX_ANSWER {
        return Err(format!("expression longer than {MAX_ANSWER} characters").into());
    }
    Ok(pattern)
}

pub struct RegexExtract;

pub type RegexExtractEnv = SingleTurn<RegexExtract>;

impl RegexExtract {
    fn draw(config: &RegexExtractConfig, rng: &mut Rng) -> Option<RegexTask> {
        let mut keys: Vec<&str> = KEYS.to_vec();
        rng.shuffle(&mut keys);
        keys.truncate(config.fields);
        let kinds: Vec<usize> = (0..config.fields).map(|_| rng.below(4) as usize).collect();
        let target = rng.below(config.fields as u64) as usize;
        let decoys = (0..config.fields)
            .filter(|&i| i != target && kinds[i] == kinds[target])
            .count();
        if decoys == 0 {
            return None;
        }
        let mut task = RegexTask {
            level: config.level,
            keys: keys.iter().map(|k| (*k).to_string()).collect(),
            kinds,
            target,
            kv: rng.choose(KV)?.to_string(),
            sep: rng.choose(SEPS)?.to_string(),
            examples: Vec::new(),
            hidden: Vec::new(),
        };
        task.examples = (0..config.examples).map(|_| task.record(rng)).collect();
        task.hidden = (0..config.hidden).map(|_| task.record(rng)).collect();
        let kind = KIND_PATTERNS[task.kinds[target]];
        for trivial in [
            ".*",
            "(.*)",
            kind,
            &format!("({kind})"),
            &format!("{kind}$"),
        ] {
            if extracts(trivial, &task.hidden).unwrap_or(false) {
                return None;
            }
        }
        extracts(&Self::reference(&task), &task.hidden)
            .unwrap_or(false)
            .then_some(task)
    }
}

impl Question for RegexExtract {
    type Config = RegexExtractConfig;
    type Task = RegexTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "code/regex-extract-v1",
        kind: EnvKind::SingleTurn,
        description: "Write a regular expression extracting one field from generated records; run by the regex crate on hidden records",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const STRUCTURED_KEY: Option<&'static str> = None;
    const LEVELS: &'static [&'static str] = &[
        r#"{"level":1,"fields":3,"hidden":10}"#,
        r#"{"level":1,"fields":4,"hidden":20}"#,
        r#"{"level":2,"fields":4,"hidden":20}"#,
        "{}",
        r#"{"level":3,"fields":6,"hidden":40}"#,
        r#"{"level":3,"fields":7,"examples":3,"hidden":60}"#,
        r#"{"level":3,"fields":8,"examples":2,"hidden":80}"#,
    ];

    /// Characters of the hidden records times the level (its variation).
    fn effort(task: &RegexTask) -> Option<f64> {
        let chars = task.hidden.iter().map(|r| r.text.len()).sum::<usize>();
        Some((chars * usize::from(task.level)) as f64)
    }

    fn validate(config: &RegexExtractConfig) -> Result<(), ConfigError> {
        if !(1..=3).contains(&config.level) {
            return Err("level must be 1..=3".into());
        }
        if !(3..=8).contains(&config.fields) {
            return Err("fields must be 3..=8".into());
        }
        if !(2..=8).contains(&config.examples) {
            return Err("examples must be 2..=8".into());
        }
        if !(5..=100).contains(&config.hidden) {
            return Err("hidden must be 5..=100".into());
        }
        Ok(())
    }

    fn generate(config: &RegexExtractConfig, rng: &mut Rng) -> RegexTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &RegexExtractConfig, rng: &mut Rng) -> Result<RegexTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || format!("no format in {MAX_DRAWS} draws resisted trivial patterns; raise fields"),
        )
    }

    fn prompt(task: &RegexTask) -> String {
        let key = &task.keys[task.target];
        let shown: String = task
            .examples
            .iter()
            .map(|r| format!("    {}\n      -> {}\n", r.text, r.value))
            .collect();
        let variation = match task.level {
            1 => "The fields always come in this order.",
            2 => "The fields come in any order and some may be missing (never the one asked for).",
            _ => {
                "The fields come in any order and some may be missing (never the one asked for); \
                 spaces around the key-value separator vary."
            }
        };
        format!(
            "Each record below is a list of `key{}value` fields joined by {:?}. {variation}\n\n\
             Examples (record, then the value to extract):\n{shown}\nWrite a regular expression \
             that extracts the {} value of the field `{key}` from any such record: its first \
             capture group (or the whole match, if it has no group) must be exactly that value. \
             It is run (Rust `regex` syntax, no lookaround or backreferences) on hidden records \
             of the same format. Put the expression alone in \\boxed{{}}.",
            task.kv, task.sep, KINDS[task.kinds[task.target]],
        )
    }

    fn structured(task: &RegexTask) -> Value {
        json!({
            "key": task.keys[task.target],
            "examples": task.examples,
        })
    }

    fn reference(task: &RegexTask) -> String {
        let space = if task.level >= 3 { r"\s*" } else { "" };
        format!(
            "{}{space}{}{space}({})",
            regex::escape(&task.keys[task.target]),
            regex::escape(&task.kv),
            KIND_PATTERNS[task.kinds[task.target]]
        )
    }

    /// The answer-position rule with every box and final-answer statement
    /// read as an expression (a statement's first line): all must agree.
    fn grade(task: &RegexTask, reply: &str) -> Graded {
        let read = |t: &str| pattern(t).map(str::to_string);
        let prefix = |t: &str| {
            let line = t.split('\n').next().unwrap_or("");
            // Markdown closing the statement (`**Final answer: x**`) is not part of it.
            let p = pattern(line.trim_end().trim_end_matches(['*', '`'])).ok()?;
            RegexBuilder::new(p)
                .size_limit(SIZE_LIMIT)
                .build()
                .ok()
                .map(|_| (p.to_string(), line.len()))
        };
        let same = |a: &String, b: &String| a == b;
        match read_reply(reply, &read, &prefix, &same).and_then(|p| Self::check(task, &p)) {
            Ok(right) => Score::binary(right).part("format", 1.0).into(),
            Err(e) => Graded {
                score: Score::binary(false).part("format", 0.0),
                events: vec![e.to_string()],
            },
        }
    }

    fn check(task: &RegexTask, answer: &str) -> Result<bool, CheckError> {
        let pattern = pattern(answer)?;
        Ok(extracts(pattern, &task.examples)? && extracts(pattern, &task.hidden)?)
    }

    fn random_answer(rng: &mut Rng) -> String {
        KIND_PATTERNS[rng.below(4) as usize].to_string()
    }
}

#[cfg(test)]
#[path = "regex_extract_tests.rs"]
mod tests;
