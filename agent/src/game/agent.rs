//! A game policy network playing through the episode driver, from a
//! checkpoint's weights: greedy or sampled per [`Play`].

use burn::tensor::Device;
use verigym_envs::{Agent, AgentTurn, Player, Rng};

use crate::game::checkpoint::Play;
use crate::game::codec::GameCodec;
use crate::game::policy_value_net::{NetWeights, PolicyValueNet, illegal_bias};
use crate::sampling::{argmax, sample_index};
use crate::tensors::{matrix, tensor_vec};

/// A game policy network playing through the episode driver. It reads only
/// the observation (never the env's oracle).
pub struct NetAgent {
    name: String,
    codec: GameCodec,
    play: Play,
    net: PolicyValueNet,
    device: Device,
    rng: Rng,
}

impl NetAgent {
    pub fn new(name: String, codec: GameCodec, play: Play, weights: &NetWeights) -> NetAgent {
        let device = Device::flex();
        NetAgent {
            name,
            codec,
            play,
            net: PolicyValueNet::from_weights(weights, &device),
            device,
            rng: Rng::from_seed(0),
        }
    }

    /// The policy's probabilities over action indices for one observation.
    pub fn probabilities(
        &self,
        observation: &verigym_envs::Observation,
        player: Player,
    ) -> Vec<f32> {
        let features = self.codec.encode(observation, player);
        let mask = self.codec.legal_mask(observation);
        let n = features.len();
        let out = self.net.forward(
            matrix(features, 1, n, &self.device),
            illegal_bias(&[mask], self.codec.num_actions(), &self.device),
        );
        tensor_vec(out.log_probs).iter().map(|l| l.exp()).collect()
    }
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn start_episode(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
    }

    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let probs = self.probabilities(turn.observation, turn.player);
        if probs.iter().all(|p| *p <= 0.0 || p.is_nan()) {
            // No legal move we know: let the env explain (it never happens
            // in the supported games).
            return String::new();
        }
        let index = match self.play {
            Play::Greedy => argmax(&probs),
            Play::Sample => sample_index(&probs, self.rng.unit_f64()),
        };
        self.codec.action_text(index)
    }
}
