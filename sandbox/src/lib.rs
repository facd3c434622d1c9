//! verigym's WASM sandbox for untrusted code: wasmtime 48 with fuel (deterministic budget),
//! epoch interruption (wall-clock backstop), a memory cap, captured and capped output, no
//! filesystem / network / environment, and a fresh instance for every candidate.
//!
//! # Guide
//!
//! ```no_run
//! use serde_json::json;
//! use verigym_sandbox::{Limits, Sandbox, SandboxConfig, TestCase, Verdict};
//!
//! // One per process; share it (it is Clone + Send + Sync).
//! let sandbox = Sandbox::new(SandboxConfig::default())?;
//! // Builds the CPython component on first use (cached), then loads it in milliseconds.
//! let python = sandbox.python()?;
//! let tests = [
//!     TestCase { args: json!([2, 3]), expected: json!(5) },
//!     TestCase { args: json!([-1, 1]), expected: json!(0) },
//! ];
//! let verdict = python.judge("def add(a, b):\n    return a + b\n", "add", &tests,
//!                            &Limits::default(), 1e-9)?;
//! assert_eq!(verdict, Verdict::Passed);
//! # Ok::<(), verigym_sandbox::SandboxError>(())
//! ```
//!
//! * [`PythonRuntime::judge`] runs the candidate and compares on the host, stopping at the
//!   first failing case; [`PythonRuntime::run_cases`] only reports what each case returned
//!   (e.g. to record a reference solution's outputs as expected values).
//! * [`CRuntime`] does the same for C: the candidate defines one function with a declared
//!   [`CSignature`]; a generated trusted `main` passes the arguments and prints the result.
//! * [`compare_outputs`] is the type-exact comparison (`1` ≠ `1.0` ≠ `true`, tuples ≠
//!   lists, floats within a stated tolerance).
//! * Values are JSON with four reserved single-key tags (see [`python`]): `{"$tuple": […]}`,
//!   `{"$int": "…"}` (beyond ±2^63), `{"$float": "nan"|"inf"|"-inf"}` and
//!   `{"$dict": [[k, v], …]}` (non-str keys; in arguments also to keep key order).
//! * [`Limits`] are per case (fuel, wall time) and per candidate instance (memory, output).
//!   Outcomes: [`CaseOutcome`] per case, [`Verdict`] per candidate; host-side problems
//!   (missing toolchain, bad input, cache I/O) are [`SandboxError`]s instead.
//! * [`StdioJudge`] runs whole programs (Python, C, C++) on stdin/stdout tests, as
//!   competitive-programming data sets state them, and compares their output on the host
//!   token by token ([`compare_stdout`]); see [`stdio`].
//! * Threads: runtimes are `Clone + Send + Sync`, but wasmtime instances scale poorly across
//!   threads of one process (page-fault contention); for throughput run one process per core.
//!
//! # Trust model
//!
//! Expected outputs never enter the sandbox. The guest reports only "the candidate returned
//! this plain value" (None/bool/int/float/str/list/tuple/dict of exact built-in types) and
//! the host compares. Exit codes and printed text never decide anything: exiting with
//! code 0 is a runtime error. Tampering with the in-guest harness (frame walking,
//! monkeypatching) can at most forge a returned value, which the candidate could return
//! anyway, and it does not know the expected one. Each candidate gets a fresh instance, so
//! nothing leaks between candidates or tasks. (A whole Python program runs its tests one
//! after another in its instance, each run with fresh globals and standard streams, while
//! the harness finds the interpreter as a fresh one would start; a failure there is
//! decided by a fresh instance. See [`stdio`].)
//!
//! Determinism: fuel decides (bit-for-bit reproducible); clocks are fixed/stepping and
//! "random" bytes are a fixed sequence, so the same candidate always gets the same outcome.
//! Only [`CaseOutcome::Timeout`] (wall clock) can vary; keep `wall_ms` generous.
//!
//! The C/C++ compiler runs on the host, so it is confined too (see `compiler.rs`): a text
//! check refuses inline assembly, non-standard includes, `#embed` and the like, and clang
//! runs in a sealed filesystem view (user + mount namespace) holding only its installation,
//! the WASI sysroot, the host libraries it links against and its work directory, under
//! Linux Landlock inside that view. Without unprivileged namespaces or Landlock, C and C++
//! give [`SandboxError::Confinement`] (no verdict), never a less confined compile.
//!
//! # Setup
//!
//! `sandbox/setup.sh` installs the C/C++ toolchain (Debian packages) and the
//! componentize-py venv; the Python component and the compiled code are then built offline on first use and
//! cached in `$VERIGYM_CACHE_DIR` (default `$XDG_CACHE_HOME/verigym` or `~/.cache/verigym`).

mod cache;
mod cmain;
mod compiler;
mod confine;
mod cpp_prelude;
mod cruntime;
mod engine;
mod equality;
mod error;
mod limits;
mod no_sleep;
mod outcome;
mod program;
pub mod python;
mod python_stdio;
#[cfg(target_os = "linux")]
mod sealed_view;
#[cfg(all(test, target_os = "linux"))]
mod sealed_view_tests;
mod sealed_wasi;
mod source_check;
mod stdin_file;
pub mod stdio;
mod stdio_compare;
mod stdio_outcome;
mod stdio_pipes;
mod toolchain;
mod trap;

pub use cruntime::{CRuntime, CSignature, CType};
pub use engine::{Sandbox, SandboxConfig};
pub use equality::{Equality, compare_outputs, compare_values};
pub use error::SandboxError;
pub use limits::Limits;
pub use outcome::{CaseOutcome, RunReport, TestCase, Verdict, judge_outcomes};
pub use python::PythonRuntime;
pub use stdio::{
    JudgeOptions, Language, StdioJudge, StdioJudgement, StdioOutcome, StdioTest, StdioVerdict,
    stdio_limits,
};
pub use stdio_compare::{DEFAULT_FLOAT_TOLERANCE, Mismatch, OutputComparison, compare_stdout};
