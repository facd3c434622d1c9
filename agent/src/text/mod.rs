//! Text agents: a tiny character-level transformer trained on a
//! single-turn env with reference answers, by a supervised warm start and
//! then GRPO with the env's own verifier as the reward.
//!
//! - [`char_lm`] is the model and its vocabulary; [`tasks`] decides what it
//!   reads (the varying part of each prompt) and holds the held-out and
//!   training task streams; [`config`] is the trainer's settings.
//! - [`decode`] writes answers (greedy or sampled) and measures held-out
//!   pass@1; [`warm_start`] is one supervised step, [`grpo`] one GRPO
//!   update and [`grpo_loss`] its arithmetic (GRPO and Dr. GRPO).
//! - [`trainer`] runs warm start then GRPO; [`checkpoint`] is the file a
//!   run writes and [`agent`] plays one through the episode driver.

pub mod agent;
pub mod char_lm;
pub mod checkpoint;
pub mod config;
pub mod decode;
pub mod grpo;
pub mod grpo_loss;
pub mod tasks;
pub mod trainer;
pub mod warm_start;
