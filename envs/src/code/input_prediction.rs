//! `code/input-prediction-v1`: read a Python function and a target value;
//! answer with arguments on which the function returns that value
//! (CRUXEval-style input prediction), judged by running the function.
//!
//! # Task
//! A function drawn from the generated [`families`](super::families) of
//! `code/functions-v2` (its constants random per task; `sort_by_key` and
//! `search_window` are left out: a sorted target is its own input, and
//! window counts are single digits that trivial windows reach) and the value
//! it returns on one input drawn by the family's argument generator at
//! `level`, that input's text between `min_input` and `max_input`
//! characters (the reference answer; any other input with that value passes
//! too). Draws whose target a trivial input reaches are redrawn: the
//! family's boundary inputs (empty lists and strings, 0, 1, the smallest
//! ranges and graphs), the target itself as the argument, and every
//! argument list that text copied out of the prompt spells.
//!
//! # Action
//! One call on literal arguments, `entry(…)` (or the bare arguments), read
//! by the shared answer-position rule (`crate::single_turn`: reasoning
//! dropped, the last `\boxed{}`, else the last final-answer statement, else
//! the whole reply; every other box and statement must give the same
//! arguments). Arguments are plain Python literals as in
//! `code/output-prediction-v1` (never evaluated on the host), as many as
//! the function takes, at most 2000 characters in all.
//!
//! # Observation
//! The program in a fenced block, its signature and the target value.
//! Structured: the family, the program, the signature and the target.
//!
//! # Reward
//! 1 and `passed` when the function returns the target on the answer's
//! arguments, compared type-exactly as the sandbox compares. Arguments in
//! the family's input domain (the argument types it draws: ints within its
//! range, prime ranges of at most 5000 numbers, graphs of at most 100 nodes
//! and 300 edges, ASCII strings, well-formed records, lists of at most 200
//! ints of at most six digits) are run by the family's Rust mirror, which
//! the tests check against CPython on that domain; any other arguments run
//! the program in the WASM sandbox with 50 million units of fuel (an
//! exception, running out of fuel or memory: 0; results remembered per program and arguments), except
//! an argument of a kind the program cannot take (a number where it
//! iterates a string or list, a string or container where it does
//! arithmetic), which fails at once (the tests check that CPython raises). An
//! answer that is not a call on literal arguments, or with the wrong number
//! of arguments, scores 0 with `format` 0. Breakdown: `correct`, `format`,
//! and `sandbox_error` when the sandbox could not run.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `families` (names; empty = all ten), `level` (1–3: the families' input
//! sizes and ranges), `min_input` and `max_input` (characters of the drawn
//! input's arguments, 1..=3000, `min_input <= max_input`).
//!
//! # Seeding
//! The family is uniform over `families`, redrawn with the function and the
//! input (at most 2000 draws, else an error saying what to relax); the
//! function is rebuilt from its own seed when an answer is checked.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::{CaseOutcome, Limits, compare_outputs};

use super::families::{FAMILIES, Family, Spec, family};
use super::output_prediction::{SIZE_LEVELS, arguments, read_reply, validate_sizes};
use crate::budget::draw_until;
use crate::core::{EnvKind, EnvSpec, NO_VERDICT, Preset, Score};
use crate::error::{ConfigError, NoTask};
use crate::prompt_answers::PromptAnswers;
use crate::rng::Rng;
use crate::sandboxed::{SandboxedError, default_limits, python};
use crate::selfplay::pyliteral::{parse_literal_prefix, to_python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

const MAX_DRAWS: u64 = 2_000;
/// Longest argument text read.
const MAX_ARGS: usize = 2_000;
/// Families left out (see the header).
const LEFT_OUT: [&str; 2] = ["sort_by_key", "search_window"];
/// Fuel of one sandboxed run: far above what any drawn input takes (the
/// tests run every level's inputs under it), so an answer that loops or
/// asks for a huge computation fails in a fraction of a second.
const FUEL: u64 = 50_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InputPredictionConfig {
    /// Family names to draw from; empty means all ten.
    pub families: Vec<String>,
    pub level: u8,
    /// Fewest characters of the drawn input's arguments.
    pub min_input: usize,
    /// Most characters of the drawn input's arguments.
    pub max_input: usize,
}

impl Default for InputPredictionConfig {
    fn default() -> Self {
        InputPredictionConfig {
            families: Vec::new(),
            level: 2,
            min_input: 1,
            max_input: 120,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputTask {
    pub family: String,
    pub level: u8,
    /// Seeds the family's draw of this function.
    pub spec_seed: u64,
    pub entry: String,
    pub signature: String,
    pub program: String,
    /// The value to reach (tagged JSON).
    pub target: Value,
    /// The drawn input (the reference answer).
    pub witness: Value,
}

impl InputTask {
    fn spec(&self) -> Option<Spec> {
        let family = family(&self.family)?;
        Some((family.draw)(
            self.level,
            &mut Rng::from_seed(self.spec_seed),
        ))
    }

    fn arity(&self) -> usize {
        self.witness.as_array().map_or(0, Vec::len)
    }
}

/// The drawable families (all but [`LEFT_OUT`]) named in `names`.
fn pool(names: &[String]) -> Vec<&'static Family> {
    FAMILIES
        .iter()
        .filter(|f| !LEFT_OUT.contains(&f.name))
        .filter(|f| names.is_empty() || names.iter().any(|n| n == f.name))
        .collect()
}

/// Whether the mirror of `family` equals CPython on `args`: the argument
/// types the family draws, ints within its boundary inputs' range (prime
/// ranges of at most 5000 numbers, graphs of at most 100 nodes and 300
/// edges between them), ASCII strings (records well formed), short lists of
/// small ints.
fn in_domain(spec: &Spec, family: &str, args: &Value) -> bool {
    let small = |v: &Value, lo: i64, hi: i64| v.as_i64().is_some_and(|n| (lo..=hi).contains(&n));
    match (family, args.as_array().map(Vec::as_slice)) {
        ("count_primes", Some([lo, hi])) => {
            small(lo, -10, 2_000_000)
                && small(hi, -10, 2_000_000)
                && hi.as_i64().unwrap_or(0) - lo.as_i64().unwrap_or(0) <= 5_000
        }
        ("reachable", Some([n, edges, start])) => {
            let nodes = n.as_i64().unwrap_or(0);
            small(n, 1, 100)
                && small(start, 0, nodes - 1)
                && edges.as_array().is_some_and(|edges| {
                    edges.len() <= 300
                        && edges.iter().all(|e| {
                            e.as_array().is_some_and(|uv| {
                                uv.len() == 2 && uv.iter().all(|x| small(x, 0, nodes - 1))
                            })
                        })
                })
        }
        ("parse_records", Some([text])) => text
            .as_str()
            .is_some_and(|text| well_formed_records(&spec.reference, text)),
        (_, Some([arg])) => one_arg_in_domain(spec, family, arg),
        _ => false,
    }
}

/// Whether `text` is records as `parse_records` reads them without raising
/// (each item one key, the separator, and an int of at most nine digits),
/// with the separators read out of the program.
fn well_formed_records(program: &str, text: &str) -> bool {
    let literal_after = |marker: &str| {
        let at = program.find(marker)? + marker.len();
        match parse_literal_prefix(&program[at..]).ok()?.0 {
            Value::String(s) if !s.is_empty() => Some(s),
            _ => None,
        }
    };
    let (Some(sep), Some(kv)) = (literal_after("s.split("), literal_after("item.split(")) else {
        return false;
    };
    let int = |v: &str| {
        let digits = v.strip_prefix('-').unwrap_or(v);
        (1..=9).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    };
    text.is_ascii()
        && text.len() <= MAX_ARGS
        && (text.is_empty()
            || text.split(sep.as_str()).all(|item| {
                let parts: Vec<&str> = item.split(kv.as_str()).collect();
                parts.len() == 2 && int(parts[1])
            }))
}

fn one_arg_in_domain(spec: &Spec, family: &str, arg: &Value) -> bool {
    match family {
        "affine_filter" => arg.as_array().is_some_and(|xs| {
            xs.len() <= 200
                && xs
                    .iter()
                    .all(|x| x.as_i64().is_some_and(|x| x.abs() < 1_000_000))
        }),
        "rotate_letters" | "word_counts" | "robot_walk" => arg
            .as_str()
            .is_some_and(|s| s.is_ascii() && s.len() <= MAX_ARGS),
        "digit_power_sum" | "count_climbs" | "min_coins" => {
            let top = spec
                .edges
                .iter()
                .filter_map(|e| e[0].as_i64())
                .max()
                .unwrap_or(0);
            arg.as_i64().is_some_and(|n| (0..=top).contains(&n))
        }
        _ => false,
    }
}

/// Whether the one argument is of a kind the program cannot take, so that it
/// raises (or, for `parse_records` on a falsy scalar, returns `{}`, which is
/// never a target): a number, bool or `None` where it iterates a string or
/// list, a string, container or `None` where it does arithmetic.
fn surely_wrong(family: &str, args: &Value) -> bool {
    let Some([arg]) = args.as_array().map(Vec::as_slice) else {
        return false;
    };
    let scalar = matches!(arg, Value::Null | Value::Bool(_) | Value::Number(_));
    match family {
        "affine_filter" | "rotate_letters" | "word_counts" | "robot_walk" | "parse_records" => {
            scalar
        }
        "digit_power_sum" | "count_climbs" | "min_coins" => {
            matches!(
                arg,
                Value::Null | Value::String(_) | Value::Array(_) | Value::Object(_)
            )
        }
        _ => false,
    }
}

/// What the program returns on `args`: by the mirror on its domain, else
/// in the sandbox (`Ok(None)`: it raised or ran out of fuel or memory).
fn run(task: &InputTask, args: &Value, sandbox_only: bool) -> Result<Option<Value>, CheckError> {
    let spec = task
        .spec()
        .ok_or_else(|| SandboxedError::bad_task(format!("unknown family {}", task.family)))?;
    if !sandbox_only && in_domain(&spec, &task.family, args) {
        return Ok(Some((spec.solve)(args)));
    }
    if !sandbox_only && surely_wrong(&task.family, args) {
        return Ok(None);
    }
    let key = (task.program.clone(), args.to_string());
    if let Some(known) = RUNS.lock().ok().and_then(|runs| runs.get(&key).cloned()) {
        return Ok(known);
    }
    let report = python()?
        .run_cases(
            &task.program,
            &task.entry,
            std::slice::from_ref(args),
            &Limits {
                fuel: FUEL,
                ..default_limits()
            },
        )
        .map_err(SandboxedError::run)?;
    let got = match report.outcomes.into_iter().next() {
        Some(CaseOutcome::Returned(value)) => Some(value),
        _ => None,
    };
    if let Ok(mut runs) = RUNS.lock() {
        if runs.len() >= MAX_REMEMBERED {
            runs.clear();
        }
        runs.insert(key, got.clone());
    }
    Ok(got)
}

/// Sandbox results by program and arguments: a run is deterministic (fuel,
/// not time, bounds it), so the same answer to the same task (a reply
/// graded twice, one answer in many styles) runs once.
static RUNS: std::sync::LazyLock<std::sync::Mutex<Memo>> =
    std::sync::LazyLock::new(Default::default);
/// A sandbox result by (program, arguments as JSON text).
type Memo = std::collections::BTreeMap<(String, String), Option<Value>>;
/// Most results remembered before the memo is emptied.
const MAX_REMEMBERED: usize = 4_096;

/// The arguments of `entry(…)` opening `text`, and the bytes taken.
fn call_prefix(text: &str, entry: &str) -> Option<(Value, usize)> {
    let mut pos = text
        .strip_prefix(entry)?
        .strip_prefix('(')
        .map(|_| entry.len() + 1)?;
    let mut args = Vec::new();
    let skip = |pos: usize| pos + text[pos..].len() - text[pos..].trim_start().len();
    loop {
        pos = skip(pos);
        if text[pos..].starts_with(')') {
            return Some((Value::Array(args), pos + 1));
        }
        let (value, took) = parse_literal_prefix(&text[pos..]).ok()?;
        args.push(value);
        pos = skip(pos + took);
        match text[pos..].chars().next()? {
            ',' => pos += 1,
            ')' => return Some((Value::Array(args), pos + 1)),
            _ => return None,
        }
    }
}

/// Up to `arity` comma-separated literals opening `text`, and the bytes taken.
fn bare_prefix(text: &str, arity: usize) -> Option<(Value, usize)> {
    let mut args = Vec::new();
    let mut pos = 0;
    while args.len() < arity {
        let (value, took) = parse_literal_prefix(&text[pos..]).ok()?;
        args.push(value);
        pos += took;
        let rest = &text[pos..];
        let next = rest.trim_start();
        if args.len() < arity && next.starts_with(',') {
            pos += rest.len() - next.len() + 1;
        } else {
            break;
        }
    }
    Some((Value::Array(args), pos))
}

/// The arguments a final-answer statement opens with: a call of the entry
/// (or `f`), bare literals, or a call of another name (another answer,
/// never equal to an argument list).
fn stated_args(task: &InputTask, text: &str) -> Option<(Value, usize)> {
    let name_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let name = &text[..name_len];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return bare_prefix(text, task.arity());
    }
    let (args, took) = call_prefix(text, name)?;
    if name == task.entry || name == "f" {
        return Some((args, took));
    }
    Some((json!({ "call": name, "args": args }), took))
}

/// The arguments an answer gives, of the right number.
fn read_args(task: &InputTask, answer: &str) -> Result<Value, CheckError> {
    let text = answer.trim().trim_matches('`').trim();
    if text.is_empty() {
        return Err("no arguments: answer with a call on literal arguments".into());
    }
    if text.len() > MAX_ARGS + task.entry.len() + 2 {
        return Err(format!("arguments longer than {MAX_ARGS} characters").into());
    }
    let whole = |found: Option<(Value, usize)>| {
        found.filter(|(_, took)| text[*took..].trim_end_matches(['.', ' ']).is_empty())
    };
    let args = whole(call_prefix(text, &task.entry))
        .or_else(|| whole(call_prefix(text, "f")))
        .or_else(|| whole(bare_prefix(text, task.arity())))
        .map(|(args, _)| args)
        .ok_or_else(|| {
            CheckError::unreadable(format!(
                "not a call of {} on plain Python literals (names, calls and expressions are \
                 not read)",
                task.entry
            ))
        })?;
    let given = args.as_array().map_or(0, Vec::len);
    if given != task.arity() {
        return Err(format!(
            "{} takes {} arguments, {given} given",
            task.entry,
            task.arity()
        )
        .into());
    }
    Ok(args)
}

pub struct InputPrediction;

pub type InputPredictionEnv = SingleTurn<InputPrediction>;

impl InputPrediction {
    fn draw(config: &InputPredictionConfig, rng: &mut Rng) -> Option<InputTask> {
        let pool = pool(&config.families);
        let chosen = pool[rng.below(pool.len() as u64) as usize];
        let spec_seed = rng.next_u64();
        let spec = (chosen.draw)(config.level, &mut Rng::from_seed(spec_seed));
        let witness = (spec.args)(rng);
        let len = arguments(&witness).chars().count();
        if len < config.min_input || len > config.max_input {
            return None;
        }
        let target = (spec.solve)(&witness);
        let task = InputTask {
            family: chosen.name.into(),
            level: config.level,
            spec_seed,
            entry: spec.entry.into(),
            signature: spec.signature.clone(),
            program: spec.reference.clone(),
            target,
            witness,
        };
        let prompt = Self::prompt(&task);
        let copied = PromptAnswers::read(&prompt, &[])
            .all()
            .into_iter()
            .filter_map(|c| read_args(&task, &c).ok());
        let trivial = spec
            .edges
            .iter()
            .cloned()
            .chain([json!([task.target.clone()]), json!([0]), json!([1])])
            .chain(copied);
        for args in trivial {
            let on_domain = spec.edges.contains(&args) || in_domain(&spec, chosen.name, &args);
            if on_domain && compare_outputs(&task.target, &(spec.solve)(&args), 1e-9) {
                return None;
            }
        }
        Some(task)
    }
}

impl Question for InputPrediction {
    type Config = InputPredictionConfig;
    type Task = InputTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "code/input-prediction-v1",
        kind: EnvKind::SingleTurn,
        description: "Find arguments on which a generated Python function returns a given value; any such input passes (run by the program)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = SIZE_LEVELS;

    /// Characters of the target to reach plus of the drawn input.
    fn effort(task: &InputTask) -> Option<f64> {
        Some((arguments(&task.witness).len() + to_python(&task.target).len()) as f64)
    }

    fn validate(config: &InputPredictionConfig) -> Result<(), ConfigError> {
        validate_sizes(config.level, config.min_input, config.max_input)?;
        for name in &config.families {
            if pool(std::slice::from_ref(name)).is_empty() {
                let known: Vec<&str> = pool(&[]).iter().map(|f| f.name).collect();
                return Err(format!(
                    "families: {name:?} is not drawn here; known: {}",
                    known.join(", ")
                )
                .into());
            }
        }
        Ok(())
    }

    fn generate(config: &InputPredictionConfig, rng: &mut Rng) -> InputTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &InputPredictionConfig, rng: &mut Rng) -> Result<InputTask, NoTask> {
        draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no input in {MAX_DRAWS} draws had {}..={} characters and a value no trivial \
                     input reaches; widen min_input..max_input, raise level or add families",
                    config.min_input, config.max_input
                )
            },
        )
    }

    fn prompt(task: &InputTask) -> String {
        format!(
            "Here is a Python function:\n\n```python\n{}```\n\nIts signature is {}. Find \
             arguments on which it returns exactly this value:\n\n{}\n\nAnswer with the call on \
             literal arguments in \\boxed{{}}, as {}(...) with plain Python literals (numbers, \
             strings, lists, tuples, dicts, None, True, False) for the arguments; names, calls \
             and expressions inside are not read. Any arguments on which the function returns \
             that value count.",
            task.program,
            task.signature,
            to_python(&task.target),
            task.entry
        )
    }

    fn structured(task: &InputTask) -> Value {
        json!({
            "family": task.family,
            "program": task.program,
            "signature": task.signature,
            "target": to_python(&task.target),
        })
    }

    fn reference(task: &InputTask) -> String {
        format!("{}({})", task.entry, arguments(&task.witness))
    }

    fn check(task: &InputTask, answer: &str) -> Result<bool, CheckError> {
        let args = read_args(task, answer)?;
        Ok(run(task, &args, false)?.is_some_and(|got| compare_outputs(&task.target, &got, 1e-9)))
    }

    /// The answer-position rule with boxes and statements compared as
    /// argument lists, then one run.
    fn grade(task: &InputTask, reply: &str) -> Graded {
        let same = |a: &Value, b: &Value| compare_outputs(a, b, 0.0);
        let read = |t: &str| read_args(task, t);
        let prefix = |t: &str| stated_args(task, t);
        let fail = |format: f64, sandbox: f64, why: String| Graded {
            score: Score::binary(false)
                .part("format", format)
                .part(NO_VERDICT, sandbox),
            events: vec![why],
        };
        let args = match read_reply(reply, &read, &prefix, &same) {
            Ok(args) => args,
            Err(e) => return fail(0.0, 0.0, e.to_string()),
        };
        match run(task, &args, false) {
            Ok(got) => {
                let right = got.is_some_and(|got| compare_outputs(&task.target, &got, 1e-9));
                Score::binary(right)
                    .part("format", 1.0)
                    .part(NO_VERDICT, 0.0)
                    .into()
            }
            Err(e) => fail(1.0, 1.0, e.to_string()),
        }
    }
}

#[cfg(test)]
#[path = "input_prediction_tests.rs"]
mod tests;
