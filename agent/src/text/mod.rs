//! Text agents: a tiny character-level transformer trained on a one-player
//! env (single-turn with reference answers, or multi-turn with an oracle)
//! by a supervised warm start and then GRPO with the env's own verifier as
//! the reward, on levels a curriculum picks.
//!
//! - [`char_lm`] is the model and its vocabulary; [`tasks`] decides what it
//!   reads (the varying part of each observation), holds the env with its
//!   levels and the held-out and training task streams; [`config`] is the
//!   trainer's settings; [`demos`] makes the warm start's demonstrations.
//! - [`decode`] writes answers (greedy or sampled); [`episodes`] plays many
//!   episodes in lockstep; [`eval`] measures held-out pass@1, pass@k and
//!   the paired interval of a gain (clustered by task).
//! - [`warm_start`] is one supervised step, [`grpo`] one GRPO update and
//!   [`grpo_loss`] its arithmetic (GRPO and Dr. GRPO); [`curriculum`]
//!   picks the level of each GRPO group.
//! - [`trainer`] runs warm start then GRPO and [`text_curve`] writes its
//!   curve; [`checkpoint`] is the file a run writes and [`agent`] plays one
//!   through the episode driver.

pub mod agent;
pub mod char_lm;
pub mod checkpoint;
pub mod config;
pub mod curriculum;
pub mod decode;
pub mod demos;
pub mod episodes;
pub mod eval;
pub mod grpo;
pub mod grpo_loss;
pub mod tasks;
pub mod text_curve;
pub mod trainer;
pub mod warm_start;
