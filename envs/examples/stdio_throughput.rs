//! Judges a file of stdin/stdout problems with [`StdioJudge`] and prints one JSON line:
//! solutions judged, passed, wall seconds and CPU seconds (this process, every thread, and
//! its waited-for children). Used by `scripts/bench-stdio-vs-livecodebench.sh`, which runs
//! LiveCodeBench's runner on the same file.
//!
//! ```text
//! cargo run --release -p verigym-envs --example stdio_throughput -- PROBLEMS.json \
//!     [--passes P] [--shard I/N] [--language python|c|cpp]
//! ```
//!
//! PROBLEMS.json: `[{"name", "solutions": [source, ...], "tests": [{"input", "expected"}]}]`
//! (as `scripts/stdio_bench_problems.py` writes it). Every solution runs on every test of
//! its problem, in one instance per solution while the harness finds it as good as fresh
//! after each test (see the sandbox's `stdio` docs), 1 CPU-second of fuel per test; judging
//! stops at a solution's first failing test. `--shard I/N` judges problems I, I+N, ...
//! (one process per core in the script). The runtime is loaded (and a first solution
//! judged) before the clock starts, as it is once per process in training.

use std::time::Instant;

use serde::Deserialize;
// The sandbox crate as the envs crate depends on it (an example of this crate, so it
// shares the envs' build of wasmtime).
use verigym_sandbox::{
    JudgeOptions, Language, Sandbox, SandboxConfig, StdioJudge, StdioTest, stdio_limits,
};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Deserialize)]
struct Problem {
    solutions: Vec<String>,
    tests: Vec<StdioTest>,
}

/// CPU seconds of this process and its waited-for children (`/proc/self/stat`).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
    let fields: Vec<f64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // utime, stime, cutime, cstime: fields 14..=17 (1-based), 11..=14 here; 100 ticks/s.
    fields
        .get(11..15)
        .map_or(0.0, |f| f.iter().sum::<f64>() / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(path) = args.first() else {
        eprintln!(
            "usage: stdio_throughput PROBLEMS.json [--passes P] [--shard I/N] [--language L]"
        );
        std::process::exit(2);
    };
    let passes: usize = flag("--passes").and_then(|p| p.parse().ok()).unwrap_or(1);
    let (shard, shards) = flag("--shard")
        .and_then(|s| {
            let (i, n) = s.split_once('/')?;
            Some((i.parse().ok()?, n.parse().ok()?))
        })
        .unwrap_or((0usize, 1usize));
    let language: Language = flag("--language")
        .as_deref()
        .unwrap_or("python")
        .parse()
        .expect("--language python|c|cpp");
    let text = std::fs::read_to_string(path).expect("read the problems file");
    let problems: Vec<Problem> = serde_json::from_str(&text).expect("parse the problems file");
    let judge =
        StdioJudge::new(&Sandbox::new(SandboxConfig::default()).expect("engine")).expect("judge");
    judge.ensure(language).expect("runtime available");
    let limits = stdio_limits(language, 1.0);
    let options = JudgeOptions::default();
    // Warm-up outside the clock: one judgement (page cache, lazily built pools).
    if let Some(p) = problems.first() {
        let _ = judge.judge(language, &p.solutions[0], &p.tests, &limits, &options);
    }
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let (mut solutions, mut passed) = (0usize, 0usize);
    for _ in 0..passes {
        for problem in problems.iter().skip(shard).step_by(shards) {
            for src in &problem.solutions {
                let j = judge
                    .judge(language, src, &problem.tests, &limits, &options)
                    .expect("judging");
                solutions += 1;
                passed += usize::from(j.passed());
            }
        }
    }
    println!(
        "{{\"judge\": \"verigym\", \"solutions\": {solutions}, \"passed\": {passed}, \"wall_s\": {:.3}, \"cpu_s\": {:.3}}}",
        wall.elapsed().as_secs_f64(),
        cpu_seconds() - cpu
    );
}
