//! Tests of the trainer reward path: labels, completions in every shape a
//! trainer hands back, routing by kind, and failures kept to their own item.

use serde_json::{Value, json};

use super::*;
use crate::generate::generate_cards;
use crate::seat::SeatOptions;

fn registry() -> Registry {
    Registry::builtin()
}

fn card(registry: &Registry, id: &str, seed: u64) -> TaskCard {
    let env = registry.make(id, None).unwrap();
    generate_cards(&*env, seed, 1).remove(0)
}

fn label(card: &TaskCard) -> Value {
    Value::String(serde_json::to_string(card).unwrap())
}

fn score(labels: &[Value], completions: &[Value]) -> Vec<Result<ScoredAnswer, EnvError>> {
    score_labels(&registry(), labels, completions, &LabelOptions::default())
}

fn reward(result: &Result<ScoredAnswer, EnvError>) -> f64 {
    result.as_ref().unwrap().reward.unwrap()
}

#[test]
fn labels_are_read_as_text_objects_or_with_their_seat() {
    let registry = registry();
    let card = card(&registry, "math/arithmetic-v1", 1);
    let as_value = serde_json::to_value(&card).unwrap();
    for label in [
        label(&card),
        as_value.clone(),
        json!({"card": as_value, "seat": 0}),
        json!({"card": serde_json::to_string(&card).unwrap()}),
        Value::String(json!({"card": as_value, "seat": 0}).to_string()),
    ] {
        let parsed = Label::parse(&label).unwrap();
        assert_eq!(
            (parsed.card.id.as_str(), parsed.seat),
            (card.id.as_str(), 0)
        );
    }
    let seat = Label::parse(&json!({"card": as_value, "seat": 1})).unwrap();
    assert_eq!(seat.seat, 1);
    for (bad, why) in [
        (json!("not json"), "not JSON"),
        (json!([1, 2]), "JSON object"),
        (json!({"env_id": "math/arithmetic-v1"}), "no env_id or task"),
        (
            json!({"card": as_value, "seat": -1}),
            "non-negative integer",
        ),
        (
            json!({"card": as_value, "seat": "0"}),
            "non-negative integer",
        ),
    ] {
        let error = Label::parse(&bad).unwrap_err().to_string();
        assert!(error.contains(why), "{bad}: {error}");
    }
}

#[test]
fn single_turn_answers_pass_in_every_shape_a_trainer_hands_back() {
    let registry = registry();
    let card = card(&registry, "math/arithmetic-v1", 7);
    let gold = card.reference.as_ref().and_then(Value::as_str).unwrap();
    let wrong = format!("{gold}1");
    let right = format!("Adding it up step by step, I get \\boxed{{{gold}}}.");
    let shapes = |answer: &str| {
        vec![
            json!(answer),
            json!(format!("<think>maybe {wrong}? no.</think>\n{answer}")),
            json!([{"role": "assistant", "content": answer}]),
            json!([{"role": "assistant", "content": answer, "reasoning_content": format!("is it \\boxed{{{wrong}}}? no")}]),
            json!([{"role": "assistant", "content": [{"type": "text", "text": answer}]}]),
            json!({"role": "assistant", "content": answer}),
            // A tool-calling trainer offers the answer as the `answer` tool.
            json!([{"role": "assistant", "content": null, "tool_calls": [
                {"type": "function", "function": {"name": "answer", "arguments": json!({"action": answer}).to_string()}}]}]),
            json!([{"role": "assistant", "tool_calls": [{"name": "answer", "arguments": {"action": answer}}]}]),
            // Earlier turns do not count: the last one is the answer.
            json!([{"role": "assistant", "content": format!("\\boxed{{{wrong}}}")},
                   {"role": "user", "content": "Check again."},
                   {"role": "assistant", "content": answer}]),
        ]
    };
    let right_shapes = shapes(&right);
    let labels = vec![label(&card); right_shapes.len()];
    for (i, result) in score(&labels, &right_shapes).iter().enumerate() {
        assert_eq!(reward(result), 1.0, "shape {i}: {result:?}");
    }
    let wrong_shapes = shapes(&format!("\\boxed{{{wrong}}}"));
    for (i, result) in score(&labels, &wrong_shapes).iter().enumerate() {
        assert!(!result.as_ref().unwrap().passed, "shape {i}: {result:?}");
    }
    // Empty, a prompt echo, a user turn only, a hedge of two answers.
    let degenerate = vec![
        json!(""),
        Value::Null,
        json!(card.prompt),
        json!([{"role": "user", "content": format!("\\boxed{{{gold}}}")}]),
        json!(format!("\\boxed{{{gold}}} or \\boxed{{{wrong}}}")),
    ];
    let labels = vec![label(&card); degenerate.len()];
    for (i, result) in score(&labels, &degenerate).iter().enumerate() {
        assert!(
            !result.as_ref().unwrap().passed,
            "degenerate {i}: {result:?}"
        );
    }
}

#[test]
fn separate_reasoning_is_kept_as_reasoning_for_shaping() {
    let registry = registry();
    let card = card(&registry, "math/arithmetic-v1", 2);
    let gold = card.reference.as_ref().and_then(Value::as_str).unwrap();
    let options = LabelOptions {
        shaping: serde_json::from_value(json!({"format_think": 0.1})).unwrap(),
        ..LabelOptions::default()
    };
    let completions = [
        json!([{"role": "assistant", "content": format!("\\boxed{{{gold}}}"), "reasoning_content": "carry the one"}]),
        json!([{"role": "assistant", "content": format!("\\boxed{{{gold}}}")}]),
    ];
    let scored = score_labels(
        &registry,
        &[label(&card), label(&card)],
        &completions,
        &options,
    );
    let (with, without) = (reward(&scored[0]), reward(&scored[1]));
    assert!(with > without, "reasoning {with} vs none {without}");
}

/// The oracle's actions of a one-player multi-turn episode.
fn oracle_actions(registry: &Registry, card: &TaskCard) -> Vec<String> {
    let mut env = registry.make_for_card(card).unwrap();
    env.reset(card).unwrap();
    let mut actions = Vec::new();
    while env.status() == crate::core::Status::Running {
        let action = env.oracle_action(0).unwrap();
        env.step(0, &action).unwrap();
        actions.push(action);
    }
    actions
}

/// A conversation with one assistant message per action, feedback between.
fn conversation(messages: impl IntoIterator<Item = Value>) -> Value {
    let mut turns = vec![json!({"role": "user", "content": "the task"})];
    for message in messages {
        turns.push(message);
        turns.push(json!({"role": "user", "content": "feedback"}));
    }
    Value::Array(turns)
}

#[test]
fn multi_turn_episodes_replay_every_assistant_turn_in_each_shape() {
    let registry = registry();
    let card = card(&registry, "logic/guess-number-v2", 3);
    let actions = oracle_actions(&registry, &card);
    assert!(actions.len() > 1, "{actions:?}");
    let text = conversation(
        actions
            .iter()
            .map(|a| json!({"role": "assistant", "content": format!("My guess: {a}"), "reasoning_content": "halve the range"})),
    );
    let openai = conversation(actions.iter().map(|a| {
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"type": "function", "function": {"name": "act", "arguments": json!({"action": a}).to_string()}}]})
    }));
    let trl = conversation(actions.iter().map(|a| {
        json!({"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "act", "arguments": {"action": a}}}]})
    }));
    let labels = vec![label(&card); 3];
    for (i, result) in score(&labels, &[text, openai, trl]).iter().enumerate() {
        assert_eq!(reward(result), 1.0, "shape {i}: {result:?}");
    }
    // Stopping short, or the first guess only, does not pass.
    let short = conversation([json!({"role": "assistant", "content": actions[0]})]);
    assert!(!score(&[label(&card)], &[short])[0].as_ref().unwrap().passed);
}

#[test]
fn tool_envs_read_each_assistant_turn_as_its_calls() {
    let registry = registry();
    let card = card(&registry, "tools/calendar-v2", 4);
    let actions = oracle_actions(&registry, &card);
    let calls: Vec<Value> = actions
        .iter()
        .map(|a| {
            // The oracle writes one call per turn (a Hermes block): its JSON.
            let json = &a[a.find('{').unwrap()..=a.rfind('}').unwrap()];
            serde_json::from_str::<Value>(json).unwrap_or_else(|e| panic!("{a}: {e}"))
        })
        .collect();
    let openai = conversation(calls.iter().map(|call| {
        let arguments = call
            .get("arguments")
            .or_else(|| call.get("parameters"))
            .unwrap();
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function",
            "function": {"name": call["name"], "arguments": arguments.to_string()}}]})
    }));
    let flat = conversation(
        calls
            .iter()
            .map(|call| json!({"role": "assistant", "tool_calls": [call]})),
    );
    // Text without a call in a conversation with calls is not an action.
    let mut closing = flat.as_array().unwrap().clone();
    closing.push(json!({"role": "assistant", "content": "All booked, thanks!"}));
    let labels = vec![label(&card); 3];
    let results = score(&labels, &[openai, flat, Value::Array(closing)]);
    for (i, result) in results.iter().enumerate() {
        assert_eq!(reward(result), 1.0, "shape {i}: {result:?}");
    }
}

#[test]
fn games_replay_the_labels_seat_against_the_opponent() {
    let registry = registry();
    let card = card(&registry, "games/tictactoe-v1", 5);
    for seat in [0, 1] {
        let env = registry.make_for_card(&card).unwrap();
        let mut live = crate::seat::SeatEpisode::new(env, SeatOptions::default()).unwrap();
        live.reset(&card, seat, |c| registry.make_for_card(c))
            .unwrap();
        let mut actions = Vec::new();
        while !live.done() {
            let action = live.oracle_action().unwrap();
            live.step(&action).unwrap();
            actions.push(action);
        }
        let as_calls = conversation(actions.iter().map(|a| {
            json!({"role": "assistant", "tool_calls": [{"function": {"name": "play", "arguments": {"action": a}}}]})
        }));
        let as_text = conversation(
            actions
                .iter()
                .map(|a| json!({"role": "assistant", "content": format!("I play {a}.")})),
        );
        let game_label = json!({"card": card, "seat": seat});
        let results = score(&[game_label.clone(), game_label], &[as_calls, as_text]);
        for result in &results {
            assert_eq!(
                reward(result),
                live.score().reward,
                "seat {seat}: {result:?}"
            );
        }
        // Nonsense forfeits after the retries: the floor reward.
        let nonsense = conversation((0..3).map(|_| json!({"role": "assistant", "content": "hmm"})));
        let lost = score(&[json!({"card": card, "seat": seat})], &[nonsense]);
        assert_eq!(reward(&lost[0]), -1.0, "{lost:?}");
    }
}

#[test]
fn a_bad_item_fails_alone_and_seats_are_checked() {
    let registry = registry();
    let math = card(&registry, "math/arithmetic-v1", 9);
    let gold = math.reference.as_ref().and_then(Value::as_str).unwrap();
    let answer = json!(format!("\\boxed{{{gold}}}"));
    let mut unknown = serde_json::to_value(&math).unwrap();
    unknown["env_id"] = json!("math/no-such-env-v1");
    let labels = [
        json!("{"),
        label(&math),
        json!({"card": math, "seat": 1}),
        unknown,
        label(&math),
    ];
    let completions = [
        answer.clone(),
        answer.clone(),
        answer.clone(),
        answer.clone(),
        json!(17),
    ];
    let results = score(&labels, &completions);
    assert!(results[0].is_err());
    assert_eq!(reward(&results[1]), 1.0);
    let seat = results[2].as_ref().unwrap_err().to_string();
    assert!(seat.contains("only seat is 0"), "{seat}");
    let env = results[3].as_ref().unwrap_err().to_string();
    assert!(env.contains("no-such-env"), "{env}");
    let number = results[4].as_ref().unwrap_err().to_string();
    assert!(number.contains("completion must be text"), "{number}");
}
