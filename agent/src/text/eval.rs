//! Held-out measurements of the text policy: pass@1 of greedy play (per
//! task, so two checkpoints can be compared on the same tasks) and pass@k
//! of sampled play, with the paired interval of a difference clustered by
//! task.

use burn::tensor::Device;
use verigym_envs::{DynEnv, Rng, TaskCard, mix_seed};

use crate::text::char_lm::CharLm;
use crate::text::episodes::play_episodes;
use crate::text::tasks::{HELD_OUT_STREAM, TextSetup};

/// Episodes played in one lockstep batch.
const BATCH: usize = 256;

/// Held-out task `i` (a fixed seed stream, whatever the training seed).
pub fn held_out_card(setup: &TextSetup, i: usize) -> TaskCard {
    setup.env.generate(mix_seed(HELD_OUT_STREAM, i as u64))
}

fn reset_envs(setup: &TextSetup, cards: &[TaskCard]) -> Vec<Box<dyn DynEnv>> {
    cards
        .iter()
        .map(|card| {
            let mut env = setup.env.clone_box();
            // A card of this very env always resets; a failure shows up as
            // an unplayable (failed) episode.
            let _ = env.reset(card);
            env
        })
        .collect()
}

/// Whether greedy play passes each of the first `n` held-out tasks.
pub fn held_out_passes(
    model: &CharLm,
    setup: &TextSetup,
    n: usize,
    max_turns: usize,
    device: &Device,
) -> Vec<bool> {
    let cards: Vec<TaskCard> = (0..n).map(|i| held_out_card(setup, i)).collect();
    cards
        .chunks(BATCH)
        .flat_map(|chunk| {
            play_episodes(
                model,
                setup,
                reset_envs(setup, chunk),
                max_turns,
                1.0,
                None,
                device,
            )
        })
        .map(|e| e.passed)
        .collect()
}

/// The unbiased pass@k of a task with `c` passes in `n` samples
/// (1 − C(n−c, k) / C(n, k)).
pub fn pass_at_k_estimate(n: usize, c: usize, k: usize) -> f64 {
    if n - c < k {
        return 1.0;
    }
    1.0 - ((n - c + 1)..=n).fold(1.0, |p, j| p * (1.0 - k as f64 / j as f64))
}

/// How many of `samples` episodes at `temperature` pass, for each of the
/// first `tasks` held-out tasks.
pub fn sampled_passes(
    model: &CharLm,
    setup: &TextSetup,
    (tasks, samples): (usize, usize),
    max_turns: usize,
    temperature: f32,
    rng: &mut Rng,
    device: &Device,
) -> Vec<usize> {
    let samples = samples.max(1);
    let per_batch = (BATCH / samples).max(1);
    let mut passes = Vec::with_capacity(tasks);
    let cards: Vec<TaskCard> = (0..tasks).map(|i| held_out_card(setup, i)).collect();
    for chunk in cards.chunks(per_batch) {
        let repeated: Vec<TaskCard> = chunk
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.clone(), samples))
            .collect();
        let episodes = play_episodes(
            model,
            setup,
            reset_envs(setup, &repeated),
            max_turns,
            temperature,
            Some(&mut *rng),
            device,
        );
        passes.extend(
            episodes
                .chunks(samples)
                .map(|g| g.iter().filter(|e| e.passed).count()),
        );
    }
    passes
}

/// Pass@k for k = 1, 2, 4, … up to `samples`, from each task's passes in
/// `samples` episodes (see [`sampled_passes`]).
pub fn pass_at_k(passes: &[usize], samples: usize) -> Vec<(usize, f64)> {
    let samples = samples.max(1);
    std::iter::successors(Some(1usize), |k| Some(k * 2))
        .take_while(|&k| k <= samples)
        .map(|k| {
            let total: f64 = passes
                .iter()
                .map(|&c| pass_at_k_estimate(samples, c, k))
                .sum();
            (k, total / passes.len().max(1) as f64)
        })
        .collect()
}

/// The structured task of each of the first `n` held-out tasks: what
/// makes two held-out episodes the same task.
pub fn held_out_task_keys(setup: &TextSetup, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| held_out_card(setup, i).task.to_string())
        .collect()
}

/// The gain of one checkpoint over another on the same held-out episodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairedGain {
    /// Mean of `after − before` over the episodes.
    pub mean: f64,
    /// Half-width of its 95 % interval, clustered by task.
    pub half_width: f64,
    pub episodes: usize,
    /// Distinct tasks among the episodes: the interval's sample size.
    pub tasks: usize,
}

/// Pass (1) or fail (0) of each greedy episode.
pub fn pass_scores(passes: &[bool]) -> Vec<f64> {
    passes.iter().map(|&p| f64::from(u8::from(p))).collect()
}

/// Each task's sampled pass rate.
pub fn pass_rates(passes: &[usize], samples: usize) -> Vec<f64> {
    passes
        .iter()
        .map(|&c| c as f64 / samples.max(1) as f64)
        .collect()
}

/// The mean of `after − before` over paired held-out scores (greedy passes
/// as 0/1, or sampled pass rates) and the half-width of its 95 % interval,
/// with the scores of one task (`keys`) as one unit.
///
/// Held-out seeds can draw the same task twice (a guessing game has as
/// many tasks as secrets), and greedy play on one task always ends the same
/// way, so repeats are not independent evidence: the variance is the
/// cluster-robust one over distinct tasks, with Student's t at (tasks − 1)
/// degrees of freedom. When every task is distinct this is the usual paired
/// interval.
pub fn paired_gain(before: &[f64], after: &[f64], keys: &[String]) -> PairedGain {
    let n = before.len().min(after.len()).min(keys.len());
    let diffs: Vec<f64> = before
        .iter()
        .zip(after)
        .take(n)
        .map(|(b, a)| a - b)
        .collect();
    let mean = diffs.iter().sum::<f64>() / n.max(1) as f64;
    let mut residuals: std::collections::BTreeMap<&str, f64> = Default::default();
    for (key, d) in keys.iter().zip(&diffs) {
        *residuals.entry(key.as_str()).or_default() += d - mean;
    }
    let tasks = residuals.len();
    let half_width = if tasks < 2 {
        f64::INFINITY
    } else {
        let g = tasks as f64;
        let sum_sq: f64 = residuals.values().map(|r| r * r).sum();
        let variance = g / (g - 1.0) * sum_sq / (n as f64).powi(2);
        t_975(tasks - 1) * variance.sqrt()
    };
    PairedGain {
        mean,
        half_width,
        episodes: n,
        tasks,
    }
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom: the
/// table for df ≤ 4, the Cornish–Fisher expansion around the normal
/// quantile above (within 0.005 at df 5, 0.0002 at df 30).
pub fn t_975(df: usize) -> f64 {
    const SMALL: [f64; 4] = [12.706, 4.303, 3.182, 2.776];
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= SMALL.len() {
        return SMALL[df - 1];
    }
    let z: f64 = 1.959_963_985;
    let v = df as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * v.powi(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_at_k_matches_the_closed_form() {
        assert_eq!(pass_at_k_estimate(4, 0, 1), 0.0);
        assert!((pass_at_k_estimate(4, 1, 1) - 0.25).abs() < 1e-12);
        // 1 − C(2,2)/C(4,2) = 1 − 1/6.
        assert!((pass_at_k_estimate(4, 2, 2) - 5.0 / 6.0).abs() < 1e-12);
        assert_eq!(pass_at_k_estimate(4, 3, 2), 1.0);
    }

    fn gain(before: &[bool], after: &[bool], keys: &[String]) -> PairedGain {
        paired_gain(&pass_scores(before), &pass_scores(after), keys)
    }

    fn distinct(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    #[test]
    fn the_paired_interval_shrinks_with_agreement() {
        let before = vec![false; 100];
        let mut after = before.clone();
        after[..10].iter_mut().for_each(|a| *a = true);
        let gain = gain(&before, &after, &distinct(100));
        assert!((gain.mean - 0.1).abs() < 1e-12);
        assert_eq!((gain.episodes, gain.tasks), (100, 100));
        // sd of ten ones in 100 is 0.3015; t(99) = 1.984; 1.984 · 0.3015 / 10.
        assert!(
            (gain.half_width - 0.0598).abs() < 1e-3,
            "{}",
            gain.half_width
        );
    }

    #[test]
    fn repeats_of_a_task_count_once_in_the_interval() {
        // Ten tasks, each played ten times with the same outcome: the same
        // mean as ten distinct tasks, and the interval of ten, not of 100.
        let before = vec![false; 100];
        let after: Vec<bool> = (0..100).map(|i| i % 10 < 3).collect();
        let keys: Vec<String> = (0..100).map(|i| (i % 10).to_string()).collect();
        let repeated = gain(&before, &after, &keys);
        let once = gain(&before[..10], &after[..10], &distinct(10));
        assert_eq!(repeated.tasks, 10);
        assert!((repeated.mean - once.mean).abs() < 1e-12);
        assert!((repeated.half_width - once.half_width).abs() < 1e-12);
        let as_if_distinct = gain(&before, &after, &distinct(100));
        assert!(as_if_distinct.half_width < repeated.half_width / 2.5);
    }

    #[test]
    fn the_t_quantile_matches_the_table() {
        for (df, t) in [
            (1, 12.706),
            (4, 2.776),
            (5, 2.571),
            (9, 2.262),
            (15, 2.131),
            (30, 2.042),
            (120, 1.980),
        ] {
            assert!((t_975(df) - t).abs() < 0.005, "df {df}: {}", t_975(df));
        }
        assert!((t_975(100_000) - 1.96).abs() < 1e-3);
    }
}
