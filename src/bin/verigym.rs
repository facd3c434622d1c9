//! `verigym`: list envs, generate task sets, score answers, play in a terminal.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use serde_json::json;
use verigym::cli::{
    EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, env_with_preset, open_output, parse_config_arg,
    progress_bar, read_input,
};
use verigym::envs::driver::builtin_agent;
use verigym::envs::{AgentTurn, EnvError, Registry, Turn};
use verigym::generate::write_cards;
use verigym::score::score_answers;

/// Verifiable-reward environments for training LLM agents.
///
/// Exit codes: 0 success; 1 the command ran but some items failed (e.g.
/// malformed answer lines); 2 bad usage or input (unknown env, bad JSON).
#[derive(Parser)]
#[command(name = "verigym", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every env: id, kind, family, players, presets, description.
    List {
        /// One JSON object per env instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Generate task cards as JSONL (one card per line).
    ///
    /// Card i uses a seed mixed from --seed and i, so the same arguments give
    /// byte-identical output on every machine and thread count.
    Generate {
        /// Env id, optionally with a preset: `math/arithmetic-v1@hard`.
        id: String,
        /// Number of cards.
        #[arg(long, short = 'n', default_value_t = 10)]
        n: usize,
        /// Batch seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Difficulty preset (see `verigym list`); --config overrides apply on top.
        #[arg(long)]
        preset: Option<String>,
        /// JSON object of config overrides, or @FILE.
        #[arg(long)]
        config: Option<String>,
        /// Output file (default: stdout).
        #[arg(long, short = 'o')]
        output: Option<String>,
    },
    /// Score answers against task cards.
    ///
    /// Answers are JSONL {"id": CARD_ID, "answer": TEXT} (a list of texts for
    /// multi-turn envs). Writes {"id","reward","passed","breakdown"} per
    /// answer and a summary on stderr; bad lines are reported by number and
    /// the rest still scored (exit code 1).
    Score {
        /// Task cards (JSONL), as written by `generate`; `-` for stdin.
        #[arg(long)]
        tasks: String,
        /// Answers (JSONL); `-` for stdin.
        #[arg(long)]
        answers: String,
        /// Output file (default: stdout).
        #[arg(long, short = 'o')]
        output: Option<String>,
    },
    /// Play an episode in the terminal: you type actions, built-in agents
    /// take the other seats.
    Play {
        /// Env id, optionally with a preset.
        id: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Your seat in a game (0 moves first).
        #[arg(long, default_value_t = 0)]
        seat: usize,
        /// Agent for the other seats: random, oracle, noop.
        #[arg(long, default_value = "random")]
        opponent: String,
        /// JSON object of config overrides, or @FILE.
        #[arg(long)]
        config: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn run(cli: Cli) -> Result<u8> {
    let registry = Registry::builtin();
    match cli.command {
        Command::List { json } => list(&registry, json),
        Command::Generate {
            id,
            n,
            seed,
            preset,
            config,
            output,
        } => {
            let id = env_with_preset(&id, preset.as_deref())?;
            let env = registry.make(&id, parse_config_arg(config.as_deref())?.as_ref())?;
            let mut out = open_output(output.as_deref())?;
            let bar = progress_bar(n as u64, "generating");
            write_cards(&*env, seed, n, &mut out, &mut |done| {
                bar.set_position(done as u64)
            })?;
            out.flush()?;
            bar.finish_and_clear();
            Ok(EXIT_OK)
        }
        Command::Score {
            tasks,
            answers,
            output,
        } => {
            if tasks == "-" && answers == "-" {
                bail!("--tasks and --answers cannot both be stdin");
            }
            let report = score_answers(&registry, &read_input(&tasks)?, &read_input(&answers)?);
            let mut out = open_output(output.as_deref())?;
            for scored in &report.scored {
                serde_json::to_writer(&mut out, scored)?;
                out.write_all(b"\n")?;
            }
            out.flush()?;
            for error in &report.errors {
                eprintln!("error: {error}");
            }
            eprintln!("{}", report.summary());
            Ok(if report.errors.is_empty() {
                EXIT_OK
            } else {
                EXIT_SOME_FAILED
            })
        }
        Command::Play {
            id,
            seed,
            seat,
            opponent,
            config,
        } => play(
            &registry,
            &id,
            seed,
            seat,
            &opponent,
            parse_config_arg(config.as_deref())?,
        ),
    }
}

fn list(registry: &Registry, as_json: bool) -> Result<u8> {
    let mut out = std::io::stdout().lock();
    if as_json {
        for r in registry.entries() {
            let spec = r.spec;
            let line = json!({
                "id": spec.id, "kind": spec.kind, "family": spec.family(), "version": spec.version(),
                "players": spec.players, "max_steps": spec.max_steps,
                "reward_range": [spec.reward_range.0, spec.reward_range.1], "zero_sum": spec.zero_sum,
                "presets": spec.presets.iter().map(|p| p.name).collect::<Vec<_>>(),
                "default_config": (r.default_config)(), "description": spec.description,
            });
            writeln!(out, "{line}")?;
        }
        return Ok(EXIT_OK);
    }
    let id_width = registry
        .entries()
        .iter()
        .map(|r| r.spec.id.len())
        .max()
        .unwrap_or(0);
    writeln!(
        out,
        "{:<id_width$}  {:<11}  {:<7}  {:<7}  {:<24}  description",
        "id", "kind", "family", "players", "presets"
    )?;
    for r in registry.entries() {
        let spec = r.spec;
        let kind = serde_json::to_value(spec.kind)?
            .as_str()
            .unwrap_or_default()
            .to_string();
        let presets: Vec<&str> = spec.presets.iter().map(|p| p.name).collect();
        writeln!(
            out,
            "{:<id_width$}  {:<11}  {:<7}  {:<7}  {:<24}  {}",
            spec.id,
            kind,
            spec.family(),
            spec.players,
            presets.join(","),
            spec.description
        )?;
    }
    Ok(EXIT_OK)
}

fn play(
    registry: &Registry,
    id: &str,
    seed: u64,
    seat: usize,
    opponent: &str,
    config: Option<serde_json::Value>,
) -> Result<u8> {
    let mut env = registry.make(id, config.as_ref())?;
    let players = env.spec().players;
    if seat >= players {
        bail!(
            "--seat {seat} does not exist: `{id}` has seats 0..{}",
            players - 1
        );
    }
    let mut others = (0..players)
        .map(|p| builtin_agent(opponent, verigym::envs::mix_seed(seed, p as u64)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    let card = env.generate(seed);
    env.reset(&card)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let movers = match env.turn() {
            Turn::Over => break,
            Turn::Player(p) => vec![p],
            Turn::Simultaneous(ps) => ps,
        };
        for player in movers {
            let observation = env.observe(player)?;
            if player == seat {
                println!("\n{}", observation.text);
                loop {
                    print!("> ");
                    std::io::stdout().flush()?;
                    let Some(line) = lines.next() else {
                        println!("\n(end of input: episode abandoned)");
                        return Ok(EXIT_OK);
                    };
                    match env.step(player, &line.context("cannot read stdin")?) {
                        Ok(step) => {
                            for event in step.events {
                                println!("{event}");
                            }
                            break;
                        }
                        Err(EnvError::InvalidAction(reason)) => {
                            println!("invalid: {reason}; try again")
                        }
                        Err(other) => return Err(other.into()),
                    }
                }
            } else {
                let action = others[player].act(&AgentTurn {
                    player,
                    observation: &observation,
                    last_error: None,
                    env: &*env,
                });
                println!("player {player} ({opponent}) plays: {action}");
                env.step(player, &action)
                    .with_context(|| format!("the {opponent} agent made an invalid move"))?;
            }
        }
    }
    println!("\n{}", env.observe(seat)?.text);
    for p in 0..players {
        let score = env.score(p);
        let who = if p == seat { "you" } else { opponent };
        println!(
            "player {p} ({who}): reward {:+} passed {}",
            score.reward, score.passed
        );
    }
    Ok(EXIT_OK)
}
