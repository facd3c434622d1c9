//! Demonstrations for the supervised warm start: (observation, answer)
//! pairs. A single-turn task gives its prompt and reference answer; a
//! multi-turn episode gives every turn's observation with the env oracle's
//! action, played partly by the env's random action (`demo_explore`) so the
//! demonstrations also cover states the oracle alone never reaches.

use verigym_envs::{DynEnv, Rng, TaskCard, Turn};

use crate::text::config::TextConfig;

/// Raw (observation text, answer text) pairs of `card` played on `env`;
/// empty when the env gives no reference (single-turn) or no oracle
/// action at the first turn (multi-turn).
pub fn raw_demos(
    env: &dyn DynEnv,
    multi_turn: bool,
    card: &TaskCard,
    config: &TextConfig,
    rng: &mut Rng,
) -> Vec<(String, String)> {
    if !multi_turn {
        return reference_text(card)
            .map(|answer| vec![(card.prompt.clone(), answer)])
            .unwrap_or_default();
    }
    let mut env = env.clone_box();
    let mut pairs = Vec::new();
    if env.reset(card).is_err() {
        return pairs;
    }
    while env.turn() == Turn::Player(0) && pairs.len() < config.max_turns {
        let (Ok(observation), Some(oracle)) = (env.observe(0), env.oracle_action(0)) else {
            break;
        };
        pairs.push((observation.text, oracle.clone()));
        let action = if rng.chance(config.demo_explore) {
            env.random_action(0, rng)
        } else {
            oracle
        };
        if env.step(0, &action).is_err() {
            break;
        }
    }
    pairs
}

/// A reference answer as text.
pub fn reference_text(card: &TaskCard) -> Option<String> {
    match card.reference.as_ref()? {
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}
