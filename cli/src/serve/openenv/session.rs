//! One OpenEnv session: what `reset` and `step` do to it and the JSON they
//! answer, shared by the WebSocket and the HTTP routes (no I/O here).
//!
//! A session plays one seat against the built-in opponents by default
//! ([`SeatEpisode`]): every answer is that seat's view. `"view": "all"`
//! makes it a trainer session that moves every seat itself and sees every
//! seat; each answer then says whose turn it is. What an answer holds is
//! the [`SeatView`] of `verigym_envs::seat_view` (who may see what), put in
//! OpenEnv's shape.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use verigym_envs::seat::{SeatEpisode, SeatOptions};
use verigym_envs::seat_view::{SeatView, StepOutcome, ViewMode, default_seat};
use verigym_envs::{DynEnv, Player, Registry, TaskCard};

use crate::serve::error::ApiError;
use verigym_envs::session::{Rules, Session as Rulebook};

/// The `data` of a `reset` message (the body of `POST /reset`). Unknown
/// fields are ignored, as OpenEnv's `ResetRequest` does; a bare reset plays
/// the server's default env with a random seed.
#[derive(Deserialize, Default)]
pub struct ResetData {
    /// Env id, optionally `@preset` or `@LEVEL` (`id` is accepted too).
    #[serde(default, alias = "id")]
    pub env_id: Option<String>,
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub config: Option<Value>,
    /// A task card (or a chat row with it under `card`) instead of an id.
    #[serde(default)]
    pub card: Option<Value>,
    /// The seat this session plays (default 0).
    #[serde(default)]
    pub seat: Option<Player>,
    /// `random`, `heuristic` (default) or `oracle`: who plays the other seats.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Refused actions allowed per turn before the seat forfeits (default 2).
    #[serde(default)]
    pub max_retries: Option<u32>,
    /// `"seat"` (default) or `"all"`: the trainer moves every seat.
    #[serde(default)]
    pub view: ViewMode,
    /// OpenEnv's own episode label: on `/ws` it labels the session; over
    /// HTTP it is ignored (the server picks the id, which is the session's
    /// credential).
    #[serde(default)]
    pub episode_id: Option<String>,
}

/// The `data` of a `step` message (the `action` of `POST /step`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepData {
    /// The action text (numbers are taken as their JSON text).
    pub action: Value,
    /// Who acts, in a trainer session where several players move at once.
    #[serde(default)]
    pub player: Option<Player>,
    /// OpenEnv's `Action.metadata`; ignored.
    #[serde(default)]
    pub metadata: Option<Value>,
}

enum Play {
    // Boxed: a seat episode is several times the size of the trainer view.
    Seat(Box<SeatEpisode>),
    All {
        env: Box<dyn DynEnv>,
        rules: Rulebook,
    },
}

pub struct Session {
    play: Play,
    card: TaskCard,
    episode_id: String,
    step_count: u64,
}

/// The action text of a step.
pub fn action_text(action: &Value) -> Result<String, ApiError> {
    match action {
        Value::String(s) => Ok(s.clone()),
        Value::Number(_) | Value::Bool(_) => Ok(action.to_string()),
        other => Err(ApiError::bad_request(format!(
            "`action` must be a string (or a number), got `{other}`"
        ))),
    }
}

impl Session {
    /// Starts the episode a reset payload names (see
    /// [`super::prepare_reset`] for its defaults), labelled `label`.
    ///
    /// # Errors
    /// Bad or unknown ids, cards, seats or opponents (400/404).
    pub fn start(registry: &Registry, data: ResetData, label: String) -> Result<Self, ApiError> {
        let (env, card) = match (data.env_id, data.card) {
            (Some(id), None) => {
                let env = registry.make(&id, data.config.as_ref())?;
                let card = env.try_generate(data.seed.unwrap_or(0))?;
                (env, card)
            }
            (None, Some(card)) => {
                if data.seed.is_some() || data.config.is_some() {
                    return Err(ApiError::bad_request(
                        "a card fixes its seed and config: give `card` alone",
                    ));
                }
                let card = card.get("card").cloned().unwrap_or(card);
                let card: TaskCard = serde_json::from_value(card).map_err(|e| {
                    ApiError::bad_request(format!("`card` is not a task card: {e}"))
                })?;
                (registry.make_for_card(&card)?, card)
            }
            _ => {
                return Err(ApiError::bad_request(
                    "reset needs exactly one of `env_id` (with optional `seed` and `config`) \
                     and `card`, e.g. {\"env_id\": \"games/kuhn-poker-v1\", \"seed\": 3}; \
                     GET /v1/envs lists the ids",
                ));
            }
        };
        let episode_id = label;
        let play = match data.view {
            ViewMode::All => {
                if data.seat.is_some() || data.opponent.is_some() {
                    return Err(ApiError::bad_request(
                        "`seat` and `opponent` choose one seat against built-in players; \
                         with `view: all` the session moves every seat: drop them",
                    ));
                }
                let mut env = env;
                env.reset(&card)?;
                let mut rules = Rules::default();
                if let Some(retries) = data.max_retries {
                    rules.max_retries = retries;
                }
                let rules = Rulebook::start(&*env, rules);
                Play::All { env, rules }
            }
            ViewMode::Seat => {
                let mut options = SeatOptions::default();
                if let Some(opponent) = data.opponent {
                    options.opponent = opponent;
                }
                if let Some(retries) = data.max_retries {
                    options.max_retries = retries;
                }
                let mut seat = SeatEpisode::new(env, options)?;
                seat.reset(&card, data.seat.unwrap_or(0), |card| {
                    registry.make_for_card(card)
                })?;
                Play::Seat(Box::new(seat))
            }
        };
        Ok(Session {
            play,
            card,
            episode_id,
            step_count: 0,
        })
    }

    pub fn done(&self) -> bool {
        match &self.play {
            Play::Seat(seat) => seat.done(),
            Play::All { rules, .. } => rules.over(),
        }
    }

    /// The episode rules' state of whichever play this is.
    fn rulebook(&self) -> &Rulebook {
        match &self.play {
            Play::Seat(seat) => seat.session().expect("a seat session is reset when made"),
            Play::All { rules, .. } => rules,
        }
    }

    fn env(&self) -> &dyn DynEnv {
        match &self.play {
            Play::Seat(seat) => seat.env(),
            Play::All { env, .. } => &**env,
        }
    }

    /// The result after reset: `{observation, reward: null, done}`.
    pub fn reset_result(&self) -> Value {
        self.result(None)
    }

    /// Applies one step; a refused action is not an error (the answer says
    /// why in `metadata.invalid_action`, and the seat may forfeit).
    ///
    /// # Errors
    /// A step after the end (409), a bad payload or player (400).
    pub fn step(&mut self, data: StepData) -> Result<Value, ApiError> {
        let action = action_text(&data.action)?;
        if self.done() {
            return Err(ApiError::new(
                hyper::StatusCode::CONFLICT,
                "the episode is over: send `reset` to start another",
            ));
        }
        // A refused step (an error answer) changes nothing, its count
        // included; an action the env refuses is a step (answered 200).
        match &mut self.play {
            Play::Seat(seat) => {
                if data.player.is_some_and(|p| p != seat.seat()) {
                    return Err(ApiError::bad_request(format!(
                        "this session plays seat {}; `player` may only name it",
                        seat.seat()
                    )));
                }
                let outcome = seat.step(&action)?;
                self.step_count += 1;
                Ok(self.result(Some(&outcome)))
            }
            Play::All { env, rules } => {
                let movers = rules.movers(&**env);
                let player = match (data.player, movers.as_slice()) {
                    (Some(p), _) => p,
                    (None, [only]) => *only,
                    (None, many) => {
                        return Err(ApiError::bad_request(format!(
                            "players {many:?} move at the same time: give `player`"
                        )));
                    }
                };
                let outcome = StepOutcome::play(&mut **env, rules, player, &action)?;
                self.step_count += 1;
                Ok(self.result(Some(&outcome)))
            }
        }
    }

    /// OpenEnv's `State`: `episode_id` and `step_count`, plus where the
    /// episode stands (public facts only).
    pub fn state(&self) -> Value {
        let env = self.env();
        json!({
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "env_id": env.spec().id,
            "players": env.spec().players,
            "seat": self.seat().map_or(Value::from("all"), Value::from),
            "to_move": self.rulebook().movers(env),
            "done": self.done(),
        })
    }

    fn seat(&self) -> Option<Player> {
        match &self.play {
            Play::Seat(seat) => Some(seat.seat()),
            Play::All { .. } => None,
        }
    }

    /// `{observation, reward, done}` in OpenEnv's shape, from the
    /// session's [`SeatView`] (answering `step` if given): the observation
    /// holds the text, structured view, legal actions, tools, whose view it
    /// is and whose turn; `metadata` the view's `info` (scores, events,
    /// refusals, prompt), its `terminated`, `truncated`, `card_id` and step
    /// rewards, `step_count`, and the seed where the view shows the card id
    /// (it ends in it).
    fn result(&self, step: Option<&StepOutcome>) -> Value {
        let env = self.env();
        let (mode, seat) = match &self.play {
            Play::Seat(s) => (ViewMode::Seat, s.seat()),
            Play::All { env, rules } => (
                ViewMode::All,
                step.map_or_else(|| default_seat(&**env, rules), |s| s.player),
            ),
        };
        let view = SeatView::new(env, self.rulebook(), &self.card, mode, seat, step);
        let mut observation = match view.observation.as_ref().map(serde_json::to_value) {
            Some(Ok(Value::Object(o))) => o,
            _ => Map::new(),
        };
        if let Some(tools) = observation
            .get("structured")
            .and_then(|s| s.get("tools"))
            .cloned()
        {
            observation.insert("tools".into(), tools);
        }
        let info = serde_json::to_value(&view.info).unwrap_or(Value::Null);
        observation.insert("env_id".into(), view.env_id.clone().into());
        observation.insert("episode_id".into(), self.episode_id.clone().into());
        observation.insert("view".into(), info["view"].clone());
        observation.insert("current_player".into(), info["current_player"].clone());
        observation.insert("to_move".into(), info["to_move"].clone());
        let mut metadata = match info {
            Value::Object(info) => info,
            _ => Map::new(),
        };
        metadata.insert("terminated".into(), view.terminated.into());
        metadata.insert("truncated".into(), view.truncated.into());
        metadata.insert("step_count".into(), self.step_count.into());
        if let Some(player) = view.player {
            metadata.insert("player".into(), player.into());
        }
        if let Some(rewards) = &view.rewards {
            metadata.insert("rewards".into(), json!(rewards));
        }
        if let Some(card_id) = &view.card_id {
            metadata.insert("card_id".into(), card_id.clone().into());
            metadata.insert("seed".into(), self.card.seed.into());
        }
        observation.insert("metadata".into(), Value::Object(metadata));
        json!({
            "observation": observation,
            "reward": view.reward,
            "done": view.over(),
        })
    }
}
