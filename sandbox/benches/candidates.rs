//! Throughput with a fresh instance per candidate:
//! `CARGO_TARGET_DIR=/work/target-sandbox cargo bench -p verigym-sandbox --bench candidates [-- N THREADS]`
//! (`VERIGYM_BENCH_POOLING=0` for the on-demand allocator). CPU-second figures come from the
//! scheduler's accounting of the measuring thread, so they hold on a busy machine too.
//!
//! Each candidate is a distinct Python source (so nothing is cached per candidate) judged
//! on 5 cases; the C part measures the run only (the binary is compiled and cached first).

use std::time::Instant;

use serde_json::json;
use verigym_sandbox::{CSignature, CType, Limits, Sandbox, SandboxConfig, TestCase};

/// CPU seconds of the calling thread, from the scheduler's nanosecond accounting
/// (`/proc/thread-self/schedstat`; tick-sampled `utime` undercounts on a busy machine), so
/// the per-CPU-second numbers hold even when other jobs compete for the cores. `None` off
/// Linux. Single-threaded runs only: work on other threads is not counted.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
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
    // VERIGYM_BENCH_POOLING=0 compares against wasmtime's on-demand allocator.
    let pooling = std::env::var("VERIGYM_BENCH_POOLING").map_or(true, |v| v != "0");
    let config = SandboxConfig {
        pooling,
        ..SandboxConfig::default()
    };
    println!("pooling allocator: {pooling}");
    let sandbox = Sandbox::new(config).expect("engine");
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
    let run_candidates = |th: usize| {
        for i in 0..per_thread {
            let src = format!("def add(a, b):\n    # candidate {th}-{i}\n    return a + b\n");
            let v = python.judge(&src, "add", &tests, &limits, 0.0).unwrap();
            assert!(v.passed(), "{v:?}");
        }
    };
    if threads == 1 {
        run_candidates(0); // on this thread, so that its CPU time is what we measure
    } else {
        std::thread::scope(|s| {
            for th in 0..threads {
                s.spawn(move || run_candidates(th));
            }
        });
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds()
        .zip(cpu0)
        .map(|(b, a)| b - a)
        .filter(|_| threads == 1);
    let total = per_thread * threads;
    report(
        &format!("python ({threads} thread(s))"),
        total,
        5,
        secs,
        cpu,
    );

    humaneval(&python, &limits);

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

/// All canonical HumanEval solutions against their converted cases (envs/data/humaneval).
fn humaneval(python: &verigym_sandbox::PythonRuntime, limits: &Limits) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../envs/data/humaneval/cases.jsonl"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("humaneval: skipped ({path} missing)");
        return;
    };
    let tasks: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (t, cpu0) = (Instant::now(), cpu_seconds());
    let (mut judged, mut cases, mut passed) = (0, 0, 0);
    for task in &tasks {
        let tests: Vec<TestCase> = serde_json::from_value(task["cases"].clone()).unwrap();
        if tests.is_empty() {
            continue;
        }
        let src = format!(
            "{}{}",
            task["prompt"].as_str().unwrap(),
            task["canonical_solution"].as_str().unwrap()
        );
        let entry = task["entry_point"].as_str().unwrap();
        let tol = task["float_tol"].as_f64().unwrap();
        let v = python.judge(&src, entry, &tests, limits, tol).unwrap();
        judged += 1;
        cases += tests.len();
        passed += usize::from(v.passed());
    }
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    println!("humaneval canonical solutions: {passed}/{judged} passed");
    report(
        "humaneval",
        judged,
        cases / judged.max(1),
        t.elapsed().as_secs_f64(),
        cpu,
    );
}
