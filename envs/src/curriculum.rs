//! Curriculum samplers: what to train on next, from the rewards so far.
//!
//! Every sampler implements [`Curriculum`]: `next_task` picks a source (an
//! env, say), a difficulty level and a seed; `report` feeds back the reward
//! that task earned. All are deterministic given their seed and the rewards.
//!
//! - [`PassRateBand`]: keeps each source's level where its recent pass rate
//!   lies inside a band (online difficulty filtering: prompts that are
//!   always or never solved teach nothing).
//! - [`AdvantageBandit`]: UCB over sources scored by mean absolute advantage
//!   (DUMP): sources where rewards still vary get more samples.
//! - [`Mixture`]: fixed weights.

use std::collections::VecDeque;

use crate::rng::{Rng, mix_seed};

/// One task to generate: `source` indexes the sampler's sources, `level`
/// that source's difficulty levels (0 = easiest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskChoice {
    pub source: usize,
    pub level: usize,
    pub seed: u64,
}

/// A sampler of training tasks.
pub trait Curriculum: Send {
    fn next_task(&mut self) -> TaskChoice;
    /// The reward (in [0, 1] for pass/fail tasks) the task earned.
    fn report(&mut self, task: &TaskChoice, reward: f64);
}

struct BandState {
    level: usize,
    levels: usize,
    recent: VecDeque<f64>,
}

/// Moves each source up a level when its recent pass rate rises above the
/// band and down when it falls below; sources take turns.
pub struct PassRateBand {
    sources: Vec<BandState>,
    low: f64,
    high: f64,
    window: usize,
    seed: u64,
    issued: u64,
}

impl PassRateBand {
    /// `levels[i]` is the number of levels of source `i`; every source
    /// starts at level 0.
    ///
    /// # Panics
    /// On an empty source list, a source without levels, a band outside
    /// `0 <= low < high <= 1`, or a zero window.
    pub fn new(levels: &[usize], low: f64, high: f64, window: usize, seed: u64) -> Self {
        assert!(
            !levels.is_empty() && levels.iter().all(|&l| l > 0),
            "every source needs a level"
        );
        assert!(
            (0.0..1.0).contains(&low) && low < high && high <= 1.0 && window > 0,
            "bad band"
        );
        let sources = levels
            .iter()
            .map(|&levels| BandState {
                level: 0,
                levels,
                recent: VecDeque::new(),
            })
            .collect();
        PassRateBand {
            sources,
            low,
            high,
            window,
            seed,
            issued: 0,
        }
    }

    /// The current level of each source.
    pub fn levels(&self) -> Vec<usize> {
        self.sources.iter().map(|s| s.level).collect()
    }
}

impl Curriculum for PassRateBand {
    fn next_task(&mut self) -> TaskChoice {
        let source = (self.issued % self.sources.len() as u64) as usize;
        let seed = mix_seed(self.seed, self.issued);
        self.issued += 1;
        TaskChoice {
            source,
            level: self.sources[source].level,
            seed,
        }
    }

    fn report(&mut self, task: &TaskChoice, reward: f64) {
        let (low, high, window) = (self.low, self.high, self.window);
        let Some(state) = self.sources.get_mut(task.source) else {
            return;
        };
        if task.level != state.level {
            return; // a result from before the last level change
        }
        state.recent.push_back(reward);
        if state.recent.len() < window {
            return;
        }
        let rate = state.recent.iter().sum::<f64>() / window as f64;
        state.recent.pop_front();
        let next = if rate > high && state.level + 1 < state.levels {
            state.level + 1
        } else if rate < low && state.level > 0 {
            state.level - 1
        } else {
            return;
        };
        state.level = next;
        state.recent.clear();
    }
}

#[derive(Clone, Copy, Default)]
struct ArmStats {
    pulls: u64,
    mean_reward: f64,
    mean_abs_advantage: f64,
}

/// UCB on each source's mean |reward − source mean|, tracked with an
/// exponential moving average so the bandit follows a learner that changes.
pub struct AdvantageBandit {
    arms: Vec<ArmStats>,
    exploration: f64,
    smoothing: f64,
    seed: u64,
    issued: u64,
}

impl AdvantageBandit {
    /// # Panics
    /// Without sources.
    pub fn new(sources: usize, exploration: f64, seed: u64) -> Self {
        assert!(sources > 0, "a bandit needs arms");
        AdvantageBandit {
            arms: vec![ArmStats::default(); sources],
            exploration,
            smoothing: 0.05,
            seed,
            issued: 0,
        }
    }

    /// Share of pulls each source has had.
    pub fn shares(&self) -> Vec<f64> {
        let total = self.arms.iter().map(|a| a.pulls).sum::<u64>().max(1) as f64;
        self.arms.iter().map(|a| a.pulls as f64 / total).collect()
    }
}

impl Curriculum for AdvantageBandit {
    fn next_task(&mut self) -> TaskChoice {
        let total = self.arms.iter().map(|a| a.pulls).sum::<u64>().max(1) as f64;
        let source = match self.arms.iter().position(|a| a.pulls == 0) {
            Some(untried) => untried,
            None => {
                let score = |a: &ArmStats| {
                    a.mean_abs_advantage + self.exploration * (total.ln() / a.pulls as f64).sqrt()
                };
                (0..self.arms.len())
                    .max_by(|&i, &j| {
                        score(&self.arms[i])
                            .total_cmp(&score(&self.arms[j]))
                            .then(j.cmp(&i))
                    })
                    .unwrap_or(0)
            }
        };
        let seed = mix_seed(self.seed, self.issued);
        self.issued += 1;
        TaskChoice {
            source,
            level: 0,
            seed,
        }
    }

    fn report(&mut self, task: &TaskChoice, reward: f64) {
        let smoothing = self.smoothing;
        let Some(arm) = self.arms.get_mut(task.source) else {
            return;
        };
        let advantage = (reward - arm.mean_reward).abs();
        arm.pulls += 1;
        if arm.pulls == 1 {
            arm.mean_reward = reward;
            arm.mean_abs_advantage = 0.5; // optimistic until there is a baseline
        } else {
            arm.mean_abs_advantage += smoothing * (advantage - arm.mean_abs_advantage);
            arm.mean_reward += smoothing * (reward - arm.mean_reward);
        }
    }
}

/// Why mixture weights were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadWeights {
    /// No weights, or one that is negative, infinite or NaN.
    #[error("mixture weights must be finite and non-negative")]
    Invalid,
    #[error("mixture weights sum to zero")]
    SumToZero,
}

/// Samples sources in proportion to fixed weights; ignores rewards.
pub struct Mixture {
    cumulative: Vec<f64>,
    rng: Rng,
    seed: u64,
    issued: u64,
}

impl Mixture {
    /// # Errors
    /// No weights, a negative or non-finite weight, or all zero.
    pub fn new(weights: &[f64], seed: u64) -> Result<Self, BadWeights> {
        if weights.is_empty() || weights.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return Err(BadWeights::Invalid);
        }
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return Err(BadWeights::SumToZero);
        }
        let cumulative = weights
            .iter()
            .scan(0.0, |acc, w| {
                *acc += w / total;
                Some(*acc)
            })
            .collect();
        Ok(Mixture {
            cumulative,
            rng: Rng::from_seed(seed),
            seed,
            issued: 0,
        })
    }
}

impl Curriculum for Mixture {
    fn next_task(&mut self) -> TaskChoice {
        let x = self.rng.unit_f64();
        let source = self
            .cumulative
            .iter()
            .position(|&c| x < c)
            .unwrap_or(self.cumulative.len() - 1);
        let seed = mix_seed(self.seed, self.issued);
        self.issued += 1;
        TaskChoice {
            source,
            level: 0,
            seed,
        }
    }

    fn report(&mut self, _task: &TaskChoice, _reward: f64) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A learner whose success probability falls with the level.
    fn success(skill: f64, level: usize) -> f64 {
        1.0 / (1.0 + (2.0 * (level as f64 - skill)).exp())
    }

    #[test]
    fn the_band_sampler_settles_where_the_pass_rate_is_the_band_centre() {
        let mut sampler = PassRateBand::new(&[10], 0.4, 0.6, 40, 1);
        let mut learner = Rng::from_seed(2);
        let mut visits = [0usize; 10];
        let mut passes = 0.0;
        for step in 0..20_000 {
            let task = sampler.next_task();
            let reward = f64::from(u8::from(learner.chance(success(4.0, task.level))));
            sampler.report(&task, reward);
            if step >= 10_000 {
                visits[task.level] += 1;
                passes += reward;
            }
        }
        // success(4.0, 4) = 0.5: the centre of the band.
        let most = (0..10).max_by_key(|&l| visits[l]).unwrap();
        assert_eq!(most, 4, "visits {visits:?}");
        let rate = passes / 10_000.0;
        assert!((0.4..0.6).contains(&rate), "pass rate {rate}");
    }

    #[test]
    fn the_bandit_shifts_weight_to_the_source_with_the_largest_advantage() {
        // Source 0 pays half the time (|advantage| 0.5); source 1 nearly
        // always (|advantage| about 0.1); source 2 never (0).
        let probabilities = [0.5, 0.95, 0.0];
        let mut bandit = AdvantageBandit::new(3, 0.1, 3);
        let mut env = Rng::from_seed(4);
        for _ in 0..5_000 {
            let task = bandit.next_task();
            let reward = f64::from(u8::from(env.chance(probabilities[task.source])));
            bandit.report(&task, reward);
        }
        let shares = bandit.shares();
        assert!(shares[0] > 0.6, "shares {shares:?}");
        assert!(
            shares[0] > 10.0 * shares[1].max(shares[2]),
            "shares {shares:?}"
        );
    }

    #[test]
    fn mixtures_follow_their_weights_and_replay_exactly() {
        let draw = |seed| {
            let mut mix = Mixture::new(&[1.0, 3.0, 0.0], seed).unwrap();
            (0..8_000).map(|_| mix.next_task()).collect::<Vec<_>>()
        };
        let tasks = draw(5);
        assert_eq!(tasks, draw(5));
        let share = tasks.iter().filter(|t| t.source == 1).count() as f64 / 8_000.0;
        assert!((share - 0.75).abs() < 0.02, "share {share}");
        assert!(tasks.iter().all(|t| t.source != 2));
        assert!(Mixture::new(&[0.0], 1).is_err());
        assert!(Mixture::new(&[-1.0, 2.0], 1).is_err());
    }
}
