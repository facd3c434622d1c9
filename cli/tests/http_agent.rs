//! The `http:` agent end to end, against an OpenAI-compatible server that
//! this test runs on loopback.
//!
//! The server plays the env's oracle: it finds the task card by the
//! conversation's first prompt, replays the assistant's earlier replies on a
//! fresh env, and answers with the oracle's next move (as `tool_calls` when
//! the move is a tool call). On tic-tac-toe it plays the first legal cell.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use verigym_envs::generate::generate_cards;
use verigym_envs::{Registry, TaskCard};

use crate::util::gym_bench_command;

struct Server {
    port: u16,
    requests: Arc<AtomicUsize>,
    with_tools: Arc<AtomicUsize>,
    wrong: Arc<AtomicBool>,
}

/// Starts the server for the given env ids (the first `n` cards of each at
/// `seed`, as gym-bench generates them); the first `fail_first` requests get
/// HTTP 503.
fn start_server(envs: &[&str], n: usize, seed: u64, fail_first: usize) -> Server {
    let registry = Registry::builtin();
    let mut cards: HashMap<String, (String, TaskCard)> = HashMap::new();
    for id in envs {
        let env = registry.make(id, None).unwrap();
        for card in generate_cards(&*env, seed, n) {
            cards.insert(card.prompt.clone(), (id.to_string(), card));
        }
    }
    let cards = Arc::new(cards);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(AtomicUsize::new(0));
    let with_tools = Arc::new(AtomicUsize::new(0));
    let failures_left = Arc::new(Mutex::new(fail_first));
    let wrong = Arc::new(AtomicBool::new(false));
    let (r, t, w) = (requests.clone(), with_tools.clone(), wrong.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (cards, r, t, f) = (cards.clone(), r.clone(), t.clone(), failures_left.clone());
            let w = w.clone();
            std::thread::spawn(move || serve(stream, &cards, &r, &t, &f, &w));
        }
    });
    Server {
        port,
        requests,
        with_tools,
        wrong,
    }
}

fn serve(
    stream: TcpStream,
    cards: &HashMap<String, (String, TaskCard)>,
    requests: &AtomicUsize,
    with_tools: &AtomicUsize,
    failures_left: &Mutex<usize>,
    wrong: &AtomicBool,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap();
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    requests.fetch_add(1, Ordering::SeqCst);
    let request: Value = serde_json::from_slice(&body).unwrap();
    if request["tools"].as_array().is_some_and(|t| !t.is_empty()) {
        with_tools.fetch_add(1, Ordering::SeqCst);
    }
    let (status, reply) = {
        let mut left = failures_left.lock().unwrap();
        if *left > 0 {
            *left -= 1;
            (503, json!({"error": "warming up"}))
        } else if wrong.load(Ordering::SeqCst) {
            let message = json!({"role": "assistant", "content": "I am not sure."});
            (
                200,
                json!({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}),
            )
        } else {
            (200, reply_to(&request, cards))
        }
    };
    let text = reply.to_string();
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
}

fn reply_to(request: &Value, cards: &HashMap<String, (String, TaskCard)>) -> Value {
    let messages = request["messages"].as_array().unwrap();
    let first_user = messages.iter().find(|m| m["role"] == "user").unwrap()["content"]
        .as_str()
        .unwrap();
    let last_user = messages.iter().rev().find(|m| m["role"] == "user").unwrap()["content"]
        .as_str()
        .unwrap();
    let message = if let Some(legal) = last_user.split("Legal cells: ").nth(1) {
        json!({"role": "assistant", "content": legal.split(|c: char| !c.is_ascii_digit()).next().unwrap()})
    } else if first_user.starts_with("I am thinking of an integer") {
        // Every guess-number task opens with the same prompt, so play binary
        // search from the feedback in the text, as a language model would.
        json!({"role": "assistant", "content": binary_search_from_text(last_user).to_string()})
    } else {
        let (id, card) = &cards[first_user];
        let mut env = Registry::builtin().make(id, None).unwrap();
        env.reset(card).unwrap();
        for earlier in messages.iter().filter(|m| m["role"] == "assistant") {
            let action = match earlier.get("tool_calls") {
                Some(calls) => json!({"tool_calls": calls}).to_string(),
                None => earlier["content"].as_str().unwrap_or_default().to_string(),
            };
            let _ = env.step(0, &action);
        }
        let action = env.oracle_action(0).unwrap();
        match serde_json::from_str::<Value>(&action) {
            Ok(call) if call.get("name").is_some() => json!({
                "role": "assistant", "content": null,
                "tool_calls": [{"id": "call_1", "type": "function", "function": {
                    "name": call["name"],
                    "arguments": call.get("arguments").or(call.get("parameters")).cloned().unwrap_or(json!({})).to_string(),
                }}],
            }),
            _ => json!({"role": "assistant", "content": action}),
        }
    };
    json!({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
}

fn binary_search_from_text(text: &str) -> i64 {
    let numbers = |s: &str| -> Vec<i64> {
        s.split(|c: char| !c.is_ascii_digit() && c != '-')
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let range = numbers(text.split("inclusive").next().unwrap());
    let (mut low, mut high) = (range[0], range[1]);
    for line in text.lines().filter(|l| l.starts_with("Guess ")) {
        let guess = numbers(line.split(": ").nth(1).unwrap())[0];
        if line.ends_with("higher") {
            low = guess + 1;
        } else if line.ends_with("lower") {
            high = guess - 1;
        }
    }
    low + (high - low) / 2
}

/// `gym-bench` with a fresh HTTP cache, `retries` retries and no API key.
fn gym_bench_over_http(args: &[&str], cache: &std::path::Path, retries: &str) -> Output {
    gym_bench_command()
        .args(args)
        .env("VERIGYM_HTTP_CACHE", cache)
        .env("VERIGYM_HTTP_RETRIES", retries)
        .env_remove("VERIGYM_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap()
}

fn cache_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("verigym-http-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_multi_turn_episode_over_http_passes_retries_and_is_cached() {
    let server = start_server(&["logic/guess-number-v2@easy"], 8, 1, 1);
    let agent = format!("http:http://127.0.0.1:{}/v1#oracle", server.port);
    let cache = cache_dir("multi");
    let args = [
        "run",
        "--env",
        "logic/guess-number-v2@easy",
        "--agents",
        &agent,
        "--n",
        "8",
        "--seed",
        "1",
        "--json",
    ];
    let out = gym_bench_over_http(&args, &cache, "3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(board["rows"][0]["pass_rate"]["mean"], 1.0, "{board}");
    let steps = board["rows"][0]["mean_steps"].as_f64().unwrap();
    assert!(steps > 2.0, "episodes were multi-turn ({steps} steps)");
    let first_run = server.requests.load(Ordering::SeqCst);
    assert!(
        first_run as f64 >= 8.0 * steps,
        "one request per turn plus the failed one: {first_run}"
    );

    let again = gym_bench_over_http(&args, &cache, "3");
    assert!(again.status.success());
    assert_eq!(
        server.requests.load(Ordering::SeqCst),
        first_run,
        "a rerun is served from the cache"
    );
    let rerun: Value = serde_json::from_slice(&again.stdout).unwrap();
    for key in ["pass_rate", "mean_steps", "mean_return", "invalid_rate"] {
        assert_eq!(rerun["rows"][0][key], board["rows"][0][key], "{key}");
    }
}

#[test]
fn a_game_over_http_against_a_builtin_agent() {
    let server = start_server(&[], 0, 1, 0);
    let agent = format!("http:http://127.0.0.1:{}/v1#first-legal", server.port);
    let lineup = format!("{agent},random");
    let out = gym_bench_over_http(
        &[
            "run",
            "--env",
            "games/tictactoe-v1",
            "--agents",
            &lineup,
            "--n",
            "10",
            "--json",
        ],
        &cache_dir("game"),
        "0",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    let http_rows: Vec<&Value> = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["agent"] == agent.as_str())
        .collect();
    assert_eq!(http_rows.len(), 2, "both seats");
    for row in http_rows {
        assert_eq!(row["invalid_rate"], 0.0, "{row}");
        assert_eq!(row["tasks"], 10);
    }
    assert!(server.requests.load(Ordering::SeqCst) >= 40);
}

#[test]
fn an_unreachable_endpoint_fails_the_episodes_instead_of_scoring_them() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let agent = format!("http:http://127.0.0.1:{port}/v1#nobody");
    let out = gym_bench_over_http(
        &[
            "run",
            "--env",
            "math/arithmetic-v1",
            "--agents",
            &agent,
            "--n",
            "2",
            "--json",
        ],
        &cache_dir("down"),
        "0",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("agent failed") && err.contains("failed after 1 tries"),
        "{err}"
    );
}

#[test]
fn a_tool_env_episode_over_http_uses_tool_calls() {
    let env = "tools/vfs-shell-v2@easy";
    let server = start_server(&[env], 6, 1, 0);
    let agent = format!("http:http://127.0.0.1:{}/v1#oracle", server.port);
    let out = gym_bench_over_http(
        &[
            "run", "--env", env, "--agents", &agent, "--n", "6", "--seed", "1", "--json",
        ],
        &cache_dir("tools"),
        "0",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let board: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(board["rows"][0]["pass_rate"]["mean"], 1.0, "{board}");
    assert_eq!(board["rows"][0]["invalid_rate"], 0.0, "{board}");
    let requests = server.requests.load(Ordering::SeqCst);
    assert!(requests >= 6, "{requests} requests");
    assert_eq!(
        server.with_tools.load(Ordering::SeqCst),
        requests,
        "every request carries the tool specs"
    );
}

/// The README's walk-through: evaluate an OpenAI-compatible endpoint on a
/// small suite next to the built-in baselines, then compare it with a later
/// (here: worse) model served under the same name.
#[test]
fn the_readme_walk_through_evaluates_and_compares_an_endpoint() {
    let envs = ["math/arithmetic-v1@easy", "logic/guess-number-v2@easy"];
    let server = start_server(&envs, 12, 1, 0);
    let agent = format!("http:http://127.0.0.1:{}/v1#my-model", server.port);
    let agents = format!("{agent},random,noop");
    let dir = crate::util::temp_dir("walk-through");
    let run = |name: &str| {
        let out_dir = dir.join(name);
        let mut args = vec!["run", "--env"];
        args.extend(envs);
        args.extend(["--agents", &agents, "--n", "12", "--out"]);
        args.push(out_dir.to_str().unwrap());
        let out = gym_bench_over_http(&args, &cache_dir(&format!("walk-{name}")), "0");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let summary: Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
                .unwrap();
        (String::from_utf8_lossy(&out.stdout).into_owned(), summary)
    };
    let (terminal, summary) = run("before");
    assert!(
        terminal.lines().nth(4).unwrap().starts_with(&agent),
        "best first: {terminal}"
    );
    let model = &summary["agents"][0];
    assert_eq!(model["agent"], agent.as_str());
    assert_eq!(model["overall"]["mean"], 1.0, "{summary}");
    assert_eq!(model["families"]["logic"]["mean"], 1.0, "{summary}");

    server.wrong.store(true, Ordering::SeqCst);
    let (_, worse) = run("after");
    let model = worse["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agent"] == agent.as_str());
    assert_eq!(model.unwrap()["overall"]["mean"], 0.0, "{worse}");

    let compare = crate::util::gym_bench(&[
        "report",
        dir.join("before").to_str().unwrap(),
        "--compare",
        dir.join("after").to_str().unwrap(),
    ]);
    assert!(compare.status.success());
    let text = String::from_utf8_lossy(&compare.stdout);
    let per_family = text.split("per env:").next().unwrap();
    for family in ["overall", "math", "logic"] {
        let row = per_family
            .lines()
            .find(|l| l.starts_with(&agent) && l.split_whitespace().nth(1) == Some(family))
            .unwrap_or_else(|| panic!("no {family} row: {text}"));
        assert!(row.contains("-100.0") && row.ends_with("yes"), "{row}");
    }
    let noop = per_family
        .lines()
        .find(|l| l.starts_with("noop") && l.contains("overall"))
        .unwrap();
    assert!(noop.ends_with("no"), "the baselines did not change: {noop}");
}
