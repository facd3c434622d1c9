//! OpenEnv's WebSocket sessions at `/ws`, with a plain WebSocket client:
//! a seat session, the session cap (OpenEnv's `CAPACITY_REACHED` message
//! then a close, freed on disconnect), idle expiry (close 1001), and
//! shutdown with sessions open.
//! The real openenv-core client is driven in python/tests/test_openenv.py.

use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};
use verigym_cli::serve::{RunningServer, ServeOptions};

use crate::util::start_server as start;

type Socket = WebSocket<TcpStream>;

fn connect(server: &RunningServer) -> Result<Socket, u16> {
    let stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    match tungstenite::client(format!("ws://{}/ws", server.addr()), stream) {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(response.status().as_u16())
        }
        Err(e) => panic!("handshake: {e}"),
    }
}

fn send(socket: &mut Socket, message: Value) -> Value {
    socket.send(Message::text(message.to_string())).unwrap();
    loop {
        match socket.read().unwrap() {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => continue,
        }
    }
}

/// Connects to a full server: the upgrade is accepted and answered as
/// openenv-core 0.3.0's server answers it, one `CAPACITY_REACHED` error
/// (its message, `active_sessions`, `max_sessions`), then a normal close
/// once the client has sent its first message.
fn assert_refused_at_capacity(server: &RunningServer, max: u64) {
    let mut socket = connect(server).expect("the upgrade is accepted even when full");
    let error = match socket.read().unwrap() {
        Message::Text(text) => serde_json::from_str::<Value>(&text).unwrap(),
        other => panic!("expected the capacity error, got {other:?}"),
    };
    assert_eq!(error["type"], "error", "{error}");
    let data = &error["data"];
    assert_eq!(data["code"], "CAPACITY_REACHED", "{error}");
    assert_eq!(data["max_sessions"], max, "{error}");
    assert!(data["active_sessions"].as_u64().unwrap() >= max, "{error}");
    assert_eq!(
        data["message"],
        format!(
            "Server at capacity: {}/{max} sessions active. Cannot accept new connections.",
            data["active_sessions"]
        )
    );
    let reset = json!({"type": "reset", "data": {"env_id": "logic/guess-number-v2"}});
    socket.send(Message::text(reset.to_string())).unwrap();
    assert_eq!(close_code(&mut socket), Some(CloseCode::Normal));
}

/// The close code the server ends with (reading until the close frame).
fn close_code(socket: &mut Socket) -> Option<CloseCode> {
    loop {
        match socket.read() {
            Ok(Message::Close(frame)) => return frame.map(|f| f.code),
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}

#[test]
fn a_seat_session_sees_its_own_view_and_every_score_only_at_the_end() {
    let server = start(ServeOptions::default());
    let mut socket = connect(&server).unwrap();
    let reset =
        json!({"type": "reset", "data": {"env_id": "games/kuhn-poker-v1", "seed": 7, "seat": 1}});
    let mut answer = send(&mut socket, reset);
    assert_eq!(answer["type"], "observation", "{answer}");
    let mut steps = 0;
    while answer["data"]["done"] == false {
        let observation = &answer["data"]["observation"];
        assert_eq!(observation["view"], 1);
        assert!(observation["metadata"].get("scores").is_none());
        let action = observation["legal_actions"][0]
            .as_str()
            .unwrap()
            .to_string();
        answer = send(
            &mut socket,
            json!({"type": "step", "data": {"action": action}}),
        );
        steps += 1;
    }
    assert!(steps >= 1);
    let metadata = &answer["data"]["observation"]["metadata"];
    assert_eq!(metadata["scores"].as_array().unwrap().len(), 2);
    let state = send(&mut socket, json!({"type": "state"}));
    assert_eq!(
        (&state["type"], &state["data"]["step_count"]),
        (&json!("state"), &json!(steps))
    );
    let after = send(
        &mut socket,
        json!({"type": "step", "data": {"action": "check"}}),
    );
    assert_eq!(after["type"], "error");
    assert!(
        after["data"]["message"].as_str().unwrap().contains("over"),
        "{after}"
    );
    socket
        .send(Message::text(json!({"type": "close"}).to_string()))
        .unwrap();
    assert_eq!(close_code(&mut socket), Some(CloseCode::Normal));
}

fn live_sessions(server: &RunningServer) -> u64 {
    let body = ureq::get(format!("http://{}/healthz", server.addr()))
        .call()
        .unwrap()
        .body_mut()
        .read_to_string()
        .unwrap();
    serde_json::from_str::<Value>(&body).unwrap()["openenv_sessions"]
        .as_u64()
        .unwrap()
}

fn wait_for_no_sessions(server: &RunningServer) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while live_sessions(server) != 0 {
        assert!(Instant::now() < deadline, "sessions were not freed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_full_server_answers_openenvs_capacity_error_and_frees_a_session_on_disconnect() {
    let server = start(ServeOptions {
        max_episodes: 1,
        ..ServeOptions::default()
    });
    let first = connect(&server).unwrap();
    assert_refused_at_capacity(&server, 1);
    // An HTTP /reset counts against the same cap.
    let refused = ureq::post(format!("http://{}/reset", server.addr()))
        .config()
        .http_status_as_error(false)
        .build()
        .send(json!({"env_id": "logic/guess-number-v2"}).to_string())
        .unwrap();
    assert_eq!(refused.status().as_u16(), 503);
    drop(first);
    wait_for_no_sessions(&server);
    let mut again = connect(&server).unwrap();
    let answer = send(
        &mut again,
        json!({"type": "reset", "data": {"env_id": "logic/guess-number-v2"}}),
    );
    assert_eq!(answer["type"], "observation");
}

#[test]
fn an_idle_session_is_closed_with_1001_and_freed() {
    let server = start(ServeOptions {
        episode_ttl: Duration::from_millis(300),
        ..ServeOptions::default()
    });
    let mut socket = connect(&server).unwrap();
    assert_eq!(close_code(&mut socket), Some(CloseCode::Away));
    wait_for_no_sessions(&server);
}

#[test]
fn shutdown_closes_open_sessions_with_1001() {
    let server = start(ServeOptions::default());
    let mut socket = connect(&server).unwrap();
    send(
        &mut socket,
        json!({"type": "reset", "data": {"env_id": "games/tictactoe-v1"}}),
    );
    let started = Instant::now();
    let closing = std::thread::spawn(move || close_code(&mut socket));
    server.shutdown().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(closing.join().unwrap(), Some(CloseCode::Away));
}

#[test]
fn a_websocket_session_whose_episode_is_over_frees_its_place_until_its_next_reset() {
    let server = start(ServeOptions {
        max_episodes: 1,
        ..ServeOptions::default()
    });
    let mut first = connect(&server).unwrap();
    let reset = json!({"type": "reset", "data": {"env_id": "games/kuhn-poker-v1"}});
    let mut answer = send(&mut first, reset.clone());
    assert_refused_at_capacity(&server, 1);
    // "check" ends the hand, or forfeits it after refused retries.
    for _ in 0..20 {
        if answer["data"]["done"] == true {
            break;
        }
        answer = send(
            &mut first,
            json!({"type": "step", "data": {"action": "check"}}),
        );
    }
    assert_eq!(answer["data"]["done"], true, "{answer}");
    assert_eq!(live_sessions(&server), 0);
    let mut second = connect(&server).expect("a finished session holds no place");
    assert_eq!(send(&mut second, reset.clone())["type"], "observation");
    // The first one's next episode finds the place taken.
    let refused = send(&mut first, reset);
    assert_eq!(refused["data"]["code"], "CAPACITY_REACHED", "{refused}");
}
