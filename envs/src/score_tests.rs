//! Tests of offline scoring: chat responses to actions, the forfeit policy, truncation.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

#[test]
fn tool_calls_become_the_action_and_content_otherwise() {
    let content = json!({"choices": [{"message": {"role": "assistant", "content": "\\boxed{3}"}}]});
    assert_eq!(response_action(&content).unwrap().0, "\\boxed{3}");
    let calls =
        json!([{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]);
    let tool = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}}]});
    let action: Value = serde_json::from_str(&response_action(&tool).unwrap().0).unwrap();
    assert_eq!(action["tool_calls"][0]["function"]["name"], "ls");
    let empty_calls = json!({"choices": [{"message": {"content": "4", "tool_calls": []}}]});
    assert_eq!(response_action(&empty_calls).unwrap().0, "4");
    assert!(response_action(&json!({"error": "x"})).is_err());
}

#[test]
fn a_reply_cut_off_by_length_is_truncated_and_never_passes() {
    let registry = Registry::builtin();
    let env = registry.make("math/arithmetic-v1", None).unwrap();
    let card = crate::generate::generate_cards(&*env, 1, 3).remove(0);
    let reference = card.reference.as_ref().and_then(Value::as_str).unwrap();
    let item = |finish: &str, reasoning: Option<&str>| ScoreItem {
        card: serde_json::to_value(&card).unwrap(),
        answer: None,
        response: Some(json!({"choices": [{
            "finish_reason": finish,
            "message": {"content": format!("\\boxed{{{reference}}}"), "reasoning_content": reasoning},
        }]})),
    };
    let scored = score_items(
        &registry,
        &[item("stop", Some("17? no")), item("length", None)],
        &Shaping::default(),
    );
    let stop = scored[0].as_ref().unwrap();
    let cut = scored[1].as_ref().unwrap();
    assert!(stop.passed, "{stop:?}");
    assert!(
        !cut.passed && cut.breakdown.get("truncated") == Some(&1.0),
        "{cut:?}"
    );
}

#[test]
fn offline_scoring_forfeits_as_live_play_does() {
    let registry = Registry::builtin();
    let env = registry.make("logic/guess-number-v2@easy", None).unwrap();
    let cards = crate::generate::generate_cards(&*env, 4, 1);
    let mut live = registry.make("logic/guess-number-v2@easy", None).unwrap();
    live.reset(&cards[0]).unwrap();
    let winning = live.oracle_action(0).unwrap();
    let refused = || "I am not sure yet.".to_string();
    let score = |actions: Vec<String>| {
        score_cards(&registry, &cards, &[actions], &Shaping::default())
            .remove(0)
            .unwrap()
    };
    // Two refusals on a turn may be retried, as the driver allows.
    let retried = score(vec![refused(), refused(), winning.clone()]);
    assert_eq!(retried.breakdown.get("forfeit"), None, "{retried:?}");
    // A third refusal on one turn forfeits: the winning guess after it is not played.
    let forfeited = score(vec![refused(), refused(), refused(), winning]);
    assert!(!forfeited.passed);
    assert_eq!(
        forfeited.breakdown.get("forfeit"),
        Some(&1.0),
        "{forfeited:?}"
    );
}

/// Arbitrary JSON, nested a few levels: what a malformed line can hold.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|x| json!(x)),
        any::<String>().prop_map(Value::String),
        prop::sample::select(vec![
            "choices",
            "message",
            "content",
            "tool_calls",
            "card",
            "id"
        ])
        .prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "choices",
                    "message",
                    "content",
                    "tool_calls",
                    "card",
                    "id",
                    "env_id",
                    "answer",
                    "response",
                    "seed",
                    "config",
                    "task",
                ])
                .prop_map(str::to_string),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    /// The card and answer readers take any JSON: a value or an error,
    /// never a panic; an error message stays short.
    #[test]
    fn the_json_readers_take_any_json(value in json_value()) {
        let short = |e: &str| e.len() < 4_096;
        if let Err(e) = response_action(&value) {
            proptest::prop_assert!(short(&e.to_string()));
        }
        if let Err(e) = answer_actions(&value) {
            proptest::prop_assert!(short(&e.to_string()) || value.to_string().len() > 4_000);
        }
        let _ = card_from_json(value.clone());
        let wrapped = json!({"choices": [{"message": value}]});
        let _ = response_action(&wrapped);
        let _ = crate::completion::completion_actions(&value, Some("act"));
        let _ = crate::labels::Label::parse(&value);
    }

    /// Whole files of arbitrary lines: every line is scored or reported by
    /// number, nothing lost, never a panic.
    #[test]
    fn score_reports_every_line_of_any_file(
        tasks in proptest::collection::vec(json_value().prop_map(|v| v.to_string()), 0..6),
        answers in proptest::collection::vec(any::<String>(), 0..6),
    ) {
        let registry = Registry::builtin();
        let report = score_answers(&registry, &tasks.join("\n"), &answers.join("\n"), &Shaping::default());
        let answer_lines = answers.join("\n").lines().filter(|l| !l.trim().is_empty()).count();
        let task_errors = report.errors.iter().filter(|e| e.file == "tasks").count();
        let answer_errors = report.errors.iter().filter(|e| e.file == "answers").count();
        proptest::prop_assert!(task_errors <= tasks.iter().filter(|l| !l.trim().is_empty()).count());
        proptest::prop_assert_eq!(answer_errors + report.scored.len(), answer_lines);
    }
}
