//! A load generator for `verigym serve` (`verigym bench serve`): closed-loop
//! clients that send the same batch-scoring request over keep-alive
//! connections, then a tally of requests per second, latency percentiles,
//! "busy" answers, and a check that no admitted request went unanswered.
//!
//! The batch mixes correct answers (the env's oracle) and wrong ones, and
//! every answer is checked, so a server that answered fast but wrong fails.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{Value, json};
use verigym_envs::{Registry, TaskCard};

use super::StatsSnapshot;

#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Server base URL, e.g. `http://127.0.0.1:8080`.
    pub url: String,
    /// Concurrent clients, each with one request outstanding.
    pub clients: usize,
    /// Requests in all.
    pub requests: usize,
    /// Answers per scoring request.
    pub batch: usize,
    /// The env whose tasks are scored (single-player, with an oracle).
    pub env: String,
    pub seed: u64,
    pub timeout: Duration,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct LoadReport {
    pub clients: usize,
    pub batch: usize,
    pub sent: usize,
    /// 200 answers whose every result was right.
    pub ok: usize,
    /// 503 "busy" answers.
    pub busy: usize,
    /// 200 answers with a wrong result in them.
    pub wrong: usize,
    /// Other statuses, by code.
    pub other_status: BTreeMap<u16, usize>,
    /// Requests that got no HTTP answer at all (connection errors, timeouts).
    pub transport_errors: usize,
    pub seconds: f64,
    /// Successful scoring requests per second of wall time.
    pub ok_per_second: f64,
    /// Answers scored per second (ok requests x batch).
    pub answers_per_second: f64,
    /// Latency of successful requests, milliseconds.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Latency of busy answers, milliseconds (they should be fast).
    pub busy_p99_ms: f64,
    /// The server's counters over the run (from `/healthz`).
    pub server_accepted: u64,
    pub server_answered: u64,
    pub server_busy: u64,
    /// Admitted by the server but not answered 200 to a client here.
    pub lost: i64,
}

impl LoadReport {
    /// Whether the run showed no loss, no wrong answer and no dropped connection.
    pub fn healthy(&self) -> bool {
        self.lost == 0
            && self.wrong == 0
            && self.transport_errors == 0
            && self.other_status.is_empty()
            && self.server_accepted == self.server_answered
    }

    pub fn render(&self) -> String {
        format!(
            "{} clients x batch {}: {} requests in {:.2} s: {} ok ({:.1} req/s, {:.0} answers/s), \
             {} busy, {} wrong, {} other status {:?}, {} transport errors; \
             ok latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; busy p99 {:.2} ms; \
             server: accepted {}, answered {}, busy {}; lost {}",
            self.clients,
            self.batch,
            self.sent,
            self.seconds,
            self.ok,
            self.ok_per_second,
            self.answers_per_second,
            self.busy,
            self.wrong,
            self.other_status.values().sum::<usize>(),
            self.other_status,
            self.transport_errors,
            self.p50_ms,
            self.p99_ms,
            self.max_ms,
            self.busy_p99_ms,
            self.server_accepted,
            self.server_answered,
            self.server_busy,
            self.lost
        )
    }
}

fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .new_agent()
}

fn fetch_json(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let response = match (method, body) {
        ("GET", _) => agent.get(url).call(),
        (_, Some(body)) => agent
            .post(url)
            .header("Content-Type", "application/json")
            .send(body.to_string()),
        _ => agent.post(url).send_empty(),
    };
    let mut response = response.map_err(|e| format!("{method} {url}: {e}"))?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("{method} {url}: cannot read the body: {e}"))?;
    let value = serde_json::from_str(&text)
        .map_err(|e| format!("{method} {url}: answer is not JSON ({e}): {text}"))?;
    Ok((status, value))
}

/// The server's counters.
///
/// # Errors
/// The server does not answer `/healthz`.
pub fn server_stats(url: &str) -> Result<StatsSnapshot, String> {
    let (_, health) = fetch_json(
        &agent(Duration::from_secs(10)),
        "GET",
        &format!("{url}/healthz"),
        None,
    )?;
    serde_json::from_value(health["work"].clone()).map_err(|e| format!("bad /healthz answer: {e}"))
}

/// The scoring request: `batch` cards, even ones answered by the oracle and
/// odd ones with a wrong constant, and the verdicts the server must give.
///
/// # Errors
/// The env cannot be made or has no oracle answer.
pub fn scoring_batch(
    url: &str,
    env_id: &str,
    batch: usize,
    seed: u64,
) -> Result<(Value, Vec<bool>), String> {
    let (status, generated) = fetch_json(
        &agent(Duration::from_secs(60)),
        "POST",
        &format!("{url}/v1/generate"),
        Some(&json!({"id": env_id, "n": batch, "seed": seed})),
    )?;
    if status != 200 {
        return Err(format!("generate answered {status}: {generated}"));
    }
    let cards: Vec<TaskCard> =
        serde_json::from_value(generated["cards"].clone()).map_err(|e| e.to_string())?;
    let registry = Registry::builtin();
    let mut items = Vec::new();
    let mut expected = Vec::new();
    for (i, card) in cards.iter().enumerate() {
        let mut env = registry.make_for_card(card).map_err(|e| e.to_string())?;
        env.reset(card).map_err(|e| e.to_string())?;
        let answer = if i % 2 == 0 {
            env.oracle_action(0)
                .ok_or_else(|| format!("`{env_id}` has no oracle answer"))?
        } else {
            "this is not the answer".to_string()
        };
        items.push(json!({"card": card, "answer": answer}));
        expected.push(i % 2 == 0);
    }
    Ok((json!({ "items": items }), expected))
}

fn percentile(sorted_ms: &[f64], p: f64) -> f64 {
    if sorted_ms.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted_ms.len() as f64).ceil() as usize;
    sorted_ms[rank.clamp(1, sorted_ms.len()) - 1]
}

#[derive(Default)]
struct Tally {
    ok_ms: Vec<f64>,
    busy_ms: Vec<f64>,
    wrong: usize,
    other_status: BTreeMap<u16, usize>,
    transport_errors: usize,
}

/// Runs the load and tallies it.
///
/// # Errors
/// The server cannot be reached for setup or its counters.
pub fn run_load(options: &LoadOptions) -> Result<LoadReport, String> {
    let url = options.url.trim_end_matches('/').to_string();
    let (body, expected) = scoring_batch(&url, &options.env, options.batch, options.seed)?;
    let body = Arc::new(body.to_string());
    let expected = Arc::new(expected);
    let before = server_stats(&url)?;
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let threads: Vec<_> = (0..options.clients.max(1))
        .map(|_| {
            let (url, body, expected, next, tally) = (
                url.clone(),
                body.clone(),
                expected.clone(),
                next.clone(),
                tally.clone(),
            );
            let (requests, timeout) = (options.requests, options.timeout);
            std::thread::spawn(move || {
                let agent = agent(timeout);
                let mut mine = Tally::default();
                while next.fetch_add(1, Ordering::SeqCst) < requests {
                    let sent = Instant::now();
                    let response = agent
                        .post(&format!("{url}/v1/score"))
                        .header("Content-Type", "application/json")
                        .send(body.as_str());
                    let outcome = response.and_then(|mut r| {
                        let status = r.status().as_u16();
                        r.body_mut().read_to_string().map(|text| (status, text))
                    });
                    let ms = sent.elapsed().as_secs_f64() * 1e3;
                    match outcome {
                        Ok((200, text)) => {
                            if answers_match(&text, &expected) {
                                mine.ok_ms.push(ms);
                            } else {
                                mine.wrong += 1;
                            }
                        }
                        Ok((503, _)) => mine.busy_ms.push(ms),
                        Ok((status, _)) => *mine.other_status.entry(status).or_default() += 1,
                        Err(_) => mine.transport_errors += 1,
                    }
                }
                let mut all = tally.lock().unwrap_or_else(|p| p.into_inner());
                all.ok_ms.extend(mine.ok_ms);
                all.busy_ms.extend(mine.busy_ms);
                all.wrong += mine.wrong;
                all.transport_errors += mine.transport_errors;
                for (status, n) in mine.other_status {
                    *all.other_status.entry(status).or_default() += n;
                }
            })
        })
        .collect();
    for thread in threads {
        thread
            .join()
            .map_err(|_| "a load client panicked".to_string())?;
    }
    let seconds = started.elapsed().as_secs_f64();
    let after = server_stats(&url)?;
    let mut tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|p| p.into_inner()));
    tally.ok_ms.sort_by(f64::total_cmp);
    tally.busy_ms.sort_by(f64::total_cmp);
    let ok = tally.ok_ms.len();
    let accepted = after.accepted - before.accepted;
    Ok(LoadReport {
        clients: options.clients,
        batch: options.batch,
        sent: options.requests,
        ok,
        busy: tally.busy_ms.len(),
        wrong: tally.wrong,
        other_status: tally.other_status,
        transport_errors: tally.transport_errors,
        seconds,
        ok_per_second: ok as f64 / seconds,
        answers_per_second: (ok * options.batch) as f64 / seconds,
        p50_ms: percentile(&tally.ok_ms, 50.0),
        p99_ms: percentile(&tally.ok_ms, 99.0),
        max_ms: tally.ok_ms.last().copied().unwrap_or(0.0),
        busy_p99_ms: percentile(&tally.busy_ms, 99.0),
        server_accepted: accepted,
        server_answered: after.answered - before.answered,
        server_busy: after.busy - before.busy,
        lost: accepted as i64 - (ok + tally.wrong) as i64,
    })
}

/// Whether a scoring answer gives every item the expected verdict.
fn answers_match(text: &str, expected: &[bool]) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    let Some(results) = value["results"].as_array() else {
        return false;
    };
    results.len() == expected.len()
        && results
            .iter()
            .zip(expected)
            .all(|(r, &want)| r["passed"].as_bool() == Some(want))
}
