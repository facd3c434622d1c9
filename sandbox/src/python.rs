//! Python candidates: CPython 3.14 compiled to a WASI component by componentize-py, with
//! the trusted harness `python/app.py` (interface `python/harness.wit`) baked in.
//!
//! Build chain, all cached under the sandbox cache dir and done once per machine:
//! venv with `componentize-py==0.25.1` → `harness-<hash>.wasm` (≈15 s) →
//! `harness-<hash>-<engine>.cwasm` via `precompile_component` → `deserialize_file` (ms).
//!
//! Each candidate gets a fresh instance: `load(src, entry)` once, then `call(args)` per case.
//! Fuel and the epoch deadline are reset before each call. A trap kills the instance, so
//! the remaining cases get a new instance (and the source is loaded again).
//!
//! Values cross the boundary as JSON in a tagged encoding (see `python/app.py`):
//! tuples are `{"$tuple": [...]}`, ints beyond ±2^63 are `{"$int": "digits"}` and
//! nan/±inf are `{"$float": "nan"|"inf"|"-inf"}`, dicts with a non-str key are
//! `{"$dict": [[k, v], …]}` (arguments may use it for any dict, to keep key order).
//!
//! The guest has no filesystem: candidates can import only the stdlib modules that
//! `app.py` imports at build time (math, re, collections, itertools, hashlib, …).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use serde_json::Value;
use wasmtime::Store;
use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::cache::{self, BuildLock};
use crate::engine::{Sandbox, SandboxInner};
use crate::equality::Equality;
use crate::error::SandboxError;
use crate::limits::{Limits, MemoryLimiter};
use crate::outcome::{CaseOutcome, RunReport, TestCase, Verdict, truncate};
use crate::sealed_wasi::{Captured, sealed_wasi};
use crate::toolchain::which;
use crate::trap::classify_trap;

/// The pinned builder; keep in sync with `setup.sh`.
pub const COMPONENTIZE_PY_VERSION: &str = "0.25.1";
const APP_PY: &str = include_str!("../python/app.py");
const WIRE_PY: &str = include_str!("../python/harness_wire.py");
const HARNESS_WIT: &str = include_str!("../python/harness.wit");

pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        world: "harness",
        path: "python/harness.wit",
    });
}
use bindings::{Harness, HarnessPre, LoadError};

/// The harness component, linked and ready to instantiate (built once per Sandbox).
type HarnessPreloaded = HarnessPre<PyState>;

/// Store data of one Python instance.
pub(crate) struct PyState {
    pub(crate) wasi: WasiCtx,
    pub(crate) table: ResourceTable,
    pub(crate) limiter: MemoryLimiter,
}

impl WasiView for PyState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// The Python runtime: the precompiled harness component, ready to instantiate.
/// Cheap to clone; get it from [`Sandbox::python`].
#[derive(Clone)]
pub struct PythonRuntime {
    pub(crate) sandbox: Arc<SandboxInner>,
    pub(crate) pre: HarnessPre<PyState>,
}

impl Sandbox {
    /// The Python runtime, building and caching the component on first use (needs
    /// `python3` with `venv` once, and network for `pip` unless `sandbox/setup.sh python`
    /// already ran). Later calls in this process return the same runtime.
    pub fn python(&self) -> Result<PythonRuntime, SandboxError> {
        let pre = self.inner.built_once(|| PythonRuntime::load(&self.inner))?;
        Ok(PythonRuntime {
            sandbox: self.inner.clone(),
            pre,
        })
    }
}

/// An instance with a candidate loaded; dropped after a trap.
struct Loaded {
    store: Store<PyState>,
    harness: Harness,
    captured: Captured,
}

impl PythonRuntime {
    /// Loads the cached compiled harness, building whatever is missing.
    fn load(sandbox: &SandboxInner) -> Result<HarnessPreloaded, SandboxError> {
        let engine = &sandbox.engine;
        let dir = sandbox.cache_dir.join("python");
        let src_key = cache::content_hash(&[
            COMPONENTIZE_PY_VERSION.as_bytes(),
            HARNESS_WIT.as_bytes(),
            APP_PY.as_bytes(),
            WIRE_PY.as_bytes(),
        ]);
        let src_key = &src_key[..16];
        let cwasm = dir.join(format!(
            "harness-{src_key}-{}.cwasm",
            cache::engine_key(engine)
        ));
        // SAFETY: the .cwasm files are written only by this function (from our own
        // precompile) into the user's cache dir; deserialize also checks the engine
        // compatibility header and we rebuild when it refuses.
        let from_cache = || unsafe { Component::deserialize_file(engine, &cwasm) };
        let component = match cwasm.exists().then(from_cache) {
            Some(Ok(c)) => c,
            _ => {
                let _lock = BuildLock::acquire(&dir)?;
                // Another process may have finished the build while we waited.
                if let Ok(c) = from_cache() {
                    return link(engine, &c);
                }
                let wasm = dir.join(format!("harness-{src_key}.wasm"));
                if !wasm.exists() {
                    build_component(&sandbox.cache_dir, &wasm)?;
                }
                let bytes = std::fs::read(&wasm).map_err(|e| SandboxError::io(&wasm, e))?;
                let compiled = engine
                    .precompile_component(&bytes)
                    .map_err(SandboxError::engine)?;
                cache::write_atomic(&cwasm, &compiled)?;
                from_cache().map_err(SandboxError::engine)?
            }
        };
        link(engine, &component)
    }

    /// Runs `src`'s function `entry` on every argument list in `cases` (each a JSON array)
    /// and reports what each call produced. Nothing is compared here.
    pub fn run_cases(
        &self,
        src: &str,
        entry: &str,
        cases: &[Value],
        limits: &Limits,
    ) -> Result<RunReport, SandboxError> {
        let args = encode_cases(cases.iter())?;
        let mut outcomes = Vec::with_capacity(cases.len());
        let (stdout, stderr) = self.run(src, entry, &args, limits, |_, outcome| {
            outcomes.push(outcome);
            ControlFlow::Continue(())
        })?;
        Ok(RunReport {
            outcomes,
            stdout,
            stderr,
        })
    }

    /// Runs the candidate against `tests` and compares on the host type-exactly (see
    /// `compare_outputs`); stops at the first failing case.
    pub fn judge(
        &self,
        src: &str,
        entry: &str,
        tests: &[TestCase],
        limits: &Limits,
        float_tol: f64,
    ) -> Result<Verdict, SandboxError> {
        self.judge_by(src, entry, tests, limits, float_tol, Equality::Exact)
    }

    /// [`PythonRuntime::judge`] under a comparison policy (see [`Equality`]).
    pub fn judge_by(
        &self,
        src: &str,
        entry: &str,
        tests: &[TestCase],
        limits: &Limits,
        float_tol: f64,
        equality: Equality,
    ) -> Result<Verdict, SandboxError> {
        if tests.is_empty() {
            // A verdict over no cases would pass anything, syntax errors included.
            return Err(SandboxError::InvalidInput("no test cases to judge".into()));
        }
        let args = encode_cases(tests.iter().map(|t| &t.args))?;
        let mut verdict = Verdict::Passed;
        self.run(
            src,
            entry,
            &args,
            limits,
            |case, outcome| match Verdict::of_case_by(
                case,
                &outcome,
                &tests[case].expected,
                float_tol,
                equality,
            ) {
                Some(v) => {
                    verdict = v;
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            },
        )?;
        Ok(verdict)
    }

    /// The per-case loop shared by `run_cases` and `judge`; returns (stdout, stderr) of
    /// the last instance.
    fn run(
        &self,
        src: &str,
        entry: &str,
        args: &[String],
        limits: &Limits,
        mut on_case: impl FnMut(usize, CaseOutcome) -> ControlFlow<()>,
    ) -> Result<(String, String), SandboxError> {
        let _slot = self.sandbox.acquire_slot();
        let mut case = 0;
        let mut texts = (String::new(), String::new());
        'instances: while case < args.len() {
            let mut loaded = match self.instantiate_and_load(src, entry, limits)? {
                Ok(loaded) => loaded,
                Err((failure, captured)) => {
                    // Loading is deterministic: every remaining case fails the same way.
                    texts = captured.texts();
                    while case < args.len() {
                        if on_case(case, failure.clone()).is_break() {
                            break;
                        }
                        case += 1;
                    }
                    break;
                }
            };
            while case < args.len() {
                let (outcome, instance_dead) = loaded.call(&args[case], limits, &self.sandbox);
                texts = loaded.captured.texts();
                let stop = on_case(case, outcome).is_break();
                case += 1;
                if stop {
                    break 'instances;
                }
                if instance_dead {
                    continue 'instances;
                }
            }
        }
        Ok(texts)
    }

    /// A fresh instance with the candidate loaded, or the outcome that loading gave.
    #[allow(clippy::type_complexity)]
    fn instantiate_and_load(
        &self,
        src: &str,
        entry: &str,
        limits: &Limits,
    ) -> Result<Result<Loaded, (CaseOutcome, Captured)>, SandboxError> {
        let (mut wasi, captured) = sealed_wasi(limits, b"", &[]);
        let state = PyState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(self.sandbox.memory_cap(limits)),
        };
        let mut store = Store::new(&self.sandbox.engine, state);
        store.limiter(|s| &mut s.limiter);
        // Instantiating the trusted, pre-initialised harness is not the candidate's cost.
        store.set_fuel(u64::MAX).map_err(SandboxError::engine)?;
        store.set_epoch_deadline(self.sandbox.epoch_ticks(60_000));
        let harness = match self.pre.instantiate(&mut store) {
            Ok(h) => h,
            // Too little memory for CPython itself is the caller's limit, not a host bug.
            Err(_) if store.data().limiter.refused => {
                return Ok(Err((CaseOutcome::OutOfMemory, captured)));
            }
            Err(e) => return Err(SandboxError::engine(e)),
        };
        arm(&mut store, limits, &self.sandbox)?;
        let failure = match harness.call_load(&mut store, src, entry) {
            Ok(Ok(())) => {
                if captured.overflowed() {
                    CaseOutcome::OutputLimit
                } else {
                    return Ok(Ok(Loaded {
                        store,
                        harness,
                        captured,
                    }));
                }
            }
            Ok(Err(LoadError::Syntax(msg) | LoadError::MissingEntry(msg))) => {
                CaseOutcome::CompileError(truncate(&msg, 2000))
            }
            Ok(Err(LoadError::Raised(msg))) => {
                python_error(msg, store.data().limiter.refused, &captured)
            }
            Err(trap) => classify_trap(&trap, store.data().limiter.refused, &captured),
        };
        Ok(Err((failure, captured)))
    }
}

impl Loaded {
    /// Calls the entry point once; the bool says whether the instance must be replaced.
    fn call(&mut self, args: &str, limits: &Limits, sandbox: &SandboxInner) -> (CaseOutcome, bool) {
        if let Err(e) = arm(&mut self.store, limits, sandbox) {
            return (CaseOutcome::RuntimeError(e.to_string()), true);
        }
        let refused = |s: &Store<PyState>| s.data().limiter.refused;
        match self.harness.call_call(&mut self.store, args) {
            Err(trap) => {
                let outcome = classify_trap(&trap, refused(&self.store), &self.captured);
                (outcome, true)
            }
            Ok(_) if self.captured.overflowed() => (CaseOutcome::OutputLimit, true),
            Ok(Err(msg)) => (
                python_error(msg, refused(&self.store), &self.captured),
                false,
            ),
            Ok(Ok(json)) if json.len() > limits.output_bytes => (CaseOutcome::OutputLimit, false),
            Ok(Ok(json)) => match serde_json::from_str::<Value>(&json) {
                Ok(v) => (CaseOutcome::Returned(v), false),
                // Only a tampered harness emits invalid JSON; it gains nothing but an error.
                Err(e) => (
                    CaseOutcome::RuntimeError(format!("harness returned invalid JSON: {e}")),
                    false,
                ),
            },
        }
    }
}

/// Links the harness against WASI p2 (with the sealed context of each store).
fn link(
    engine: &wasmtime::Engine,
    component: &Component,
) -> Result<HarnessPreloaded, SandboxError> {
    let mut linker = Linker::<PyState>::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(SandboxError::engine)?;
    crate::no_sleep::component(&mut linker)?;
    linker
        .instantiate_pre(component)
        .and_then(HarnessPre::new)
        .map_err(SandboxError::engine)
}

/// Resets the per-call budgets: fuel and the wall-clock deadline.
pub(crate) fn arm(
    store: &mut Store<PyState>,
    limits: &Limits,
    sandbox: &SandboxInner,
) -> Result<(), SandboxError> {
    store.set_fuel(limits.fuel).map_err(SandboxError::engine)?;
    store.set_epoch_deadline(sandbox.epoch_ticks(limits.wall_ms));
    Ok(())
}

/// An exception text from the harness as an outcome.
pub(crate) fn python_error(msg: String, limiter_refused: bool, captured: &Captured) -> CaseOutcome {
    if msg.starts_with("MemoryError") || (limiter_refused && msg.contains("MemoryError")) {
        CaseOutcome::OutOfMemory
    } else if captured.overflowed() {
        CaseOutcome::OutputLimit
    } else {
        CaseOutcome::RuntimeError(truncate(&msg, 2000))
    }
}

fn encode_cases<'a>(cases: impl Iterator<Item = &'a Value>) -> Result<Vec<String>, SandboxError> {
    cases
        .enumerate()
        .map(|(i, args)| match args {
            Value::Array(_) => Ok(args.to_string()),
            _ => Err(SandboxError::InvalidInput(format!(
                "case {i}: arguments must be a JSON array, got {args}"
            ))),
        })
        .collect()
}

/// Runs componentize-py on the embedded harness sources, writing `out`.
fn build_component(cache_dir: &Path, out: &Path) -> Result<(), SandboxError> {
    let tool = find_or_install_componentize_py(cache_dir)?;
    let work = tempfile::tempdir_in(out.parent().unwrap_or(cache_dir))
        .map_err(|e| SandboxError::io(cache_dir, e))?;
    let dir = work.path();
    for (name, text) in [
        ("app.py", APP_PY),
        ("harness_wire.py", WIRE_PY),
        ("harness.wit", HARNESS_WIT),
    ] {
        std::fs::write(dir.join(name), text).map_err(|e| SandboxError::io(dir.join(name), e))?;
    }
    let built = dir.join("harness.wasm");
    let output = Command::new(&tool)
        .current_dir(dir)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args([
            "-d",
            "harness.wit",
            "-w",
            "harness",
            "componentize",
            "app",
            "-o",
        ])
        .arg(&built)
        .output()
        .map_err(|e| SandboxError::io(&tool, e))?;
    if !output.status.success() {
        return Err(SandboxError::Build {
            what: "the Python harness component (componentize-py)".into(),
            detail: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    let bytes = std::fs::read(&built).map_err(|e| SandboxError::io(&built, e))?;
    cache::write_atomic(out, &bytes)
}

/// `$VERIGYM_COMPONENTIZE_PY`, else the venv that `setup.sh python` makes, created here
/// (python3 -m venv + pip install) when missing.
fn find_or_install_componentize_py(cache_dir: &Path) -> Result<PathBuf, SandboxError> {
    if let Some(tool) = std::env::var_os("VERIGYM_COMPONENTIZE_PY") {
        return Ok(PathBuf::from(tool));
    }
    let venv = cache_dir.join(format!("componentize-py-{COMPONENTIZE_PY_VERSION}"));
    let tool = venv.join("bin").join("componentize-py");
    if tool.exists() {
        return Ok(tool);
    }
    let missing = |tool: &str, install: &str| SandboxError::ToolchainMissing {
        tool: tool.into(),
        install: install.into(),
    };
    let python = which("python3").ok_or_else(|| {
        missing(
            "python3",
            "install Python 3 with venv (Debian: `apt-get install python3 python3-venv`), \
             then run `sandbox/setup.sh python`",
        )
    })?;
    let run = |cmd: &mut Command, what: &str| -> Result<(), SandboxError> {
        let out = cmd.output().map_err(|e| SandboxError::io(what, e))?;
        if out.status.success() {
            return Ok(());
        }
        Err(SandboxError::Build {
            what: what.into(),
            detail: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    };
    run(
        Command::new(&python).arg("-m").arg("venv").arg(&venv),
        "python3 -m venv",
    )
    .map_err(|e| {
        missing(
            "python3-venv",
            &format!("`python3 -m venv` failed ({e}); Debian: `apt-get install python3-venv`"),
        )
    })?;
    run(
        Command::new(venv.join("bin").join("python"))
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .arg(format!("componentize-py=={COMPONENTIZE_PY_VERSION}")),
        "pip install componentize-py (needs network once; or run sandbox/setup.sh python)",
    )?;
    Ok(tool)
}
