//! Generation and verification rates of the logic envs, items per second on
//! one thread: `cargo run --release -p verigym-envs --example logic_rates [filter] [seconds]`.

use std::time::{Duration, Instant};

use verigym_envs::{Registry, mix_seed};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let filter = args.get(1).cloned().unwrap_or_default();
    let budget = Duration::from_secs_f64(args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.5));
    let registry = Registry::builtin();
    println!(
        "{:<34} {:>12} {:>12}",
        "env@preset", "generate/s", "verify/s"
    );
    for registration in registry.entries() {
        let spec = registration.spec;
        if !spec.id.starts_with("logic/")
            || !spec.id.contains(filter.as_str())
            || spec.kind != verigym_envs::EnvKind::SingleTurn
        {
            continue;
        }
        for preset in spec.presets {
            let id = format!("{}@{}", spec.id, preset.name);
            let mut env = registry.make(&id, None).expect("preset");
            let start = Instant::now();
            let mut cards = Vec::new();
            while start.elapsed() < budget {
                cards.push(env.generate(mix_seed(1, cards.len() as u64)));
            }
            let generate_rate = cards.len() as f64 / start.elapsed().as_secs_f64();
            // Verification: reset + one oracle answer + score, over the cards.
            let answers: Vec<String> = cards
                .iter()
                .map(|card| {
                    env.reset(card).unwrap();
                    env.oracle_action(0).unwrap()
                })
                .collect();
            let start = Instant::now();
            let mut verified = 0usize;
            while start.elapsed() < budget {
                for (card, answer) in cards.iter().zip(&answers) {
                    env.reset(card).unwrap();
                    env.step(0, answer).unwrap();
                    assert!(env.score(0).passed, "{id}: oracle failed");
                    verified += 1;
                }
            }
            let verify_rate = verified as f64 / start.elapsed().as_secs_f64();
            println!("{id:<34} {generate_rate:>12.0} {verify_rate:>12.0}");
        }
    }
}
