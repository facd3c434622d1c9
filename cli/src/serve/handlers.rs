//! The stateless endpoints: health, OpenAPI, env list, generate, score.

use std::sync::atomic::{AtomicUsize, Ordering};

use hyper::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_envs::Registry;
use verigym_envs::generate::{OutputFormat, card_seed, format_card};
use verigym_envs::score::{ScoreError, ScoreItem, ScoredAnswer, score_items};
use verigym_envs::shaping::Shaping;

use super::SharedState;
use super::error::{ApiError, HttpResponse, json_response, ok_json};
use super::work::{Admission, Budget, Lane};

pub fn healthz(state: &SharedState) -> HttpResponse {
    ok_json(&json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "envs": state.registry.entries().len(),
        "live_episodes": state.episodes.live(),
        "openenv_sessions": state.openenv.live(),
        "card_sets": state.card_sets.names(),
        "max_episodes": state.options.max_episodes,
        "work": state.work.stats(),
    }))
}

/// Every env with its spec, presets, difficulty levels and default config.
pub fn list_envs(state: &SharedState) -> HttpResponse {
    ok_json(&json!({ "envs": env_list(&state.registry) }))
}

fn env_list(registry: &Registry) -> Vec<Value> {
    registry
        .entries()
        .iter()
        .map(|r| {
            let spec = r.spec;
            let levels: Vec<Value> = r
                .levels()
                .iter()
                .map(|patch| serde_json::from_str(patch).unwrap_or(Value::Null))
                .collect();
            json!({
                "id": spec.id, "kind": spec.kind, "family": spec.family(),
                "version": spec.version(), "players": spec.players,
                "max_steps": spec.max_steps,
                "reward_range": [spec.reward_range.0, spec.reward_range.1],
                "zero_sum": spec.zero_sum,
                "presets": spec.presets.iter().map(|p| p.name).collect::<Vec<_>>(),
                "levels": levels,
                "default_config": (r.default_config)(),
                "description": spec.description,
            })
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// Env id, optionally `@preset` or `@LEVEL`.
    id: String,
    #[serde(default = "default_n")]
    n: usize,
    #[serde(default)]
    seed: u64,
    /// Index of the first card: cards `offset..offset+n` of the batch, so a
    /// big batch can be fetched in pages.
    #[serde(default)]
    offset: usize,
    #[serde(default)]
    preset: Option<String>,
    #[serde(default)]
    config: Option<Value>,
    /// "card" (default) or "chat".
    #[serde(default)]
    format: Option<String>,
}

fn default_n() -> usize {
    10
}

/// Cards exactly as `verigym generate ID --n N --seed S` writes them, as a
/// JSON list under `cards`.
pub async fn generate(
    state: &SharedState,
    admission: Admission,
    mut request: GenerateRequest,
) -> Result<HttpResponse, ApiError> {
    state.card_sets.resolve_opt(request.config.as_mut())?;
    let max = state.options.max_generate;
    if request.n > max {
        return Err(ApiError::bad_request(format!(
            "n = {} is over the limit of {max} cards per request; fetch pages with `offset`",
            request.n
        )));
    }
    let end = request.offset.checked_add(request.n).ok_or_else(|| {
        ApiError::bad_request("offset + n overflows; use a smaller offset".to_string())
    })?;
    let format = match request.format.as_deref() {
        None | Some("card") => OutputFormat::Card,
        Some("chat") => OutputFormat::Chat,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown format `{other}`: use \"card\" or \"chat\""
            )));
        }
    };
    let id = crate::bin_support::env_with_preset(&request.id, request.preset.as_deref())
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let worker_state = state.clone();
    let body = state
        .work
        .run(
            admission,
            Lane::Batch,
            move |budget| -> Result<String, ApiError> {
                use rayon::prelude::*;
                let env = worker_state.registry.make(&id, request.config.as_ref())?;
                // Each card checks the time budget and adds its size to the
                // running total, so a request over either stops within a card
                // per thread instead of finishing the whole batch first.
                let bytes = AtomicUsize::new(0);
                let lines: Vec<String> = (request.offset..end)
                    .into_par_iter()
                    .map(|i| -> Result<String, ApiError> {
                        budget.check()?;
                        let card = verigym_envs::cancel::with_cancel(&budget.cancelled, || {
                            env.try_generate(card_seed(request.seed, i))
                        })?;
                        let line = format_card(&card, format);
                        let total =
                            bytes.fetch_add(line.len() + 1, Ordering::Relaxed) + line.len() + 1;
                        budget.check_size(total)?;
                        Ok(line)
                    })
                    .collect::<Result<_, _>>()?;
                Ok(format!("{{\"cards\":[{}]}}", lines.join(",")))
            },
        )
        .await??;
    Ok(json_response(StatusCode::OK, body))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    items: Vec<ScoreItem>,
    /// Reward shaping, as `verigym score --shaping`.
    #[serde(default)]
    shaping: Option<Shaping>,
}

/// Scores a batch; one result per item, in order. An unusable item gets
/// `{"index", "error", "kind"}` and the rest are still scored.
pub async fn score(
    state: &SharedState,
    admission: Admission,
    mut request: ScoreRequest,
) -> Result<HttpResponse, ApiError> {
    for item in &mut request.items {
        state.card_sets.resolve_card(&mut item.card)?;
    }
    let worker_state = state.clone();
    let results = state
        .work
        .run(admission, Lane::Batch, move |budget| {
            let shaping = request.shaping.unwrap_or_default();
            score_in_chunks(&worker_state.registry, &request.items, &shaping, budget)
        })
        .await??;
    let (mut passed, mut errors, mut total, mut no_verdict) = (0usize, 0usize, 0.0, 0usize);
    let results: Vec<ScoreResult> = results
        .into_iter()
        .enumerate()
        .map(|(index, result)| match result {
            Ok(scored) => {
                passed += usize::from(scored.passed);
                match scored.reward {
                    Some(reward) => total += reward,
                    None => no_verdict += 1,
                }
                ScoreResult::Scored(scored)
            }
            Err(error) => {
                errors += 1;
                ScoreResult::Failed {
                    index,
                    kind: error.kind(),
                    error: error.to_string(),
                }
            }
        })
        .collect();
    let scored = results.len() - errors;
    // The mean is over judged answers: one without a verdict has no reward.
    let judged = scored - no_verdict;
    let mean = if judged == 0 {
        0.0
    } else {
        total / judged as f64
    };
    // Written straight to text: a batch's results never become a JSON tree.
    let body = serde_json::to_string(&ScoreResponse {
        results,
        summary: json!({"scored": scored, "passed": passed, "errors": errors,
                        "no_verdict": no_verdict, "mean_reward": mean}),
    })
    .map_err(|e| ApiError::internal(format!("cannot write the scores: {e}")))?;
    Ok(json_response(StatusCode::OK, body))
}

/// One item's answer in a `/v1/score` response.
#[derive(Serialize)]
#[serde(untagged)]
enum ScoreResult {
    Scored(ScoredAnswer),
    Failed {
        index: usize,
        error: String,
        kind: &'static str,
    },
}

#[derive(Serialize)]
struct ScoreResponse {
    results: Vec<ScoreResult>,
    summary: Value,
}

/// Items scored between two checks of the time budget: large enough that
/// the pool stays busy, small enough that a cancelled batch stops soon.
const SCORE_CHUNK: usize = 256;

/// [`score_items`] in chunks, checking `budget` before each.
///
/// # Errors
/// 503 once the job is past `--job-timeout`.
pub fn score_in_chunks(
    registry: &Registry,
    items: &[ScoreItem],
    shaping: &Shaping,
    budget: &Budget,
) -> Result<Vec<Result<ScoredAnswer, ScoreError>>, ApiError> {
    let mut results = Vec::with_capacity(items.len());
    for chunk in items.chunks(SCORE_CHUNK) {
        budget.check()?;
        results.extend(score_items(registry, chunk, shaping));
    }
    Ok(results)
}

/// The answer for a path no route has, or a method its route does not take.
pub fn unrouted(method: &str, path: &str) -> ApiError {
    let allowed: Vec<&str> = super::ROUTES
        .iter()
        .filter(|(_, pattern)| path_matches(pattern, path))
        .map(|(m, _)| *m)
        .collect();
    if allowed.is_empty() {
        return ApiError::not_found(format!(
            "no route {method} {path}; GET /openapi.json lists every endpoint"
        ));
    }
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!(
            "{path} does not take {method}; use {}",
            allowed.join(" or ")
        ),
    )
}

/// Whether a concrete path fits a route pattern with `{param}` segments.
fn path_matches(pattern: &str, path: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(p, s)| p == s || (p.starts_with('{') && !s.is_empty()))
}
