//! `code/repair-v1`: a generated Python function with one seeded bug and a
//! failing test; the answer is the fixed function, run in the WASM sandbox
//! on hidden tests.
//!
//! # Task
//! A function drawn from the generated [`families`](super::families) of
//! `code/functions-v2` (its constants random per task), its specification,
//! and its reference with one bug seeded by the mutation machinery of
//! [`mutants`](super::mutants) (an operator, constant, comparison, bound or
//! call changed on one line). The hidden tests are the family's boundary
//! cases for this function followed by `hidden_tests` random inputs, the
//! tests whose strength the env gate's `mutation::python/FAMILY` trials
//! check (every mutant of a family's reference that survives them is
//! equivalent on the generator's inputs). A seeded bug is kept only when,
//! run in the sandbox at generation, the buggy function compiles, finishes
//! every hidden test within a small fuel budget, and returns a wrong value
//! or raises on at least two of them; one of those is shown as the failing
//! test, so patching that one input alone still fails the others.
//!
//! # Action
//! One free-text reply. The code is the last fenced block
//! (```` ```python ````), or the whole reply when there is none (the shared
//! code-reply rule of `crate::sandboxed`, as in `code/functions-v2`).
//!
//! # Observation
//! The signature, the specification, the buggy program in a fenced block,
//! and the failing test: its arguments, what the buggy program does (its
//! value, or that it raises) and the expected value. Structured: the
//! family, the entry, the signature, the buggy program and the failing test.
//!
//! # Reward
//! 1 and `passed` when the function returns the expected value (type-exact;
//! floats within 1e-9) on every hidden test, else 0: any correct fix passes,
//! judged by the tests, never by its text; the buggy program itself fails
//! them. Code that never names the entry function cannot define it and
//! fails without a run. Breakdown: `correct`, `format` (a fenced block was found),
//! `sandbox_error` (the sandbox could not run it; the reason is in the
//! events).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `families` (names; empty = all twelve), `level` (1–3: input sizes and
//! ranges), `hidden_tests` (5–100, random ones added to the boundary cases).
//!
//! # Seeding
//! The family is uniform over `families`; the function, its tests and the
//! bug are redrawn (at most 200 draws, else an error saying what to relax)
//! until the bug is kept as above. Generation runs the sandbox: without it
//! no task is drawn and the error says why.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::{CaseOutcome, Language, Limits, TestCase, Verdict, compare_outputs};

use super::families::{FAMILIES, FnTask, build_task, family};
use super::mutants::mutants;
use crate::budget::draw_until;
use crate::code::grade::grade_code;
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::sandboxed::{Judged, SandboxedError, default_limits, py_literal, python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

const MAX_DRAWS: u64 = 200;
/// Mutants of one drawn function tried before the function is redrawn.
const MUTANTS_PER_DRAW: usize = 4;
/// Hidden tests the kept bug must fail (one is shown).
const MIN_FAILED: usize = 2;
/// Fuel per case when the buggy program is run at generation: far above
/// what the references take on every level's inputs, so a bug that loops
/// is redrawn cheaply (the judge's budget is larger, and a bug that merely
/// runs long is never kept).
const GEN_FUEL: u64 = 50_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RepairConfig {
    /// Family names to draw from; empty means all.
    pub families: Vec<String>,
    pub level: u8,
    pub hidden_tests: usize,
}

impl Default for RepairConfig {
    fn default() -> Self {
        RepairConfig {
            families: Vec::new(),
            level: 2,
            hidden_tests: 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RepairTask {
    /// The function, its reference and its hidden tests (no examples).
    pub function: FnTask,
    /// The reference with the seeded bug.
    pub buggy: String,
    /// 1-based line of the bug (never shown).
    pub bug_line: usize,
    /// The shown failing test (one of the hidden ones) and what the buggy
    /// program does on it, in words.
    pub failing: TestCase,
    pub buggy_does: String,
}

/// What a case outcome says, for the prompt; `None` when it is not a plain
/// wrong answer or error (out of fuel or memory, output limit).
fn describe(outcome: &CaseOutcome) -> Option<String> {
    match outcome {
        CaseOutcome::Returned(v) => Some(format!("returns {}", py_literal(v))),
        CaseOutcome::RuntimeError(_) => Some("raises an exception".into()),
        _ => None,
    }
}

pub struct RepairQuestion;

pub type Repair = SingleTurn<RepairQuestion>;

/// Runs `code` on the task's hidden tests in the sandbox; code that never
/// names the entry function cannot define it and fails without a run.
/// Verdicts are remembered per program and tests (a run is deterministic:
/// fuel, not time, bounds it; a wall-clock timeout is not remembered).
fn judge(task: &RepairTask, code: &str) -> Judged {
    let f = &task.function;
    if !code.contains(f.entry.as_str()) {
        return Ok(Verdict::CompileError {
            msg: format!("the code never names `{}`, so it cannot define it", f.entry),
        });
    }
    let key = (code.to_string(), digest(&f.tests));
    if let Some(known) = remembered(&VERDICTS, &key) {
        return Ok(known);
    }
    let verdict = python().and_then(|py| {
        py.judge(code, &f.entry, &f.tests, &default_limits(), 1e-9)
            .map_err(SandboxedError::run)
    })?;
    if verdict != Verdict::Timeout {
        remember(&VERDICTS, key, verdict.clone());
    }
    Ok(verdict)
}

/// A result by (program, digest of the cases it ran on).
type Key = (String, u64);
type Memo<T> = std::sync::Mutex<std::collections::BTreeMap<Key, T>>;
static VERDICTS: std::sync::LazyLock<Memo<Verdict>> = std::sync::LazyLock::new(Default::default);
static RUNS: std::sync::LazyLock<Memo<Vec<CaseOutcome>>> =
    std::sync::LazyLock::new(Default::default);
/// Most results remembered before a memo is emptied.
const MAX_REMEMBERED: usize = 4_096;

/// A digest of cases (SipHash with fixed keys of their JSON text).
fn digest<T: Serialize>(cases: &T) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(cases)
        .unwrap_or_default()
        .hash(&mut h);
    h.finish()
}

fn remembered<T: Clone>(memo: &Memo<T>, key: &Key) -> Option<T> {
    memo.lock().ok().and_then(|m| m.get(key).cloned())
}

fn remember<T>(memo: &Memo<T>, key: Key, value: T) {
    if let Ok(mut m) = memo.lock() {
        if m.len() >= MAX_REMEMBERED {
            m.clear();
        }
        m.insert(key, value);
    }
}

impl RepairQuestion {
    /// One draw: a function and its tests, then up to [`MUTANTS_PER_DRAW`]
    /// random mutants of its reference; the first kept one makes the task.
    fn draw(config: &RepairConfig, rng: &mut Rng) -> Result<Option<RepairTask>, SandboxedError> {
        let pool: Vec<_> = FAMILIES
            .iter()
            .filter(|f| config.families.is_empty() || config.families.iter().any(|n| n == f.name))
            .collect();
        let chosen = pool[rng.below(pool.len() as u64) as usize];
        let function = build_task(chosen, config.level, 0, config.hidden_tests, rng);
        let all = mutants(Language::Python, &function.reference);
        if all.is_empty() {
            return Ok(None);
        }
        let py = python()?;
        let cases: Vec<Value> = function.tests.iter().map(|t| t.args.clone()).collect();
        let limits = Limits {
            fuel: GEN_FUEL,
            ..default_limits()
        };
        for _ in 0..MUTANTS_PER_DRAW {
            let mutant = &all[rng.below(all.len() as u64) as usize];
            let key = (mutant.source.clone(), digest(&cases));
            let outcomes = match remembered(&RUNS, &key) {
                Some(known) => known,
                None => {
                    let report = py
                        .run_cases(&mutant.source, &function.entry, &cases, &limits)
                        .map_err(SandboxedError::run)?;
                    remember(&RUNS, key, report.outcomes.clone());
                    report.outcomes
                }
            };
            if outcomes.len() != cases.len() {
                continue;
            }
            let mut failed = Vec::new();
            let mut plain = true;
            for (outcome, test) in outcomes.iter().zip(&function.tests) {
                match outcome {
                    CaseOutcome::Returned(v) if compare_outputs(&test.expected, v, 1e-9) => {}
                    CaseOutcome::Returned(_) | CaseOutcome::RuntimeError(_) => {
                        failed.push((test, outcome));
                    }
                    _ => plain = false,
                }
            }
            let stillborn = outcomes.iter().all(|o| {
                matches!(o, CaseOutcome::CompileError(_))
                    || matches!(o, CaseOutcome::RuntimeError(m) if m.contains("SyntaxError"))
            });
            if !plain || stillborn || failed.len() < MIN_FAILED {
                continue;
            }
            let (test, outcome) = failed[rng.below(failed.len() as u64) as usize];
            let Some(buggy_does) = describe(outcome) else {
                continue;
            };
            return Ok(Some(RepairTask {
                failing: test.clone(),
                buggy_does,
                buggy: mutant.source.clone(),
                bug_line: mutant.line,
                function,
            }));
        }
        Ok(None)
    }
}

impl Question for RepairQuestion {
    type Config = RepairConfig;
    type Task = RepairTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "code/repair-v1",
        kind: EnvKind::SingleTurn,
        description: "Fix the seeded bug in a generated Python function shown with a failing test; any fix passing the hidden tests passes (WASM sandbox)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const STRUCTURED_KEY: Option<&'static str> = None;
    const LEVELS: &'static [&'static str] = &[
        r#"{"level":1,"hidden_tests":8}"#,
        r#"{"level":1,"hidden_tests":15}"#,
        r#"{"level":2,"hidden_tests":12}"#,
        "{}",
        r#"{"level":3,"hidden_tests":20}"#,
        r#"{"level":3,"hidden_tests":30}"#,
        r#"{"level":3,"hidden_tests":45}"#,
    ];

    /// Characters of the hidden tests' arguments (as `code/functions-v2`).
    fn effort(task: &RepairTask) -> Option<f64> {
        Some(super::families::effort(&task.function))
    }

    fn validate(config: &RepairConfig) -> Result<(), ConfigError> {
        if !(1..=3).contains(&config.level) {
            return Err("level must be 1..=3".into());
        }
        if !(5..=100).contains(&config.hidden_tests) {
            return Err("hidden_tests must be 5..=100".into());
        }
        for name in &config.families {
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

    fn generate(config: &RepairConfig, rng: &mut Rng) -> RepairTask {
        Self::try_generate(config, rng).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_generate(config: &RepairConfig, rng: &mut Rng) -> Result<RepairTask, NoTask> {
        let mut unavailable = None;
        let drawn = draw_until(
            MAX_DRAWS,
            || match Self::draw(config, rng) {
                Ok(task) => task,
                Err(e) => {
                    unavailable.get_or_insert(e.to_string());
                    None
                }
            },
            || {
                format!(
                    "no seeded bug in {MAX_DRAWS} draws failed at least {MIN_FAILED} hidden \
                     tests; raise hidden_tests or add families"
                )
            },
        );
        match (drawn, unavailable) {
            (Ok(task), _) => Ok(task),
            (Err(_), Some(why)) => Err(NoTask::from(format!(
                "code/repair-v1 runs the sandbox to draw a task: {why}"
            ))),
            (Err(e), None) => Err(e),
        }
    }

    fn prompt(task: &RepairTask) -> String {
        let f = &task.function;
        let args: Vec<String> = task
            .failing
            .args
            .as_array()
            .map(|a| a.iter().map(py_literal).collect())
            .unwrap_or_default();
        format!(
            "This Python function should have the signature\n\n    def {}\n\nand do the \
             following: {}\n\nBut it has a bug:\n\n```python\n{}```\n\nFor example, {}({}) {}, \
             but it should return {}.\n\nFix the bug. Your function will be run on hidden tests \
             (Python 3 standard library only; it must return its result, not print it). Reply \
             with the complete fixed function in a ```python code block.",
            f.signature,
            f.description,
            task.buggy,
            f.entry,
            args.join(", "),
            task.buggy_does,
            py_literal(&task.failing.expected),
        )
    }

    fn structured(task: &RepairTask) -> Value {
        json!({
            "family": task.function.family,
            "entry": task.function.entry,
            "signature": task.function.signature,
            "buggy": task.buggy,
            "failing": task.failing,
        })
    }

    fn reference(task: &RepairTask) -> String {
        task.function.reference.clone()
    }

    /// Whether `answer` (the code itself) passes every hidden test.
    fn check(task: &RepairTask, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)? == Verdict::Passed)
    }

    /// The code is the last fenced block; the sandbox judges it once.
    fn grade(task: &RepairTask, reply: &str) -> Graded {
        grade_code(reply, |code| judge(task, code))
    }

    fn oracle(task: &RepairTask) -> Option<String> {
        Some(format!("```python\n{}```", task.function.reference))
    }

    fn random_answer(rng: &mut Rng) -> String {
        rng.range_i64(-20, 20).to_string()
    }
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
