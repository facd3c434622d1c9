//! Math verifier throughput on the shipped Math-Verify-derived dev set.
//! `cargo bench -p verigym-verifiers --bench math`; compare with
//! `../shared/bench/math_verify_peer.py` (Math-Verify 0.9.0) on the same file.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use verigym_verifiers::math::{MathConfig, verify};

fn cases() -> Vec<(String, String, MathConfig)> {
    let text = include_str!("../data/math-verify/dev.jsonl");
    text.lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|v| {
            let gold = v.get("gold")?.as_str()?.to_string();
            let prediction = v.get("prediction")?.as_str()?.to_string();
            let config = v
                .get("config")
                .map(MathConfig::from_json)
                .unwrap_or_default();
            Some((gold, prediction, config))
        })
        .collect()
}

fn dev_set(c: &mut Criterion) {
    let cases = cases();
    let mut group = c.benchmark_group("math_verify");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("dev_set", |b| {
        b.iter(|| {
            cases
                .iter()
                .filter(|(g, p, cfg)| verify(g, p, cfg).equivalent)
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, dev_set);
criterion_main!(benches);
