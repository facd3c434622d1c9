//! Game agents: an MLP policy-value network trained by PPO self-play on
//! two-player games (`games/tictactoe-v1`, `games/connect-four-v1`,
//! `games/kuhn-poker-v1`).
//!
//! - [`codec`] encodes a game's structured observation as a fixed-size
//!   vector and maps action indices to move texts; [`baselines`] holds the
//!   scripted opponent the envs crate does not ship (Connect Four's
//!   win-or-block).
//! - [`policy_value_net`] is the network, [`ppo_loss`] PPO's arithmetic
//!   (GAE, normalisation, the clipped loss), [`rollout`] plays batches of
//!   self-play games, and [`trainer`] runs the PPO self-play loop.
//! - [`eval`] measures a policy on held-out seeds (and Kuhn poker's exact
//!   exploitability); [`checkpoint`] is the file a run writes and
//!   [`agent`] plays one through the episode driver.

pub mod agent;
pub mod baselines;
pub mod checkpoint;
pub mod codec;
pub mod eval;
pub mod policy_value_net;
pub mod ppo_loss;
pub mod rollout;
pub mod trainer;
