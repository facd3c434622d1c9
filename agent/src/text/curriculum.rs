//! What the text learner trains on next: one of the run's levels, chosen
//! by the project's own curriculum samplers ([`verigym_envs::curriculum`])
//! from the rewards the learner earns, with the level mix counted for the
//! learning curve.

use verigym_envs::curriculum::{AdvantageBandit, Curriculum, PassRateBand, TaskChoice};

pub use crate::text::config::CurriculumKind;
use crate::text::config::TextConfig;

/// Picks a level and a task seed per GRPO group; counts the mix.
pub struct LevelSampler {
    kind: CurriculumKind,
    levels: usize,
    inner: Option<Box<dyn Curriculum>>,
    issued: u64,
    seed: u64,
    /// Groups per level since the last [`LevelSampler::take_mix`].
    mix: Vec<usize>,
}

/// One pick: the level index and the seed of its task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPick {
    pub level: usize,
    pub seed: u64,
    choice: TaskChoice,
}

impl LevelSampler {
    /// # Panics
    /// Without levels, or a band outside `0 <= low < high <= 1`.
    pub fn new(kind: CurriculumKind, levels: usize, config: &TextConfig, seed: u64) -> Self {
        assert!(levels > 0, "a curriculum needs a level");
        let inner: Option<Box<dyn Curriculum>> = match kind {
            CurriculumKind::Band => Some(Box::new(PassRateBand::new(
                &[levels],
                config.band_low,
                config.band_high,
                config.band_window.max(1),
                seed,
            ))),
            CurriculumKind::Bandit => Some(Box::new(AdvantageBandit::new(
                levels,
                config.bandit_exploration,
                seed,
            ))),
            CurriculumKind::Fixed => None,
        };
        LevelSampler {
            kind,
            levels,
            inner,
            issued: 0,
            seed,
            mix: vec![0; levels],
        }
    }

    pub fn pick(&mut self) -> LevelPick {
        let choice = match &mut self.inner {
            Some(inner) => inner.next_task(),
            None => TaskChoice {
                source: 0,
                level: self.levels - 1,
                seed: verigym_envs::mix_seed(self.seed, self.issued),
            },
        };
        self.issued += 1;
        let level = match self.kind {
            CurriculumKind::Bandit => choice.source,
            CurriculumKind::Band | CurriculumKind::Fixed => choice.level,
        }
        .min(self.levels - 1);
        self.mix[level] += 1;
        LevelPick {
            level,
            seed: choice.seed,
            choice,
        }
    }

    /// The reward one episode of `pick` earned.
    pub fn report(&mut self, pick: &LevelPick, reward: f64) {
        if let Some(inner) = &mut self.inner {
            inner.report(&pick.choice, reward);
        }
    }

    /// Groups per level since the last call, as `level:count` joined by `|`.
    pub fn take_mix(&mut self) -> String {
        let text = self
            .mix
            .iter()
            .enumerate()
            .map(|(level, n)| format!("{level}:{n}"))
            .collect::<Vec<_>>()
            .join("|");
        self.mix.iter_mut().for_each(|n| *n = 0);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A learner that always passes level 0 and never level 2: the band
    /// sampler starts at level 0, leaves it once its window is full, and
    /// spends most of its picks at level 1, where rewards vary.
    #[test]
    fn the_band_moves_the_mix_to_the_level_with_reward_variance() {
        let config = TextConfig {
            band_window: 32,
            ..TextConfig::default()
        };
        let mut sampler = LevelSampler::new(CurriculumKind::Band, 3, &config, 7);
        let mut rng = verigym_envs::Rng::from_seed(3);
        let pass = [1.0, 0.5, 0.0];
        let mut late = [0usize; 3];
        for step in 0..2_000 {
            let pick = sampler.pick();
            let reward = f64::from(u8::from(rng.chance(pass[pick.level])));
            sampler.report(&pick, reward);
            if step == 19 {
                assert_eq!(sampler.take_mix(), "0:20|1:0|2:0");
            }
            if step >= 1_000 {
                late[pick.level] += 1;
            }
        }
        assert!(late[1] > 800, "late mix {late:?}");
        let mix = sampler.take_mix();
        let counts: Vec<usize> = mix
            .split('|')
            .map(|part| part.split_once(':').unwrap().1.parse().unwrap())
            .collect();
        assert!(counts[1] > 4 * (counts[0] + counts[2]), "{mix}");
        assert_eq!(sampler.take_mix(), "0:0|1:0|2:0");
    }

    #[test]
    fn fixed_trains_on_the_last_level_only() {
        let mut sampler = LevelSampler::new(CurriculumKind::Fixed, 2, &TextConfig::default(), 1);
        let seeds: Vec<u64> = (0..5).map(|_| sampler.pick().seed).collect();
        assert!(seeds.windows(2).all(|w| w[0] != w[1]));
        assert_eq!(sampler.take_mix(), "0:0|1:5");
    }
}
