//! The harder-is-harder check of `tests/envs.rs` (`difficulty::ID`) for the
//! logic envs, without building the root crate (which links wasmtime and
//! burn): same levels, same 24 tasks per level from seed 3, same rules
//! (>= 3 levels, easy < medium < hard on the scale, no level more than 5%
//! easier than the one before, hardest > easiest).
//!
//! `cargo run --release -p verigym-envs --no-default-features --example logic_difficulty [filter]`

use verigym_envs::driver::OracleAgent;
use verigym_envs::{Agent, DriverConfig, Registry, mix_seed, run_episode};

const TASKS: u64 = 24;
const SEED: u64 = 3;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let registry = Registry::builtin();
    let mut failures = 0;
    for registration in registry.entries() {
        let id = registration.spec.id;
        if !id.starts_with("logic/") || !id.contains(filter.as_str()) {
            continue;
        }
        let mut efforts = Vec::new();
        let mut measure = "effort";
        for level in 0..registration.levels().len() {
            let config = registration.level_config(level).expect("level config");
            let env = (registration.make)(config).expect("level makes an env");
            let mut total = 0.0;
            for i in 0..TASKS {
                let card = env.generate(mix_seed(SEED, i));
                total += match env.effort(&card.task) {
                    Some(effort) => effort,
                    None => {
                        measure = "oracle_chars";
                        let mut episode = env.clone_box();
                        let mut agents: Vec<OracleAgent> =
                            (0..env.spec().players).map(|_| OracleAgent).collect();
                        let mut refs: Vec<&mut dyn Agent> =
                            agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
                        let config = DriverConfig {
                            record_transcript: true,
                            ..DriverConfig::default()
                        };
                        let result = run_episode(episode.as_mut(), &card, &mut refs, &config)
                            .expect("oracle episode");
                        result
                            .transcript
                            .iter()
                            .map(|m| m.action.chars().count())
                            .sum::<usize>() as f64
                    }
                };
            }
            efforts.push(total / TASKS as f64);
        }
        let named: Vec<Option<usize>> = ["easy", "medium", "hard"]
            .iter()
            .map(|name| registration.level_of_preset(name))
            .collect();
        let mut problems = Vec::new();
        if efforts.len() < 3 {
            problems.push(format!("{} levels", efforts.len()));
        }
        match named.as_slice() {
            [Some(e), Some(m), Some(h)] if e < m && m < h => {}
            _ => problems.push(format!("presets at levels {named:?}")),
        }
        for (i, pair) in efforts.windows(2).enumerate() {
            if pair[1] < pair[0] * 0.95 {
                problems.push(format!("level {} easier than level {i}", i + 1));
            }
        }
        if efforts.last() <= efforts.first() {
            problems.push("hardest no harder than easiest".into());
        }
        let shown: Vec<String> = efforts.iter().map(|e| format!("{e:.1}")).collect();
        let verdict = if problems.is_empty() {
            "ok".to_string()
        } else {
            failures += 1;
            format!("FAILED: {}", problems.join("; "))
        };
        println!("{id:<32} {measure:<12} [{}] {verdict}", shown.join(", "));
    }
    std::process::exit(i32::from(failures > 0));
}
