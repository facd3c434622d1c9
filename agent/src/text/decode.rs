//! Writing answers with the text policy: greedy or sampled decoding of a
//! batch of prompts.

use burn::tensor::Device;
use burn::tensor::activation::log_softmax;
use verigym_envs::Rng;

use crate::sampling::{argmax, sample_index};
use crate::tensors::tensor_vec;
use crate::text::char_lm::{CharLm, CharLmShape, CharVocab, EOS, PAD, id_tensor};

/// Decoded answers: token ids after `SEP`, their log-probabilities under
/// the sampling policy, and the text.
pub struct Decoded {
    pub tokens: Vec<Vec<u32>>,
    pub log_probs: Vec<Vec<f32>>,
    pub texts: Vec<String>,
}

/// Writes answers for `prompts`: greedy when `rng` is `None`, else sampled
/// at `temperature`.
pub fn decode(
    model: &CharLm,
    shape: &CharLmShape,
    vocab: &CharVocab,
    prompts: &[&[u32]],
    temperature: f32,
    mut rng: Option<&mut Rng>,
    device: &Device,
) -> Decoded {
    let mut rows: Vec<Vec<u32>> = prompts
        .iter()
        .map(|p| {
            shape
                .prefix(p)
                .unwrap_or_else(|| vec![PAD; shape.prompt_len + 1])
        })
        .collect();
    let n = rows.len();
    let mut log_probs = vec![Vec::new(); n];
    let mut done = vec![false; n];
    for _ in 0..shape.answer_len {
        if done.iter().all(|&d| d) {
            break;
        }
        let len = rows[0].len();
        let logits = model.forward(id_tensor(&rows, device));
        let last = logits
            .narrow(1, len - 1, 1)
            .reshape([n, shape.vocab])
            .div_scalar(temperature.max(1e-4));
        let logp = tensor_vec(log_softmax(last, 1));
        for (i, row) in rows.iter_mut().enumerate() {
            if done[i] {
                row.push(PAD);
                continue;
            }
            let dist = &logp[i * shape.vocab..(i + 1) * shape.vocab];
            let pick = match rng.as_deref_mut() {
                None => argmax(dist),
                Some(rng) => {
                    let probs: Vec<f32> = dist.iter().map(|l| l.exp()).collect();
                    sample_index(&probs, rng.unit_f64())
                }
            };
            log_probs[i].push(dist[pick]);
            row.push(pick as u32);
            done[i] = pick as u32 == EOS;
        }
    }
    let answers: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| r[shape.prompt_len + 1..].to_vec())
        .collect();
    let texts = answers.iter().map(|a| vocab.decode(a)).collect();
    Decoded {
        tokens: answers,
        log_probs,
        texts,
    }
}
