//! The process-wide wasmtime engine: configuration, the epoch ticker, the instance gate,
//! and the per-run store pieces (WASI context without any host access, memory limiter,
//! captured output) shared by the Python and C runtimes.

use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Trap};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

use crate::SandboxError;
use crate::outcome::CaseOutcome;

/// Per-run budgets. Fuel and wall time apply to each case (and to loading the candidate);
/// memory and output to the whole instance of one candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deterministic budget, roughly one unit per wasm instruction. Running out gives
    /// `OutOfFuel`, identically on every run and machine.
    pub fuel: u64,
    /// Sum of all linear memories of the instance, in bytes (clamped to
    /// [`SandboxConfig::max_memory_bytes`]).
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

/// Engine-wide settings, fixed for the life of a [`Sandbox`].
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Instances that may exist at once (pool slots); further runs wait for a free slot.
    pub max_concurrent: usize,
    /// Largest linear memory any instance may have; the pool reserves address space for it.
    pub max_memory_bytes: usize,
    /// Epoch ticker period; `Limits::wall_ms` is rounded up to whole ticks.
    pub epoch_tick_ms: u64,
    /// Where built components, compiled code and C binaries are cached. `None`:
    /// `$VERIGYM_CACHE_DIR`, else `$XDG_CACHE_HOME/verigym`, else `$HOME/.cache/verigym`.
    pub cache_dir: Option<PathBuf>,
    /// Use the pooling instance allocator (fast fresh instances); off = on-demand mmap.
    pub pooling: bool,
    /// Bytes of each freed linear memory that stay mapped and are reset by copying back
    /// the pages the instance wrote (found with `PAGEMAP_SCAN` where the kernel has it),
    /// instead of being unmapped and faulted in again by the next instance. Tuning:
    /// `$VERIGYM_SANDBOX_KEEP_RESIDENT_MB`.
    pub keep_resident_bytes: usize,
    /// Native stack wasm may use (wasmtime's `max_wasm_stack`); wasm runs on the calling
    /// thread, whose stack must be larger. Default 512 KiB, safe on any thread; the
    /// stdin/stdout judge uses a deep-stack sibling engine on threads of its own.
    pub max_wasm_stack: usize,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        SandboxConfig {
            max_concurrent: (2 * cores).max(4),
            max_memory_bytes: 1 << 30,
            epoch_tick_ms: 10,
            cache_dir: None,
            pooling: true,
            keep_resident_bytes: std::env::var("VERIGYM_SANDBOX_KEEP_RESIDENT_MB")
                .ok()
                .and_then(|v| v.parse::<usize>().ok())
                .map_or(16 << 20, |mb| mb << 20),
            max_wasm_stack: 512 << 10,
        }
    }
}

/// One wasmtime engine plus its epoch ticker thread. Create one per process and share it
/// (it is `Send + Sync`; runtimes keep it alive). The ticker stops when the last handle
/// (this or a runtime) is dropped.
#[derive(Clone)]
pub struct Sandbox {
    pub(crate) inner: Arc<SandboxInner>,
}

pub(crate) struct SandboxInner {
    pub(crate) engine: Engine,
    pub(crate) config: SandboxConfig,
    pub(crate) cache_dir: PathBuf,
    gate: InstanceGate,
    ticker: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
    /// The loaded Python harness (not the runtime itself: that holds an Arc to us).
    pub(crate) python: Mutex<Option<crate::python::HarnessPreloaded>>,
}

impl Drop for SandboxInner {
    fn drop(&mut self) {
        if let Some((stop, thread)) = self.ticker.lock().map(|mut t| t.take()).ok().flatten() {
            drop(stop); // disconnects the channel: the ticker's recv_timeout returns at once
            let _ = thread.join();
        }
    }
}

impl Sandbox {
    /// Builds the engine (fuel, epochs, pooling allocator) and starts the epoch ticker.
    pub fn new(config: SandboxConfig) -> Result<Sandbox, SandboxError> {
        let engine = Engine::new(&engine_config(&config)).map_err(SandboxError::engine)?;
        let cache_dir = config.cache_dir.clone().unwrap_or_else(default_cache_dir);
        let (stop, ticks) = mpsc::channel::<()>();
        let tick = Duration::from_millis(config.epoch_tick_ms.max(1));
        let weak_engine = engine.weak();
        let thread = std::thread::Builder::new()
            .name("verigym-epoch".into())
            .spawn(move || {
                while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(tick) {
                    match weak_engine.upgrade() {
                        Some(engine) => engine.increment_epoch(),
                        None => break,
                    }
                }
            })
            .map_err(|e| SandboxError::Engine(format!("spawning the epoch ticker: {e}")))?;
        Ok(Sandbox {
            inner: Arc::new(SandboxInner {
                engine,
                gate: InstanceGate::new(config.max_concurrent.max(1)),
                config,
                cache_dir,
                ticker: Mutex::new(Some((stop, thread))),
                python: Mutex::new(None),
            }),
        })
    }

    /// The underlying engine (e.g. to compile your own modules with the same settings).
    pub fn engine(&self) -> &Engine {
        &self.inner.engine
    }

    /// The cache directory this sandbox uses.
    pub fn cache_dir(&self) -> &std::path::Path {
        &self.inner.cache_dir
    }
}

fn engine_config(config: &SandboxConfig) -> Config {
    let mut c = Config::new();
    c.consume_fuel(true);
    c.epoch_interruption(true);
    c.memory_init_cow(true);
    // 512 KiB by default: wasm runs on the calling thread's stack, and Rust's default
    // 2 MiB threads must not overflow natively.
    c.max_wasm_stack(config.max_wasm_stack);
    // wasmtime requires the (unused: no async) fiber stack to be at least as large.
    if config.max_wasm_stack > 1 << 20 {
        c.async_stack_size(config.max_wasm_stack + (1 << 20));
    }
    if config.pooling {
        let slots = config.max_concurrent.max(1) as u32;
        let mut pool = PoolingAllocationConfig::default();
        // A componentize-py component holds a few dozen core instances and ~10 memories;
        // these bounds are per component, the totals scale with the slots.
        pool.total_component_instances(slots)
            .max_core_instances_per_component(64)
            .max_memories_per_component(16)
            .max_tables_per_component(16)
            .total_core_instances(slots * 64)
            .total_memories(slots * 16)
            .total_tables(slots * 16)
            .total_stacks(slots)
            .max_memory_size(config.max_memory_bytes)
            .table_elements(100_000)
            .max_core_instance_size(8 << 20)
            .max_component_instance_size(1 << 20)
            // Keep the first pages of each freed memory mapped: most of CPython's heap is
            // rewritten by the next instance anyway, and madvise+refault costs more.
            .linear_memory_keep_resident(config.keep_resident_bytes)
            .table_keep_resident(1 << 20)
            // Linux ≥ 6.7: reset only the pages actually touched (falls back when absent).
            .pagemap_scan(wasmtime::Enabled::Auto);
        c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    c
}

fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("VERIGYM_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("verigym");
    }
    match std::env::var_os("HOME") {
        Some(home) => PathBuf::from(home).join(".cache").join("verigym"),
        None => std::env::temp_dir().join("verigym-cache"),
    }
}

/// Bounds live instances to the pool size so that a burst of runs waits instead of failing
/// with "pool exhausted".
struct InstanceGate {
    free: Mutex<usize>,
    freed: Condvar,
}

pub(crate) struct GatePermit<'a>(&'a InstanceGate);

impl InstanceGate {
    fn new(slots: usize) -> Self {
        InstanceGate {
            free: Mutex::new(slots),
            freed: Condvar::new(),
        }
    }

    fn acquire(&self) -> GatePermit<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        GatePermit(self)
    }
}

impl Drop for GatePermit<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
}

impl SandboxInner {
    pub(crate) fn acquire_slot(&self) -> GatePermit<'_> {
        self.gate.acquire()
    }

    /// Epoch ticks for a wall-clock budget, rounded up, plus one for the partial tick.
    pub(crate) fn epoch_ticks(&self, wall_ms: u64) -> u64 {
        wall_ms.div_ceil(self.config.epoch_tick_ms.max(1)) + 1
    }

    pub(crate) fn memory_cap(&self, limits: &Limits) -> usize {
        limits.memory_bytes.min(self.config.max_memory_bytes)
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

/// Captured stdout/stderr of one instance.
#[derive(Clone)]
pub(crate) struct Captured {
    pub(crate) stdout: MemoryOutputPipe,
    pub(crate) stderr: MemoryOutputPipe,
    cap: usize,
}

impl Captured {
    /// True once either stream has been filled to its cap (later writes were refused).
    pub(crate) fn overflowed(&self) -> bool {
        self.stdout.contents().len() >= self.cap || self.stderr.contents().len() >= self.cap
    }

    pub(crate) fn texts(&self) -> (String, String) {
        let text = |p: &MemoryOutputPipe| String::from_utf8_lossy(&p.contents()).into_owned();
        (text(&self.stdout), text(&self.stderr))
    }
}

/// A WASI context with no filesystem, network, environment or host randomness, and
/// deterministic clocks and random bytes, so the same candidate always behaves the same.
pub(crate) fn sealed_wasi(
    limits: &Limits,
    stdin: &[u8],
    args: &[String],
) -> (WasiCtxBuilder, Captured) {
    // At least one byte: a zero-capacity pipe would count as overflowed before any write.
    let cap = limits.output_bytes.max(1);
    let captured = Captured {
        stdout: MemoryOutputPipe::new(cap),
        stderr: MemoryOutputPipe::new(cap),
        cap,
    };
    let mut b = WasiCtxBuilder::new();
    b.stdin(MemoryInputPipe::new(stdin.to_vec()))
        .stdout(captured.stdout.clone())
        .stderr(captured.stderr.clone())
        .args(args)
        .secure_random(wasmtime_wasi::Deterministic::new(fixed_random_bytes()))
        .insecure_random(wasmtime_wasi::Deterministic::new(fixed_random_bytes()))
        .insecure_random_seed(0x5eed)
        .wall_clock(FixedWallClock)
        .monotonic_clock(SteppingClock::default())
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    (b, captured)
}

/// 4 KiB of SplitMix64 output from a fixed seed, cycled: deterministic "randomness".
fn fixed_random_bytes() -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut out = Vec::with_capacity(4096);
    while out.len() < 4096 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// Wall clock frozen at 2025-01-01T00:00:00Z.
struct FixedWallClock;

impl HostWallClock for FixedWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }
    fn now(&self) -> Duration {
        Duration::from_secs(1_735_689_600)
    }
}

/// Monotonic clock that advances 1 µs per reading: time-based loops still end (and fuel
/// bounds them anyway) while every run sees the same sequence.
#[derive(Default)]
struct SteppingClock(std::sync::atomic::AtomicU64);

impl HostMonotonicClock for SteppingClock {
    fn resolution(&self) -> u64 {
        1_000
    }
    fn now(&self) -> u64 {
        self.0
            .fetch_add(1_000, std::sync::atomic::Ordering::Relaxed)
            + 1_000
    }
}

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

/// Cuts `s` to at most `max` bytes on a char boundary.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}
