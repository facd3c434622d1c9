//! Generation and full oracle episodes of the tool and web envs (easy
//! presets): the RL hot path. Run with `cargo bench -p verigym-envs --bench tools`
//! (add `--no-default-features` to skip building the sandbox). It also
//! prints each env's mean oracle steps per episode: steps per CPU-second are
//! that over the episode time.
//!
//! Times are this thread's CPU time (from `/proc/thread-self/schedstat`,
//! where available), not wall time, so a loaded shared machine does not inflate
//! them; elsewhere they fall back to wall time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use verigym_envs::toolkit::screen::{oracle_calls, oracle_passes};
use verigym_envs::tools::{calendar, fncall, search_qa, service_desk, sql_db, vfs_shell};
use verigym_envs::web::{forms, shop, site_nav};
use verigym_envs::{Env, Rng, mix_seed};

fn easy<E: Env>() -> E::Config {
    let preset = E::SPEC
        .presets
        .iter()
        .find(|p| p.name == "easy")
        .expect("every tool env has an easy preset");
    let mut config = serde_json::to_value(E::Config::default()).expect("configs serialise");
    let patch: serde_json::Value =
        serde_json::from_str(preset.overrides).expect("presets are JSON");
    for (k, v) in patch.as_object().expect("presets are objects") {
        config[k] = v.clone();
    }
    serde_json::from_value(config).expect("presets fit the config")
}

/// CPU time of this thread so far, if Linux says: nanoseconds from
/// `/proc/thread-self/schedstat`, else clock ticks (10 ms) from `stat`,
/// too coarse for one short episode.
fn cpu_time() -> Option<Duration> {
    if let Some(ns) = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
    {
        return Some(Duration::from_nanos(ns));
    }
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Runs `f` `iters` times and returns the CPU time (wall time as fallback).
fn timed(iters: u64, mut f: impl FnMut()) -> Duration {
    let (cpu, wall) = (cpu_time(), Instant::now());
    for _ in 0..iters {
        f();
    }
    match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed(),
    }
}

fn bench_env<E: Env>(c: &mut Criterion) {
    let config = easy::<E>();
    let mut i = 0u64;
    c.bench_function(&format!("{} generate", E::SPEC.id), |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                i += 1;
                black_box(E::generate(&config, &mut Rng::from_seed(mix_seed(1, i))));
            })
        })
    });
    let tasks: Vec<E::Task> = (0..64)
        .map(|i| E::generate(&config, &mut Rng::from_seed(mix_seed(2, i))))
        .collect();
    // Steps per CPU-second are this mean over the episode time below.
    let steps: usize = tasks.iter().map(oracle_calls::<E>).sum();
    println!(
        "{}: {:.2} oracle steps per episode (mean of {})",
        E::SPEC.id,
        steps as f64 / tasks.len() as f64,
        tasks.len()
    );
    let mut j = 0;
    c.bench_function(&format!("{} oracle episode", E::SPEC.id), |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                j = (j + 1) % tasks.len();
                assert!(oracle_passes::<E>(&tasks[j]));
            })
        })
    });
}

fn benches(c: &mut Criterion) {
    bench_env::<vfs_shell::VfsShell>(c);
    bench_env::<fncall::Fncall>(c);
    bench_env::<service_desk::ServiceDesk>(c);
    bench_env::<search_qa::SearchQa>(c);
    bench_env::<sql_db::SqlDbEnv>(c);
    bench_env::<calendar::Calendar>(c);
    bench_env::<shop::Shop>(c);
    bench_env::<site_nav::SiteNav>(c);
    bench_env::<forms::Forms>(c);
}

criterion_group! {
    name = tools;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = benches
}
criterion_main!(tools);
