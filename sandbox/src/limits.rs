//! The budgets of one run ([`Limits`]) and the store-side enforcement of its memory cap
//! ([`MemoryLimiter`]). Fuel and the wall-clock deadline are set on the store by each
//! runtime before every call.

/// Per-run budgets. Fuel and wall time apply to each case (and to loading the candidate);
/// memory and output to the whole instance of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deterministic budget, roughly one unit per wasm instruction. Running out gives
    /// `OutOfFuel`, identically on every run and machine.
    pub fuel: u64,
    /// Sum of all linear memories of the instance, in bytes (clamped to the sandbox's
    /// `SandboxConfig::max_memory_bytes`).
    pub memory_bytes: usize,
    /// Cap for stdout and for stderr (each), and for one returned value's encoding.
    pub output_bytes: usize,
    /// Wall-clock backstop in milliseconds (epoch interruption). Not deterministic: keep it
    /// well above what `fuel` allows so that fuel decides.
    pub wall_ms: u64,
}

impl Default for Limits {
    /// 2e9 fuel per case (a tight CPython loop burns that in ~0.2 CPU-s; typical code in
    /// 0.2–1 s), 256 MiB, 64 KiB of output, 10 s wall-clock backstop.
    fn default() -> Self {
        Limits {
            fuel: 2_000_000_000,
            memory_bytes: 256 << 20,
            output_bytes: 64 << 10,
            wall_ms: 10_000,
        }
    }
}

/// Caps the *sum* of all linear memories of a store (a component has several) and records
/// whether a growth was refused, so a later trap or MemoryError is reported as OOM.
pub(crate) struct MemoryLimiter {
    cap: usize,
    used: usize,
    pub(crate) refused: bool,
}

impl MemoryLimiter {
    pub(crate) fn new(cap: usize) -> Self {
        MemoryLimiter {
            cap,
            used: 0,
            refused: false,
        }
    }
}

impl wasmtime::ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let grow = desired.saturating_sub(current);
        if self.used.saturating_add(grow) > self.cap {
            self.refused = true;
            return Ok(false);
        }
        self.used += grow;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 1_000_000)
    }
}
