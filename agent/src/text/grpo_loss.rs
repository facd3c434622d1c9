//! GRPO's arithmetic: group-relative advantages and the clipped token-level
//! objective, in the two variants the trainer offers, with scalar reference
//! versions the tensor code is tested against.
//!
//! - **GRPO** (DeepSeekMath): an answer's advantage is its reward minus its
//!   group's mean, divided by the group's standard deviation; each answer's
//!   token terms are averaged over its own length, then over answers.
//! - **Dr. GRPO** ("GRPO done right"): no division by the standard deviation
//!   and no per-answer length normalisation; token terms are summed and
//!   divided by a constant (answers × the answer field's length), which
//!   removes GRPO's bias toward long wrong answers and easy groups.

use burn::tensor::Tensor;
use serde::{Deserialize, Serialize};

/// Which normalisation the objective uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrpoVariant {
    Grpo,
    DrGrpo,
}

/// Advantages of one group of answers to the same prompt. A group whose
/// answers all scored the same gets zeros: it carries no signal.
pub fn group_advantages(rewards: &[f32], variant: GrpoVariant) -> Vec<f32> {
    if rewards.is_empty() {
        return Vec::new();
    }
    let n = rewards.len() as f32;
    let mean = rewards.iter().sum::<f32>() / n;
    let centred = rewards.iter().map(|r| r - mean);
    match variant {
        GrpoVariant::DrGrpo => centred.collect(),
        GrpoVariant::Grpo => {
            let std = (rewards.iter().map(|r| (r - mean).powi(2)).sum::<f32>() / n).sqrt();
            centred
                .map(|a| if std > 1e-6 { a / std } else { 0.0 })
                .collect()
        }
    }
}

/// The objective to maximise for one batch, from per-token log-probs:
/// `ratio = exp(new − old)`, the PPO-clipped surrogate per token, masked
/// to the answer's tokens, normalised per [`GrpoVariant`].
///
/// `new_log_probs`, `old_log_probs` and `mask` are `[answers, tokens]`;
/// `advantages` is `[answers, 1]`. Returns the loss (the negated objective).
pub fn grpo_loss(
    new_log_probs: Tensor<2>,
    old_log_probs: Tensor<2>,
    advantages: Tensor<2>,
    mask: Tensor<2>,
    clip: f32,
    variant: GrpoVariant,
) -> Tensor<1> {
    let [answers, tokens] = mask.dims();
    let ratio = (new_log_probs - old_log_probs).exp();
    let unclipped = ratio.clone() * advantages.clone();
    let clipped = ratio.clamp(1.0 - clip, 1.0 + clip) * advantages;
    let per_token = unclipped.min_pair(clipped) * mask.clone();
    let objective = match variant {
        GrpoVariant::DrGrpo => per_token.sum().div_scalar((answers * tokens) as f32),
        GrpoVariant::Grpo => {
            let lengths = mask.sum_dim(1).clamp_min(1.0);
            (per_token.sum_dim(1) / lengths).mean().reshape([1])
        }
    };
    objective.neg()
}

/// Scalar reference of [`grpo_loss`] for one batch of token rows.
pub fn grpo_loss_reference(
    new: &[Vec<f32>],
    old: &[Vec<f32>],
    advantages: &[f32],
    mask: &[Vec<f32>],
    clip: f32,
    variant: GrpoVariant,
) -> f32 {
    let tokens = mask.first().map_or(0, Vec::len);
    let rows: Vec<(f32, f32)> = (0..new.len())
        .map(|i| {
            let mut sum = 0.0;
            for t in 0..tokens {
                let ratio = (new[i][t] - old[i][t]).exp();
                let term = crate::surrogate::clipped_surrogate(ratio, advantages[i], clip);
                sum += term * mask[i][t];
            }
            (sum, mask[i].iter().sum::<f32>().max(1.0))
        })
        .collect();
    let objective = match variant {
        GrpoVariant::DrGrpo => {
            rows.iter().map(|(s, _)| s).sum::<f32>() / (new.len() * tokens) as f32
        }
        GrpoVariant::Grpo => rows.iter().map(|(s, l)| s / l).sum::<f32>() / new.len() as f32,
    };
    -objective
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensors::{matrix, tensor_vec};
    use burn::tensor::Device;

    #[test]
    fn advantages_are_centred_and_grpo_scales_by_the_std() {
        let dr = group_advantages(&[1.0, 0.0, 0.0, 1.0], GrpoVariant::DrGrpo);
        assert_eq!(dr, vec![0.5, -0.5, -0.5, 0.5]);
        let grpo = group_advantages(&[1.0, 0.0, 0.0, 1.0], GrpoVariant::Grpo);
        assert_eq!(grpo, vec![1.0, -1.0, -1.0, 1.0]);
        // One right answer in four: Dr. GRPO keeps the raw gap, GRPO
        // inflates it by 1/std.
        let dr = group_advantages(&[1.0, 0.0, 0.0, 0.0], GrpoVariant::DrGrpo);
        let grpo = group_advantages(&[1.0, 0.0, 0.0, 0.0], GrpoVariant::Grpo);
        assert!((dr[0] - 0.75).abs() < 1e-6);
        assert!((grpo[0] - 0.75 / 0.433_012_7).abs() < 1e-4, "{grpo:?}");
        for variant in [GrpoVariant::Grpo, GrpoVariant::DrGrpo] {
            assert_eq!(group_advantages(&[1.0, 1.0], variant), vec![0.0, 0.0]);
            assert!(group_advantages(&[], variant).is_empty());
        }
    }

    /// Row 0 is short and right, row 1 long and wrong: the variants weigh
    /// them differently, and both match the scalar reference.
    #[test]
    fn tensor_loss_matches_the_reference_for_both_variants() {
        let device = Device::flex();
        let new = vec![vec![-0.1, -0.2, 0.0], vec![-1.0, -0.5, -0.7]];
        let old = vec![vec![-0.3, -0.2, 0.0], vec![-0.9, -0.9, -0.6]];
        let mask = vec![vec![1.0, 1.0, 0.0], vec![1.0, 1.0, 1.0]];
        let advantages = [1.0, -1.0];
        let flat = |rows: &Vec<Vec<f32>>| rows.iter().flatten().copied().collect::<Vec<f32>>();
        let mut losses = Vec::new();
        for variant in [GrpoVariant::Grpo, GrpoVariant::DrGrpo] {
            let loss = grpo_loss(
                matrix(flat(&new), 2, 3, &device),
                matrix(flat(&old), 2, 3, &device),
                matrix(advantages.to_vec(), 2, 1, &device),
                matrix(flat(&mask), 2, 3, &device),
                0.2,
                variant,
            );
            let got = tensor_vec(loss)[0];
            let expected = grpo_loss_reference(&new, &old, &advantages, &mask, 0.2, variant);
            assert!(
                (got - expected).abs() < 1e-5,
                "{variant:?}: {got} vs {expected}"
            );
            losses.push(got);
        }
        assert!((losses[0] - losses[1]).abs() > 1e-3, "{losses:?}");
    }

    /// A token whose ratio is already past the clip sends no gradient;
    /// masked tokens send none either.
    #[test]
    fn clipped_and_masked_tokens_get_no_gradient() {
        let device = Device::flex().autodiff();
        let new = matrix(vec![0.5, 0.0, 0.0], 1, 3, &device).require_grad();
        let loss = grpo_loss(
            new.clone(),
            matrix(vec![0.0, 0.0, 0.0], 1, 3, &device),
            matrix(vec![1.0], 1, 1, &device),
            matrix(vec![1.0, 1.0, 0.0], 1, 3, &device),
            0.2,
            GrpoVariant::DrGrpo,
        );
        let grads = loss.backward();
        let g = tensor_vec(new.grad(&grads).unwrap());
        assert!(g[0].abs() < 1e-7, "ratio e^0.5 > 1.2 is clipped: {g:?}");
        assert!(
            g[1] < -1e-3,
            "an unclipped positive-advantage token is pushed up: {g:?}"
        );
        assert!(g[2].abs() < 1e-7, "masked: {g:?}");
    }
}
