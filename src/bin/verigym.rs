//! `verigym`: list envs, generate task sets, score answers, play in a terminal.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use serde_json::json;
use verigym::bench::make_agent;
use verigym::cli::{
    EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, env_with_preset, open_output, parse_config_arg,
    progress_bar, read_input,
};
use verigym::envs::{AgentTurn, EnvError, Registry, Turn};
use verigym::generate::{OutputFormat, write_cards, write_mixture};
use verigym::score::score_answers;
use verigym::serve::ServeOptions;

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
        #[arg(required_unless_present = "mix", conflicts_with = "mix")]
        id: Option<String>,
        /// A TOML mixture of envs with weights ([[source]] env, weight,
        /// config) instead of one env.
        #[arg(long)]
        mix: Option<String>,
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
        /// `card` (task cards) or `chat` (messages for a trainer, with the
        /// card inside for scoring later).
        #[arg(long, value_enum, default_value_t = OutputFormat::Card)]
        format: OutputFormat,
    },
    /// Score answers against task cards.
    ///
    /// Answers are JSONL {"id": CARD_ID, "answer": TEXT} (a list of texts for
    /// multi-turn envs), or {"id": CARD_ID, "response": CHAT_COMPLETION}.
    /// Tasks may be cards or chat rows from `generate --format chat`. Writes {"id","reward","passed","breakdown"} per
    /// answer and a summary on stderr; bad lines are reported by number and
    /// the rest still scored (exit code 1).
    Score {
        /// Task cards (JSONL), as written by `generate`; `-` for stdin.
        #[arg(long)]
        tasks: String,
        /// Answers (JSONL); `-` for stdin.
        #[arg(long)]
        answers: String,
        /// Reward shaping as JSON (or @FILE): correctness, format_boxed,
        /// format_think, length_budget, length_penalty,
        /// invalid_action_penalty. `passed` stays correctness alone.
        #[arg(long)]
        shaping: Option<String>,
        /// Output file (default: stdout).
        #[arg(long, short = 'o')]
        output: Option<String>,
    },
    /// Check answers with a verifier; `verigym check math FILE`.
    Check {
        #[command(subcommand)]
        what: CheckCommand,
    },
    /// Time a verifier; `verigym bench math [FILE]`, `verigym bench code [--workers N]`.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// Train the burn reference agent on an env and write a checkpoint (use
    /// it in gym-bench as `burn:CHECKPOINT`), a learning-curve CSV and SVG.
    Train {
        /// Env id, e.g. games/tictactoe-v1.
        id: String,
        /// ppo (self-play, games) or grpo (single-turn text tasks: a
        /// supervised warm start on reference answers, then Dr. GRPO; also
        /// writes OUT.warm.json, the warm start alone).
        #[arg(long, default_value = "ppo")]
        algo: String,
        /// Learner decisions to collect (deterministic for a seed); for
        /// grpo, answers sampled after the warm start.
        #[arg(long, conflicts_with = "minutes")]
        steps: Option<u64>,
        /// Wall-clock budget instead of --steps (not reproducible).
        #[arg(long)]
        minutes: Option<f64>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Checkpoint file to write.
        #[arg(long, short = 'o')]
        output: String,
        /// JSON object of env config overrides, or @FILE (text tasks only).
        #[arg(long)]
        config: Option<String>,
        /// JSON object of trainer settings over the defaults, or @FILE (grpo:
        /// the fields of verigym_agent::textrl::TextConfig, e.g.
        /// {"warm_steps": 2000, "variant": "grpo"}).
        #[arg(long)]
        hyper: Option<String>,
    },
    /// Probe every env with reward hacks (empty, constant, echoed, hedged,
    /// junk answers; noop in games) and flag any that pays.
    ///
    /// Exit code 1 when any probe is flagged.
    Audit {
        /// Env ids (with presets); default: every preset of every env.
        ids: Vec<String>,
        /// Tasks per env.
        #[arg(long, default_value_t = 200)]
        n: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// One JSON object per env instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Show an env's difficulty scale: each level's config patch, the named
    /// presets on it, and its measured mean effort (the env's own measure,
    /// or the characters the oracle writes per episode).
    ///
    /// Levels count from 0 (easiest); `ID@LEVEL` names one anywhere an env
    /// id is accepted. Exit code 1 when a level is easier than the one
    /// before it.
    Levels {
        /// Env ids (without presets); default: every env.
        ids: Vec<String>,
        /// Tasks measured per level.
        #[arg(long, default_value_t = 30)]
        n: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// One JSON object per env instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Serve the envs over HTTP (JSON): list, generate, batch score, and
    /// stateful episodes for multi-turn envs and games. GET /openapi.json
    /// describes every endpoint. Prints `listening on http://ADDR` to stderr
    /// once ready; SIGINT/SIGTERM finish in-flight requests, then exit.
    Serve {
        /// Address to bind; port 0 picks a free port (printed when ready).
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: std::net::SocketAddr,
        /// Live episodes at most; creating more answers 429.
        #[arg(long, default_value_t = 1024)]
        max_episodes: usize,
        /// Seconds an unused episode lives.
        #[arg(long, default_value_t = 600.0)]
        episode_ttl: f64,
        /// Largest request body in bytes; larger ones answer 413.
        #[arg(long, default_value_t = 16 * 1024 * 1024)]
        max_body: usize,
        /// CPU jobs (score, generate, steps) admitted at once, running or
        /// waiting; more answer 503 "busy" at once.
        #[arg(long, default_value_t = 64)]
        queue: usize,
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

#[derive(Subcommand)]
enum CheckCommand {
    /// Math answer equivalence. Reads JSONL {"gold", "prediction",
    /// "config"?} and writes {"equivalent", "gold_parsed",
    /// "prediction_parsed", "reason"} per line, in order, checked in
    /// parallel. Bad lines are reported by number (exit code 1).
    Math {
        /// Input JSONL; `-` (the default) for stdin.
        #[arg(default_value = "-")]
        file: String,
        /// Output file (default: stdout).
        #[arg(long, short = 'o')]
        output: Option<String>,
    },
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Generation, verification and episode speed of envs on one thread, in
    /// CPU time: cards generated, reference answers verified and oracle or
    /// random steps played (through the text path) per CPU-second.
    Envs {
        /// Env ids, optionally with presets or levels; default: every env at
        /// its `easy` preset (or its default config when it has none).
        ids: Vec<String>,
        /// Tasks per env.
        #[arg(long, default_value_t = 200)]
        n: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// One JSON object per env instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Verifications per second and latency of the math verifier on one
    /// thread (compare with ../shared/bench/math_verify_peer.py on the same file).
    Math {
        /// Cases JSONL (default: the shipped Math-Verify-derived dev set).
        #[arg(default_value = "datasets/math-verify/dev.jsonl")]
        file: String,
        /// Rounds over the file.
        #[arg(long, default_value_t = 3)]
        passes: usize,
        #[arg(long)]
        json: bool,
    },
    /// Sandbox throughput: HumanEval's 164 canonical solutions, a fresh WASM instance per
    /// candidate; candidates/s and test cases/s per wall and per CPU second.
    Code {
        /// Parallel workers (threads, or processes with --processes); 0 = one per core.
        #[arg(long, default_value_t = 1)]
        workers: usize,
        /// One process per worker (each with its own engine) instead of threads.
        #[arg(long)]
        processes: bool,
        /// Rounds over the 164 problems.
        #[arg(long, default_value_t = 3)]
        passes: usize,
        #[arg(long)]
        json: bool,
        /// Internal: run as worker K of N for --processes.
        #[arg(long, hide = true)]
        worker: Option<String>,
    },
    /// Load-test a running `verigym serve` with batch scoring: requests/s,
    /// p50/p99 latency, busy answers, and the no-request-lost check (exit
    /// code 1 when an admitted request went unanswered or was wrong).
    Serve {
        /// Base URL of the server.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
        /// Concurrent clients (one request in flight each).
        #[arg(long, default_value_t = 4)]
        clients: usize,
        /// Requests in all.
        #[arg(long, default_value_t = 1000)]
        requests: usize,
        /// Answers per scoring request.
        #[arg(long, default_value_t = 32)]
        batch: usize,
        /// Env whose tasks are scored.
        #[arg(long, default_value = "math/arithmetic-v1")]
        env: String,
        /// Per-request timeout in seconds.
        #[arg(long, default_value_t = 60.0)]
        timeout: f64,
        #[arg(long)]
        json: bool,
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
            format,
            mix,
        } => {
            if let Some(mix) = mix {
                let text = read_input(&mix)?;
                let mut out = open_output(output.as_deref())?;
                let bar = progress_bar(n as u64, "generating");
                write_mixture(&registry, &text, seed, n, format, &mut out, &mut |done| {
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
                None => verigym::envs::shaping::Shaping::default(),
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
            Ok(if report.errors.is_empty() {
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
            let results = verigym::check::check_math(&read_input(&file)?);
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
        Command::Bench {
            what: BenchCommand::Envs { ids, n, seed, json },
        } => bench_envs(&registry, ids, n, seed, json),
        Command::Bench {
            what: BenchCommand::Math { file, passes, json },
        } => {
            let bench = verigym::check::bench_math(&read_input(&file)?, passes)
                .map_err(anyhow::Error::msg)?;
            if json {
                println!("{}", serde_json::to_string(&bench)?);
            } else {
                println!(
                    "{} cases x {} passes: {:.0} verifications/s on one thread; latency mean {:.1} us, p50 {:.1} us, p99 {:.1} us, max {:.1} us; slowest case (median over passes) {:.1} us",
                    bench.cases,
                    bench.passes,
                    bench.per_second,
                    bench.mean_us,
                    bench.p50_us,
                    bench.p99_us,
                    bench.max_us,
                    bench.worst_case_median_us
                );
                if let Some((agree, total)) = bench.agreement {
                    println!("agreement with `expected`: {agree}/{total}");
                }
                println!(
                    "slowest: gold {:?} prediction {:?}",
                    bench.slowest.0, bench.slowest.1
                );
            }
            Ok(EXIT_OK)
        }
        Command::Bench {
            what:
                BenchCommand::Code {
                    workers,
                    processes,
                    passes,
                    json,
                    worker,
                },
        } => {
            if let Some(shard) = worker {
                let shard = verigym::code_bench::parse_shard(&shard).map_err(anyhow::Error::msg)?;
                verigym::code_bench::bench_worker(shard, passes).map_err(anyhow::Error::msg)?;
                return Ok(EXIT_OK);
            }
            let workers = match workers {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            let report = if processes {
                let exe = std::env::current_exe().context("locating this binary")?;
                verigym::code_bench::bench_processes(&exe, workers, passes)
            } else {
                verigym::code_bench::bench_in_process(workers, passes, (0, 1))
            }
            .map_err(anyhow::Error::msg)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                println!("{}", report.summary());
            }
            Ok(if report.failed == 0 {
                EXIT_OK
            } else {
                EXIT_SOME_FAILED
            })
        }
        Command::Serve {
            addr,
            max_episodes,
            episode_ttl,
            max_body,
            queue,
        } => serve(ServeOptions {
            addr,
            max_episodes,
            episode_ttl: std::time::Duration::try_from_secs_f64(episode_ttl)
                .context("--episode-ttl must be a non-negative number of seconds")?,
            max_body,
            queue,
            ..ServeOptions::default()
        }),
        Command::Bench {
            what:
                BenchCommand::Serve {
                    url,
                    clients,
                    requests,
                    batch,
                    env,
                    timeout,
                    json,
                },
        } => {
            let report = verigym::serve::load::run_load(&verigym::serve::load::LoadOptions {
                url,
                clients,
                requests,
                batch,
                env,
                seed: 0,
                timeout: std::time::Duration::from_secs_f64(timeout),
            })
            .map_err(anyhow::Error::msg)?;
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                println!("{}", report.render());
            }
            Ok(if report.healthy() {
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

fn bench_envs(
    registry: &Registry,
    ids: Vec<String>,
    n: usize,
    seed: u64,
    as_json: bool,
) -> Result<u8> {
    if n == 0 {
        bail!("--n must be at least 1");
    }
    let ids = if ids.is_empty() {
        registry
            .entries()
            .iter()
            .map(|r| match r.spec.presets.iter().any(|p| p.name == "easy") {
                true => format!("{}@easy", r.spec.id),
                false => r.spec.id.to_string(),
            })
            .collect()
    } else {
        ids
    };
    let progress = indicatif::ProgressBar::new(ids.len() as u64);
    let mut results = Vec::new();
    for id in &ids {
        progress.set_message(id.clone());
        let result =
            verigym::envbench::bench_env(registry, id, n, seed).map_err(anyhow::Error::msg)?;
        if as_json {
            progress.suspend(|| println!("{}", serde_json::to_string(&result).unwrap_or_default()));
        }
        results.push(result);
        progress.inc(1);
    }
    progress.finish_and_clear();
    if !as_json {
        print!("{}", verigym::envbench::render(&results));
    }
    Ok(EXIT_OK)
}

fn serve(options: ServeOptions) -> Result<u8> {
    let addr = options.addr;
    let stats = verigym::serve::run_until_signal(options, Registry::builtin(), |bound| {
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
    use verigym::difficulty::{check_harder, measure_scale, render};
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
                println!("NOT A SCALE: {}", why.lines().next().unwrap_or_default());
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
        registry
            .entries()
            .iter()
            .flat_map(|r| {
                r.spec
                    .presets
                    .iter()
                    .map(move |p| format!("{}@{}", r.spec.id, p.name))
            })
            .collect()
    } else {
        ids
    };
    let mut audits = Vec::new();
    for id in &ids {
        audits.push(verigym::audit::audit_env(registry, id, n, seed).map_err(anyhow::Error::msg)?);
    }
    if as_json {
        for audit in &audits {
            println!("{}", serde_json::to_string(audit)?);
        }
    } else {
        print!("{}", verigym::audit::render(&audits));
    }
    let flags: usize = audits.iter().map(|a| a.flags()).sum();
    eprintln!("audited {} envs: {flags} flagged probes", audits.len());
    Ok(if flags == 0 {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
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
        .map(|p| make_agent(opponent, verigym::envs::mix_seed(seed, p as u64)))
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
