//! OpenEnv sessions of both transports: HTTP ones stored under a random id
//! (the id is the session's only credential: whoever holds it plays the
//! session's one seat), WebSocket ones counted (they live in their
//! connection's task).
//!
//! The cap (`--max-episodes`) counts running sessions: an HTTP session
//! whose episode is over stops counting at once, and stays readable (its
//! `/state`) until closed, idle past the TTL, or pushed out by newer
//! finished ones (at most `cap` are kept). A WebSocket session whose episode
//! is over stops counting too, until its next `reset`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hyper::StatusCode;

use super::session::Session;
use crate::serve::SharedState;
use crate::serve::error::ApiError;

/// One HTTP session: the game, whether it is over, and the last step's
/// request id with its answer (a retried step is answered from it).
pub struct HttpSession {
    done: AtomicBool,
    pub session: Mutex<Session>,
    pub last_request: Mutex<Option<(String, serde_json::Value)>>,
}

impl HttpSession {
    pub fn set_done(&self, done: bool) {
        self.done.store(done, Ordering::SeqCst);
    }

    fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }
}

/// HTTP sessions by id, with when each was last used.
type HttpSessions = HashMap<String, (Instant, Arc<HttpSession>)>;

pub struct Sessions {
    http: Mutex<HttpSessions>,
    websockets: AtomicUsize,
    /// Open WebSocket sessions whose episode is over.
    ws_finished: AtomicUsize,
    cap: usize,
    ttl: Duration,
}

/// Holds a WebSocket session's place under the cap until dropped.
pub struct WsTicket(Arc<crate::serve::AppState>);

impl Drop for WsTicket {
    fn drop(&mut self) {
        self.0.openenv.websockets.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Marks a WebSocket session's episode as over: it does not count against
/// the cap until dropped (at the session's next reset, or its end).
pub struct WsFinished(Arc<crate::serve::AppState>);

impl Drop for WsFinished {
    fn drop(&mut self) {
        self.0.openenv.ws_finished.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Sessions {
    /// WebSocket sessions that count against the cap.
    fn ws_running(&self) -> usize {
        self.websockets
            .load(Ordering::SeqCst)
            .saturating_sub(self.ws_finished.load(Ordering::SeqCst))
    }

    /// Takes a finished WebSocket session off the cap.
    pub fn websocket_finished(&self, state: &SharedState) -> WsFinished {
        self.ws_finished.fetch_add(1, Ordering::SeqCst);
        WsFinished(state.clone())
    }

    pub fn new(cap: usize, ttl: Duration) -> Self {
        Sessions {
            http: Mutex::new(HashMap::new()),
            websockets: AtomicUsize::new(0),
            ws_finished: AtomicUsize::new(0),
            cap,
            ttl,
        }
    }

    fn map(&self) -> MutexGuard<'_, HttpSessions> {
        self.http.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn running_http(map: &HttpSessions) -> usize {
        map.values().filter(|(_, s)| !s.is_done()).count()
    }

    /// Sessions counted against the cap: running HTTP ones and open
    /// WebSocket ones.
    pub fn live(&self) -> usize {
        Self::running_http(&self.map()) + self.ws_running()
    }

    /// Sessions allowed at once (`--max-episodes`).
    pub fn cap(&self) -> usize {
        self.cap
    }

    pub fn live_websockets(&self) -> usize {
        self.websockets.load(Ordering::SeqCst)
    }

    /// Drops HTTP sessions idle past the TTL.
    pub fn sweep(&self) {
        let ttl = self.ttl;
        self.map().retain(|_, (used, _)| used.elapsed() <= ttl);
    }

    fn full(&self) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "at capacity: {} OpenEnv sessions are running (--max-episodes); finish or \
                 close one (POST /close), wait for idle ones to expire ({} s), or retry later",
                self.cap,
                self.ttl.as_secs_f64()
            ),
        )
    }

    /// Takes a WebSocket place, or answers 503 when all are taken.
    ///
    /// # Errors
    /// 503 at capacity.
    pub fn admit_websocket(&self, state: &SharedState) -> Result<WsTicket, ApiError> {
        self.sweep();
        let before = self.websockets.fetch_add(1, Ordering::SeqCst);
        let taken = before.saturating_sub(self.ws_finished.load(Ordering::SeqCst))
            + Self::running_http(&self.map());
        let ticket = WsTicket(state.clone());
        if taken >= self.cap {
            return Err(self.full());
        }
        Ok(ticket)
    }

    /// Checks for room before the work of starting a session.
    ///
    /// # Errors
    /// 503 at capacity.
    pub fn check_room(&self) -> Result<(), ApiError> {
        if self.live() >= self.cap {
            self.sweep();
            if self.live() >= self.cap {
                return Err(self.full());
            }
        }
        Ok(())
    }

    /// Stores a new HTTP session under `id` (a fresh random credential).
    ///
    /// # Errors
    /// 503 at capacity.
    pub fn insert(&self, id: String, session: Session) -> Result<(), ApiError> {
        self.sweep();
        let mut map = self.map();
        if Self::running_http(&map) + self.ws_running() >= self.cap {
            return Err(self.full());
        }
        while map.len() >= self.cap.saturating_mul(2) {
            let oldest = map
                .iter()
                .filter(|(_, (_, s))| s.is_done())
                .min_by_key(|(_, (used, _))| *used)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(oldest) => map.remove(&oldest),
                None => return Err(self.full()),
            };
        }
        let done = session.done();
        let entry = Arc::new(HttpSession {
            done: AtomicBool::new(done),
            session: Mutex::new(session),
            last_request: Mutex::new(None),
        });
        map.insert(id, (Instant::now(), entry));
        Ok(())
    }

    /// The session `id`, marked as used now.
    ///
    /// # Errors
    /// 404 for an unknown or expired id (one answer: ids are credentials).
    pub fn get(&self, id: &str) -> Result<Arc<HttpSession>, ApiError> {
        let mut map = self.map();
        match map.get_mut(id) {
            Some((used, session)) if used.elapsed() <= self.ttl => {
                *used = Instant::now();
                Ok(session.clone())
            }
            Some(_) => {
                map.remove(id);
                Err(unknown(id))
            }
            None => Err(unknown(id)),
        }
    }

    /// Ends the session `id` at once.
    ///
    /// # Errors
    /// 404 for an unknown or expired id.
    pub fn remove(&self, id: &str) -> Result<Arc<HttpSession>, ApiError> {
        let session = self.get(id)?;
        self.map().remove(id);
        Ok(session)
    }
}

fn unknown(id: &str) -> ApiError {
    ApiError::not_found(format!(
        "no session `{id}`: it was closed, expired (idle past --episode-ttl), or never \
         existed; POST /reset and pass the `episode_id` it answers (WebSocket clients keep \
         their session on /ws instead)"
    ))
}
