//! A tiny character-level transformer that reads a task's text and writes
//! its answer, one character at a time: the text policy for single-turn
//! tasks.
//!
//! A sequence is laid out in fixed fields so that every row of a batch has
//! the same length at every decoding step:
//!
//! ```text
//! [PAD … PAD] prompt chars [SEP] answer chars [EOS] [PAD …]
//! |<----- prompt_len ----->|     |<---- answer_len ---->|
//! ```
//!
//! The prompt is left-padded (so `SEP` always sits at `prompt_len`), and
//! the answer field holds the answer, `EOS`, then padding. A causal mask
//! makes position `t` see only positions `≤ t`, and the logits at `t`
//! predict the token at `t + 1`.
//!
//! Weights start from verigym's seeded [`Rng`] (burn's own initialiser is
//! overwritten), and travel in checkpoints as plain `f32` lists, so a
//! training run is a pure function of its seed.

use burn::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn::nn::attention::generate_autoregressive_mask;
use burn::nn::transformer::{
    TransformerEncoder, TransformerEncoderConfig, TransformerEncoderInput,
};
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use verigym_envs::Rng;

/// Padding, in the prompt field's left and after the answer's end.
pub const PAD: u32 = 0;
/// Separates the prompt from the answer.
pub const SEP: u32 = 1;
/// Ends the answer.
pub const EOS: u32 = 2;
/// The id of the vocabulary's first character.
const FIRST_CHAR: u32 = 3;

/// The characters the model reads and writes, plus the three specials.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharVocab {
    chars: Vec<char>,
}

impl CharVocab {
    /// Every character of `texts`, sorted.
    pub fn from_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> CharVocab {
        let mut chars: Vec<char> = texts.into_iter().flat_map(str::chars).collect();
        chars.sort_unstable();
        chars.dedup();
        CharVocab { chars }
    }

    /// Token ids, specials included.
    pub fn size(&self) -> usize {
        self.chars.len() + FIRST_CHAR as usize
    }

    /// The ids of `text`'s characters; `None` when one is not in the vocabulary.
    pub fn encode(&self, text: &str) -> Option<Vec<u32>> {
        text.chars()
            .map(|c| {
                self.chars
                    .binary_search(&c)
                    .ok()
                    .map(|i| i as u32 + FIRST_CHAR)
            })
            .collect()
    }

    /// The text of `ids` up to the first `EOS`, specials dropped.
    pub fn decode(&self, ids: &[u32]) -> String {
        ids.iter()
            .take_while(|&&id| id != EOS)
            .filter_map(|&id| {
                id.checked_sub(FIRST_CHAR)
                    .and_then(|i| self.chars.get(i as usize))
            })
            .collect()
    }
}

/// Sizes of the model and of its two text fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharLmShape {
    pub vocab: usize,
    pub prompt_len: usize,
    /// Answer characters plus room for `EOS`.
    pub answer_len: usize,
    pub d_model: usize,
    pub heads: usize,
    pub layers: usize,
    pub d_ff: usize,
}

impl CharLmShape {
    /// Whole sequence length.
    pub fn seq_len(&self) -> usize {
        self.prompt_len + 1 + self.answer_len
    }

    /// The first `prompt_len + 1` tokens: the left-padded prompt and `SEP`.
    /// `None` when the prompt does not fit.
    pub fn prefix(&self, prompt: &[u32]) -> Option<Vec<u32>> {
        let pad = self.prompt_len.checked_sub(prompt.len())?;
        let mut tokens = vec![PAD; pad];
        tokens.extend_from_slice(prompt);
        tokens.push(SEP);
        Some(tokens)
    }

    /// A whole training row: prefix, answer, `EOS`, padding. `None` when
    /// either field overflows.
    pub fn row(&self, prompt: &[u32], answer: &[u32]) -> Option<Vec<u32>> {
        if answer.len() + 1 > self.answer_len {
            return None;
        }
        let mut tokens = self.prefix(prompt)?;
        tokens.extend_from_slice(answer);
        tokens.push(EOS);
        tokens.resize(self.seq_len(), PAD);
        Some(tokens)
    }
}

/// Token and position embeddings, a causal transformer, and the output head.
#[derive(Module, Debug)]
pub struct CharLm {
    tokens: Embedding,
    positions: Embedding,
    encoder: TransformerEncoder,
    head: Linear,
}

/// Every float parameter as `(dims, values)`, in module order.
pub type FlatWeights = Vec<(Vec<usize>, Vec<f32>)>;

struct Collect(FlatWeights);

impl ModuleVisitor for Collect {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        let tensor = param.val();
        let dims = tensor.dims().to_vec();
        self.0.push((dims, crate::tensors::tensor_vec(tensor)));
    }
}

/// Replaces float parameters in module order, from a list or a generator.
struct Replace<'a> {
    source: ReplaceFrom<'a>,
    next: usize,
    /// Container types entered, innermost last.
    stack: Vec<String>,
    device: Device,
}

enum ReplaceFrom<'a> {
    Weights(&'a FlatWeights),
    Init(&'a mut Rng),
}

impl ModuleMapper for Replace<'_> {
    fn enter_module(&mut self, _name: &str, container_type: &str) {
        self.stack.push(container_type.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.stack.pop();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let dims: [usize; D] = param.val().dims();
        let count: usize = dims.iter().product();
        let inside = |kind: &str| self.stack.last().is_some_and(|c| c.ends_with(kind));
        let values: Vec<f32> = match &mut self.source {
            ReplaceFrom::Weights(weights) => weights
                .get(self.next)
                .filter(|(d, v)| d.as_slice() == dims.as_slice() && v.len() == count)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| vec![f32::NAN; count]),
            // Layer norms keep burn's constant init (ones and zeros).
            ReplaceFrom::Init(_) if inside("LayerNorm") => {
                self.next += 1;
                return param;
            }
            ReplaceFrom::Init(_) if D == 1 => vec![0.0; count],
            ReplaceFrom::Init(rng) => {
                let bound = if inside("Embedding") {
                    0.5
                } else {
                    (1.0 / dims[0] as f32).sqrt()
                };
                (0..count)
                    .map(|_| ((rng.unit_f64() as f32) * 2.0 - 1.0) * bound)
                    .collect()
            }
        };
        self.next += 1;
        let device = self.device.clone();
        // The new tensor must keep the old one's gradient flag: a tensor
        // made from data does not require gradients, and without this only
        // the layer norms (left as burn made them) ever trained.
        param.map(|old| {
            let require_grad = old.is_require_grad();
            Tensor::<D>::from_data(TensorData::new(values, dims), &device)
                .set_require_grad(require_grad)
        })
    }
}

impl CharLm {
    /// A fresh model with weights drawn from `rng`.
    pub fn init(shape: &CharLmShape, rng: &mut Rng, device: &Device) -> CharLm {
        let model = CharLm {
            tokens: EmbeddingConfig::new(shape.vocab, shape.d_model).init(device),
            positions: EmbeddingConfig::new(shape.seq_len(), shape.d_model).init(device),
            encoder: TransformerEncoderConfig::new(
                shape.d_model,
                shape.d_ff,
                shape.heads,
                shape.layers,
            )
            .with_dropout(0.0)
            .with_norm_first(true)
            .init(device),
            head: LinearConfig::new(shape.d_model, shape.vocab).init(device),
        };
        model.map(&mut Replace {
            source: ReplaceFrom::Init(rng),
            next: 0,
            stack: Vec::new(),
            device: device.clone(),
        })
    }

    /// A model of `shape` holding `weights`.
    ///
    /// # Errors
    /// When the weights do not fit the shape.
    pub fn from_weights(
        shape: &CharLmShape,
        weights: &FlatWeights,
        device: &Device,
    ) -> Result<CharLm, String> {
        let model = CharLm::init(shape, &mut Rng::from_seed(0), device);
        let expected = model.weights();
        if expected.len() != weights.len()
            || expected
                .iter()
                .zip(weights)
                .any(|((d, _), (w, v))| d != w || v.len() != d.iter().product::<usize>())
        {
            return Err(format!(
                "weights do not fit the model shape {shape:?} ({} tensors, expected {})",
                weights.len(),
                expected.len()
            ));
        }
        Ok(model.map(&mut Replace {
            source: ReplaceFrom::Weights(weights),
            next: 0,
            stack: Vec::new(),
            device: device.clone(),
        }))
    }

    /// Copies every parameter out.
    pub fn weights(&self) -> FlatWeights {
        let mut collect = Collect(Vec::new());
        self.visit(&mut collect);
        collect.0
    }

    /// `[batch, len]` token ids to `[batch, len, vocab]` logits, causally.
    pub fn forward(&self, tokens: Tensor<2, Int>) -> Tensor<3> {
        let [batch, len] = tokens.dims();
        let device = tokens.device();
        let positions = Tensor::<1, Int>::arange(0..len as i64, &device)
            .reshape([1, len])
            .repeat_dim(0, batch);
        let x = self.tokens.forward(tokens) + self.positions.forward(positions);
        let mask = generate_autoregressive_mask(batch, len, &device);
        let h = self
            .encoder
            .forward(TransformerEncoderInput::new(x).mask_attn(mask));
        self.head.forward(h)
    }

    /// Per-token log-probabilities of each row's next token under the
    /// model, from `[rows, len]` token rows (inputs are each row but its
    /// last token; targets each row but its first): `[rows, len − 1]`.
    pub fn token_log_probs(&self, rows: &[Vec<u32>], device: &Device) -> Tensor<2> {
        self.tempered_log_probs(rows, 1.0, device)
    }

    /// [`CharLm::token_log_probs`] of the policy that samples at
    /// `temperature` (logits divided by it), the policy GRPO samples from.
    pub fn tempered_log_probs(
        &self,
        rows: &[Vec<u32>],
        temperature: f32,
        device: &Device,
    ) -> Tensor<2> {
        let n = rows.len();
        let len = rows[0].len() - 1;
        let inputs: Vec<Vec<u32>> = rows.iter().map(|r| r[..len].to_vec()).collect();
        let targets: Vec<i64> = rows
            .iter()
            .flat_map(|r| r[1..].iter().map(|&t| i64::from(t)))
            .collect();
        let logits = self.forward(id_tensor(&inputs, device));
        let logp = log_softmax(logits.div_scalar(temperature.max(1e-4)), 2);
        let index = Tensor::<3, Int>::from_data(TensorData::new(targets, [n, len, 1]), device);
        logp.gather(2, index).reshape([n, len])
    }
}

/// `rows` of equal length as a `[rows, len]` id tensor.
pub fn id_tensor(rows: &[Vec<u32>], device: &Device) -> Tensor<2, Int> {
    let len = rows.first().map_or(0, Vec::len);
    let flat: Vec<i64> = rows.iter().flatten().map(|&id| i64::from(id)).collect();
    Tensor::<2, Int>::from_data(TensorData::new(flat, [rows.len(), len]), device)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> CharLmShape {
        CharLmShape {
            vocab: 8,
            prompt_len: 4,
            answer_len: 3,
            d_model: 16,
            heads: 2,
            layers: 1,
            d_ff: 32,
        }
    }

    #[test]
    fn vocab_round_trips_and_refuses_unknown_characters() {
        let vocab = CharVocab::from_texts(["12+3", "-4"]);
        assert_eq!(vocab.size(), 6 + 3);
        let ids = vocab.encode("3+-1").unwrap();
        assert!(ids.iter().all(|&id| id >= FIRST_CHAR));
        let mut with_end = ids.clone();
        with_end.extend([EOS, 5]);
        assert_eq!(vocab.decode(&with_end), "3+-1");
        assert_eq!(vocab.encode("x"), None);
    }

    #[test]
    fn rows_pad_the_prompt_left_and_the_answer_right() {
        let s = shape();
        assert_eq!(
            s.row(&[5, 6], &[7]).unwrap(),
            vec![PAD, PAD, 5, 6, SEP, 7, EOS, PAD]
        );
        assert!(s.row(&[5, 6], &[7, 7, 7]).is_none(), "no room for EOS");
        assert!(s.prefix(&[5; 5]).is_none());
    }

    #[test]
    fn init_is_seeded_and_weights_round_trip() {
        let device = Device::flex();
        let a = CharLm::init(&shape(), &mut Rng::from_seed(4), &device).weights();
        let b = CharLm::init(&shape(), &mut Rng::from_seed(4), &device).weights();
        let c = CharLm::init(&shape(), &mut Rng::from_seed(5), &device).weights();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let model = CharLm::from_weights(&shape(), &a, &device).unwrap();
        assert_eq!(model.weights(), a);
        let mut broken = a.clone();
        broken.pop();
        assert!(CharLm::from_weights(&shape(), &broken, &device).is_err());
    }

    /// Changing a later token never changes earlier logits.
    #[test]
    fn attention_is_causal() {
        let device = Device::flex();
        let s = shape();
        let model = CharLm::init(&s, &mut Rng::from_seed(1), &device);
        let a = vec![PAD, 3, 4, 5, SEP, 6, 7, EOS];
        let mut b = a.clone();
        b[6] = 3;
        let logits = model.forward(id_tensor(&[a, b], &device));
        let values = crate::tensors::tensor_vec(logits);
        let per_row = s.seq_len() * s.vocab;
        let prefix = 6 * s.vocab;
        assert_eq!(values[..prefix], values[per_row..per_row + prefix]);
        assert_ne!(values[..per_row], values[per_row..]);
    }

    /// One optimiser step moves every parameter: the initialiser must
    /// leave each one trainable (it once dropped the gradient flag, and
    /// only the layer norms learnt).
    #[test]
    fn one_step_moves_every_parameter() {
        use burn::optim::{AdamConfig, GradientsParams};
        let device = Device::flex().autodiff();
        let s = shape();
        let model = CharLm::init(&s, &mut Rng::from_seed(2), &device);
        let before = model.weights();
        let rows = vec![
            vec![PAD, 3, 4, 5, SEP, 6, 7, EOS],
            vec![3, 4, 5, 6, SEP, 7, EOS, PAD],
        ];
        let loss = model.token_log_probs(&rows, &device).sum().neg();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        let mut optim = AdamConfig::new().init();
        let after = optim.step(1e-2, model, grads).weights();
        assert_eq!(before.len(), after.len());
        for (i, ((dims, a), (_, b))) in before.iter().zip(&after).enumerate() {
            assert!(a != b, "parameter {i} {dims:?} did not move");
        }
    }
}
