//! Whole programs judged on stdin/stdout, as competitive-programming data sets (APPS, TACO,
//! CodeContests, LiveCodeBench) state their tests: Python 3 (CPython 3.14 in the WASM
//! component), C (gnu17) and C++ (gnu++20, libc++, no exceptions) compiled by clang to
//! WASI commands.
//!
//! Each run sees only its test's input on stdin; the expected output stays on the host,
//! which compares what the program printed ([`compare_stdout`]). C and C++ programs run
//! each test in a fresh instance. A Python program runs its tests one after another in one
//! instance while the harness finds the interpreter, after each run, as a fresh instance
//! would start (fresh globals and standard streams each run; the state programs commonly
//! change put back; any other change to a module, `sys` or a standard descriptor ends the
//! reuse); a failing test that ran in a reused instance is run again in a fresh one, and
//! that run decides. Details in `python_stdio`. Nothing else the program does counts: exit status 0 (returning
//! from `main`, `exit(0)`, `sys.exit()`, `quit()`, `os._exit(0)`) only ends the run, and
//! its output is then compared like any other; printing "PASSED" is just wrong output.
//! A nonzero exit status, an uncaught exception or a trap is a runtime error.
//!
//! What programs get, as on open judges:
//! * Python: the standard library modules the harness snapshot holds (no numpy), input via
//!   `input()`, `sys.stdin`, `open(0)` or `os.read(0, …)`; recursion to 10⁶ levels, also
//!   through `functools.lru_cache`/`cache` (replaced by functools' own pure-Python
//!   wrapper: CPython for WASI has a 1 MB C stack); `threading.Thread(target=main).start()`
//!   runs `main` at once (no threads can start; programs use the trick for a bigger
//!   stack, which they have anyway); `sys.argv == [""]` (as for a program read from
//!   stdin) and an empty `os.environ`.
//! * C and C++: the standard headers of wasi-libc and libc++ (and `<bits/stdc++.h>`),
//!   no exceptions, no threads; recursion to ≈10⁶ small frames ([`PROGRAM_WASM_STACK`]
//!   for wasm frames, 8 MiB of stack in linear memory for locals whose address is taken).
//! * Sleeping returns at once and costs fuel; no files, network, processes or environment.
//!
//! # Budgets and their calibration
//!
//! [`Limits`] apply per test: `fuel` (deterministic, ≈ one unit per wasm instruction),
//! `memory_bytes` (all linear memories of the instance; CPython itself takes ≈ 20 MiB of
//! it), `output_bytes` (stdout and stderr each) and `wall_ms` (a backstop only).
//! [`stdio_limits`] turns CPU seconds into fuel at [`Language::fuel_per_cpu_second`]:
//! **Python 7.5 × 10⁹, C and C++ 5 × 10⁹ fuel per CPU-second**, the medians (rounded) of
//! CPU-bound programs measured on this project's 2-core x86-64 development machine
//! (wasmtime 48, cranelift, fuel and epochs on; a busy machine, load ≈ 18) with
//! `cargo bench -p verigym-sandbox --bench stdio -- calibrate` (Δfuel / ΔCPU between a
//! small and a large input; two runs agreed within 10%):
//!
//! | program | Python fuel/CPU-s | × native CPython 3.11 | C/C++ fuel/CPU-s | × native gcc -O2 |
//! |---|---|---|---|---|
//! | arithmetic loop | 7.1e9 | 3.1 | 2.8e9 (C) | 1.1 |
//! | sort | 5.1e9 | 1.9 | 3.6e9 (C qsort), 3.1e9 (C++ std::sort) | 19 (musl's qsort), 1.7 |
//! | dict / map / counting | 7.0e9 | 2.5 | 1.7e10 (C array), 3.6e9 (C++ std::map) | 1.9, 1.3 |
//! | string building | 6.7e9 | 1.8 | 1.2e10 (C sprintf), 8.5e9 (C++ to_string) | 3.9, 2.2 |
//! | function calls | 9.4e9 | 1.5 | 6.8e9 (C recursion) | 3.0 |
//!
//! Fuel per CPU-second varies with the kind of work (×2 for Python, ×6 for C), so a
//! budget in seconds is approximate; fuel itself is exact and reproducible. A data set's
//! native time limit needs a factor for the sandbox (1.5–3× for Python, 1.1–3× for C and
//! C++ in these programs; musl's qsort is far slower than glibc's).

use std::str::FromStr;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::compiler::Dialect;
use crate::limits::Limits;
use crate::program::{Prepared, ProgramRuntime};
use crate::python_stdio::PythonProgram;
use crate::stdio_compare::{Mismatch, OutputComparison, compare_stdout};
pub use crate::stdio_outcome::StdioOutcome;
use crate::{PythonRuntime, Sandbox, SandboxConfig, SandboxError};

/// Native stack for programs' wasm frames: recursion as deep as native judges allow
/// (their stacks are typically 64–256 MB). With wasmtime's default of 512 KiB a C DFS
/// stops between 10⁴ and 5·10⁴ levels, and Python recursion through C code (`lru_cache`)
/// before 10³. Programs therefore run in a sibling engine with this limit, each judge
/// call on a thread of its own with this much stack (plus a margin for the host).
/// This stack is host memory outside [`Limits::memory_bytes`].
pub const PROGRAM_WASM_STACK: usize = 64 << 20;
const HOST_STACK_MARGIN: usize = 8 << 20;

/// A language whole programs may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    Python,
    C,
    Cpp,
}

impl Language {
    /// Fuel one CPU-second of work burns in the sandbox (see the module docs).
    pub fn fuel_per_cpu_second(self) -> u64 {
        match self {
            Language::Python => 7_500_000_000,
            Language::C | Language::Cpp => 5_000_000_000,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::C => "c",
            Language::Cpp => "cpp",
        }
    }
}

impl FromStr for Language {
    type Err = SandboxError;

    /// Accepts the spellings data sets use: `python`, `python3`, `py`, `c`, `cpp`, `c++`,
    /// `cxx`, `cc` (any case).
    fn from_str(s: &str) -> Result<Language, SandboxError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "python" | "python3" | "py" | "py3" => Ok(Language::Python),
            "c" => Ok(Language::C),
            "cpp" | "c++" | "cxx" | "cc" => Ok(Language::Cpp),
            other => Err(SandboxError::InvalidInput(format!(
                "unknown language {other:?}: use python, c or cpp"
            ))),
        }
    }
}

/// Limits for whole programs with `cpu_seconds` of budget per test: fuel at the language's
/// calibrated rate, 256 MiB of memory, 8 MiB of output per stream, and a wall-clock
/// backstop of 10 s plus 20× the budget (fuel decides; the backstop only catches a
/// machine so loaded that it matters).
pub fn stdio_limits(language: Language, cpu_seconds: f64) -> Limits {
    let secs = cpu_seconds.max(0.0);
    Limits {
        fuel: (secs * language.fuel_per_cpu_second() as f64) as u64,
        memory_bytes: 256 << 20,
        output_bytes: 8 << 20,
        wall_ms: 10_000 + (secs * 20_000.0) as u64,
    }
}

/// One stdin/stdout test. Only `input` enters the sandbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StdioTest {
    pub input: String,
    pub expected: String,
}

/// The verdict for a program against its tests; the first failing test decides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StdioVerdict {
    Passed,
    /// Test `test` (0-based) printed something else; `mismatch` says where.
    WrongAnswer {
        test: usize,
        mismatch: Mismatch,
    },
    RuntimeError {
        test: usize,
        msg: String,
    },
    TimeLimit {
        test: usize,
    },
    MemoryLimit {
        test: usize,
    },
    OutputLimit {
        test: usize,
    },
    WallTimeout {
        test: usize,
    },
    CompileError {
        msg: String,
    },
}

impl StdioVerdict {
    /// The failing test, if the verdict names one.
    pub fn test(&self) -> Option<usize> {
        match self {
            StdioVerdict::WrongAnswer { test, .. }
            | StdioVerdict::RuntimeError { test, .. }
            | StdioVerdict::TimeLimit { test }
            | StdioVerdict::MemoryLimit { test }
            | StdioVerdict::OutputLimit { test }
            | StdioVerdict::WallTimeout { test } => Some(*test),
            StdioVerdict::Passed | StdioVerdict::CompileError { .. } => None,
        }
    }
}

/// The result of judging: the verdict plus counts for a breakdown (the share of tests
/// passed is information, never a pass).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StdioJudgement {
    pub verdict: StdioVerdict,
    pub tests_passed: usize,
    pub tests_run: usize,
    pub tests_total: usize,
}

impl StdioJudgement {
    /// True only when every test ran and passed.
    pub fn passed(&self) -> bool {
        self.verdict == StdioVerdict::Passed && self.tests_passed == self.tests_total
    }
}

/// How [`StdioJudge::judge`] compares and when it stops.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct JudgeOptions {
    pub comparison: OutputComparison,
    /// Stop at the first failing test (fast); `false` runs all tests to count how many
    /// pass. The verdict is the same either way.
    pub stop_at_first_failure: bool,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            comparison: OutputComparison::default(),
            stop_at_first_failure: true,
        }
    }
}

/// Runs and judges whole programs. Cheap to clone, `Send + Sync`; the runtimes (the
/// Python component, the C and C++ toolchains) load on first use and stay loaded.
///
/// ```no_run
/// use verigym_sandbox::{JudgeOptions, Language, Sandbox, SandboxConfig, StdioJudge, StdioTest,
///                       stdio_limits};
///
/// let judge = StdioJudge::new(&Sandbox::new(SandboxConfig::default())?)?;
/// let tests = [StdioTest { input: "2 3\n".into(), expected: "5\n".into() }];
/// let src = "a, b = map(int, input().split())\nprint(a + b)\n";
/// let limits = stdio_limits(Language::Python, 1.0);
/// let j = judge.judge(Language::Python, src, &tests, &limits, &JudgeOptions::default())?;
/// assert!(j.passed());
/// # Ok::<(), verigym_sandbox::SandboxError>(())
/// ```
#[derive(Clone)]
pub struct StdioJudge {
    sandbox: Sandbox,
    python: Arc<Mutex<Option<PythonRuntime>>>,
    c: Arc<Mutex<Option<Arc<ProgramRuntime>>>>,
    cpp: Arc<Mutex<Option<Arc<ProgramRuntime>>>>,
}

/// A program ready to run on inputs.
enum Ready {
    Python(PythonRuntime),
    Native(Arc<ProgramRuntime>, Prepared),
    CompileError(String),
}

impl StdioJudge {
    /// A judge with `sandbox`'s settings, except for the deeper wasm stack (a sibling
    /// engine, see [`PROGRAM_WASM_STACK`]).
    ///
    /// # Errors
    /// [`SandboxError::Engine`] when wasmtime refuses the configuration.
    pub fn new(sandbox: &Sandbox) -> Result<StdioJudge, SandboxError> {
        let config = SandboxConfig {
            max_wasm_stack: PROGRAM_WASM_STACK,
            ..sandbox.inner.config.clone()
        };
        Ok(StdioJudge {
            sandbox: Sandbox::new(config)?,
            python: Arc::default(),
            c: Arc::default(),
            cpp: Arc::default(),
        })
    }

    /// Loads `language`'s runtime now (the Python component, or the toolchain with a
    /// smoke-test compile), so that setup problems surface before judging.
    ///
    /// # Errors
    /// [`SandboxError::ToolchainMissing`] (what to install), [`SandboxError::Confinement`]
    /// (no namespaces or Landlock: C and C++ are never compiled unconfined), build or engine
    /// errors.
    pub fn ensure(&self, language: Language) -> Result<(), SandboxError> {
        match language {
            Language::Python => self.python().map(drop),
            Language::C | Language::Cpp => self.native(language).map(drop),
        }
    }

    fn python(&self) -> Result<PythonRuntime, SandboxError> {
        let mut slot = self.python.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rt) = slot.as_ref() {
            return Ok(rt.clone());
        }
        Ok(slot.insert(self.sandbox.python()?).clone())
    }

    fn native(&self, language: Language) -> Result<Arc<ProgramRuntime>, SandboxError> {
        let (slot, dialect) = match language {
            Language::Cpp => (&self.cpp, Dialect::Cpp),
            _ => (&self.c, Dialect::C),
        };
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rt) = slot.as_ref() {
            return Ok(rt.clone());
        }
        let rt = Arc::new(ProgramRuntime::new(&self.sandbox, dialect)?);
        Ok(slot.insert(rt).clone())
    }

    fn ready(&self, language: Language, source: &str) -> Result<Ready, SandboxError> {
        Ok(match language {
            Language::Python => Ready::Python(self.python()?),
            Language::C | Language::Cpp => {
                let rt = self.native(language)?;
                match rt.compile(source)? {
                    Ok(prepared) => Ready::Native(rt, prepared),
                    Err(msg) => Ready::CompileError(msg.to_string()),
                }
            }
        })
    }

    fn run_one(
        ready: &Ready,
        source: &str,
        input: &str,
        limits: &Limits,
    ) -> Result<StdioOutcome, SandboxError> {
        match ready {
            Ready::Python(rt) => rt.run_program(source, input.as_bytes(), limits),
            Ready::Native(rt, prepared) => rt.run(prepared, input.as_bytes(), limits),
            Ready::CompileError(msg) => Ok(StdioOutcome::CompileError(msg.clone())),
        }
    }

    /// Runs `source` once per input, each in a fresh instance, and reports what each run
    /// printed or how it failed. Nothing is compared.
    ///
    /// # Errors
    /// Host-side problems only (see [`StdioJudge::ensure`]); whatever the program does is
    /// an outcome.
    pub fn run(
        &self,
        language: Language,
        source: &str,
        inputs: &[&str],
        limits: &Limits,
    ) -> Result<Vec<StdioOutcome>, SandboxError> {
        let ready = self.ready(language, source)?;
        on_deep_stack(|| {
            inputs
                .iter()
                .map(|input| Self::run_one(&ready, source, input, limits))
                .collect()
        })?
    }

    /// Runs `source` on every test's input and compares its stdout with the expected
    /// output on the host. `passed` only when every test passes.
    ///
    /// # Errors
    /// [`SandboxError::InvalidInput`] for an empty test list (it would pass anything),
    /// else as [`StdioJudge::run`].
    pub fn judge(
        &self,
        language: Language,
        source: &str,
        tests: &[StdioTest],
        limits: &Limits,
        options: &JudgeOptions,
    ) -> Result<StdioJudgement, SandboxError> {
        if tests.is_empty() {
            return Err(SandboxError::InvalidInput("no tests to judge".into()));
        }
        let ready = self.ready(language, source)?;
        on_deep_stack(|| self.judge_ready(&ready, source, tests, limits, options))?
    }

    fn judge_ready(
        &self,
        ready: &Ready,
        source: &str,
        tests: &[StdioTest],
        limits: &Limits,
        options: &JudgeOptions,
    ) -> Result<StdioJudgement, SandboxError> {
        let mut judgement = StdioJudgement {
            verdict: StdioVerdict::Passed,
            tests_passed: 0,
            tests_run: 0,
            tests_total: tests.len(),
        };
        let mut runner = match ready {
            Ready::Python(rt) => Runner::Python(Box::new(rt.program(source))),
            _ => Runner::EachFresh(ready, source),
        };
        let verdict = |k: usize, outcome, test: &StdioTest| {
            verdict_of(k, outcome, &test.expected, &options.comparison)
        };
        for (k, test) in tests.iter().enumerate() {
            let (outcome, reused) = runner.run(&test.input, limits)?;
            let mut failure = verdict(k, outcome, test);
            // A failure in a reused instance is decided in a fresh one: whatever earlier
            // tests left behind must never fail a program that a fresh instance passes.
            if failure.is_some() && reused {
                failure = verdict(k, runner.run_fresh(&test.input, limits)?, test);
            }
            judgement.tests_run += 1;
            let Some(failure) = failure else {
                judgement.tests_passed += 1;
                continue;
            };
            let compile_error = matches!(failure, StdioVerdict::CompileError { .. });
            if judgement.verdict == StdioVerdict::Passed {
                judgement.verdict = failure;
            }
            // A compile error fails every test the same way.
            if options.stop_at_first_failure || compile_error {
                break;
            }
        }
        Ok(judgement)
    }
}

/// Runs one program on test after test: Python in one instance while it may be reused
/// (see `python_stdio`), compiled C and C++ in a fresh instance per test (instantiating
/// those is cheap).
enum Runner<'a> {
    Python(Box<PythonProgram<'a>>),
    EachFresh(&'a Ready, &'a str),
}

impl Runner<'_> {
    /// The outcome, and whether it came from a reused instance.
    fn run(&mut self, input: &str, limits: &Limits) -> Result<(StdioOutcome, bool), SandboxError> {
        match self {
            Runner::Python(program) => program.run(input.as_bytes(), limits),
            Runner::EachFresh(ready, source) => {
                Ok((StdioJudge::run_one(ready, source, input, limits)?, false))
            }
        }
    }

    fn run_fresh(&mut self, input: &str, limits: &Limits) -> Result<StdioOutcome, SandboxError> {
        match self {
            Runner::Python(program) => program.run_fresh(input.as_bytes(), limits),
            Runner::EachFresh(ready, source) => StdioJudge::run_one(ready, source, input, limits),
        }
    }
}

/// Runs `f` on a new thread whose stack holds [`PROGRAM_WASM_STACK`] of wasm frames.
fn on_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, SandboxError> {
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("verigym-program".into())
            .stack_size(PROGRAM_WASM_STACK + HOST_STACK_MARGIN)
            .spawn_scoped(scope, f)
            .map_err(|e| SandboxError::Engine(format!("spawning a program thread: {e}")))?;
        Ok(thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// `None` when test `k` passed, else the verdict it gives.
fn verdict_of(
    k: usize,
    outcome: StdioOutcome,
    expected: &str,
    comparison: &OutputComparison,
) -> Option<StdioVerdict> {
    Some(match outcome {
        StdioOutcome::Exited { stdout, .. } => {
            let mismatch = compare_stdout(expected, &stdout, comparison).err()?;
            StdioVerdict::WrongAnswer { test: k, mismatch }
        }
        StdioOutcome::RuntimeError { msg, .. } => StdioVerdict::RuntimeError { test: k, msg },
        StdioOutcome::CompileError(msg) => StdioVerdict::CompileError { msg },
        StdioOutcome::TimeLimit => StdioVerdict::TimeLimit { test: k },
        StdioOutcome::MemoryLimit => StdioVerdict::MemoryLimit { test: k },
        StdioOutcome::OutputLimit => StdioVerdict::OutputLimit { test: k },
        StdioOutcome::WallTimeout => StdioVerdict::WallTimeout { test: k },
    })
}
