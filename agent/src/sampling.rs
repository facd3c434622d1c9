//! Picking an action index from a distribution, shared by the game agents,
//! the rollouts and the text decoder: the most probable index, or a draw
//! from a uniform number the caller's seeded [`verigym_envs::Rng`] gave.

/// Index of the largest value (the first on ties).
pub fn argmax(values: &[f32]) -> usize {
    values
        .iter()
        .enumerate()
        .fold((0, f32::NEG_INFINITY), |best, (i, &v)| {
            if v > best.1 { (i, v) } else { best }
        })
        .0
}

/// Draws an index with the given probabilities from `u` in `[0, 1)`.
pub fn sample_index(probs: &[f32], u: f64) -> usize {
    let mut acc = 0.0f64;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            acc += f64::from(p);
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_follows_the_cumulative_distribution_and_skips_zeros() {
        let probs = [0.0, 0.25, 0.0, 0.75];
        assert_eq!(sample_index(&probs, 0.0), 1);
        assert_eq!(sample_index(&probs, 0.24), 1);
        assert_eq!(sample_index(&probs, 0.26), 3);
        assert_eq!(sample_index(&probs, 0.999_999), 3);
        assert_eq!(argmax(&[0.1, 0.7, 0.7]), 1);
    }
}
