//! Cost of each answer reader per megabyte of pathological input (the shapes in
//! `pathological/mod.rs`). `cargo bench -p verigym-verifiers --bench readers`; criterion
//! reports throughput, so the time per megabyte is 1 / (MiB/s).

mod pathological;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use verigym_verifiers::answer::{final_answer, plain_answer};
use verigym_verifiers::grid::parse_binary_grid;
use verigym_verifiers::math::{MathConfig, verify};
use verigym_verifiers::sat::parse_sat_answer;

type Reader = fn(&str) -> usize;

const READERS: &[(&str, Reader)] = &[
    ("final_answer", |t| final_answer(t).map_or(0, |a| a.len())),
    ("plain_answer", |t| plain_answer(t).len()),
    ("parse_binary_grid", |t| {
        parse_binary_grid(t, 30, 30).map_or(0, |g| g.len())
    }),
    ("parse_sat_answer", |t| {
        parse_sat_answer(t, 100_000).map_or(0, |_| 1)
    }),
    ("math_verify", |t| {
        verify("$4$", t, &MathConfig::default()).reason.len()
    }),
];

fn readers(c: &mut Criterion) {
    let shapes = pathological::megabyte_shapes();
    for (reader, read) in READERS {
        let mut group = c.benchmark_group(*reader);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for (shape, text) in &shapes {
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(shape), text, |b, text| {
                b.iter(|| read(text))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, readers);
criterion_main!(benches);
