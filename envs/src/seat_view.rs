//! What a seat sees: the one view of an episode that every runner answers
//! with (the server's `/v1/episodes` and OpenEnv routes, `verigym.Env`,
//! `verigym.SeatEnv` and the trainer integrations on top of it). One type,
//! [`SeatView`], made by one function, [`SeatView::new`]; the server
//! serialises it, Python turns the same JSON into the `info` dict. Change
//! who may see what here and nowhere else.
//!
//! # The seat view (the default)
//!
//! While the episode runs, a seat sees:
//!
//! - its own observation (`observation`, and `observations` holding only
//!   its own), with its legal actions and structured form;
//! - who moves (`info.current_player`, `info.to_move`), `info.steps` and
//!   `info.max_steps` (the episode's turn cap);
//! - its own refused actions (`info.invalid_actions`) and the refusals it
//!   may still make this turn (`info.retries_left`, `null` where the runner
//!   sets no limit), and after a refusal the reason (`info.invalid_action`);
//! - after a step, its own reward of the step (`reward`: the change of its
//!   score, opponents' replies and a forfeit included) and its own score so
//!   far (`info.score`);
//! - the step's events (`info.events`): public facts by the env contract
//!   ([`crate::core::Transition::events`]), so the same for every seat.
//!
//! Never, while a game (two or more players) runs: another seat's
//! observation, reward or score, the card id or the card's prompt. The
//! prompt is player 0's opening view, and the card id ends in the seed,
//! from which the whole task can be generated again: every hidden deal,
//! and the reference answer. So the card id stays out of every seat view
//! until the end, in one-player envs too (a player handed a seat must not
//! be able to regenerate its task's answer); a one-player env's prompt is
//! its only seat's own first observation and is always shown.
//!
//! # The end
//!
//! Once the episode is over (by the env, the turn cap or a forfeit, named
//! in `info.forfeit`), everything opens: every seat's score
//! (`info.scores`), the last step's rewards of every seat (`rewards`), the
//! card id and the prompt.
//!
//! # Old cards
//!
//! A card of a superseded env version plays through the newest version, as
//! it scores ([`crate::upgrade`]): `env_id` stays the card's, and
//! `scored_by` names the version that plays it (absent for a current card).
//!
//! # The trainer view (`view: "all"`, asked for explicitly)
//!
//! For a caller that plays every seat itself and never forwards a view to a
//! model unfiltered: every seat's observation, every score, every seat's
//! rewards of the step, the card id and the prompt, at every step.
//! `observation` is then the first mover's (once over, the named seat's),
//! and `info.invalid_actions` counts every seat's refusals.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::TaskCard;
use crate::core::{Observation, Player, Score, Status, Turn};
use crate::dynenv::DynEnv;
use crate::error::EnvError;
use crate::session::{Attempt, NO_RETRY_LIMIT, Session};

/// Which view an answer carries: `"seat"` or `"all"` in requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewMode {
    /// One seat's view (see the module docs).
    #[default]
    Seat,
    /// The trainer view: every seat's observation, rewards and score.
    All,
}

/// Whose view a [`SeatView`] is: a seat number, or `"all"` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Player),
    All,
}

impl Serialize for Viewer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Viewer::Seat(p) => serializer.serialize_u64(*p as u64),
            Viewer::All => serializer.serialize_str("all"),
        }
    }
}

impl<'de> Deserialize<'de> for Viewer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Seat(Player),
            Name(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Seat(p) => Ok(Viewer::Seat(p)),
            Raw::Name(name) if name == "all" => Ok(Viewer::All),
            Raw::Name(other) => Err(serde::de::Error::custom(format!(
                "`view` is a seat number or \"all\", not {other:?}"
            ))),
        }
    }
}

/// What one attempted action did, as a view reports it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepOutcome {
    /// Who acted.
    pub player: Player,
    /// Change of every seat's score over the step (the session's scores:
    /// a forfeit included; for a seat episode, the opponents' replies too).
    pub rewards: Vec<f64>,
    /// The step's events (public facts, by the env contract).
    pub events: Vec<String>,
    /// The env's reason when it refused the action (the episode is then as
    /// it was, unless the refusal forfeited it).
    pub invalid: Option<String>,
}

impl StepOutcome {
    /// Plays `player`'s `action` through the episode rules.
    ///
    /// # Errors
    /// As [`Session::attempt`]: a refusal is an outcome, not an error.
    pub fn play(
        env: &mut dyn DynEnv,
        session: &mut Session,
        player: Player,
        action: &str,
    ) -> Result<StepOutcome, EnvError> {
        let before = session.scores(env);
        let (events, invalid) = match session.attempt(env, player, action)? {
            Attempt::Accepted(transition) => (transition.events, None),
            Attempt::Refused(reason) => (Vec::new(), Some(reason)),
        };
        Ok(StepOutcome {
            player,
            rewards: score_changes(&before, &session.scores(env)),
            events,
            invalid,
        })
    }

    /// The actor's own reward of the step.
    pub fn reward(&self) -> f64 {
        self.rewards.get(self.player).copied().unwrap_or(0.0)
    }
}

/// Each seat's reward change from `before` to `after`.
pub fn score_changes(before: &[Score], after: &[Score]) -> Vec<f64> {
    after
        .iter()
        .zip(before)
        .map(|(now, then)| now.reward - then.reward)
        .collect()
}

/// Where an episode stands, as one viewer may see it; see the module docs.
/// Serialised, it is the server's episode answer and Python's `info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// The card's env (an old version's card keeps its id here).
    pub env_id: String,
    /// The env version that plays the episode, when not the card's own: a
    /// card of a superseded version plays through the newest, as it scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_by: Option<String>,
    /// The task card's id (it ends in the seed): trainer view, or once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
    pub players: usize,
    /// The viewer's observation (the trainer view: the first mover's).
    pub observation: Option<Observation>,
    /// By seat number: the seat view holds the seat's own only.
    pub observations: BTreeMap<String, Observation>,
    pub terminated: bool,
    pub truncated: bool,
    pub info: ViewInfo,
    /// Who acted, in the answer to a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Player>,
    /// The step's reward of the seat (the trainer view: of the actor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward: Option<f64>,
    /// The step's reward of every seat: trainer view, or once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rewards: Option<Vec<f64>>,
}

/// The facts of a [`SeatView`] besides observations and the step's rewards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewInfo {
    pub view: Viewer,
    /// The one player to move (`null` when several move at once or none).
    pub current_player: Option<Player>,
    /// Every player to move now (none once over).
    pub to_move: Vec<Player>,
    pub steps: usize,
    /// The episode's turn cap.
    pub max_steps: usize,
    /// The seat's refused actions (the trainer view: every seat's).
    pub invalid_actions: u32,
    /// Refusals the seat (trainer view: the first mover) may still make on
    /// this turn before it forfeits; `null` where the runner sets no limit.
    pub retries_left: Option<u32>,
    /// Why the env refused the step's action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_action: Option<String>,
    /// The player who forfeited the episode by refused actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Player>,
    /// The seat's own score so far (seat view only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
    /// Every seat's score: trainer view, or once over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<Score>>,
    /// The card's prompt: trainer view, once over, or a one-player env.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// The step's events, in the answer to a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<String>>,
}

/// The seat an answer is for when the request names none: the first player
/// to move, or player 0 once the episode is over.
pub fn default_seat(env: &dyn DynEnv, session: &Session) -> Player {
    session.movers(env).first().copied().unwrap_or(0)
}

impl SeatView {
    /// The episode of `env` (reset to `card`, played under `session`) as
    /// `seat` sees it, or with [`ViewMode::All`] the trainer view (led by
    /// the first mover, else by `seat`). `step` is what the action this
    /// view answers did (`None` for a reset or a read). Where it stands and
    /// the scores are the session's word: its rules end an episode by
    /// forfeit or turn cap while the env would go on.
    pub fn new(
        env: &dyn DynEnv,
        session: &Session,
        card: &TaskCard,
        mode: ViewMode,
        seat: Player,
        step: Option<&StepOutcome>,
    ) -> SeatView {
        let spec = env.spec();
        let players = spec.players;
        let movers = session.movers(env);
        let status = session.status();
        let over = status != Status::Running;
        let all = mode == ViewMode::All;
        let lead = match mode {
            ViewMode::Seat => seat,
            ViewMode::All => movers.first().copied().unwrap_or(seat),
        };
        let scores = session.scores(env);
        let shown: Vec<Player> = if all {
            (0..players).collect()
        } else {
            vec![seat]
        };
        let observations: BTreeMap<String, Observation> = shown
            .iter()
            .filter_map(|&p| Some((p.to_string(), env.observe(p).ok()?)))
            .collect();
        let open = all || over;
        let invalid_actions = match mode {
            ViewMode::Seat => session.invalid_actions().get(seat).copied().unwrap_or(0),
            ViewMode::All => session.invalid_actions().iter().sum(),
        };
        let info = ViewInfo {
            view: if all { Viewer::All } else { Viewer::Seat(seat) },
            current_player: match env.turn() {
                Turn::Player(p) if !over => Some(p),
                _ => None,
            },
            to_move: movers,
            steps: env.steps(),
            max_steps: session.max_steps(),
            invalid_actions,
            retries_left: (session.rules().max_retries != NO_RETRY_LIMIT)
                .then(|| session.retries_left(lead)),
            invalid_action: step.and_then(|s| s.invalid.clone()),
            forfeit: session.forfeited_by(),
            score: (!all).then(|| scores.get(seat).cloned().unwrap_or_default()),
            scores: open.then(|| scores.clone()),
            prompt: (open || players == 1).then(|| card.prompt.clone()),
            events: step.map(|s| s.events.clone()),
        };
        SeatView {
            env_id: card.env_id.clone(),
            scored_by: (card.env_id != spec.id).then(|| spec.id.to_string()),
            card_id: open.then(|| card.id.clone()),
            players,
            observation: observations.get(&lead.to_string()).cloned(),
            observations,
            terminated: status == Status::Terminated,
            truncated: status == Status::Truncated,
            info,
            player: step.map(|s| s.player),
            reward: step.map(|s| {
                let whose = if all { s.player } else { seat };
                s.rewards.get(whose).copied().unwrap_or(0.0)
            }),
            rewards: step.filter(|_| open).map(|s| s.rewards.clone()),
        }
    }

    /// Whether the episode is over.
    pub fn over(&self) -> bool {
        self.terminated || self.truncated
    }

    /// The observation's text (empty when the env had none to give).
    pub fn text(&self) -> &str {
        self.observation.as_ref().map_or("", |o| o.text.as_str())
    }

    /// As JSON (an object).
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        }
    }
}

#[cfg(test)]
#[path = "seat_view_tests.rs"]
mod tests;
