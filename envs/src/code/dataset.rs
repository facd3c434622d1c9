//! `code/dataset-v2`: programming problems with tests from a data set (APPS, TACO,
//! CodeContests, LiveCodeBench, MBPP, HumanEval), imported by `verigym import` and judged
//! in the WASM sandbox.
//!
//! # Task
//! One imported row: the statement, the language the answer is written in (`python`,
//! `c` or `cpp`), the tests (stdin/stdout pairs, or for call-based problems a function
//! name and argument/expected pairs; Python only), split into public tests (shown) and
//! hidden ones (never shown), an optional starter code, reference solution, time limit,
//! difficulty, and the row's source (`file`, `layout`, `row`, `row_hash`).
//!
//! # Action
//! One free-text reply. The code is the last fenced block after any `<think>`
//! reasoning, or the whole reply when there is none: a whole program for stdin/stdout
//! problems, the function (with its imports and helpers) for call-based ones.
//!
//! # Observation
//! The statement, the starter code, the public tests as examples, and the answer format.
//! Hidden tests never appear, and only their input ever enters the sandbox. The step's
//! events name a failing hidden test by its number and the failure's kind only
//! (`runtime error on hidden test 3 (ValueError)`), never its input, its expected output
//! or a message the program built from them; a public test's failure shows its detail.
//!
//! # Reward
//! 1 and `passed` only when every test, public then hidden, passes; else 0. C and C++
//! run each test in a fresh instance; a Python program runs its tests in one instance
//! while the harness finds it, after each test, as a fresh one would start, and a test
//! that fails there is run again in a fresh instance, which decides. Stdin/stdout output is compared token by token as open
//! judges do (whitespace runs, trailing spaces and blank lines ignored; a token where the
//! expected one is a decimal with a fraction or exponent matches within absolute or
//! relative error 10⁻⁶; everything else exactly); programs see stdin as a regular file
//! (`os.fstat(0).st_size` is its length) and every writer is flushed at exit, as under
//! `python3 prog.py < input`. Call-based results compare on the host by the card's
//! `equality` (type-exactly when it names none; Python `==` for rows whose data set
//! compares that way, see `verigym_sandbox::Equality`), floats within the row's
//! tolerance. Exit codes, `sys.exit`, `os._exit`
//! and printed text decide nothing; only the output or returned value does.
//! Budgets per test: fuel for the row's time limit (default 1 CPU-second, at most 4) at
//! the sandbox's calibration (Python 7.5·10⁹, C/C++ 5·10⁹ fuel per CPU-second), 256 MiB
//! of memory, 8 MiB of output per stream; call-based tests the code envs' defaults.
//! Breakdown: `correct`, `format` (a fenced block was found), `sandbox_error` (no
//! verdict: a runtime or toolchain is missing), `tests_passed` (share of the tests that
//! passed before the first failure; information only, never a pass), `failed_test`
//! (1-based number of the first failing test, public ones first; 0 when none), and one
//! of `wrong_answer`, `runtime_error`, `time_limit`, `memory_limit`, `output_limit`,
//! `wall_timeout`, `compile_error` set to 1 for a failure.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `cards`: a CARDS.jsonl written by `verigym import` to draw from (default: the samples
//! in `envs/data/cards/code.jsonl`, embedded); `level`: 0, 1 or 2, a third of the
//! pool by effort (the row's difficulty, e.g. APPS' introductory/interview/competition as
//! 1/2/3, else its number of tests). Presets `all`, `easy`, `medium`, `hard`.
//!
//! # Seeding
//! The seed draws a row uniformly from the (filtered) pool. Imported cards carry the row
//! itself and replay without the pool.
//!
//! # Version history
//! v1: first version.
//! v2: a call-based card names its comparison policy (`equality`: `python` for MBPP and
//! HumanEval, `python_json` for APPS, TACO and LiveCodeBench; absent means type-exact,
//! v1's rule), and the embedded sample cards name their data set's, so the cards drawn
//! from them changed. Judging: programs see stdin as a regular file and have every
//! writer flushed at exit, and a test that changed module or class state gives the next
//! test a fresh instance (programs that relied on none of this score as in v1).

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::{
    Equality, JudgeOptions, Language, StdioJudge, StdioTest, StdioVerdict, TestCase, Verdict,
    stdio_limits,
};

use crate::core::{EnvKind, EnvSpec, Score, Superseded};
use crate::dataset::{self, LEVELS, PoolConfig, Source};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{
    SandboxedError, default_limits, error_kind, extract_code, failing_case, python, sandbox,
};
use crate::selfplay::pyliteral::{LiteralError, to_python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

const SAMPLES: &str = include_str!("../../data/cards/code.jsonl");
/// Per-test CPU seconds when a row states none, and the most a row may ask for.
pub const DEFAULT_TIME_LIMIT: f64 = 1.0;
pub const MAX_TIME_LIMIT: f64 = 4.0;
/// Public tests shown in the prompt at most (the rest still run).
const SHOWN_PUBLIC: usize = 5;
/// Characters of one shown test's input or output at most.
const SHOWN_CHARS: usize = 2000;

/// A row's tests. Public tests are shown in the prompt; hidden ones never are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Tests {
    /// Whole programs: input on stdin, output on stdout.
    Stdio {
        public: Vec<StdioTest>,
        hidden: Vec<StdioTest>,
    },
    /// A Python function `fn_name` called with each case's arguments.
    Call {
        fn_name: String,
        public: Vec<TestCase>,
        hidden: Vec<TestCase>,
        #[serde(default)]
        float_tol: f64,
        /// LeetCode-style problems (LiveCodeBench): `fn_name` is a method of this class,
        /// called on a fresh instance (`Solution().fn_name(*args)`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        class_name: Option<String>,
        /// How a returned value is compared with the expected one: type-exactly (the
        /// default, for cards that name none) or as the data set's own tests compare
        /// (Python `==`; see `verigym_sandbox::Equality` and the README's per-layout
        /// policy).
        #[serde(default, skip_serializing_if = "Equality::is_exact")]
        equality: Equality,
    },
}

impl Tests {
    pub fn count(&self) -> usize {
        match self {
            Tests::Stdio { public, hidden } => public.len() + hidden.len(),
            Tests::Call { public, hidden, .. } => public.len() + hidden.len(),
        }
    }
}

/// One imported programming problem.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodeRow {
    pub statement: String,
    /// `python`, `c` or `cpp` (call-based tests: `python`).
    pub language: String,
    pub tests: Tests,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starter_code: Option<String>,
    /// A reference solution (code), when the data set has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solution: Option<String>,
    /// CPU seconds per test.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<f64>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub metadata: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// When the data set's row had more tests than the importer keeps: which it kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampled: Option<TestSample>,
}

/// The tests an importer kept of a row that had more than its cap: a deterministic
/// sample drawn with `seed` (the card's seed, from the row's hash), recorded so the card
/// says what it checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestSample {
    /// Tests in the row (public and hidden).
    pub total: usize,
    pub seed: u64,
    /// 0-based indices of the kept tests in the row's order (public first, then
    /// hidden), ascending.
    pub kept: Vec<usize>,
}

/// The [`Question`] of imported programming problems; [`CodeDataset`] is its env.
pub struct CodeDatasetQuestion;

pub type CodeDataset = SingleTurn<CodeDatasetQuestion>;

fn effort(task: &CodeRow) -> f64 {
    task.difficulty.unwrap_or(task.tests.count() as f64)
}

/// How a candidate fared, whatever kind of tests it ran on.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `None` for a pass, else the failure's breakdown key (`wrong_answer`, …).
    pub failure: Option<&'static str>,
    /// 0-based index of the first failing test (public first), when one is named.
    pub failed_test: Option<usize>,
    pub tests_passed: usize,
    pub tests_total: usize,
    /// A note for the step's events (never an expected hidden output).
    pub note: String,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.failure.is_none() && self.tests_passed == self.tests_total
    }
}

static STDIO: OnceLock<Result<StdioJudge, SandboxedError>> = OnceLock::new();

fn stdio_judge() -> Result<&'static StdioJudge, SandboxedError> {
    STDIO
        .get_or_init(|| {
            StdioJudge::new(sandbox()?).map_err(|e| SandboxedError::SandboxUnavailable(Arc::new(e)))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The language a row's answers are written in.
///
/// # Errors
/// [`SandboxedError::BadTask`]: the row names a language the sandbox does not run.
pub fn language_of(task: &CodeRow) -> Result<Language, SandboxedError> {
    task.language
        .parse()
        .map_err(|e| SandboxedError::BadTask(Arc::new(e)))
}

fn which(k: usize, public: usize) -> String {
    if k < public {
        format!("public test {}", k + 1)
    } else {
        format!("hidden test {}", k - public + 1)
    }
}

/// Runs `code` on every test of the row, public then hidden.
///
/// # Errors
/// No verdict: the sandbox, runtime or toolchain is unavailable, or the row is unusable.
pub fn judge(task: &CodeRow, code: &str) -> Result<Outcome, SandboxedError> {
    match &task.tests {
        Tests::Stdio { public, hidden } => {
            let language = language_of(task)?;
            let tests: Vec<StdioTest> = public.iter().chain(hidden).cloned().collect();
            let seconds = task
                .time_limit
                .unwrap_or(DEFAULT_TIME_LIMIT)
                .clamp(0.01, MAX_TIME_LIMIT);
            let limits = stdio_limits(language, seconds);
            let judgement = stdio_judge()?
                .judge(language, code, &tests, &limits, &JudgeOptions::default())
                .map_err(SandboxedError::run)?;
            let test = judgement.verdict.test();
            let at = |k: usize| which(k, public.len());
            let (failure, note) = match &judgement.verdict {
                StdioVerdict::Passed => (None, "passed every test".to_string()),
                StdioVerdict::WrongAnswer { test, mismatch } if *test < public.len() => (
                    Some("wrong_answer"),
                    format!("wrong answer on {}: {mismatch}", at(*test)),
                ),
                StdioVerdict::WrongAnswer { test, .. } => (
                    Some("wrong_answer"),
                    format!("wrong answer on {}", at(*test)),
                ),
                StdioVerdict::RuntimeError { test, msg } if *test < public.len() => (
                    Some("runtime_error"),
                    format!("runtime error on {}: {}", at(*test), last_line(msg)),
                ),
                // A hidden test's error message can carry its input: index and kind only.
                StdioVerdict::RuntimeError { test, msg } => (
                    Some("runtime_error"),
                    format!("runtime error on {} ({})", at(*test), error_kind(msg)),
                ),
                StdioVerdict::TimeLimit { test } => (
                    Some("time_limit"),
                    format!("time limit (fuel) on {}", at(*test)),
                ),
                StdioVerdict::MemoryLimit { test } => (
                    Some("memory_limit"),
                    format!("memory limit on {}", at(*test)),
                ),
                StdioVerdict::OutputLimit { test } => (
                    Some("output_limit"),
                    format!("output limit on {}", at(*test)),
                ),
                StdioVerdict::WallTimeout { test } => (
                    Some("wall_timeout"),
                    format!("wall-clock limit on {}", at(*test)),
                ),
                // Python can raise a SyntaxError at run time, from its input
                // (`exec(input())`): its kind only. C and C++ compile before any input.
                StdioVerdict::CompileError { msg } if language == Language::Python => (
                    Some("compile_error"),
                    format!("does not compile ({})", error_kind(msg)),
                ),
                StdioVerdict::CompileError { msg } => (
                    Some("compile_error"),
                    format!("does not compile: {}", last_line(msg)),
                ),
            };
            Ok(Outcome {
                failure,
                failed_test: test,
                tests_passed: judgement.tests_passed,
                tests_total: judgement.tests_total,
                note,
            })
        }
        Tests::Call {
            fn_name,
            public,
            hidden,
            float_tol,
            class_name,
            equality,
        } => {
            let cases: Vec<TestCase> = public.iter().chain(hidden).cloned().collect();
            // The method call goes through a module-level function the candidate could
            // have written itself, so it gains nothing from it.
            let (code, entry) = match class_name {
                // LeetCode's signatures use `typing` names without importing them, as
                // its own harness provides them.
                Some(class) => (
                    format!(
                        "from typing import *\n{code}\n\ndef __verigym_call(*args):\n    return {class}().{fn_name}(*args)\n"
                    ),
                    "__verigym_call",
                ),
                None => (code.to_string(), fn_name.as_str()),
            };
            let verdict = python()?
                .judge_by(
                    &code,
                    entry,
                    &cases,
                    &default_limits(),
                    *float_tol,
                    *equality,
                )
                .map_err(SandboxedError::run)?;
            let at = |k: usize| which(k, public.len());
            let (failure, failed_test, note) = match &verdict {
                Verdict::Passed => (None, None, "passed every test".to_string()),
                Verdict::WrongAnswer { case, .. } => (
                    Some("wrong_answer"),
                    Some(*case),
                    format!("wrong answer on {}", at(*case)),
                ),
                Verdict::RuntimeError { msg } => match failing_case(msg) {
                    Some(case) if case < public.len() => (
                        Some("runtime_error"),
                        Some(case),
                        format!("runtime error on {}: {}", at(case), last_line(msg)),
                    ),
                    // A hidden test's error message can carry its arguments: index and
                    // kind only.
                    Some(case) => (
                        Some("runtime_error"),
                        Some(case),
                        format!("runtime error on {} ({})", at(case), error_kind(msg)),
                    ),
                    None => (
                        Some("runtime_error"),
                        None,
                        format!("runtime error ({})", error_kind(msg)),
                    ),
                },
                Verdict::CompileError { msg } => (
                    Some("compile_error"),
                    None,
                    format!("does not compile: {}", last_line(msg)),
                ),
                Verdict::OutOfFuel => (Some("time_limit"), None, "time limit (fuel)".into()),
                Verdict::OutOfMemory => (Some("memory_limit"), None, "memory limit".into()),
                Verdict::OutputLimit => (Some("output_limit"), None, "output limit".into()),
                Verdict::Timeout => (Some("wall_timeout"), None, "wall-clock limit".into()),
            };
            Ok(Outcome {
                failure,
                failed_test,
                tests_passed: failed_test.unwrap_or(if verdict.passed() { cases.len() } else { 0 }),
                tests_total: cases.len(),
                note,
            })
        }
    }
}

/// One Python literal read on the host without evaluating anything (the plain-value
/// subset of `ast.literal_eval`), in the sandbox's tagged JSON: for importers turning
/// asserts into tests.
///
/// # Errors
/// What is wrong and where.
pub fn parse_python_literal(text: &str) -> Result<Value, LiteralError> {
    crate::selfplay::pyliteral::parse_literal(text)
}

/// A call's argument list (`1, [2], 'x'`) as a JSON array of tagged values.
///
/// # Errors
/// As [`parse_python_literal`], or when there are no arguments.
pub fn parse_python_args(text: &str) -> Result<Value, LiteralError> {
    crate::selfplay::pyliteral::parse_args(text)
}

fn last_line(text: &str) -> &str {
    let line = text.lines().last().unwrap_or("");
    &line[..line.floor_char_boundary(200)]
}

/// The score of a judged answer (see the header's Reward section).
pub fn score_of(judged: &Result<Outcome, SandboxedError>, fenced: bool) -> Score {
    let passed = judged.as_ref().is_ok_and(Outcome::passed);
    let mut score = Score::binary(passed)
        .part("format", fenced as u8 as f64)
        .part("sandbox_error", judged.is_err() as u8 as f64);
    if let Ok(outcome) = judged {
        score = score
            .part(
                "tests_passed",
                outcome.tests_passed as f64 / outcome.tests_total.max(1) as f64,
            )
            .part(
                "failed_test",
                outcome.failed_test.map_or(0.0, |k| k as f64 + 1.0),
            );
        if let Some(key) = outcome.failure {
            score = score.part(key, 1.0);
        }
    }
    score
}

fn fence_tag(task: &CodeRow) -> &'static str {
    match language_of(task) {
        Ok(Language::C) => "c",
        Ok(Language::Cpp) => "cpp",
        _ => "python",
    }
}

fn shown(text: &str) -> &str {
    &text[..text.floor_char_boundary(SHOWN_CHARS)]
}

/// This env's id: the env imported rows become cards of (`verigym import`).
pub const ID: &str = <CodeDatasetQuestion as Question>::SPEC.id;

impl Question for CodeDatasetQuestion {
    type Config = PoolConfig;
    type Task = CodeRow;

    // v1 rows carry no `equality` and compare type-exactly, v1's rule, which
    // v2 keeps for rows without it.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "code/dataset-v2",
        kind: EnvKind::SingleTurn,
        description: "Programming problems from a data set (APPS, TACO, CodeContests, LiveCodeBench, MBPP, HumanEval) imported with `verigym import`, judged on hidden tests in the WASM sandbox",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: dataset::PRESETS,
    };
    const LEVELS: &'static [&'static str] = LEVELS;
    const STRUCTURED_KEY: Option<&'static str> = None;

    fn effort(task: &CodeRow) -> Option<f64> {
        Some(effort(task))
    }

    fn validate(config: &PoolConfig) -> Result<(), ConfigError> {
        dataset::validate_pool::<Self>(config, SAMPLES, effort)
    }

    fn task_count(config: &PoolConfig) -> Option<usize> {
        dataset::row_count::<Self>(config, SAMPLES, effort)
    }

    fn generate(config: &PoolConfig, rng: &mut Rng) -> CodeRow {
        dataset::draw::<Self>(config, SAMPLES, effort, rng)
    }

    fn prompt(task: &CodeRow) -> String {
        let tag = fence_tag(task);
        let mut text = task.statement.trim_end().to_string();
        if let Some(starter) = task
            .starter_code
            .as_deref()
            .filter(|s| !s.trim().is_empty())
        {
            text.push_str(&format!(
                "\n\nStarter code:\n```{tag}\n{}\n```",
                starter.trim_end()
            ));
        }
        match &task.tests {
            Tests::Stdio { public, .. } => {
                for (i, t) in public.iter().take(SHOWN_PUBLIC).enumerate() {
                    text.push_str(&format!(
                        "\n\nExample {}\nInput:\n{}\nOutput:\n{}",
                        i + 1,
                        shown(t.input.trim_end()),
                        shown(t.expected.trim_end())
                    ));
                }
                let language = match tag {
                    "c" => "C",
                    "cpp" => "C++",
                    _ => "Python 3",
                };
                text.push_str(&format!(
                    "\n\nWrite a complete {language} program that reads the input from standard input \
                     and writes the answer to standard output. Reply with the program in a ```{tag} \
                     code block; it will be run on hidden tests."
                ));
            }
            Tests::Call {
                fn_name, public, ..
            } => {
                for t in public.iter().take(SHOWN_PUBLIC) {
                    let args = match &t.args {
                        Value::Array(items) => {
                            items.iter().map(to_python).collect::<Vec<_>>().join(", ")
                        }
                        other => to_python(other),
                    };
                    text.push_str(&format!(
                        "\n\n>>> {fn_name}({})\n{}",
                        shown(&args),
                        shown(&to_python(&t.expected))
                    ));
                }
                text.push_str(&format!(
                    "\n\nWrite the Python function `{fn_name}` (with any imports and helpers it \
                     needs). Reply with the code in a ```python code block; it will be run on \
                     hidden tests."
                ));
            }
        }
        text
    }

    fn structured(task: &CodeRow) -> Value {
        let fn_name = match &task.tests {
            Tests::Call { fn_name, .. } => Some(fn_name),
            Tests::Stdio { .. } => None,
        };
        json!({ "language": task.language, "fn_name": fn_name })
    }

    /// The reference solution's code (empty when the row has none).
    fn reference(task: &CodeRow) -> String {
        task.solution.clone().unwrap_or_default()
    }

    fn check(task: &CodeRow, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)?.passed())
    }

    fn grade(task: &CodeRow, reply: &str) -> Graded {
        let (code, fenced) = extract_code(reply);
        let judged = judge(task, &code);
        let note = match &judged {
            Ok(outcome) => outcome.note.clone(),
            Err(why) => why.to_string(),
        };
        Graded {
            score: score_of(&judged, fenced),
            events: vec![note],
        }
    }

    fn oracle(task: &CodeRow) -> Option<String> {
        let code = task.solution.as_ref()?;
        Some(format!("```{}\n{}\n```", fence_tag(task), code.trim_end()))
    }

    fn random_answer(rng: &mut Rng) -> String {
        format!("```python\nprint({})\n```", rng.range_i64(-20, 20))
    }
}

#[cfg(test)]
#[path = "dataset_tests.rs"]
mod tests;
