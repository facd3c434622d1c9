//! Items per CPU-second for generation and verification of the logic envs
//! matched to reasoning-gym tasks, for `scripts/bench-logic-vs-reasoning-gym.sh`:
//!
//! `cargo run --release -p verigym-envs --no-default-features --example logic_vs_peer -- [SECONDS] [ENV@PRESET...]`
//!
//! Generation is what a reasoning-gym `dataset[i]` does: make the task card
//! (task as JSON, prompt, reference answer); the first 5,000 cards are kept,
//! as the peer keeps its items, and later ones dropped off the clock. Verification is what
//! `score_answer` does with an entry it holds: grade the reference answer as
//! a whole reply against a card read once ([`verigym_envs::DynEnv::grader`],
//! the path of a reward function scoring a group of samples for one prompt;
//! the score must pass, else the run stops). Reading the card (`prepare`)
//! is timed on its own. CPU time is this thread's
//! on-CPU time from `/proc/thread-self/schedstat` (nanoseconds), so other
//! load on the machine does not count against us.
//!
//! Prints one JSON object per line: `{"env", "gen_per_cpu_s", "verify_per_cpu_s",
//! "prepare_per_cpu_s", ...}`.

use std::time::Duration;

use verigym_envs::{Registry, mix_seed};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// On-CPU nanoseconds of the calling thread.
fn thread_cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat (Linux) is needed for CPU time");
    text.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("schedstat starts with on-CPU nanoseconds")
}

/// Cards kept for the verification measure, about what the peer holds.
const KEPT: usize = 5_000;

/// The env@preset ids measured when none are given: one per matched task.
const DEFAULT_IDS: &[&str] = &[
    "logic/sudoku-v1@medium",
    "logic/mini-sudoku-v1@easy",
    "logic/futoshiki-v1@medium",
    "logic/zebra-v1@medium",
    "logic/knights-knaves-v1@easy",
    "logic/countdown-v1@medium",
    "logic/sat-v2@medium",
    "logic/graph-coloring-v1@medium",
    "logic/shortest-path-v1@medium",
    "logic/maze-v1@easy",
    "logic/arc-grid-v1@hard",
    "math/complex-v1@medium",
];

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args
        .next()
        .map(|s| {
            s.parse()
                .expect("first argument: CPU seconds per measurement")
        })
        .unwrap_or(1.0);
    let budget = Duration::from_secs_f64(seconds).as_nanos() as u64;
    let mut ids: Vec<String> = args.collect();
    if ids.is_empty() {
        ids = DEFAULT_IDS.iter().map(|s| s.to_string()).collect();
    }
    let registry = Registry::builtin();
    for id in &ids {
        let mut env = registry
            .make(id, None)
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        // Generation: card + prompt, until the CPU budget is spent.
        let mut cards = Vec::new();
        let mut batch = Vec::new();
        let mut generated = 0usize;
        let mut prompt_bytes = 0usize;
        let mut gen_ns = 0;
        // Read the clock once per batch (a read costs microseconds, as much
        // as a small task); batches double until one takes ~10 ms or holds
        // 1,024 cards.
        let mut batch_size = 1;
        while gen_ns < budget {
            let before = thread_cpu_ns();
            for _ in 0..batch_size {
                let card = env.generate(mix_seed(1, generated as u64));
                prompt_bytes += card.prompt.len();
                batch.push(card);
                generated += 1;
            }
            let spent = thread_cpu_ns() - before;
            gen_ns += spent;
            if spent < 10_000_000 && batch_size < 1024 {
                batch_size *= 2;
            }
            // The first KEPT cards are kept for verification and the rest
            // dropped with the clock stopped, as the peer holds its N items
            // (500-5,000) and frees them after its clock stops. Keeping every
            // card of a 2-second run (up to a million, ~1 GB) timed the
            // kernel's page faults instead of the generator.
            let room = KEPT.saturating_sub(cards.len()).min(batch.len());
            cards.extend(batch.drain(..room));
            batch.clear();
        }
        let answers: Vec<String> = cards
            .iter()
            .map(|card| {
                env.reset(card).expect("own card");
                env.oracle_action(0).expect("logic envs have an oracle")
            })
            .collect();
        // Reading each card once for grading (the task JSON deserialised):
        // the counterpart of the peer's dataset entry, which is a dict already.
        let start = thread_cpu_ns();
        let graders: Vec<_> = cards
            .iter()
            .map(|card| env.grader(card).expect("logic envs are single-turn"))
            .collect();
        let prepare_ns = thread_cpu_ns() - start;
        // Verification: the whole reply read and checked, over the cards.
        let start = thread_cpu_ns();
        let mut verified = 0usize;
        while thread_cpu_ns() - start < budget {
            for (grader, answer) in graders.iter().zip(&answers) {
                assert!(grader.grade(answer).passed, "{id}: reference answer failed");
                verified += 1;
            }
        }
        let verify_ns = thread_cpu_ns() - start;
        println!(
            "{}",
            serde_json::json!({
                "env": id,
                "generated": generated,
                "gen_per_cpu_s": generated as f64 / (gen_ns as f64 * 1e-9),
                "verified": verified,
                "verify_per_cpu_s": verified as f64 / (verify_ns as f64 * 1e-9),
                "prepare_per_cpu_s": cards.len() as f64 / (prepare_ns as f64 * 1e-9),
                "mean_prompt_bytes": prompt_bytes as f64 / generated as f64,
            })
        );
    }
}
