//! When a training run stops: the budget both trainers (game PPO, text
//! GRPO) take.

/// When to stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Learner decisions collected (deterministic).
    Steps(u64),
    /// Wall-clock minutes (not reproducible across machines).
    Minutes(f64),
}
