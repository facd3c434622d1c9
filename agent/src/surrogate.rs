//! PPO's clipped surrogate for one sample: the scalar reference that both
//! tensor losses (PPO on games, GRPO on text) are tested against.

/// The clipped surrogate for one sample (to be maximised):
/// `min(r·A, clip(r, 1−ε, 1+ε)·A)`.
pub fn clipped_surrogate(ratio: f32, advantage: f32, clip: f32) -> f32 {
    (ratio * advantage).min(ratio.clamp(1.0 - clip, 1.0 + clip) * advantage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_caps_the_gain_not_the_loss() {
        assert_eq!(clipped_surrogate(1.5, 1.0, 0.2), 1.2);
        assert_eq!(clipped_surrogate(0.5, 1.0, 0.2), 0.5);
        assert_eq!(clipped_surrogate(0.5, -1.0, 0.2), -0.8);
        assert_eq!(clipped_surrogate(1.5, -1.0, 0.2), -1.5);
    }
}
