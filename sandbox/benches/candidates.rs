//! Throughput with a fresh instance per candidate:
//! `CARGO_TARGET_DIR=/work/target-sandbox cargo bench -p verigym-sandbox --bench candidates [-- N THREADS]`
//!
//! Each candidate is a distinct Python source (so nothing is cached per candidate) judged
//! on 5 cases; the C part measures the run only (the binary is compiled and cached first).

use std::time::Instant;

use serde_json::json;
use verigym_sandbox::{CSignature, CType, Limits, Sandbox, SandboxConfig, TestCase};

/// This process's user+system CPU seconds (Linux `/proc/self/stat`), so the numbers mean
/// something on a busy machine too; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_comm = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

fn report(what: &str, candidates: usize, cases_per: usize, wall: f64, cpu: Option<f64>) {
    let cpu = cpu.map_or("n/a".to_string(), |c| {
        format!("{:.0} candidates/CPU-s", candidates as f64 / c.max(1e-9))
    });
    println!(
        "{what}: {candidates} candidates x {cases_per} cases: {:.0} candidates/s, {:.0} cases/s wall; {cpu}",
        candidates as f64 / wall,
        (cases_per * candidates) as f64 / wall,
    );
}

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
    let cpu0 = cpu_seconds();
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
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let total = per_thread * threads;
    report(
        &format!("python ({threads} thread(s))"),
        total,
        5,
        secs,
        cpu,
    );

    // How long the default fuel budget lasts in a tight Python loop (fuel → wall time).
    let t = Instant::now();
    let cpu0 = cpu_seconds();
    let spin = "def add(a, b):\n    while True: pass\n";
    let v = python
        .judge(spin, "add", &tests[..1], &limits, 0.0)
        .unwrap();
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    println!(
        "python: default fuel ({}) exhausted by a busy loop in {:.2?} wall, {cpu:.2?} CPU-s ({v:?})",
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
            let cpu0 = cpu_seconds();
            for _ in 0..n {
                assert!(c.judge(src, &sig, &tests, &limits, 0.0).unwrap().passed());
            }
            let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
            report(
                "c (cached binary, fresh instance per case)",
                n,
                5,
                t.elapsed().as_secs_f64(),
                cpu,
            );
        }
    }
}
