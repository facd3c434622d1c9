//! verigym's reference agent, written with [burn](https://burn.dev) on the
//! pure-Rust `flex` CPU backend: small policies trained on verigym's own
//! envs by our own PPO self-play trainer, saved as checkpoints that play
//! through the ordinary episode driver.
//!
//! Two calls make up the API the CLIs use:
//!
//! - [`train`] trains on an env, writes the checkpoint to
//!   `TrainOptions::output`, the learning curve next to it (`.curve.csv`,
//!   `.curve.svg`), and reports progress and final held-out figures.
//! - [`load_agent`] turns a checkpoint into a [`verigym_envs::Agent`].
//!
//! Games supported ([`game`]): `games/tictactoe-v1`,
//! `games/connect-four-v1`, `games/kuhn-poker-v1` (an MLP policy-value net
//! over [`game::codec`]'s encoding of the structured observation, with
//! illegal moves masked), trained by PPO self-play.
//! Text ([`text`]): any one-player env whose task text is short, single-turn
//! with reference answers (e.g. `math/arithmetic-v1@0`) or multi-turn with
//! an oracle (e.g. `logic/guess-number-v2` on a small range), with
//! `Algo::Grpo`.
//!
//! The two folders share only small pieces: [`budget`], [`sampling`]
//! (argmax and seeded draws), [`tensors`], [`surrogate`] (the clipped
//! surrogate both losses are tested against), [`metric`], [`curve`],
//! [`device`] and [`error`]. Neither folder imports the other, and no
//! module imports this file: it only wires them into [`train`] and
//! [`load_agent`].
//!
//! ```no_run
//! use verigym_agent::{Algo, Budget, TrainOptions, train, load_agent};
//! let opts = TrainOptions {
//!     env_id: "games/tictactoe-v1".into(),
//!     algo: Algo::Ppo,
//!     steps_or_minutes: Budget::Steps(200_000),
//!     seed: 1,
//!     output: "ttt.json".into(),
//!     config: None,
//!     hyper: None,
//! };
//! let report = train(&opts, &mut |p| eprintln!("{} {:?}", p.iteration, p.eval)).unwrap();
//! let agent = load_agent(&report.checkpoint).unwrap();
//! ```
//!
//! Training is deterministic for a seed with a step budget on one thread
//! (weights start from verigym's own seeded generator; every rollout and
//! minibatch draw comes from it).

pub mod budget;
pub mod curve;
pub mod device;
pub mod error;
pub mod game;
pub mod metric;
pub mod sampling;
pub mod surrogate;
pub mod tensors;
pub mod text;

use std::path::{Path, PathBuf};

use verigym_envs::Agent;

pub use crate::budget::Budget;
pub use crate::error::AgentError;
pub use crate::metric::Metric;

use crate::game::agent::NetAgent;
use crate::game::checkpoint::GameCheckpoint;
use crate::game::codec::GameCodec;
use crate::game::trainer::{PpoConfig, train_ppo};
use crate::text::agent::TextAgent;
use crate::text::checkpoint::{TEXT_FORMAT, TextCheckpoint};
use crate::text::config::TextConfig;
use crate::text::trainer::train_text;

/// The training algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// PPO with GAE and self-play (games).
    Ppo,
    /// Group-relative policy optimisation (the Dr. GRPO variant) for
    /// one-player text envs, after a supervised warm start: a tiny
    /// character-level transformer ([`text::char_lm`]) reads the task text
    /// (each turn's observation) and writes the answer (the move); the env's
    /// verifier is the reward, one per episode.
    Grpo,
}

/// What to train, for how long, and where to write it.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// A registry id, e.g. `games/tictactoe-v1`.
    pub env_id: String,
    pub algo: Algo,
    pub steps_or_minutes: Budget,
    pub seed: u64,
    /// The checkpoint file; the curve goes next to it.
    pub output: PathBuf,
    /// JSON overrides of the env's config (text tasks only).
    pub config: Option<serde_json::Value>,
    /// JSON overrides of the trainer's settings (text tasks:
    /// [`TextConfig`]'s fields).
    pub hyper: Option<serde_json::Value>,
}

/// One training iteration's figures, passed to the progress callback.
#[derive(Clone, Debug)]
pub struct TrainProgress {
    pub iteration: usize,
    pub env_steps: u64,
    pub seconds: f64,
    pub learner_return: f64,
    pub loss: f64,
    pub entropy: f64,
    /// The headline held-out figure, on evaluation iterations.
    pub eval: Option<f64>,
    pub eval_name: String,
}

/// What a finished run wrote and measured.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub checkpoint: PathBuf,
    pub curve_csv: PathBuf,
    pub curve_svg: PathBuf,
    pub iterations: usize,
    pub env_steps: u64,
    pub seconds: f64,
    /// Held-out figures of the saved checkpoint.
    pub metrics: Vec<Metric>,
}

/// The name of the headline evaluation figure for an env's curve.
fn eval_name(codec: GameCodec) -> &'static str {
    match codec {
        GameCodec::TicTacToe => "worst_non_loss",
        GameCodec::ConnectFour => "worst_win_vs_win_or_block",
        GameCodec::KuhnPoker => "exploitability",
    }
}

/// `ttt.json` → `ttt.curve.csv`.
fn sibling(output: &Path, suffix: &str) -> PathBuf {
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "agent".into());
    output.with_file_name(format!("{stem}.{suffix}"))
}

/// Trains an agent and writes its checkpoint, learning-curve CSV and SVG.
///
/// # Errors
/// [`AgentError::Unsupported`] for envs or algorithms without a trainer;
/// env, I/O and plotting errors.
pub fn train(
    opts: &TrainOptions,
    progress: &mut dyn FnMut(TrainProgress),
) -> Result<TrainReport, AgentError> {
    if opts.algo == Algo::Grpo {
        return train_grpo(opts, progress);
    }
    if opts.config.is_some() || opts.hyper.is_some() {
        return Err(AgentError::Unsupported {
            env_id: opts.env_id.clone(),
            algo: "ppo with config overrides".into(),
            supported: "the games' default configs".into(),
        });
    }
    let codec = match (opts.algo, GameCodec::for_env(&opts.env_id)) {
        (Algo::Ppo, Some(codec)) => codec,
        _ => {
            return Err(AgentError::Unsupported {
                env_id: opts.env_id.clone(),
                algo: format!("{:?}", opts.algo),
                supported: "ppo on games/tictactoe-v1, games/connect-four-v1, games/kuhn-poker-v1; grpo on one-player text envs (single-turn with references, multi-turn with an oracle)"
                    .into(),
            });
        }
    };
    let name = eval_name(codec);
    let trained_with = format!(
        "verigym_agent::train(TrainOptions {{ env_id: {:?}, algo: {:?}, steps_or_minutes: {:?}, seed: {} }})",
        opts.env_id, opts.algo, opts.steps_or_minutes, opts.seed
    );
    let run = train_ppo(
        &opts.env_id,
        codec,
        &PpoConfig::for_codec(codec),
        opts.steps_or_minutes,
        opts.seed,
        trained_with,
        &mut |p| {
            progress(TrainProgress {
                iteration: p.iteration,
                env_steps: p.env_steps,
                seconds: p.seconds,
                learner_return: p.learner_return,
                loss: p.loss,
                entropy: p.entropy,
                eval: p.eval,
                eval_name: name.to_string(),
            })
        },
    )?;
    if let Some(dir) = opts.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| AgentError::io(dir, e))?;
    }
    run.checkpoint.save(&opts.output)?;
    let curve_csv = sibling(&opts.output, "curve.csv");
    let curve_svg = sibling(&opts.output, "curve.svg");
    curve::write_csv(&curve_csv, name, &run.curve)?;
    curve::write_svg(&curve_svg, &opts.env_id, name, &run.curve)?;
    Ok(TrainReport {
        checkpoint: opts.output.clone(),
        curve_csv,
        curve_svg,
        iterations: run.iterations,
        env_steps: run.env_steps,
        seconds: run.seconds,
        metrics: run.final_metrics,
    })
}

/// The text path of [`train`]: warm start, GRPO, both checkpoints written
/// (`OUT` after GRPO, `OUT.warm.json` after the warm start alone) and both
/// evaluated on the same held-out tasks.
fn train_grpo(
    opts: &TrainOptions,
    progress: &mut dyn FnMut(TrainProgress),
) -> Result<TrainReport, AgentError> {
    let config = TextConfig::with_overrides(opts.hyper.as_ref()).map_err(|message| {
        AgentError::Unsupported {
            env_id: opts.env_id.clone(),
            algo: format!("grpo with settings {message}"),
            supported: "the fields of verigym_agent::text::config::TextConfig".into(),
        }
    })?;
    let trained_with = format!(
        "verigym_agent::train(TrainOptions {{ env_id: {:?}, algo: Grpo, steps_or_minutes: {:?}, seed: {}, config: {:?} }}) with {:?}",
        opts.env_id,
        opts.steps_or_minutes,
        opts.seed,
        opts.config.as_ref().map(ToString::to_string),
        config
    );
    let name = "held_out_pass_at_1";
    let run = train_text(
        &opts.env_id,
        opts.config.as_ref(),
        &config,
        opts.steps_or_minutes,
        opts.seed,
        trained_with,
        &mut |p| {
            progress(TrainProgress {
                iteration: p.iteration,
                env_steps: p.env_steps,
                seconds: p.seconds,
                learner_return: p.learner_return,
                loss: p.loss,
                entropy: p.entropy,
                eval: p.eval,
                eval_name: name.to_string(),
            })
        },
    )?;
    if let Some(dir) = opts.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| AgentError::io(dir, e))?;
    }
    run.last.save(&opts.output)?;
    run.warm.save(&sibling(&opts.output, "warm.json"))?;
    let curve_csv = sibling(&opts.output, "curve.csv");
    let curve_svg = sibling(&opts.output, "curve.svg");
    text::text_curve::write_text_csv(&curve_csv, &run.curve)?;
    let points: Vec<curve::CurvePoint> = run.curve.iter().map(|r| r.point()).collect();
    curve::write_svg(&curve_svg, &opts.env_id, name, &points)?;
    let mut metrics = Vec::new();
    for (label, eval) in [("warm_start", &run.warm_eval), ("grpo", &run.last_eval)] {
        metrics.push(Metric {
            name: format!("{label}_pass_at_1"),
            value: eval.rate(),
            games: eval.tasks(),
        });
        for &(k, value) in &eval.pass_at_k {
            metrics.push(Metric {
                name: format!("{label}_sampled_pass_at_{k}"),
                value,
                games: config.pass_k_tasks,
            });
        }
    }
    // `games` of the interval is the number of distinct held-out tasks:
    // the interval's sample size (repeats of a task count once).
    let gains = [("", Some(run.gain)), ("sampled_", run.sampled_gain)];
    for (prefix, gain) in gains {
        let Some(gain) = gain else { continue };
        metrics.push(Metric {
            name: format!("{prefix}paired_gain"),
            value: gain.mean,
            games: gain.episodes,
        });
        metrics.push(Metric {
            name: format!("{prefix}paired_gain_ci95_half_width"),
            value: gain.half_width,
            games: gain.tasks,
        });
    }
    Ok(TrainReport {
        checkpoint: opts.output.clone(),
        curve_csv,
        curve_svg,
        iterations: run.iterations,
        env_steps: run.env_steps,
        seconds: run.seconds,
        metrics,
    })
}

/// Loads a checkpoint written by [`train`] (game or text) as a driver
/// agent, named `burn:<file name>`.
///
/// # Errors
/// [`AgentError::Io`] or [`AgentError::BadCheckpoint`].
pub fn load_agent(path: &Path) -> Result<Box<dyn Agent>, AgentError> {
    let name = format!(
        "burn:{}",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let text = std::fs::read_to_string(path).map_err(|e| AgentError::io(path, e))?;
    if text.contains(TEXT_FORMAT) {
        let (checkpoint, model) = TextCheckpoint::parse(path, &text)?;
        return Ok(Box::new(TextAgent::new(name, checkpoint, model)));
    }
    let checkpoint = GameCheckpoint::load(path)?;
    Ok(Box::new(NetAgent::new(
        name,
        checkpoint.codec,
        checkpoint.play,
        &checkpoint.weights,
    )))
}
