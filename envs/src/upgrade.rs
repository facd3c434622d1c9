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
use std::sync::Arc;

use serde_json::Value;

use crate::card::{TaskCard, config_hash};
use crate::core::{Env, EnvSpec, Superseded, Upgrade};
use crate::error::{CardProblem, EnvError, Refusal};

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
        serde_json::from_value(Value::clone(&upgraded.config)).map_err(|e| {
            EnvError::BadConfig {
                env: E::SPEC.id.to_string(),
                message: format!("card `{}` upgraded from `{}`: {e}", card.id, card.env_id),
            }
        })?;
    upgraded.config = Arc::new(serde_json::to_value(&config).expect("configs always serialise"));
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
