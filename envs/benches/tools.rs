//! Generation and full oracle episodes of the tool and web envs (easy
//! presets): the RL hot path. Run with `cargo bench -p verigym-envs --bench tools`.

use criterion::{Criterion, criterion_group, criterion_main};
use verigym_envs::tools::{
    calendar, fncall, oracle_passes, search_qa, service_desk, sql_db, vfs_shell,
};
use verigym_envs::web::{shop, site_nav};
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

fn bench_env<E: Env>(c: &mut Criterion) {
    let config = easy::<E>();
    let mut i = 0u64;
    c.bench_function(&format!("{} generate", E::SPEC.id), |b| {
        b.iter(|| {
            i += 1;
            E::generate(&config, &mut Rng::from_seed(mix_seed(1, i)))
        })
    });
    let tasks: Vec<E::Task> = (0..64)
        .map(|i| E::generate(&config, &mut Rng::from_seed(mix_seed(2, i))))
        .collect();
    let mut j = 0;
    c.bench_function(&format!("{} oracle episode", E::SPEC.id), |b| {
        b.iter(|| {
            j = (j + 1) % tasks.len();
            assert!(oracle_passes::<E>(&tasks[j]));
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
}

criterion_group! {
    name = tools;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = benches
}
criterion_main!(tools);
