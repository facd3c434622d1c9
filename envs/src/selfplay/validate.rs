//! Checks a proposed Python program in the WASM sandbox: it parses, imports only allowed
//! modules, defines `f`, returns a plain value within fuel and memory on every proposed
//! input, and returns the same values when called again in the same instance (which
//! catches hidden state, clocks and random numbers: the sandbox itself is deterministic
//! across instances, so a second instance would not).
//!
//! The static check runs a trusted checker (Python's own `ast` module) in its own
//! instance with the proposal as a string argument: the proposal is parsed there, never
//! executed. Nothing of the proposal is evaluated on the host.

use serde_json::Value;
use verigym_sandbox::{CaseOutcome, Limits, compare_outputs};

use super::Rejection;
use crate::sandboxed::{SandboxedError, python};

/// Modules a proposal may import: pure computation, deterministic. Everything else
/// (os, sys, subprocess, random, time, socket, importlib, builtins, inspect, ...) is
/// refused.
pub const ALLOWED_MODULES: &[&str] = &[
    "math",
    "itertools",
    "functools",
    "collections",
    "heapq",
    "bisect",
    "string",
    "re",
    "operator",
    "fractions",
    "statistics",
    "copy",
    "typing",
];

/// Longest program accepted.
pub const MAX_PROGRAM_BYTES: usize = 4_000;
/// Longest output (tagged JSON) a task may have: the solver must be able to write it.
pub const MAX_OUTPUT_BYTES: usize = 2_000;

/// The trusted static checker. Returns "" or the reason; builtins that reach outside the
/// program (`__import__`, `eval`, `exec`, `open`, `getattr`, ...) and dunder attributes
/// (frame and class walking) are refused as well as imports off the allowlist.
const CHECKER: &str = r#"
import ast

ALLOWED = set(ALLOWED_LIST.split())
BANNED_NAMES = {"__import__", "eval", "exec", "compile", "open", "input", "breakpoint",
                "globals", "locals", "vars", "getattr", "setattr", "delattr", "exit",
                "quit", "help", "memoryview", "__builtins__", "id", "hash", "object"}

def check(src):
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        return "syntax: line %s: %s" % (e.lineno, e.msg)
    except Exception as e:
        return "syntax: %s" % type(e).__name__
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root not in ALLOWED:
                    return "import: imports %s" % root
        elif isinstance(node, ast.ImportFrom):
            root = (node.module or "").split(".")[0]
            if node.level or root not in ALLOWED:
                return "import: imports from %s" % (root or "a relative module")
        elif isinstance(node, ast.Name) and node.id in BANNED_NAMES:
            return "builtin: uses %s" % node.id
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            return "builtin: uses the private attribute .%s" % node.attr
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "f":
            return ""
    return "entry: no top-level `def f(...)`"
"#;

/// Budgets for running a proposal: about 50 ms of CPython work per call, 64 MiB.
pub fn proposal_limits() -> Limits {
    Limits {
        fuel: 100_000_000,
        memory_bytes: 64 << 20,
        output_bytes: 16 << 10,
        wall_ms: 10_000,
    }
}

/// Statically checks `program` in the sandbox.
///
/// # Errors
/// The rejection: `syntax`, `import`, `builtin`, `entry`, `too_long`, `sandbox` when the
/// checker ended abnormally on this source, or [`UNJUDGED`](super::UNJUDGED) when the
/// sandbox itself is unavailable or failed (no verdict).
pub fn check_source(program: &str) -> Result<(), Rejection> {
    if program.trim().is_empty() {
        return Err(Rejection::new(
            "no_program",
            "no program: put `def f(...)` in a ```python block",
        ));
    }
    if program.len() > MAX_PROGRAM_BYTES {
        return Err(Rejection::new(
            "too_long",
            format!("program longer than {MAX_PROGRAM_BYTES} bytes: write a shorter f"),
        ));
    }
    let py = python().map_err(Rejection::unjudged)?;
    let checker = CHECKER.replace("ALLOWED_LIST", &format!("{:?}", ALLOWED_MODULES.join(" ")));
    let report = py
        .run_cases(
            &checker,
            "check",
            &[Value::Array(vec![Value::String(program.into())])],
            &proposal_limits(),
        )
        .map_err(|e| Rejection::unjudged(SandboxedError::run(e)))?;
    match report.outcomes.first() {
        Some(CaseOutcome::Returned(Value::String(s))) if s.is_empty() => Ok(()),
        Some(CaseOutcome::Returned(Value::String(s))) => {
            let (code, detail) = s.split_once(": ").unwrap_or(("invalid", s));
            let hint = match code {
                "import" => format!("; allowed modules: {}", ALLOWED_MODULES.join(", ")),
                "builtin" => "; proposals must be plain computations".into(),
                _ => String::new(),
            };
            Err(Rejection::new(code, format!("{detail}{hint}")))
        }
        other => Err(Rejection::new(
            "sandbox",
            format!("the static checker failed: {other:?}"),
        )),
    }
}

/// Runs a statically checked `program` on `inputs` (argument lists) twice in one
/// instance and returns the outputs.
///
/// # Errors
/// `crash`, `fuel`, `memory`, `output`, `not_plain` (returned something other than a
/// plain value), `nondeterministic`, `output_too_large`, or
/// [`UNJUDGED`](super::UNJUDGED) when the sandbox is unavailable or failed (no verdict).
pub fn run_proposal(program: &str, inputs: &[Value]) -> Result<Vec<Value>, Rejection> {
    let py = python().map_err(Rejection::unjudged)?;
    let twice: Vec<Value> = inputs.iter().chain(inputs).cloned().collect();
    let report = py
        .run_cases(program, "f", &twice, &proposal_limits())
        .map_err(|e| Rejection::unjudged(SandboxedError::run(e)))?;
    let mut outputs = Vec::with_capacity(inputs.len());
    for (i, outcome) in report.outcomes.iter().enumerate() {
        let input = i % inputs.len().max(1);
        let value = match outcome {
            CaseOutcome::Returned(v) => v,
            other => return Err(failure(input, other)),
        };
        if i < inputs.len() {
            if value.to_string().len() > MAX_OUTPUT_BYTES {
                return Err(Rejection::new(
                    "output_too_large",
                    format!("f on input {input} returns more than {MAX_OUTPUT_BYTES} bytes"),
                ));
            }
            outputs.push(value.clone());
        } else if !compare_outputs(&outputs[input], value, 0.0) {
            return Err(Rejection::new(
                "nondeterministic",
                format!(
                    "f on input {input} returned {} and then {value}: f must be a pure function \
                     (no hidden state, clock or randomness)",
                    outputs[input]
                ),
            ));
        }
    }
    Ok(outputs)
}

fn failure(input: usize, outcome: &CaseOutcome) -> Rejection {
    let at = format!("f on input {input}");
    match outcome {
        CaseOutcome::OutOfFuel | CaseOutcome::Timeout => Rejection::new(
            "fuel",
            format!("{at} ran out of its time budget (fuel): make f terminate quickly"),
        ),
        CaseOutcome::OutOfMemory => {
            Rejection::new("memory", format!("{at} exceeded the memory limit"))
        }
        CaseOutcome::OutputLimit => {
            Rejection::new("output", format!("{at} printed more than the output limit"))
        }
        CaseOutcome::RuntimeError(msg) if msg.contains("unsupported return type") => {
            Rejection::new(
                "not_plain",
                format!(
                    "{at} returned a value that is not plain (None/bool/int/float/str/list/\
                     tuple/dict of exact built-in types): {}",
                    last_line(msg)
                ),
            )
        }
        CaseOutcome::RuntimeError(msg) | CaseOutcome::CompileError(msg) => {
            Rejection::new("crash", format!("{at} raised: {}", last_line(msg)))
        }
        other => Rejection::new("crash", format!("{at} failed: {other:?}")),
    }
}

fn last_line(text: &str) -> &str {
    let line = text.lines().last().unwrap_or("");
    &line[..line.floor_char_boundary(200)]
}
