//! Whole Python programs on stdin/stdout: the harness component's `run-main` export in a
//! fresh instance per run, the test's input as WASI stdin, stdout captured under the cap.

use wasmtime::Store;
use wasmtime::component::ResourceTable;

use crate::SandboxError;
use crate::limits::{Limits, MemoryLimiter};
use crate::outcome::truncate;
use crate::python::bindings::LoadError;
use crate::python::{PyState, PythonRuntime, arm, python_error};
use crate::sealed_wasi::sealed_wasi;
use crate::stdio_outcome::{StdioOutcome, ended_by, finished, from_case};

impl PythonRuntime {
    /// Runs `src` as `__main__` with `input` on stdin in a fresh instance.
    pub(crate) fn run_program(
        &self,
        src: &str,
        input: &[u8],
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        let _slot = self.sandbox.acquire_slot();
        let (mut wasi, captured) = sealed_wasi(limits, input, &[]);
        let state = PyState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(self.sandbox.memory_cap(limits)),
        };
        let mut store = Store::new(&self.sandbox.engine, state);
        store.limiter(|s| &mut s.limiter);
        // Instantiating the trusted, pre-initialised harness is not the program's cost.
        store.set_fuel(u64::MAX).map_err(SandboxError::engine)?;
        store.set_epoch_deadline(self.sandbox.epoch_ticks(60_000));
        let harness = match self.pre.instantiate(&mut store) {
            Ok(h) => h,
            Err(_) if store.data().limiter.refused => return Ok(StdioOutcome::MemoryLimit),
            Err(e) => return Err(SandboxError::engine(e)),
        };
        arm(&mut store, limits, &self.sandbox)?;
        let result = harness.call_run_main(&mut store, src);
        let refused = store.data().limiter.refused;
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        Ok(match result {
            Ok(Ok(())) => finished(&captured, fuel_used),
            Ok(Err(LoadError::Syntax(msg) | LoadError::MissingEntry(msg))) => {
                StdioOutcome::CompileError(truncate(&msg, 2000))
            }
            Ok(Err(LoadError::Raised(msg))) => {
                from_case(python_error(msg, refused, &captured), &captured)
            }
            Err(trap) => ended_by(&trap, refused, &captured, fuel_used),
        })
    }
}
