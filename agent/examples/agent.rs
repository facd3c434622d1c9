//! Trains or evaluates a reference agent from the command line (until the
//! `verigym` CLI wires [`verigym_agent::train`]).
//!
//! ```text
//! cargo run --release -p verigym-agent --example agent -- train games/tictactoe-v1 STEPS SEED OUT.json
//! cargo run --release -p verigym-agent --example agent -- eval CHECKPOINT.json GAMES
//! ```

use std::path::PathBuf;
use std::time::Instant;

use verigym_agent::checkpoint::GameCheckpoint;
use verigym_agent::eval::{Baseline, evaluate, play_against};
use verigym_agent::{Algo, Budget, TrainOptions, load_agent, train};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("train") if args.len() == 5 => {
            let opts = TrainOptions {
                env_id: args[1].clone(),
                algo: Algo::Ppo,
                steps_or_minutes: Budget::Steps(args[2].parse()?),
                seed: args[3].parse()?,
                output: PathBuf::from(&args[4]),
            };
            let start = Instant::now();
            let report = train(&opts, &mut |p| {
                if let Some(e) = p.eval {
                    eprintln!(
                        "iter {:5} steps {:8} {:7.1}s return {:+.3} loss {:.4} entropy {:.3} {} {:.4}",
                        p.iteration,
                        p.env_steps,
                        p.seconds,
                        p.learner_return,
                        p.loss,
                        p.entropy,
                        p.eval_name,
                        e
                    );
                }
            })?;
            println!(
                "trained {} iterations, {} steps in {:.1}s (process {:.1}s)",
                report.iterations,
                report.env_steps,
                report.seconds,
                start.elapsed().as_secs_f64()
            );
            for m in &report.metrics {
                println!("{} = {:.4} ({} games)", m.name, m.value, m.games);
            }
        }
        Some("eval") if args.len() == 3 => {
            let path = PathBuf::from(&args[1]);
            let games: usize = args[2].parse()?;
            let checkpoint = GameCheckpoint::load(&path)?;
            let start = Instant::now();
            for m in evaluate(
                &checkpoint.env_id,
                checkpoint.codec,
                &checkpoint.weights,
                games,
            )? {
                println!("{} = {:.4} ({} games)", m.name, m.value, m.games);
            }
            // The same figures through `load_agent`, as gym-bench will see it.
            let mut agent = load_agent(&path)?;
            let baselines: &[Baseline] = match checkpoint.codec {
                verigym_agent::codec::GameCodec::TicTacToe => &[Baseline::Random, Baseline::Oracle],
                verigym_agent::codec::GameCodec::ConnectFour => {
                    &[Baseline::WinOrBlock, Baseline::Random]
                }
                verigym_agent::codec::GameCodec::KuhnPoker => &[Baseline::Random, Baseline::Oracle],
            };
            for &baseline in baselines {
                for seat in 0..2 {
                    let [w, d, l] =
                        play_against(&checkpoint.env_id, agent.as_mut(), seat, baseline, games)?;
                    println!(
                        "load_agent seat {seat} vs {baseline:?}: {w} won, {d} drawn, {l} lost"
                    );
                }
            }
            println!("eval took {:.1}s", start.elapsed().as_secs_f64());
        }
        _ => {
            eprintln!(
                "usage: agent train ENV STEPS SEED OUT.json | agent eval CHECKPOINT.json GAMES"
            );
            std::process::exit(2);
        }
    }
    Ok(())
}
