//! Whole Python programs on stdin/stdout. One candidate program runs in one instance of the
//! harness component test after test: `prepare-main` and `compile-main` once, then per
//! test `run-compiled` with the test's input refilled on WASI stdin and stdout and stderr
//! emptied ([`Captured::next_run`]), each run with its own fuel and wall-clock budget.
//!
//! An instance runs the next test only when the last run ended normally and the harness's
//! `reset-main` then reports the interpreter as a fresh instance would start (it puts back
//! the standard streams, recursion limit, random and decimal state, gc settings and the
//! caches ordinary use fills, and compares every module namespace, `sys.modules`, the
//! containers of `sys` and `os`, the attributes of every class a module binds, the
//! lists, dicts, sets and deques modules and classes bind, and the attributes of the
//! other objects modules bind, with a record taken before the first run). Otherwise (an exception, an exit status, a
//! trap, a limit, a closed descriptor, a patched builtin or module) the next test gets a
//! fresh instance. The judge re-runs every failing test that ran in a reused instance in
//! a fresh one, so state left by earlier tests never fails a program; and since expected
//! outputs never enter the sandbox, what a program could carry from one test to the next
//! past the check (which runs inside the guest) is at most earlier tests' inputs and work.
//!
//! Fuel: the compile's fuel (deterministic) is charged to every run, so each test has the
//! budget it has in a fresh instance that compiles and runs the program.

use wasmtime::Store;
use wasmtime::component::ResourceTable;

use crate::SandboxError;
use crate::engine::GatePermit;
use crate::limits::{Limits, MemoryLimiter};
use crate::outcome::truncate;
use crate::python::bindings::{Harness, LoadError};
use crate::python::{PyState, PythonRuntime, python_error};
use crate::sealed_wasi::{Captured, sealed_wasi};
use crate::stdio_outcome::{StdioOutcome, ended_by, finished, from_case};

impl PythonRuntime {
    /// Runs `src` as `__main__` with `input` on stdin in a fresh instance.
    pub(crate) fn run_program(
        &self,
        src: &str,
        input: &[u8],
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        self.program(src).run_fresh(input, limits)
    }

    /// `src` ready to run on test after test (see the module docs).
    pub(crate) fn program<'a>(&'a self, src: &'a str) -> PythonProgram<'a> {
        PythonProgram {
            runtime: self,
            src,
            warm: None,
            instances: 0,
            records_retaken: 0,
        }
    }
}

/// One candidate program and the instance that may run its next test.
pub(crate) struct PythonProgram<'a> {
    runtime: &'a PythonRuntime,
    src: &'a str,
    warm: Option<Instance<'a>>,
    instances: usize,
    /// Fresh instances where the build-time record of the interpreter state did not hold
    /// and was taken again (each costs a copy of every module namespace).
    records_retaken: usize,
}

/// An instance with the program compiled, holding its slot of the instance gate.
struct Instance<'a> {
    store: Store<PyState>,
    harness: Harness,
    captured: Captured,
    /// Fuel the compile took, charged to every run.
    compile_fuel: u64,
    _slot: GatePermit<'a>,
}

/// A fresh instance ready to run, or how the program ended before it could.
enum Started<'a> {
    Ready(Instance<'a>),
    Ended(StdioOutcome),
}

impl<'a> PythonProgram<'a> {
    /// Runs the program on `input`, in the instance of the last run when it may be reused,
    /// else in a fresh one; the bool says whether the instance was reused.
    pub(crate) fn run(
        &mut self,
        input: &[u8],
        limits: &Limits,
    ) -> Result<(StdioOutcome, bool), SandboxError> {
        // The reset runs only when there is a next run to start (not after the last).
        if let Some(mut instance) = self.warm.take()
            && self.reset(&mut instance, limits)
        {
            return Ok((self.run_in(instance, input, limits)?, true));
        }
        Ok((self.run_fresh(input, limits)?, false))
    }

    /// Runs the program on `input` in a fresh instance.
    pub(crate) fn run_fresh(
        &mut self,
        input: &[u8],
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        // Give the warm instance's gate slot back before taking one.
        self.warm = None;
        match self.start(input, limits)? {
            Started::Ready(instance) => self.run_in(instance, input, limits),
            Started::Ended(outcome) => Ok(outcome),
        }
    }

    /// How many instances this program has used so far.
    #[cfg(test)]
    pub(crate) fn instances(&self) -> usize {
        self.instances
    }

    /// How many of them had to record the interpreter state again (see `records_retaken`).
    #[cfg(test)]
    pub(crate) fn records_retaken(&self) -> usize {
        self.records_retaken
    }

    /// A fresh instance, prepared for programs, with the program compiled.
    fn start(&mut self, input: &[u8], limits: &Limits) -> Result<Started<'a>, SandboxError> {
        let runtime: &'a PythonRuntime = self.runtime;
        let sandbox = &*runtime.sandbox;
        let slot = sandbox.acquire_slot();
        let (mut wasi, captured) = sealed_wasi(limits, input, &[]);
        let state = PyState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(sandbox.memory_cap(limits)),
        };
        let mut store = Store::new(&sandbox.engine, state);
        store.limiter(|s| &mut s.limiter);
        // Instantiating and preparing the trusted, pre-initialised harness is not the
        // program's cost.
        store.set_fuel(u64::MAX).map_err(SandboxError::engine)?;
        store.set_epoch_deadline(sandbox.epoch_ticks(60_000));
        let harness = match self.runtime.pre.instantiate(&mut store) {
            Ok(h) => h,
            Err(_) if store.data().limiter.refused => {
                return Ok(Started::Ended(StdioOutcome::MemoryLimit));
            }
            Err(e) => return Err(SandboxError::engine(e)),
        };
        self.instances += 1;
        match harness.call_prepare_main(&mut store) {
            Ok(record_held) => self.records_retaken += usize::from(!record_held),
            Err(_) if store.data().limiter.refused => {
                return Ok(Started::Ended(StdioOutcome::MemoryLimit));
            }
            Err(e) => return Err(SandboxError::engine(e)),
        }
        arm(&mut store, limits.fuel, limits, self.runtime)?;
        let result = harness.call_compile_main(&mut store, self.src);
        let refused = store.data().limiter.refused;
        let compile_fuel = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        Ok(Started::Ended(match result {
            Ok(Ok(())) => {
                return Ok(Started::Ready(Instance {
                    store,
                    harness,
                    captured,
                    compile_fuel,
                    _slot: slot,
                }));
            }
            Ok(Err(LoadError::Syntax(msg) | LoadError::MissingEntry(msg))) => {
                StdioOutcome::CompileError(truncate(&msg, 2000))
            }
            Ok(Err(LoadError::Raised(msg))) => {
                from_case(python_error(msg, refused, &captured), &captured)
            }
            Err(trap) => ended_by(&trap, refused, &captured, compile_fuel),
        }))
    }

    /// One run in `inst`, which is kept, to be reset before the next run, when the run
    /// ended normally.
    fn run_in(
        &mut self,
        mut inst: Instance<'a>,
        input: &[u8],
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        inst.captured.next_run(input);
        // A refusal the last run survived (it caught its MemoryError) is not this run's.
        inst.store.data_mut().limiter.refused = false;
        let budget = limits.fuel.saturating_sub(inst.compile_fuel);
        arm(&mut inst.store, budget, limits, self.runtime)?;
        let result = inst
            .harness
            .call_run_compiled(&mut inst.store, input.len() as u64);
        let refused = inst.store.data().limiter.refused;
        let used = budget.saturating_sub(inst.store.get_fuel().unwrap_or(0));
        let fuel_used = inst.compile_fuel + used;
        let ended_normally = matches!(result, Ok(Ok(())));
        let outcome = match result {
            Ok(Ok(())) => finished(&inst.captured, fuel_used),
            Ok(Err(LoadError::Syntax(msg) | LoadError::MissingEntry(msg))) => {
                StdioOutcome::CompileError(truncate(&msg, 2000))
            }
            Ok(Err(LoadError::Raised(msg))) => {
                from_case(python_error(msg, refused, &inst.captured), &inst.captured)
            }
            Err(trap) => ended_by(&trap, refused, &inst.captured, fuel_used),
        };
        if ended_normally && matches!(outcome, StdioOutcome::Exited { .. }) {
            self.warm = Some(inst);
        }
        Ok(outcome)
    }

    /// The harness's reset after a run, on a budget of its own (finalizers of the run's
    /// objects may run in it); false for a no, a trap or an exhausted budget.
    fn reset(&self, inst: &mut Instance<'a>, limits: &Limits) -> bool {
        arm(&mut inst.store, limits.fuel, limits, self.runtime).is_ok()
            && matches!(inst.harness.call_reset_main(&mut inst.store), Ok(true))
    }
}

/// Sets the fuel and the wall-clock deadline for the next call.
fn arm(
    store: &mut Store<PyState>,
    fuel: u64,
    limits: &Limits,
    runtime: &PythonRuntime,
) -> Result<(), SandboxError> {
    store.set_fuel(fuel).map_err(SandboxError::engine)?;
    store.set_epoch_deadline(runtime.sandbox.epoch_ticks(limits.wall_ms));
    Ok(())
}

#[cfg(test)]
#[path = "python_stdio_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "python_judge_tests.rs"]
mod judge_tests;
