//! The one reward path of every trainer integration: a dataset row's
//! *label* and the model's *completion* in, a score out.
//!
//! A label travels with a row to the reward side (verl's `ground_truth`,
//! TRL's `card` column, OpenRLHF's label) and is never shown to the model:
//! the task card as JSON (text or object) for one-player envs, and
//! `{"card": CARD, "seat": S}` for games, so the reward knows which seat the
//! model played. A completion is text or chat messages, read into actions by
//! the one rule of [`crate::completion`].
//!
//! Routing: one-player envs are scored offline as `verigym score` scores
//! them ([`crate::score::score_cards`]: a single-turn env grades the last
//! action, a multi-turn env plays the actions in order under the episode
//! rules); games replay the actions as the label's seat against a built-in
//! opponent ([`crate::seat::SeatEpisode`]). The Python integrations call
//! [`score_labels`] once per batch and add nothing to it.

use std::collections::HashMap;

use rayon::prelude::*;
use serde_json::Value;

use crate::card::TaskCard;
use crate::completion::{completion_actions, completion_answer};
use crate::core::{EnvKind, Player};
use crate::dynenv::DynEnv;
use crate::error::{CardProblem, EnvError};
use crate::registry::Registry;
use crate::score::{ScoredAnswer, score_cards_under};
use crate::seat::{SeatEpisode, SeatOptions};
use crate::session::Rules;
use crate::shaping::Shaping;

/// A label, parsed: the task card and the seat the model plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub card: TaskCard,
    pub seat: Player,
}

fn bad_label(message: impl Into<String>) -> EnvError {
    EnvError::BadLabel(message.into())
}

const HOW_TO_BUILD: &str = "build the rows with verigym.integrations.<trainer>.rows";

impl Label {
    /// Reads a label: a card, or `{"card": …, "seat": …}` (a chat row from
    /// `generate --format chat` is one), as an object or its JSON text; a
    /// card given as JSON text inside the object is read too.
    ///
    /// # Errors
    /// `BadLabel` saying what is wrong and how to build labels.
    pub fn parse(label: &Value) -> Result<Label, EnvError> {
        let parsed;
        let mut data = match label {
            Value::String(text) => {
                parsed = serde_json::from_str::<Value>(text).map_err(|e| {
                    bad_label(format!(
                        "a verigym label must be a task card as JSON text, got text that is not JSON ({e}); {HOW_TO_BUILD}"
                    ))
                })?;
                &parsed
            }
            other => other,
        };
        if !data.is_object() {
            return Err(bad_label(format!(
                "a verigym label must be a JSON object, got `{}`",
                clip(&data.to_string())
            )));
        }
        let mut seat = 0;
        let inner;
        if let Some(card) = data.get("card").filter(|c| c.is_object() || c.is_string()) {
            seat = match data.get("seat") {
                None => 0,
                Some(value) => value
                    .as_u64()
                    .and_then(|s| Player::try_from(s).ok())
                    .ok_or_else(|| {
                        bad_label(format!(
                            "the label's seat must be a non-negative integer, got {value}"
                        ))
                    })?,
            };
            data = match card {
                Value::String(text) => {
                    inner = serde_json::from_str::<Value>(text)
                        .map_err(|e| bad_label(format!("the label's card is not JSON: {e}")))?;
                    &inner
                }
                card => card,
            };
        }
        if data.get("env_id").is_none() || data.get("task").is_none() {
            return Err(bad_label(format!(
                "not a verigym task card (no env_id or task); {HOW_TO_BUILD}"
            )));
        }
        let card = serde_json::from_value::<TaskCard>(data.clone())
            .map_err(|e| bad_label(format!("not a task card: {e}")))?;
        Ok(Label { card, seat })
    }
}

/// How labels are scored.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// The built-in opponent of games (`random`, `heuristic`, `oracle`).
    pub opponent: String,
    /// Format and length terms (see [`Shaping`]); games take none.
    pub shaping: Shaping,
    /// Refused actions, retries, forfeit and the turn cap.
    pub rules: Rules,
}

impl Default for LabelOptions {
    fn default() -> Self {
        LabelOptions {
            opponent: SeatOptions::default().opponent,
            shaping: Shaping::default(),
            rules: Rules::default(),
        }
    }
}

/// The one action method through which a tool-calling trainer plays an env
/// without tools: `answer`, `act` or `play` by the env's kind.
pub fn action_tool(kind: EnvKind) -> &'static str {
    match kind {
        EnvKind::SingleTurn => "answer",
        EnvKind::MultiTurn => "act",
        EnvKind::Game => "play",
    }
}

/// What scoring a card needs to know of its env, found once per env and
/// config.
struct EnvFacts {
    env: Box<dyn DynEnv>,
    /// `None` for an env with tools (its calls are tool calls).
    action_tool: Option<&'static str>,
}

/// Whether the env offers tools to the agent: its first observation of
/// `card` lists them (tool envs list the same tools in every task).
fn has_tools(env: &dyn DynEnv, card: &TaskCard) -> bool {
    let mut probe = env.clone_box();
    probe.reset(card).is_ok()
        && probe
            .observe(0)
            .is_ok_and(|o| o.structured.get("tools").is_some_and(Value::is_array))
}

/// Scores `completions[i]` against `labels[i]`, in parallel, keeping order;
/// one result per pair, a bad label or completion failing only its own.
///
/// # Panics
/// When `labels` and `completions` differ in length.
pub fn score_labels(
    registry: &Registry,
    labels: &[Value],
    completions: &[Value],
    options: &LabelOptions,
) -> Vec<Result<ScoredAnswer, EnvError>> {
    assert_eq!(labels.len(), completions.len(), "one completion per label");
    let parsed: Vec<Result<Label, EnvError>> = labels.par_iter().map(Label::parse).collect();
    let mut facts: HashMap<(String, String), Result<EnvFacts, EnvError>> = HashMap::new();
    for label in parsed.iter().flatten() {
        let card = &label.card;
        facts
            .entry((card.env_id.clone(), card.config_hash.clone()))
            .or_insert_with(|| {
                let env = registry.make_for_card(card)?;
                let tool = (!has_tools(&*env, card)).then(|| action_tool(env.spec().kind));
                Ok(EnvFacts {
                    env,
                    action_tool: tool,
                })
            });
    }
    let facts_of = |card: &TaskCard| -> Result<&EnvFacts, EnvError> {
        facts[&(card.env_id.clone(), card.config_hash.clone())]
            .as_ref()
            .map_err(|error| {
                EnvError::bad_card(
                    &card.id,
                    &card.env_id,
                    CardProblem::EnvUnavailable(Box::new(error.clone())),
                )
            })
    };
    // One-player cards go to offline scoring as one batch; games replay.
    let mut results: Vec<Option<Result<ScoredAnswer, EnvError>>> =
        (0..labels.len()).map(|_| None).collect();
    let mut one_player: Vec<(usize, TaskCard, Vec<String>)> = Vec::new();
    for (i, (label, completion)) in parsed.into_iter().zip(completions).enumerate() {
        let prepared = label.and_then(|label| {
            let facts = facts_of(&label.card)?;
            let single = facts.env.spec().kind == EnvKind::SingleTurn;
            let actions = if single {
                completion_answer(completion, facts.action_tool).map(|a| vec![a])
            } else {
                completion_actions(completion, facts.action_tool)
            }
            .map_err(|e| bad_label(e.to_string()))?;
            Ok((label, actions, facts.env.spec().players))
        });
        match prepared {
            Ok((label, actions, 1)) if label.seat == 0 => {
                one_player.push((i, label.card, actions));
            }
            Ok((label, _, 1)) => {
                results[i] = Some(Err(bad_label(format!(
                    "`{}` has one player; its only seat is 0, not {}",
                    label.card.env_id, label.seat
                ))));
            }
            Ok((label, actions, _)) => {
                results[i] = Some(replay_game(registry, &label, &actions, options));
            }
            Err(e) => results[i] = Some(Err(e)),
        }
    }
    let (cards, answers): (Vec<TaskCard>, Vec<Vec<String>>) = one_player
        .iter()
        .map(|(_, card, actions)| (card.clone(), actions.clone()))
        .unzip();
    let scored = score_cards_under(registry, &cards, &answers, &options.shaping, options.rules);
    for ((i, _, _), result) in one_player.iter().zip(scored) {
        results[*i] = Some(result);
    }
    results
        .into_iter()
        .map(|r| r.expect("every label is scored once"))
        .collect()
}

/// Plays `actions` as the label's seat of a game against the options'
/// opponent; actions left after the end are ignored, and an episode they
/// do not finish is scored as it stands.
fn replay_game(
    registry: &Registry,
    label: &Label,
    actions: &[String],
    options: &LabelOptions,
) -> Result<ScoredAnswer, EnvError> {
    if options.shaping != Shaping::default() {
        return Err(EnvError::BadConfig {
            env: label.card.env_id.clone(),
            message: "shaping applies to one-player envs only; score games without it".into(),
        });
    }
    let env = registry.make_for_card(&label.card)?;
    let seat_options = SeatOptions {
        opponent: options.opponent.clone(),
        max_retries: options.rules.max_retries,
        max_turns: options.rules.max_turns,
    };
    let mut episode = SeatEpisode::new(env, seat_options)?;
    episode.reset(&label.card, label.seat, |c| registry.make_for_card(c))?;
    for action in actions {
        if episode.done() {
            break;
        }
        episode.step(action)?;
    }
    let score = episode.score();
    let spec_id = episode.env().spec().id;
    let judged = score.has_verdict();
    Ok(ScoredAnswer {
        id: label.card.id.clone(),
        reward: judged.then_some(score.reward),
        passed: score.passed,
        breakdown: score.breakdown,
        no_verdict: (!judged).then(|| "the env could not judge the answer".to_string()),
        scored_by: (label.card.env_id != spec_id).then(|| spec_id.to_string()),
    })
}

fn clip(text: &str) -> String {
    text.chars().take(200).collect()
}

#[cfg(test)]
#[path = "labels_tests.rs"]
mod tests;
