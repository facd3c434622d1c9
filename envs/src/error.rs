//! The envs crate's one error type.

use crate::core::{InvalidAction, Player};

/// Everything that can go wrong when making, resetting or stepping an env.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    #[error("unknown env `{id}`{}", suggestion_text(.suggestions))]
    UnknownEnv {
        id: String,
        suggestions: Vec<String>,
    },
    #[error("env `{id}` has no version {asked}; the newest is `{newest}`")]
    VersionNotFound {
        id: String,
        asked: String,
        newest: String,
    },
    /// A superseded version asked to generate: its cards still score and
    /// replay, but new tasks come only from the newest.
    #[error(
        "`{id}` is superseded by `{newest}` and generates no new tasks (its task cards still score and replay); use `{newest}`"
    )]
    Superseded { id: String, newest: String },
    /// A card of a superseded version that the newest cannot score as its
    /// prompt promised ([`crate::Upgrade`]).
    #[error("card `{card}` of `{id}` cannot be scored by `{newest}`: {reason}")]
    CardRefused {
        card: String,
        id: String,
        newest: String,
        reason: String,
    },
    #[error("env `{env}` has no preset `{preset}`; presets: {}", .available.join(", "))]
    UnknownPreset {
        env: String,
        preset: String,
        available: Vec<String>,
    },
    #[error("bad config for `{env}`: {message}")]
    BadConfig { env: String, message: String },
    #[error("two registrations share the id `{0}`")]
    DuplicateId(String),
    #[error("no task within budget for `{env}`: {message}")]
    NoTaskWithinBudget { env: String, message: String },
    #[error("bad task card: {0}")]
    BadCard(String),
    #[error(
        "`{0}` is played over turns, so one reply cannot be graded on its own: reset it with the card and step through the episode"
    )]
    NotSingleTurn(String),
    #[error("step before reset: call reset with a task card first")]
    ResetNeeded,
    #[error("the episode is over ({0:?}); reset to start another")]
    EpisodeOver(crate::core::Status),
    #[error("player {player} cannot move now (turn: {turn:?})")]
    NotYourTurn {
        player: Player,
        turn: crate::core::Turn,
    },
    #[error("invalid action: {0}")]
    InvalidAction(#[from] InvalidAction),
}

fn suggestion_text(suggestions: &[String]) -> String {
    match suggestions {
        [] => "; run `verigym list` to see every env".to_string(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!("; did you mean one of: {}?", many.join(", ")),
    }
}
