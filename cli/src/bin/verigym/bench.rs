//! `verigym bench`: env, math-verifier, sandbox and server throughput.

use anyhow::{Context, Result, bail};
use verigym_cli::bin_support::{EXIT_OK, EXIT_SOME_FAILED, read_input};
use verigym_envs::Registry;

use crate::args::BenchCommand;

/// Runs one `bench` subcommand; the exit code is 1 when something it
/// measured failed.
pub(crate) fn run(registry: &Registry, what: BenchCommand) -> Result<u8> {
    match what {
        BenchCommand::Envs { ids, n, seed, json } => bench_envs(registry, ids, n, seed, json),
        BenchCommand::Math { file, passes, json } => {
            let bench = verigym_cli::check::bench_math(&read_input(&file)?, passes)
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
        BenchCommand::Code {
            workers,
            processes,
            passes,
            json,
            worker,
        } => {
            if let Some(shard) = worker {
                let shard =
                    verigym_cli::code_bench::parse_shard(&shard).map_err(anyhow::Error::msg)?;
                verigym_cli::code_bench::bench_worker(shard, passes).map_err(anyhow::Error::msg)?;
                return Ok(EXIT_OK);
            }
            let workers = match workers {
                0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
                n => n,
            };
            let report = if processes {
                let exe = std::env::current_exe().context("locating this binary")?;
                verigym_cli::code_bench::bench_processes(&exe, workers, passes)
            } else {
                verigym_cli::code_bench::bench_in_process(workers, passes, (0, 1))
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
        BenchCommand::Serve {
            url,
            clients,
            requests,
            batch,
            env,
            timeout,
            ws,
            json,
        } => {
            let options = verigym_cli::serve::load::LoadOptions {
                url,
                clients,
                requests,
                batch,
                env,
                seed: 0,
                timeout: std::time::Duration::from_secs_f64(timeout),
            };
            if ws {
                let report = verigym_cli::serve::load_ws::run_ws_load(&options)
                    .map_err(anyhow::Error::msg)?;
                if json {
                    println!("{}", serde_json::to_string(&report)?);
                } else {
                    println!("{}", report.render());
                }
                return Ok(if report.healthy() {
                    EXIT_OK
                } else {
                    EXIT_SOME_FAILED
                });
            }
            let report =
                verigym_cli::serve::load::run_load(&options).map_err(anyhow::Error::msg)?;
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
            verigym_cli::envbench::bench_env(registry, id, n, seed).map_err(anyhow::Error::msg)?;
        if as_json {
            progress.suspend(|| println!("{}", serde_json::to_string(&result).unwrap_or_default()));
        }
        results.push(result);
        progress.inc(1);
    }
    progress.finish_and_clear();
    if !as_json {
        print!("{}", verigym_cli::envbench::render(&results));
    }
    Ok(EXIT_OK)
}
