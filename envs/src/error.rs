//! The envs crate's error types: [`EnvError`], which every fallible make,
//! generate, reset and step returns, and [`CardProblem`] (what is wrong with
//! a task card). The narrower errors the env traits return and [`EnvError`]
//! is built from ([`ConfigError`], [`NoTask`], [`Refusal`]) live in
//! `refusals.rs`, below the `Env` trait, and are re-exported here.
//!
//! Every [`EnvError`] has a stable, machine-readable [`EnvError::kind`]
//! (`bad_card`, `unknown_env`, ...): the Python `verigym.EnvError.kind` and
//! the `"kind"` of the server's error bodies.

use crate::core::{InvalidAction, Player};
pub use crate::refusals::{ConfigError, NoTask, Refusal};

/// Everything that can go wrong when making, resetting or stepping an env.
#[derive(Clone, Debug, thiserror::Error)]
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
        reason: Refusal,
    },
    #[error("env `{env}` has no preset `{preset}`; presets: {}", .available.join(", "))]
    UnknownPreset {
        env: String,
        preset: String,
        available: Vec<String>,
    },
    /// A config the env refuses ([`ConfigError`] from `validate`, or JSON
    /// that is not the env's config), or options it cannot play with.
    #[error("bad config for `{env}`: {message}")]
    BadConfig { env: String, message: String },
    #[error("two registrations share the id `{0}`")]
    DuplicateId(String),
    /// The generator found no task within its budget ([`NoTask`]).
    #[error("no task within budget for `{env}`: {reason}")]
    NoTaskWithinBudget { env: String, reason: NoTask },
    /// A task card (or a bare task) this env cannot read or play.
    #[error("bad task card: {}", card_problem_text(.card.as_deref(), .env, .problem))]
    BadCard {
        /// The card's id; `None` for a bare task given without a card.
        card: Option<String>,
        /// The env the card names (or, for a bare task, the env asked to
        /// read it).
        env: String,
        /// What is wrong with it (boxed: every `Result` carrying an
        /// `EnvError` stays small).
        problem: Box<CardProblem>,
    },
    /// A trainer's label (a card and seat) or completion that cannot be read.
    #[error("bad label: {0}")]
    BadLabel(String),
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

impl EnvError {
    /// Every [`EnvError::kind`], in the order of the variants.
    pub const KINDS: &'static [&'static str] = &[
        "unknown_env",
        "version_not_found",
        "superseded",
        "card_refused",
        "unknown_preset",
        "bad_config",
        "duplicate_id",
        "no_task_within_budget",
        "bad_card",
        "bad_label",
        "not_single_turn",
        "reset_needed",
        "episode_over",
        "not_your_turn",
        "invalid_action",
    ];

    /// The variant as a stable snake_case word (`bad_card`, `unknown_env`,
    /// ...), for programs that branch on the error: the Python
    /// `EnvError.kind` and the `"kind"` of the server's error bodies. One of
    /// [`EnvError::KINDS`]; a kind never changes meaning once released.
    pub fn kind(&self) -> &'static str {
        match self {
            EnvError::UnknownEnv { .. } => "unknown_env",
            EnvError::VersionNotFound { .. } => "version_not_found",
            EnvError::Superseded { .. } => "superseded",
            EnvError::CardRefused { .. } => "card_refused",
            EnvError::UnknownPreset { .. } => "unknown_preset",
            EnvError::BadConfig { .. } => "bad_config",
            EnvError::DuplicateId(_) => "duplicate_id",
            EnvError::NoTaskWithinBudget { .. } => "no_task_within_budget",
            EnvError::BadCard { .. } => "bad_card",
            EnvError::BadLabel(_) => "bad_label",
            EnvError::NotSingleTurn(_) => "not_single_turn",
            EnvError::ResetNeeded => "reset_needed",
            EnvError::EpisodeOver(_) => "episode_over",
            EnvError::NotYourTurn { .. } => "not_your_turn",
            EnvError::InvalidAction(_) => "invalid_action",
        }
    }

    /// A [`EnvError::BadCard`] for the card `card` of `env`.
    pub fn bad_card(card: &str, env: &str, problem: CardProblem) -> Self {
        EnvError::BadCard {
            card: Some(card.to_string()),
            env: env.to_string(),
            problem: Box::new(problem),
        }
    }
}

fn suggestion_text(suggestions: &[String]) -> String {
    match suggestions {
        [] => "; run `verigym list` to see every env".to_string(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!("; did you mean one of: {}?", many.join(", ")),
    }
}

/// What is wrong with a task card ([`EnvError::BadCard`]).
#[derive(Clone, Debug)]
pub enum CardProblem {
    /// The card's `env_version` is not the registered env's version.
    VersionMismatch { says: u32, registered: u32 },
    /// The card's `env_version` is not the version in its own env id.
    VersionNotInId { says: u32 },
    /// The card's config does not hash to its recorded `config_hash`
    /// (the config was edited after generation).
    ConfigHashMismatch { computed: String, recorded: String },
    /// The card was generated with another config than this env's.
    OtherConfig {
        card_config: String,
        env_config: String,
    },
    /// The task is not one of this env's (the deserialiser's reason).
    BadTask { error: String },
    /// The card is for another env than the one reading it.
    WrongEnv { expected: String },
    /// The card is for another env than the episode it was given to.
    OtherEpisode { plays: String },
    /// The card names a version of its env that was never released.
    UnreleasedVersion { newest: String },
    /// The card is of a game, which offline scoring does not play.
    Multiplayer { players: usize },
    /// The env of the card could not be made.
    EnvUnavailable(Box<EnvError>),
}

fn card_problem_text(card: Option<&str>, env: &str, problem: &CardProblem) -> String {
    let card = card.unwrap_or("");
    match problem {
        CardProblem::VersionMismatch { says, registered } => {
            format!("card `{card}` says version {says} but `{env}` is version {registered}")
        }
        CardProblem::VersionNotInId { says } => {
            format!("card `{card}` says version {says} but its env id is `{env}`")
        }
        CardProblem::ConfigHashMismatch { computed, recorded } => {
            format!("card `{card}`: its config hashes to {computed}, not the recorded {recorded}")
        }
        CardProblem::OtherConfig {
            card_config,
            env_config,
        } => format!(
            "card `{card}` was generated with config {card_config} but this env has config {env_config}; make the env from the card's config"
        ),
        CardProblem::BadTask { error } if card.is_empty() => {
            format!("not a task of `{env}`: {error}")
        }
        CardProblem::BadTask { error } => format!("card `{card}`: task: {error}"),
        CardProblem::WrongEnv { expected } => {
            format!("card `{card}` is for `{env}`, not `{expected}`")
        }
        CardProblem::OtherEpisode { plays } => {
            format!("the card `{card}` is for `{env}`, but this episode plays `{plays}`")
        }
        CardProblem::UnreleasedVersion { newest } => format!(
            "card `{card}` is for `{env}`, a version this verigym never released (the newest is `{newest}`)"
        ),
        CardProblem::Multiplayer { players } => {
            format!("`{env}` has {players} players; score games with `gym-bench run`")
        }
        CardProblem::EnvUnavailable(error) => format!("card `{card}`: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_distinct_snake_case_words() {
        let mut seen = std::collections::HashSet::new();
        for kind in EnvError::KINDS {
            assert!(
                kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{kind}"
            );
            assert!(seen.insert(kind), "{kind} twice");
        }
        let samples = [
            EnvError::ResetNeeded,
            EnvError::DuplicateId("x".into()),
            EnvError::bad_card("c", "e", CardProblem::Multiplayer { players: 2 }),
        ];
        for error in samples {
            assert!(EnvError::KINDS.contains(&error.kind()));
        }
    }

    #[test]
    fn bad_cards_read_as_before() {
        let error = EnvError::bad_card(
            "c1",
            "logic/maze-v1",
            CardProblem::VersionMismatch {
                says: 2,
                registered: 1,
            },
        );
        assert_eq!(error.kind(), "bad_card");
        assert_eq!(
            error.to_string(),
            "bad task card: card `c1` says version 2 but `logic/maze-v1` is version 1"
        );
        let bare = EnvError::BadCard {
            card: None,
            env: "logic/maze-v1".into(),
            problem: Box::new(CardProblem::BadTask {
                error: "missing field `grid`".into(),
            }),
        };
        assert_eq!(
            bare.to_string(),
            "bad task card: not a task of `logic/maze-v1`: missing field `grid`"
        );
    }
}
