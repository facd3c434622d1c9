//! The supervised warm start: cross-entropy on demonstrations (the env's
//! reference answers, or its oracle's moves), before GRPO has anything to
//! reinforce.

use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;

use crate::tensors::{matrix, tensor_vec};
use crate::text::char_lm::{CharLm, EOS};
use crate::text::tasks::TextSetup;

/// One supervised step on `(prompt, answer)` demonstrations; returns the
/// loss (mean negative log-likelihood per answer token, `EOS` included).
pub fn warm_step(
    model: CharLm,
    optim: &mut ModuleOptimizer,
    setup: &TextSetup,
    demos: &[(Vec<u32>, Vec<u32>)],
    lr: f64,
    device: &Device,
) -> (CharLm, f32) {
    let shape = &setup.shape;
    let rows: Vec<Vec<u32>> = demos
        .iter()
        .filter_map(|(prompt, answer)| shape.row(prompt, answer))
        .collect();
    if rows.is_empty() {
        return (model, 0.0);
    }
    let len = shape.seq_len() - 1;
    // Positions from SEP (which predicts the first answer character) to the
    // one that predicts EOS.
    let mask: Vec<f32> = rows
        .iter()
        .flat_map(|r| {
            let end = r[shape.prompt_len + 1..]
                .iter()
                .position(|&t| t == EOS)
                .map_or(len, |p| shape.prompt_len + p);
            (0..len).map(move |t| f32::from(u8::from(t >= shape.prompt_len && t <= end)))
        })
        .collect();
    let n = rows.len();
    let logp = model.token_log_probs(&rows, device);
    let mask = matrix(mask, n, len, device);
    let loss = (logp * mask.clone()).sum().neg() / mask.sum();
    let value = tensor_vec(loss.clone())[0];
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    (optim.step(lr, model, grads), value)
}
