//! `verigym serve` end to end: real HTTP on loopback (an ephemeral port),
//! in-process for most checks and as the shipped binary for the CLI
//! contract and graceful shutdown.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verigym_cli::serve::{ROUTES, RunningServer, ServeOptions};
use verigym_envs::generate::generate_cards;
use verigym_envs::score::score_answers;
use verigym_envs::{Registry, TaskCard};

use crate::util::verigym_command;

fn options() -> ServeOptions {
    ServeOptions {
        addr: "127.0.0.1:0".parse().unwrap(),
        ..ServeOptions::default()
    }
}

fn start(options: ServeOptions) -> RunningServer {
    RunningServer::start(options, Registry::builtin()).expect("start the server")
}

fn client() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(120)))
        .http_status_as_error(false)
        .build()
        .new_agent()
}

/// One request; the status and the JSON answer.
fn call(server: &str, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    call_as(server, method, path, body, None)
}

/// One request with `Authorization: Bearer TOKEN` when a token is given.
pub fn call_as(
    server: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> (u16, Value) {
    let agent = client();
    let url = format!("http://{server}{path}");
    let auth = token.map(|t| format!("Bearer {t}")).unwrap_or_default();
    let response = match (method, body) {
        ("GET", _) => agent.get(&url).header("authorization", &auth).call(),
        ("DELETE", _) => agent.delete(&url).header("authorization", &auth).call(),
        (_, Some(body)) => agent
            .post(&url)
            .header("authorization", &auth)
            .send(body.to_string()),
        (_, None) => agent.post(&url).header("authorization", &auth).send_empty(),
    };
    let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{method} {path} answered non-JSON ({e}): {text}"));
    (status, value)
}

fn get(server: &RunningServer, path: &str) -> (u16, Value) {
    call(&server.addr().to_string(), "GET", path, None)
}

fn post(server: &RunningServer, path: &str, body: Value) -> (u16, Value) {
    call(&server.addr().to_string(), "POST", path, Some(&body))
}

/// The creator token of a creation answer.
fn creator(episode: &Value) -> String {
    episode["tokens"]["creator"]
        .as_str()
        .unwrap_or_else(|| panic!("no creator token in {episode}"))
        .to_string()
}

fn error_text(answer: &Value) -> &str {
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {answer}"))
}

#[test]
fn lists_every_env_with_presets_and_levels() {
    let server = start(options());
    let (status, answer) = get(&server, "/v1/envs");
    assert_eq!(status, 200);
    let envs = answer["envs"].as_array().unwrap();
    assert_eq!(envs.len(), Registry::builtin().entries().len());
    let guess = envs
        .iter()
        .find(|e| e["id"] == "logic/guess-number-v2")
        .expect("guess-number listed");
    assert!(
        guess["presets"]
            .as_array()
            .unwrap()
            .contains(&json!("hard"))
    );
    assert!(guess["levels"].as_array().unwrap().len() >= 3);
    assert!(guess["default_config"].is_object());
    let (status, health) = get(&server, "/healthz");
    assert_eq!((status, health["status"].as_str()), (200, Some("ok")));
}

#[test]
fn generate_equals_the_cli_output_and_pages_with_offset() {
    let server = start(options());
    let cli = verigym_command()
        .args([
            "generate",
            "math/arithmetic-v1@hard",
            "--n",
            "40",
            "--seed",
            "7",
        ])
        .args(["--config", r#"{"digits": 3}"#])
        .output()
        .unwrap();
    assert!(
        cli.status.success(),
        "{}",
        String::from_utf8_lossy(&cli.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(cli.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 40);
    let request = json!({"id": "math/arithmetic-v1", "preset": "hard", "n": 40, "seed": 7,
                         "config": {"digits": 3}});
    let (status, answer) = post(&server, "/v1/generate", request);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["cards"].as_array().unwrap(), &lines);
    let (_, page) = post(
        &server,
        "/v1/generate",
        json!({"id": "math/arithmetic-v1@hard", "n": 10, "seed": 7, "offset": 25,
               "config": {"digits": 3}}),
    );
    assert_eq!(page["cards"].as_array().unwrap(), &lines[25..35]);
    let (_, chat) = post(
        &server,
        "/v1/generate",
        json!({"id": "logic/guess-number-v2", "n": 2, "format": "chat"}),
    );
    assert_eq!(chat["cards"][0]["messages"][1]["role"], "user");
    assert!(chat["cards"][0]["card"]["prompt"].is_string());
}

#[test]
fn unknown_envs_and_bad_input_are_json_errors_with_the_reason() {
    let server = start(options());
    let (status, answer) = post(
        &server,
        "/v1/generate",
        json!({"id": "math/arithmetc-v1", "n": 1}),
    );
    assert_eq!(status, 404);
    assert!(error_text(&answer).contains("did you mean `math/arithmetic-v1`"));
    let (status, answer) = post(&server, "/v1/generate", json!({"n": 1}));
    assert_eq!(status, 400);
    assert!(
        error_text(&answer).contains("missing field `id`"),
        "{answer}"
    );
    let addr = server.addr().to_string();
    let (status, answer) = call(&addr, "POST", "/v1/score", None);
    assert_eq!(status, 400);
    assert!(error_text(&answer).contains("bad JSON"));
    let (status, answer) = get(&server, "/v2/nothing");
    assert_eq!(status, 404);
    assert!(error_text(&answer).contains("/openapi.json"));
    let (status, answer) = get(&server, "/v1/score");
    assert_eq!(status, 405);
    assert!(error_text(&answer).contains("use POST"), "{answer}");
}

#[test]
fn error_bodies_carry_the_kind_of_the_error() {
    let server = start(options());
    let kind = |answer: &Value| answer["kind"].as_str().map(str::to_string);
    let (status, answer) = post(
        &server,
        "/v1/generate",
        json!({"id": "math/arithmetc-v1", "n": 1}),
    );
    assert_eq!(
        (status, kind(&answer).as_deref()),
        (404, Some("unknown_env"))
    );
    let (status, answer) = post(
        &server,
        "/v1/generate",
        json!({"id": "math/arithmetic-v1", "n": 1, "config": {"digits": 0}}),
    );
    assert_eq!(
        (status, kind(&answer).as_deref()),
        (400, Some("bad_config")),
        "{answer}"
    );
    // A card whose config was edited after generation: the card is bad.
    let mut card = Registry::builtin()
        .make("logic/guess-number-v2", None)
        .unwrap()
        .generate(1);
    card.config_hash = "0000".into();
    let (status, answer) = post(&server, "/v1/episodes", json!({ "card": card }));
    assert_eq!(
        (status, kind(&answer).as_deref()),
        (400, Some("bad_card")),
        "{answer}"
    );
    assert!(
        error_text(&answer).starts_with("bad task card: "),
        "{answer}"
    );
    // The server's own refusals name theirs, the rest their status's.
    let (status, answer) = post(&server, "/v1/generate", json!({"n": 1}));
    assert_eq!(
        (status, kind(&answer).as_deref()),
        (400, Some("bad_request"))
    );
    let (status, answer) = get(&server, "/v1/score");
    assert_eq!(
        (status, kind(&answer).as_deref()),
        (405, Some("method_not_allowed"))
    );
    // An unscored item of a batch carries its kind too.
    let (status, answer) = post(
        &server,
        "/v1/score",
        json!({"items": [{"card": {"prompt": "hi"}, "answer": "1"}]}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["results"][0]["kind"], "bad_card", "{answer}");
}

/// Cards of `id` with answers: the oracle's, a wrong one, empty, a
/// constant, the prompt echoed, the right answer padded with junk, and a
/// hedge listing the right answer among others.
fn answer_kinds(id: &str, n: usize) -> Vec<(TaskCard, &'static str, String)> {
    let registry = Registry::builtin();
    let env = registry.make(id, None).unwrap();
    let mut out = Vec::new();
    for card in generate_cards(&*env, 3, n) {
        let mut player = env.clone_box();
        player.reset(&card).unwrap();
        let right = player.oracle_action(0).unwrap();
        for (kind, answer) in [
            ("correct", right.clone()),
            ("wrong", "\\boxed{0.123456789}".to_string()),
            ("empty", String::new()),
            ("constant", "0".to_string()),
            ("echoed", card.prompt.clone()),
            ("padded", format!("{right} {}", "x ".repeat(2000))),
            // Two answers in answer position: the reference and a final-answer
            // statement of another value (prose after a box is not graded).
            (
                "hedged",
                format!("{right}\n\nThe final answer is 0.987654321."),
            ),
        ] {
            out.push((card.clone(), kind, answer));
        }
    }
    out
}

#[test]
fn batch_score_matches_verigym_score_and_only_correct_answers_pass() {
    let server = start(options());
    let items = answer_kinds("math/arithmetic-v1", 6);
    let mut request: Vec<Value> = items
        .iter()
        .map(|(card, _, answer)| json!({"card": card, "answer": answer}))
        .collect();
    // A chat completion is scored by its content.
    let (card, _, right) = &items[0];
    request.push(json!({"task": card, "response": {"choices": [{"message": {
        "role": "assistant", "content": right}}]}}));
    // A bad item is reported by index; the rest are still scored.
    request.push(json!({"card": {"id": "nonsense"}, "answer": "1"}));
    let (status, answer) = post(&server, "/v1/score", json!({ "items": request }));
    assert_eq!(status, 200, "{answer}");
    let results = answer["results"].as_array().unwrap();
    assert_eq!(results.len(), items.len() + 2);
    for ((_, kind, _), result) in items.iter().zip(results) {
        match *kind {
            "correct" => assert_eq!(result["passed"], true, "{kind}: {result}"),
            "wrong" | "empty" | "constant" | "echoed" => {
                assert_eq!(result["passed"], false, "{kind}: {result}")
            }
            _ => {} // padded, hedged: as `verigym score` says (checked below)
        }
        assert!(result["breakdown"].is_object());
    }
    assert_eq!(results[items.len()]["passed"], true);
    assert_eq!(results[items.len() + 1]["index"], items.len() + 1);
    assert!(error_text(&results[items.len() + 1]).contains("not a task card"));
    assert_eq!(answer["summary"]["errors"], 1);

    // Each kind of answer through `verigym score`'s code scores the same.
    let tasks: String = items
        .iter()
        .filter(|(_, kind, _)| *kind == "correct")
        .map(|(card, _, _)| card.to_json_line() + "\n")
        .collect();
    for wanted in [
        "correct", "wrong", "empty", "constant", "echoed", "padded", "hedged",
    ] {
        let answers: String = items
            .iter()
            .filter(|(_, kind, _)| *kind == wanted)
            .map(|(card, _, answer)| json!({"id": card.id, "answer": answer}).to_string() + "\n")
            .collect();
        let report = score_answers(&Registry::builtin(), &tasks, &answers, &Default::default());
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let served: Vec<&Value> = items
            .iter()
            .zip(results)
            .filter(|((_, kind, _), _)| *kind == wanted)
            .map(|(_, result)| result)
            .collect();
        let local: Vec<Value> = report
            .scored
            .iter()
            .map(|s| serde_json::to_value(s).unwrap())
            .collect();
        assert_eq!(served, local.iter().collect::<Vec<_>>(), "{wanted}");
    }
}

#[test]
fn a_multi_turn_episode_driven_by_its_observations_ends_solved() {
    let server = start(options());
    let (status, episode) = post(
        &server,
        "/v1/episodes",
        json!({"id": "logic/guess-number-v2@hard", "seed": 11}),
    );
    assert_eq!(status, 200, "{episode}");
    let id = episode["episode_id"].as_str().unwrap().to_string();
    let token = creator(&episode);
    let addr = server.addr().to_string();
    let post = |_: &RunningServer, path: &str, body: Value| {
        call_as(&addr, "POST", path, Some(&body), Some(&token))
    };
    let get = |_: &RunningServer, path: &str| call_as(&addr, "GET", path, None, Some(&token));
    assert_eq!(episode["info"]["current_player"], 0);
    assert!(
        episode["observation"]["text"]
            .as_str()
            .unwrap()
            .contains("Guess it")
    );
    let step = format!("/v1/episodes/{id}/step");
    // An invalid action is refused and changes nothing.
    let (status, refused) = post(&server, &step, json!({"action": "a big number"}));
    assert_eq!(status, 400);
    assert!(error_text(&refused).contains("invalid action"));
    let mut observation = episode["observation"].clone();
    let mut turns = 0;
    loop {
        // Binary search on the bounds the observation reports.
        let bounds = &observation["structured"]["known_bounds"];
        let (lo, hi) = (bounds[0].as_i64().unwrap(), bounds[1].as_i64().unwrap());
        let (status, answer) = post(&server, &step, json!({"action": lo + (hi - lo) / 2}));
        assert_eq!(status, 200, "{answer}");
        turns += 1;
        assert_eq!(answer["info"]["steps"], turns);
        if answer["terminated"] == true {
            assert_eq!(answer["reward"], 1.0);
            assert_eq!(answer["info"]["scores"][0]["passed"], true);
            assert_eq!(answer["info"]["invalid_actions"], 1);
            break;
        }
        assert_eq!(answer["reward"], 0.0);
        assert_eq!(answer["truncated"], false);
        observation = answer["observation"].clone();
        assert!(turns < 64, "binary search did not finish");
    }
    let (status, over) = post(&server, &step, json!({"action": "5"}));
    assert_eq!(status, 409);
    assert!(error_text(&over).contains("over"));
    let (status, shown) = get(&server, &format!("/v1/episodes/{id}"));
    assert_eq!((status, &shown["terminated"]), (200, &json!(true)));
}

#[test]
fn a_full_tictactoe_game_with_both_players() {
    let server = start(options());
    let registry = Registry::builtin();
    let card = registry
        .make("games/tictactoe-v1", None)
        .unwrap()
        .generate(5);
    // The trainer view: each answer shows the next mover's observation.
    let (status, game) = post(
        &server,
        "/v1/episodes",
        json!({ "card": card, "view": "all" }),
    );
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["players"], 2);
    let id = game["episode_id"].as_str().unwrap().to_string();
    let token = creator(&game);
    let addr = server.addr().to_string();
    let post = |_: &RunningServer, path: &str, body: Value| {
        call_as(&addr, "POST", path, Some(&body), Some(&token))
    };
    let step = format!("/v1/episodes/{id}/step");
    let (status, answer) = post(&server, &step, json!({"player": 1, "action": "1"}));
    assert_eq!(status, 409, "O moved first: {answer}");
    // Each player takes the first legal cell its own observation offers:
    // X 1, O 2, X 3, O 4, X 5, O 6, X 7 (X wins on the 3-5-7 diagonal).
    let mut view = game;
    let mut moves = Vec::new();
    while view["terminated"] == false {
        let player = view["info"]["current_player"].as_u64().unwrap();
        let legal = &view["observations"][player.to_string()]["legal_actions"];
        let cell = legal[0].as_str().unwrap().to_string();
        let (status, next) = post(&server, &step, json!({"player": player, "action": cell}));
        assert_eq!(status, 200, "{next}");
        assert_eq!(next["player"], player);
        moves.push(cell);
        view = next;
    }
    assert_eq!(moves, ["1", "2", "3", "4", "5", "6", "7"]);
    assert_eq!(view["rewards"], json!([1.0, -1.0]));
    assert_eq!(view["info"]["scores"][0]["passed"], true);
    assert_eq!(view["info"]["scores"][1]["passed"], false);
    assert_eq!(view["info"]["to_move"], json!([]));
    assert_eq!(view["observations"].as_object().unwrap().len(), 2);
    let path = format!("/v1/episodes/{id}");
    let (status, deleted) = call_as(&addr, "DELETE", &path, None, Some(&token));
    assert_eq!((status, &deleted["deleted"]), (200, &json!(true)));
    let (status, gone) = call_as(&addr, "GET", &path, None, Some(&token));
    assert_eq!(status, 404);
    assert!(error_text(&gone).contains("no episode"));
}

#[test]
fn a_body_over_the_limit_answers_413() {
    let server = start(ServeOptions {
        max_body: 4096,
        ..options()
    });
    let card = generate_cards(
        &*Registry::builtin()
            .make("math/arithmetic-v1", None)
            .unwrap(),
        0,
        1,
    )
    .remove(0);
    let items: Vec<Value> = (0..40)
        .map(|_| json!({"card": card, "answer": "1"}))
        .collect();
    let (status, answer) = post(&server, "/v1/score", json!({ "items": items }));
    assert_eq!(status, 413);
    assert!(
        error_text(&answer).contains("limit is 4096 bytes"),
        "{answer}"
    );
    // A small one still goes through.
    let (status, _) = post(&server, "/v1/score", json!({"items": [items[0]]}));
    assert_eq!(status, 200);
}

/// A scoring request big enough to keep a worker busy for a while.
fn heavy_score_request(n: usize) -> Value {
    let env = Registry::builtin()
        .make("math/arithmetic-v1", None)
        .unwrap();
    let items: Vec<Value> = generate_cards(&*env, 1, n)
        .into_iter()
        .map(|card| json!({"card": card, "answer": "42"}))
        .collect();
    json!({ "items": items })
}

#[test]
fn overload_answers_busy_and_loses_no_admitted_request() {
    let server = start(ServeOptions {
        queue: 1,
        ..options()
    });
    let addr = server.addr().to_string();
    let body = Arc::new(heavy_score_request(3000));
    let (mut ok, mut busy) = (0u64, 0u64);
    for _round in 0..10 {
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (addr, body) = (addr.clone(), body.clone());
                std::thread::spawn(move || call(&addr, "POST", "/v1/score", Some(body.as_ref())))
            })
            .collect();
        for thread in threads {
            let (status, answer) = thread.join().unwrap();
            match status {
                200 => {
                    assert_eq!(answer["results"].as_array().unwrap().len(), 3000);
                    ok += 1;
                }
                503 => {
                    assert!(error_text(&answer).starts_with("busy"));
                    busy += 1;
                }
                other => panic!("status {other}: {answer}"),
            }
        }
        if busy > 0 && ok > 0 {
            break;
        }
    }
    assert!(busy > 0, "8 clients on a queue of 1 never saw busy");
    assert!(ok > 0);
    let stats = server.stats();
    assert_eq!(stats.accepted, ok, "{stats:?}");
    assert_eq!(stats.answered, ok);
    assert_eq!(stats.busy, busy);
    assert_eq!(stats.in_flight, 0);
}

#[test]
fn openapi_parses_and_describes_every_route_the_router_has() {
    let server = start(options());
    let (status, document) = get(&server, "/openapi.json");
    assert_eq!(status, 200);
    assert!(document["openapi"].as_str().unwrap().starts_with("3."));
    let paths = document["paths"].as_object().unwrap();
    let addr = server.addr().to_string();
    for (method, path) in ROUTES {
        let operation = &paths
            .get(*path)
            .unwrap_or_else(|| panic!("{path} is not in the OpenAPI paths"))
            [method.to_ascii_lowercase()];
        // `/ws` answers 101 Switching Protocols, every other route 200.
        let success = if *path == "/ws" { "101" } else { "200" };
        assert!(
            operation["responses"][success].is_object(),
            "{method} {path}"
        );
        // The router has the route: whatever the answer, it is not "no route"
        // nor "wrong method".
        let concrete = path.replace("{id}", "ep-none");
        let (status, answer) = call(&addr, method, &concrete, Some(&json!({})));
        assert!(status != 405, "{method} {path}: {answer}");
        if status == 404 {
            assert!(!error_text(&answer).contains("no route"), "{method} {path}");
        }
    }
    let documented: usize = paths.values().map(|p| p.as_object().unwrap().len()).sum();
    assert_eq!(
        documented,
        ROUTES.len(),
        "routes documented but not in ROUTES"
    );
}

/// The binary: `--addr 127.0.0.1:0` prints the real port; SIGTERM while
/// requests are in flight lets them finish, then the server exits cleanly.
#[cfg(unix)]
#[test]
fn the_binary_announces_its_port_and_shuts_down_gracefully() {
    let mut child = verigym_command()
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("unexpected first line: {line}"))
        .to_string();
    assert!(!addr.ends_with(":0"), "{addr}");
    let body = Arc::new(heavy_score_request(4000));
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (addr, body) = (addr.clone(), body.clone());
            std::thread::spawn(move || call(&addr, "POST", "/v1/score", Some(body.as_ref())))
        })
        .collect();
    // Signal as soon as all four are admitted, while the last still runs.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (_, health) = call(&addr, "GET", "/healthz", None);
        if health["work"]["accepted"].as_u64().unwrap() >= 4 {
            break;
        }
        assert!(Instant::now() < deadline, "no job ever ran");
        std::thread::sleep(Duration::from_millis(2));
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    for client in clients {
        let (status, answer) = client.join().unwrap();
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["results"].as_array().unwrap().len(), 4000);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert!(
        rest.contains("shut down: 4 jobs accepted, 4 answered"),
        "{rest}"
    );
}
