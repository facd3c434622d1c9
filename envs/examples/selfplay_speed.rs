//! Random-vs-random full games through the text path, in steps per
//! CPU-second: the verigym side of `scripts/bench-games-vs-textarena.py`.
//!
//! Each step is what an LLM agent's turn costs the env: render the
//! observation text (`observe_text`, all a text-reading agent is shown; see
//! `Agent::reads`), pick a random legal action as text, then parse and apply
//! it (`step`), all through the type-erased env and the episode driver. One thread; CPU time from `/proc/self/schedstat`.
//!
//! ```text
//! cargo run --release -p verigym-envs --no-default-features \
//!     --example selfplay_speed -- games/tictactoe-v1 20000 [SEED]
//! ```
//!
//! Prints one JSON line: env, games, steps, cpu_seconds, steps_per_cpu_second.

use std::process::ExitCode;
use std::time::Instant;

use verigym_envs::driver::RandomAgent;
use verigym_envs::{Agent, DriverConfig, Registry, mix_seed, run_episode};

/// The binaries' allocator (see the workspace manifest): the same one the
/// CLI uses, so these figures are what `verigym` and `gym-bench` do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Nanoseconds this thread has run on a CPU (Linux), else wall time.
fn cpu_nanos(start: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| start.elapsed().as_nanos())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(id), Some(games)) = (
        args.first(),
        args.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!("usage: selfplay_speed ENV_ID GAMES [SEED]");
        return ExitCode::from(2);
    };
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let registry = Registry::builtin();
    let mut env = match registry.make(id, None) {
        Ok(env) => env,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let players = env.spec().players;
    let mut agents: Vec<RandomAgent> = (0..players as u64).map(RandomAgent::new).collect();
    let config = DriverConfig::default();
    let wall = Instant::now();
    let before = cpu_nanos(wall);
    let mut steps = 0usize;
    for game in 0..games {
        let card = env.generate(mix_seed(seed, game));
        let mut refs: Vec<&mut dyn Agent> =
            agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
        match run_episode(env.as_mut(), &card, &mut refs, &config) {
            Ok(result) => steps += result.steps,
            Err(e) => {
                eprintln!("error: game {game}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let cpu = (cpu_nanos(wall) - before) as f64 / 1e9;
    println!(
        "{{\"impl\":\"verigym\",\"env\":\"{id}\",\"games\":{games},\"steps\":{steps},\"cpu_seconds\":{cpu:.4},\"wall_seconds\":{:.4},\"steps_per_cpu_second\":{:.1}}}",
        wall.elapsed().as_secs_f64(),
        steps as f64 / cpu
    );
    ExitCode::SUCCESS
}
