//! Throughput of the code envs' verification: HumanEval canonical solutions judged in the
//! WASM sandbox, a fresh instance per candidate, through the env (extract, judge, score).
//!
//! ```text
//! cargo run --release -p verigym-envs --example code_bench -- [ROUNDS] [THREADS]
//! ```
//!
//! Measured (dev profile: wasmtime at opt-level 2, verigym crates unoptimised; 2 shared
//! cores at load average ~8): 57 candidates/s and 402 test cases/s on one thread (164
//! problems × 2 rounds, 2,316 cases, all passing); 2 threads gave no gain under that load.

use std::time::Instant;

use verigym_envs::code::humaneval::{HumanEval, HumanEvalTask, PROBLEMS, problems};
use verigym_envs::{Env, Rng};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let cases: usize = problems().iter().map(|p| p.cases.len()).sum();
    // Warm-up: creates the sandbox and loads the precompiled component.
    let start = Instant::now();
    let _ = verigym_envs::sandboxed::python().expect("Python runtime (run sandbox/setup.sh)");
    println!(
        "sandbox + component load: {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );

    let run = |number: usize| -> bool {
        let task = HumanEvalTask {
            task_id: format!("HumanEval/{number}"),
            number,
        };
        let mut env = HumanEval::reset(&task, Rng::from_seed(0));
        let answer = env.oracle(0).expect("canonical solution");
        env.apply(0, answer)
            .expect("single-turn answers always apply");
        env.score(0).passed
    };
    let start = Instant::now();
    let passed: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (0..rounds * PROBLEMS)
                        .filter(|i| i % threads == t)
                        .filter(|i| run(i % PROBLEMS))
                        .count()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let secs = start.elapsed().as_secs_f64();
    let candidates = rounds * PROBLEMS;
    println!(
        "{threads} thread(s): {candidates} candidates ({passed} passed), {} test cases in {secs:.2} s: \
         {:.0} candidates/s, {:.0} test cases/s",
        rounds * cases,
        candidates as f64 / secs,
        (rounds * cases) as f64 / secs
    );
}
