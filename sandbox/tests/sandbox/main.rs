//! End-to-end tests of the sandbox: correct and wrong candidates, and the reward hacks that
//! beat other code harnesses (each must not score). One test binary on purpose: each links
//! wasmtime. The Python component is built on first use (see sandbox/setup.sh).
//! Shared helpers live here; the tests are in `python.rs`, `c.rs` and `cpp.rs` (function calls) and
//! `stdio_*.rs` (whole programs on stdin/stdout).

mod c;
mod cpp;
mod python;
mod stdio_escapes;
mod stdio_native;
mod stdio_native_judge;
mod stdio_python;

use std::sync::OnceLock;

use serde_json::{Value, json};
use verigym_sandbox::{
    JudgeOptions, Language, Limits, PythonRuntime, Sandbox, SandboxConfig, SandboxError,
    StdioJudge, StdioJudgement, StdioTest, TestCase, Verdict, stdio_limits,
};

/// A function runtime (`sandbox().c()` or `.cpp()`), or `None` with a message when its
/// toolchain is missing or cannot be confined here (the test is then skipped).
fn runtime_or_skip(
    lang: &str,
    runtime: Result<verigym_sandbox::CRuntime, SandboxError>,
) -> Option<verigym_sandbox::CRuntime> {
    match runtime {
        Ok(rt) => Some(rt),
        Err(SandboxError::ToolchainMissing { tool, install }) => {
            eprintln!("SKIPPED {lang} test: {tool} missing; {install}");
            None
        }
        Err(e @ SandboxError::Confinement(_)) => {
            eprintln!("SKIPPED {lang} test: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| Sandbox::new(SandboxConfig::default()).expect("engine"))
}

fn python() -> PythonRuntime {
    sandbox()
        .python()
        .expect("python runtime (run sandbox/setup.sh python)")
}

/// Quick limits: hacks that loop must burn out fast.
fn limits() -> Limits {
    Limits {
        fuel: 300_000_000,
        memory_bytes: 128 << 20,
        output_bytes: 16 << 10,
        wall_ms: 20_000,
    }
}

fn tc(args: Value, expected: Value) -> TestCase {
    TestCase { args, expected }
}

fn add_tests() -> Vec<TestCase> {
    vec![
        tc(json!([1, 2]), json!(3)),
        tc(json!([-5, 5]), json!(0)),
        tc(json!([10, 20]), json!(30)),
    ]
}

fn py_judge(src: &str) -> Verdict {
    python()
        .judge(src, "add", &add_tests(), &limits(), 1e-9)
        .expect("judge")
}

#[track_caller]
fn assert_not_passed(v: &Verdict) {
    assert!(!v.passed(), "hack scored: {v:?}");
}

/// Which verdict a hack must get.
type VerdictCheck = fn(&verigym_sandbox::StdioVerdict) -> bool;

fn stdio_judge() -> &'static StdioJudge {
    static JUDGE: OnceLock<StdioJudge> = OnceLock::new();
    JUDGE.get_or_init(|| StdioJudge::new(sandbox()).expect("judge"))
}

/// The judge, or `None` (with a message) when the language's toolchain is not installed.
fn stdio_available(language: Language) -> Option<&'static StdioJudge> {
    match stdio_judge().ensure(language) {
        Ok(()) => Some(stdio_judge()),
        Err(SandboxError::ToolchainMissing { tool, install }) if language != Language::Python => {
            eprintln!("SKIPPED {language:?} test: {tool} missing; {install}");
            None
        }
        // No Landlock here: C and C++ are refused (no verdict), never compiled unconfined.
        Err(e @ SandboxError::Confinement(_)) if language != Language::Python => {
            eprintln!("SKIPPED {language:?} test: {e}");
            None
        }
        Err(e) => panic!("{language:?}: {e}"),
    }
}

/// A quarter CPU-second per test and 128 MiB: loops and bombs must burn out fast.
fn stdio_test_limits(language: Language) -> Limits {
    Limits {
        memory_bytes: 128 << 20,
        output_bytes: 1 << 20,
        ..stdio_limits(language, 0.25)
    }
}

fn st(input: &str, expected: &str) -> StdioTest {
    StdioTest {
        input: input.into(),
        expected: expected.into(),
    }
}

/// "Print the sum of n integers": the first test is the public one a prompt would show,
/// the others are hidden (boundaries: negatives, a single large value, repeated values).
fn sum_tests() -> Vec<StdioTest> {
    vec![
        st("3\n1 2 3\n", "6\n"),
        st("2\n-5 5\n", "0\n"),
        st("1\n1000000000\n", "1000000000\n"),
        st("4\n7 7 7 7", "28"),
    ]
}

fn judge_sum(language: Language, judge: &StdioJudge, src: &str) -> StdioJudgement {
    judge
        .judge(
            language,
            src,
            &sum_tests(),
            &stdio_test_limits(language),
            &JudgeOptions::default(),
        )
        .expect("judge")
}
