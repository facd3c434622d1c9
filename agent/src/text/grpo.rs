//! One GRPO update of the text policy: play a group of episodes per task,
//! score each with the env's verifier, and step on the group-relative
//! advantages (the arithmetic is [`crate::text::grpo_loss`]). Every turn
//! of an episode carries that episode's advantage: with one reward per
//! episode, this is GRPO's turn-level credit (a single-turn task is an
//! episode of one turn).

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use verigym_envs::{DynEnv, Rng, TaskCard};

use crate::tensors::{matrix, tensor_vec};
use crate::text::char_lm::{CharLm, PAD};
use crate::text::config::TextConfig;
use crate::text::episodes::{EpisodeRecord, play_episodes};
use crate::text::grpo_loss::{group_advantages, grpo_loss};
use crate::text::tasks::TextSetup;

/// What one GRPO update saw.
pub struct GrpoStats {
    pub mean_reward: f32,
    pub loss: f32,
    /// Mean negative log-probability of the sampled tokens.
    pub entropy: f32,
    /// Mean log-ratio of the sampled tokens under the sampling policy and
    /// the warm start (an estimate of KL(policy ‖ warm start) per token),
    /// when the caller asked for it (one more forward pass).
    pub kl: Option<f32>,
    /// Share of groups whose episodes all earned the same reward (they
    /// carry no signal).
    pub zero_variance: f32,
    /// Each group's episode rewards, in the order of the tasks given.
    pub group_rewards: Vec<Vec<f32>>,
}

/// Token rows of `episodes`' turns: the ids, the sampled log-probs and the
/// answer mask (both `[rows, seq_len − 1]`, flattened).
struct Rows {
    rows: Vec<Vec<u32>>,
    old: Vec<f32>,
    mask: Vec<f32>,
}

fn token_rows<'a>(setup: &TextSetup, turns: impl Iterator<Item = &'a EpisodeRecord>) -> Rows {
    let shape = &setup.shape;
    let len = shape.seq_len() - 1;
    let mut out = Rows {
        rows: Vec::new(),
        old: Vec::new(),
        mask: Vec::new(),
    };
    for turn in turns.flat_map(|e| &e.turns) {
        let mut row = shape.prefix(&turn.prompt).unwrap_or_default();
        row.extend_from_slice(&turn.tokens);
        row.resize(shape.seq_len(), PAD);
        let (mut old, mut mask) = (vec![0.0f32; len], vec![0.0f32; len]);
        for (k, &lp) in turn.log_probs.iter().enumerate() {
            old[shape.prompt_len + k] = lp;
            mask[shape.prompt_len + k] = 1.0;
        }
        out.rows.push(row);
        out.old.extend(old);
        out.mask.extend(mask);
    }
    out
}

/// Plays `group` episodes of each `(level, card)` with the current policy,
/// scores them with the env, and takes `epochs` clipped steps on the group
/// advantages. Turns whose advantage is zero are left out of the backward
/// pass (they add nothing to the gradient; the loss is rescaled so the
/// normalisation still counts them). `reference` (the warm start) is read
/// only to measure the KL.
#[allow(clippy::too_many_arguments)]
pub fn grpo_step(
    mut model: CharLm,
    optim: &mut ModuleOptimizer,
    setup: &TextSetup,
    tasks: &[(usize, TaskCard)],
    reference: Option<&CharLm>,
    config: &TextConfig,
    rng: &mut Rng,
    device: &Device,
) -> (CharLm, GrpoStats) {
    let shape = &setup.shape;
    let envs: Vec<Box<dyn DynEnv>> = tasks
        .iter()
        .flat_map(|(level, card)| {
            (0..config.group).map(move |_| {
                let mut env = setup.levels[*level].clone_box();
                let _ = env.reset(card);
                env
            })
        })
        .collect();
    let cpu = Device::flex();
    let episodes = play_episodes(
        &model.valid(),
        setup,
        envs,
        config.max_turns,
        config.temperature,
        Some(rng),
        &cpu,
    );
    let rewards: Vec<f32> = episodes.iter().map(|e| e.reward).collect();
    let group_rewards: Vec<Vec<f32>> = rewards.chunks(config.group).map(<[f32]>::to_vec).collect();
    let advantages: Vec<f32> = group_rewards
        .iter()
        .flat_map(|g| group_advantages(g, config.variant))
        .collect();
    let zero_variance = group_rewards
        .iter()
        .filter(|g| g.iter().all(|r| *r == g[0]))
        .count() as f32
        / group_rewards.len().max(1) as f32;
    let len = shape.seq_len() - 1;
    let all = token_rows(setup, episodes.iter());
    let total_rows = all.rows.len();
    let tokens: f32 = all.mask.iter().sum();
    let entropy = -all.old.iter().sum::<f32>() / tokens.max(1.0);
    let kl = reference.filter(|_| total_rows > 0).map(|reference| {
        let reference = reference.tempered_log_probs(&all.rows, config.temperature, &cpu);
        let reference = tensor_vec(reference);
        reference
            .iter()
            .zip(&all.old)
            .zip(&all.mask)
            .map(|((r, o), m)| (o - r) * m)
            .sum::<f32>()
            / tokens.max(1.0)
    });
    let kept: Vec<usize> = (0..episodes.len())
        .filter(|&e| advantages[e] != 0.0)
        .collect();
    let kept_rows = token_rows(setup, kept.iter().map(|&e| &episodes[e]));
    let row_advantages: Vec<f32> = kept
        .iter()
        .flat_map(|&e| std::iter::repeat_n(advantages[e], episodes[e].turns.len()))
        .collect();
    let n = kept_rows.rows.len();
    let mut loss_value = 0.0;
    if n > 0 {
        let scale = n as f32 / total_rows as f32;
        for _ in 0..config.epochs {
            // The ratio compares like with like: the sampled tokens'
            // log-probs were taken at the sampling temperature.
            let new = model.tempered_log_probs(&kept_rows.rows, config.temperature, device);
            let loss = grpo_loss(
                new,
                matrix(kept_rows.old.clone(), n, len, device),
                matrix(row_advantages.clone(), n, 1, device),
                matrix(kept_rows.mask.clone(), n, len, device),
                config.clip,
                config.variant,
            )
            .mul_scalar(scale);
            loss_value = tensor_vec(loss.clone())[0];
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(config.grpo_lr, model, grads);
        }
    }
    let stats = GrpoStats {
        mean_reward: rewards.iter().sum::<f32>() / rewards.len().max(1) as f32,
        loss: loss_value,
        entropy,
        kl,
        zero_variance,
        group_rewards,
    };
    (model, stats)
}
