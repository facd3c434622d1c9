//! What Kuhn, Leduc and heads-up limit hold'em poker share: a match of
//! `hands` hands (config, presets, difficulty scale), the betting actions,
//! and the oracle's seeded draws from its mixed strategy.

use serde::{Deserialize, Serialize};

use crate::core::{Preset, Score};
use crate::error::ConfigError;
use crate::rng::splitmix64;

/// Most hands in one match.
pub const MAX_HANDS: usize = 1000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatchConfig {
    pub hands: usize,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig { hands: 1 }
    }
}

/// `standard` (one hand) and `match` (ten), and the difficulty scale's
/// named points.
pub const PRESETS: &[Preset] = &Preset::graded_after::<5>(
    &[
        Preset {
            name: "standard",
            overrides: "{}",
        },
        Preset {
            name: "match",
            overrides: r#"{"hands": 10}"#,
        },
    ],
    LEVELS,
    [0, 1, 2],
);

/// Hands in the match, fewest first: each hand is a fresh set of decisions.
pub const LEVELS: &[&str] = &["{}", r#"{"hands": 3}"#, r#"{"hands": 10}"#];

/// # Errors
/// `hands` outside `1..=MAX_HANDS`.
pub fn validate(config: &MatchConfig) -> Result<(), ConfigError> {
    if (1..=MAX_HANDS).contains(&config.hands) {
        Ok(())
    } else {
        Err(format!("hands must be in 1..={MAX_HANDS}, got {}", config.hands).into())
    }
}

/// A player's score for a match: net chips per hand, `passed` when ahead.
pub fn match_score(chips: i32, hands: usize) -> Score {
    Score::default()
        .with(f64::from(chips) / hands as f64, chips > 0)
        .part("chips", f64::from(chips))
}

/// A betting action (Kuhn poker has no raise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Check,
    Bet,
    Call,
    Raise,
    Fold,
}

impl Act {
    pub fn name(self) -> &'static str {
        match self {
            Act::Check => "check",
            Act::Bet => "bet",
            Act::Call => "call",
            Act::Raise => "raise",
            Act::Fold => "fold",
        }
    }

    /// The action's letter in policy keys (`c` is check or call; the
    /// position tells which).
    pub fn letter(self) -> char {
        self.name().as_bytes()[0] as char
    }
}

/// The oracle's draw from `probs` at the decision `stamp` names: a pure
/// function of the task's oracle seed, so a task card replays it.
pub fn draw(probs: &[f64], oracle_seed: u64, stamp: u64) -> usize {
    let u = (splitmix64(oracle_seed ^ splitmix64(stamp)) >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    probs
        .iter()
        .position(|p| {
            acc += p;
            u < acc
        })
        .unwrap_or(probs.len().saturating_sub(1))
}
