//! The WebSocket case of `verigym bench serve` (`--ws`): closed-loop clients
//! that each open an OpenEnv session at `/ws`, reset, play a whole episode
//! with the reference solver's moves (from a local copy of the same env),
//! close, and start over. Counts sessions per second, session latency
//! percentiles, refusals at capacity (OpenEnv's `CAPACITY_REACHED` answer
//! to the first message) and wrong or
//! broken sessions; the server's live-session count must fall back to zero.

use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{self, Message, WebSocket};
use verigym_envs::{DynEnv, Registry, Status};

use super::load::LoadOptions;

#[derive(Clone, Debug, Default, Serialize)]
pub struct WsLoadReport {
    pub clients: usize,
    pub env: String,
    /// Sessions started (upgrade attempts).
    pub sent: usize,
    /// Sessions played to the end with the expected final reward.
    pub ok: usize,
    /// Sessions refused at capacity (`CAPACITY_REACHED`).
    pub busy: usize,
    /// Sessions that ended with another reward than the local replay's.
    pub wrong: usize,
    /// Sessions cut by a transport or protocol error.
    pub errors: usize,
    pub first_error: Option<String>,
    pub seconds: f64,
    pub sessions_per_second: f64,
    pub steps_per_second: f64,
    /// Whole-session latency (connect to close), milliseconds.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Live OpenEnv sessions on the server after the run (must be 0).
    pub live_after: u64,
}

impl WsLoadReport {
    pub fn healthy(&self) -> bool {
        self.wrong == 0 && self.errors == 0 && self.live_after == 0
    }

    pub fn render(&self) -> String {
        format!(
            "WebSocket sessions of {}, {} clients: {} sessions in {:.2} s: {} ok ({:.1} sessions/s, \
             {:.0} steps/s), {} busy (at capacity), {} wrong, {} errors{}; session latency p50 {:.1} ms, \
             p99 {:.1} ms, max {:.1} ms; live sessions after: {}",
            self.env,
            self.clients,
            self.sent,
            self.seconds,
            self.ok,
            self.sessions_per_second,
            self.steps_per_second,
            self.busy,
            self.wrong,
            self.errors,
            self.first_error
                .as_ref()
                .map_or(String::new(), |e| format!(" (first: {e})")),
            self.p50_ms,
            self.p99_ms,
            self.max_ms,
            self.live_after
        )
    }
}

enum Outcome {
    Ok { ms: f64, steps: usize },
    Busy,
    Wrong,
    Error(String),
}

type Socket = WebSocket<TcpStream>;

/// What the server said instead of an observation.
const CAPACITY: &str = "CAPACITY_REACHED";

fn exchange(socket: &mut Socket, message: &Value) -> Result<Value, String> {
    socket
        .send(Message::text(message.to_string()))
        .map_err(|e| format!("send: {e}"))?;
    loop {
        match socket.read().map_err(|e| format!("read: {e}"))? {
            Message::Text(text) => {
                let answer: Value =
                    serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
                if answer["type"] == "error" {
                    if answer["data"]["code"] == CAPACITY {
                        return Err(CAPACITY.to_string());
                    }
                    return Err(format!("error answer: {}", answer["data"]));
                }
                return Ok(answer["data"].clone());
            }
            Message::Close(frame) => return Err(format!("closed: {frame:?}")),
            _ => continue,
        }
    }
}

/// One session: reset, the oracle's moves until done, close.
fn one_session(ws_url: &str, local: &mut dyn DynEnv, seed: u64, timeout: Duration) -> Outcome {
    let started = Instant::now();
    let host = ws_url.trim_start_matches("ws://").trim_end_matches("/ws");
    let stream = match TcpStream::connect(host) {
        Ok(stream) => stream,
        Err(e) => return Outcome::Error(format!("connect: {e}")),
    };
    let _ = stream.set_read_timeout(Some(timeout));
    let _ = stream.set_nodelay(true);
    let mut socket = match tungstenite::client(ws_url, stream) {
        Ok((socket, _)) => socket,
        Err(e) => return Outcome::Error(format!("handshake: {e}")),
    };
    let card = local.generate(seed);
    if let Err(e) = local.reset(&card) {
        return Outcome::Error(format!("local reset: {e}"));
    }
    let reset = json!({"type": "reset", "data": {"env_id": local.spec().id, "config": local.config(), "seed": seed}});
    let mut result = match exchange(&mut socket, &reset) {
        Ok(result) => result,
        Err(e) if e == CAPACITY => return Outcome::Busy,
        Err(e) => return Outcome::Error(e),
    };
    let mut steps = 0;
    while result["done"] != true {
        let Some(action) = local.oracle_action(0) else {
            return Outcome::Error("the env has no oracle move".into());
        };
        let _ = local.step(0, &action);
        let step = json!({"type": "step", "data": {"action": action}});
        result = match exchange(&mut socket, &step) {
            Ok(result) => result,
            Err(e) => return Outcome::Error(e),
        };
        steps += 1;
        if steps > local.spec().max_steps + 1 {
            return Outcome::Wrong;
        }
    }
    let _ = socket.send(Message::text(json!({"type": "close"}).to_string()));
    let _ = socket.close(None);
    while socket.read().is_ok() {}
    let expected = local.score(0).reward;
    let got = result["observation"]["metadata"]["score"]["reward"].as_f64();
    if local.status() == Status::Running || got != Some(expected) {
        return Outcome::Wrong;
    }
    Outcome::Ok {
        ms: started.elapsed().as_secs_f64() * 1000.0,
        steps,
    }
}

/// Runs `options.requests` sessions over `options.clients` threads.
///
/// # Errors
/// A bad URL or env id.
pub fn run_ws_load(options: &LoadOptions) -> Result<WsLoadReport, String> {
    let registry = Registry::builtin();
    registry
        .make(&options.env, None)
        .map_err(|e| format!("--env: {e}"))?;
    let ws_url = format!(
        "{}/ws",
        options
            .url
            .trim_end_matches('/')
            .replacen("http://", "ws://", 1)
    );
    let next = Arc::new(Mutex::new(0usize));
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..options.clients.max(1) {
            let (next, outcomes, registry, ws_url) = (&next, &outcomes, &registry, &ws_url);
            scope.spawn(move || {
                let mut local = registry.make(&options.env, None).expect("checked above");
                loop {
                    let index = {
                        let mut next = next.lock().unwrap_or_else(|p| p.into_inner());
                        if *next >= options.requests {
                            return;
                        }
                        *next += 1;
                        *next - 1
                    };
                    let seed = options.seed + index as u64;
                    let outcome = one_session(ws_url, &mut *local, seed, options.timeout);
                    outcomes
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(outcome);
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let outcomes = std::mem::take(&mut *outcomes.lock().unwrap_or_else(|p| p.into_inner()));
    let mut report = WsLoadReport {
        clients: options.clients,
        env: options.env.clone(),
        sent: outcomes.len(),
        seconds,
        ..WsLoadReport::default()
    };
    let mut latencies = Vec::new();
    let mut steps = 0;
    for outcome in outcomes {
        match outcome {
            Outcome::Ok { ms, steps: n } => {
                report.ok += 1;
                latencies.push(ms);
                steps += n;
            }
            Outcome::Busy => report.busy += 1,
            Outcome::Wrong => report.wrong += 1,
            Outcome::Error(e) => {
                report.errors += 1;
                report.first_error.get_or_insert(e);
            }
        }
    }
    latencies.sort_by(f64::total_cmp);
    let percentile = |p: f64| {
        if latencies.is_empty() {
            return 0.0;
        }
        let rank = ((p / 100.0) * latencies.len() as f64).ceil() as usize;
        latencies[rank.clamp(1, latencies.len()) - 1]
    };
    report.p50_ms = percentile(50.0);
    report.p99_ms = percentile(99.0);
    report.max_ms = latencies.last().copied().unwrap_or(0.0);
    report.sessions_per_second = report.ok as f64 / seconds.max(1e-9);
    report.steps_per_second = steps as f64 / seconds.max(1e-9);
    // Sessions leave with their connections; give the server a moment.
    for _ in 0..50 {
        report.live_after = live_sessions(&options.url).unwrap_or(u64::MAX);
        if report.live_after == 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(report)
}

fn live_sessions(url: &str) -> Result<u64, String> {
    let health = ureq::get(format!("{}/healthz", url.trim_end_matches('/')))
        .call()
        .map_err(|e| e.to_string())?
        .body_mut()
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let health: Value = serde_json::from_str(&health).map_err(|e| e.to_string())?;
    health["openenv_sessions"]
        .as_u64()
        .ok_or_else(|| "no openenv_sessions in /healthz".to_string())
}
