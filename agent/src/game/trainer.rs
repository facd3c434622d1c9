//! The PPO self-play trainer for games: one shared policy plays every
//! seat; opponents are itself, a pool of its past snapshots and scripted
//! baselines; periodic evaluation on held-out seeds picks the checkpoint.

use std::time::Instant;

use burn::grad_clipping::GradientClippingConfig;
use burn::module::Module;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use verigym_envs::{Registry, Rng, mix_seed};

use crate::budget::Budget;
use crate::curve::CurvePoint;
use crate::error::AgentError;
use crate::game::checkpoint::{FORMAT, GameCheckpoint, default_play};
use crate::game::codec::GameCodec;
use crate::game::eval::{Seeds, evaluate, evaluate_on};
use crate::game::policy_value_net::{NetShape, NetWeights, PolicyValueNet, illegal_bias};
use crate::game::ppo_loss::{PpoLossConfig, normalise, ppo_loss};
use crate::game::rollout::{Opponent, RolloutConfig, Sample, play_batch};
use crate::metric::Metric;
use crate::tensors::matrix;

/// PPO and self-play settings for one game.
#[derive(Clone, Debug)]
pub struct PpoConfig {
    pub hidden: usize,
    /// Games per iteration, in pairs (one per learner seat).
    pub game_pairs: usize,
    /// How many pairs of each iteration face each opponent, in order
    /// (the rest are self-play).
    pub opponent_pairs: Vec<(Opponent, usize)>,
    pub epochs: usize,
    pub minibatch: usize,
    pub learning_rate: f64,
    pub loss: PpoLossConfig,
    pub gamma: f32,
    pub lambda: f32,
    /// A snapshot joins the pool every this many iterations.
    pub snapshot_every: usize,
    pub pool_size: usize,
    pub eval_every: usize,
    pub eval_games: usize,
}

impl PpoConfig {
    /// The tuned settings for a game.
    pub fn for_codec(codec: GameCodec) -> PpoConfig {
        let loss = PpoLossConfig {
            clip: 0.2,
            value_coef: 0.5,
            entropy_coef: 0.01,
        };
        let base = PpoConfig {
            hidden: 64,
            game_pairs: 32,
            opponent_pairs: vec![(Opponent::Snapshot, 8), (Opponent::Random, 8)],
            epochs: 4,
            minibatch: 256,
            learning_rate: 1e-3,
            loss,
            gamma: 1.0,
            lambda: 0.95,
            snapshot_every: 5,
            pool_size: 10,
            eval_every: 10,
            eval_games: 200,
        };
        match codec {
            GameCodec::TicTacToe => PpoConfig {
                game_pairs: 64,
                opponent_pairs: vec![(Opponent::Snapshot, 16), (Opponent::Random, 16)],
                loss: PpoLossConfig {
                    entropy_coef: 0.03,
                    ..loss
                },
                ..base
            },
            GameCodec::ConnectFour => PpoConfig {
                hidden: 128,
                game_pairs: 16,
                opponent_pairs: vec![
                    (Opponent::Snapshot, 4),
                    (Opponent::WinOrBlock, 8),
                    (Opponent::Random, 1),
                ],
                eval_games: 100,
                ..base
            },
            // Pure self-play with strong entropy regularisation: the
            // regularised game's equilibrium is close to Nash, and the
            // simultaneous updates settle there instead of cycling.
            GameCodec::KuhnPoker => PpoConfig {
                hidden: 32,
                game_pairs: 128,
                opponent_pairs: Vec::new(),
                learning_rate: 3e-4,
                eval_every: 5,
                eval_games: 0,
                loss: PpoLossConfig {
                    entropy_coef: 0.1,
                    ..loss
                },
                ..base
            },
        }
    }

    fn opponents(&self, have_snapshot: bool) -> Vec<Opponent> {
        let mut list = Vec::with_capacity(2 * self.game_pairs);
        for &(opponent, pairs) in &self.opponent_pairs {
            let opponent = if opponent == Opponent::Snapshot && !have_snapshot {
                Opponent::SelfPlay
            } else {
                opponent
            };
            for _ in 0..pairs.min(self.game_pairs - list.len() / 2) {
                list.extend([opponent, opponent]);
            }
        }
        list.resize(2 * self.game_pairs, Opponent::SelfPlay);
        list
    }
}

/// What a run produced.
pub struct PpoRun {
    pub checkpoint: GameCheckpoint,
    pub curve: Vec<CurvePoint>,
    pub final_metrics: Vec<Metric>,
    pub iterations: usize,
    pub env_steps: u64,
    pub seconds: f64,
}

/// Whether `a` is a better headline than `b` (exploitability: lower).
fn better(codec: GameCodec, a: f64, b: f64) -> bool {
    match codec {
        GameCodec::KuhnPoker => a < b,
        _ => a > b,
    }
}

/// Trains a game policy by PPO self-play.
///
/// # Errors
/// Env errors.
pub fn train_ppo(
    env_id: &str,
    codec: GameCodec,
    config: &PpoConfig,
    budget: Budget,
    seed: u64,
    trained_with: String,
    progress: &mut dyn FnMut(&CurvePoint),
) -> Result<PpoRun, AgentError> {
    let registry = Registry::builtin();
    let prototype = registry
        .make(env_id, None)
        .map_err(|e| AgentError::env(env_id, e))?;
    let device = crate::device::training_device()?.autodiff();
    let mut rng = Rng::from_seed(mix_seed(seed, 0));
    let shape = NetShape {
        inputs: codec.input_size(),
        hidden: config.hidden,
        actions: codec.num_actions(),
    };
    let mut model = PolicyValueNet::from_weights(&NetWeights::init(shape, &mut rng), &device);
    let mut optim: ModuleOptimizer = AdamConfig::new()
        .with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
        .init();
    let mut pool: Vec<NetWeights> = Vec::new();
    let mut best: Option<(f64, NetWeights)> = None;
    let mut curve = Vec::new();
    let start = Instant::now();
    let mut env_steps = 0u64;
    let mut iteration = 0usize;
    let rollout_device = Device::flex();
    loop {
        let done = match budget {
            Budget::Steps(n) => env_steps >= n,
            Budget::Minutes(m) => start.elapsed().as_secs_f64() >= m * 60.0,
        };
        if done {
            break;
        }
        iteration += 1;
        let snapshot = (!pool.is_empty()).then(|| {
            let pick = rng.below(pool.len() as u64) as usize;
            PolicyValueNet::from_weights(&pool[pick], &rollout_device)
        });
        let opponents = config.opponents(snapshot.is_some());
        let rollout = RolloutConfig {
            codec,
            opponents: &opponents,
            gamma: config.gamma,
            lambda: config.lambda,
        };
        let learner = model.valid();
        let batch = play_batch(
            prototype.as_ref(),
            &learner,
            snapshot.as_ref(),
            &rollout,
            mix_seed(seed, iteration as u64),
            &mut rng,
        )?;
        env_steps += batch.samples.len() as u64;
        // Linear learning-rate decay to 10%: self-play in games with mixed
        // equilibria (Kuhn) oscillates at a constant rate.
        let spent = match budget {
            Budget::Steps(n) => env_steps as f64 / n.max(1) as f64,
            Budget::Minutes(m) => start.elapsed().as_secs_f64() / (m * 60.0).max(1e-9),
        };
        let learning_rate = config.learning_rate * (1.0 - 0.9 * spent.clamp(0.0, 1.0));
        let (next, loss, entropy) = update(
            model,
            &mut optim,
            batch.samples,
            config,
            learning_rate,
            &mut rng,
            &device,
        );
        model = next;
        if iteration.is_multiple_of(config.snapshot_every) {
            pool.push(model.weights());
            if pool.len() > config.pool_size {
                pool.remove(0);
            }
        }
        let eval = if iteration.is_multiple_of(config.eval_every) {
            let weights = model.weights();
            let headline = evaluate_on(
                env_id,
                codec,
                &weights,
                config.eval_games,
                Seeds::Validation,
            )?[0]
                .value;
            if best
                .as_ref()
                .is_none_or(|(b, _)| better(codec, headline, *b))
            {
                best = Some((headline, weights));
            }
            Some(headline)
        } else {
            None
        };
        let point = CurvePoint {
            iteration,
            env_steps,
            seconds: start.elapsed().as_secs_f64(),
            learner_return: batch.learner_return,
            loss,
            entropy,
            eval,
        };
        progress(&point);
        curve.push(point);
    }
    let last = model.weights();
    let last_headline =
        evaluate_on(env_id, codec, &last, config.eval_games, Seeds::Validation)?[0].value;
    let weights = match best {
        Some((b, w)) if better(codec, b, last_headline) => w,
        _ => last,
    };
    let final_metrics = evaluate(env_id, codec, &weights, config.eval_games)?;
    Ok(PpoRun {
        checkpoint: GameCheckpoint {
            format: FORMAT.to_string(),
            env_id: env_id.to_string(),
            codec,
            play: default_play(codec),
            trained_with,
            weights,
        },
        curve,
        final_metrics,
        iterations: iteration,
        env_steps,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Several epochs of minibatch PPO on one batch; returns the model and the
/// mean loss and entropy of the last epoch.
fn update(
    mut model: PolicyValueNet,
    optim: &mut ModuleOptimizer,
    mut samples: Vec<Sample>,
    config: &PpoConfig,
    learning_rate: f64,
    rng: &mut Rng,
    device: &Device,
) -> (PolicyValueNet, f64, f64) {
    if samples.is_empty() {
        return (model, 0.0, 0.0);
    }
    let mut advantages: Vec<f32> = samples.iter().map(|s| s.advantage).collect();
    normalise(&mut advantages);
    for (s, a) in samples.iter_mut().zip(advantages) {
        s.advantage = a;
    }
    let width = samples[0].features.len();
    let actions = samples[0].legal.len();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let (mut loss_sum, mut entropy_sum, mut batches) = (0.0, 0.0, 0usize);
    for epoch in 0..config.epochs {
        rng.shuffle(&mut order);
        let last_epoch = epoch + 1 == config.epochs;
        for chunk in order.chunks(config.minibatch) {
            let rows = chunk.len();
            let pick = |f: &dyn Fn(&Sample) -> Vec<f32>| -> Vec<f32> {
                chunk.iter().flat_map(|&i| f(&samples[i])).collect()
            };
            let features = pick(&|s| s.features.clone());
            let one_hot = pick(&|s| {
                (0..actions)
                    .map(|a| f32::from(u8::from(a == s.action)))
                    .collect()
            });
            let masks: Vec<Vec<bool>> = chunk.iter().map(|&i| samples[i].legal.clone()).collect();
            let out = model.forward(
                matrix(features, rows, width, device),
                illegal_bias(&masks, actions, device),
            );
            let loss = ppo_loss(
                out.log_probs,
                out.values,
                matrix(one_hot, rows, actions, device),
                matrix(pick(&|s| vec![s.log_prob]), rows, 1, device),
                matrix(pick(&|s| vec![s.advantage]), rows, 1, device),
                matrix(pick(&|s| vec![s.target]), rows, 1, device),
                config.loss,
            );
            if last_epoch {
                loss_sum += f64::from(loss.policy + config.loss.value_coef * loss.value);
                entropy_sum += f64::from(loss.entropy);
                batches += 1;
            }
            let grads = GradientsParams::from_grads(loss.total.backward(), &model);
            model = optim.step(learning_rate, model, grads);
        }
    }
    let n = batches.max(1) as f64;
    (model, loss_sum / n, entropy_sum / n)
}
