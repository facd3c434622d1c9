//! The later call formats read with the envs' own schemas, several calls in
//! one turn, and soundness: two different answers (in one format or across
//! two), a call beside a different call in another format, garbage, and
//! what a turn's calls do to an episode (order, calls after the end, the
//! call cap).

use serde_json::{Value, json};

use super::calls::ToolCall;
use super::parse::{END_MARKERS, MAX_CALLS_PER_TURN, parse_calls};
use super::spec::ToolSpec;
use crate::core::{Env, Status, Turn};
use crate::dynenv::{DynEnv, Instance};
use crate::rng::mix_seed;
use crate::tools::calendar::TOOLS as CALENDAR;
use crate::tools::service_desk::TOOLS as DESK;
use crate::tools::vfs_shell::{TOOLS as VFS, VfsShell};
use crate::web::WEB_TOOLS;
use crate::web::site_nav::SiteNav;

fn call(name: &str, args: Value) -> ToolCall {
    ToolCall::new(name, args)
}

fn read(text: &str, tools: &[ToolSpec]) -> Vec<ToolCall> {
    parse_calls(text, tools).unwrap_or_else(|e| panic!("{text:?}: {}", e.reason))
}

fn hermes(name: &str, args: Value) -> String {
    format!(
        "<tool_call>{}</tool_call>",
        json!({"name": name, "arguments": args})
    )
}

#[test]
fn model_family_formats_are_read_with_the_envs_schemas() {
    let jonas = vec![call("get_schedule", json!({"name": "Jonas"}))];
    let tag = r#"<|python_tag|>{"name": "get_schedule", "parameters": {"name": "Jonas"}}"#;
    for text in [
        tag.to_string(),
        format!("{tag}<|eom_id|>"),
        format!("{tag}<|eot_id|>"),
        r#"[get_schedule(name="Jonas")]"#.into(),
        "[get_schedule(name='Jonas')]".into(),
        "I'll look.\n[ get_schedule( name = 'Jonas', ) ]".into(),
        r#"[TOOL_CALLS][{"name": "get_schedule", "arguments": {"name": "Jonas"}}]"#.into(),
        r#"[TOOL_CALLS]get_schedule[ARGS]{"name": "Jonas"}"#.into(),
        r#"{"name": "get_schedule", "arguments": {"name": "Jonas",},}"#.into(),
        "<tool_call>\n{\"name\": \"get_schedule\", \"arguments\": {\"name\": \"Jonas\",}}\n</tool_call>".into(),
        "**Action:** get_schedule\n**Action Input:** {\"name\": \"Jonas\"}".into(),
        "**Action**: `get_schedule`\n**Action Input**: Jonas".into(),
    ] {
        assert_eq!(read(&text, &CALENDAR), jonas, "{text:?}");
    }
    // Pythonic values are Python literals, checked against the schema.
    assert_eq!(
        read(
            "[book(title='Sync', room=\"Oak\", day='Tue', start='09:30', minutes=45, attendees='Ana, Bo')]",
            &CALENDAR
        ),
        vec![call(
            "book",
            json!({"title": "Sync", "room": "Oak", "day": "Tue", "start": "09:30", "minutes": 45, "attendees": "Ana, Bo"})
        )]
    );
    assert_eq!(
        read("[rm(path='/tmp', recursive=True)]", &VFS),
        vec![call("rm", json!({"path": "/tmp", "recursive": true}))]
    );
    assert_eq!(
        read("[click(id=12)]<|eot_id|>", &WEB_TOOLS),
        vec![call("click", json!({"id": 12}))]
    );
    // An end-of-turn marker ends the reply: nothing after it is read.
    let ls = hermes("ls", json!({"path": "/"}));
    for marker in END_MARKERS {
        let text = format!(
            "{ls}{marker}\n<|im_start|>user\n{}",
            hermes("rm", json!({"path": "/"}))
        );
        assert_eq!(
            read(&text, &VFS),
            vec![call("ls", json!({"path": "/"}))],
            "{marker}"
        );
    }
}

#[test]
fn a_restated_answer_after_the_call_is_prose() {
    let want = vec![call("answer", json!({"answer": "42"}))];
    for text in [
        format!(
            "{}\nThe answer is 42.",
            hermes("answer", json!({"answer": "42"}))
        ),
        "{\"name\": \"answer\", \"parameters\": {\"answer\": \"42\"}}\n\n**Answer: 42**".into(),
        "[answer(answer='42')]\nSo the total is 42, or 42.0 written out.".into(),
        "Action: answer\nAction Input: {\"answer\": \"42\"}\nThe answer is 42.".into(),
        "Action: answer\nAction Input: 42\nThe answer is 42, double-checked.".into(),
        "answer 42\nThat is the total of the unpaid invoices.".into(),
    ] {
        assert_eq!(read(&text, &VFS), want, "{text:?}");
    }
}

#[test]
fn a_turn_may_make_several_calls_in_order() {
    let want = vec![
        call("ls", json!({"path": "/"})),
        call("cat", json!({"path": "/a.txt"})),
    ];
    for text in [
        r#"{"tool_calls": [{"type": "function", "function": {"name": "ls", "arguments": "{\"path\": \"/\"}"}}, {"type": "function", "function": {"name": "cat", "arguments": "{\"path\": \"/a.txt\"}"}}]}"#.to_string(),
        format!("{}\n{}", hermes("ls", json!({"path": "/"})), hermes("cat", json!({"path": "/a.txt"}))),
        r#"[TOOL_CALLS][{"name": "ls", "arguments": {"path": "/"}}, {"name": "cat", "arguments": {"path": "/a.txt"}}]"#.into(),
        r#"[ls(path="/"), cat(path="/a.txt")]"#.into(),
        r#"<|python_tag|>{"name": "ls", "parameters": {"path": "/"}}; {"name": "cat", "parameters": {"path": "/a.txt"}}<|eom_id|>"#.into(),
        r#"[{"name": "ls", "parameters": {"path": "/"}}, {"name": "cat", "parameters": {"path": "/a.txt"}}]"#.into(),
    ] {
        assert_eq!(read(&text, &VFS), want, "{text:?}");
    }
    let many = format!(
        "[{}]",
        vec!["ls(path='/')"; MAX_CALLS_PER_TURN + 1].join(", ")
    );
    assert!(
        parse_calls(&many, &VFS)
            .unwrap_err()
            .reason
            .contains("at most")
    );
}

#[test]
fn two_different_answers_in_one_turn_are_refused() {
    let seven = hermes("answer", json!({"answer": "7"}));
    let nine = hermes("answer", json!({"answer": "9"}));
    let react7 = "Action: answer\nAction Input: {\"answer\": \"7\"}";
    let bold7 = "**Action:** answer\n**Action Input:** {\"answer\": \"7\"}";
    for text in [
        format!("{seven}\n{nine}"),
        format!("{react7}\n{nine}"),
        format!("{nine}\n{react7}"),
        format!("{bold7}\n\n{nine}"),
        format!("```json\n{{\"name\": \"answer\", \"arguments\": {{\"answer\": \"7\"}}}}\n```\n{nine}"),
        format!("[answer(answer='7')]\n{nine}"),
        format!("{nine}\n[answer(answer='7')]"),
        r#"[answer(answer='7'), answer(answer='9')]"#.into(),
        r#"[TOOL_CALLS][{"name": "answer", "arguments": {"answer": "7"}}, {"name": "answer", "arguments": {"answer": "9"}}]"#.into(),
        r#"{"tool_calls": [{"function": {"name": "answer", "arguments": "{\"answer\": \"7\"}"}}, {"function": {"name": "answer", "arguments": "{\"answer\": \"9\"}"}}]}"#.into(),
        r#"<|python_tag|>{"name": "answer", "parameters": {"answer": "7"}}; {"name": "answer", "parameters": {"answer": "9"}}"#.into(),
        format!("[TOOL_CALLS][{{\"name\": \"answer\", \"arguments\": {{\"answer\": \"7\"}}}}]\n{nine}"),
        format!("{{\"name\": \"answer\", \"parameters\": {{\"answer\": \"7\"}}}}\n{nine}"),
        // A non-answer call between them changes nothing.
        format!("{seven}\n{}\n{nine}", hermes("ls", json!({"path": "/"}))),
        // Nor does a call after the answer: it could never run.
        format!("{seven}\n{}", hermes("ls", json!({"path": "/"}))),
    ] {
        let err = parse_calls(&text, &VFS).expect_err(&text);
        assert!(err.ambiguous, "{text:?}: {}", err.reason);
    }
    // Two different resolutions of the service desk, too.
    let two = r#"[issue_refund(order_id="O-1", amount=5), refuse(reason="final_sale", customer_id="C-1")]"#;
    let refusals = parse_calls(two, &DESK);
    assert!(refusals.is_err_and(|e| e.ambiguous), "{two}");
}

#[test]
fn the_same_call_twice_is_fine() {
    let answer = hermes("answer", json!({"answer": "42"}));
    let want = call("answer", json!({"answer": "42"}));
    assert_eq!(
        read(&format!("{answer}\n{answer}"), &VFS),
        vec![want.clone(), want.clone()]
    );
    // The same call in a second format restates it: one call.
    for text in [
        format!("Action: answer\nAction Input: {{\"answer\": 42}}\n{answer}"),
        format!(
            "```json\n{{\"name\": \"answer\", \"arguments\": {{\"answer\": \"42\"}}}}\n```\n{answer}"
        ),
        format!("{answer}\n[answer(answer='42')]"),
    ] {
        assert_eq!(read(&text, &VFS), vec![want.clone()], "{text:?}");
    }
}

#[test]
fn a_call_beside_a_different_call_in_another_format_is_refused() {
    let cat = hermes("cat", json!({"path": "/a.txt"}));
    for text in [
        format!("```json\n{{\"name\": \"ls\", \"arguments\": {{\"path\": \"/\"}}}}\n```\n{cat}"),
        "```json\n{\"name\": \"ls\", \"arguments\": {\"path\": \"/\"}}\n```\nor\n```json\n{\"name\": \"rm\", \"arguments\": {\"path\": \"/\"}}\n```".into(),
        format!("Action: ls\nAction Input: {{\"path\": \"/\"}}\n{cat}"),
        "Action: ls\nAction Input: {\"path\": \"/\"}\nObservation: a.txt\nAction: cat\nAction Input: {\"path\": \"/a.txt\"}".into(),
        format!("[ls(path='/')]\n{cat}"),
    ] {
        let err = parse_calls(&text, &VFS).expect_err(&text);
        assert!(err.ambiguous, "{text:?}: {}", err.reason);
    }
}

#[test]
fn garbage_is_refused_with_a_reason() {
    for text in [
        "",
        "   \n ",
        "<|im_end|>",
        "<|eot_id|> answer 7",
        "I am not sure what to do.",
        "{",
        "[",
        "{\"path\": \"/\"}",
        "[TOOL_CALLS]",
        "[TOOL_CALLS]nonsense",
        "<|python_tag|>",
        "<|python_tag|>print(open('/etc/passwd').read())",
        "<tool_call></tool_call>",
        "<tool_call>ls /</tool_call>",
        "[ls(",
        "[ls('/')]",
        "[ls(path=open('/etc/passwd'))]",
        "[ls(path=__import__('os').system('rm -rf /'))]",
        "[nope(path='/')]",
        "**Action:** nope",
        "Action: ls\nAction Input: {\"path\": }",
    ] {
        let err = parse_calls(text, &VFS).expect_err(text);
        assert!(
            !err.reason.is_empty() && err.reason.len() < 600,
            "{text:?}: {}",
            err.reason
        );
    }
    let huge = format!("[ls(path='{}')]", "x".repeat(30_000));
    assert!(parse_calls(&huge, &VFS).is_err());
}

fn vfs_episode() -> Instance<VfsShell> {
    let mut env = Instance::<VfsShell>::new(Default::default()).unwrap();
    let card = env.generate(mix_seed(0xca11, 1));
    env.reset(&card).unwrap();
    env
}

fn history(env: &Instance<VfsShell>) -> Vec<String> {
    env.observe(0).unwrap().structured["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["call"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_turns_calls_run_in_order_and_nothing_runs_after_the_answer() {
    let mut env = vfs_episode();
    let step = env
        .step(
            0,
            r#"[write(path="/r.txt", content="x"), cat(path="/r.txt"), answer(answer="42")]"#,
        )
        .unwrap();
    assert_eq!(step.events.len(), 3);
    let names: Vec<String> = history(&env)
        .iter()
        .map(|c| c.split('(').next().unwrap().to_string())
        .collect();
    assert_eq!(names, ["write", "cat", "answer"]);
    assert_eq!(env.status(), Status::Terminated);

    // A call written after the answer is refused: it could never run.
    let mut env = vfs_episode();
    let text = r#"[answer(answer="42"), write(path="/r.txt", content="x")]"#;
    assert!(
        env.step(0, text)
            .unwrap_err()
            .to_string()
            .contains("ends the episode")
    );
    assert_eq!(env.steps(), 0);
    // The same answer twice is one answer; the repeat is not run.
    let step = env
        .step(0, r#"[answer(answer="42"), answer(answer="42")]"#)
        .unwrap();
    assert!(
        step.events[1].starts_with("not run: answer"),
        "{:?}",
        step.events
    );
    assert_eq!(history(&env).len(), 1);
    // Calls after one that ended the episode are not run (the env's own
    // path, as after an order placed by a click).
    let mut state = env.state().unwrap().clone();
    let events = state
        .apply(0, vec![call("ls", json!({"path": "/"}))])
        .unwrap();
    assert!(events[0].starts_with("not run: ls"), "{events:?}");
}

#[test]
fn each_call_counts_toward_the_cap() {
    let max = <VfsShell as crate::core::Env>::SPEC.max_steps;
    let mut env = vfs_episode();
    for _ in 0..max - 2 {
        env.step(0, "ls /").unwrap();
    }
    let step = env
        .step(0, "[ls(path='/'), ls(path='/'), answer(answer='1')]")
        .unwrap();
    assert!(
        step.events[2].starts_with("not run: answer"),
        "{:?}",
        step.events
    );
    assert_eq!(history(&env).len(), max);
    assert_eq!(env.turn(), Turn::Over);
    assert!(!env.score(0).passed);
    // Single calls reach the cap as before: truncated by the step count.
    let mut env = vfs_episode();
    for _ in 0..max {
        env.step(0, "ls /").unwrap();
    }
    assert_eq!(env.status(), Status::Truncated);
    // And an env driven directly, past the cap, one call a turn, runs every
    // call as it always did (the driver owns that cap).
    let mut state = env.state().unwrap().clone();
    let events = state
        .apply(0, vec![call("ls", json!({"path": "/"}))])
        .unwrap();
    assert_eq!(events, [r#"ls(path="/")"#]);
}

#[test]
fn the_reply_reader_never_picks_one_side_of_a_hedge() {
    let mut env = vfs_episode();
    let nine = hermes("answer", json!({"answer": "9"}));
    for text in [
        format!(
            "```json\n{{\"name\": \"answer\", \"arguments\": {{\"answer\": \"7\"}}}}\n```\n{nine}"
        ),
        format!("Some thoughts.\nAction: answer\nAction Input: {{\"answer\": \"7\"}}\n{nine}"),
        format!("<think>hmm</think>\n[answer(answer='7')]\n\n{nine}"),
    ] {
        assert!(env.step(0, &text).is_err(), "{text:?}");
        assert_eq!(env.steps(), 0);
    }
}

#[test]
fn a_web_turn_shows_each_calls_result_in_order() {
    let mut env = Instance::<SiteNav>::new(Default::default()).unwrap();
    let card = env.generate(mix_seed(0xca11, 2));
    env.reset(&card).unwrap();
    let before = env.observe(0).unwrap().text;
    env.step(0, "[scroll(direction='down'), scroll(direction='up')]")
        .unwrap();
    let text = env.observe(0).unwrap().text;
    assert!(
        text.contains("2 calls this turn:\n[1] scroll(direction=\"down\"): ")
            && text.contains("\n[2] scroll(direction=\"up\"): "),
        "{text}"
    );
    assert_ne!(before, text);
}
