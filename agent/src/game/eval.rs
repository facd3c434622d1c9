//! Evaluation on held-out seeds, through the same episode driver every
//! agent uses: a game policy against baselines from both seats, and Kuhn
//! poker's exact exploitability.

use verigym_envs::driver::{OracleAgent, RandomAgent};
use verigym_envs::games::cfr::Policy;
use verigym_envs::games::kuhn_poker::{self, KuhnPoker};
use verigym_envs::{Agent, DriverConfig, Env, Registry, Rng, Turn, mix_seed, run_episode};

use crate::error::AgentError;
use crate::game::agent::NetAgent;
use crate::game::baselines::WinOrBlockAgent;
use crate::game::checkpoint::default_play;
use crate::game::codec::GameCodec;
use crate::game::policy_value_net::NetWeights;
use crate::metric::Metric;

/// Which card-seed stream an evaluation plays; both are apart from
/// training's. Checkpoint selection during training uses `Validation`, so
/// the acceptance figures on `HeldOut` are not biased by that choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seeds {
    HeldOut,
    Validation,
}

impl Seeds {
    fn stream(self) -> u64 {
        match self {
            Seeds::HeldOut => 0x0048_454c_444f_5554,
            Seeds::Validation => 0x0056_414c_4944_4154,
        }
    }
}

/// Which baseline sits opposite.
#[derive(Clone, Copy, Debug)]
pub enum Baseline {
    Random,
    Oracle,
    WinOrBlock,
}

impl Baseline {
    fn agent(self, seed: u64) -> Box<dyn Agent> {
        match self {
            Baseline::Random => Box::new(RandomAgent::new(seed)),
            Baseline::Oracle => Box::new(OracleAgent),
            Baseline::WinOrBlock => Box::new(WinOrBlockAgent::new(seed)),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Baseline::Random => "random",
            Baseline::Oracle => "oracle",
            Baseline::WinOrBlock => "win_or_block",
        }
    }
}

/// Win, draw and loss counts of `agent` in `seat` over `games` games of
/// the `seeds` stream against `baseline`.
///
/// # Errors
/// Env errors from the driver.
pub fn play_against(
    env_id: &str,
    agent: &mut dyn Agent,
    seat: usize,
    baseline: Baseline,
    games: usize,
    seeds: Seeds,
) -> Result<[usize; 3], AgentError> {
    let stream = seeds.stream();
    let registry = Registry::builtin();
    let mut env = registry
        .make(env_id, None)
        .map_err(|e| AgentError::env(env_id, e))?;
    let mut tally = [0usize; 3];
    for i in 0..games {
        let card = env.generate(mix_seed(stream, i as u64));
        let mut other = baseline.agent(mix_seed(stream ^ 1, i as u64));
        let result = if seat == 0 {
            run_episode(
                env.as_mut(),
                &card,
                &mut [&mut *agent, other.as_mut()],
                &DriverConfig::default(),
            )
        } else {
            run_episode(
                env.as_mut(),
                &card,
                &mut [other.as_mut(), &mut *agent],
                &DriverConfig::default(),
            )
        }
        .map_err(|e| AgentError::env(env_id, e))?;
        let r = result.returns[seat];
        tally[if r > 0.0 {
            0
        } else if r == 0.0 {
            1
        } else {
            2
        }] += 1;
    }
    Ok(tally)
}

/// The figures an env's acceptance is judged on, for a policy's weights,
/// on held-out seeds; the first is the headline (higher is better, except
/// exploitability).
///
/// # Errors
/// Env errors from the driver.
pub fn evaluate(
    env_id: &str,
    codec: GameCodec,
    weights: &NetWeights,
    games: usize,
) -> Result<Vec<Metric>, AgentError> {
    evaluate_on(env_id, codec, weights, games, Seeds::HeldOut)
}

/// [`evaluate`] on the chosen seed stream.
///
/// # Errors
/// Env errors from the driver.
pub fn evaluate_on(
    env_id: &str,
    codec: GameCodec,
    weights: &NetWeights,
    games: usize,
    seeds: Seeds,
) -> Result<Vec<Metric>, AgentError> {
    let mut agent = NetAgent::new("eval".into(), codec, default_play(codec), weights);
    let mut metrics = Vec::new();
    match codec {
        GameCodec::TicTacToe => {
            let mut all = Vec::new();
            for (baseline, n) in [(Baseline::Oracle, games.min(50)), (Baseline::Random, games)] {
                for seat in 0..2 {
                    let [w, d, _] = play_against(env_id, &mut agent, seat, baseline, n, seeds)?;
                    all.push(rate(
                        format!("non_loss_vs_{}_seat{seat}", baseline.name()),
                        w + d,
                        n,
                    ));
                }
            }
            let worst = all.iter().map(|m| m.value).fold(1.0, f64::min);
            metrics.push(Metric {
                name: "worst_non_loss".into(),
                value: worst,
                games: 0,
            });
            metrics.extend(all);
        }
        GameCodec::ConnectFour => {
            let mut all = Vec::new();
            for baseline in [Baseline::WinOrBlock, Baseline::Random] {
                for seat in 0..2 {
                    let [w, _, _] = play_against(env_id, &mut agent, seat, baseline, games, seeds)?;
                    all.push(rate(
                        format!("win_vs_{}_seat{seat}", baseline.name()),
                        w,
                        games,
                    ));
                }
            }
            metrics.push(Metric {
                name: "worst_win_vs_win_or_block".into(),
                value: all[0].value.min(all[1].value),
                games: 0,
            });
            metrics.extend(all);
        }
        GameCodec::KuhnPoker => {
            let policy = kuhn_policy(&agent);
            metrics.push(Metric {
                name: "exploitability".into(),
                value: kuhn_poker::exploitability(&policy),
                games: 0,
            });
        }
    }
    Ok(metrics)
}

/// The fraction `count / games` as a metric.
fn rate(name: String, count: usize, games: usize) -> Metric {
    Metric {
        name,
        value: count as f64 / games.max(1) as f64,
        games,
    }
}

/// The agent's policy at every one-hand Kuhn information set, keyed by
/// observation text as [`verigym_envs::games::cfr`] expects, found by
/// walking every deal through the env itself.
pub fn kuhn_policy(agent: &NetAgent) -> Policy {
    fn walk(state: &KuhnPoker, agent: &NetAgent, policy: &mut Policy) {
        let Turn::Player(player) = state.turn() else {
            return;
        };
        let observation = state.observe(player);
        let legal = observation.legal_actions.clone().unwrap_or_default();
        let probs = agent.probabilities(&observation, player);
        let row: Vec<f64> = legal
            .iter()
            .map(|a| {
                GameCodec::KuhnPoker
                    .action_index(a)
                    .map_or(0.0, |i| f64::from(probs[i]))
            })
            .collect();
        policy.insert(observation.text.clone(), row);
        for a in &legal {
            let mut next = state.clone();
            if let Ok(action) = next.parse_action(player, a)
                && next.apply(player, action).is_ok()
            {
                walk(&next, agent, policy);
            }
        }
    }
    let mut policy = Policy::new();
    for (task, _) in kuhn_poker::one_hand_deals() {
        walk(
            &KuhnPoker::reset(&task, Rng::from_seed(0)),
            agent,
            &mut policy,
        );
    }
    policy
}
