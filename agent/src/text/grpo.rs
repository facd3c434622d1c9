//! One GRPO update of the text policy: sample a group of answers per task,
//! score them with the env's verifier, and step on the group-relative
//! advantages (the arithmetic is [`crate::text::grpo_loss`]).

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use verigym_envs::Rng;

use crate::tensors::{matrix, tensor_vec};
use crate::text::char_lm::{CharLm, PAD};
use crate::text::config::TextConfig;
use crate::text::decode::decode;
use crate::text::grpo_loss::{group_advantages, grpo_loss};
use crate::text::tasks::{TextSetup, TextTask};

/// What one GRPO update saw.
pub struct GrpoStats {
    pub mean_reward: f32,
    pub loss: f32,
    /// Mean negative log-probability of the sampled tokens.
    pub entropy: f32,
}

/// Samples `group` answers per task with the current policy, scores them
/// with the env, and takes `epochs` clipped steps on the group advantages.
#[allow(clippy::too_many_arguments)]
pub fn grpo_step(
    mut model: CharLm,
    optim: &mut ModuleOptimizer,
    setup: &TextSetup,
    tasks: &[TextTask],
    config: &TextConfig,
    rng: &mut Rng,
    device: &Device,
) -> (CharLm, GrpoStats) {
    let shape = &setup.shape;
    let prompts: Vec<&[u32]> = tasks
        .iter()
        .flat_map(|t| std::iter::repeat_n(t.prompt.as_slice(), config.group))
        .collect();
    let policy = model.valid();
    let sampled = decode(
        &policy,
        shape,
        &setup.vocab,
        &prompts,
        config.temperature,
        Some(rng),
        &Device::flex(),
    );
    let rewards: Vec<f32> = sampled
        .texts
        .iter()
        .enumerate()
        .map(|(i, text)| setup.reward(&tasks[i / config.group].card, text).0)
        .collect();
    let advantages: Vec<f32> = rewards
        .chunks(config.group)
        .flat_map(|g| group_advantages(g, config.variant))
        .collect();
    let n = prompts.len();
    let len = shape.seq_len() - 1;
    let mut rows = Vec::with_capacity(n);
    let mut old = vec![0.0f32; n * len];
    let mut mask = vec![0.0f32; n * len];
    for i in 0..n {
        let mut row = shape.prefix(prompts[i]).unwrap_or_default();
        row.extend_from_slice(&sampled.tokens[i]);
        row.resize(shape.seq_len(), PAD);
        for (k, &lp) in sampled.log_probs[i].iter().enumerate() {
            old[i * len + shape.prompt_len + k] = lp;
            mask[i * len + shape.prompt_len + k] = 1.0;
        }
        rows.push(row);
    }
    let tokens: usize = sampled.log_probs.iter().map(Vec::len).sum();
    let entropy = -sampled.log_probs.iter().flatten().sum::<f32>() / tokens.max(1) as f32;
    let mut loss_value = 0.0;
    if advantages.iter().any(|a| *a != 0.0) {
        for _ in 0..config.epochs {
            let new = model.token_log_probs(&rows, device);
            let loss = grpo_loss(
                new,
                matrix(old.clone(), n, len, device),
                matrix(advantages.clone(), n, 1, device),
                matrix(mask.clone(), n, len, device),
                config.clip,
                config.variant,
            );
            loss_value = tensor_vec(loss.clone())[0];
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(config.grpo_lr, model, grads);
        }
    }
    let stats = GrpoStats {
        mean_reward: rewards.iter().sum::<f32>() / rewards.len().max(1) as f32,
        loss: loss_value,
        entropy,
    };
    (model, stats)
}
