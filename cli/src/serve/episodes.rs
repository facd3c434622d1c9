//! Stateful episodes for multi-turn envs and games: create, step, show,
//! delete, with a cap on running episodes and an idle TTL
//! ([`super::episode_store`], which also says who may do what).
//!
//! Every answer is a [`SeatView`] (`verigym_envs::seat_view`, which says
//! who may see what), serialised, with the episode id: Gymnasium's names
//! (`observation`, `reward`, `terminated`, `truncated`, `info`), in games
//! `info.current_player` / `info.to_move` for who moves next. Every route
//! but creation needs `Authorization: Bearer TOKEN`: the creator token or a
//! seat token.

use std::time::Duration;

use hyper::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use verigym_envs::seat_view::{SeatView, StepOutcome, ViewMode, default_seat};
use verigym_envs::{EnvError, Player, TaskCard};

use super::SharedState;
use super::credentials::random_seed;
use super::episode_store::{Access, Episode, Slot, Tokens};
use super::error::{ApiError, HttpResponse, ok_json};
use super::work::{Admission, Lane};
use verigym_envs::session::{Rules, Session};

impl Episode {
    fn check_seat(&self, seat: Player) -> Result<Player, ApiError> {
        let players = self.env.spec().players;
        if seat >= players {
            return Err(ApiError::bad_request(format!(
                "no player {seat}: this env has players 0..{}",
                players - 1
            )));
        }
        Ok(seat)
    }

    fn over(&self) -> bool {
        self.session.over()
    }

    /// The view `access` may have of `seat`, answering `step` if given:
    /// the creator gets the episode's mode, a seat token the seat view.
    fn view_for(
        &self,
        access: Access,
        seat: Player,
        step: Option<&StepOutcome>,
    ) -> Map<String, Value> {
        let mode = self.mode_for(access);
        SeatView::new(&*self.env, &self.session, &self.card, mode, seat, step).to_json()
    }

    /// The mode the answers to `access` are in.
    fn mode_for(&self, access: Access) -> ViewMode {
        match access {
            Access::Creator => self.view,
            Access::Seat(_) => ViewMode::Seat,
        }
    }
}

/// The seat a request acts or reads as: a seat token's own seat (naming
/// another is refused); for the creator, the one named or the default.
fn seat_for(
    episode: &Episode,
    access: Access,
    named: Option<Player>,
    default: impl FnOnce() -> Result<Player, ApiError>,
) -> Result<Player, ApiError> {
    match (access, named) {
        (Access::Seat(own), Some(other)) if other != own => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "this token is seat {own}'s: it reads and plays seat {own} only; use seat \
                 {other}'s token, or the creator token"
            ),
        )),
        (Access::Seat(own), _) => Ok(own),
        (Access::Creator, Some(p)) => episode.check_seat(p),
        (Access::Creator, None) => episode.check_seat(default()?),
    }
}

/// Drops expired episodes every quarter TTL (between 50 ms and 5 s).
pub async fn sweep_forever(state: SharedState) {
    let period =
        (state.options.episode_ttl / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        state.episodes.sweep();
        state.openenv.sweep();
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// Env id (optionally `@preset` / `@LEVEL`); the task is `generate(seed)`.
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    config: Option<Value>,
    /// A task card (or a chat row with the card under `card`) instead of id.
    #[serde(default)]
    card: Option<Value>,
    /// `"seat"` (default): each answer is one player's view; `"all"`: the
    /// trainer view with every seat's observation and score.
    #[serde(default)]
    view: ViewMode,
    /// Whose view the creation answer is (default: the first to move).
    #[serde(default)]
    player: Option<Player>,
}

/// `POST /v1/episodes`: starts an episode; answers its id, its tokens
/// (`tokens.creator` and `tokens.seats[P]`), the seed it was dealt with
/// (random when none was given) and the creator's first view.
pub async fn create(
    state: &SharedState,
    admission: Admission,
    mut request: CreateRequest,
) -> Result<HttpResponse, ApiError> {
    state.card_sets.resolve_opt(request.config.as_mut())?;
    if let Some(card) = request.card.as_mut() {
        state.card_sets.resolve_card(card)?;
    }
    state.episodes.check_room()?;
    if request.id.is_some() && request.seed.is_none() {
        request.seed = Some(random_seed()?);
    }
    let worker_state = state.clone();
    let player = request.player;
    let episode = state
        .work
        .run(admission, Lane::Interactive, move |_| {
            start_episode(&worker_state, request)
        })
        .await??;
    let seat = episode
        .check_seat(player.unwrap_or_else(|| default_seat(&*episode.env, &episode.session)))?;
    let mut view = episode.view_for(Access::Creator, seat, None);
    let seed = episode.card.seed;
    let tokens = Tokens::new(episode.env.spec().players)?;
    let answer_tokens = json!({"creator": tokens.creator, "seats": tokens.seats});
    let id = state.episodes.insert(episode, tokens)?;
    view.insert("episode_id".into(), id.into());
    view.insert("tokens".into(), answer_tokens);
    view.insert("seed".into(), seed.into());
    Ok(ok_json(&Value::Object(view)))
}

fn start_episode(state: &SharedState, request: CreateRequest) -> Result<Episode, ApiError> {
    let registry = &state.registry;
    let view = request.view;
    let (mut env, card) = match (request.id, request.card) {
        (Some(id), None) => {
            let env = registry.make(&id, request.config.as_ref())?;
            let card = env.try_generate(request.seed.unwrap_or(0))?;
            (env, card)
        }
        (None, Some(card)) => {
            if request.seed.is_some() || request.config.is_some() {
                return Err(ApiError::bad_request(
                    "a card fixes its seed and config: give `card` alone",
                ));
            }
            let card = card.get("card").cloned().unwrap_or(card);
            let card: TaskCard = serde_json::from_value(card)
                .map_err(|e| ApiError::bad_request(format!("`card` is not a task card: {e}")))?;
            (registry.make_for_card(&card)?, card)
        }
        _ => {
            return Err(ApiError::bad_request(
                "give exactly one of `id` (with optional `seed` and `config`) and `card`",
            ));
        }
    };
    env.reset(&card)?;
    let session = Session::start(&*env, Rules::default());
    Ok(Episode {
        env,
        card,
        session,
        view,
    })
}

/// `GET /v1/episodes/{id}[?player=P]`: the view of player P (default: the
/// token's seat, or for the creator the first to move).
pub fn show(
    state: &SharedState,
    id: &str,
    token: Option<&str>,
    query: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let player = player_from_query(query)?;
    let (slot, access) = state.episodes.get(id, token)?;
    let episode = lock_episode(&slot, id)?;
    let seat = seat_for(&episode, access, player, || {
        Ok(default_seat(&*episode.env, &episode.session))
    })?;
    let mut view = episode.view_for(access, seat, None);
    view.insert("episode_id".into(), id.into());
    Ok(ok_json(&Value::Object(view)))
}

/// `DELETE /v1/episodes/{id}` (creator token only): answers the final view.
pub fn delete(
    state: &SharedState,
    id: &str,
    token: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let (slot, access) = state.episodes.get(id, token)?;
    if let Access::Seat(seat) = access {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "seat {seat}'s token cannot delete the episode: only the creator token may;                  stop sending steps instead"
            ),
        ));
    }
    let episode = lock_episode(&slot, id)?;
    state.episodes.remove(id);
    let seat = default_seat(&*episode.env, &episode.session);
    let mut view = episode.view_for(access, seat, None);
    view.insert("episode_id".into(), id.into());
    view.insert("deleted".into(), true.into());
    Ok(ok_json(&Value::Object(view)))
}

fn lock_episode<'a>(
    slot: &'a Slot,
    id: &str,
) -> Result<std::sync::MutexGuard<'a, Episode>, ApiError> {
    slot.episode.try_lock().map_err(|_| {
        ApiError::new(
            StatusCode::CONFLICT,
            format!("episode `{id}` is busy with another step; wait for its answer"),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepRequest {
    /// Who acts; may be left out when exactly one player moves (or when a
    /// seat token acts: its own seat).
    #[serde(default)]
    player: Option<Player>,
    /// The action text (numbers are taken as their JSON text).
    action: Value,
}

/// `POST /v1/episodes/{id}/step`.
pub async fn step(
    state: &SharedState,
    id: &str,
    token: Option<&str>,
    admission: Admission,
    request: StepRequest,
) -> Result<HttpResponse, ApiError> {
    let action = match &request.action {
        Value::String(s) => s.clone(),
        Value::Number(_) | Value::Bool(_) => request.action.to_string(),
        other => {
            return Err(ApiError::bad_request(format!(
                "`action` must be a string (or a number), got `{other}`"
            )));
        }
    };
    let (slot, access) = state.episodes.get(id, token)?;
    let id = id.to_string();
    let view = state
        .work
        .run(admission, Lane::Interactive, move |_| {
            let mut episode = lock_episode(&slot, &id)?;
            let result = apply_step(&mut episode, access, request.player, &action);
            slot.set_done(episode.over());
            let mut view = result?;
            view.insert("episode_id".into(), id.into());
            Ok::<_, ApiError>(view)
        })
        .await??;
    Ok(ok_json(&Value::Object(view)))
}

fn apply_step(
    episode: &mut Episode,
    access: Access,
    player: Option<Player>,
    action: &str,
) -> Result<Map<String, Value>, ApiError> {
    let player = seat_for(episode, access, player, || {
        match episode.session.movers(&*episode.env).as_slice() {
            [only] => Ok(*only),
            [] => Err(EnvError::EpisodeOver(episode.session.status()).into()),
            many => Err(ApiError::bad_request(format!(
                "players {many:?} move at the same time: give `player`"
            ))),
        }
    })?;
    let outcome = StepOutcome::play(&mut *episode.env, &mut episode.session, player, action)?;
    if let Some(reason) = &outcome.invalid {
        let what_now = match episode.session.forfeited_by() {
            Some(_) => {
                format!("that was the last retry: player {player} forfeits and the episode is over")
            }
            None => format!(
                "the episode is unchanged; {} more refused action(s) on this turn forfeit",
                episode.session.retries_left(player) + 1
            ),
        };
        return Err(ApiError::bad_request(format!(
            "invalid action: {reason}; {what_now}"
        )));
    }
    // The actor's own view: the next mover asks for its own with GET.
    Ok(episode.view_for(access, player, Some(&outcome)))
}

/// `player=P` from a query string.
fn player_from_query(query: Option<&str>) -> Result<Option<Player>, ApiError> {
    let Some(query) = query else { return Ok(None) };
    let mut player = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("player", value)) => {
                player = Some(value.parse().map_err(|_| {
                    ApiError::bad_request(format!("`player={value}` is not a player number"))
                })?);
            }
            _ => {
                return Err(ApiError::bad_request(format!(
                    "unknown query parameter `{pair}`: only `player=P` is accepted"
                )));
            }
        }
    }
    Ok(player)
}
