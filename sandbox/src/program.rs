//! Whole C and C++ programs on stdin/stdout: compiled by the confined clang
//! ([`crate::compiler`]) to a WASI p1 command, then run once per input, each in a fresh
//! instance with the input as stdin, under fuel, the memory cap and the output cap.
//!
//! Compiled programs are not cached on disk (RL candidates are nearly all distinct, and a
//! C++ module is ~1.5 MB): each `compile` call compiles.

use std::path::PathBuf;
use std::sync::Arc;

use wasmtime::{InstancePre, Linker, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

use crate::compiler::{Clang, Dialect, INSTALL_C, Toolchain};
use crate::engine::{Limits, MemoryLimiter, SandboxInner, sealed_wasi, truncate};
use crate::source_check::{PROGRAM_POLICY, check_source};
use crate::stdio::{StdioOutcome, ended_by, finished};
use crate::{Sandbox, SandboxError, cache};

/// The shadow stack in linear memory (clang's `-z stack-size`); Linux's default 8 MiB.
/// Recursion depth is also bounded by wasmtime's own stack for wasm frames.
const STACK_BYTES: usize = 8 << 20;

/// `<bits/stdc++.h>` (a GNU libstdc++ header most competitive C++ includes): every
/// standard header libc++ provides for wasm32-wasi.
const BITS_STDCXX: &str = include_str!("../cpp/bits/stdc++.h");

pub(crate) struct ProgramState {
    wasi: WasiP1Ctx,
    limiter: MemoryLimiter,
}

/// A compiled program, linked and ready to instantiate.
pub(crate) struct Prepared(InstancePre<ProgramState>);

/// Compiles and runs whole programs of one dialect.
pub(crate) struct ProgramRuntime {
    sandbox: Arc<SandboxInner>,
    toolchain: Toolchain,
    linker: Linker<ProgramState>,
    flags: Vec<String>,
    /// Extra read-only paths for clang (the C++ include directory).
    read_also: Vec<PathBuf>,
}

impl ProgramRuntime {
    /// Locates the toolchain and proves it works (and is confined) with a test compile.
    pub(crate) fn new(sandbox: &Sandbox, dialect: Dialect) -> Result<ProgramRuntime, SandboxError> {
        let toolchain = Toolchain::locate(dialect)?;
        let mut linker = Linker::<ProgramState>::new(&sandbox.inner.engine);
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s| &mut s.wasi)
            .map_err(SandboxError::engine)?;
        crate::no_sleep::core(&mut linker)?;
        let mut flags = vec![
            "-Wl,--stack-first".to_string(),
            format!("-Wl,-z,stack-size={STACK_BYTES}"),
            "-lm".to_string(),
        ];
        let mut read_also = Vec::new();
        if dialect == Dialect::Cpp {
            let include = sandbox.inner.cache_dir.join("cpp-include");
            let header = include.join("bits").join("stdc++.h");
            if std::fs::read_to_string(&header).ok().as_deref() != Some(BITS_STDCXX) {
                cache::write_atomic(&header, BITS_STDCXX.as_bytes())?;
            }
            flags.push("-isystem".into());
            flags.push(include.display().to_string());
            read_also.push(include);
        }
        let rt = ProgramRuntime {
            sandbox: sandbox.inner.clone(),
            toolchain,
            linker,
            flags,
            read_also,
        };
        let smoke = match dialect {
            Dialect::C => "#include <stdio.h>\nint main(void) { puts(\"ok\"); return 0; }\n",
            Dialect::Cpp => "#include <bits/stdc++.h>\nint main() { std::cout << \"ok\\n\"; }\n",
        };
        match rt.compile(smoke)? {
            Ok(_) => Ok(rt),
            Err(msg) => Err(SandboxError::ToolchainMissing {
                tool: format!("a working {} wasm32-wasi toolchain", dialect.extension()),
                install: format!("{INSTALL_C}; a test compile said: {}", truncate(&msg, 500)),
            }),
        }
    }

    /// Checks and compiles `src`; `Err(msg)` is the program's compile error.
    pub(crate) fn compile(&self, src: &str) -> Result<Result<Prepared, String>, SandboxError> {
        if let Err(msg) = check_source(src, &PROGRAM_POLICY) {
            return Ok(Err(msg));
        }
        let name = format!("program.{}", self.toolchain.dialect.extension());
        let wasm = match self
            .toolchain
            .run(&[(&name, src)], &self.flags, &self.read_also)?
        {
            Clang::Built(wasm) => wasm,
            Clang::Rejected(msg) | Clang::TimedOut(msg) => return Ok(Err(msg)),
        };
        let module = match Module::new(&self.sandbox.engine, &wasm) {
            Ok(m) => m,
            Err(e) => return Ok(Err(format!("wasm compilation failed: {e}"))),
        };
        match self.linker.instantiate_pre(&module) {
            Ok(pre) => Ok(Ok(Prepared(pre))),
            // e.g. an import wasi-libc does not provide: the program's problem.
            Err(e) => Ok(Err(format!("linking failed: {e}"))),
        }
    }

    /// Runs a compiled program on `input` in a fresh instance.
    pub(crate) fn run(
        &self,
        program: &Prepared,
        input: &[u8],
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        let _slot = self.sandbox.acquire_slot();
        let (mut wasi, captured) = sealed_wasi(limits, input, &["program".to_string()]);
        let state = ProgramState {
            wasi: wasi.build_p1(),
            limiter: MemoryLimiter::new(self.sandbox.memory_cap(limits)),
        };
        let mut store = Store::new(&self.sandbox.engine, state);
        store.limiter(|s| &mut s.limiter);
        store.set_fuel(limits.fuel).map_err(SandboxError::engine)?;
        store.set_epoch_deadline(self.sandbox.epoch_ticks(limits.wall_ms));
        let result = program.0.instantiate(&mut store).and_then(|instance| {
            let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
            start.call(&mut store, ())
        });
        let refused = store.data().limiter.refused;
        Ok(match result {
            Ok(()) => finished(&captured),
            Err(e) => ended_by(&e, refused, &captured),
        })
    }
}
