//! `verigym bench envs`: how fast each env generates tasks, verifies
//! answers and plays episodes, on one thread, in CPU time.
//!
//! Four rates per env, each over `n` seeded tasks:
//! - generation: task cards made per CPU-second (`DynEnv::generate`);
//! - verification (one-player envs): reference answers scored per
//!   CPU-second (reset, the oracle's first action as text through
//!   `step`, score); the oracle's text is computed before timing;
//! - oracle episodes: the oracle in every seat through the text path
//!   (observe, oracle action text, parse and apply), steps per CPU-second;
//! - random episodes: the `random` baseline in every seat through the same
//!   path, steps per CPU-second: the figure to compare with TextArena.
//!
//! CPU time is this thread's (`CLOCK_THREAD_CPUTIME_ID`), so a
//! busy machine inflates it far less than wall time; where that file is
//! missing, wall time is used and the report says so.

use std::time::Instant;

use serde::Serialize;
use verigym_envs::{DynEnv, Registry, Rng, TaskCard, Turn, mix_seed};

/// The stream the random agents draw from.
const RANDOM_STREAM: u64 = 0x7261_6e64;

/// One env's rates.
#[derive(Clone, Debug, Serialize)]
pub struct EnvBench {
    pub env: String,
    pub tasks: usize,
    pub generated_per_cpu_s: f64,
    /// `None` for games and envs without an oracle.
    pub verified_per_cpu_s: Option<f64>,
    pub oracle_steps_per_cpu_s: Option<f64>,
    /// Mean CPU microseconds for one whole oracle episode.
    pub oracle_episode_us: Option<f64>,
    pub random_steps_per_cpu_s: f64,
    /// `thread_cpu` or `wall`.
    pub clock: &'static str,
}

/// This thread's CPU time in seconds, if the OS tells it.
fn thread_cpu_seconds() -> Option<f64> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    (rc == 0).then(|| now.tv_sec as f64 + now.tv_nsec as f64 / 1e9)
}

/// Shortest CPU time a rate is measured over: small batches repeat.
const MIN_SECONDS: f64 = 0.2;

/// Runs `round` (one pass over the tasks, returning the units it did)
/// until at least [`MIN_SECONDS`] have passed; units per second.
fn rate(mut round: impl FnMut() -> Result<usize, String>) -> Result<f64, String> {
    let clock = Clock::start();
    let mut units = 0;
    loop {
        units += round()?;
        let seconds = clock.seconds();
        if seconds >= MIN_SECONDS {
            return Ok(units as f64 / seconds);
        }
    }
}

/// A stopwatch on thread CPU time, falling back to wall time.
struct Clock {
    cpu: Option<f64>,
    wall: Instant,
}

impl Clock {
    fn start() -> Self {
        Clock {
            cpu: thread_cpu_seconds(),
            wall: Instant::now(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_seconds()) {
            (Some(start), Some(now)) => (now - start).max(1e-9),
            _ => self.wall.elapsed().as_secs_f64().max(1e-9),
        }
    }
}

/// Plays one episode with `pick` choosing every move's text; returns the
/// accepted steps. Invalid moves end the episode (benchmarks play legal ones).
fn play(
    env: &mut dyn DynEnv,
    card: &TaskCard,
    mut pick: impl FnMut(&dyn DynEnv, usize) -> Option<String>,
) -> Result<usize, String> {
    env.reset(card).map_err(|e| e.to_string())?;
    let mut steps = 0;
    loop {
        let players = match env.turn() {
            Turn::Over => return Ok(steps),
            Turn::Player(p) => vec![p],
            Turn::Simultaneous(ps) => ps,
        };
        for player in players {
            // Render the observation as an agent would read it.
            let observation = env.observe(player).map_err(|e| e.to_string())?;
            std::hint::black_box(&observation.text);
            let Some(action) = pick(&*env, player) else {
                return Ok(steps);
            };
            if env.step(player, &action).is_err() {
                return Ok(steps);
            }
            steps += 1;
        }
    }
}

/// Measures `id` (with an optional preset) over `n` tasks from `seed`.
///
/// # Errors
/// An unknown env or preset.
pub fn bench_env(registry: &Registry, id: &str, n: usize, seed: u64) -> Result<EnvBench, String> {
    let mut env = registry.make(id, None).map_err(|e| e.to_string())?;
    let clock_name = if thread_cpu_seconds().is_some() {
        "thread_cpu"
    } else {
        "wall"
    };
    let n = n.max(1);

    let cards: Vec<TaskCard> = (0..n)
        .map(|i| env.generate(mix_seed(seed, i as u64)))
        .collect();
    let generated_per_cpu_s = rate(|| {
        for card in &cards {
            std::hint::black_box(env.generate(card.seed));
        }
        Ok(n)
    })?;

    let mut verified_per_cpu_s = None;
    if env.spec().players == 1 {
        let mut answers = Vec::with_capacity(n);
        for card in &cards {
            env.reset(card).map_err(|e| e.to_string())?;
            answers.push(env.oracle_action(0));
        }
        if answers.iter().all(Option::is_some) {
            verified_per_cpu_s = Some(rate(|| {
                for (card, answer) in cards.iter().zip(&answers) {
                    env.reset(card).map_err(|e| e.to_string())?;
                    let _ = env.step(0, answer.as_deref().unwrap_or_default());
                    std::hint::black_box(env.score(0));
                }
                Ok(n)
            })?);
        }
    }

    let mut oracle_complete = true;
    let oracle_steps_per_cpu_s = rate(|| {
        let mut steps = 0;
        for card in &cards {
            steps += play(env.as_mut(), card, |env, player| {
                let action = env.oracle_action(player);
                oracle_complete &= action.is_some();
                action
            })?;
        }
        Ok(steps)
    })?;
    let (oracle_steps_per_cpu_s, oracle_episode_us) =
        if oracle_complete && oracle_steps_per_cpu_s > 0.0 {
            let clock = Clock::start();
            for card in &cards {
                play(env.as_mut(), card, |env, player| env.oracle_action(player))?;
            }
            (
                Some(oracle_steps_per_cpu_s),
                Some(clock.seconds() * 1e6 / n as f64),
            )
        } else {
            (None, None)
        };

    let random_steps_per_cpu_s = rate(|| {
        let mut steps = 0;
        for card in &cards {
            let mut rng = Rng::from_seed(mix_seed(card.seed, RANDOM_STREAM));
            steps += play(env.as_mut(), card, |env, player| {
                Some(env.random_action(player, &mut rng))
            })?;
        }
        Ok(steps)
    })?;

    Ok(EnvBench {
        env: id.to_string(),
        tasks: n,
        generated_per_cpu_s,
        verified_per_cpu_s,
        oracle_steps_per_cpu_s,
        oracle_episode_us,
        random_steps_per_cpu_s,
        clock: clock_name,
    })
}

/// A plain-text table of results.
pub fn render(results: &[EnvBench]) -> String {
    let fmt = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |v| format!("{v:.0}"));
    let width = results
        .iter()
        .map(|r| r.env.len())
        .max()
        .unwrap_or(3)
        .max(3);
    let mut out = format!(
        "{:<width$}  {:>12}  {:>12}  {:>14}  {:>12}  {:>14}\n",
        "env", "gen/cpu-s", "verify/cpu-s", "oracle steps/s", "oracle ep us", "random steps/s"
    );
    for r in results {
        out.push_str(&format!(
            "{:<width$}  {:>12.0}  {:>12}  {:>14}  {:>12}  {:>14.0}\n",
            r.env,
            r.generated_per_cpu_s,
            fmt(r.verified_per_cpu_s),
            fmt(r.oracle_steps_per_cpu_s),
            r.oracle_episode_us
                .map_or_else(|| "-".to_string(), |v| format!("{v:.1}")),
            r.random_steps_per_cpu_s,
        ));
    }
    if let Some(r) = results.first() {
        out.push_str(&format!(
            "({} tasks each; rates per second of {} time, one thread)\n",
            r.tasks,
            if r.clock == "thread_cpu" {
                "thread CPU"
            } else {
                "wall"
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benches_a_puzzle_and_a_game() {
        let registry = Registry::builtin();
        let puzzle = bench_env(&registry, "math/arithmetic-v1@easy", 20, 1).unwrap();
        assert!(puzzle.generated_per_cpu_s > 0.0);
        assert!(puzzle.verified_per_cpu_s.is_some());
        assert!(puzzle.oracle_episode_us.is_some());
        let game = bench_env(&registry, "games/tictactoe-v1", 5, 1).unwrap();
        assert!(game.verified_per_cpu_s.is_none());
        assert!(game.random_steps_per_cpu_s > 0.0);
        let table = render(&[puzzle, game]);
        assert!(table.contains("games/tictactoe-v1"), "{table}");
        assert!(bench_env(&registry, "math/nope-v1", 5, 1).is_err());
    }

    #[test]
    fn thread_cpu_time_moves_forward_when_working() {
        let clock = Clock::start();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(clock.seconds() > 0.0);
    }
}
