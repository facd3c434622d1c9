//! `code/output-prediction-v1`: read a Python function and one call of it;
//! answer with the value the call returns (CRUXEval-style output prediction),
//! judged by value, never by spelling.
//!
//! # Task
//! A function drawn from the generated [`families`](super::families) of
//! `code/functions-v2` (its constants random per task) and one input drawn by
//! the family's own argument generator at the family's `level`, with the
//! input's Python text between `min_input` and `max_input` characters. The
//! expected output is computed on the host by the family's Rust mirror of the
//! program (the tests check the mirror against CPython in the sandbox). Draws
//! whose output a blind answer could give are redrawn: `None`, a bool, an int
//! from -9 to 9, an empty or one-character value, a value whose ints hold
//! fewer than two digits in all (-1, 0 and 1 counting none, so `(0, 0)` and
//! `[1, -1]` are redrawn), a value equal to an argument or one of its
//! elements, and a value that any text copied from the prompt (a number, a
//! quoted part) spells.
//!
//! # Action
//! One value as a Python literal, read by the shared answer-position rule
//! (`crate::single_turn`: reasoning dropped, the last `\boxed{}`, else the
//! last final-answer statement, else the whole reply), where every other box
//! and every statement that opens with a value must hold the same value (two
//! different values are a hedge, `format` 0). Literals:
//! `None`, `True`/`False`, ints, floats, strings in either quotes, lists,
//! tuples and dicts, nested; a number may be dressed as models write numbers
//! (`1,234`, `42 \text{ units}`: `verigym_verifiers::numeric`), and is an
//! int unless written with a decimal point. Names, calls, operators (but a
//! sign on a number),
//! sets and comprehensions are not values and are never evaluated: such an
//! answer is unreadable.
//!
//! # Observation
//! The program in a fenced block and the call. Structured: the family, the
//! program and the call.
//!
//! # Reward
//! 1 and `passed` when the answer's value equals the returned value
//! type-exactly (as the sandbox compares: `1` is not `1.0` or `True`, a tuple
//! is not a list, dicts ignore key order, floats within 1e-9), so every
//! spelling of the value passes (`[1,2]`, `[1, 2]`, `"a"` for `'a'`, `1.50`
//! for `1.5`). An answer that is not a plain literal scores 0 with `format`
//! 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `families` (names; empty = all), `level` (1–3: the families' input sizes
//! and ranges), `min_input` and `max_input` (characters of the call's
//! arguments, 1..=3000, `min_input <= max_input`).
//!
//! # Seeding
//! The family is uniform over `families`, redrawn with the function and the
//! input until the input's length fits and the output is not blind-guessable
//! (at most 2000 draws, else an error saying which bound to relax).
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::compare_outputs;

use super::families::{FAMILIES, Family, family};
use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, Preset, Score};
use crate::error::{ConfigError, NoTask};
use crate::prompt_answers::PromptAnswers;
use crate::rng::Rng;
use crate::selfplay::pyliteral::{parse_literal, parse_literal_prefix, to_python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};
use num_traits::ToPrimitive;
use verigym_verifiers::answer::position::statements;
use verigym_verifiers::answer::{
    AnswerError, MAX_ANSWER_BYTES, boxed_spans, final_answer, plain_answer, strip_reasoning,
};
use verigym_verifiers::numeric::parse_exact_number;

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;
/// Longest answer read (a value this env asks for is far shorter).
const MAX_ANSWER: usize = 4_000;
/// Bounds of `min_input` and `max_input`.
const INPUT_RANGE: std::ops::RangeInclusive<usize> = 1..=3_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OutputPredictionConfig {
    /// Family names to draw from; empty means all.
    pub families: Vec<String>,
    /// The families' input scale, 1..=3.
    pub level: u8,
    /// Fewest characters of the call's arguments.
    pub min_input: usize,
    /// Most characters of the call's arguments.
    pub max_input: usize,
}

impl Default for OutputPredictionConfig {
    fn default() -> Self {
        OutputPredictionConfig {
            families: Vec::new(),
            level: 2,
            min_input: 1,
            max_input: 120,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutputTask {
    pub family: String,
    pub entry: String,
    /// The Python source shown.
    pub program: String,
    /// The argument list, in the sandbox's tagged JSON encoding.
    pub args: Value,
    /// What the call returns (tagged JSON), from the family's mirror.
    pub expected: Value,
}

impl OutputTask {
    /// The call as Python, e.g. `rotate('ab c')`.
    pub fn call(&self) -> String {
        format!("{}({})", self.entry, arguments(&self.args))
    }
}

/// An argument list as written between a call's parentheses.
pub(crate) fn arguments(args: &Value) -> String {
    args.as_array()
        .map(|a| a.iter().map(to_python).collect::<Vec<_>>().join(", "))
        .unwrap_or_default()
}

/// The families of a config (all when it names none).
pub(crate) fn pool(names: &[String]) -> Vec<&'static Family> {
    FAMILIES
        .iter()
        .filter(|f| names.is_empty() || names.iter().any(|n| n == f.name))
        .collect()
}

/// The difficulty scale both prediction envs share: the function's level,
/// then longer inputs.
pub(crate) const SIZE_LEVELS: &[&str] = &[
    r#"{"level":1,"max_input":24}"#,
    r#"{"level":1,"max_input":60}"#,
    r#"{"level":2,"max_input":80}"#,
    "{}",
    r#"{"level":3,"max_input":200}"#,
    r#"{"level":3,"min_input":60,"max_input":400}"#,
    r#"{"level":3,"min_input":150,"max_input":1000}"#,
];

/// The level and input-size bounds both prediction envs share.
pub(crate) fn validate_sizes(
    level: u8,
    min_input: usize,
    max_input: usize,
) -> Result<(), ConfigError> {
    if !(1..=3).contains(&level) {
        return Err("level must be 1..=3".into());
    }
    if !INPUT_RANGE.contains(&min_input)
        || !INPUT_RANGE.contains(&max_input)
        || min_input > max_input
    {
        return Err("min_input and max_input must be 1..=3000, min_input <= max_input".into());
    }
    Ok(())
}

/// Checks family names against the known ones.
pub(crate) fn validate_families(names: &[String]) -> Result<(), ConfigError> {
    for name in names {
        if family(name).is_none() {
            let known: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
            return Err(format!(
                "families: unknown family {name:?}; known: {}",
                known.join(", ")
            )
            .into());
        }
    }
    Ok(())
}

/// Digits of the ints in a value, in all, where -1, 0 and 1 count none
/// (`None` when it holds anything but ints).
fn int_digits(value: &Value) -> Option<usize> {
    match value {
        Value::Number(n) if n.as_i64().is_some_and(|i| i.abs() <= 1) => Some(0),
        Value::Number(n) if n.is_i64() => Some(n.to_string().trim_start_matches('-').len()),
        Value::Array(items) => items.iter().map(int_digits).sum(),
        Value::Object(map) if map.len() == 1 && map.contains_key("$tuple") => {
            int_digits(&map["$tuple"])
        }
        _ => None,
    }
}

/// Whether a blind answer could give `value`: `None`, a bool, an int in
/// -9..=9, an empty or one-character value, or ints of fewer than two digits
/// in all (-1, 0 and 1 counting none: `(0, 1)`, `[0, 0, 0]`, `(4, -1)`).
pub(crate) fn guessable(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(_) => true,
        Value::String(s) => s.chars().count() < 2,
        Value::Object(map) if map.is_empty() => true,
        Value::Array(items) if items.is_empty() => true,
        Value::Object(map) if map.len() == 1 && map.contains_key("$tuple") => {
            map["$tuple"].as_array().is_none_or(Vec::is_empty)
                || int_digits(value).is_some_and(|d| d < 2)
        }
        _ => int_digits(value).is_some_and(|d| d < 2),
    }
}

/// Whether `value` equals an argument or a part of one (an element, nested).
pub(crate) fn echoes(value: &Value, args: &Value) -> bool {
    fn parts<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
        out.push(v);
        match v {
            Value::Array(items) => items.iter().for_each(|i| parts(i, out)),
            Value::Object(map) => map.values().for_each(|i| parts(i, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    for arg in args.as_array().into_iter().flatten() {
        parts(arg, &mut all);
    }
    all.into_iter().any(|p| compare_outputs(p, value, 0.0))
}

/// Whether some text copied out of `prompt` (a number, a quoted part, a
/// line) reads as `value`, or `value`'s literal appears in it verbatim.
pub(crate) fn copied(value: &Value, prompt: &str) -> bool {
    let literal = to_python(value);
    if !matches!(value, Value::Number(_)) && prompt.contains(&literal) {
        return true;
    }
    PromptAnswers::read(prompt, &[])
        .all()
        .iter()
        .any(|c| read_value(c).is_ok_and(|v| compare_outputs(value, &v, 1e-9)))
}

/// An answer's value: one plain Python literal (surrounding backticks and
/// whitespace dropped).
///
/// # Errors
/// Why it is not a plain literal.
pub(crate) fn read_value(answer: &str) -> Result<Value, CheckError> {
    let text = answer.trim();
    if text.is_empty() {
        return Err("no value: answer with the returned value as a Python literal".into());
    }
    if text.len() > MAX_ANSWER {
        return Err(format!("answer longer than {MAX_ANSWER} characters").into());
    }
    let text = text
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(text)
        .trim();
    parse_literal(text)
        .or_else(|e| {
            // A sentence's closing period after a string or a bracket.
            text.strip_suffix('.')
                .filter(|t| t.ends_with(['\'', '"', ')', ']', '}']))
                .map_or(Err(e), |t| parse_literal(t.trim_end()))
        })
        .or_else(|e| number(text).ok_or(e))
        .map_err(|e| {
            CheckError::unreadable(format!(
                "not a plain Python literal ({e}); write the value itself, e.g. as Python prints it"
            ))
        })
}

/// One number as models dress it (`1,234`, `\$42`, `42\%`, `42 units`: the
/// shared number reader), an int unless written with a decimal point.
fn number(text: &str) -> Option<Value> {
    let exact = parse_exact_number(text)?;
    if !text.contains('.') && exact.is_integer() {
        return i64::try_from(exact.to_integer()).ok().map(Value::from);
    }
    let float = exact.to_f64()?;
    serde_json::Number::from_f64(float).map(Value::Number)
}

/// The value a final-answer statement opens with (`'a! b'` whole, where the
/// statement's sentence ends inside the string), or `None` when it opens
/// with prose. A second value after it (`R or X`, `R, X`) is a hedge.
fn stated<V>(
    visible: &str,
    span: &std::ops::Range<usize>,
    prefix: &dyn Fn(&str) -> Option<(V, usize)>,
) -> Result<Option<V>, CheckError> {
    let tail = &visible[span.start..];
    let skip = tail.len()
        - tail
            .trim_start_matches(|c: char| c.is_whitespace() || "*`$".contains(c))
            .len();
    let text = &tail[skip..];
    let Some((mut value, took)) = prefix(text) else {
        return Ok(None);
    };
    // `is 27.` ends a sentence: the period is no decimal point.
    if text[..took].ends_with('.')
        && let Some((int, _)) = prefix(&text[..took - 1])
    {
        value = int;
    }
    // What follows on the same line, past the sentence's end if it ended
    // inside the value.
    let after = &visible[span.start + skip + took..];
    let rest = after.split('\n').next().unwrap_or("");
    let rest = rest
        .trim_start_matches(|c: char| c.is_whitespace() || "*`$_.!;:".contains(c))
        .trim_start_matches([',', '/', '|']);
    let rest = rest
        .strip_prefix("or ")
        .or_else(|| rest.strip_prefix("and "))
        .unwrap_or(rest)
        .trim_start();
    if !rest.is_empty() && prefix(rest).is_some() {
        return Err("a final-answer statement holds two values: give one".into());
    }
    Ok(Some(value))
}

/// The one value of a reply, read by the shared answer-position rule
/// ([`crate::single_turn`]: reasoning dropped; the last `\boxed{}`, else the
/// last final-answer statement, else the whole reply) with values compared
/// by `same`, not by text: every box must hold a value and every statement
/// that opens with a value must agree with the answer, else the reply holds
/// two answers.
pub(crate) fn read_reply<V>(
    reply: &str,
    read: &dyn Fn(&str) -> Result<V, CheckError>,
    prefix: &dyn Fn(&str) -> Option<(V, usize)>,
    same: &dyn Fn(&V, &V) -> bool,
) -> Result<V, CheckError> {
    let unreadable = |e: AnswerError| CheckError::unreadable(e.to_string());
    let visible = strip_reasoning(reply).map_err(unreadable)?;
    if visible.len() > MAX_ANSWER_BYTES {
        return Err(format!("reply longer than {MAX_ANSWER_BYTES} bytes").into());
    }
    let spans = boxed_spans(&visible).map_err(unreadable)?;
    let wholes: Vec<_> = spans.iter().map(|b| b.whole.clone()).collect();
    let boxes: Vec<V> = spans
        .iter()
        .map(|b| read(&plain_answer(&visible[b.content.clone()])))
        .collect::<Result<_, _>>()?;
    let statements = statements(&visible, &wholes);
    let mut values = Vec::new();
    for statement in &statements {
        values.extend(stated(&visible, &statement.span, prefix)?);
    }
    if boxes.is_empty() && statements.is_empty() {
        // The whole reply (its last line when it ends with a label).
        return read(&final_answer(reply).map_err(unreadable)?);
    }
    let Some(answer) = boxes.last().or(values.last()) else {
        return Err("the final-answer statement holds no value".into());
    };
    if boxes.iter().chain(&values).any(|v| !same(v, answer)) {
        return Err("the reply states two different answers: give one".into());
    }
    let mut all = boxes;
    all.extend(values);
    Ok(all.swap_remove(0))
}

pub struct OutputPrediction;

pub type OutputPredictionEnv = SingleTurn<OutputPrediction>;

impl OutputPrediction {
    fn draw(config: &OutputPredictionConfig, rng: &mut Rng) -> Option<OutputTask> {
        let pool = pool(&config.families);
        let chosen = pool[rng.below(pool.len() as u64) as usize];
        let spec = (chosen.draw)(config.level, rng);
        let args = (spec.args)(rng);
        let len = arguments(&args).chars().count();
        if len < config.min_input || len > config.max_input {
            return None;
        }
        let expected = (spec.solve)(&args);
        if guessable(&expected) || echoes(&expected, &args) {
            return None;
        }
        let task = OutputTask {
            family: chosen.name.into(),
            entry: spec.entry.into(),
            program: spec.reference.clone(),
            args,
            expected,
        };
        (!copied(&task.expected, &Self::prompt(&task))).then_some(task)
    }
}

impl Question for OutputPrediction {
    type Config = OutputPredictionConfig;
    type Task = OutputTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "code/output-prediction-v1",
        kind: EnvKind::SingleTurn,
        description: "Predict what a generated Python function returns on one input; any literal of the same value passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = SIZE_LEVELS;

    /// Characters of the input to trace plus of the output to write.
    fn effort(task: &OutputTask) -> Option<f64> {
        Some((arguments(&task.args).len() + to_python(&task.expected).len()) as f64)
    }

    fn validate(config: &OutputPredictionConfig) -> Result<(), ConfigError> {
        validate_sizes(config.level, config.min_input, config.max_input)?;
        validate_families(&config.families)
    }

    fn generate(config: &OutputPredictionConfig, rng: &mut Rng) -> OutputTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &OutputPredictionConfig, rng: &mut Rng) -> Result<OutputTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no input in {MAX_DRAWS} draws had {}..={} characters and an output a blind \
                     answer could not give; widen min_input..max_input, raise level or add families",
                    config.min_input, config.max_input
                )
            },
        )
    }

    fn prompt(task: &OutputTask) -> String {
        format!(
            "Here is a Python function:\n\n```python\n{}```\n\nWhat does the call {} return?\n\n\
             Answer with the returned value written as a Python literal (the way Python prints \
             it: numbers, strings, lists, tuples, dicts, None, True, False), in \\boxed{{}}. \
             Any spelling of the same value counts, but its type must match: a tuple is not a \
             list. Names, calls and expressions are not read.",
            task.program,
            task.call()
        )
    }

    fn structured(task: &OutputTask) -> Value {
        json!({
            "family": task.family,
            "program": task.program,
            "call": task.call(),
        })
    }

    fn reference(task: &OutputTask) -> String {
        to_python(&task.expected)
    }

    fn check(task: &OutputTask, answer: &str) -> Result<bool, CheckError> {
        let got = read_value(answer)?;
        Ok(compare_outputs(&task.expected, &got, 1e-9))
    }

    /// The answer-position rule with boxes and statements compared as
    /// values ([`read_reply`]).
    fn grade(task: &OutputTask, reply: &str) -> Graded {
        let same = |a: &Value, b: &Value| compare_outputs(a, b, 1e-9);
        let prefix = |t: &str| parse_literal_prefix(t).ok();
        match read_reply(reply, &read_value, &prefix, &same) {
            Ok(got) => Score::binary(same(&task.expected, &got))
                .part("format", 1.0)
                .into(),
            Err(e) => Graded {
                score: Score::binary(false).part("format", 0.0),
                events: vec![e.to_string()],
            },
        }
    }
}

#[cfg(test)]
#[path = "output_prediction_tests.rs"]
mod tests;
