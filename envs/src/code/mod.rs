//! Code envs: the agent writes a function, the WASM sandbox runs it on hidden tests.
//!
//! - [`humaneval`]: `code/humaneval-v2`, the 164 HumanEval problems.
//! - [`functions`]: `code/functions-v2`, procedurally generated function-synthesis tasks
//!   from the [`families`] (12 families, hidden random tests per task and seed).
//! - [`functions_c`]: `code/functions-c-v2`, the integer families in C (clang → WASI).
//! - [`functions_cpp`]: `code/functions-cpp-v1`, the same tasks in C++ (clang++, libc++).
//! - [`repl`]: `code/repl-v2`, multi-turn: run code, see its output, then submit.
//! - [`sql_query`]: `code/sql-query-v1`, one SQL query answering a question about a
//!   generated database, run by `tools/sql-db`'s engine (no sandbox needed).
//! - [`output_prediction`]: `code/output-prediction-v1`, the value one call of a generated
//!   function returns, read as a Python literal and compared by value.
//! - [`input_prediction`]: `code/input-prediction-v1`, arguments on which a generated
//!   function returns a given value, run by its mirror or in the sandbox.
//! - [`repair`]: `code/repair-v1`, fix a seeded bug in a generated function shown with a
//!   failing test, judged on hidden tests in the sandbox.
//! - [`regex_extract`]: `code/regex-extract-v1`, a regular expression extracting one
//!   field from generated records, run by the `regex` crate on hidden records.
//! - [`mutants`]: mutation testing of hidden tests (the families' CI check, the importer's
//!   weak-test report).
//!
//! All of them share one process-wide sandbox ([`crate::sandboxed`]), created lazily on
//! first use. When it cannot be created (or the C toolchain is missing) an answer scores 0
//! with `sandbox_error` set in the breakdown and the reason in the step's events: never a
//! panic.
//!
//! Verification follows the sandbox's trust model: expected outputs stay on the host, the
//! guest only reports plain returned values, the host compares them type-exactly, and every
//! candidate gets a fresh instance.

pub mod dataset;
pub mod families;
pub mod functions;
pub mod functions_c;
pub mod functions_cpp;
pub(crate) mod grade;
pub mod humaneval;
pub mod input_prediction;
pub mod mutants;
pub mod output_prediction;
pub mod regex_extract;
pub mod repair;
pub mod repl;
pub mod sql_query;

#[cfg(test)]
mod hacks;
