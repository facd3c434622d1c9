//! Stateful episodes for multi-turn envs and games: create, step, show,
//! delete, with a cap on live episodes and an idle TTL.
//!
//! Answers use Gymnasium's names: an episode starts with `observation` and
//! `info`; a step returns `observation`, `rewards`, `terminated`,
//! `truncated` and `info`. In games, `info.current_player` says who moves
//! next, `observations` holds the view of every player to move, and
//! `rewards` / `info.scores` are per player.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde::Deserialize;
use serde_json::{Map, Value};
use verigym_envs::{DynEnv, EnvError, Player, TaskCard};

use super::SharedState;
use super::error::{ApiError, HttpResponse, ok_json};
use super::views::{ViewMode, add_step, default_seat, episode_view, to_move};

/// Expired ids remembered so that a late step hears "expired", not "unknown".
const REMEMBERED_EXPIRED: usize = 4096;

struct Episode {
    env: Box<dyn DynEnv>,
    card: TaskCard,
    invalid_actions: u64,
    /// Seat views (the default) or the trainer's all-seat view.
    view: ViewMode,
}

impl Episode {
    /// The episode as `seat` sees it (every seat in the trainer view).
    fn view(&self, seat: Player) -> Map<String, Value> {
        episode_view(
            &*self.env,
            &self.card,
            self.invalid_actions,
            self.view,
            seat,
        )
    }

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
}

struct Slot {
    /// Milliseconds since the store started, at the last use.
    last_used_ms: AtomicU64,
    episode: Mutex<Episode>,
}

pub struct EpisodeStore {
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    expired: Mutex<VecDeque<String>>,
    cap: usize,
    ttl: Duration,
    started: Instant,
    created: AtomicU64,
    id_hasher: std::hash::RandomState,
}

impl EpisodeStore {
    pub fn new(cap: usize, ttl: Duration) -> Self {
        EpisodeStore {
            slots: Mutex::new(HashMap::new()),
            expired: Mutex::new(VecDeque::new()),
            cap,
            ttl,
            started: Instant::now(),
            created: AtomicU64::new(0),
            id_hasher: std::hash::RandomState::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        self.slots
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn live(&self) -> usize {
        self.map().len()
    }

    fn is_expired(&self, slot: &Slot, now_ms: u64) -> bool {
        now_ms.saturating_sub(slot.last_used_ms.load(Ordering::SeqCst))
            > self.ttl.as_millis() as u64
    }

    /// Drops every episode idle past the TTL; returns how many.
    pub fn sweep(&self) -> usize {
        let now = self.now_ms();
        let mut map = self.map();
        let gone: Vec<String> = map
            .iter()
            .filter(|(_, slot)| self.is_expired(slot, now))
            .map(|(id, _)| id.clone())
            .collect();
        for id in &gone {
            map.remove(id);
        }
        drop(map);
        let mut expired = self.expired.lock().unwrap_or_else(|p| p.into_inner());
        for id in &gone {
            if expired.len() == REMEMBERED_EXPIRED {
                expired.pop_front();
            }
            expired.push_back(id.clone());
        }
        gone.len()
    }

    fn too_many(&self) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many episodes: {} are live, the cap; DELETE finished ones, wait for idle ones \
                 to expire ({} s), or start the server with a larger --max-episodes",
                self.cap,
                self.ttl.as_secs_f64()
            ),
        )
    }

    /// Refuses early when the store is full even after dropping expired ones.
    fn check_room(&self) -> Result<(), ApiError> {
        if self.live() >= self.cap && (self.sweep() == 0 || self.live() >= self.cap) {
            return Err(self.too_many());
        }
        Ok(())
    }

    /// Stores an episode under a new id, unless the cap is reached.
    fn insert(&self, episode: Episode) -> Result<(String, Arc<Slot>), ApiError> {
        self.check_room()?;
        let mut map = self.map();
        if map.len() >= self.cap {
            return Err(self.too_many());
        }
        let n = self.created.fetch_add(1, Ordering::SeqCst);
        let id = format!("ep-{:016x}{n:x}", self.id_hasher.hash_one(n));
        let slot = Arc::new(Slot {
            last_used_ms: AtomicU64::new(self.now_ms()),
            episode: Mutex::new(episode),
        });
        map.insert(id.clone(), slot.clone());
        Ok((id, slot))
    }

    /// The live episode `id`, marked as used now.
    fn get(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let now = self.now_ms();
        let found = self.map().get(id).cloned();
        match found {
            Some(slot) if !self.is_expired(&slot, now) => {
                slot.last_used_ms.store(now, Ordering::SeqCst);
                Ok(slot)
            }
            Some(_) => {
                self.sweep();
                Err(self.expired_error(id))
            }
            None if self
                .expired
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .contains(&id.to_string()) =>
            {
                Err(self.expired_error(id))
            }
            None => Err(ApiError::not_found(format!(
                "no episode `{id}`: it was deleted, never existed, or was created by another \
                 server (episodes live in one server's memory); POST /v1/episodes to start one"
            ))),
        }
    }

    fn expired_error(&self, id: &str) -> ApiError {
        ApiError::not_found(format!(
            "episode `{id}` expired: it was unused for more than {} s (--episode-ttl); \
             POST /v1/episodes to start another",
            self.ttl.as_secs_f64()
        ))
    }

    fn remove(&self, id: &str) -> Option<Arc<Slot>> {
        self.map().remove(id)
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

/// `POST /v1/episodes`: starts an episode; answers its id and the first
/// observation of the player to move.
pub async fn create(state: &SharedState, request: CreateRequest) -> Result<HttpResponse, ApiError> {
    state.episodes.check_room()?;
    let worker_state = state.clone();
    let player = request.player;
    let episode = state
        .work
        .run(move || start_episode(&worker_state, request))
        .await??;
    let seat = episode.check_seat(player.unwrap_or_else(|| default_seat(&*episode.env)))?;
    let mut view = episode.view(seat);
    let (id, _) = state.episodes.insert(episode)?;
    view.insert("episode_id".into(), id.into());
    Ok(ok_json(&Value::Object(view)))
}

fn start_episode(state: &SharedState, request: CreateRequest) -> Result<Episode, ApiError> {
    let registry = &state.registry;
    let view = request.view;
    let (mut env, card) = match (request.id, request.card) {
        (Some(id), None) => {
            let env = registry.make(&id, request.config.as_ref())?;
            let card = env.generate(request.seed.unwrap_or(0));
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
    Ok(Episode {
        env,
        card,
        invalid_actions: 0,
        view,
    })
}

/// `GET /v1/episodes/{id}[?player=P]`: the view of player P (default: the
/// first to move).
pub fn show(state: &SharedState, id: &str, query: Option<&str>) -> Result<HttpResponse, ApiError> {
    let player = player_from_query(query)?;
    let slot = state.episodes.get(id)?;
    let episode = lock_episode(&slot, id)?;
    let seat = episode.check_seat(player.unwrap_or_else(|| default_seat(&*episode.env)))?;
    let mut view = episode.view(seat);
    view.insert("episode_id".into(), id.into());
    Ok(ok_json(&Value::Object(view)))
}

/// `DELETE /v1/episodes/{id}`: answers the final view.
pub fn delete(state: &SharedState, id: &str) -> Result<HttpResponse, ApiError> {
    let slot = state.episodes.get(id)?;
    let episode = lock_episode(&slot, id)?;
    state.episodes.remove(id);
    let mut view = episode.view(default_seat(&*episode.env));
    view.insert("episode_id".into(), id.into());
    view.insert("deleted".into(), true.into());
    Ok(ok_json(&Value::Object(view)))
}

fn lock_episode<'a>(slot: &'a Slot, id: &str) -> Result<MutexGuard<'a, Episode>, ApiError> {
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
    /// Who acts; may be left out when exactly one player moves.
    #[serde(default)]
    player: Option<Player>,
    /// The action text (numbers are taken as their JSON text).
    action: Value,
}

/// `POST /v1/episodes/{id}/step`.
pub async fn step(
    state: &SharedState,
    id: &str,
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
    let slot = state.episodes.get(id)?;
    let id = id.to_string();
    let view = state
        .work
        .run(move || {
            let mut episode = lock_episode(&slot, &id)?;
            let mut view = apply_step(&mut episode, request.player, &action)?;
            view.insert("episode_id".into(), id.into());
            Ok::<_, ApiError>(view)
        })
        .await??;
    Ok(ok_json(&Value::Object(view)))
}

fn apply_step(
    episode: &mut Episode,
    player: Option<Player>,
    action: &str,
) -> Result<Map<String, Value>, ApiError> {
    let movers = to_move(&episode.env.turn());
    let player = match (player, movers.as_slice()) {
        (Some(p), _) => p,
        (None, [only]) => *only,
        (None, []) => return Err(EnvError::EpisodeOver(episode.env.status()).into()),
        (None, many) => {
            return Err(ApiError::bad_request(format!(
                "players {many:?} move at the same time: give `player`"
            )));
        }
    };
    let player = episode.check_seat(player)?;
    let transition = match episode.env.step(player, action) {
        Ok(transition) => transition,
        Err(error @ EnvError::InvalidAction(_)) => {
            episode.invalid_actions += 1;
            return Err(ApiError::bad_request(format!(
                "{error}; the episode is unchanged, send another action"
            )));
        }
        Err(other) => return Err(other.into()),
    };
    // The actor's own view: the next mover asks for its own with GET.
    let mut view = episode.view(player);
    add_step(
        &mut view,
        episode.view,
        player,
        &transition.rewards,
        &transition.events,
    );
    Ok(view)
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
