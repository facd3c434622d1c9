//! OpenEnv (openenv-core 0.3) on `verigym serve`: the WebSocket session
//! protocol at `/ws` ([`ws`]) and the HTTP routes `/reset`, `/step`,
//! `/state`, `/schema`, `/health`, `/metadata` and `/mcp`, in the shapes of
//! `openenv/core/env_server/http_server.py` and `types.py`.
//!
//! OpenEnv serves one environment per server; here the `reset` payload
//! chooses it (`env_id` and `seed`, or a `card`). OpenEnv's HTTP `/reset`
//! and `/step` build a fresh environment per call, which leaves `/step`
//! nothing to act on; here `/reset` keeps its session (under the cap and
//! TTL of `--max-episodes` / `--episode-ttl`) and `/step` names it with
//! `episode_id`. WebSocket sessions live as long as their connection.

pub mod session;
pub mod ws;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use super::SharedState;
use super::error::{ApiError, HttpResponse, ok_json};
use session::{ResetData, Session, StepData};

/// HTTP sessions by id, with when each was last used.
type HttpSessions = HashMap<String, (Instant, Arc<Mutex<Session>>)>;

/// OpenEnv sessions of both transports: HTTP ones stored by id, WebSocket
/// ones counted (they live in their connection's task).
pub struct Sessions {
    http: Mutex<HttpSessions>,
    websockets: AtomicUsize,
    created: AtomicU64,
    cap: usize,
    ttl: Duration,
}

/// Holds a WebSocket session's place under the cap until dropped.
pub struct WsTicket(Arc<super::AppState>);

impl Drop for WsTicket {
    fn drop(&mut self) {
        self.0.openenv.websockets.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Sessions {
    pub fn new(cap: usize, ttl: Duration) -> Self {
        Sessions {
            http: Mutex::new(HashMap::new()),
            websockets: AtomicUsize::new(0),
            created: AtomicU64::new(0),
            cap,
            ttl,
        }
    }

    fn map(&self) -> MutexGuard<'_, HttpSessions> {
        self.http.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Live sessions (HTTP and WebSocket).
    pub fn live(&self) -> usize {
        self.map().len() + self.websockets.load(Ordering::SeqCst)
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
                "at capacity: {} OpenEnv sessions are live (--max-episodes); close one, wait \
                 for idle ones to expire ({} s), or retry later",
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
        let taken = self.websockets.fetch_add(1, Ordering::SeqCst) + self.map().len();
        let ticket = WsTicket(state.clone());
        if taken >= self.cap {
            return Err(self.full());
        }
        Ok(ticket)
    }

    pub fn new_label(&self) -> String {
        let n = self.created.fetch_add(1, Ordering::SeqCst);
        format!("oe-{n}-{:x}", std::process::id())
    }

    fn insert(&self, id: String, session: Session) -> Result<(), ApiError> {
        self.sweep();
        let mut map = self.map();
        if map.len() + self.websockets.load(Ordering::SeqCst) >= self.cap {
            return Err(self.full());
        }
        map.insert(id, (Instant::now(), Arc::new(Mutex::new(session))));
        Ok(())
    }

    fn get(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        let mut map = self.map();
        match map.get_mut(id) {
            Some((used, session)) if used.elapsed() <= self.ttl => {
                *used = Instant::now();
                Ok(session.clone())
            }
            Some(_) => {
                map.remove(id);
                Err(ApiError::not_found(format!(
                    "session `{id}` expired (idle past --episode-ttl); POST /reset again"
                )))
            }
            None => Err(ApiError::not_found(format!(
                "no session `{id}`: POST /reset first and pass the `episode_id` it answers \
                 (WebSocket clients keep their session on /ws instead)"
            ))),
        }
    }
}

/// `POST /reset`: starts a session and keeps it for `/step`.
pub async fn http_reset(state: &SharedState, data: ResetData) -> Result<HttpResponse, ApiError> {
    let worker_state = state.clone();
    let label = state.openenv.new_label();
    let session = state
        .work
        .run(move || Session::start(&worker_state.registry, data, label))
        .await??;
    let result = session.reset_result();
    let id = result["observation"]["episode_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    state.openenv.insert(id, session)?;
    Ok(ok_json(&result))
}

/// The body of `POST /step`: OpenEnv's `StepRequest` plus the session id.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpStep {
    action: StepData,
    #[serde(default)]
    episode_id: Option<String>,
    #[serde(default)]
    timeout_s: Option<f64>,
    #[serde(default)]
    request_id: Option<String>,
}

/// `POST /step`.
pub async fn http_step(state: &SharedState, body: HttpStep) -> Result<HttpResponse, ApiError> {
    let _ = (body.timeout_s, body.request_id);
    let id = body.episode_id.ok_or_else(|| {
        ApiError::bad_request(
            "`/step` needs the `episode_id` that `/reset` answered (in its observation); \
             or use the WebSocket session at /ws",
        )
    })?;
    let session = state.openenv.get(&id)?;
    let action = body.action;
    let result = state
        .work
        .run(move || {
            let mut session = session.lock().unwrap_or_else(|p| p.into_inner());
            session.step(action)
        })
        .await??;
    Ok(ok_json(&result))
}

/// `GET /state[?episode_id=ID]`: the session's state (a fresh one's without).
pub fn http_state(state: &SharedState, query: Option<&str>) -> Result<HttpResponse, ApiError> {
    let id = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .find_map(|pair| pair.strip_prefix("episode_id="));
    match id {
        None => Ok(ok_json(&json!({"episode_id": null, "step_count": 0}))),
        Some(id) => {
            let session = state.openenv.get(id)?;
            let session = session.lock().unwrap_or_else(|p| p.into_inner());
            Ok(ok_json(&session.state()))
        }
    }
}

pub fn health() -> HttpResponse {
    ok_json(&json!({"status": "healthy"}))
}

pub fn metadata(state: &SharedState) -> HttpResponse {
    ok_json(&json!({
        "name": "verigym",
        "description": format!(
            "{} verifiable-reward environments (math, code, logic, tools, web, games). \
             Choose one per session: reset(env_id=\"logic/sudoku-v1\", seed=3); games take \
             seat= and opponent=. GET /v1/envs lists the ids.",
            state.registry.entries().len()
        ),
        "version": env!("CARGO_PKG_VERSION"),
        "author": "verigym",
        "documentation_url": null,
        "readme_content": null,
    }))
}

/// `GET /schema`: JSON schemas of the action, observation and state.
pub fn schema() -> HttpResponse {
    ok_json(&json!({
        "action": {
            "title": "VerigymAction", "type": "object", "required": ["action"],
            "additionalProperties": false,
            "properties": {
                "action": {"type": "string", "description": "The reply text (or the move)."},
                "player": {"type": "integer", "description": "Who acts (trainer sessions only)."},
                "metadata": {"type": "object"}
            }
        },
        "observation": {
            "title": "VerigymObservation", "type": "object",
            "properties": {
                "text": {"type": "string"}, "structured": {},
                "legal_actions": {"type": ["array", "null"], "items": {"type": "string"}},
                "tools": {"type": "array", "description": "OpenAI function schemas, where the env has tools."},
                "env_id": {"type": "string"}, "episode_id": {"type": "string"},
                "view": {"description": "Whose view: a seat number, or \"all\"."},
                "current_player": {"type": ["integer", "null"]},
                "to_move": {"type": "array", "items": {"type": "integer"}},
                "metadata": {"type": "object", "description": "terminated, truncated, step_count, invalid_actions, invalid_action, score; scores once over."}
            }
        },
        "state": {
            "title": "VerigymState", "type": "object",
            "properties": {
                "episode_id": {"type": ["string", "null"]},
                "step_count": {"type": "integer", "minimum": 0},
                "env_id": {"type": "string"}, "players": {"type": "integer"},
                "seat": {}, "to_move": {"type": "array"}, "done": {"type": "boolean"}
            }
        }
    }))
}

/// `POST /mcp`: no MCP tools are exposed (tools are part of each env's
/// observation); answers JSON-RPC so that clients and `openenv validate`
/// get a well-formed reply.
pub fn mcp(body: &[u8]) -> HttpResponse {
    let request: Option<Value> = serde_json::from_slice(body).ok();
    let id = request
        .as_ref()
        .and_then(|r| r.get("id"))
        .cloned()
        .unwrap_or(Value::Null);
    let method = request
        .as_ref()
        .and_then(|r| r.get("method"))
        .and_then(Value::as_str);
    let answer = match (request.as_ref(), method) {
        (None, _) => json!({"code": -32700, "message": "parse error: the body is not JSON"}),
        (Some(_), Some("tools/list")) => {
            return ok_json(&json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}));
        }
        (Some(_), Some(other)) => json!({"code": -32601, "message": format!(
            "method `{other}` not found: verigym serves tools inside each env's observation; \
             use /ws or /reset and /step"
        )}),
        (Some(_), None) => json!({"code": -32600, "message": "invalid request: no `method`"}),
    };
    ok_json(&json!({"jsonrpc": "2.0", "id": id, "error": answer}))
}

/// The OpenEnv routes for `/openapi.json`.
pub fn openapi_paths() -> Vec<(&'static str, Value)> {
    let object = json!({"type": "object"});
    let answer =
        |d: &str| json!({"description": d, "content": {"application/json": {"schema": object}}});
    let body = json!({"content": {"application/json": {"schema": object}}});
    vec![
        (
            "/reset",
            json!({"post": {"summary": "OpenEnv reset: start a session (env_id and seed, or card; seat, opponent, view).",
            "requestBody": body, "responses": {"200": answer("{observation, reward, done}")}}}),
        ),
        (
            "/step",
            json!({"post": {"summary": "OpenEnv step: {action: {action: TEXT}, episode_id}.",
            "requestBody": body, "responses": {"200": answer("{observation, reward, done}")}}}),
        ),
        (
            "/state",
            json!({"get": {"summary": "OpenEnv state (?episode_id=ID).",
            "responses": {"200": answer("State")}}}),
        ),
        (
            "/schema",
            json!({"get": {"summary": "Action, observation and state JSON schemas.",
            "responses": {"200": answer("Schemas")}}}),
        ),
        (
            "/health",
            json!({"get": {"summary": "OpenEnv health.", "responses": {"200": answer("{status: healthy}")}}}),
        ),
        (
            "/metadata",
            json!({"get": {"summary": "OpenEnv metadata.", "responses": {"200": answer("{name, description, ...}")}}}),
        ),
        (
            "/mcp",
            json!({"post": {"summary": "JSON-RPC; no MCP tools are exposed.",
            "requestBody": body, "responses": {"200": answer("JSON-RPC response")}}}),
        ),
        (
            "/ws",
            json!({"get": {"summary": "OpenEnv WebSocket session: {type: reset|step|state|close, data}.",
            "responses": {"101": {"description": "Switching protocols"},
                          "503": answer("At capacity")}}}),
        ),
    ]
}
