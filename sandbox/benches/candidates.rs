//! Throughput with a fresh instance per candidate:
//! `CARGO_TARGET_DIR=/work/target-sandbox cargo bench -p verigym-sandbox --bench candidates [-- N THREADS]`
//!
//! Each candidate is a distinct Python source (so nothing is cached per candidate) judged
//! on 5 cases; the C part measures the run only (the binary is compiled and cached first).

use std::time::Instant;

use serde_json::json;
use verigym_sandbox::{CSignature, CType, Limits, Sandbox, SandboxConfig, TestCase};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| !a.starts_with("--"));
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let sandbox = Sandbox::new(SandboxConfig::default()).expect("engine");
    let t = Instant::now();
    let python = sandbox.python().expect("python runtime");
    println!(
        "python runtime ready in {:.2?} (cached after the first run)",
        t.elapsed()
    );
    let tests: Vec<TestCase> = (0..5)
        .map(|i| TestCase {
            args: json!([i, 2 * i]),
            expected: json!(3 * i),
        })
        .collect();
    let limits = Limits::default();

    let t = Instant::now();
    let per_thread = n.div_ceil(threads);
    std::thread::scope(|s| {
        for th in 0..threads {
            let (python, tests) = (&python, &tests);
            s.spawn(move || {
                for i in 0..per_thread {
                    let src =
                        format!("def add(a, b):\n    # candidate {th}-{i}\n    return a + b\n");
                    let v = python.judge(&src, "add", tests, &limits, 0.0).unwrap();
                    assert!(v.passed(), "{v:?}");
                }
            });
        }
    });
    let secs = t.elapsed().as_secs_f64();
    let total = per_thread * threads;
    println!(
        "python: {total} candidates x 5 cases, {threads} thread(s): {:.0} candidates/s, {:.0} cases/s ({:.2} ms/candidate/thread)",
        total as f64 / secs,
        5.0 * total as f64 / secs,
        1e3 * secs * threads as f64 / total as f64
    );

    // How long the default fuel budget lasts in a tight Python loop (fuel → wall time).
    let t = Instant::now();
    let spin = "def add(a, b):\n    while True: pass\n";
    let v = python
        .judge(spin, "add", &tests[..1], &limits, 0.0)
        .unwrap();
    println!(
        "python: default fuel ({}) exhausted by a busy loop in {:.2?} ({v:?})",
        limits.fuel,
        t.elapsed()
    );

    match sandbox.c() {
        Err(e) => println!("c: skipped ({e})"),
        Ok(c) => {
            let sig = CSignature {
                name: "add".into(),
                params: vec![CType::Int; 2],
                ret: CType::Int,
            };
            let src = "int64_t add(int64_t a, int64_t b) { return a + b; }";
            let t = Instant::now();
            assert!(c.judge(src, &sig, &tests, &limits, 0.0).unwrap().passed());
            println!(
                "c: first judge (clang + cranelift, or cache hit) {:.2?}",
                t.elapsed()
            );
            let t = Instant::now();
            for _ in 0..n {
                assert!(c.judge(src, &sig, &tests, &limits, 0.0).unwrap().passed());
            }
            let secs = t.elapsed().as_secs_f64();
            println!(
                "c: {n} cached candidates x 5 cases: {:.0} candidates/s, {:.0} cases/s (fresh instance per case)",
                n as f64 / secs,
                5.0 * n as f64 / secs
            );
        }
    }
}
