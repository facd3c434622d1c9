//! `code/functions-cpp-v1`: write a C++ function from a generated specification; it is
//! compiled by clang++ (C++20, libc++) to WASI and run in the WASM sandbox on hidden tests.
//!
//! # Task
//! The task of `code/functions-c-v2` (the integer [`families`](super::families) with a C
//! reference, random constants, visible examples, hidden tests with the boundary cases
//! first): the same cards, stated with a C++ prototype, where a list is a
//! `const std::vector<int64_t> &` instead of a pointer and a length.
//!
//! # Action
//! One free-text reply; the code is the last fenced block (```` ```cpp ````) or the whole
//! reply. It must define the function with the stated prototype; any standard header may be
//! included (`<bits/stdc++.h>` too; `<cstdint>`, `<cstddef>`, `<string>` and `<vector>`
//! already are); no `main`.
//!
//! # Observation
//! The prototype, the specification, 2–3 examples (in call notation), the format.
//!
//! # Reward
//! 1 and `passed` when every hidden test returns the expected integer, else 0. Breakdown:
//! `correct`, `format`, `sandbox_error` (e.g. "C toolchain missing: run sandbox/setup.sh",
//! reported in the events).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! As `code/functions-c-v2`: `families` (names with a C reference; empty = all of them),
//! `level`, `examples`, `hidden_tests`.
//!
//! # Seeding
//! As `code/functions-c-v2`.
//!
//! # Version history
//! v1: first version.

use serde_json::{Value, json};
use verigym_sandbox::Verdict;

use super::families::{self, CPart, FnTask};
use super::functions::{FunctionsConfig, PRESETS, examples_text, generate_task, validate_config};
use super::functions_c::judge_in;
use crate::code::grade::grade_code;
use crate::core::{EnvKind, EnvSpec};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{Judged, cpp_runtime};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

/// The C++ function-synthesis [`Question`]; [`FunctionsCpp`] is its env.
pub struct FunctionsCppQuestion;

pub type FunctionsCpp = SingleTurn<FunctionsCppQuestion>;

/// The C++ prototype and reference of a family's C part. A C list parameter
/// `const int64_t *xs, size_t n` becomes `const std::vector<int64_t> &xs`, and the
/// reference's body starts with `const size_t n = xs.size();`, so the C body is the C++
/// body unchanged.
pub(crate) fn cpp_part(c: &CPart) -> (String, String) {
    let Some((head, params)) = c.prototype.split_once('(') else {
        return (c.prototype.clone(), c.reference.clone());
    };
    let params: Vec<&str> = params.trim_end_matches(')').split(", ").collect();
    let mut cpp_params = Vec::new();
    let mut lengths = String::new();
    let mut i = 0;
    while i < params.len() {
        let list = params[i].strip_prefix("const int64_t *");
        let len = params.get(i + 1).and_then(|p| p.strip_prefix("size_t "));
        match (list, len) {
            (Some(list), Some(len)) => {
                cpp_params.push(format!("const std::vector<int64_t> &{list}"));
                lengths.push_str(&format!("    const size_t {len} = {list}.size();\n"));
                i += 2;
            }
            _ => {
                cpp_params.push(params[i].to_string());
                i += 1;
            }
        }
    }
    let prototype = format!("{head}({})", cpp_params.join(", "));
    let body = c
        .reference
        .strip_prefix(c.prototype.as_str())
        .and_then(|rest| rest.strip_prefix(" {\n"))
        .unwrap_or_default();
    let reference = format!("{prototype} {{\n{lengths}{body}");
    (prototype, reference)
}

/// Compiles `code` as C++ to WASI and runs it on the task's hidden tests.
fn judge(task: &FnTask, code: &str) -> Judged {
    judge_in(task, code, cpp_runtime)
}

impl Question for FunctionsCppQuestion {
    type Config = FunctionsConfig;
    type Task = FnTask;

    const SPEC: EnvSpec = EnvSpec {
        id: "code/functions-cpp-v1",
        kind: EnvKind::SingleTurn,
        description: "Write a C++ function (int64_t, std::vector) from a generated spec; compiled to WASI and judged on hidden tests",
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
            "Write a C++ function with this prototype:\n\n    {};\n\n{}\n\n\
             Examples (in call notation):\n{}\nYour function will be run on hidden tests \
             (C++20, no exceptions). <cstdint>, <cstddef>, <string> and <vector> are \
             included; you may include any standard header; do not write main. \
             Reply with the complete function in a ```cpp code block.",
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

    /// The C++ reference (empty for a task without a C part: generation never makes
    /// such a task).
    fn reference(task: &FnTask) -> String {
        task.c.as_ref().map_or_else(String::new, |c| cpp_part(c).1)
    }

    /// Whether `answer` (the code itself) passes every hidden test.
    fn check(task: &FnTask, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)? == Verdict::Passed)
    }

    /// The code is the last fenced block; clang++ and the sandbox judge it once.
    fn grade(task: &FnTask, reply: &str) -> Graded {
        grade_code(reply, |code| judge(task, code))
    }

    fn oracle(task: &FnTask) -> Option<String> {
        let c = task.c.as_ref()?;
        Some(format!("```cpp\n{}```", cpp_part(c).1))
    }

    fn random_answer(rng: &mut Rng) -> String {
        rng.range_i64(-20, 20).to_string()
    }
}

/// The C++ prototype, empty for a task without a C part.
fn prototype(task: &FnTask) -> String {
    task.c.as_ref().map_or_else(String::new, |c| cpp_part(c).0)
}

#[cfg(test)]
#[path = "functions_cpp_tests.rs"]
mod tests;
