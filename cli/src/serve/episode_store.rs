//! Where `/v1/episodes` keep their episodes: by a random id, each with its
//! tokens, under a cap on running episodes and an idle TTL.
//!
//! Who may do what (see the README's server section):
//! - the creator token (answered once, at creation) reads any seat, the
//!   trainer view (`view: "all"`) and the seed, steps any seat, and deletes;
//! - a seat token reads and steps that seat only, in the seat view
//!   (`verigym_envs::seat_view`, which keeps the card id, and so the seed,
//!   out of every seat view until the episode is over).
//!
//! A request without a matching token hears the same 404 as one for an id
//! that never existed, so ids cannot be probed.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hyper::StatusCode;
use verigym_envs::{DynEnv, Player, TaskCard};

use super::credentials::{new_credential, same_secret};
use super::error::ApiError;
use verigym_envs::seat_view::ViewMode;

/// Expired ids remembered (with their tokens) so that a late step by a
/// token holder hears "expired", not "unknown".
const REMEMBERED_EXPIRED: usize = 4096;

pub struct Episode {
    pub env: Box<dyn DynEnv>,
    pub card: TaskCard,
    /// The episode rules' state: refusals, forfeit, turn cap.
    pub session: verigym_envs::session::Session,
    /// Seat views (the default) or the trainer's all-seat view; the latter
    /// for the creator token only.
    pub view: ViewMode,
}

/// What a presented token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Creator,
    Seat(Player),
}

/// An episode's tokens: the creator's and one per seat.
#[derive(Clone, Debug)]
pub struct Tokens {
    pub creator: String,
    pub seats: Vec<String>,
}

impl Tokens {
    /// Fresh random tokens for an episode of `players` seats.
    ///
    /// # Errors
    /// 500 when the random source fails.
    pub fn new(players: usize) -> Result<Self, ApiError> {
        Ok(Tokens {
            creator: new_credential("ct-")?,
            seats: (0..players)
                .map(|_| new_credential("st-"))
                .collect::<Result<_, _>>()?,
        })
    }

    /// What `presented` grants, if it is one of these tokens.
    pub fn access(&self, presented: Option<&str>) -> Option<Access> {
        let presented = presented?;
        if same_secret(presented, &self.creator) {
            return Some(Access::Creator);
        }
        self.seats
            .iter()
            .position(|t| same_secret(presented, t))
            .map(Access::Seat)
    }
}

pub struct Slot {
    /// Milliseconds since the store started, at the last use.
    last_used_ms: AtomicU64,
    /// The episode is over: it no longer counts against the cap.
    done: AtomicBool,
    tokens: Tokens,
    pub episode: Mutex<Episode>,
}

impl Slot {
    /// Marks the episode finished (after a step that ended it).
    pub fn set_done(&self, done: bool) {
        self.done.store(done, Ordering::SeqCst);
    }
}

pub struct EpisodeStore {
    slots: Mutex<HashMap<String, Arc<Slot>>>,
    expired: Mutex<VecDeque<(String, Tokens)>>,
    cap: usize,
    ttl: Duration,
    started: Instant,
}

impl EpisodeStore {
    pub fn new(cap: usize, ttl: Duration) -> Self {
        EpisodeStore {
            slots: Mutex::new(HashMap::new()),
            expired: Mutex::new(VecDeque::new()),
            cap,
            ttl,
            started: Instant::now(),
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

    /// Episodes held (running or finished and not yet deleted or expired).
    pub fn live(&self) -> usize {
        self.map().len()
    }

    /// Episodes still running: what the cap counts.
    pub fn running(&self) -> usize {
        self.map()
            .values()
            .filter(|s| !s.done.load(Ordering::SeqCst))
            .count()
    }

    fn is_expired(&self, slot: &Slot, now_ms: u64) -> bool {
        now_ms.saturating_sub(slot.last_used_ms.load(Ordering::SeqCst))
            > self.ttl.as_millis() as u64
    }

    /// Drops every episode idle past the TTL; returns how many.
    pub fn sweep(&self) -> usize {
        let now = self.now_ms();
        let mut map = self.map();
        let gone: Vec<(String, Tokens)> = map
            .iter()
            .filter(|(_, slot)| self.is_expired(slot, now))
            .map(|(id, slot)| (id.clone(), slot.tokens.clone()))
            .collect();
        for (id, _) in &gone {
            map.remove(id);
        }
        drop(map);
        let count = gone.len();
        let mut expired = self.expired.lock().unwrap_or_else(|p| p.into_inner());
        for entry in gone {
            if expired.len() == REMEMBERED_EXPIRED {
                expired.pop_front();
            }
            expired.push_back(entry);
        }
        count
    }

    fn too_many(&self) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many episodes: {} are running, the cap; finish or DELETE some, wait for \
                 idle ones to expire ({} s), or start the server with a larger --max-episodes",
                self.cap,
                self.ttl.as_secs_f64()
            ),
        )
    }

    /// Refuses early when the store is full even after dropping expired ones.
    ///
    /// # Errors
    /// 429 at the cap.
    pub fn check_room(&self) -> Result<(), ApiError> {
        if self.running() >= self.cap && (self.sweep() == 0 || self.running() >= self.cap) {
            return Err(self.too_many());
        }
        Ok(())
    }

    /// Stores an episode under a new random id, unless the cap is reached.
    /// Finished episodes are kept for their final view, at most `cap` of
    /// them: the least recently used goes first.
    ///
    /// # Errors
    /// 429 at the cap; 500 when no random id can be made.
    pub fn insert(&self, episode: Episode, tokens: Tokens) -> Result<String, ApiError> {
        self.check_room()?;
        let id = new_credential("ep-")?;
        let done = episode.session.over();
        let mut map = self.map();
        let running = map
            .values()
            .filter(|s| !s.done.load(Ordering::SeqCst))
            .count();
        if running >= self.cap {
            return Err(self.too_many());
        }
        while map.len() >= self.cap.saturating_mul(2) {
            let oldest = map
                .iter()
                .filter(|(_, s)| s.done.load(Ordering::SeqCst))
                .min_by_key(|(_, s)| s.last_used_ms.load(Ordering::SeqCst))
                .map(|(id, _)| id.clone());
            match oldest {
                Some(oldest) => map.remove(&oldest),
                None => return Err(self.too_many()),
            };
        }
        let slot = Arc::new(Slot {
            last_used_ms: AtomicU64::new(self.now_ms()),
            done: AtomicBool::new(done),
            tokens,
            episode: Mutex::new(episode),
        });
        map.insert(id.clone(), slot);
        Ok(id)
    }

    /// The live episode `id` and what `token` may do with it, marked as
    /// used now.
    ///
    /// # Errors
    /// 404 for an unknown id or a token that is not the episode's (the same
    /// answer); "expired" only to a holder of the expired episode's token.
    pub fn get(&self, id: &str, token: Option<&str>) -> Result<(Arc<Slot>, Access), ApiError> {
        let now = self.now_ms();
        let found = self.map().get(id).cloned();
        if let Some(slot) = found
            && let Some(access) = slot.tokens.access(token)
        {
            if !self.is_expired(&slot, now) {
                slot.last_used_ms.store(now, Ordering::SeqCst);
                return Ok((slot, access));
            }
            self.sweep();
            return Err(self.expired_error(id));
        }
        let was_ours = self
            .expired
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .any(|(old, tokens)| old == id && tokens.access(token).is_some());
        if was_ours {
            return Err(self.expired_error(id));
        }
        Err(unknown(id))
    }

    fn expired_error(&self, id: &str) -> ApiError {
        ApiError::not_found(format!(
            "episode `{id}` expired: it was unused for more than {} s (--episode-ttl); \
             POST /v1/episodes to start another",
            self.ttl.as_secs_f64()
        ))
    }

    pub fn remove(&self, id: &str) -> Option<Arc<Slot>> {
        self.map().remove(id)
    }
}

/// The one answer for an unknown id and for a token that does not open it.
pub fn unknown(id: &str) -> ApiError {
    ApiError::not_found(format!(
        "no episode `{id}` for this token: send the episode's creator or seat token as \
         `Authorization: Bearer TOKEN` (POST /v1/episodes answers them); the episode may \
         also have been deleted, or live on another server"
    ))
}
