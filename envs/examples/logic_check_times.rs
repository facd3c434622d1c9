//! Seconds the env checker takes per logic preset (40 episodes, as the
//! test suite runs it): `cargo run --release -p verigym-envs --example logic_check_times`.

use std::time::Instant;

use verigym_envs::Registry;
use verigym_envs::testing::checker::{CheckOptions, check_env, summarize};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let registry = Registry::builtin();
    for registration in registry.entries() {
        let spec = registration.spec;
        if !spec.id.starts_with("logic/") || !spec.id.contains(filter.as_str()) {
            continue;
        }
        for preset in spec.presets {
            let id = format!("{}@{}", spec.id, preset.name);
            let make = || registry.make(&id, None).unwrap();
            let start = Instant::now();
            let outcome = summarize(&check_env(
                &make,
                &CheckOptions {
                    episodes: 40,
                    ..CheckOptions::default()
                },
            ));
            println!(
                "{id:<34} {:>8.3}s {}",
                start.elapsed().as_secs_f64(),
                if outcome.is_ok() { "ok" } else { "FAILED" }
            );
            if let Err(e) = outcome {
                println!("{e}");
            }
        }
    }
}
