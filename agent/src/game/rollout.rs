//! Self-play rollouts for PPO: a batch of games played side by side, one
//! batched forward pass per controller and ply.
//!
//! Every game in a batch pairs the learner with an opponent: itself (both
//! seats learn), a past snapshot, or a scripted baseline. Only the
//! learner's decisions become training samples, each seat's trajectory
//! kept apart so each seat's rewards reach only its own decisions.

use burn::tensor::Device;
use verigym_envs::{DynEnv, Rng, Status, Turn, mix_seed};

use crate::error::AgentError;
use crate::game::baselines::WinOrBlockAgent;
use crate::game::codec::GameCodec;
use crate::game::policy_value_net::{PolicyValueNet, illegal_bias};
use crate::game::ppo_loss::gae;
use crate::sampling::sample_index;
use crate::tensors::{matrix, tensor_vec};

/// Who sits opposite the learner in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The learner plays both seats.
    SelfPlay,
    /// The iteration's past snapshot.
    Snapshot,
    Random,
    WinOrBlock,
}

/// Who moves for one seat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Controller {
    Learner,
    Snapshot,
    Random,
    WinOrBlock,
}

impl Opponent {
    fn controller(self) -> Controller {
        match self {
            Opponent::SelfPlay => Controller::Learner,
            Opponent::Snapshot => Controller::Snapshot,
            Opponent::Random => Controller::Random,
            Opponent::WinOrBlock => Controller::WinOrBlock,
        }
    }
}

/// One learner decision, ready for the PPO update.
#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Vec<f32>,
    pub legal: Vec<bool>,
    pub action: usize,
    pub log_prob: f32,
    pub advantage: f32,
    pub target: f32,
}

/// What a batch of games produced.
pub struct Batch {
    pub samples: Vec<Sample>,
    /// Mean final return of the learner's seats against each opponent kind
    /// that played (self-play is zero-sum, so it is left out).
    pub learner_return: f64,
}

/// A learner decision waiting for its reward.
struct Pending {
    features: Vec<f32>,
    legal: Vec<bool>,
    action: usize,
    log_prob: f32,
    value: f32,
    reward: f32,
}

struct Game {
    env: Box<dyn DynEnv>,
    seats: [Controller; 2],
    trajectories: [Vec<Pending>; 2],
    scripted: WinOrBlockAgent,
}

/// Settings for one batch.
pub struct RolloutConfig<'a> {
    pub codec: GameCodec,
    pub opponents: &'a [Opponent],
    pub gamma: f32,
    pub lambda: f32,
}

/// Plays one game per entry of `config.opponents` (the learner takes seat
/// 0 in even games and seat 1 in odd ones) and returns the samples.
///
/// # Errors
/// Env errors (a move the env refused, which legal-move masking prevents).
pub fn play_batch(
    prototype: &dyn DynEnv,
    learner: &PolicyValueNet,
    snapshot: Option<&PolicyValueNet>,
    config: &RolloutConfig<'_>,
    seed: u64,
    rng: &mut Rng,
) -> Result<Batch, AgentError> {
    let env_id = prototype.spec().id;
    let err = |e| AgentError::env(env_id, e);
    let mut games: Vec<Game> = Vec::with_capacity(config.opponents.len());
    for (i, &opponent) in config.opponents.iter().enumerate() {
        let mut env = prototype.clone_box();
        let card = env.generate(mix_seed(seed, i as u64));
        env.reset(&card).map_err(err)?;
        let other = opponent.controller();
        let seats = if i % 2 == 0 {
            [Controller::Learner, other]
        } else {
            [other, Controller::Learner]
        };
        games.push(Game {
            env,
            seats,
            trajectories: [Vec::new(), Vec::new()],
            scripted: WinOrBlockAgent::new(mix_seed(seed ^ 0x5eed, i as u64)),
        });
    }
    let device = Device::flex();
    loop {
        let mut movers: Vec<(usize, usize)> = Vec::new();
        for (g, game) in games.iter().enumerate() {
            if game.env.status() == Status::Running
                && let Turn::Player(p) = game.env.turn()
            {
                movers.push((g, p));
            }
        }
        if movers.is_empty() {
            break;
        }
        let mut actions: Vec<(usize, usize, String)> = Vec::with_capacity(movers.len());
        for (controller, net) in [
            (Controller::Learner, Some(learner)),
            (Controller::Snapshot, snapshot),
        ] {
            let group: Vec<(usize, usize)> = movers
                .iter()
                .copied()
                .filter(|&(g, p)| games[g].seats[p] == controller)
                .collect();
            if group.is_empty() {
                continue;
            }
            let net = net.unwrap_or(learner);
            let mut features = Vec::new();
            let mut masks = Vec::new();
            for &(g, p) in &group {
                let obs = games[g].env.observe(p).map_err(err)?;
                features.extend(config.codec.encode(&obs, p));
                masks.push(config.codec.legal_mask(&obs));
            }
            let width = config.codec.input_size();
            let out = net.forward(
                matrix(features.clone(), group.len(), width, &device),
                illegal_bias(&masks, config.codec.num_actions(), &device),
            );
            let log_probs = tensor_vec(out.log_probs);
            let values = tensor_vec(out.values);
            let a = config.codec.num_actions();
            for (row, &(g, p)) in group.iter().enumerate() {
                let lp = &log_probs[row * a..(row + 1) * a];
                let probs: Vec<f32> = lp.iter().map(|l| l.exp()).collect();
                let action = sample_index(&probs, rng.unit_f64());
                if controller == Controller::Learner {
                    games[g].trajectories[p].push(Pending {
                        features: features[row * width..(row + 1) * width].to_vec(),
                        legal: masks[row].clone(),
                        action,
                        log_prob: lp[action],
                        value: values[row],
                        reward: 0.0,
                    });
                }
                actions.push((g, p, config.codec.action_text(action)));
            }
        }
        for &(g, p) in &movers {
            let game = &mut games[g];
            match game.seats[p] {
                Controller::Random => {
                    let text = game.env.random_action(p, rng);
                    actions.push((g, p, text));
                }
                Controller::WinOrBlock => {
                    let obs = game.env.observe(p).map_err(err)?;
                    actions.push((g, p, game.scripted.choose(&obs)));
                }
                Controller::Learner | Controller::Snapshot => {}
            }
        }
        for (g, p, text) in actions {
            let game = &mut games[g];
            let transition = game.env.step(p, &text).map_err(err)?;
            for (seat, reward) in transition.rewards.iter().enumerate().take(2) {
                if let Some(last) = game.trajectories[seat].last_mut() {
                    last.reward += *reward as f32;
                }
            }
        }
    }
    let mut samples = Vec::new();
    let (mut return_sum, mut return_count) = (0.0, 0usize);
    for game in games {
        let vs_other = game.seats[0] != game.seats[1];
        for (seat, trajectory) in game.trajectories.into_iter().enumerate() {
            if vs_other && game.seats[seat] == Controller::Learner {
                return_sum += game.env.score(seat).reward;
                return_count += 1;
            }
            let rewards: Vec<f32> = trajectory.iter().map(|d| d.reward).collect();
            let values: Vec<f32> = trajectory.iter().map(|d| d.value).collect();
            let (advantages, targets) = gae(&rewards, &values, config.gamma, config.lambda);
            for ((d, advantage), target) in trajectory.into_iter().zip(advantages).zip(targets) {
                samples.push(Sample {
                    features: d.features,
                    legal: d.legal,
                    action: d.action,
                    log_prob: d.log_prob,
                    advantage,
                    target,
                });
            }
        }
    }
    Ok(Batch {
        samples,
        learner_return: if return_count > 0 {
            return_sum / return_count as f64
        } else {
            0.0
        },
    })
}
