//! What one run of a stdin/stdout program gave ([`StdioOutcome`]), read off the run's
//! end: a normal return, a WASI exit, a trap or a limit. Shared by the C/C++ programs and
//! the Python stdio runner.

use serde::{Deserialize, Serialize};

use crate::outcome::{CaseOutcome, truncate};
use crate::sealed_wasi::Captured;
use crate::trap::classify_trap;

/// What one run of a program on one input gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StdioOutcome {
    /// The program ended with exit status 0; its output, to be compared, and the fuel
    /// it burnt (deterministic: the same on every run and machine).
    Exited {
        stdout: String,
        stderr: String,
        fuel_used: u64,
    },
    /// Uncaught exception, nonzero exit status, trap (including stack exhaustion).
    RuntimeError { msg: String, stderr: String },
    /// The source does not compile (every run of it gives the same).
    CompileError(String),
    /// The fuel budget ran out.
    TimeLimit,
    /// The memory cap was hit.
    MemoryLimit,
    /// stdout or stderr went past the output cap.
    OutputLimit,
    /// The wall-clock backstop fired before the fuel ran out (nondeterministic).
    WallTimeout,
}

/// The outcome of a run that returned normally (or exited with status 0).
pub(crate) fn finished(captured: &Captured, fuel_used: u64) -> StdioOutcome {
    if captured.overflowed() {
        return StdioOutcome::OutputLimit;
    }
    let (stdout, stderr) = captured.texts();
    StdioOutcome::Exited {
        stdout,
        stderr,
        fuel_used,
    }
}

/// The outcome of a run that ended in an error from wasmtime: an exit (status 0 is a
/// normal end), a trap, or a limit.
pub(crate) fn ended_by(
    err: &wasmtime::Error,
    refused: bool,
    captured: &Captured,
    fuel_used: u64,
) -> StdioOutcome {
    if !captured.overflowed()
        && let Some(exit) = err.downcast_ref::<wasmtime_wasi::I32Exit>()
    {
        if exit.0 == 0 {
            return finished(captured, fuel_used);
        }
        return StdioOutcome::RuntimeError {
            msg: format!("exit status {}", exit.0),
            stderr: captured.texts().1,
        };
    }
    from_case(classify_trap(err, refused, captured), captured)
}

/// A function-call outcome (from the shared trap/exception classification) as a program
/// outcome.
pub(crate) fn from_case(outcome: CaseOutcome, captured: &Captured) -> StdioOutcome {
    match outcome {
        CaseOutcome::RuntimeError(msg) => StdioOutcome::RuntimeError {
            msg: truncate(&msg, 2000),
            stderr: captured.texts().1,
        },
        CaseOutcome::CompileError(msg) => StdioOutcome::CompileError(msg),
        CaseOutcome::OutOfFuel => StdioOutcome::TimeLimit,
        CaseOutcome::OutOfMemory => StdioOutcome::MemoryLimit,
        CaseOutcome::OutputLimit => StdioOutcome::OutputLimit,
        CaseOutcome::Timeout => StdioOutcome::WallTimeout,
        CaseOutcome::Returned(_) => StdioOutcome::RuntimeError {
            msg: "internal: a program returned a value".into(),
            stderr: String::new(),
        },
    }
}
