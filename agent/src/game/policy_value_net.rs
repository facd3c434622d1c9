//! The policy-value network for games: an MLP over a fixed-size encoding
//! with a masked softmax policy head and a scalar value head.
//!
//! Weights are initialised from verigym's own seeded [`Rng`] (not burn's
//! global generator), so a training run is a pure function of its seed, and
//! they travel in checkpoints as plain `f32` lists ([`NetWeights`]).

use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::tensor::activation::{log_softmax, tanh};
use burn::tensor::{Device, Tensor, TensorData};
use serde::{Deserialize, Serialize};
use verigym_envs::Rng;

use crate::tensors::{matrix, tensor_vec};

/// Added to the logits of illegal actions: their probability underflows to
/// exactly zero, while `0 × logit` stays finite (no NaN in the entropy).
pub const ILLEGAL_LOGIT: f32 = -1.0e9;

/// Shape of the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    pub inputs: usize,
    pub hidden: usize,
    pub actions: usize,
}

/// Two tanh hidden layers, then a policy head and a value head.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    hidden1: Linear,
    hidden2: Linear,
    policy: Linear,
    value: Linear,
}

/// One dense layer's parameters, row-major `[inputs][outputs]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerWeights {
    pub inputs: usize,
    pub outputs: usize,
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
}

/// All parameters of a [`PolicyValueNet`], in layer order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetWeights {
    pub shape: NetShape,
    pub layers: Vec<LayerWeights>,
}

impl NetWeights {
    /// Fresh weights: uniform(±√(1/fan_in)) like burn's default, but from
    /// `rng`. The policy head starts small so the first policy is near
    /// uniform over legal moves.
    pub fn init(shape: NetShape, rng: &mut Rng) -> NetWeights {
        let mut layer = |inputs: usize, outputs: usize, scale: f32| {
            let bound = scale * (1.0 / inputs as f32).sqrt();
            let mut draw = || ((rng.unit_f64() as f32) * 2.0 - 1.0) * bound;
            LayerWeights {
                inputs,
                outputs,
                weight: (0..inputs * outputs).map(|_| draw()).collect(),
                bias: vec![0.0; outputs],
            }
        };
        NetWeights {
            shape,
            layers: vec![
                layer(shape.inputs, shape.hidden, 1.0),
                layer(shape.hidden, shape.hidden, 1.0),
                layer(shape.hidden, shape.actions, 0.1),
                layer(shape.hidden, 1, 1.0),
            ],
        }
    }

    /// Checks that the layers fit the declared shape.
    ///
    /// # Errors
    /// A message naming the first layer that does not fit.
    pub fn validate(&self) -> Result<(), String> {
        let s = self.shape;
        let expected = [
            (s.inputs, s.hidden),
            (s.hidden, s.hidden),
            (s.hidden, s.actions),
            (s.hidden, 1),
        ];
        if self.layers.len() != expected.len() {
            return Err(format!("{} layers, expected 4", self.layers.len()));
        }
        for (i, (l, (inputs, outputs))) in self.layers.iter().zip(expected).enumerate() {
            if l.inputs != inputs
                || l.outputs != outputs
                || l.weight.len() != inputs * outputs
                || l.bias.len() != outputs
            {
                return Err(format!(
                    "layer {i}: expected {inputs}x{outputs}, got {}x{} with {} weights and {} biases",
                    l.inputs,
                    l.outputs,
                    l.weight.len(),
                    l.bias.len()
                ));
            }
        }
        Ok(())
    }
}

fn linear_from(w: &LayerWeights, device: &Device) -> Linear {
    let weight = Tensor::<2>::from_data(
        TensorData::new(w.weight.clone(), [w.inputs, w.outputs]),
        device,
    );
    let bias = Tensor::<1>::from_data(TensorData::new(w.bias.clone(), [w.outputs]), device);
    Linear {
        weight: Param::from_tensor(weight),
        bias: Some(Param::from_tensor(bias)),
    }
}

fn linear_weights(l: &Linear) -> LayerWeights {
    let weight = l.weight.val();
    let [inputs, outputs] = weight.dims();
    let bias = l
        .bias
        .as_ref()
        .map(|b| tensor_vec(b.val()))
        .unwrap_or_default();
    LayerWeights {
        inputs,
        outputs,
        weight: tensor_vec(weight),
        bias,
    }
}

/// Per-row outputs of a forward pass.
pub struct Forward {
    /// `[batch, actions]` log-probabilities, illegal actions at ≈ −1e9.
    pub log_probs: Tensor<2>,
    /// `[batch, 1]` value estimates for the mover.
    pub values: Tensor<2>,
}

impl PolicyValueNet {
    /// Builds the network on `device` from `weights` (assumed valid).
    pub fn from_weights(weights: &NetWeights, device: &Device) -> PolicyValueNet {
        PolicyValueNet {
            hidden1: linear_from(&weights.layers[0], device),
            hidden2: linear_from(&weights.layers[1], device),
            policy: linear_from(&weights.layers[2], device),
            value: linear_from(&weights.layers[3], device),
        }
    }

    /// Copies the parameters out.
    pub fn weights(&self) -> NetWeights {
        let layers = vec![
            linear_weights(&self.hidden1),
            linear_weights(&self.hidden2),
            linear_weights(&self.policy),
            linear_weights(&self.value),
        ];
        NetWeights {
            shape: NetShape {
                inputs: layers[0].inputs,
                hidden: layers[0].outputs,
                actions: layers[2].outputs,
            },
            layers,
        }
    }

    /// `inputs` is `[batch, inputs]`; `illegal` is `[batch, actions]` holding
    /// 0 for legal and [`ILLEGAL_LOGIT`] for illegal actions.
    pub fn forward(&self, inputs: Tensor<2>, illegal: Tensor<2>) -> Forward {
        let h = tanh(self.hidden1.forward(inputs));
        let h = tanh(self.hidden2.forward(h));
        let logits = self.policy.forward(h.clone()) + illegal;
        Forward {
            log_probs: log_softmax(logits, 1),
            values: self.value.forward(h),
        }
    }
}

/// The additive mask for [`PolicyValueNet::forward`] from legal flags.
pub fn illegal_bias(masks: &[Vec<bool>], actions: usize, device: &Device) -> Tensor<2> {
    let values = masks
        .iter()
        .flat_map(|m| {
            m.iter()
                .map(|&legal| if legal { 0.0 } else { ILLEGAL_LOGIT })
        })
        .collect();
    matrix(values, masks.len(), actions, device)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> NetShape {
        NetShape {
            inputs: 5,
            hidden: 8,
            actions: 4,
        }
    }

    #[test]
    fn illegal_actions_get_zero_probability() {
        let device = Device::flex();
        let weights = NetWeights::init(shape(), &mut Rng::from_seed(7));
        let net = PolicyValueNet::from_weights(&weights, &device);
        let inputs = matrix(vec![0.3, -1.0, 0.5, 2.0, 0.0], 1, 5, &device);
        let masks = vec![vec![true, false, true, false]];
        let out = net.forward(inputs, illegal_bias(&masks, 4, &device));
        let probs: Vec<f32> = tensor_vec(out.log_probs).iter().map(|l| l.exp()).collect();
        assert_eq!(probs[1], 0.0);
        assert_eq!(probs[3], 0.0);
        assert!((probs[0] + probs[2] - 1.0).abs() < 1e-5, "{probs:?}");
    }

    #[test]
    fn weights_round_trip_through_the_network() {
        let device = Device::flex();
        let weights = NetWeights::init(shape(), &mut Rng::from_seed(3));
        weights.validate().unwrap();
        let net = PolicyValueNet::from_weights(&weights, &device);
        assert_eq!(net.weights(), weights);
        let mut broken = weights.clone();
        broken.layers[1].bias.pop();
        assert!(broken.validate().is_err());
    }
}
