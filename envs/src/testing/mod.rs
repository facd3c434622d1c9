//! The env gate: what every registered env must pass, and the tools the
//! per-env trials (`envs/tests/envs.rs`) and `verigym audit` / `verigym
//! levels` are built from.
//!
//! - [`checker`]: small named checks on fresh env objects (seeded
//!   determinism, card round trips, random play ends, zero-sum games sum to
//!   zero, the reference passes, degenerate answers do not);
//! - [`audit`]: the reward-hack probes (echoes, hedges in and outside the
//!   answer format: `probes`; constants, junk in the answer format, text
//!   copied from the prompt and blind sequences: [`blind`]) and the
//!   completeness probes (the reference written as models write it:
//!   `styles`, and the honest habits of the one-answer rule:
//!   `rule_styles`), with their pass rates;
//! - [`difficulty`]: an env's levels, measured, and the check that higher
//!   levels are harder;
//! - [`golden`]: the readable golden file of each env (card hashes, card 0,
//!   an oracle episode) and the diff shown when it changes.
//!
//! Behind the feature `testing` (on by default); this crate's own unit tests
//! always see it. `cargo test -p verigym-envs` runs all of it on every env:
//!
//! ```
//! use verigym_envs::Registry;
//! use verigym_envs::testing::checker::{CheckOptions, check_env, summarize};
//!
//! let registry = Registry::builtin();
//! let make = || registry.make("math/arithmetic-v1@easy", None).unwrap();
//! let options = CheckOptions { episodes: 20, ..CheckOptions::default() };
//! summarize(&check_env(&make, &options)).unwrap();
//! ```

use crate::error::EnvError;

pub mod audit;
pub mod blind;
pub mod checker;
pub mod difficulty;
pub mod golden;
pub(crate) mod probes;
pub(crate) mod rule_styles;
pub(crate) mod styles;

#[cfg(test)]
mod audit_tests;
#[cfg(test)]
mod checker_tests;

/// Why a check of the env gate failed: the env refused what the check needed
/// to do, the check found a violation (what it saw), or it panicked.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckFailure {
    /// The env returned an error where the check needed it to work.
    #[error(transparent)]
    Env(#[from] EnvError),
    /// An env error in a named step of the check (`CARD: oracle episode`).
    #[error("{during}: {source}")]
    During {
        during: String,
        #[source]
        source: Box<EnvError>,
    },
    /// The check found a violation: what it saw.
    #[error("{0}")]
    Violation(String),
    /// The check panicked: its message.
    #[error("panicked: {0}")]
    Panicked(String),
}

impl CheckFailure {
    /// [`CheckFailure::During`]: `source` while doing `during`.
    pub fn during(during: impl Into<String>) -> impl FnOnce(EnvError) -> Self {
        let during = during.into();
        move |source| CheckFailure::During {
            during,
            source: Box::new(source),
        }
    }
}

impl From<String> for CheckFailure {
    fn from(what: String) -> Self {
        CheckFailure::Violation(what)
    }
}

impl From<&str> for CheckFailure {
    fn from(what: &str) -> Self {
        CheckFailure::Violation(what.to_string())
    }
}
