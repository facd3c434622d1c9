use super::*;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

fn easy() -> VfsShellConfig {
    VfsShellConfig {
        invoices: 6,
        logs: 5,
        notes: 2,
        ..VfsShellConfig::default()
    }
}

fn small_task() -> VfsShellTask {
    let mut initial = Tree::new();
    fs::mkdir(&mut initial, "/invoices").unwrap();
    fs::write(&mut initial, "/invoices/inv-1.txt", "amount: 600\n").unwrap();
    fs::write(&mut initial, "/invoices/inv-2.txt", "amount: 100\n").unwrap();
    let mut expected = initial.clone();
    fs::mkdir(&mut expected, "/archive").unwrap();
    fs::mv(&mut expected, "/invoices/inv-1.txt", "/archive").unwrap();
    VfsShellTask {
        instruction: "Move every invoice over 500 into /archive and answer the total.".into(),
        initial,
        expected,
        answer: "600".into(),
        feasible: true,
    }
}

fn play(env: &mut VfsShell, text: &str) -> String {
    let call = env.parse_action(0, text).unwrap();
    env.apply(0, call).unwrap();
    env.log.last_result().unwrap().to_string()
}

#[test]
fn a_worked_episode_reads_and_scores_exactly() {
    let mut env = VfsShell::reset(&small_task(), Rng::from_seed(0));
    assert_eq!(
        play(&mut env, r#"grep "amount" "/invoices""#),
        "/invoices/inv-1.txt:1:amount: 600\n/invoices/inv-2.txt:1:amount: 100"
    );
    assert_eq!(
        play(&mut env, r#"cat "/invoices/inv-9.txt""#),
        "error: /invoices/inv-9.txt: no such file or directory"
    );
    assert_eq!(play(&mut env, "mkdir /archive"), "created /archive");
    assert_eq!(
        play(&mut env, "mv /invoices/inv-1.txt /archive"),
        "moved /invoices/inv-1.txt -> /archive/inv-1.txt"
    );
    assert!(!env.score(0).passed, "no answer yet");
    assert_eq!(env.turn(), Turn::Player(0));
    play(
        &mut env,
        r#"{"name": "answer", "parameters": {"answer": "$600."}}"#,
    );
    assert_eq!(env.turn(), Turn::Over);
    let score = env.score(0);
    assert!(score.passed);
    assert_eq!(score.breakdown["state_correct"], 1.0);
    assert!(
        env.observe(0)
            .text
            .contains("[4] mv(source=\"/invoices/inv-1.txt\", target=\"/archive\")\nmoved")
    );
}

#[test]
fn right_answer_with_wrong_tree_and_wrong_answer_with_right_tree_fail() {
    let task = small_task();
    let answer = |a: &str| call_text("answer", json!({"answer": a}));
    let (score, _) = run_script::<VfsShell>(&task, [answer("600")]);
    assert!(!score.passed);
    assert_eq!(score.breakdown["answer_correct"], 1.0);
    assert_eq!(score.reward, 0.0, "partial credit stays in the breakdown");
    let fix = [
        "mkdir /archive".to_string(),
        "mv /invoices/inv-1.txt /archive".to_string(),
    ];
    for wrong in ["700", "600 or 700", "", "infeasible"] {
        let script = fix.iter().cloned().chain([answer(wrong)]);
        assert!(!run_script::<VfsShell>(&task, script).0.passed, "{wrong:?}");
    }
    // An extra scratch file is a change to the tree.
    let script = fix
        .iter()
        .cloned()
        .chain(["write /notes.txt hi".to_string(), answer("600")]);
    assert!(!run_script::<VfsShell>(&task, script).0.passed);
    let script = fix.iter().cloned().chain([answer("600")]);
    assert!(run_script::<VfsShell>(&task, script).0.passed);
}

#[test]
fn oracle_recovers_after_random_damage() {
    let mut rng = Rng::from_seed(5);
    for _ in 0..30 {
        let task = VfsShell::generate(&easy(), &mut rng);
        let mut env = VfsShell::reset(&task, Rng::from_seed(0));
        for _ in 0..10 {
            let text = env.random_action(0, &mut rng);
            if let Ok(calls) = env.parse_action(0, &text)
                && calls.iter().all(|c| c.name != "answer")
            {
                env.apply(0, calls).unwrap();
            }
        }
        for _ in 0..200 {
            if env.turn() == Turn::Over {
                break;
            }
            let call = env.parse_action(0, &env.oracle(0).unwrap()).unwrap();
            env.apply(0, call).unwrap();
        }
        assert!(env.score(0).passed, "{}", env.render());
    }
}

#[test]
fn generated_tasks_are_screened_and_mixed() {
    let mut rng = Rng::from_seed(3);
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..100 {
        let task = VfsShell::generate(&VfsShellConfig::default(), &mut rng);
        assert!(oracle_passes::<VfsShell>(&task));
        assert_eq!(
            task.feasible,
            task.expected != task.initial,
            "{}",
            task.instruction
        );
        kinds.insert(
            task.instruction
                .split_whitespace()
                .next()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(kinds.len(), 4, "{kinds:?}");
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<VfsShell>(easy(), true);
    let hard = VfsShellConfig {
        invoices: 30,
        logs: 16,
        notes: 8,
        by_year: true,
        ..VfsShellConfig::default()
    };
    testkit::assert_acceptance::<VfsShell>(hard, true);
}

testkit::format_tests!(VfsShell, easy());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<VfsShell>(easy());
}

#[test]
fn tool_specs_are_openai_functions() {
    let specs = tool_specs();
    assert_eq!(specs.as_array().unwrap().len(), 10);
    assert_eq!(
        specs[6]["function"]["parameters"]["required"],
        json!(["path"])
    );
    let env = VfsShell::reset(&small_task(), Rng::from_seed(0));
    assert_eq!(env.observe(0).structured["tools"], specs);
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<VfsShell>(VfsShellConfig {
        infeasible_share: 0.5,
        ..easy()
    });
}
