//! Held-out measurements of the text policy: pass@1 of greedy play (per
//! task, so two checkpoints can be compared on the same tasks) and pass@k
//! of sampled play, with the paired interval of a difference.

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

/// Held-out pass@k at `temperature` for k = 1, 2, 4, … up to `samples`,
/// over the first `tasks` held-out tasks, `samples` episodes each.
pub fn pass_at_k(
    model: &CharLm,
    setup: &TextSetup,
    (tasks, samples): (usize, usize),
    max_turns: usize,
    temperature: f32,
    rng: &mut Rng,
    device: &Device,
) -> Vec<(usize, f64)> {
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

/// The mean of `after − before` over paired outcomes and the half-width
/// of its 95 % interval (normal approximation on the per-task differences).
pub fn paired_difference(before: &[bool], after: &[bool]) -> (f64, f64) {
    let n = before.len().min(after.len()).max(1) as f64;
    let diffs: Vec<f64> = before
        .iter()
        .zip(after)
        .map(|(&b, &a)| f64::from(u8::from(a)) - f64::from(u8::from(b)))
        .collect();
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
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

    #[test]
    fn the_paired_interval_shrinks_with_agreement() {
        let before = vec![false; 100];
        let mut after = before.clone();
        after[..10].iter_mut().for_each(|a| *a = true);
        let (gain, half) = paired_difference(&before, &after);
        assert!((gain - 0.1).abs() < 1e-12);
        // sd of ten ones in 100 is 0.3015; 1.96 · 0.3015 / 10.
        assert!((half - 0.0591).abs() < 1e-3, "{half}");
    }
}
