//! PPO's arithmetic: generalised advantage estimation, advantage
//! normalisation and the combined clipped loss, tested against scalar
//! references (the per-sample surrogate is [`crate::surrogate`]).

use burn::tensor::Tensor;

/// Loss weights and the clip range.
#[derive(Clone, Copy, Debug)]
pub struct PpoLossConfig {
    /// ε: the probability ratio is clipped to `[1 − ε, 1 + ε]`.
    pub clip: f32,
    pub value_coef: f32,
    pub entropy_coef: f32,
}

/// GAE(γ, λ) over one player's decisions in one episode. `rewards[t]` is
/// what the player received between its decision `t` and its next one;
/// the episode ends after the last decision (no bootstrap). Returns
/// `(advantages, value targets)`.
///
/// # Panics
/// If `rewards` and `values` differ in length.
pub fn gae(rewards: &[f32], values: &[f32], gamma: f32, lambda: f32) -> (Vec<f32>, Vec<f32>) {
    assert_eq!(rewards.len(), values.len(), "one value per reward");
    let n = rewards.len();
    let mut advantages = vec![0.0; n];
    let mut next_advantage = 0.0;
    let mut next_value = 0.0;
    for t in (0..n).rev() {
        let delta = rewards[t] + gamma * next_value - values[t];
        next_advantage = delta + gamma * lambda * next_advantage;
        advantages[t] = next_advantage;
        next_value = values[t];
    }
    let targets = advantages.iter().zip(values).map(|(a, v)| a + v).collect();
    (advantages, targets)
}

/// Rescales to mean 0 and standard deviation 1 (unchanged if constant).
pub fn normalise(values: &mut [f32]) {
    if values.len() < 2 {
        return;
    }
    let n = values.len() as f32;
    let mean = values.iter().sum::<f32>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / n;
    let std = var.sqrt();
    for v in values.iter_mut() {
        *v = if std > 1e-8 {
            (*v - mean) / std
        } else {
            *v - mean
        };
    }
}

/// The parts of one minibatch's loss.
pub struct PpoLoss {
    /// What is minimised: policy + value_coef·value − entropy_coef·entropy.
    pub total: Tensor<1>,
    pub policy: f32,
    pub value: f32,
    pub entropy: f32,
}

/// The PPO loss of a minibatch. `log_probs` `[b, a]` and `values` `[b, 1]`
/// come from the current network; `actions` is one-hot `[b, a]`;
/// `old_log_probs`, `advantages` and `targets` are `[b, 1]` constants.
pub fn ppo_loss(
    log_probs: Tensor<2>,
    values: Tensor<2>,
    actions: Tensor<2>,
    old_log_probs: Tensor<2>,
    advantages: Tensor<2>,
    targets: Tensor<2>,
    config: PpoLossConfig,
) -> PpoLoss {
    let taken = (log_probs.clone() * actions).sum_dim(1);
    let ratio = (taken - old_log_probs).exp();
    let unclipped = ratio.clone() * advantages.clone();
    let clipped = ratio.clamp(1.0 - config.clip, 1.0 + config.clip) * advantages;
    let policy = unclipped.min_pair(clipped).mean().neg();
    let value = (values - targets).powi_scalar(2).mean();
    // Illegal actions have probability 0 and a finite log-probability, so
    // their terms vanish.
    let entropy = (log_probs.clone().exp() * log_probs)
        .sum_dim(1)
        .mean()
        .neg();
    let total = policy.clone() + value.clone().mul_scalar(config.value_coef)
        - entropy.clone().mul_scalar(config.entropy_coef);
    PpoLoss {
        total,
        policy: policy.into_scalar::<f32>(),
        value: value.into_scalar::<f32>(),
        entropy: entropy.into_scalar::<f32>(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surrogate::clipped_surrogate;
    use crate::tensors::{matrix, tensor_vec};
    use burn::tensor::Device;

    #[test]
    fn gae_with_lambda_one_is_the_return_minus_the_value() {
        let (adv, targets) = gae(&[0.0, 0.0, 1.0], &[0.2, 0.5, 0.9], 1.0, 1.0);
        assert_eq!(targets, vec![1.0, 1.0, 1.0]);
        for (a, v) in adv.iter().zip([0.2, 0.5, 0.9]) {
            assert!((a - (1.0 - v)).abs() < 1e-6);
        }
    }

    #[test]
    fn gae_with_lambda_zero_is_the_one_step_td_error() {
        let values = [0.2, 0.5, 0.9];
        let (adv, _) = gae(&[0.0, 0.1, -1.0], &values, 0.9, 0.0);
        let expected = [0.9 * 0.5 - 0.2, 0.1 + 0.9 * 0.9 - 0.5, -1.0 - 0.9];
        for (a, e) in adv.iter().zip(expected) {
            assert!((a - e).abs() < 1e-6, "{adv:?}");
        }
    }

    #[test]
    fn gae_discounts_between_the_extremes() {
        let (adv, _) = gae(&[0.0, 1.0], &[0.0, 0.0], 1.0, 0.5);
        assert!((adv[0] - 0.5).abs() < 1e-6 && (adv[1] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn normalise_gives_zero_mean_unit_std() {
        let mut v = vec![1.0, 2.0, 3.0, 6.0];
        normalise(&mut v);
        let mean: f32 = v.iter().sum::<f32>() / 4.0;
        let var: f32 = v.iter().map(|x| x * x).sum::<f32>() / 4.0;
        assert!(mean.abs() < 1e-6 && (var - 1.0).abs() < 1e-5);
    }

    /// The tensor loss equals the scalar reference, and a clipped sample
    /// sends no gradient to the policy.
    #[test]
    fn tensor_loss_matches_the_reference_and_clipped_samples_get_no_gradient() {
        let device = Device::flex().autodiff();
        let config = PpoLossConfig {
            clip: 0.2,
            value_coef: 0.0,
            entropy_coef: 0.0,
        };
        // Two actions; sample 0 took action 0 with new p = 0.9 (old 0.5:
        // ratio 1.8, clipped at 1.2 for a positive advantage); sample 1
        // took action 1 with new p = 0.45 (old 0.5: ratio 0.9, unclipped).
        let logits = matrix(
            vec![0.9f32.ln(), 0.1f32.ln(), 0.55f32.ln(), 0.45f32.ln()],
            2,
            2,
            &device,
        )
        .require_grad();
        let log_probs = burn::tensor::activation::log_softmax(logits.clone(), 1);
        let values = matrix(vec![0.0, 0.0], 2, 1, &device);
        let loss = ppo_loss(
            log_probs,
            values,
            matrix(vec![1.0, 0.0, 0.0, 1.0], 2, 2, &device),
            matrix(vec![0.5f32.ln(), 0.5f32.ln()], 2, 1, &device),
            matrix(vec![1.0, 2.0], 2, 1, &device),
            matrix(vec![0.0, 0.0], 2, 1, &device),
            config,
        );
        let expected = -(clipped_surrogate(1.8, 1.0, 0.2) + clipped_surrogate(0.9, 2.0, 0.2)) / 2.0;
        assert!((loss.policy - expected).abs() < 1e-4, "{}", loss.policy);
        let grads = loss.total.backward();
        let g = tensor_vec(logits.grad(&grads).unwrap());
        assert!(g[0].abs() < 1e-7 && g[1].abs() < 1e-7, "clipped row: {g:?}");
        assert!(g[2].abs() > 1e-3, "unclipped row moves: {g:?}");
    }
}
