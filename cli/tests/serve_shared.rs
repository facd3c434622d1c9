//! `verigym serve` shared by clients that do not trust each other
//! (DESIGN rule 10): episode ids and tokens are random credentials, a seat
//! is read or played only with its token, a missing seed is random and
//! hidden from the seats, and no request names a host path. Loopback only,
//! bounded in count and time.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verigym_cli::serve::{RunningServer, ServeOptions};

use crate::util::start_server as start;
use verigym_envs::Registry;

use crate::serve::call_as;
use crate::util::temp_file;

/// A request with an optional bearer token.
fn ask(
    server: &RunningServer,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (u16, Value) {
    call_as(
        &server.addr().to_string(),
        method,
        path,
        body.as_ref(),
        token,
    )
}

fn text(answer: &Value) -> String {
    answer["error"].as_str().unwrap_or_default().to_string()
}

fn is_credential(id: &str, prefix: &str) -> bool {
    id.len() == prefix.len() + 32
        && id.starts_with(prefix)
        && id[prefix.len()..].bytes().all(|c| c.is_ascii_hexdigit())
}

#[test]
fn a_seat_is_read_and_played_only_with_its_token() {
    let server = start(ServeOptions::default());
    let (status, created) = ask(
        &server,
        "POST",
        "/v1/episodes",
        Some(json!({"id": "games/kuhn-poker-v1"})),
        None,
    );
    assert_eq!(status, 200, "{created}");
    let id = created["episode_id"].as_str().unwrap().to_string();
    assert!(is_credential(&id, "ep-"), "{id}");
    let creator = created["tokens"]["creator"].as_str().unwrap().to_string();
    let seats: Vec<String> = created["tokens"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(seats.len(), 2);
    assert!(is_credential(&creator, "ct-") && is_credential(&seats[0], "st-"));
    let path = format!("/v1/episodes/{id}");
    let step = format!("{path}/step");

    // No token, a made-up token, another episode's token and an unknown id
    // all hear the same 404.
    let (_, other) = ask(
        &server,
        "POST",
        "/v1/episodes",
        Some(json!({"id": "games/kuhn-poker-v1"})),
        None,
    );
    let foreign = other["tokens"]["creator"].as_str().unwrap().to_string();
    let unknown_id = format!("ep-{}", "0".repeat(32));
    let (status, unknown) = ask(
        &server,
        "GET",
        &format!("/v1/episodes/{unknown_id}"),
        None,
        Some(&creator),
    );
    assert_eq!(status, 404);
    for token in [None, Some("st-nope"), Some(foreign.as_str())] {
        for (method, path, body) in [
            ("GET", path.as_str(), None),
            ("GET", &format!("{path}?player=0"), None),
            ("DELETE", path.as_str(), None),
            ("POST", step.as_str(), Some(json!({"action": "check"}))),
        ] {
            let (status, answer) = ask(&server, method, path, body, token);
            assert_eq!(status, 404, "{method} {path} with {token:?}: {answer}");
            assert_eq!(text(&answer), text(&unknown).replace(&unknown_id, &id));
        }
    }

    // Seat 1's token reads seat 1 only, in the seat view, without the seed
    // or the card id; it may not act for seat 0 or delete.
    let (status, mine) = ask(&server, "GET", &path, None, Some(&seats[1]));
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["info"]["view"], 1);
    assert!(
        mine.get("card_id").is_none() && mine.get("seed").is_none() && mine.get("tokens").is_none()
    );
    let (status, _) = ask(
        &server,
        "GET",
        &format!("{path}?player=0"),
        None,
        Some(&seats[1]),
    );
    assert_eq!(status, 403);
    let (status, _) = ask(
        &server,
        "POST",
        &step,
        Some(json!({"action": "check", "player": 0})),
        Some(&seats[1]),
    );
    assert_eq!(status, 403);
    let (status, _) = ask(&server, "DELETE", &path, None, Some(&seats[1]));
    assert_eq!(status, 403);
    // Seat 1 acting out of turn is refused by the game, not by the token.
    let (status, _) = ask(
        &server,
        "POST",
        &step,
        Some(json!({"action": "check"})),
        Some(&seats[1]),
    );
    assert_eq!(status, 409);

    // The seats play with their own tokens until the end; then the card id
    // (with its seed) opens to everyone.
    let mut last = mine;
    for turn in 0..8 {
        let mover =
            ask(&server, "GET", &path, None, Some(&creator)).1["info"]["current_player"].clone();
        let Some(mover) = mover.as_u64() else { break };
        let token = &seats[mover as usize];
        let (_, view) = ask(&server, "GET", &path, None, Some(token));
        assert_eq!(view["info"]["view"], mover, "turn {turn}");
        let action = view["observation"]["legal_actions"][0]
            .as_str()
            .unwrap()
            .to_string();
        let (status, answer) = ask(
            &server,
            "POST",
            &step,
            Some(json!({"action": action})),
            Some(token),
        );
        assert_eq!(status, 200, "{answer}");
        last = answer;
    }
    assert_eq!(last["terminated"], true, "{last}");
    let (_, seat_end) = ask(&server, "GET", &path, None, Some(&seats[0]));
    assert!(seat_end["card_id"].is_string(), "{seat_end}");
    // Only the creator deletes.
    let (status, deleted) = ask(&server, "DELETE", &path, None, Some(&creator));
    assert_eq!((status, &deleted["deleted"]), (200, &json!(true)));
}

#[test]
fn the_trainer_view_and_the_seed_are_the_creators_only() {
    let server = start(ServeOptions::default());
    let body = json!({"id": "games/kuhn-poker-v1", "view": "all"});
    let (_, a) = ask(&server, "POST", "/v1/episodes", Some(body.clone()), None);
    let (_, b) = ask(&server, "POST", "/v1/episodes", Some(body), None);
    // No seed: a fresh random one each time, told to the creator.
    let (seed_a, seed_b) = (a["seed"].as_u64().unwrap(), b["seed"].as_u64().unwrap());
    assert_ne!(seed_a, seed_b);
    assert_eq!(a["info"]["view"], "all");
    let path = format!("/v1/episodes/{}", a["episode_id"].as_str().unwrap());
    let creator = a["tokens"]["creator"].as_str().unwrap();
    let (_, all) = ask(&server, "GET", &path, None, Some(creator));
    assert_eq!(all["info"]["view"], "all");
    assert!(all["card_id"].is_string(), "{all}");
    let seat = a["tokens"]["seats"][0].as_str().unwrap();
    let (status, view) = ask(&server, "GET", &path, None, Some(seat));
    assert_eq!(status, 200);
    assert_eq!(
        view["info"]["view"], 0,
        "a seat token gets the seat view: {view}"
    );
    assert_eq!(view["observations"].as_object().unwrap().len(), 1);
    assert!(view.get("card_id").is_none() && view["info"].get("scores").is_none());
    assert!(!view.to_string().contains(&seed_a.to_string()));
    // A given seed is kept (and told back).
    let (_, fixed) = ask(
        &server,
        "POST",
        "/v1/episodes",
        Some(json!({"id": "logic/guess-number-v2", "seed": 5})),
        None,
    );
    assert_eq!(fixed["seed"], 5);
    // One-player envs: the seat token does not see the card id either.
    let path = format!("/v1/episodes/{}", fixed["episode_id"].as_str().unwrap());
    let (_, solo) = ask(
        &server,
        "GET",
        &path,
        None,
        fixed["tokens"]["seats"][0].as_str(),
    );
    assert!(solo.get("card_id").is_none(), "{solo}");
}

/// math/dataset-v1 cards drawn from the shipped samples, as a card set file.
fn card_set_file() -> std::path::PathBuf {
    let env = Registry::builtin().make("math/dataset-v1", None).unwrap();
    let lines: Vec<String> = (0..5)
        .map(|seed| serde_json::to_string(&env.generate(seed)).unwrap())
        .collect();
    temp_file("serve-shared-cards.jsonl", &(lines.join("\n") + "\n"))
}

#[test]
fn dataset_envs_read_only_registered_card_sets() {
    let pool = card_set_file();
    let server = start(ServeOptions {
        card_sets: vec![("pool".into(), pool.clone())],
        ..ServeOptions::default()
    });
    let generate = |cards: Value| {
        ask(
            &server,
            "POST",
            "/v1/generate",
            Some(json!({"id": "math/dataset-v1", "n": 2, "config": {"cards": cards}})),
            None,
        )
    };
    let (status, answer) = generate(json!("pool"));
    assert_eq!(status, 200, "{answer}");
    // A card made here carries the registered path, which is accepted back.
    let card = answer["cards"][0].clone();
    let (status, scored) = ask(
        &server,
        "POST",
        "/v1/score",
        Some(json!({"items": [{"card": card, "answer": "1"}]})),
        None,
    );
    assert_eq!(status, 200, "{scored}");

    // Any other value, whether the file exists, is private, is a device or
    // a FIFO, gets one message, at once.
    let fifo = std::env::temp_dir().join(format!("verigym-serve-fifo-{}", std::process::id()));
    let _ = std::process::Command::new("mkfifo").arg(&fifo).status();
    let secret = temp_file("serve-shared-secret.txt", "secret\n");
    let paths = [
        "/etc/passwd".to_string(),
        "/no/such/file".to_string(),
        "/dev/zero".to_string(),
        fifo.to_string_lossy().into_owned(),
        secret.to_string_lossy().into_owned(),
        "../pool".to_string(),
    ];
    let started = Instant::now();
    let mut messages = Vec::new();
    for path in &paths {
        let (status, answer) = generate(json!(path));
        assert_eq!(status, 400, "{path}: {answer}");
        messages.push(text(&answer));
        let mut bad_card = card.clone();
        bad_card["config"]["cards"] = json!(path);
        for (route, body) in [
            (
                "/v1/episodes",
                json!({"id": "math/dataset-v1", "config": {"cards": path}}),
            ),
            ("/v1/episodes", json!({"card": bad_card})),
            (
                "/v1/score",
                json!({"items": [{"card": bad_card, "answer": "1"}]}),
            ),
            (
                "/reset",
                json!({"env_id": "math/dataset-v1", "config": {"cards": path}}),
            ),
        ] {
            let (status, answer) = ask(&server, "POST", route, Some(body), None);
            assert_eq!(status, 400, "{route} {path}: {answer}");
            messages.push(text(&answer));
        }
    }
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(messages.iter().all(|m| *m == messages[0]), "{messages:#?}");
    assert!(!messages[0].contains("secret") && messages[0].contains("--cards NAME=PATH"));
    let _ = std::fs::remove_file(&fifo);
}

#[test]
fn the_binary_refuses_a_card_set_that_is_not_a_regular_file() {
    let out = crate::util::verigym(&["serve", "--addr", "127.0.0.1:0", "--cards", "z=/dev/zero"]);
    assert!(!out.status.success());
    assert!(
        crate::util::stderr(&out).contains("not a readable regular file"),
        "{}",
        crate::util::stderr(&out)
    );
}

#[test]
fn idle_episodes_expire_and_only_their_token_hears_so() {
    let server = start(ServeOptions {
        episode_ttl: Duration::from_millis(1000),
        ..ServeOptions::default()
    });
    let body = json!({"id": "logic/guess-number-v2"});
    let (_, episode) = ask(&server, "POST", "/v1/episodes", Some(body), None);
    let path = format!("/v1/episodes/{}", episode["episode_id"].as_str().unwrap());
    let token = episode["tokens"]["creator"].as_str().unwrap().to_string();
    // Use keeps it alive past the TTL.
    for _ in 0..4 {
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(ask(&server, "GET", &path, None, Some(&token)).0, 200);
    }
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(
        ask(&server, "GET", "/healthz", None, None).1["live_episodes"],
        0
    );
    let step = format!("{path}/step");
    let action = json!({"action": "50"});
    let (status, answer) = ask(&server, "POST", &step, Some(action.clone()), Some(&token));
    assert_eq!(status, 404);
    assert!(text(&answer).contains("expired"), "{answer}");
    let (status, answer) = ask(&server, "POST", &step, Some(action), Some("ct-other"));
    assert_eq!(status, 404);
    assert!(!text(&answer).contains("expired"), "{answer}");
}

#[test]
fn running_episodes_are_capped_and_finished_ones_free_their_place() {
    let server = start(ServeOptions {
        max_episodes: 2,
        ..ServeOptions::default()
    });
    let create = |id: &str| {
        ask(
            &server,
            "POST",
            "/v1/episodes",
            Some(json!({"id": id})),
            None,
        )
    };
    let (first, second) = (
        create("games/tictactoe-v1"),
        create("logic/guess-number-v2"),
    );
    assert_eq!((first.0, second.0), (200, 200));
    let (status, answer) = create("games/tictactoe-v1");
    assert_eq!(status, 429);
    assert!(text(&answer).contains("too many episodes"));
    let path = format!("/v1/episodes/{}", first.1["episode_id"].as_str().unwrap());
    let token = first.1["tokens"]["creator"].as_str().unwrap();
    assert_eq!(ask(&server, "DELETE", &path, None, Some(token)).0, 200);
    assert_eq!(create("games/tictactoe-v1").0, 200);
    assert_eq!(create("games/tictactoe-v1").0, 429);
    // Finish the guessing game (it forfeits after enough wrong guesses or
    // ends on the right one): it stops counting at once.
    let path = format!("/v1/episodes/{}", second.1["episode_id"].as_str().unwrap());
    let token = second.1["tokens"]["creator"].as_str().unwrap();
    let (mut lo, mut hi) = (1i64, 1_000_000i64);
    let mut view = second.1.clone();
    for _ in 0..64 {
        if view["terminated"] == true || view["truncated"] == true {
            break;
        }
        if let Some(bounds) = view["observation"]["structured"]["known_bounds"].as_array() {
            (lo, hi) = (bounds[0].as_i64().unwrap(), bounds[1].as_i64().unwrap());
        }
        let guess = json!({"action": lo + (hi - lo) / 2});
        view = ask(
            &server,
            "POST",
            &format!("{path}/step"),
            Some(guess),
            Some(token),
        )
        .1;
    }
    assert!(
        view["terminated"] == true || view["truncated"] == true,
        "{view}"
    );
    assert_eq!(create("games/tictactoe-v1").0, 200);
    // The finished one is still readable.
    assert_eq!(ask(&server, "GET", &path, None, Some(token)).0, 200);
}
