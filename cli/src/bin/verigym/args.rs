//! The `verigym` command line: every subcommand and option, with the help
//! text `--help` prints.

use clap::{Parser, Subcommand};
use verigym_envs::generate::OutputFormat;

/// Verifiable-reward environments for training LLM agents.
///
/// Exit codes: 0 success; 1 the command ran but some items failed (e.g.
/// malformed answer lines); 2 bad usage or input (unknown env, bad JSON).
#[derive(Parser)]
#[command(name = "verigym", version, about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// List every env: id, kind, family, players, presets, description.
    List {
        /// One JSON object per env instead of a table.
        #[arg(long)]
        json: bool,
        /// Also list superseded versions: they generate nothing, but their
        /// task cards still score and replay through the newest version.
        #[arg(long)]
        all: bool,
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
        #[arg(long, default_value = "card", value_parser = output_format())]
        format: OutputFormat,
    },
    /// Score answers against task cards.
    ///
    /// Answers are JSONL {"id": CARD_ID, "answer": TEXT} (a list of texts for
    /// multi-turn envs), or {"id": CARD_ID, "response": CHAT_COMPLETION}.
    /// Tasks may be cards or chat rows from `generate --format chat`. Writes
    /// {"id","reward","passed","breakdown"} per answer and a summary on
    /// stderr; bad lines are reported by number and the rest still scored
    /// (exit code 1). An answer the env could not judge (the sandbox or a
    /// toolchain failed, not the answer) gets "reward": null and the reason
    /// in "no_verdict": drop it from training (also exit code 1).
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
        /// ppo (self-play, games) or grpo (one-player text envs, single-turn
        /// with reference answers or multi-turn with an oracle: a supervised
        /// warm start on demonstrations, then Dr. GRPO on the levels a
        /// curriculum picks; also writes OUT.warm.json, the warm start alone).
        #[arg(long, default_value = "ppo")]
        algo: String,
        /// Learner decisions to collect (deterministic for a seed); for
        /// grpo, episodes played after the warm start.
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
        /// the fields of verigym_agent::text::config::TextConfig, e.g.
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
        /// Requests with a body (score, generate, reset, steps) admitted at
        /// once, reading their body, running or waiting; more answer 503
        /// "busy" at once.
        #[arg(long, default_value_t = 64)]
        queue: usize,
        /// Seconds one generate, score, reset or step job may run; past
        /// it the request answers 503 naming this limit and the job is
        /// cancelled at its next card or item.
        #[arg(long, default_value_t = 30.0)]
        job_timeout: f64,
        /// Largest answer in bytes; a request whose answer would be larger
        /// answers 413 (fetch generated cards in pages with `offset`).
        #[arg(long, default_value_t = 64 * 1024 * 1024)]
        max_response: usize,
        /// Open connections one client address may hold (WebSocket
        /// sessions included); one more is answered 503 and closed.
        #[arg(long, default_value_t = 256)]
        max_conns_per_ip: usize,
        /// Seconds a connection has to send a whole request head (counted
        /// from when it opens, and again after each answer).
        #[arg(long, default_value_t = 10.0)]
        header_timeout: f64,
        /// Seconds a connection may sit with no request in flight before
        /// it is closed.
        #[arg(long, default_value_t = 60.0)]
        idle_timeout: f64,
        /// A card set dataset envs may read, as NAME=PATH (repeatable);
        /// requests name it: `"config": {"cards": "NAME"}`. Requests may
        /// not name files.
        #[arg(long = "cards", value_name = "NAME=PATH", value_parser = parse_card_set)]
        cards: Vec<(String, std::path::PathBuf)>,
        /// The env a bare OpenEnv `reset()` plays (default:
        /// logic/guess-number-v2).
        #[arg(long)]
        env: Option<String>,
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
    Import(crate::import::ImportArgs),
}

#[derive(Subcommand)]
pub(crate) enum CheckCommand {
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
pub(crate) enum BenchCommand {
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
        #[arg(default_value = "verifiers/data/math-verify/dev.jsonl")]
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
        /// OpenEnv WebSocket sessions instead of scoring: each of the
        /// `--requests` sessions plays a whole `--env` episode with the
        /// reference moves (sessions/s, session p50/p99, 503 refusals).
        #[arg(long)]
        ws: bool,
        #[arg(long)]
        json: bool,
    },
}

/// `--format`: one of [`OutputFormat::NAMES`], listed in `--help`.
fn output_format() -> impl clap::builder::TypedValueParser<Value = OutputFormat> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(OutputFormat::NAMES)
        .try_map(|name| name.parse::<OutputFormat>())
}

/// `--cards NAME=PATH`.
fn parse_card_set(arg: &str) -> Result<(String, std::path::PathBuf), String> {
    verigym_cli::serve::cardsets::CardSets::parse_pair(arg)
}
