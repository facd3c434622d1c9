//! Self-play throughput: validated proposals per second and solver verifications per
//! second, for `selfplay/code-io-v1` (WASM sandbox) and `selfplay/math-propose-v1`.
//! Run with `cargo bench -p verigym-envs --bench selfplay`.
//!
//! Times are this thread's CPU time (from `/proc/thread-self/stat`, where available), not
//! wall time, so a loaded shared machine does not inflate them; elsewhere wall time.
//! Proposals and answers cycle over 32 seeded tasks so no cache can help.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use verigym_envs::selfplay::code_io::{
    self, CodeIo, CodeIoConfig, CodeIoTask, TaskType, call_text, proposal_text,
};
use verigym_envs::selfplay::math_propose::{self, MathPropose, MathProposeConfig};
use verigym_envs::{Env, Rng, mix_seed};

/// CPU time of this thread so far (clock ticks of 10 ms), if Linux says.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Runs `f` `iters` times and returns the CPU time (wall time as fallback).
fn timed(iters: u64, mut f: impl FnMut(u64)) -> Duration {
    let (cpu, wall) = (cpu_time(), Instant::now());
    for i in 0..iters {
        f(i);
    }
    match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed(),
    }
}

fn code_tasks(task_type: TaskType) -> Vec<CodeIoTask> {
    let config = CodeIoConfig {
        task_types: vec![task_type],
        ..CodeIoConfig::default()
    };
    (0..32)
        .map(|i| CodeIo::generate(&config, &mut Rng::from_seed(mix_seed(9, i))))
        .collect()
}

fn bench_code_io(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay/code-io-v1");
    group.sample_size(10);
    for task_type in [
        TaskType::Deduction,
        TaskType::Abduction,
        TaskType::Induction,
    ] {
        let tasks = code_tasks(task_type);
        let texts: Vec<String> = tasks.iter().map(|t| proposal_text(&t.scripted)).collect();
        group.bench_function(format!("validate proposal ({task_type:?})"), |b| {
            b.iter_custom(|iters| {
                timed(iters, |i| {
                    let k = i as usize % tasks.len();
                    let valid = code_io::validate_proposal(&tasks[k], &texts[k]);
                    assert!(valid.is_ok(), "{valid:?}");
                    black_box(valid.ok());
                })
            })
        });
        let proposals: Vec<_> = tasks
            .iter()
            .zip(&texts)
            .map(|(t, text)| code_io::validate_proposal(t, text).expect("scripted is valid"))
            .collect();
        let answers: Vec<String> = proposals
            .iter()
            .map(|p| match task_type {
                TaskType::Deduction => format!(
                    "```python\n{}\n```",
                    verigym_envs::selfplay::pyliteral::to_python(&p.outputs[0])
                ),
                TaskType::Abduction => format!("```python\n{}\n```", call_text(&p.inputs[0])),
                TaskType::Induction => format!("```python\n{}```", p.program),
            })
            .collect();
        group.bench_function(format!("verify answer ({task_type:?})"), |b| {
            b.iter_custom(|iters| {
                timed(iters, |i| {
                    let k = i as usize % proposals.len();
                    let (ok, note) = code_io::verify_answer(task_type, &proposals[k], &answers[k]);
                    assert_eq!(ok, Some(true), "{note}");
                })
            })
        });
    }
    group.finish();
}

fn bench_math_propose(c: &mut Criterion) {
    let mut group = c.benchmark_group("selfplay/math-propose-v1");
    // Few, long samples: the CPU clock ticks every 10 ms.
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            MathPropose::generate(
                &MathProposeConfig::default(),
                &mut Rng::from_seed(mix_seed(9, i)),
            )
        })
        .collect();
    let texts: Vec<String> = tasks
        .iter()
        .map(|t| math_propose::proposal_text(&t.scripted))
        .collect();
    group.bench_function("validate proposal", |b| {
        b.iter_custom(|iters| {
            timed(iters, |i| {
                let k = i as usize % tasks.len();
                assert!(math_propose::validate_proposal(&tasks[k], &texts[k]).is_ok());
            })
        })
    });
    group.bench_function("verify answer", |b| {
        b.iter_custom(|iters| {
            timed(iters, |i| {
                let k = i as usize % tasks.len();
                let answer = format!("The value is \\boxed{{{}}}.", tasks[k].scripted.answer);
                assert!(math_propose::verify_answer(&tasks[k].scripted, &answer).0);
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench_code_io, bench_math_propose);
criterion_main!(benches);
