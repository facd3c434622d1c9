//! Turning a failed guest call (a wasmtime error: trap, exit, host error) into the
//! [`CaseOutcome`] a candidate is judged on.

use wasmtime::Trap;

use crate::outcome::{CaseOutcome, truncate};
use crate::sealed_wasi::Captured;

/// Maps an error from a guest call to an outcome; `limiter_refused` (a memory growth was
/// denied during this instance's life) turns crashes into OOM.
pub(crate) fn classify_trap(
    err: &wasmtime::Error,
    limiter_refused: bool,
    captured: &Captured,
) -> CaseOutcome {
    // A full output pipe first: a candidate that spams and then spins (writes fail
    // silently in C) is reported for the output, not the fuel it burnt afterwards.
    if captured.overflowed() {
        return CaseOutcome::OutputLimit;
    }
    // Likewise a refused allocation first: C's malloc returns NULL and the candidate may
    // crash or spin on it afterwards.
    if limiter_refused {
        return CaseOutcome::OutOfMemory;
    }
    if let Some(trap) = err.downcast_ref::<Trap>() {
        match trap {
            Trap::OutOfFuel => return CaseOutcome::OutOfFuel,
            Trap::Interrupt => return CaseOutcome::Timeout,
            _ => {}
        }
    }
    if let Some(exit) = err.downcast_ref::<wasmtime_wasi::I32Exit>() {
        // Exiting (with any code, 0 included) is never a pass: the verdict is the value.
        return CaseOutcome::RuntimeError(format!("candidate exited with code {}", exit.0));
    }
    let msg = match err.downcast_ref::<Trap>() {
        Some(trap) => format!("trap: {trap}"),
        None => format!("{err:#}"),
    };
    CaseOutcome::RuntimeError(truncate(&msg, 2000))
}
