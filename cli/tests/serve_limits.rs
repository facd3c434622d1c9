//! `verigym serve`'s bounds on work, on 127.0.0.1: the job time budget and
//! the answer-size cap (each named in its refusal), generator configs with no
//! task answered 422 at once, bodies read inside their queue slot, a costly
//! generate beside a tic-tac-toe create, and the per-client connection cap.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verigym_cli::serve::{RunningServer, ServeOptions};

use crate::serve::call_as;
use crate::util::start_server as start;

fn post(server: &RunningServer, path: &str, body: &Value) -> (u16, Value) {
    call_as(&server.addr().to_string(), "POST", path, Some(body), None)
}

fn health(server: &RunningServer) -> Value {
    call_as(&server.addr().to_string(), "GET", "/healthz", None, None).1
}

fn error_text(answer: &Value) -> String {
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {answer}"))
        .to_string()
}

/// Polls until no admitted request holds a queue slot.
fn wait_until_idle(server: &RunningServer, within: Duration) -> Duration {
    let started = Instant::now();
    while server.stats().in_flight > 0 {
        assert!(
            started.elapsed() < within,
            "a job still holds its slot after {within:?}: {:?}",
            server.stats()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    started.elapsed()
}

/// Cards whose generation keeps a worker busy for a while each.
fn slow_generate(n: usize) -> Value {
    json!({"id": "logic/sudoku-v1@hard", "n": n, "seed": 1})
}

#[test]
fn a_job_past_its_time_budget_is_answered_503_naming_the_limit_and_stops() {
    let server = start(ServeOptions {
        job_timeout: Duration::from_millis(300),
        ..ServeOptions::default()
    });
    let started = Instant::now();
    let (status, answer) = post(&server, "/v1/generate", &slow_generate(100_000));
    let answered = started.elapsed();
    assert_eq!(status, 503, "{answer}");
    let message = error_text(&answer);
    assert!(message.contains("--job-timeout"), "{message}");
    assert!(message.contains("0.3 s"), "{message}");
    assert!(
        answered < Duration::from_secs(5),
        "answered after {answered:?}"
    );
    // The job stops at its next card: the slot is free long before the
    // 100,000 cards could have been made.
    wait_until_idle(&server, Duration::from_secs(5));
    assert_eq!(server.stats().timed_out, 1);
    // A request within budget still goes through.
    let (status, answer) = post(
        &server,
        "/v1/generate",
        &json!({"id": "math/arithmetic-v1", "n": 2}),
    );
    assert_eq!(status, 200, "{answer}");
}

#[test]
fn an_answer_over_the_size_cap_is_answered_413_naming_the_limit() {
    let server = start(ServeOptions {
        max_response: 200_000,
        ..ServeOptions::default()
    });
    let big = json!({"id": "math/arithmetic-v1", "n": 50_000});
    let (status, answer) = post(&server, "/v1/generate", &big);
    assert_eq!(status, 413, "{answer}");
    let message = error_text(&answer);
    assert!(
        message.contains("200000 bytes") && message.contains("--max-response"),
        "{message}"
    );
    wait_until_idle(&server, Duration::from_secs(5));
    let (status, answer) = post(
        &server,
        "/v1/generate",
        &json!({"id": "math/arithmetic-v1", "n": 5}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["cards"].as_array().unwrap().len(), 5);
}

/// A config that validates but has no task: answered 422 "no task within
/// budget" naming the field to relax, on generate and on episode creation,
/// at once (it used to panic: 500).
#[test]
fn a_generator_config_without_a_task_fails_fast_with_no_task_within_budget() {
    let server = start(ServeOptions::default());
    let config = json!({"min_crossings": 40});
    let started = Instant::now();
    let generate = json!({"id": "logic/river-crossing-v1", "n": 1, "seed": 3, "config": config});
    let (status, answer) = post(&server, "/v1/generate", &generate);
    assert_eq!(status, 422, "{answer}");
    let message = error_text(&answer);
    assert!(
        message.contains("no task within budget") && message.contains("min_crossings"),
        "{message}"
    );
    let create = json!({"id": "logic/river-crossing-v1", "seed": 3, "config": config});
    let (status, answer) = post(&server, "/v1/episodes", &create);
    assert_eq!(status, 422, "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.stats().panicked, 0);
}

/// Configs whose one task takes longer than the time budget to find (a
/// few seconds of search before they answer "no task within budget":
/// rush-hour at `min_moves: 30` ran 177 s before its work was bounded,
/// sokoban at `min_pushes: 30` panicked): answered 503 naming
/// `--job-timeout` when it passes, and the search stops inside the task
/// (the generators poll the cancel flag), so the slot is free at once.
#[test]
fn a_search_past_the_time_budget_stops_inside_the_task() {
    let server = start(ServeOptions {
        job_timeout: Duration::from_millis(200),
        ..ServeOptions::default()
    });
    let cases = [
        ("logic/rush-hour-v1", json!({"min_moves": 30})),
        ("logic/sokoban-v1", json!({"min_pushes": 30, "pulls": 200})),
    ];
    for (id, config) in cases {
        for path in ["/v1/generate", "/v1/episodes"] {
            let body = json!({"id": id, "n": 1, "seed": 3, "config": config});
            let body = if path == "/v1/episodes" {
                json!({"id": id, "seed": 3, "config": config})
            } else {
                body
            };
            let started = Instant::now();
            let (status, answer) = post(&server, path, &body);
            let answered = started.elapsed();
            assert_eq!(status, 503, "{id} {path}: {answer}");
            assert!(error_text(&answer).contains("--job-timeout"), "{answer}");
            assert!(
                answered < Duration::from_secs(10),
                "{id} {path}: {answered:?}"
            );
            let stopped = wait_until_idle(&server, Duration::from_secs(10));
            assert!(
                stopped < Duration::from_secs(10),
                "{id} {path}: {stopped:?}"
            );
        }
    }
    assert_eq!(server.stats().timed_out, 4, "{:?}", server.stats());
    assert_eq!(server.stats().panicked, 0);
}

/// Sends a request head declaring a body of `length` bytes and the first
/// `sent` of them, and leaves the connection open.
fn start_body(server: &RunningServer, length: usize, sent: usize) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    let head = format!(
        "POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&vec![b' '; sent]).unwrap();
    stream
}

#[test]
fn a_body_being_read_holds_its_queue_slot() {
    let server = start(ServeOptions {
        queue: 1,
        ..ServeOptions::default()
    });
    let mut slow = start_body(&server, 1_000_000, 1000);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.stats().accepted < 1 {
        assert!(
            Instant::now() < deadline,
            "the slow body was never admitted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Its slot is taken while the body trickles in: another body waits
    // for none of it and is refused at once.
    let small = json!({"id": "math/arithmetic-v1", "n": 1});
    let (status, answer) = post(&server, "/v1/generate", &small);
    assert_eq!(status, 503, "{answer}");
    assert!(error_text(&answer).starts_with("busy"), "{answer}");
    // The rest of the body arrives (not JSON for score): answered 400, and
    // the slot is free again.
    slow.write_all(&vec![b'x'; 1_000_000 - 1000]).unwrap();
    let mut head = [0u8; 12];
    slow.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 400");
    wait_until_idle(&server, Duration::from_secs(5));
    assert_eq!(post(&server, "/v1/generate", &small).0, 200);
}

/// The latency bound: a tic-tac-toe create answers within 1 s while
/// generates keep every batch thread busy for longer than that.
#[test]
fn a_costly_generate_does_not_hold_back_a_tictactoe_create() {
    let server = Arc::new(start(ServeOptions {
        job_timeout: Duration::from_secs(120),
        ..ServeOptions::default()
    }));
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let costly: Vec<_> = (0..threads)
        .map(|_| {
            let server = server.clone();
            std::thread::spawn(move || post(&server, "/v1/generate", &slow_generate(3000)))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.stats().accepted < threads as u64 {
        assert!(
            Instant::now() < deadline,
            "the generates were never admitted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(200));
    let mut slowest = Duration::ZERO;
    for seed in 0..5 {
        let started = Instant::now();
        let create = json!({"id": "games/tictactoe-v1", "seed": seed});
        let (status, answer) = post(&server, "/v1/episodes", &create);
        slowest = slowest.max(started.elapsed());
        assert_eq!(status, 200, "{answer}");
    }
    // The generates were still running: the creates did not wait for them.
    let still_running = server.stats().in_flight;
    assert!(
        still_running >= 1,
        "the generates ended before the creates; make them costlier"
    );
    assert!(
        slowest < Duration::from_secs(1),
        "a tic-tac-toe create took {slowest:?} beside {threads} costly generates"
    );
    for thread in costly {
        let (status, answer) = thread.join().unwrap();
        assert_eq!(status, 200, "{answer}");
    }
}

/// Reads a whole answer from a connection the server closes.
fn read_to_close(mut stream: TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    text
}

#[test]
fn one_client_address_holds_at_most_its_connection_cap() {
    let server = start(ServeOptions {
        max_conns_per_ip: 3,
        ..ServeOptions::default()
    });
    let open: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(server.addr()).unwrap())
        .collect();
    // Let the server count all three before the fourth.
    std::thread::sleep(Duration::from_millis(100));
    let mut fourth = TcpStream::connect(server.addr()).unwrap();
    fourth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let answer = read_to_close(fourth);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("--max-conns-per-ip"), "{answer}");
    assert!(answer.contains("limit is 3"), "{answer}");
    // One closes: a new connection is served again.
    drop(open);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut again = TcpStream::connect(server.addr()).unwrap();
        again
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        if read_to_close(again).starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the closed connections were never freed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(health(&server)["status"], "ok");
}
