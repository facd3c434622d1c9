//! `logic/regex-synthesis-v1`: write a short regular expression that
//! matches every positive example and no negative one; any such expression
//! passes (checked with our own Thompson NFA simulation).
//!
//! # Task
//! A hidden random expression with `size` letters or classes over the first
//! `alphabet` letters of `xyz` (concatenation, `|`, `*`, `+`, `?`, classes
//! like `[xy]`), `positives` strings it matches and `negatives` it does not
//! (half of them one edit away from a positive), all of 1..=`max_len`
//! letters. The length bound `L` is the hidden expression's length plus 2;
//! draws where listing the positives (`p1|p2|…`) fits in `L` are redrawn,
//! so enumerating them never passes, and so are draws that a generic
//! pattern solves (a one- or two-letter prefix, suffix or infix such as
//! `[xy]*yx`, or letter blocks such as `x*y*`): those languages recur across
//! tasks, and a puzzle that simple is no synthesis.
//!
//! # Action
//! One expression of at most `L` characters (spaces aside) in the stated
//! syntax: the letters, `|`, `*`, `+`, `?`, parentheses and classes of
//! letters in brackets; an optional `^…$` or `/…/` around it is dropped.
//! It must match each positive string as a whole and no negative one. In
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The alphabet, the syntax, `L` and the examples. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any expression within `L` characters that fully
//! matches every positive and no negative (our own NFA simulation, linear in
//! the string, never the host's regex engine); else 0. A character outside
//! the syntax or a malformed expression is unreadable. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `alphabet` (2..=3), `size` (2..=12), `positives` (3..=12), `negatives`
//! (3..=12), `max_len` (3..=8; at most 6 with three letters).
//!
//! # Seeding
//! The hidden expression and the examples come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::solvers::regex::{Ast, LETTERS, Nfa, parse};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RegexSynthesisConfig {
    pub alphabet: usize,
    pub size: usize,
    pub positives: usize,
    pub negatives: usize,
    pub max_len: usize,
}

impl Default for RegexSynthesisConfig {
    fn default() -> Self {
        RegexSynthesisConfig {
            alphabet: 2,
            size: 6,
            positives: 8,
            negatives: 8,
            max_len: 7,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegexSynthesisTask {
    pub alphabet: usize,
    pub positives: Vec<String>,
    pub negatives: Vec<String>,
    /// The length bound.
    pub limit: usize,
    /// The hidden expression (the reference).
    pub hidden: String,
}

fn letters(word: &str) -> Vec<u8> {
    word.bytes().map(|b| b - b'x').collect()
}

fn word_of(letters: &[u8]) -> String {
    letters
        .iter()
        .map(|&l| LETTERS[l as usize] as char)
        .collect()
}

/// A random expression with `leaves` letters or classes.
fn draw_ast(leaves: usize, alphabet: usize, rng: &mut Rng) -> Ast {
    let node = if leaves == 1 {
        if alphabet > 1 && rng.chance(0.15) {
            let mut mask = 0u8;
            while mask.count_ones() < 2 {
                mask |= 1 << rng.below(alphabet as u64);
            }
            Ast::Set(mask)
        } else {
            Ast::Set(1 << rng.below(alphabet as u64))
        }
    } else {
        let left = rng.range_usize(1, leaves - 1);
        let (a, b) = (
            Box::new(draw_ast(left, alphabet, rng)),
            Box::new(draw_ast(leaves - left, alphabet, rng)),
        );
        if a == b || rng.chance(0.7) {
            Ast::Concat(a, b)
        } else {
            Ast::Alt(a, b)
        }
    };
    // A repeat or option of a part that already matches the empty string
    // only hides a simpler expression: none is drawn.
    if !node.nullable() && rng.chance(0.35) {
        return match rng.below(3) {
            0 => Ast::Star(Box::new(node)),
            1 => Ast::Plus(Box::new(node)),
            _ => Ast::Opt(Box::new(node)),
        };
    }
    node
}

/// Characters of the stated syntax, letters of `alphabet` aside.
const SYNTAX: &str = "|*+?()[]";

pub struct RegexSynthesis;

pub type RegexSynthesisEnv = SingleTurn<RegexSynthesis>;

impl RegexSynthesis {
    fn draw(
        config: &RegexSynthesisConfig,
        generic: &[Nfa],
        rng: &mut Rng,
    ) -> Option<RegexSynthesisTask> {
        let ast = draw_ast(config.size, config.alphabet, rng);
        let nfa = Nfa::new(&ast);
        let k = config.alphabet as u64;
        // Every word of 1..=max_len letters, split by the hidden expression.
        let mut inside = Vec::new();
        let mut outside = Vec::new();
        // Words grow one letter at a time, each carrying its state set.
        let mut layer: Vec<(Vec<u8>, Vec<bool>)> = vec![(Vec::new(), nfa.start_set())];
        for _ in 0..config.max_len {
            layer = layer
                .iter()
                .flat_map(|(word, set)| {
                    (0..k as u8).map(|l| ([word.as_slice(), &[l]].concat(), nfa.step(set, l)))
                })
                .collect();
            for (word, set) in &layer {
                if set[nfa.accept] {
                    inside.push(word.clone());
                } else {
                    outside.push(word.clone());
                }
            }
        }
        if inside.len() < config.positives * 2 || outside.len() < config.negatives * 2 {
            return None;
        }
        let pick = |pool: &mut Vec<Vec<u8>>, count: usize, rng: &mut Rng| -> Vec<Vec<u8>> {
            (0..count)
                .map(|_| pool.swap_remove(rng.below(pool.len() as u64) as usize))
                .collect()
        };
        let positives = pick(&mut inside, config.positives, rng);
        // Near misses: one edit from a positive, outside the language.
        let mut near: Vec<Vec<u8>> = outside
            .iter()
            .filter(|w| positives.iter().any(|p| one_edit(p, w)))
            .cloned()
            .collect();
        let near_count = (config.negatives * 3 / 4).min(near.len());
        let mut negatives = pick(&mut near, near_count, rng);
        outside.retain(|w| !negatives.contains(w));
        negatives.extend(pick(&mut outside, config.negatives - near_count, rng));
        let hidden = ast.render();
        let limit = hidden.chars().count() + 2;
        let listing: usize = positives.iter().map(|p| p.len() + 1).sum::<usize>() - 1;
        let solves = |nfa: &Nfa| {
            positives.iter().all(|p| nfa.matches(p)) && !negatives.iter().any(|n| nfa.matches(n))
        };
        if listing <= limit || generic.iter().any(solves) {
            return None;
        }
        let mut positives: Vec<String> = positives.iter().map(|w| word_of(w)).collect();
        let mut negatives: Vec<String> = negatives.iter().map(|w| word_of(w)).collect();
        let order = |a: &String, b: &String| a.len().cmp(&b.len()).then(a.cmp(b));
        positives.sort_by(order);
        negatives.sort_by(order);
        Some(RegexSynthesisTask {
            alphabet: config.alphabet,
            positives,
            negatives,
            limit,
            hidden,
        })
    }
}

/// The expressions a task must not be solved by: a word of one or two
/// letters as prefix, suffix or infix, and letter blocks (`x*y*`).
fn generic_patterns(alphabet: usize) -> Vec<Nfa> {
    let any = if alphabet == 2 { "[xy]" } else { "[xyz]" };
    let letters: Vec<String> = (0..alphabet)
        .map(|i| (LETTERS[i] as char).to_string())
        .collect();
    let mut words = letters.clone();
    for a in &letters {
        for b in &letters {
            words.push(format!("{a}{b}"));
        }
    }
    let mut patterns: Vec<String> = Vec::new();
    for w in &words {
        for p in ["W*", "W+", "*W", "+W", "*W*", "+W+", "+W*", "*W+"] {
            let (head, tail) = p.split_once('W').expect("a pattern holds W");
            let part = |s: &str| {
                if s.is_empty() {
                    String::new()
                } else {
                    format!("{any}{s}")
                }
            };
            patterns.push(format!("{}{w}{}", part(head), part(tail)));
        }
        patterns.push(format!("({w})+"));
    }
    for a in &letters {
        for b in &letters {
            if a != b {
                patterns.extend([
                    format!("{a}*{b}*"),
                    format!("{a}+{b}+"),
                    format!("{a}+|{b}+"),
                    format!("{a}*|{b}*"),
                ]);
            }
        }
    }
    patterns
        .iter()
        .map(|p| Nfa::new(&parse(p, alphabet).expect("a generic pattern parses")))
        .collect()
}

/// Whether `b` is one substitution, insertion or deletion away from `a`.
fn one_edit(a: &[u8], b: &[u8]) -> bool {
    match a.len() as i64 - b.len() as i64 {
        0 => a.iter().zip(b).filter(|(x, y)| x != y).count() == 1,
        1 => (0..a.len()).any(|i| a[..i] == b[..i] && a[i + 1..] == b[i..]),
        -1 => one_edit(b, a),
        _ => false,
    }
}

impl Question for RegexSynthesis {
    type Config = RegexSynthesisConfig;
    type Task = RegexSynthesisTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/regex-synthesis-v1",
        kind: EnvKind::SingleTurn,
        description: "Write a short regular expression matching every positive example and no negative one; any such expression passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"size":5,"positives":7,"negatives":8,"max_len":6}"#,
        r#"{"size":5,"positives":8,"negatives":8,"max_len":6}"#,
        r#"{"size":5,"positives":8,"negatives":10,"max_len":7}"#,
        "{}",
        r#"{"alphabet":3,"size":7,"positives":8,"negatives":10,"max_len":6}"#,
        r#"{"alphabet":3,"size":9,"positives":10,"negatives":10,"max_len":6}"#,
        r#"{"alphabet":3,"size":11,"positives":12,"negatives":12,"max_len":6}"#,
    ];

    fn effort(task: &RegexSynthesisTask) -> Option<f64> {
        Some((task.limit * (task.positives.len() + task.negatives.len())) as f64)
    }

    fn validate(config: &RegexSynthesisConfig) -> Result<(), ConfigError> {
        if !(2..=3).contains(&config.alphabet) {
            return Err("alphabet must be in 2..=3".into());
        }
        if !(2..=12).contains(&config.size) {
            return Err("size must be in 2..=12".into());
        }
        if !(3..=12).contains(&config.positives) || !(3..=12).contains(&config.negatives) {
            return Err("positives and negatives must be in 3..=12".into());
        }
        let most = if config.alphabet == 3 { 6 } else { 8 };
        if !(3..=most).contains(&config.max_len) {
            return Err(format!("max_len must be in 3..={most} for this alphabet").into());
        }
        Ok(())
    }

    fn generate(config: &RegexSynthesisConfig, rng: &mut Rng) -> RegexSynthesisTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(
        config: &RegexSynthesisConfig,
        rng: &mut Rng,
    ) -> Result<RegexSynthesisTask, NoTask> {
        let generic = generic_patterns(config.alphabet);
        draw_until(
            2000,
            || Self::draw(config, &generic, rng),
            || {
                "no hidden expression in 2000 draws had enough examples on both sides; raise max_len or lower positives/negatives".into()
            },
        )
    }

    fn prompt(task: &RegexSynthesisTask) -> String {
        let letters: Vec<String> = (0..task.alphabet)
            .map(|i| (LETTERS[i] as char).to_string())
            .collect();
        format!(
            "Write a regular expression over the letters {} that matches every string in the first list as a \
             whole and none of the strings in the second list. Syntax: letters, concatenation, | (or), * (zero \
             or more), + (one or more), ? (optional), parentheses, and classes like [{}] (any one of the \
             letters). No other symbols. The expression may have at most {} characters.\n\nMatch:\n{}\n\nDo not \
             match:\n{}\n\nAnswer with the expression inside \\boxed{{}}.",
            letters.join(", "),
            letters.join(""),
            task.limit,
            task.positives.join("\n"),
            task.negatives.join("\n")
        )
    }

    fn structured(task: &RegexSynthesisTask) -> Value {
        json!({
            "alphabet": &"xyz"[..task.alphabet],
            "max_chars": task.limit,
            "positives": task.positives,
            "negatives": task.negatives,
        })
    }

    fn reference(task: &RegexSynthesisTask) -> String {
        task.hidden.clone()
    }

    fn check(task: &RegexSynthesisTask, answer: &str) -> Result<bool, CheckError> {
        let mut text: String = answer.chars().filter(|c| !c.is_whitespace()).collect();
        if text.len() > 1 && text.ends_with('.') {
            text.pop();
        }
        for (open, close) in [("^", "$"), ("/", "/")] {
            if text.len() > 2 && text.starts_with(open) && text.ends_with(close) {
                text = text[1..text.len() - 1].to_string();
            }
        }
        let alphabet = &"xyz"[..task.alphabet];
        if let Some(c) = text
            .chars()
            .find(|&c| !alphabet.contains(c) && !SYNTAX.contains(c))
        {
            return Err(format!(
                "`{c}` is not in the stated syntax (letters {alphabet} and {SYNTAX})"
            )
            .into());
        }
        if text.chars().count() > task.limit {
            return Ok(false);
        }
        let nfa = Nfa::new(&parse(&text, task.alphabet)?);
        Ok(task.positives.iter().all(|p| nfa.matches(&letters(p)))
            && !task.negatives.iter().any(|n| nfa.matches(&letters(n))))
    }
}

#[cfg(test)]
#[path = "regex_synthesis_tests.rs"]
mod tests;
