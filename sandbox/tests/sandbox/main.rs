//! End-to-end tests of the sandbox: correct and wrong candidates, and the reward hacks that
//! beat other code harnesses (each must not score). One test binary on purpose: each links
//! wasmtime. The Python component is built on first use (see sandbox/setup.sh).
//! Shared helpers live here; the tests are in `python.rs` and `c.rs`.

mod c;
mod python;

use std::sync::OnceLock;

use serde_json::{Value, json};
use verigym_sandbox::{Limits, PythonRuntime, Sandbox, SandboxConfig, TestCase, Verdict};

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
