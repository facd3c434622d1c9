//! `POST /openrlhf/reward`: OpenRLHF's remote reward protocol, so a run can
//! score on `verigym serve` with `--reward.remote_url http://HOST:PORT/openrlhf/reward`.
//!
//! OpenRLHF (0.11, `SingleTurnAgentExecutor._fetch_rewards_via_http` in
//! `openrlhf/utils/agent.py`) posts `{"query": [...], "prompts": [...],
//! "labels": [...]}`, where each query is the decoded prompt followed by the
//! reply, and reads `{"rewards", "scores", "extra_logs"}`. The labels are
//! verigym labels: the task card (as JSON text or an object), as
//! `verigym.integrations.openrlhf.rows` writes them. The prompt is cut off
//! each query before scoring, so the task's own text never counts as an
//! answer. A reply is one action: multi-turn envs are scored on it as they
//! would be on a one-action transcript, and games belong in OpenRLHF's agent
//! file (`verigym.integrations.openrlhf_agent`).

use serde::Deserialize;
use serde_json::{Value, json};
use verigym_envs::completion::reply_after_prompt;
use verigym_envs::shaping::Shaping;

use super::SharedState;
use super::error::{ApiError, HttpResponse, ok_json};
use super::handlers::score_in_chunks;
use super::work::{Admission, Lane};
use verigym_envs::score::ScoreItem;

/// The request OpenRLHF sends.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewardRequest {
    query: Vec<String>,
    prompts: Vec<String>,
    labels: Vec<Value>,
}

/// The card of a label: JSON text or an object, a card or `{"card", "seat"}`.
fn label_card(label: Value) -> Result<Value, String> {
    let label = match label {
        Value::String(text) => serde_json::from_str(&text)
            .map_err(|e| format!("a label must be a task card as JSON text: {e}"))?,
        other => other,
    };
    let seat = label.get("seat").and_then(Value::as_u64).unwrap_or(0);
    if seat != 0 {
        return Err(format!(
            "the label plays seat {seat} of a game; games are scored by OpenRLHF's agent file \
             (verigym.integrations.openrlhf_agent), not by the reward route"
        ));
    }
    Ok(label)
}

/// Scores every query's reply against its label.
pub async fn reward(
    state: &SharedState,
    admission: Admission,
    request: RewardRequest,
) -> Result<HttpResponse, ApiError> {
    let n = request.query.len();
    if request.prompts.len() != n || request.labels.len() != n {
        return Err(ApiError::bad_request(format!(
            "got {n} queries, {} prompts and {} labels; send one of each per sample",
            request.prompts.len(),
            request.labels.len()
        )));
    }
    let mut items = Vec::with_capacity(n);
    for (index, ((query, prompt), label)) in request
        .query
        .iter()
        .zip(&request.prompts)
        .zip(request.labels)
        .enumerate()
    {
        let fail = |message: String| ApiError::bad_request(format!("sample {index}: {message}"));
        let reply = reply_after_prompt(query, prompt).map_err(|e| fail(e.to_string()))?;
        let mut card = label_card(label).map_err(fail)?;
        state
            .card_sets
            .resolve_card(&mut card)
            .map_err(|e| fail(e.message))?;
        if let Some(id) = card
            .get("card")
            .unwrap_or(&card)
            .get("env_id")
            .and_then(Value::as_str)
            && let Ok(registration) = state.registry.get(id)
            && registration.spec.players > 1
        {
            return Err(fail(format!(
                "`{id}` is a game; games are scored by OpenRLHF's agent file \
                 (verigym.integrations.openrlhf_agent), not by the reward route"
            )));
        }
        items.push(ScoreItem {
            card,
            answer: Some(Value::String(reply.to_string())),
            response: None,
        });
    }
    let worker_state = state.clone();
    let results = state
        .work
        .run(admission, Lane::Batch, move |budget| {
            score_in_chunks(&worker_state.registry, &items, &Shaping::default(), budget)
        })
        .await??;
    let mut rewards = Vec::with_capacity(n);
    let mut passed = Vec::with_capacity(n);
    let mut no_verdict = Vec::with_capacity(n);
    for (index, result) in results.into_iter().enumerate() {
        let scored = result.map_err(|e| ApiError::bad_request(format!("sample {index}: {e}")))?;
        // OpenRLHF's protocol takes numbers only: a sample the sandbox could
        // not judge gets 0 and is flagged in `verigym_no_verdict`, which
        // OpenRLHF logs, so the failure is visible rather than silent.
        rewards.push(scored.reward.unwrap_or(0.0));
        passed.push(if scored.passed { 1.0 } else { 0.0 });
        no_verdict.push(if scored.reward.is_none() { 1.0 } else { 0.0 });
    }
    Ok(ok_json(&json!({
        "rewards": rewards,
        "scores": rewards,
        "extra_logs": {"verigym_passed": passed, "verigym_no_verdict": no_verdict},
    })))
}

/// This route's entry in `/openapi.json`.
pub fn openapi_path() -> Value {
    json!({"post": {
        "summary": "OpenRLHF's remote reward protocol (--reward.remote_url): each query (prompt + reply) scored against its label.",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
            "type": "object", "required": ["query", "prompts", "labels"],
            "properties": {
                "query": {"type": "array", "items": {"type": "string"},
                          "description": "The decoded prompt followed by the model's reply."},
                "prompts": {"type": "array", "items": {"type": "string"},
                            "description": "The prompt text of each query, cut off before scoring."},
                "labels": {"type": "array",
                           "description": "The task card of each sample (JSON text or object)."}
            }
        }}}},
        "responses": {
            "200": {"description": "One reward per query.", "content": {"application/json": {"schema": {
                "type": "object", "properties": {
                    "rewards": {"type": "array", "items": {"type": "number"}},
                    "scores": {"type": "array", "items": {"type": "number"}},
                    "extra_logs": {"type": "object"}
                }
            }}}},
            "400": {"description": "Bad input: mismatched lengths, a query without its prompt, a bad or game label.",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            "503": {"description": "Busy: retry after `Retry-After` seconds.",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
    }})
}
