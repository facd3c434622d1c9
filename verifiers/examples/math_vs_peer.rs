//! Math verifications per CPU-second on the Math-Verify-derived dev set, for
//! `scripts/bench-math-vs-math-verify.sh` (which runs Math-Verify on the same
//! file beside it):
//!
//! `cargo run --release -p verigym-verifiers --example math_vs_peer -- [FILE] [PASSES]`
//!
//! One verification is what the peer times: read the gold, read the
//! prediction, compare. CPU time is this thread's on-CPU time from
//! `/proc/thread-self/schedstat`, the counterpart of the peer's
//! `time.process_time`, so other load on the machine counts against neither.
//! Prints one JSON object: cases, passes, agreement with the expected
//! verdicts, verifications per CPU-second (median pass).

use verigym_verifiers::math::{MathConfig, verify};

/// On-CPU nanoseconds of the calling thread.
fn thread_cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat (Linux) is needed for CPU time");
    text.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .expect("schedstat starts with on-CPU nanoseconds")
}

struct Case {
    gold: String,
    prediction: String,
    config: MathConfig,
    expected: Option<bool>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "verifiers/data/math-verify/dev.jsonl".into());
    let passes: usize = args
        .next()
        .map_or(3, |p| p.parse().expect("second argument: passes"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let cases: Vec<Case> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            Case {
                gold: field("gold"),
                prediction: field("prediction"),
                config: v
                    .get("config")
                    .map(MathConfig::from_json)
                    .unwrap_or_default(),
                expected: v["expected"].as_bool(),
            }
        })
        .collect();
    let agree = cases
        .iter()
        .filter(|c| c.expected == Some(verify(&c.gold, &c.prediction, &c.config).equivalent))
        .count();
    // Each pass repeats the file until it has taken at least 0.2 CPU-s, so
    // that the clock's cost and resolution do not matter.
    let mut rates = Vec::new();
    for _ in 0..passes {
        let start = thread_cpu_ns();
        let mut done = 0usize;
        while thread_cpu_ns() - start < 200_000_000 {
            for c in &cases {
                std::hint::black_box(verify(&c.gold, &c.prediction, &c.config));
            }
            done += cases.len();
        }
        rates.push(done as f64 / ((thread_cpu_ns() - start) as f64 * 1e-9));
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "{}",
        serde_json::json!({
            "cases": cases.len(),
            "passes": passes,
            "agreement": format!("{agree}/{}", cases.len()),
            "verifications_per_cpu_s": rates[rates.len() / 2],
        })
    );
}
