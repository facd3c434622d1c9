//! `code/functions-c-v2`: write a C function from a generated specification; it is
//! compiled by clang to WASI and run in the WASM sandbox on hidden random tests.
//!
//! # Task
//! A function from the integer [`families`](super::families) that have a C reference
//! (searching, number theory, dynamic programming), with random constants per task, the
//! visible examples and the hidden tests (boundary cases first, as `code/functions-v2`). Integers are `int64_t` (wasm32 is ILP32).
//!
//! # Action
//! One free-text reply; the code is the last fenced block (```` ```c ````) or the whole
//! reply. It must define the function with the stated prototype (standard headers
//! `stdint.h`, `stdbool.h`, `stddef.h` are already included); no `main`.
//!
//! # Observation
//! The prototype, the specification, 2–3 examples (in Python call notation), the format.
//!
//! # Reward
//! 1 and `passed` when every hidden test returns the expected integer, else 0. Breakdown:
//! `correct`, `format`, `sandbox_error` (e.g. "C toolchain missing: run
//! sandbox/setup.sh", reported in the events).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! As `code/functions-v2`: `families` (names with a C reference; empty = all of them),
//! `level`, `examples`, `hidden_tests`.
//!
//! # Seeding
//! As `code/functions-v2`, drawing only from the families with a C reference.
//!
//! # Version history
//! v1: first version.
//! v2: the hidden tests of `code/functions-v2` (boundary cases first); checked by mutation
//! of the C references (`mutation::c/FAMILY` trials).

use serde_json::{Value, json};
use verigym_sandbox::{CRuntime, Verdict};

use super::families::{self, FnTask};
use super::functions::{FunctionsConfig, PRESETS, examples_text, generate_task, validate_config};
use crate::code::grade::grade_code;
use crate::core::{EnvKind, EnvSpec, Superseded};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{Judged, SandboxedError, c_runtime, default_limits};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

/// The C function-synthesis [`Question`]; [`FunctionsC`] is its env.
pub struct FunctionsCQuestion;

pub type FunctionsC = SingleTurn<FunctionsCQuestion>;

/// Compiles `code` to WASI and runs it on the task's hidden tests.
fn judge(task: &FnTask, code: &str) -> Judged {
    judge_in(task, code, c_runtime)
}

/// Compiles `code` with the runtime `runtime` gives (C or C++) and runs it on the
/// task's hidden tests; shared by `code/functions-c` and `code/functions-cpp`.
pub(super) fn judge_in(
    task: &FnTask,
    code: &str,
    runtime: fn() -> Result<&'static CRuntime, SandboxedError>,
) -> Judged {
    let c = task
        .c
        .as_ref()
        .ok_or_else(|| SandboxedError::bad_task("task has no C signature"))?;
    // Without even the function's name there is nothing to compile: skip clang.
    if !mentions_call(code, &c.signature.name) {
        return Ok(Verdict::CompileError {
            msg: format!("no definition of `{}`", c.signature.name),
        });
    }
    runtime()?
        .judge(code, &c.signature, &task.tests, &default_limits(), 0.0)
        .map_err(SandboxedError::run)
}

/// Whether `code` has `name` followed by `(` (a definition needs one).
fn mentions_call(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        before.is_none_or(|c| !ident(c)) && code[i + name.len()..].trim_start().starts_with('(')
    })
}

impl Question for FunctionsCQuestion {
    type Config = FunctionsConfig;
    type Task = FnTask;

    // v1 drew no boundary cases among the hidden tests; a task carries its
    // own tests, so v1's are judged by those.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "code/functions-c-v2",
        kind: EnvKind::SingleTurn,
        description: "Write a C function (int64_t) from a generated spec; compiled to WASI and judged on hidden random tests",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: PRESETS,
    };
    const STRUCTURED_KEY: Option<&'static str> = None;

    fn effort(task: &FnTask) -> Option<f64> {
        Some(families::effort(task))
    }

    fn validate(config: &FunctionsConfig) -> Result<(), ConfigError> {
        validate_config(config, true)
    }

    fn generate(config: &FunctionsConfig, rng: &mut Rng) -> FnTask {
        generate_task(config, true, rng)
    }

    fn prompt(task: &FnTask) -> String {
        format!(
            "Write a C function with this prototype:\n\n    {};\n\n{}\n\n\
             Examples (in call notation):\n{}\nYour function will be run on hidden tests. \
             <stdint.h>, <stdbool.h> and <stddef.h> are included; do not write main. \
             Reply with the complete function in a ```c code block.",
            prototype(task),
            task.description,
            examples_text(task)
        )
    }

    fn structured(task: &FnTask) -> Value {
        json!({
            "family": task.family,
            "entry": task.entry,
            "prototype": prototype(task),
            "examples": task.examples,
        })
    }

    /// The C reference (empty for a task without one: generation never
    /// makes such a task).
    fn reference(task: &FnTask) -> String {
        task.c
            .as_ref()
            .map_or_else(String::new, |c| c.reference.clone())
    }

    /// Whether `answer` (the code itself) passes every hidden test.
    fn check(task: &FnTask, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)? == Verdict::Passed)
    }

    /// The code is the last fenced block; clang and the sandbox judge it once.
    fn grade(task: &FnTask, reply: &str) -> Graded {
        grade_code(reply, |code| judge(task, code))
    }

    fn oracle(task: &FnTask) -> Option<String> {
        let c = task.c.as_ref()?;
        Some(format!("```c\n{}```", c.reference))
    }

    fn random_answer(rng: &mut Rng) -> String {
        rng.range_i64(-20, 20).to_string()
    }
}

/// The C prototype, empty for a task without a C signature.
fn prototype(task: &FnTask) -> &str {
    task.c.as_ref().map_or("", |c| c.prototype.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::families::{FAMILIES, build_task};
    use crate::core::{Env, Score};

    #[test]
    fn definition_precheck() {
        assert!(mentions_call("int64_t f (int64_t n) {", "f"));
        assert!(!mentions_call("int64_t ff(int64_t n) {", "f"));
        assert!(!mentions_call("0", "f"));
    }

    fn episode(task: &FnTask, answer: &str) -> Score {
        let mut env = FunctionsC::reset(task, Rng::from_seed(0));
        env.apply(0, answer.to_string()).unwrap();
        env.score(0)
    }

    /// C references pass at every level; a constant, an empty answer and a `main` that
    /// prints a fake result fail. Skipped (with a message) without clang.
    #[test]
    fn c_references_pass_and_fakes_fail() {
        if let Err(why) = c_runtime() {
            eprintln!("skipping C checks: {why}");
            let task = FunctionsC::generate(&FunctionsConfig::default(), &mut Rng::from_seed(1));
            let score = episode(&task, "int x;");
            assert_eq!(score.breakdown["sandbox_error"], 1.0);
            return;
        }
        let mut rng = Rng::from_seed(9);
        for family in FAMILIES.iter().filter(|f| f.has_c) {
            for level in 1..=3 {
                let task = build_task(family, level, 3, 15, &mut rng);
                let oracle = FunctionsC::reset(&task, Rng::from_seed(0))
                    .oracle(0)
                    .unwrap();
                let score = episode(&task, &oracle);
                assert!(
                    score.passed,
                    "{} level {level}: {score:?}\n{oracle}",
                    family.name
                );
            }
            let task = build_task(family, 2, 3, 15, &mut rng);
            let c = task.c.as_ref().unwrap();
            let params = c.prototype.split_once('(').unwrap().1;
            for bad in [
                String::new(),
                format!("int64_t {}({params} {{ return 0; }}", task.entry),
                format!(
                    "#include <stdlib.h>\nint64_t {}({params} {{ exit(0); }}",
                    task.entry
                ),
                format!("int64_t {}({params} {{ for(;;); }}", task.entry),
            ] {
                let score = episode(&task, &bad);
                assert!(!score.passed, "{}: {bad} passed", family.name);
            }
        }
    }
}
