//! OpenEnv's WebSocket session at `/ws`: hyper answers the upgrade, then
//! tokio-tungstenite speaks the frames on the upgraded connection.
//!
//! Client messages are `{"type": "reset" | "step" | "state" | "close",
//! "data": ...}`; answers are `{"type": "observation" | "state", "data"}`
//! or `{"type": "error", "data": {"message", "code"}}` with OpenEnv's
//! error codes (`INVALID_JSON`, `UNKNOWN_TYPE`, `VALIDATION_ERROR`,
//! `EXECUTION_ERROR`, `CAPACITY_REACHED`). A bad message never ends the
//! session. The connection closes with 1009 on a frame over `--max-body`,
//! 1001 when idle past `--episode-ttl` or at server shutdown, and 1000 on
//! `close`. At capacity the upgrade is accepted and answered as OpenEnv's
//! own server answers it: one `CAPACITY_REACHED` error message (its text,
//! `active_sessions` and `max_sessions`), then a close (1000), so OpenEnv
//! clients raise their usual capacity error instead of a handshake failure.

use futures_util::{SinkExt, StreamExt};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::session::{ResetData, Session, StepData};
use super::{WsFinished, WsTicket};
use crate::serve::SharedState;
use crate::serve::error::{ApiError, HttpResponse, json_response};
use crate::serve::work::Lane;

/// Answers the upgrade request and starts the session task.
///
/// # Errors
/// 400 for a request that is not a WebSocket upgrade.
pub fn upgrade(
    state: &SharedState,
    mut request: Request<Incoming>,
) -> Result<HttpResponse, ApiError> {
    let headers = request.headers();
    let wants_websocket = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .map(|k| derive_accept_key(k.as_bytes()));
    let (true, Some(accept)) = (wants_websocket, key) else {
        return Err(ApiError::bad_request(
            "/ws is OpenEnv's WebSocket session: connect with a WebSocket client (e.g. \
             openenv's EnvClient) or use POST /reset and /step",
        ));
    };
    let ticket = state.openenv.admit_websocket(state);
    let upgraded = hyper::upgrade::on(&mut request);
    let task_state = state.clone();
    let peer = request
        .extensions()
        .get::<std::sync::Arc<crate::serve::conn::PeerConnection>>()
        .cloned();
    tokio::spawn(async move {
        let _peer = peer;
        if let Ok(upgraded) = upgraded.await {
            let max = task_state.options.max_body;
            let config = WebSocketConfig::default()
                .max_message_size(Some(max))
                .max_frame_size(Some(max));
            let socket = WebSocketStream::from_raw_socket(
                TokioIo::new(upgraded),
                Role::Server,
                Some(config),
            )
            .await;
            match ticket {
                Ok(ticket) => run_session(task_state, socket, ticket).await,
                Err(_) => refuse_at_capacity(&task_state, socket).await,
            }
        }
    });
    let mut response = json_response(StatusCode::SWITCHING_PROTOCOLS, "");
    let headers = response.headers_mut();
    headers.remove(header::CONTENT_TYPE);
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    headers.insert(
        header::SEC_WEBSOCKET_ACCEPT,
        HeaderValue::from_str(&accept).map_err(|e| ApiError::internal(e.to_string()))?,
    );
    Ok(response)
}

fn error_message(code: &str, message: impl Into<String>) -> Value {
    json!({"type": "error", "data": {"message": message.into(), "code": code}})
}

/// The OpenEnv error code for a failed reset or step.
fn code_of(error: &ApiError) -> &'static str {
    match error.status {
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS => "CAPACITY_REACHED",
        StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND => "VALIDATION_ERROR",
        _ => "EXECUTION_ERROR",
    }
}

type Socket = WebSocketStream<TokioIo<hyper::upgrade::Upgraded>>;

async fn close(socket: &mut Socket, code: CloseCode, reason: &str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.close(Some(frame)).await;
}

/// OpenEnv's answer when no session is free: openenv-core 0.3.0's
/// `SessionCapacityError` as a `CAPACITY_REACHED` error message, then a
/// normal close. The close waits (a few seconds at most) for the client's
/// first message: OpenEnv's client sends its reset before it reads, and a
/// close that came first would fail that send with "connection closed"
/// instead of letting it read the capacity error.
async fn refuse_at_capacity(state: &SharedState, mut socket: Socket) {
    let (active, max) = (
        state.openenv.live().max(state.openenv.cap()),
        state.openenv.cap(),
    );
    let answer = json!({"type": "error", "data": {
        "message": format!(
            "Server at capacity: {active}/{max} sessions active. Cannot accept new connections."
        ),
        "code": "CAPACITY_REACHED",
        "active_sessions": active,
        "max_sessions": max,
    }});
    if socket
        .send(Message::text(answer.to_string()))
        .await
        .is_err()
    {
        return;
    }
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next()).await;
    close(
        &mut socket,
        CloseCode::Normal,
        "at capacity (--max-episodes); retry later",
    )
    .await;
}

/// Reads messages until `close`, a disconnect, idleness or shutdown; the
/// session (and its place under the cap) goes with the task.
async fn run_session(state: SharedState, mut socket: Socket, ticket: WsTicket) {
    let _ticket = ticket;
    let mut session = Live::default();
    let mut stopping = state.stopping.subscribe();
    let ttl = state.options.episode_ttl;
    loop {
        if *stopping.borrow() {
            close(&mut socket, CloseCode::Away, "the server is shutting down").await;
            return;
        }
        let next = tokio::time::timeout(ttl, async {
            let stopped = stopping.wait_for(|stop| *stop);
            let mut stopped = std::pin::pin!(stopped);
            let mut read = socket.next();
            std::future::poll_fn(|cx| {
                if stopped.as_mut().poll(cx).is_ready() {
                    return std::task::Poll::Ready(None);
                }
                std::pin::Pin::new(&mut read).poll(cx).map(Some)
            })
            .await
        })
        .await;
        let message = match next {
            Err(_) => {
                close(&mut socket, CloseCode::Away, "idle past --episode-ttl").await;
                return;
            }
            // Shutdown: the loop head closes.
            Ok(None) => continue,
            Ok(Some(None)) => return,
            Ok(Some(Some(Ok(message)))) => message,
            Ok(Some(Some(Err(WsError::Capacity(e))))) => {
                let reason = format!("frame too large ({e}); the limit is --max-body");
                close(&mut socket, CloseCode::Size, &reason).await;
                return;
            }
            Ok(Some(Some(Err(_)))) => return,
        };
        let text = match message {
            Message::Text(text) => text.to_string(),
            Message::Binary(bytes) => match String::from_utf8(bytes.to_vec()) {
                Ok(text) => text,
                Err(_) => {
                    let answer = error_message("INVALID_JSON", "a binary frame that is not UTF-8");
                    if socket
                        .send(Message::text(answer.to_string()))
                        .await
                        .is_err()
                    {
                        return;
                    }
                    continue;
                }
            },
            Message::Close(_) => return,
            _ => continue,
        };
        let (answer, closing) = answer_message(&state, &mut session, &text).await;
        if let Some(answer) = answer
            && socket
                .send(Message::text(answer.to_string()))
                .await
                .is_err()
        {
            return;
        }
        if closing {
            close(&mut socket, CloseCode::Normal, "closed by the client").await;
            return;
        }
    }
}

/// The connection's episode, and while that is over, the mark that keeps it
/// off the cap.
#[derive(Default)]
struct Live {
    session: Option<std::sync::Arc<std::sync::Mutex<Session>>>,
    finished: Option<WsFinished>,
}

/// One message's answer (none for `close`) and whether the session ends.
async fn answer_message(
    state: &SharedState,
    session: &mut Live,
    text: &str,
) -> (Option<Value>, bool) {
    let message: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return (
                Some(error_message("INVALID_JSON", format!("Invalid JSON: {e}"))),
                false,
            );
        }
    };
    let kind = message.get("type").and_then(Value::as_str).unwrap_or("");
    let data = message.get("data").cloned();
    let outcome = match kind {
        "reset" => reset(state, session, data).await,
        "step" => step(state, session, data).await,
        "state" => match &session.session {
            Some(s) => Ok(json!({
                "type": "state",
                "data": s.lock().unwrap_or_else(|p| p.into_inner()).state()
            })),
            None => Ok(json!({"type": "state", "data": {"episode_id": null, "step_count": 0}})),
        },
        "close" => return (None, true),
        other => {
            return (
                Some(error_message(
                    "UNKNOWN_TYPE",
                    format!("Unknown message type: `{other}`; use reset, step, state or close"),
                )),
                false,
            );
        }
    };
    match outcome {
        Ok(answer) => (Some(answer), false),
        Err(error) => (Some(error_message(code_of(&error), error.message)), false),
    }
}

async fn reset(
    state: &SharedState,
    session: &mut Live,
    data: Option<Value>,
) -> Result<Value, ApiError> {
    // A session whose last episode is over holds no place: take one again.
    if session.finished.is_some() {
        state.openenv.check_room()?;
    }
    let mut data: ResetData = match data {
        None | Some(Value::Null) => ResetData::default(),
        Some(value) => serde_json::from_value(value)
            .map_err(|e| ApiError::bad_request(format!("bad reset data: {e}")))?,
    };
    super::prepare_reset(state, &mut data)?;
    // The session is the connection: the label names nothing stored, so a
    // client's own `episode_id` may be it.
    let label = match data.episode_id.clone() {
        Some(label) => label,
        None => crate::serve::credentials::new_credential("oe-")?,
    };
    let worker_state = state.clone();
    let started = state
        .work
        .admit_and_run(Lane::Interactive, move |_| {
            Session::start(&worker_state.registry, data, label)
        })
        .await??;
    let result = started.reset_result();
    session.finished = None;
    session.session = Some(std::sync::Arc::new(std::sync::Mutex::new(started)));
    Ok(json!({"type": "observation", "data": result}))
}

async fn step(
    state: &SharedState,
    live: &mut Live,
    data: Option<Value>,
) -> Result<Value, ApiError> {
    let Some(session) = live.session.clone() else {
        return Err(ApiError::bad_request(
            "no episode yet: send {\"type\": \"reset\", \"data\": {\"env_id\": ..., \"seed\": ...}} first",
        ));
    };
    let data: StepData = serde_json::from_value(data.unwrap_or(Value::Null)).map_err(|e| {
        ApiError::bad_request(format!(
            "bad step data: {e}; send {{\"type\": \"step\", \"data\": {{\"action\": \"TEXT\"}}}}"
        ))
    })?;
    let (result, done) = state
        .work
        .admit_and_run(Lane::Interactive, move |_| {
            let mut session = session.lock().unwrap_or_else(|p| p.into_inner());
            let result = session.step(data);
            (result, session.done())
        })
        .await?;
    if done && live.finished.is_none() {
        live.finished = Some(state.openenv.websocket_finished(state));
    }
    Ok(json!({"type": "observation", "data": result?}))
}
