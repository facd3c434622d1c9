//! Reward shaping: declared pieces added to an env's correctness score.
//!
//! The shaped reward is
//! `correctness × env reward + format pieces − length penalty − invalid
//! penalty`, and every piece is recorded in the breakdown under `shaping.*`.
//! `passed` is never touched: it means correctness alone, so no amount of
//! formatting or brevity turns a wrong answer into a pass.
//!
//! ```
//! use verigym_envs::shaping::Shaping;
//! use verigym_envs::Score;
//!
//! let shaping: Shaping = serde_json::from_str(
//!     r#"{"format_boxed": 0.1, "length_budget": 200, "length_penalty": 0.2}"#).unwrap();
//! let shaped = shaping.apply(&Score::binary(true), &["So \\boxed{4}".to_string()], 0);
//! assert!((shaped.reward - 1.1).abs() < 1e-12 && shaped.passed);
//! ```

use serde::{Deserialize, Serialize};

use crate::core::Score;

/// The pieces; all default to off except `correctness = 1`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Shaping {
    /// Weight of the env's own reward.
    pub correctness: f64,
    /// Paid when the final response has a non-empty `\boxed{…}`.
    pub format_boxed: f64,
    /// Paid when the final response has a closed `<think>…</think>` block
    /// followed by an answer.
    pub format_think: f64,
    /// Characters of response text (all turns) allowed without penalty.
    pub length_budget: Option<usize>,
    /// Penalty at twice the budget; it grows linearly from the budget and
    /// is capped there.
    pub length_penalty: f64,
    /// Penalty per refused action.
    pub invalid_action_penalty: f64,
}

impl Default for Shaping {
    fn default() -> Self {
        Shaping {
            correctness: 1.0,
            format_boxed: 0.0,
            format_think: 0.0,
            length_budget: None,
            length_penalty: 0.0,
            invalid_action_penalty: 0.0,
        }
    }
}

fn has_nonempty_box(text: &str) -> bool {
    verigym_verifiers::answer::boxed_contents(text)
        .is_ok_and(|boxes| boxes.last().is_some_and(|b| !b.trim().is_empty()))
}

fn has_think_then_answer(text: &str) -> bool {
    match (text.find("<think>"), text.rfind("</think>")) {
        (Some(open), Some(close)) if open < close => {
            !text[close + "</think>".len()..].trim().is_empty()
        }
        _ => false,
    }
}

impl Shaping {
    /// The shaped score of an episode from its responses (in order) and
    /// its refused actions.
    pub fn apply(&self, score: &Score, responses: &[String], invalid_actions: u32) -> Score {
        let mut shaped = score.clone();
        let last = responses.last().map(String::as_str).unwrap_or_default();
        let mut reward = self.correctness * score.reward;
        let mut piece = |name: &str, value: f64| {
            if value != 0.0 {
                shaped.breakdown.insert(format!("shaping.{name}"), value);
                reward += value;
            }
        };
        piece(
            "format_boxed",
            if has_nonempty_box(last) {
                self.format_boxed
            } else {
                0.0
            },
        );
        piece(
            "format_think",
            if has_think_then_answer(last) {
                self.format_think
            } else {
                0.0
            },
        );
        if let Some(budget) = self.length_budget {
            let length: usize = responses.iter().map(|r| r.chars().count()).sum();
            let over = length.saturating_sub(budget) as f64 / budget.max(1) as f64;
            piece("length", -self.length_penalty * over.min(1.0));
        }
        piece(
            "invalid_actions",
            -self.invalid_action_penalty * f64::from(invalid_actions),
        );
        shaped.reward = reward;
        shaped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shaping() -> Shaping {
        Shaping {
            format_boxed: 0.1,
            format_think: 0.05,
            length_budget: Some(20),
            length_penalty: 0.4,
            invalid_action_penalty: 0.2,
            ..Shaping::default()
        }
    }

    #[test]
    fn pieces_add_up_and_are_recorded() {
        let right = Score::binary(true);
        let shaped = shaping().apply(&right, &["<think>2+2</think>\\boxed{4}".into()], 0);
        // 27 characters: 7 over a budget of 20 is 35% of the way to the cap.
        assert!(
            (shaped.reward - (1.0 + 0.1 + 0.05 - 0.4 * 0.35)).abs() < 1e-12,
            "{shaped:?}"
        );
        assert_eq!(shaped.breakdown["shaping.format_boxed"], 0.1);
        assert_eq!(shaped.breakdown["correct"], 1.0);
        let penalised = shaping().apply(&right, &["x".repeat(500)], 3);
        assert!(
            (penalised.reward - (1.0 - 0.4 - 0.6)).abs() < 1e-12,
            "{penalised:?}"
        );
    }

    #[test]
    fn format_never_makes_a_wrong_answer_pass_and_empty_formats_pay_nothing() {
        let wrong = Score::binary(false);
        let shaped = shaping().apply(&wrong, &["<think></think>\\boxed{5}".into()], 0);
        assert!(!shaped.passed);
        assert!(shaped.reward < 0.2);
        let empty = shaping().apply(&wrong, &["<think>x</think>\\boxed{}".into()], 0);
        assert!(!empty.breakdown.contains_key("shaping.format_boxed"));
        let unclosed = shaping().apply(&wrong, &["<think>\\boxed{1}".into()], 0);
        assert!(!unclosed.breakdown.contains_key("shaping.format_think"));
    }

    #[test]
    fn the_default_is_the_env_reward_unchanged() {
        let score = Score::binary(true).part("format", 1.0);
        assert_eq!(
            Shaping::default().apply(&score, &["anything".into()], 5),
            score
        );
        assert!(serde_json::from_str::<Shaping>(r#"{"format_boxd": 1}"#).is_err());
    }
}
