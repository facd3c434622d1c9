//! How an env's own methods say no: [`ConfigError`] (`Env::validate`),
//! [`NoTask`] (`try_generate`) and [`Refusal`] (an `Upgrade::Map` refusing
//! a card of a superseded version, e.g. [`refuse_constant_verdict`]). They
//! name no env or card: `EnvError` adds those where it wraps them.
//! A leaf module, so the `Env` trait and the errors can both use it.

/// Why `validate` refused a config: a message naming the field and its
/// allowed range. [`crate::Instance`] reports it as `EnvError::BadConfig`
/// with the env's id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    pub message: String,
}

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
        }
    }
}

impl From<String> for ConfigError {
    fn from(message: String) -> Self {
        ConfigError::new(message)
    }
}

impl From<&str> for ConfigError {
    fn from(message: &str) -> Self {
        ConfigError::new(message)
    }
}

/// Why `try_generate` returned no task (`EnvError::NoTaskWithinBudget`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoTask {
    /// No draw met a requirement within the search budget: which
    /// requirement, and which config field to relax.
    #[error("{0}")]
    Exhausted(String),
    /// The caller's time budget ran out ([`crate::cancel::cancelled`]).
    #[error("{}", crate::cancel::CANCELLED)]
    Cancelled,
}

impl From<String> for NoTask {
    fn from(message: String) -> Self {
        NoTask::Exhausted(message)
    }
}

impl From<&str> for NoTask {
    fn from(message: &str) -> Self {
        NoTask::Exhausted(message.to_string())
    }
}

/// Why an [`crate::Upgrade::Map`] refuses a card of a superseded version
/// (`EnvError::CardRefused`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Refusal {
    pub reason: String,
}

impl From<String> for Refusal {
    fn from(reason: String) -> Self {
        Refusal { reason }
    }
}

impl From<&str> for Refusal {
    fn from(reason: &str) -> Self {
        Refusal::from(reason.to_string())
    }
}

/// Why a tool or web env keeps an infeasible task of a version before its
/// verdicts carried evidence refused: that task took a constant answer (a
/// bare `infeasible`, a refusal that names no one, a request part copied
/// from the prompt), which is what the bump fixed. Scoring it now would
/// pay a blind policy, so it is regenerated instead.
pub const CONSTANT_VERDICT: &str = "this version's infeasible tasks took an answer a policy can give without exploring (the reason for the bump); generate a new card with the newest version";

/// For an [`crate::Upgrade::Map`]: `Err` with [`CONSTANT_VERDICT`] when the card's
/// task is one whose verdict was a constant.
///
/// # Errors
/// When `constant_verdict`.
pub fn refuse_constant_verdict(constant_verdict: bool) -> Result<(), Refusal> {
    if constant_verdict {
        Err(CONSTANT_VERDICT.into())
    } else {
        Ok(())
    }
}
