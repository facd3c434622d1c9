//! C and C++ candidates: compiled on the host by Debian's clang-19 + wasi-libc (and libc++)
//! to a WASI p1 core module (the confined compiler of [`crate::compiler`], cached by content
//! hash), then run like Python under fuel, epochs and the memory cap, one fresh instance
//! per case.
//!
//! Convention: the candidate defines one function with the task's [`CSignature`]; a
//! generated, trusted `main` (in its own translation unit) parses the arguments from argv,
//! calls it, and prints the result as one JSON line behind a marker on stdout. Stdout is
//! data, not a verdict: the host parses that line and compares; exit codes never count.

use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::Value;
use wasmtime::{Linker, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

use crate::cache;
use crate::cmain::{RESULT_MARKER, SignatureError};
use crate::compiler::{Clang, CompileError, Dialect, INSTALL_C, Toolchain};
use crate::cpp_prelude::{CppPrelude, pch_refused};
use crate::engine::{Sandbox, SandboxInner};
use crate::error::SandboxError;
use crate::limits::{Limits, MemoryLimiter};
use crate::outcome::{CaseOutcome, RunReport, TestCase, Verdict, truncate};
use crate::sealed_wasi::sealed_wasi;
use crate::source_check::{FUNCTION_POLICY, PROGRAM_POLICY, check_source};
use crate::trap::classify_trap;

pub use crate::cmain::{CSignature, CType};

/// Flags after the dialect's base flags (see [`crate::compiler`]).
const FUNCTION_FLAGS: &[&str] = &[
    // Stack below the data: an overflow traps instead of silently corrupting globals.
    "-Wl,--stack-first",
    "-Wl,-z,stack-size=1048576",
    "-lm",
];

struct CState {
    wasi: WasiP1Ctx,
    limiter: MemoryLimiter,
}

/// The function runtime of one language: a located clang and a WASI p1 linker. Get it
/// from [`Sandbox::c`] or [`Sandbox::cpp`].
#[derive(Clone)]
pub struct CRuntime {
    sandbox: Arc<SandboxInner>,
    toolchain: Arc<Toolchain>,
    linker: Arc<Linker<CState>>,
    /// C++ only: `<bits/stdc++.h>` (most C++ starts with it) and its precompiled form,
    /// which every C++ compile includes (≈0.2 CPU-s instead of ≈1.9 for the headers).
    prelude: Option<Arc<CppPrelude>>,
}

impl Sandbox {
    /// The C runtime, or [`SandboxError::ToolchainMissing`] saying what to install, or
    /// [`SandboxError::Confinement`] where the compiler cannot be confined.
    pub fn c(&self) -> Result<CRuntime, SandboxError> {
        self.functions(Dialect::C)
    }

    /// The C++ runtime (C++20, libc++, no exceptions): the candidate defines the function
    /// with the C++ form of the [`CSignature`] (`std::vector<int64_t>` for a list,
    /// `std::string` for a string). Errors as [`Sandbox::c`].
    pub fn cpp(&self) -> Result<CRuntime, SandboxError> {
        self.functions(Dialect::Cpp)
    }

    fn functions(&self, dialect: Dialect) -> Result<CRuntime, SandboxError> {
        let toolchain = Toolchain::locate(dialect)?;
        let mut linker = Linker::<CState>::new(&self.inner.engine);
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s| &mut s.wasi)
            .map_err(SandboxError::engine)?;
        crate::no_sleep::core(&mut linker)?;
        let prelude = match dialect {
            Dialect::C => None,
            // The same flags as whole programs, so both share one cached PCH.
            Dialect::Cpp => Some(Arc::new(CppPrelude::prepare(&self.inner, &toolchain, &[])?)),
        };
        let rt = CRuntime {
            sandbox: self.inner.clone(),
            toolchain: Arc::new(toolchain),
            linker: Arc::new(linker),
            prelude,
        };
        // Smoke test, uncached: a half-installed toolchain (e.g. no wasm32 compiler-rt)
        // would otherwise fail every candidate with a "compile error" that gets cached.
        let sig = CSignature {
            name: "f".into(),
            params: vec![],
            ret: CType::Int,
        };
        let body = match dialect {
            Dialect::C => "int64_t f(void) { return 1; }",
            Dialect::Cpp => "int64_t f() { return std::vector<int64_t>{1}.size(); }",
        };
        match rt.clang(&sig.candidate_unit(dialect, body), &sig.main_unit(dialect))? {
            Clang::Built(_) => Ok(rt),
            Clang::Rejected(msg) | Clang::TimedOut(msg) => Err(SandboxError::ToolchainMissing {
                tool: format!(
                    "a working clang wasm32-wasi {} toolchain",
                    dialect.extension()
                ),
                install: format!("{INSTALL_C}; a test compile said: {}", truncate(&msg, 500)),
            }),
        }
    }
}

impl CRuntime {
    /// Compiles `src` (cached) and runs it on every argument list in `cases`.
    pub fn run_cases(
        &self,
        src: &str,
        sig: &CSignature,
        cases: &[Value],
        limits: &Limits,
    ) -> Result<RunReport, SandboxError> {
        let argvs = cases
            .iter()
            .enumerate()
            .map(|(i, args)| sig.argv(args).map_err(|e| invalid_case(i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut outcomes = Vec::with_capacity(cases.len());
        let texts = self.run(src, sig, &argvs, limits, |_, outcome| {
            outcomes.push(outcome);
            ControlFlow::Continue(())
        })?;
        Ok(RunReport {
            outcomes,
            stdout: texts.0,
            stderr: texts.1,
        })
    }

    /// Compiles and runs `src` against `tests`, comparing on the host; stops at the first
    /// failing case.
    pub fn judge(
        &self,
        src: &str,
        sig: &CSignature,
        tests: &[TestCase],
        limits: &Limits,
        float_tol: f64,
    ) -> Result<Verdict, SandboxError> {
        if tests.is_empty() {
            return Err(SandboxError::InvalidInput("no test cases to judge".into()));
        }
        let argvs = tests
            .iter()
            .enumerate()
            .map(|(i, t)| sig.argv(&t.args).map_err(|e| invalid_case(i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut verdict = Verdict::Passed;
        self.run(
            src,
            sig,
            &argvs,
            limits,
            |case, outcome| match Verdict::of_case(case, &outcome, &tests[case].expected, float_tol)
            {
                Some(v) => {
                    verdict = v;
                    ControlFlow::Break(())
                }
                None => ControlFlow::Continue(()),
            },
        )?;
        Ok(verdict)
    }

    fn run(
        &self,
        src: &str,
        sig: &CSignature,
        argvs: &[Vec<String>],
        limits: &Limits,
        mut on_case: impl FnMut(usize, CaseOutcome) -> ControlFlow<()>,
    ) -> Result<(String, String), SandboxError> {
        let pre = match self.compile(src, sig)? {
            Ok(module) => self
                .linker
                .instantiate_pre(&module)
                .map_err(SandboxError::engine)?,
            Err(msg) => {
                for case in 0..argvs.len() {
                    if on_case(case, CaseOutcome::CompileError(msg.to_string())).is_break() {
                        break;
                    }
                }
                return Ok((String::new(), String::new()));
            }
        };
        let _slot = self.sandbox.acquire_slot();
        let mut texts = (String::new(), String::new());
        for (case, argv) in argvs.iter().enumerate() {
            let (mut wasi, captured) = sealed_wasi(limits, b"", argv);
            let state = CState {
                wasi: wasi.build_p1(),
                limiter: MemoryLimiter::new(self.sandbox.memory_cap(limits)),
            };
            let mut store = Store::new(&self.sandbox.engine, state);
            store.limiter(|s| &mut s.limiter);
            store.set_fuel(limits.fuel).map_err(SandboxError::engine)?;
            store.set_epoch_deadline(self.sandbox.epoch_ticks(limits.wall_ms));
            let result = pre.instantiate(&mut store).and_then(|instance| {
                let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
                start.call(&mut store, ())
            });
            let refused = store.data().limiter.refused;
            let outcome = match result {
                Err(e) => classify_trap(&e, refused, &captured),
                Ok(()) if captured.overflowed() => CaseOutcome::OutputLimit,
                Ok(()) => parse_result(&captured.stdout.contents()),
            };
            texts = captured.texts();
            if on_case(case, outcome).is_break() {
                break;
            }
        }
        Ok(texts)
    }

    /// The compiled module for `src`, or the compiler's complaint. Both clang's output and
    /// wasmtime's compiled code are cached by content hash.
    fn compile(
        &self,
        src: &str,
        sig: &CSignature,
    ) -> Result<Result<Module, CompileError>, SandboxError> {
        let dialect = self.toolchain.dialect;
        // C++ candidates may include any standard header (`<bits/stdc++.h>` too).
        let policy = match dialect {
            Dialect::C => &FUNCTION_POLICY,
            Dialect::Cpp => &PROGRAM_POLICY,
        };
        if let Err(refused) = check_source(src, policy) {
            return Ok(Err(refused.into()));
        }
        let candidate = sig.candidate_unit(dialect, src);
        let main = sig.main_unit(dialect);
        let mut flags = dialect.base_flags();
        flags.extend(FUNCTION_FLAGS.iter().map(|f| f.to_string()));
        let flags = flags.join(" ");
        let key = cache::content_hash(&[
            self.toolchain.version.as_bytes(),
            flags.as_bytes(),
            candidate.as_bytes(),
            main.as_bytes(),
        ]);
        let engine = &self.sandbox.engine;
        let dir = self.sandbox.cache_dir.join(dialect.extension());
        let cwasm = dir.join(format!(
            "{}-{}.cwasm",
            &key[..24],
            cache::engine_key(engine)
        ));
        let err_file = dir.join(format!("{}.err", &key[..24]));
        if let Ok(msg) = std::fs::read_to_string(&err_file) {
            return Ok(Err(CompileError::Rejected(msg)));
        }
        // SAFETY: written by this function from our own precompile; rebuilt if refused.
        if let Ok(module) = unsafe { Module::deserialize_file(engine, &cwasm) } {
            return Ok(Ok(module));
        }
        let wasm = match self.clang(&candidate, &main)? {
            Clang::Built(wasm) => wasm,
            Clang::Rejected(msg) => {
                cache::write_atomic(&err_file, msg.as_bytes())?;
                return Ok(Err(CompileError::Rejected(msg)));
            }
            // Not cached: a slow compile may be the machine's load, not the source.
            Clang::TimedOut(msg) => return Ok(Err(CompileError::TimedOut(msg))),
        };
        let compiled = match engine.precompile_module(&wasm) {
            Ok(c) => c,
            Err(e) => return Ok(Err(CompileError::Wasm(e.to_string()))),
        };
        cache::write_atomic(&cwasm, &compiled)?;
        // SAFETY: as above; the bytes were produced by this engine a moment ago.
        let module = unsafe { Module::deserialize(engine, &compiled) };
        Ok(Ok(module.map_err(SandboxError::engine)?))
    }

    /// Runs the confined clang on the two translation units (in C++ with the prelude's
    /// header directory and, unless clang refuses it, its precompiled form).
    fn clang(&self, candidate: &str, main: &str) -> Result<Clang, SandboxError> {
        let ext = self.toolchain.dialect.extension();
        let names = (format!("candidate.{ext}"), format!("main.{ext}"));
        let units = [(names.0.as_str(), candidate), (names.1.as_str(), main)];
        let mut flags: Vec<String> = FUNCTION_FLAGS.iter().map(|f| f.to_string()).collect();
        let Some(prelude) = &self.prelude else {
            return self.toolchain.run(&units, &flags, &[]);
        };
        let read = [prelude.include_dir().to_path_buf()];
        flags.extend([
            "-isystem".to_string(),
            prelude.include_dir().display().to_string(),
        ]);
        let mut with_pch = prelude.always_flags();
        if !with_pch.is_empty() {
            with_pch.extend(flags.iter().cloned());
            match self.toolchain.run(&units, &with_pch, &read)? {
                Clang::Rejected(msg) if pch_refused(&msg) => {}
                built => return Ok(built),
            }
        }
        self.toolchain.run(&units, &flags, &read)
    }
}

fn invalid_case(i: usize, e: SignatureError) -> SandboxError {
    SandboxError::InvalidInput(format!("case {i}: {e}"))
}

/// The one marker line the trusted `main` prints; anything else on stdout is the
/// candidate's own output and is ignored. Two marker lines (a candidate forging one) or
/// none (the candidate exited early) are errors.
fn parse_result(stdout: &[u8]) -> CaseOutcome {
    let text = String::from_utf8_lossy(stdout);
    let mut found = text.lines().filter_map(|l| l.strip_prefix(RESULT_MARKER));
    match (found.next(), found.next()) {
        (Some(json), None) => match serde_json::from_str::<Value>(json) {
            Ok(v) => CaseOutcome::Returned(v),
            Err(e) => CaseOutcome::RuntimeError(format!("unreadable result ({e})")),
        },
        (None, _) => CaseOutcome::RuntimeError("no result printed".into()),
        (Some(_), Some(_)) => CaseOutcome::RuntimeError("more than one result line".into()),
    }
}
