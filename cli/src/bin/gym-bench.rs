//! `gym-bench`: run agents on verigym envs, rank them, and write reports.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use verigym_cli::bench::{EpisodeRecord, adhoc_suite, aggregate, plan_jobs, replay, run_jobs};
use verigym_cli::bin_support::{
    EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, parse_config_arg, progress_bar,
};
use verigym_cli::runlog::{Manifest, RunDir, missing_jobs, read_manifest, read_records};
use verigym_cli::suite::{DEFAULT_SUITE, Suite};
use verigym_cli::summary::{SUMMARY, Summary, summarize};
use verigym_cli::{agents, exploit, report};
use verigym_envs::Registry;

/// The binaries' allocator (see the workspace manifest): generation and
/// play allocate many small values.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Run agents on verigym envs and rank them.
///
/// With no subcommand, runs the default suite (cli/suites/default.toml),
/// prints the summary and writes the run to runs/default/: manifest.json,
/// episodes.jsonl, summary.json, report.md and report.html.
///
/// The default suite measures every registered env (math, logic, code,
/// tools, web, games, selfplay), arithmetic and guess-number at three
/// presets: 100 tasks × 4 samples for the listed entries, 20 tasks for the
/// others. One-player envs are played by oracle (the reference solver: the
/// ceiling), random and noop (the floors); games by a ladder of random,
/// heuristic and oracle in both seats, joined in tic-tac-toe, Kuhn poker and
/// Connect Four by the project's trained reference agent
/// (burn:tictactoe, burn:kuhn-poker, burn:connect-four: the checkpoints in
/// datasets/agents/); the text agent (burn:text/arithmetic) plays
/// arithmetic in the setting it was trained on. About 17,000 episodes:
/// about 19 s of CPU with a
/// release build (35 s wall on 2 busy cores; the first build takes several
/// minutes).
///
/// Scores: an agent's score (overall, or per family) is the mean over the
/// envs it played of its pass rate there (the share of its episodes passed;
/// every suite entry, so every preset, is one env). The 95% interval is
/// Wilson-based: each env's Wilson-interval distances, combined in
/// quadrature and divided by the number of envs (task sampling for this
/// fixed set of envs). Games also get one Bradley–Terry rating over all
/// results of the games family (Elo scale), beside the per-game ratings.
///
/// Skipped envs: a code or self-play env whose sandbox runtime is missing
/// here (the C toolchain, the Python component) does not run and never
/// enters a score; the summary lists it with the reason and the command
/// that fixes it (`sandbox/setup.sh c` or `sandbox/setup.sh python`).
/// `VERIGYM_CLANG=PATH` picks the clang for C (a missing path makes the C
/// envs skip); `VERIGYM_COMPONENTIZE_PY=PATH` with an empty
/// `VERIGYM_CACHE_DIR` does the same for the Python envs.
///
/// Exit codes: 0 success; 1 some episodes failed (each failure is printed
/// and the rest still run); 2 bad usage.
#[derive(Parser)]
#[command(name = "gym-bench", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Tasks per env for the default suite (default: the suite's own).
    #[arg(long)]
    n: Option<usize>,
    /// Seed for the default suite (default: the suite's own).
    #[arg(long)]
    seed: Option<u64>,
    /// Where the default suite's run and reports go.
    #[arg(long, default_value = "runs/default")]
    out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, global = true)]
    threads: Option<usize>,
    /// Print JSON (the per-env leaderboard with the summary under
    /// `summary`) instead of the tables.
    #[arg(long, global = true)]
    json: bool,
    /// Also print the per-env table (one row per env, agent and seat) and
    /// the per-game ratings before the summary.
    #[arg(long, global = true)]
    details: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run envs with agents, without a suite file.
    ///
    /// Built-in agents: random, heuristic (a simple scripted player: win or
    /// block, greedy capture, bet the strong hands), noop (empty answer),
    /// oracle (the env's reference solver or perfect player), echo,
    /// constant:TEXT. A one-player
    /// env scores each agent on its own; a game plays every ordered pair of
    /// distinct agents (both seatings), or self-play for one name.
    Run {
        /// Env ids, optionally with presets (`logic/guess-number-v2@hard`).
        #[arg(long, required = true, num_args = 1..)]
        env: Vec<String>,
        /// Comma-separated agent names.
        #[arg(long, default_value = "oracle,random,noop", value_delimiter = ',')]
        agents: Vec<String>,
        /// Tasks per env.
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
        /// Also save the run and its reports in this directory.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run a suite file (TOML) and write the run and its reports.
    Suite {
        /// Suite file; `default` for the built-in default suite.
        #[arg(default_value = "default")]
        file: String,
        /// Run directory (default: runs/SUITE_NAME).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Continue an interrupted run in --out: only missing episodes run.
        #[arg(long)]
        resume: bool,
        /// Agents, overriding the suite's (comma-separated).
        #[arg(long, value_delimiter = ',')]
        agents: Option<Vec<String>>,
    },
    /// Exact exploitability of a Kuhn or Leduc poker policy table.
    ///
    /// The policy file is JSON mapping information-set keys to action
    /// probabilities: {"K:": {"check": 0.0, "bet": 1.0}, "J:b": {"fold":
    /// 1.0, "call": 0.0}}. Kuhn keys are the card, `:` and one letter per
    /// action so far; Leduc keys add the board card (or `-`) after the card
    /// and `/` before the second round's letters. Missing information sets
    /// are played uniformly. --template prints every key. `--policy
    /// burn:PATH` scores a trained Kuhn agent checkpoint instead (a bare
    /// name such as `burn:kuhn-poker` is the shipped checkpoint).
    Exploit {
        /// games/kuhn-poker-v1 or games/leduc-poker-v1.
        #[arg(long)]
        env: String,
        /// Policy file (JSON), or burn:CHECKPOINT.
        #[arg(long, required_unless_present = "template")]
        policy: Option<String>,
        /// Print a policy file with every information set, uniform.
        #[arg(long)]
        template: bool,
    },
    /// Re-score a run's logged episodes by replaying them (no agent calls).
    Replay {
        /// Run directory.
        dir: PathBuf,
    },
    /// Rewrite the reports of a run directory; --compare diffs two runs.
    ///
    /// With --compare, prints per agent and family (and overall) the score
    /// in each run, the change, and whether it is significant (a two-sided
    /// z-test at the 5% level on the scores' standard errors, read off their
    /// Wilson-based intervals), then the per-env rows.
    Report {
        dir: PathBuf,
        /// A second run to compare against the first.
        #[arg(long)]
        compare: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(threads) = cli.threads
        && let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
    {
        eprintln!("error: cannot start {threads} threads: {e}");
        return ExitCode::from(EXIT_USAGE);
    }
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// How results are printed.
#[derive(Clone, Copy)]
struct Output {
    json: bool,
    details: bool,
}

fn run(cli: Cli) -> Result<u8> {
    let registry = Registry::builtin();
    let output = Output {
        json: cli.json,
        details: cli.details,
    };
    match cli.command {
        None => {
            let mut suite = Suite::from_toml(DEFAULT_SUITE)
                .map_err(anyhow::Error::msg)?
                .expand(&registry);
            if let Some(n) = cli.n {
                suite.episodes = n;
                suite.envs.iter_mut().for_each(|e| e.episodes = None);
            }
            suite.seed = cli.seed.unwrap_or(suite.seed);
            execute(&registry, &suite, Some(&cli.out), false, output)
        }
        Some(Command::Run {
            env,
            agents,
            n,
            seed,
            config,
            retries,
            max_turns,
            out,
        }) => {
            let mut suite =
                adhoc_suite(&env, parse_config_arg(config.as_deref())?, &agents, n, seed);
            suite.retries = retries;
            suite.max_turns = max_turns;
            execute(&registry, &suite, out.as_deref(), false, output)
        }
        Some(Command::Suite {
            file,
            out,
            resume,
            agents,
        }) => {
            let text = if file == "default" {
                DEFAULT_SUITE.to_string()
            } else {
                std::fs::read_to_string(&file)
                    .with_context(|| format!("cannot read suite `{file}`"))?
            };
            let mut suite = Suite::from_toml(&text)
                .map_err(anyhow::Error::msg)?
                .expand(&registry);
            if let Some(agents) = agents {
                suite.agents = agents;
                suite.envs.iter_mut().for_each(|e| e.agents = None);
            }
            let out = out.unwrap_or_else(|| PathBuf::from("runs").join(&suite.name));
            execute(&registry, &suite, Some(&out), resume, output)
        }
        Some(Command::Exploit {
            env,
            policy,
            template,
        }) => {
            let tree = exploit::tree_for(&env).map_err(anyhow::Error::msg)?;
            if template {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&exploit::template(&tree))?
                );
                return Ok(EXIT_OK);
            }
            let source = policy.unwrap_or_default();
            let table = match source.strip_prefix("burn:") {
                Some(path) => exploit::burn_policy(&env, &agents::burn::resolve(path)),
                None => {
                    let text = std::fs::read_to_string(&source)
                        .with_context(|| format!("cannot read the policy file `{source}`"))?;
                    exploit::parse_policy(&tree, &text)
                }
            }
            .map_err(anyhow::Error::msg)?;
            let scored = exploit::report(&env, &tree, &table);
            if cli.json {
                println!("{}", serde_json::to_string(&scored)?);
            } else {
                print!("{}", exploit::render(&scored));
            }
            Ok(EXIT_OK)
        }
        Some(Command::Replay { dir }) => {
            let manifest = read_manifest(&dir)?;
            let records = read_records(&dir)?;
            let mismatches = replay(&registry, &manifest.suite, &records);
            for (job, reason) in &mismatches {
                eprintln!(
                    "mismatch: {} {:?} task {} sample {}: {reason}",
                    job.env, job.lineup, job.task, job.sample
                );
            }
            eprintln!(
                "replayed {} episodes: {} differ from the log",
                records.len(),
                mismatches.len()
            );
            Ok(if mismatches.is_empty() {
                EXIT_OK
            } else {
                EXIT_SOME_FAILED
            })
        }
        Some(Command::Report { dir, compare }) => {
            let (manifest, board) = load_board(&registry, &dir)?;
            let summary = write_reports(&dir, &manifest, &board)?;
            match compare {
                None => print_results(&board, &summary, Some(dir.as_path()), output)?,
                Some(other) => {
                    let (other_manifest, other_board) = load_board(&registry, &other)?;
                    let other_summary = summarize(
                        &other_manifest.suite.name,
                        &other_manifest.suite_hash,
                        &other_board,
                        &other_manifest.skipped,
                    );
                    println!(
                        "per family ({} vs {}; significant: z-test at 5% on the summary intervals):",
                        dir.display(),
                        other.display()
                    );
                    print!("{}", report::compare_families(&summary, &other_summary));
                    println!("\nper env:");
                    print!("{}", report::compare(&board, &other_board));
                }
            }
            Ok(EXIT_OK)
        }
    }
}

fn load_board(
    registry: &Registry,
    dir: &Path,
) -> Result<(Manifest, verigym_cli::bench::Leaderboard)> {
    let manifest = read_manifest(dir)?;
    let records = read_records(dir)?;
    let board = aggregate(registry, &manifest.suite, &records);
    Ok((manifest, board))
}

/// Writes summary.json, report.md and report.html into a run directory.
fn write_reports(
    dir: &Path,
    manifest: &Manifest,
    board: &verigym_cli::bench::Leaderboard,
) -> Result<Summary> {
    let summary = summarize(
        &manifest.suite.name,
        &manifest.suite_hash,
        board,
        &manifest.skipped,
    );
    std::fs::write(
        dir.join(SUMMARY),
        serde_json::to_string_pretty(&summary)? + "\n",
    )?;
    std::fs::write(
        dir.join("report.md"),
        report::markdown(manifest, board, &summary),
    )?;
    std::fs::write(
        dir.join("report.html"),
        report::html(manifest, board, &summary),
    )?;
    Ok(summary)
}

/// Prints the summary (after the per-env table with --details), or JSON.
fn print_results(
    board: &verigym_cli::bench::Leaderboard,
    summary: &Summary,
    dir: Option<&Path>,
    output: Output,
) -> Result<()> {
    if output.json {
        let mut value = serde_json::to_value(board)?;
        value["summary"] = serde_json::to_value(summary)?;
        println!("{}", serde_json::to_string(&value)?);
        return Ok(());
    }
    if output.details {
        println!("{}", report::table::leaderboard(board));
    }
    let report_path = dir.map(|d| d.join("report.html"));
    print!(
        "{}",
        report::table::summary(summary, report_path.as_deref())
    );
    if !output.details {
        println!("per-env table and per-game ratings: add --details");
    }
    Ok(())
}

/// Plans, runs (saving each episode when `out` is set), aggregates, prints.
fn execute(
    registry: &Registry,
    suite: &Suite,
    out: Option<&Path>,
    resume: bool,
    output: Output,
) -> Result<u8> {
    // Usage errors (unknown env or agent) stop before any work.
    let mut jobs = plan_jobs(registry, suite).map_err(anyhow::Error::msg)?;
    let manifest = Manifest::new(registry, suite)?;
    // Envs whose runtime is missing here do not run (and never score).
    jobs.retain(|job| !manifest.skipped.iter().any(|s| s.env == job.env));
    let (run_dir, mut records) = match out {
        Some(path) => {
            let (dir, done) = RunDir::open(path, &manifest, resume)?;
            (Some(dir), done)
        }
        None => (None, Vec::new()),
    };
    let todo = missing_jobs(jobs, &records);
    if resume && !records.is_empty() {
        eprintln!(
            "resuming: {} episodes done, {} to run",
            records.len(),
            todo.len()
        );
    }
    let bar = progress_bar(todo.len() as u64, "episodes");
    let done = AtomicU64::new(0);
    let save_errors = AtomicU64::new(0);
    let on_record = |record: &EpisodeRecord| {
        if let Some(dir) = &run_dir
            && dir.append(record).is_err()
        {
            save_errors.fetch_add(1, Ordering::Relaxed);
        }
        let now = done.fetch_add(1, Ordering::Relaxed) + 1;
        if now.is_multiple_of(32) {
            bar.set_position(now);
        }
    };
    let mut failures = 0;
    for result in run_jobs(registry, suite, &todo, &on_record) {
        match result {
            Ok(record) => records.push(record),
            Err(message) => {
                bar.suspend(|| eprintln!("error: {message}"));
                failures += 1;
            }
        }
    }
    bar.finish_and_clear();
    if save_errors.load(Ordering::Relaxed) > 0 {
        bail!(
            "{} episodes could not be saved to the run directory",
            save_errors.load(Ordering::Relaxed)
        );
    }
    let board = aggregate(registry, suite, &records);
    let summary = match &run_dir {
        Some(dir) => write_reports(&dir.path, &manifest, &board)?,
        None => summarize(&suite.name, &manifest.suite_hash, &board, &manifest.skipped),
    };
    print_results(
        &board,
        &summary,
        run_dir.as_ref().map(|d| d.path.as_path()),
        output,
    )?;
    Ok(if failures == 0 {
        EXIT_OK
    } else {
        EXIT_SOME_FAILED
    })
}
