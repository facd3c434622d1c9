//! `verigym serve`'s connections and OpenEnv HTTP sessions under sharing:
//! header-read and idle timeouts, random session ids that a client cannot
//! choose, `/close`, finished sessions off the cap, a refused step that
//! changes nothing, idempotent retries by `request_id`, and a bare reset.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verigym_cli::serve::{RunningServer, ServeOptions};

use crate::util::start_server as start;

use crate::serve::call_as;

fn post(server: &RunningServer, path: &str, body: Value) -> (u16, Value) {
    call_as(&server.addr().to_string(), "POST", path, Some(&body), None)
}

fn state_of(server: &RunningServer, id: &str) -> (u16, Value) {
    let path = format!("/state?episode_id={id}");
    call_as(&server.addr().to_string(), "GET", &path, None, None)
}

/// Reads until the server closes the connection; how long that took.
fn time_to_close(mut stream: TcpStream) -> Duration {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let started = Instant::now();
    let mut buffer = [0u8; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return started.elapsed(),
            Ok(_) => continue,
        }
    }
}

#[test]
fn a_connection_that_never_finishes_its_head_is_closed() {
    let server = start(ServeOptions {
        header_timeout: Duration::from_millis(300),
        ..ServeOptions::default()
    });
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert!(time_to_close(stream) < Duration::from_secs(5));
}

#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let server = start(ServeOptions {
        idle_timeout: Duration::from_millis(300),
        ..ServeOptions::default()
    });
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // The answer comes, then the idle connection is closed.
    let mut first = [0u8; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    assert!(time_to_close(stream) < Duration::from_secs(5));
}

#[test]
fn session_ids_are_random_and_a_client_cannot_take_anothers() {
    let server = start(ServeOptions::default());
    let (status, first) = post(
        &server,
        "/reset",
        json!({"env_id": "logic/guess-number-v2", "seed": 4}),
    );
    assert_eq!(status, 200, "{first}");
    let id = first["observation"]["episode_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(id.len() == 35 && id.starts_with("oe-"), "{id}");
    let (_, stepped) = post(
        &server,
        "/step",
        json!({"action": {"action": "50"}, "episode_id": id}),
    );
    assert_eq!(stepped["observation"]["metadata"]["step_count"], 1);
    // A reset naming the first session's id gets a session of its own.
    let (status, second) = post(
        &server,
        "/reset",
        json!({"env_id": "games/tictactoe-v1", "episode_id": id}),
    );
    assert_eq!(status, 200, "{second}");
    assert_ne!(second["observation"]["episode_id"], json!(id));
    let (_, state) = state_of(&server, &id);
    assert_eq!(
        (&state["env_id"], &state["step_count"]),
        (&json!("logic/guess-number-v2"), &json!(1))
    );
    // Made-up ids name nothing.
    for guess in ["oe-0-1", "oe-1-1", &format!("oe-{}", "0".repeat(32))] {
        let (status, _) = post(
            &server,
            "/step",
            json!({"action": {"action": "1"}, "episode_id": guess}),
        );
        assert_eq!(status, 404);
    }
}

#[test]
fn a_refused_step_changes_nothing_and_a_retried_one_is_answered_once() {
    let server = start(ServeOptions::default());
    let (_, reset) = post(
        &server,
        "/reset",
        json!({"env_id": "logic/guess-number-v2", "seed": 4}),
    );
    let id = reset["observation"]["episode_id"]
        .as_str()
        .unwrap()
        .to_string();
    for refused in [
        json!({"action": {"k": 1}}),
        json!({"action": "1", "player": 1}),
    ] {
        let (status, answer) = post(
            &server,
            "/step",
            json!({"action": refused, "episode_id": id}),
        );
        assert_eq!(status, 400, "{answer}");
    }
    assert_eq!(state_of(&server, &id).1["step_count"], 0);
    let step = json!({"action": {"action": "50"}, "episode_id": id, "request_id": "r-1"});
    let (_, once) = post(&server, "/step", step.clone());
    let (_, again) = post(&server, "/step", step);
    assert_eq!(once, again);
    assert_eq!(state_of(&server, &id).1["step_count"], 1);
    let (_, next) = post(
        &server,
        "/step",
        json!({"action": {"action": "25"}, "episode_id": id, "request_id": "r-2"}),
    );
    assert_eq!(next["observation"]["metadata"]["step_count"], 2);
}

/// Plays a seat session to its end (a refused action counts towards a
/// forfeit, so "check" always ends it); the last answer.
fn play_out(server: &RunningServer, id: &str) -> Value {
    for _ in 0..20 {
        let (status, answer) = post(
            server,
            "/step",
            json!({"action": {"action": "check"}, "episode_id": id}),
        );
        assert_eq!(status, 200, "{answer}");
        if answer["done"] == true {
            return answer;
        }
        assert!(answer["observation"]["metadata"].get("seed").is_none());
    }
    panic!("the game did not end");
}

#[test]
fn finished_and_closed_sessions_free_the_cap_at_once() {
    let server = start(ServeOptions {
        max_episodes: 1,
        ..ServeOptions::default()
    });
    let reset = json!({"env_id": "games/kuhn-poker-v1"});
    let (_, first) = post(&server, "/reset", reset.clone());
    let first_id = first["observation"]["episode_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(first["observation"]["metadata"].get("seed").is_none());
    assert_eq!(post(&server, "/reset", reset.clone()).0, 503);
    let end = play_out(&server, &first_id);
    // The random seed and the card id open once it is over.
    let metadata = &end["observation"]["metadata"];
    assert!(
        metadata["seed"].is_u64() && metadata["card_id"].is_string(),
        "{end}"
    );
    let (status, second) = post(&server, "/reset", reset.clone());
    assert_eq!(status, 200, "a finished session holds no place: {second}");
    let second_id = second["observation"]["episode_id"]
        .as_str()
        .unwrap()
        .to_string();
    // The finished one still answers its state until closed.
    assert_eq!(state_of(&server, &first_id).0, 200);
    let (status, closed) = post(&server, "/close", json!({"episode_id": second_id}));
    assert_eq!((status, &closed["closed"]), (200, &json!(true)));
    assert_eq!(
        post(
            &server,
            "/step",
            json!({"action": {"action": "check"}, "episode_id": second_id})
        )
        .0,
        404
    );
    assert_eq!(
        post(&server, "/close", json!({"episode_id": second_id})).0,
        404
    );
    assert_eq!(post(&server, "/reset", reset).0, 200);
}

#[test]
fn a_bare_reset_plays_the_default_env_and_unknown_fields_are_ignored() {
    let server = start(ServeOptions {
        default_env: Some("games/tictactoe-v1".into()),
        ..ServeOptions::default()
    });
    let (status, bare) = call_as(&server.addr().to_string(), "POST", "/reset", None, None);
    assert_eq!(status, 200, "{bare}");
    assert_eq!(bare["observation"]["env_id"], "games/tictactoe-v1");
    let (status, extra) = post(
        &server,
        "/reset",
        json!({"env_id": "logic/guess-number-v2", "some_future_field": 1}),
    );
    assert_eq!(status, 200, "{extra}");
    let (status, empty) = post(&server, "/reset", json!({}));
    assert_eq!(
        (status, &empty["observation"]["env_id"]),
        (200, &json!("games/tictactoe-v1"))
    );
    // Without --env, the documented default.
    let plain = start(ServeOptions::default());
    let (_, answer) = post(&plain, "/reset", json!({}));
    assert_eq!(
        answer["observation"]["env_id"],
        verigym_cli::serve::DEFAULT_OPENENV_ENV
    );
}
