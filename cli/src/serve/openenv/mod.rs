//! OpenEnv (openenv-core 0.3) on `verigym serve`: the WebSocket session
//! protocol at `/ws` ([`ws`]) and the HTTP routes `/reset`, `/step`,
//! `/state`, `/schema`, `/health`, `/metadata` and `/mcp`, in the shapes of
//! `openenv/core/env_server/http_server.py` and `types.py`.
//!
//! OpenEnv serves one environment per server; here the `reset` payload
//! chooses it (`env_id` and `seed`, or a `card`; a bare reset plays
//! `--env`'s env with a random seed). OpenEnv's HTTP `/reset` and `/step`
//! build a fresh environment per call, which leaves `/step` nothing to act
//! on; here `/reset` keeps its session (under the cap and TTL of
//! `--max-episodes` / `--episode-ttl`) under a random id that the server
//! picks and answers as `episode_id`: the session's one credential, which
//! `/step`, `/state` and `/close` take. A step's `request_id` makes a retry
//! safe: the same id as the session's last step is answered as before.
//! WebSocket sessions live as long as their connection.

pub mod session;
pub mod store;
pub mod ws;

use serde::Deserialize;
use serde_json::{Value, json};

use super::SharedState;
use super::credentials::{new_credential, random_seed};
use super::error::{ApiError, HttpResponse, ok_json};
use super::work::{Admission, Lane};
use session::{ResetData, Session, StepData};
pub use store::{Sessions, WsFinished, WsTicket};

/// Readies a reset payload: a bare one gets the default env (`--env`, else
/// [`super::DEFAULT_OPENENV_ENV`]), an env without a seed a random one, and
/// config `cards` names the server's registered card sets.
///
/// # Errors
/// 400 for a config naming anything but a registered card set.
pub fn prepare_reset(state: &SharedState, data: &mut ResetData) -> Result<(), ApiError> {
    if data.env_id.is_none() && data.card.is_none() {
        let default = state.options.default_env.as_deref();
        data.env_id = Some(default.unwrap_or(super::DEFAULT_OPENENV_ENV).to_string());
    }
    if data.card.is_none() && data.seed.is_none() {
        data.seed = Some(random_seed()?);
    }
    state.card_sets.resolve_opt(data.config.as_mut())?;
    if let Some(card) = data.card.as_mut() {
        state.card_sets.resolve_card(card)?;
    }
    Ok(())
}

/// `POST /reset`: starts a session and keeps it for `/step` under a fresh
/// random id (a client's own `episode_id` never names a stored session).
pub async fn http_reset(
    state: &SharedState,
    admission: Admission,
    mut data: ResetData,
) -> Result<HttpResponse, ApiError> {
    prepare_reset(state, &mut data)?;
    state.openenv.check_room()?;
    let worker_state = state.clone();
    let id = new_credential("oe-")?;
    let label = id.clone();
    let session = state
        .work
        .run(admission, Lane::Interactive, move |_| {
            Session::start(&worker_state.registry, data, label)
        })
        .await??;
    let result = session.reset_result();
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
    /// A retried step with the same id as the session's last one is
    /// answered as before, without stepping again.
    #[serde(default)]
    request_id: Option<String>,
}

/// `POST /step`.
pub async fn http_step(
    state: &SharedState,
    admission: Admission,
    body: HttpStep,
) -> Result<HttpResponse, ApiError> {
    let _ = body.timeout_s;
    let id = body.episode_id.ok_or_else(|| {
        ApiError::bad_request(
            "`/step` needs the `episode_id` that `/reset` answered (in its observation); \
             or use the WebSocket session at /ws",
        )
    })?;
    let entry = state.openenv.get(&id)?;
    let (action, request_id) = (body.action, body.request_id);
    let result = state
        .work
        .run(admission, Lane::Interactive, move |_| {
            let mut last = entry.last_request.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(asked), Some((seen, answer))) = (&request_id, last.as_ref())
                && asked == seen
            {
                return Ok(answer.clone());
            }
            let mut session = entry.session.lock().unwrap_or_else(|p| p.into_inner());
            let result = session.step(action);
            entry.set_done(session.done());
            let result = result?;
            if let Some(asked) = request_id {
                *last = Some((asked, result.clone()));
            }
            Ok::<_, ApiError>(result)
        })
        .await??;
    Ok(ok_json(&result))
}

/// The body of `POST /close`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpClose {
    episode_id: String,
}

/// `POST /close`: ends an HTTP session at once (its place under the cap is
/// free); answers its last state.
pub fn http_close(state: &SharedState, body: HttpClose) -> Result<HttpResponse, ApiError> {
    let entry = state.openenv.remove(&body.episode_id)?;
    let session = entry.session.lock().unwrap_or_else(|p| p.into_inner());
    let mut answer = session.state();
    answer["closed"] = true.into();
    Ok(ok_json(&answer))
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
            let entry = state.openenv.get(id)?;
            let session = entry.session.lock().unwrap_or_else(|p| p.into_inner());
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
                "metadata": {"type": "object", "description": "The seat view's info (invalid_actions, retries_left, invalid_action, score, events; scores, prompt, card_id and seed once over) with terminated, truncated and step_count."}
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
            "/close",
            json!({"post": {"summary": "End an HTTP session at once: {episode_id}; answers its last state.",
            "requestBody": body, "responses": {"200": answer("State with closed: true"),
                                                "404": answer("Unknown or expired session")}}}),
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
            json!({"get": {"summary": "OpenEnv WebSocket session: {type: reset|step|state|close, data}. \
                At capacity the first message is OpenEnv's CAPACITY_REACHED error, then a close.",
            "responses": {"101": {"description": "Switching protocols"}}}}),
        ),
    ]
}
