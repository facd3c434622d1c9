//! A user's journey through the facade crate, end to end: make envs by id,
//! generate task cards into a JSONL file, score a model's answers from files,
//! import a public dataset, and serve the same envs over HTTP, with the
//! crate imported as a user imports it (`verigym::envs`, `verigym::verifiers`).
//! The README's crate example runs as a doctest of this crate (`src/lib.rs`).

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::{Value, json};
use verigym::envs::driver::OracleAgent;
use verigym::envs::generate::{OutputFormat, format_card, generate_cards};
use verigym::envs::score::score_answers;
use verigym::envs::shaping::Shaping;
use verigym::envs::{DriverConfig, Registry, TaskCard, run_episode};

/// One env of each kind a user meets: single-turn math and logic, a
/// multi-turn tool env, a web env and a guessing game with feedback.
const JOURNEY_ENVS: &[&str] = &[
    "math/arithmetic-v1@easy",
    "logic/mini-sudoku-v1@easy",
    "logic/countdown-v1@easy",
    "tools/calendar-v2@easy",
    "web/shop-v2@easy",
    "logic/guess-number-v2@easy",
];

/// Cards for every journey env, as the JSONL a user writes to disk.
fn journey_cards(registry: &Registry, seed: u64, per_env: usize) -> Vec<TaskCard> {
    JOURNEY_ENVS
        .iter()
        .flat_map(|id| {
            let env = registry.make(id, None).expect("a built-in env id");
            generate_cards(env.as_ref(), seed, per_env)
        })
        .collect()
}

/// The file `verigym generate --format FORMAT` writes.
fn jsonl(cards: &[TaskCard], format: OutputFormat) -> String {
    cards
        .iter()
        .map(|card| format_card(card, format) + "\n")
        .collect()
}

/// The actions an agent took in each card's episode, as a user records a
/// model's transcript: here the env's own oracle plays.
fn oracle_transcripts(registry: &Registry, cards: &[TaskCard]) -> Vec<Vec<String>> {
    cards
        .iter()
        .map(|card| {
            let mut env = registry.make_for_card(card).expect("the card's env");
            let config = DriverConfig {
                record_transcript: true,
                ..DriverConfig::default()
            };
            let result = run_episode(env.as_mut(), card, &mut [&mut OracleAgent], &config)
                .expect("the oracle plays the card");
            assert!(result.passed[0], "the oracle failed {}", card.id);
            result.transcript.into_iter().map(|m| m.action).collect()
        })
        .collect()
}

/// An answers file: each card's recorded actions, or `wrong` for every card.
fn answers_file(cards: &[TaskCard], actions: &[Vec<String>], wrong: Option<&str>) -> String {
    cards
        .iter()
        .zip(actions)
        .map(|(card, actions)| {
            let answer = match wrong {
                Some(text) => json!(text),
                None => json!(actions),
            };
            json!({"id": card.id, "answer": answer}).to_string() + "\n"
        })
        .collect()
}

#[test]
fn cards_written_to_a_file_score_their_references_and_only_them() {
    let registry = Registry::builtin();
    let cards = journey_cards(&registry, 11, 3);
    assert_eq!(cards.len(), 3 * JOURNEY_ENVS.len());
    // Chat rows are what a trainer reads; the card travels under `card`.
    let file = jsonl(&cards, OutputFormat::Chat);
    let actions = oracle_transcripts(&registry, &cards);

    let right = score_answers(
        &registry,
        &file,
        &answers_file(&cards, &actions, None),
        &Shaping::default(),
    );
    assert!(right.errors.is_empty(), "{:?}", right.errors);
    assert_eq!(right.scored.len(), cards.len());
    for scored in &right.scored {
        assert!(
            scored.passed,
            "the reference of {} failed: {scored:?}",
            scored.id
        );
    }

    for wrong in ["", "\\boxed{0} or \\boxed{1}", "I am not sure."] {
        let report = score_answers(
            &registry,
            &file,
            &answers_file(&cards, &actions, Some(wrong)),
            &Shaping::default(),
        );
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let passed: Vec<&str> = report
            .scored
            .iter()
            .filter(|s| s.passed)
            .map(|s| s.id.as_str())
            .collect();
        assert!(passed.is_empty(), "{wrong:?} passed {passed:?}");
    }
}

#[test]
fn a_card_replays_the_same_episode_after_a_round_trip_through_json() {
    let registry = Registry::builtin();
    for card in journey_cards(&registry, 5, 1) {
        let line = format_card(&card, OutputFormat::Card);
        let read: TaskCard = serde_json::from_str(&line).expect("a card line parses back");
        assert_eq!(read, card);
        let mut fresh = registry.make_for_card(&read).expect("the card's env");
        fresh.reset(&read).expect("the card resets its env");
        let regenerated = fresh.generate(card.seed);
        assert_eq!(
            regenerated, card,
            "{} is not a pure function of config and seed",
            card.id
        );
        assert_eq!(
            fresh.observe(0).expect("first observation").text,
            card.prompt
        );
    }
}

#[test]
fn an_imported_dataset_scores_its_golds_and_refuses_wrong_answers() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/samples/gsm8k.jsonl");
    let rows =
        verigym_import::read::read_lines(std::path::Path::new(path)).expect("the sample file");
    let layout: verigym_import::Layout = "gsm8k".parse().unwrap();
    let imported = verigym_import::import_lines(
        rows.into_iter(),
        &layout,
        &verigym_import::Options::new("gsm8k.jsonl"),
    );
    assert!(imported.cards.len() >= 3, "{:?}", imported.summary);
    let registry = Registry::builtin();
    let file = jsonl(&imported.cards, OutputFormat::Card);
    let actions = oracle_transcripts(&registry, &imported.cards);
    let right = score_answers(
        &registry,
        &file,
        &answers_file(&imported.cards, &actions, None),
        &Shaping::default(),
    );
    assert!(right.errors.is_empty(), "{:?}", right.errors);
    assert!(right.scored.iter().all(|s| s.passed), "{:?}", right.scored);
    let wrong = score_answers(
        &registry,
        &file,
        &answers_file(&imported.cards, &actions, Some("\\boxed{-1}")),
        &Shaping::default(),
    );
    assert!(wrong.scored.iter().all(|s| !s.passed), "{:?}", wrong.scored);
}

/// `POST path` with a JSON body to a server on loopback; the status and body.
fn post(addr: std::net::SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).expect("connect to the server");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read the answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    (
        status,
        serde_json::from_str(body).unwrap_or(Value::String(body.to_string())),
    )
}

#[test]
fn the_server_generates_the_same_cards_and_scores_them_as_offline() {
    let options = verigym_cli::serve::ServeOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..Default::default()
    };
    let server = verigym_cli::serve::RunningServer::start(options, Registry::builtin())
        .expect("start a server");
    let registry = Registry::builtin();
    for id in [
        "math/arithmetic-v1@easy",
        "logic/countdown-v1@easy",
        "tools/calendar-v2@easy",
    ] {
        let (status, generated) = post(
            server.addr(),
            "/v1/generate",
            &json!({"id": id, "n": 2, "seed": 3}),
        );
        assert_eq!(status, 200, "{generated}");
        let served: Vec<TaskCard> =
            serde_json::from_value(generated["cards"].clone()).expect("cards");
        let env = registry.make(id, None).unwrap();
        assert_eq!(
            served,
            generate_cards(env.as_ref(), 3, 2),
            "{id}: served cards differ from offline ones"
        );

        let actions = oracle_transcripts(&registry, &served);
        let items: Vec<Value> = served
            .iter()
            .zip(&actions)
            .flat_map(|(card, actions)| {
                [
                    json!({"card": card, "answer": actions}),
                    json!({"card": card, "answer": "\\boxed{0} or \\boxed{1}"}),
                ]
            })
            .collect();
        let (status, scored) = post(server.addr(), "/v1/score", &json!({ "items": items }));
        assert_eq!(status, 200, "{scored}");
        let results = scored["results"].as_array().expect("results");
        assert_eq!(results.len(), items.len());
        for (i, result) in results.iter().enumerate() {
            assert_eq!(
                result["passed"],
                json!(i % 2 == 0),
                "{id} item {i}: {result}"
            );
        }
    }
    server.shutdown().expect("the server stops");
}
