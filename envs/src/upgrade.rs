//! Cards outlive upgrades: a task card of a superseded env version is scored
//! and replayed by the newest version, through the [`Upgrade`] that the env
//! declares for that version ([`Env::SUPERSEDED`]). Generating tasks of an
//! old version is refused instead, naming the newest
//! ([`EnvError::Superseded`]): the old code is gone, and a new card of it
//! could not be told from a stale one.
//!
//! Superseded versions stay scorable for as long as verigym's major version
//! (CHANGELOG "Versions"); `verigym list --all` shows them.

use std::borrow::Cow;

use crate::card::{TaskCard, config_hash};
use crate::core::{Env, EnvSpec, Superseded, Upgrade};
use crate::error::{CardProblem, EnvError, Refusal};
use crate::registry::{Registration, Registry};

/// `(base, N)` of an id `base-vN`.
pub fn split_version(id: &str) -> Option<(&str, u32)> {
    let (base, n) = id.rsplit_once("-v")?;
    Some((base, n.parse().ok()?))
}

/// The card as the newest version `E` reads it: the card itself when it is
/// `E`'s already, else its upgrade, with `E`'s id, version, complete config
/// (fields `E` added take their defaults), config hash and card id.
///
/// # Errors
/// [`EnvError::BadCard`] when the card is for another env or a version `E`
/// never declared, or its config does not hash to the recorded hash;
/// [`EnvError::CardRefused`] when the declared upgrade refuses it;
/// [`EnvError::BadConfig`] when the upgraded config is not `E`'s.
pub fn upgrade_card<E: Env>(card: &TaskCard) -> Result<Cow<'_, TaskCard>, EnvError> {
    if card.env_id == E::SPEC.id {
        return Ok(Cow::Borrowed(card));
    }
    let old = declared_version(&E::SPEC, E::SUPERSEDED, card)?;
    // A card is upgraded only as it was generated: an edited config would
    // otherwise pass as the old version's.
    let recorded = config_hash(&card.config);
    if recorded != card.config_hash {
        return Err(EnvError::bad_card(
            &card.id,
            &card.env_id,
            CardProblem::ConfigHashMismatch {
                computed: recorded,
                recorded: card.config_hash.clone(),
            },
        ));
    }
    let refused = |reason: Refusal| EnvError::CardRefused {
        card: card.id.clone(),
        id: card.env_id.clone(),
        newest: E::SPEC.id.to_string(),
        reason,
    };
    let mut upgraded = card.clone();
    match old.upgrade {
        Upgrade::AsIs => {}
        Upgrade::Map(map) => map(&mut upgraded).map_err(refused)?,
        Upgrade::Refused(reason) => return Err(refused(reason.into())),
    }
    let config: E::Config =
        serde_json::from_value(upgraded.config).map_err(|e| EnvError::BadConfig {
            env: E::SPEC.id.to_string(),
            message: format!("card `{}` upgraded from `{}`: {e}", card.id, card.env_id),
        })?;
    upgraded.config = serde_json::to_value(&config).expect("configs always serialise");
    upgraded.config_hash = config_hash(&upgraded.config);
    upgraded.env_id = E::SPEC.id.to_string();
    upgraded.env_version = E::SPEC.version();
    upgraded.id = TaskCard::make_id(E::SPEC.id, &upgraded.config_hash, upgraded.seed);
    Ok(Cow::Owned(upgraded))
}

/// The declaration of the card's version, when the card is of an older
/// version of `spec`'s env.
fn declared_version<'a>(
    spec: &EnvSpec,
    superseded: &'a [Superseded],
    card: &TaskCard,
) -> Result<&'a Superseded, EnvError> {
    let Some((base, version)) =
        split_version(&card.env_id).filter(|(b, _)| *b == spec.unversioned())
    else {
        return Err(EnvError::bad_card(
            &card.id,
            &card.env_id,
            CardProblem::WrongEnv {
                expected: spec.id.to_string(),
            },
        ));
    };
    if card.env_version != version {
        return Err(EnvError::bad_card(
            &card.id,
            &card.env_id,
            CardProblem::VersionNotInId {
                says: card.env_version,
            },
        ));
    }
    superseded
        .iter()
        .find(|s| s.version == version)
        .ok_or_else(|| {
            EnvError::bad_card(
                &card.id,
                &format!("{base}-v{version}"),
                CardProblem::UnreleasedVersion {
                    newest: spec.id.to_string(),
                },
            )
        })
}

/// Why a tool or web env keeps an infeasible task of a version before its
/// verdicts carried evidence refused: that task took a constant answer (a
/// bare `infeasible`, a refusal that names no one, a request part copied
/// from the prompt), which is what the bump fixed. Scoring it now would
/// pay a blind policy, so it is regenerated instead.
pub const CONSTANT_VERDICT: &str = "this version's infeasible tasks took an answer a policy can give without exploring (the reason for the bump); generate a new card with the newest version";

/// For an [`Upgrade::Map`]: `Err` with [`CONSTANT_VERDICT`] when the card's
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_into_base_and_version() {
        assert_eq!(
            split_version("logic/guess-number-v2"),
            Some(("logic/guess-number", 2))
        );
        assert_eq!(split_version("logic/guess-number"), None);
        assert_eq!(split_version("a/b-vx"), None);
    }
}
