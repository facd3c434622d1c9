//! `verigym`: list envs, generate task sets, score answers, play in a terminal.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Parser;
use serde_json::json;
use verigym_cli::agents::make_agent;
use verigym_cli::bin_support::{
    EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, env_with_preset, open_output, parse_config_arg,
    progress_bar, read_input,
};
use verigym_cli::serve::ServeOptions;
use verigym_envs::generate::{MixFile, write_cards, write_mixture};
use verigym_envs::score::score_answers;
use verigym_envs::{AgentTurn, EnvError, Registry, Turn};

use crate::args::{CheckCommand, Cli, Command};

/// The binaries' allocator (see the workspace manifest): generation and
/// play allocate many small values.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod args;
mod bench;
mod import;

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
        Command::List { json, all } => list(&registry, json, all),
        Command::Generate {
            id,
            n,
            seed,
            preset,
            config,
            output,
            format,
            mix,
        } => {
            if let Some(mix) = mix {
                let mix: MixFile = toml::from_str(&read_input(&mix)?)
                    .map_err(|e| anyhow::anyhow!("bad mix file: {e}"))?;
                let mut out = open_output(output.as_deref())?;
                let bar = progress_bar(n as u64, "generating");
                write_mixture(&registry, &mix, seed, n, format, &mut out, &mut |done| {
                    bar.set_position(done as u64)
                })?;
                out.flush()?;
                bar.finish_and_clear();
                return Ok(EXIT_OK);
            }
            let id = env_with_preset(&id.unwrap_or_default(), preset.as_deref())?;
            let env = registry.make(&id, parse_config_arg(config.as_deref())?.as_ref())?;
            let mut out = open_output(output.as_deref())?;
            let bar = progress_bar(n as u64, "generating");
            write_cards(&*env, seed, n, format, &mut out, &mut |done| {
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
            shaping,
        } => {
            if tasks == "-" && answers == "-" {
                bail!("--tasks and --answers cannot both be stdin");
            }
            let shaping = match parse_config_arg(shaping.as_deref())? {
                Some(value) => serde_json::from_value(value).context("bad --shaping")?,
                None => verigym_envs::shaping::Shaping::default(),
            };
            let report = score_answers(
                &registry,
                &read_input(&tasks)?,
                &read_input(&answers)?,
                &shaping,
            );
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
            let unjudged = report.scored.iter().any(|s| s.reward.is_none());
            Ok(if report.errors.is_empty() && !unjudged {
                EXIT_OK
            } else {
                EXIT_SOME_FAILED
            })
        }
        Command::Audit { ids, n, seed, json } => audit(&registry, ids, n, seed, json),
        Command::Levels { ids, n, seed, json } => levels(&registry, ids, n, seed, json),
        Command::Train {
            id,
            algo,
            steps,
            minutes,
            seed,
            output,
            config,
            hyper,
        } => {
            use verigym_agent::{Algo, Budget, TrainOptions};
            let algo = match algo.as_str() {
                "ppo" => Algo::Ppo,
                "grpo" => Algo::Grpo,
                other => bail!("unknown --algo `{other}`: use ppo or grpo"),
            };
            let budget = match (steps, minutes) {
                (_, Some(m)) => Budget::Minutes(m),
                (Some(n), None) => Budget::Steps(n),
                (None, None) if algo == Algo::Grpo => Budget::Steps(20_000),
                (None, None) => Budget::Steps(200_000),
            };
            let options = TrainOptions {
                env_id: id,
                algo,
                steps_or_minutes: budget,
                seed,
                output: output.into(),
                config: parse_config_arg(config.as_deref())?,
                hyper: parse_config_arg(hyper.as_deref())?,
            };
            let bar = indicatif::ProgressBar::new_spinner();
            let report = verigym_agent::train(&options, &mut |p| {
                bar.set_message(format!(
                    "iteration {} · {} env steps · return {:+.3}",
                    p.iteration, p.env_steps, p.learner_return
                ));
                bar.tick();
            })?;
            bar.finish_and_clear();
            eprintln!(
                "trained {} iterations, {} env steps in {:.0} s; wrote {}, {} and {}",
                report.iterations,
                report.env_steps,
                report.seconds,
                report.checkpoint.display(),
                report.curve_csv.display(),
                report.curve_svg.display()
            );
            for metric in &report.metrics {
                eprintln!(
                    "  {} = {:.4} ({} held-out)",
                    metric.name, metric.value, metric.games
                );
            }
            Ok(EXIT_OK)
        }
        Command::Check {
            what: CheckCommand::Math { file, output },
        } => {
            let results = verigym_cli::check::check_math(&read_input(&file)?);
            let mut out = open_output(output.as_deref())?;
            let mut bad = 0;
            for result in &results {
                match result {
                    Ok(line) => writeln!(out, "{line}")?,
                    Err(e) => {
                        eprintln!("error: {e}");
                        bad += 1;
                    }
                }
            }
            out.flush()?;
            eprintln!("checked {} lines, {bad} unusable", results.len());
            Ok(if bad == 0 { EXIT_OK } else { EXIT_SOME_FAILED })
        }
        Command::Bench { what } => bench::run(&registry, what),
        Command::Import(args) => import::run(args),
        Command::Serve {
            addr,
            max_episodes,
            episode_ttl,
            max_body,
            queue,
            job_timeout,
            max_response,
            max_conns_per_ip,
            header_timeout,
            idle_timeout,
            cards,
            env,
        } => serve(ServeOptions {
            addr,
            max_episodes,
            episode_ttl: seconds(episode_ttl, "--episode-ttl")?,
            max_body,
            queue,
            job_timeout: seconds(job_timeout, "--job-timeout")?,
            max_response,
            max_conns_per_ip,
            header_timeout: seconds(header_timeout, "--header-timeout")?,
            idle_timeout: seconds(idle_timeout, "--idle-timeout")?,
            card_sets: cards,
            default_env: env,
            ..ServeOptions::default()
        }),
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

/// A flag's seconds as a duration.
fn seconds(value: f64, flag: &str) -> Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(value)
        .with_context(|| format!("{flag} must be a non-negative number of seconds"))
}

fn serve(options: ServeOptions) -> Result<u8> {
    let addr = options.addr;
    let stats = verigym_cli::serve::run_until_signal(options, Registry::builtin(), |bound| {
        eprintln!("listening on http://{bound}");
    })
    .with_context(|| format!("cannot serve on {addr}"))?;
    eprintln!(
        "shut down: {} jobs accepted, {} answered, {} refused as busy",
        stats.accepted, stats.answered, stats.busy
    );
    Ok(EXIT_OK)
}

fn levels(registry: &Registry, ids: Vec<String>, n: usize, seed: u64, as_json: bool) -> Result<u8> {
    use verigym_envs::testing::difficulty::{check_harder, measure_scale, render};
    if n == 0 {
        bail!("--n must be at least 1");
    }
    let ids = if ids.is_empty() {
        registry
            .entries()
            .iter()
            .map(|r| r.spec.id.to_string())
            .collect()
    } else {
        ids
    };
    let mut failures = 0;
    for id in &ids {
        if id.contains('@') {
            bail!("`{id}`: give env ids without a preset; `levels` shows every level");
        }
        let report = measure_scale(registry, id, n, seed).map_err(anyhow::Error::msg)?;
        let verdict = check_harder(&report);
        if as_json {
            let mut value = serde_json::to_value(&report)?;
            value["harder_is_harder"] = verdict.is_ok().into();
            println!("{value}");
        } else {
            print!("{}", render(&report));
            if let Err(why) = &verdict {
                println!(
                    "NOT A SCALE: {}",
                    why.to_string().lines().next().unwrap_or_default()
                );
            }
            println!();
        }
        failures += usize::from(verdict.is_err());
    }
    Ok(if failures == 0 {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
}

fn audit(registry: &Registry, ids: Vec<String>, n: usize, seed: u64, as_json: bool) -> Result<u8> {
    if n == 0 {
        bail!("--n must be at least 1");
    }
    let ids = if ids.is_empty() {
        registry.preset_ids()
    } else {
        ids
    };
    let mut audits = Vec::new();
    for id in &ids {
        audits.push(
            verigym_envs::testing::audit::audit_env(registry, id, n, seed)
                .map_err(anyhow::Error::msg)?,
        );
    }
    if as_json {
        for audit in &audits {
            println!("{}", serde_json::to_string(audit)?);
        }
    } else {
        print!("{}", verigym_cli::report::table::audits(&audits));
    }
    let flags: usize = audits.iter().map(|a| a.flags()).sum();
    eprintln!("audited {} envs: {flags} flagged probes", audits.len());
    Ok(if flags == 0 {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
}

fn list(registry: &Registry, as_json: bool, all: bool) -> Result<u8> {
    let superseded = if all {
        registry.superseded_ids()
    } else {
        Vec::new()
    };
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
        for old in &superseded {
            let line = json!({
                "id": old.id, "superseded_by": old.newest, "cards_refused": old.refused,
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
    for old in &superseded {
        let cards = match old.refused {
            None => "its cards score and replay".to_string(),
            Some(reason) => format!("its cards are refused: {reason}"),
        };
        writeln!(
            out,
            "{:<id_width$}  superseded by {}; {cards}",
            old.id, old.newest
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
        .map(|p| make_agent(opponent, verigym_envs::mix_seed(seed, p as u64)))
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
