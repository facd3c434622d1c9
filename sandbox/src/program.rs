//! Whole C and C++ programs on stdin/stdout: compiled by the confined clang
//! ([`crate::compiler`]) to a WASI p1 command, then run once per input, each in a fresh
//! instance with the input as stdin (a regular file to `fstat`, see
//! [`crate::stdin_file`]), under fuel, the memory cap and the output cap.
//!
//! Compiled programs are not cached on disk (RL candidates are nearly all distinct, and a
//! C++ module is ~1.5 MB): each `compile` call compiles.

use std::sync::Arc;

use wasmtime::{InstancePre, Linker, Module, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

use crate::compiler::{Clang, CompileError, Dialect, INSTALL_C, Toolchain};
use crate::cpp_prelude::{CppPrelude, pch_refused};
use crate::engine::SandboxInner;
use crate::limits::{Limits, MemoryLimiter};
use crate::outcome::truncate;
use crate::sealed_wasi::sealed_wasi;
use crate::source_check::{PROGRAM_POLICY, check_source};
use crate::stdin_file::StdinFile;
use crate::stdio_outcome::{StdioOutcome, ended_by, finished};
use crate::{Sandbox, SandboxError};

/// The shadow stack in linear memory (clang's `-z stack-size`); Linux's default 8 MiB.
/// Recursion depth is also bounded by wasmtime's own stack for wasm frames.
const STACK_BYTES: usize = 8 << 20;

pub(crate) struct ProgramState {
    wasi: WasiP1Ctx,
    limiter: MemoryLimiter,
    stdin_len: u64,
}

impl StdinFile for ProgramState {
    fn stdin_len(&self) -> u64 {
        self.stdin_len
    }
    fn wasi(&mut self) -> &mut WasiP1Ctx {
        &mut self.wasi
    }
}

/// A compiled program, linked and ready to instantiate.
pub(crate) struct Prepared(InstancePre<ProgramState>);

/// Compiles and runs whole programs of one dialect.
pub(crate) struct ProgramRuntime {
    sandbox: Arc<SandboxInner>,
    toolchain: Toolchain,
    linker: Linker<ProgramState>,
    flags: Vec<String>,
    /// C++ only: `<bits/stdc++.h>` and its precompiled form.
    prelude: Option<CppPrelude>,
}

impl ProgramRuntime {
    /// Locates the toolchain and proves it works (and is confined) with a test compile.
    pub(crate) fn new(sandbox: &Sandbox, dialect: Dialect) -> Result<ProgramRuntime, SandboxError> {
        let toolchain = Toolchain::locate(dialect)?;
        let mut linker = Linker::<ProgramState>::new(&sandbox.inner.engine);
        wasmtime_wasi::p1::add_to_linker_sync(&mut linker, |s| &mut s.wasi)
            .map_err(SandboxError::engine)?;
        crate::no_sleep::core(&mut linker)?;
        crate::stdin_file::core(&mut linker)?;
        let mut flags = Vec::new();
        let prelude = match dialect {
            Dialect::C => None,
            Dialect::Cpp => {
                let prelude = CppPrelude::prepare(&sandbox.inner, &toolchain, &flags)?;
                flags.extend([
                    "-isystem".to_string(),
                    prelude.include_dir().display().to_string(),
                ]);
                Some(prelude)
            }
        };
        flags.extend([
            "-Wl,--stack-first".to_string(),
            format!("-Wl,-z,stack-size={STACK_BYTES}"),
            "-lm".to_string(),
        ]);
        let rt = ProgramRuntime {
            sandbox: sandbox.inner.clone(),
            toolchain,
            linker,
            flags,
            prelude,
        };
        let smoke = match dialect {
            Dialect::C => "#include <stdio.h>\nint main(void) { puts(\"ok\"); return 0; }\n",
            Dialect::Cpp => "#include <bits/stdc++.h>\nint main() { std::cout << \"ok\\n\"; }\n",
        };
        match rt.compile(smoke)? {
            Ok(_) => Ok(rt),
            Err(msg) => Err(SandboxError::ToolchainMissing {
                tool: format!("a working {} wasm32-wasi toolchain", dialect.extension()),
                install: format!(
                    "{INSTALL_C}; a test compile said: {}",
                    truncate(&msg.to_string(), 500)
                ),
            }),
        }
    }

    /// Checks and compiles `src`; `Err(msg)` is the program's compile error.
    pub(crate) fn compile(
        &self,
        src: &str,
    ) -> Result<Result<Prepared, CompileError>, SandboxError> {
        if let Err(refused) = check_source(src, &PROGRAM_POLICY) {
            return Ok(Err(refused.into()));
        }
        let name = format!("program.{}", self.toolchain.dialect.extension());
        let units = [(name.as_str(), src)];
        let mut built = None;
        if let Some(prelude) = &self.prelude {
            let read = [prelude.include_dir().to_path_buf()];
            let pch = prelude.flags_for(src);
            if !pch.is_empty() {
                let mut flags = pch;
                flags.extend(self.flags.iter().cloned());
                match self.toolchain.run(&units, &flags, &read)? {
                    Clang::Rejected(msg) if pch_refused(&msg) => {}
                    other => built = Some(other),
                }
            }
            if built.is_none() {
                built = Some(self.toolchain.run(&units, &self.flags, &read)?);
            }
        }
        let built = match built {
            Some(b) => b,
            None => self.toolchain.run(&units, &self.flags, &[])?,
        };
        let wasm = match built {
            Clang::Built(wasm) => wasm,
            Clang::Rejected(msg) => return Ok(Err(CompileError::Rejected(msg))),
            Clang::TimedOut(msg) => return Ok(Err(CompileError::TimedOut(msg))),
        };
        let module = match Module::new(&self.sandbox.engine, &wasm) {
            Ok(m) => m,
            Err(e) => return Ok(Err(CompileError::Wasm(e.to_string()))),
        };
        match self.linker.instantiate_pre(&module) {
            Ok(pre) => Ok(Ok(Prepared(pre))),
            // e.g. an import wasi-libc does not provide: the program's problem.
            Err(e) => Ok(Err(CompileError::Link(e.to_string()))),
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
            stdin_len: input.len() as u64,
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
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        Ok(match result {
            Ok(()) => finished(&captured, fuel_used),
            Err(e) => ended_by(&e, refused, &captured, fuel_used),
        })
    }
}
