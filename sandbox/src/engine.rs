//! The process-wide wasmtime engine: configuration, the epoch ticker, the instance gate,
//! and the cache of runtimes built once per sandbox. The per-run pieces live beside it:
//! budgets in `limits`, the sealed WASI context in `sealed_wasi`, trap classification in
//! `trap`.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

use crate::error::SandboxError;
use crate::limits::Limits;

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
    /// What runtimes build once per sandbox (e.g. the linked Python harness, not the
    /// runtime itself: that holds an Arc to us), one value per type, so that the engine
    /// needs to know none of them.
    built: Mutex<HashMap<TypeId, Box<dyn Any + Send>>>,
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
                built: Mutex::new(HashMap::new()),
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

    /// This sandbox's `T`, built by `build` on first use. Callers wait while another
    /// builds, so a `T` is built once per sandbox; a failed build is retried next time.
    pub(crate) fn built_once<T: Clone + Send + 'static>(
        &self,
        build: impl FnOnce() -> Result<T, SandboxError>,
    ) -> Result<T, SandboxError> {
        let mut built = self.built.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(value) = built
            .get(&TypeId::of::<T>())
            .and_then(|b| b.downcast_ref::<T>())
        {
            return Ok(value.clone());
        }
        let value = build()?;
        built.insert(TypeId::of::<T>(), Box::new(value.clone()));
        Ok(value)
    }
}
