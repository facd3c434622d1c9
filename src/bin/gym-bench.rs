//! `gym-bench`: run agents on envs and print a leaderboard.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Result, bail};
use clap::{Parser, Subcommand};
use verigym::bench::{EnvReport, RunPlan, default_suite, render_table, run_plan};
use verigym::cli::{EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, parse_config_arg, progress_bar};
use verigym::envs::{DriverConfig, Registry};

/// Run agents on verigym envs and rank them.
///
/// With no subcommand, runs the default suite (every registered env with the
/// built-in agents) and prints the leaderboard.
///
/// Exit codes: 0 success; 1 some runs failed (each failure is printed and
/// the rest still run); 2 bad usage.
#[derive(Parser)]
#[command(name = "gym-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Episodes per env and line-up in the default suite.
    #[arg(long, default_value_t = 200)]
    n: usize,
    /// Seed of the default suite.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON reports instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run chosen envs with chosen agents.
    ///
    /// Built-in agents: random, noop (empty answer), oracle (the env's
    /// reference solver or perfect player), echo, constant:TEXT. On a
    /// one-player env each agent is scored on its own; on a game the agents
    /// take the seats in order, and both seatings are played when they differ.
    Run {
        /// Env ids, optionally with presets (`logic/guess-number-v1@hard`).
        #[arg(long, required = true, num_args = 1..)]
        env: Vec<String>,
        /// Comma-separated agent names.
        #[arg(long, default_value = "oracle,random,noop", value_delimiter = ',')]
        agents: Vec<String>,
        /// Episodes per line-up.
        #[arg(long, default_value_t = 100)]
        n: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// JSON object of config overrides (applies to every --env), or @FILE.
        #[arg(long)]
        config: Option<String>,
        /// Refused actions allowed per turn before a forfeit.
        #[arg(long, default_value_t = 2)]
        retries: u32,
        /// Turn cap below each env's own.
        #[arg(long)]
        max_turns: Option<usize>,
        /// Print JSON reports instead of the table.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn run(cli: Cli) -> Result<u8> {
    let registry = Registry::builtin();
    let (plans, json) = match cli.command {
        None => (default_suite(&registry, cli.n, cli.seed), cli.json),
        Some(Command::Run {
            env,
            agents,
            n,
            seed,
            config,
            retries,
            max_turns,
            json,
        }) => {
            let overrides = parse_config_arg(config.as_deref())?;
            let driver = DriverConfig {
                max_retries: retries,
                max_turns,
                record_transcript: false,
            };
            let plans: Vec<RunPlan> = env
                .into_iter()
                .map(|env| RunPlan {
                    env,
                    overrides: overrides.clone(),
                    agents: agents.clone(),
                    episodes: n,
                    seed,
                    driver: driver.clone(),
                })
                .collect();
            // Usage errors (unknown env or agent) stop before any work.
            for plan in &plans {
                registry.make(&plan.env, plan.overrides.as_ref())?;
                for agent in &plan.agents {
                    verigym::envs::driver::builtin_agent(agent, 0).map_err(anyhow::Error::msg)?;
                }
            }
            (plans, json || cli.json)
        }
    };
    if plans.is_empty() {
        bail!("nothing to run");
    }
    let total: u64 = plans
        .iter()
        .map(|p| (p.episodes * p.agents.len().max(1)) as u64)
        .sum();
    let bar = progress_bar(total, "episodes");
    let done = AtomicU64::new(0);
    let tick = |k: usize| {
        let now = done.fetch_add(k as u64, Ordering::Relaxed) + k as u64;
        if now.is_multiple_of(64) {
            bar.set_position(now);
        }
    };
    let mut reports: Vec<EnvReport> = Vec::new();
    let mut failures = 0;
    for plan in &plans {
        match run_plan(&registry, plan, &tick) {
            Ok(report) => reports.push(report),
            Err(message) => {
                bar.suspend(|| eprintln!("error: {}: {message}", plan.env));
                failures += 1;
            }
        }
    }
    bar.finish_and_clear();
    if json {
        for report in &reports {
            println!("{}", serde_json::to_string(report)?);
        }
    } else {
        print!("{}", render_table(&reports));
    }
    Ok(if failures == 0 {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
}
