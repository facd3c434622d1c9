//! Trains the text agent with warm start + GRPO and prints its progress
//! and held-out figures: the same call as
//! `verigym train ENV --algo grpo --steps EPISODES --seed SEED -o OUT --config C --hyper H`,
//! without building the whole CLI.
//!
//! ```text
//! cargo run --release -p verigym-agent --example text -- ENV EPISODES SEED OUT.json [CONFIG_JSON] [HYPER_JSON]
//! ```

use std::path::PathBuf;
use std::time::Instant;

use verigym_agent::{Algo, Budget, TrainOptions, train};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(4..=6).contains(&args.len()) {
        return Err("usage: text ENV EPISODES SEED OUT.json [CONFIG_JSON] [HYPER_JSON]".into());
    }
    let json = |i: usize| -> Result<Option<serde_json::Value>, serde_json::Error> {
        args.get(i)
            .filter(|s| !s.is_empty())
            .map(|s| serde_json::from_str(s))
            .transpose()
    };
    let opts = TrainOptions {
        env_id: args[0].clone(),
        algo: Algo::Grpo,
        steps_or_minutes: Budget::Steps(args[1].parse()?),
        seed: args[2].parse()?,
        output: PathBuf::from(&args[3]),
        config: json(4)?,
        hyper: json(5)?,
    };
    let start = Instant::now();
    let report = train(&opts, &mut |p| {
        if let Some(e) = p.eval {
            eprintln!(
                "iter {:5} episodes {:7} {:7.1}s reward {:.3} loss {:+.5} entropy {:.3} held-out {:.3}",
                p.iteration, p.env_steps, p.seconds, p.learner_return, p.loss, p.entropy, e
            );
        }
    })?;
    println!(
        "trained {} iterations, {} episodes in {:.1}s (process {:.1}s)",
        report.iterations,
        report.env_steps,
        report.seconds,
        start.elapsed().as_secs_f64()
    );
    for m in &report.metrics {
        println!("{} = {:.4} ({} tasks)", m.name, m.value, m.games);
    }
    Ok(())
}
