//! The config and task of `tools/search-qa`, and the reference calls of a
//! reading path.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Doc {
    pub id: String,
    pub title: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchQaConfig {
    pub companies: usize,
    pub hops: usize,
    pub infeasible_share: f64,
}

impl Default for SearchQaConfig {
    fn default() -> Self {
        SearchQaConfig {
            companies: 8,
            hops: 2,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchQaTask {
    pub question: String,
    pub docs: Vec<Doc>,
    pub answer: String,
    pub feasible: bool,
    /// The reference calls, answer last.
    pub gold: Vec<String>,
}

/// The reference call texts for a reading path and answer.
pub(super) fn gold_calls(steps: &[(&str, &str)], answer: &str) -> Vec<String> {
    let mut gold: Vec<String> = steps
        .iter()
        .flat_map(|(query, doc)| {
            let mut calls = vec![call_text("search", json!({"query": query}))];
            if !doc.is_empty() {
                calls.push(call_text("open", json!({"doc_id": doc})));
            }
            calls
        })
        .collect();
    gold.push(call_text("answer", json!({"answer": answer})));
    gold
}
