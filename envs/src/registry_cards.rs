//! The registry's side of task cards: which registration scores a card
//! (its own, or for a superseded version the newest of the same env), the
//! card as that env reads it, and the env made for it. Apart from
//! `registry.rs`, which registers and makes envs by id, so that the
//! upgrade machinery (`upgrade.rs`) stays below both.

use std::borrow::Cow;

use serde_json::Value;

use crate::card::TaskCard;
use crate::core::Upgrade;
use crate::dynenv::DynEnv;
use crate::error::{CardProblem, EnvError};
use crate::registry::{Registration, Registry};
use crate::upgrade::split_version;

/// One superseded version, for `verigym list --all`.
#[derive(Clone, Debug, PartialEq)]
pub struct SupersededId {
    /// The old `family/name-vN`.
    pub id: String,
    /// The id that scores its cards now.
    pub newest: &'static str,
    /// Why its cards are refused, when they all are.
    pub refused: Option<&'static str>,
}

impl Registry {
    /// Makes the env that scores a card, checking version and config: the
    /// card's own, or for a card of a superseded version the newest, made
    /// from the upgraded card's config (`reset` with the old card then
    /// upgrades it the same way).
    ///
    /// # Errors
    /// Unknown env, a version mismatch, a config that no longer hashes the
    /// same, or an upgrade that refuses the card ([`EnvError::CardRefused`]).
    pub fn make_for_card(&self, card: &TaskCard) -> Result<Box<dyn DynEnv>, EnvError> {
        let registration = self.registration_for_card(&card.env_id)?;
        let card = &*(registration.upgrade)(card)?;
        if registration.spec.version() != card.env_version {
            return Err(EnvError::bad_card(
                &card.id,
                &card.env_id,
                CardProblem::VersionMismatch {
                    says: card.env_version,
                    registered: registration.spec.version(),
                },
            ));
        }
        let env = (registration.make)(Value::clone(&card.config))?;
        if env.config_hash() != card.config_hash {
            return Err(EnvError::bad_card(
                &card.id,
                &card.env_id,
                CardProblem::ConfigHashMismatch {
                    computed: env.config_hash().to_string(),
                    recorded: card.config_hash.clone(),
                },
            ));
        }
        Ok(env)
    }

    /// The registration that scores cards of `env_id`: its own, or for a
    /// superseded version the newest of the same env.
    ///
    /// # Errors
    /// As [`Registry::get`] when no env of that name is registered.
    pub fn registration_for_card(&self, env_id: &str) -> Result<&Registration, EnvError> {
        let base = split_version(env_id).map(|(base, _)| base);
        self.entries()
            .iter()
            .find(|e| e.spec.id == env_id)
            .or_else(|| {
                self.entries()
                    .iter()
                    .filter(|e| Some(e.spec.unversioned()) == base)
                    .max_by_key(|e| e.spec.version())
            })
            .map_or_else(|| self.get(env_id), Ok)
    }

    /// The card as the env that now scores it reads it: itself when it is
    /// of a current version, else upgraded ([`upgrade_card`]) to the newest.
    ///
    /// # Errors
    /// As [`Registry::registration_for_card`] and [`upgrade_card`].
    pub fn upgrade_card(&self, card: &TaskCard) -> Result<TaskCard, EnvError> {
        let registration = self.registration_for_card(&card.env_id)?;
        (registration.upgrade)(card).map(Cow::into_owned)
    }

    /// Every superseded version of every registered env, in registry order,
    /// oldest first within an env.
    pub fn superseded_ids(&self) -> Vec<SupersededId> {
        self.entries()
            .iter()
            .flat_map(|r| {
                r.superseded.iter().map(move |s| SupersededId {
                    id: format!("{}-v{}", r.spec.unversioned(), s.version),
                    newest: r.spec.id,
                    refused: match s.upgrade {
                        Upgrade::Refused(reason) => Some(reason),
                        _ => None,
                    },
                })
            })
            .collect()
    }
}
