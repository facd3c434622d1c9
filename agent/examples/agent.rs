//! Trains or evaluates a reference agent from the command line (until the
//! `verigym` CLI wires [`verigym_agent::train`]).
//!
//! ```text
//! cargo run --release -p verigym-agent --example agent -- train games/tictactoe-v1 STEPS SEED OUT.json
//! cargo run --release -p verigym-agent --example agent -- eval CHECKPOINT.json GAMES
//! ```

use std::path::PathBuf;
use std::time::Instant;

use verigym_agent::game::checkpoint::GameCheckpoint;
use verigym_agent::game::codec::GameCodec;
use verigym_agent::game::eval::{Baseline, Seeds, evaluate, play_against};
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
                config: None,
                hyper: None,
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
                GameCodec::TicTacToe => &[Baseline::Random, Baseline::Oracle],
                GameCodec::ConnectFour => &[Baseline::WinOrBlock, Baseline::Random],
                GameCodec::KuhnPoker => &[Baseline::Random, Baseline::Oracle],
            };
            for &baseline in baselines {
                for seat in 0..2 {
                    let [w, d, l] = play_against(
                        &checkpoint.env_id,
                        agent.as_mut(),
                        seat,
                        baseline,
                        games,
                        Seeds::HeldOut,
                    )?;
                    println!(
                        "load_agent seat {seat} vs {baseline:?}: {w} won, {d} drawn, {l} lost"
                    );
                }
            }
            println!("eval took {:.1}s", start.elapsed().as_secs_f64());
        }
        Some("tune") if args.len() >= 4 => {
            // Experiments: the game's PPO settings with overrides.
            use verigym_agent::game::rollout::Opponent;
            use verigym_agent::game::trainer::{PpoConfig, train_ppo};
            let env_id = &args[1];
            let codec = GameCodec::for_env(env_id).ok_or("no codec")?;
            let mut config = PpoConfig::for_codec(codec);
            for kv in &args[4..] {
                let (k, v) = kv.split_once('=').ok_or("key=value")?;
                match k {
                    "hidden" => config.hidden = v.parse()?,
                    "pairs" => config.game_pairs = v.parse()?,
                    "epochs" => config.epochs = v.parse()?,
                    "minibatch" => config.minibatch = v.parse()?,
                    "lr" => config.learning_rate = v.parse()?,
                    "entropy" => config.loss.entropy_coef = v.parse()?,
                    "clip" => config.loss.clip = v.parse()?,
                    "lambda" => config.lambda = v.parse()?,
                    "eval_every" => config.eval_every = v.parse()?,
                    "opponents" => {
                        config.opponent_pairs = v
                            .split(',')
                            .filter(|x| !x.is_empty())
                            .map(|x| {
                                let (name, n) = x.split_once(':').unwrap();
                                let o = match name {
                                    "snapshot" => Opponent::Snapshot,
                                    "random" => Opponent::Random,
                                    "wob" => Opponent::WinOrBlock,
                                    _ => Opponent::SelfPlay,
                                };
                                (o, n.parse().unwrap())
                            })
                            .collect()
                    }
                    _ => return Err(format!("unknown key {k}").into()),
                }
            }
            let run = train_ppo(
                env_id,
                codec,
                &config,
                Budget::Steps(args[2].parse()?),
                args[3].parse()?,
                "tune".into(),
                &mut |p| {
                    if let Some(e) = p.eval {
                        eprintln!(
                            "iter {:5} steps {:8} {:6.1}s return {:+.3} entropy {:.3} eval {:.4}",
                            p.iteration, p.env_steps, p.seconds, p.learner_return, p.entropy, e
                        );
                    }
                },
            )?;
            for m in &run.final_metrics {
                println!("{} = {:.4} ({} games)", m.name, m.value, m.games);
            }
            run.checkpoint
                .save(std::path::Path::new("/tmp/tune.json"))?;
        }
        Some("show") if args.len() == 3 => {
            // One game against the env's oracle, move by move.
            let path = PathBuf::from(&args[1]);
            let seat: usize = args[2].parse()?;
            let checkpoint = GameCheckpoint::load(&path)?;
            let mut agent = load_agent(&path)?;
            let mut oracle = verigym_envs::driver::OracleAgent;
            let registry = verigym_envs::Registry::builtin();
            let mut env = registry.make(&checkpoint.env_id, None)?;
            let card = env.generate(1);
            let config = verigym_envs::DriverConfig {
                record_transcript: true,
                ..Default::default()
            };
            let result = if seat == 0 {
                verigym_envs::run_episode(
                    env.as_mut(),
                    &card,
                    &mut [agent.as_mut(), &mut oracle],
                    &config,
                )?
            } else {
                verigym_envs::run_episode(
                    env.as_mut(),
                    &card,
                    &mut [&mut oracle, agent.as_mut()],
                    &config,
                )?
            };
            for m in &result.transcript {
                println!("seat {} plays {} {:?}", m.player, m.action, m.error);
            }
            println!(
                "{}
returns {:?}",
                env.render(),
                result.returns
            );
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
