use super::world::Op;
use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn bank_task() -> FncallTask {
    let mut initial = World::default();
    initial.accounts.insert("checking".into(), 100);
    initial.accounts.insert("savings".into(), 901);
    let apis = vec![
        ApiFn {
            op: Op::Transfer,
            name: "move_money".into(),
            params: vec!["from_account".into(), "to_account".into(), "sum".into()],
        },
        ApiFn {
            op: Op::GetBalance,
            name: "check_balance".into(),
            params: vec!["acct".into()],
        },
    ];
    let mut expected = initial.clone();
    *expected.accounts.get_mut("savings").unwrap() -= 450;
    *expected.accounts.get_mut("checking").unwrap() += 450;
    FncallTask {
        request: "Move half of the money in savings (rounded down) to checking.".into(),
        apis,
        initial,
        expected,
        answer: "done".into(),
        gold: vec![
            call_text("check_balance", json!({"acct": "savings"})),
            call_text(
                "move_money",
                json!({"from_account": "savings", "to_account": "checking", "sum": 450}),
            ),
        ],
        feasible: true,
    }
}

fn answer(a: &str) -> String {
    call_text("answer", json!({"answer": a}))
}

#[test]
fn generated_names_are_the_api() {
    let env = Fncall::reset(&bank_task(), Rng::from_seed(0));
    let specs = tool_specs(&bank_task());
    assert_eq!(specs[0]["function"]["name"], "move_money");
    assert_eq!(
        specs[0]["function"]["parameters"]["required"],
        json!(["from_account", "to_account", "sum"])
    );
    assert_eq!(env.observe(0).structured["tools"], specs);
    // The canonical name of another draw is not a function of this task.
    let err = env
        .parse_action(0, r#"transfer_funds "savings" "checking" 450"#)
        .unwrap_err();
    assert!(
        err.reason
            .starts_with("unknown tool `transfer_funds`; tools: move_money, check_balance, answer"),
        "{}",
        err.reason
    );
}

#[test]
fn results_are_json_and_refusals_change_nothing() {
    let mut env = Fncall::reset(&bank_task(), Rng::from_seed(0));
    for (text, want) in [
        ("check_balance savings", "{\"balance\": 901}"),
        (
            "move_money savings checking 5000",
            "error: insufficient funds in savings",
        ),
        (
            "move_money savings nowhere 5",
            "error: no account named \"nowhere\"; known: checking, savings",
        ),
        (
            "move_money savings checking 450",
            "{\"status\": \"ok\", \"savings\": 451, \"checking\": 550}",
        ),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want);
    }
    assert_eq!(env.world, env.task.expected);
}

#[test]
fn state_and_answer_both_decide() {
    let task = bank_task();
    let gold = task.gold.clone();
    assert!(
        run_script::<Fncall>(&task, gold.iter().cloned().chain([answer("done")]))
            .0
            .passed
    );
    // Extra reads are fine; the path is not scored.
    let reads = [
        gold[0].clone(),
        gold[0].clone(),
        gold[1].clone(),
        answer("Done."),
    ];
    assert!(run_script::<Fncall>(&task, reads).0.passed);
    for bad in [
        vec![answer("done")],
        vec![gold[1].clone(), answer("infeasible")],
        vec![
            gold[1].clone(),
            "move_money checking savings 1".into(),
            answer("done"),
        ],
        vec!["move_money savings checking 451".into(), answer("done")],
    ] {
        assert!(
            !run_script::<Fncall>(&task, bad.clone()).0.passed,
            "{bad:?}"
        );
    }
}

#[test]
fn infeasible_requests_need_the_impossible_part_and_the_other_parts_done() {
    let mut rng = Rng::from_seed(8);
    let config = FncallConfig {
        infeasible_share: 0.5,
        ..FncallConfig::default()
    };
    let mut seen = 0;
    for _ in 0..40 {
        let task = Fncall::generate(&config, &mut rng);
        if task.feasible {
            continue;
        }
        seen += 1;
        assert!(!task.gold.is_empty() && task.expected != task.initial);
        let part = crate::toolkit::final_answer::infeasible_evidence(&task.answer).unwrap();
        assert!(
            task.request.contains(part),
            "the evidence is a part of the request"
        );
        let verdict = format!("Infeasible: \"{part}\"");
        let done_then = |answer_text: &str| {
            task.gold
                .iter()
                .cloned()
                .chain([answer(answer_text)])
                .collect::<Vec<_>>()
        };
        assert!(run_script::<Fncall>(&task, done_then(&verdict)).0.passed);
        // The quote can be copied from the prompt: alone, it is no evidence.
        assert!(!run_script::<Fncall>(&task, [answer(&verdict)]).0.passed);
        for wrong in ["infeasible", "done", "infeasible: Then"] {
            assert!(!run_script::<Fncall>(&task, done_then(wrong)).0.passed);
        }
    }
    assert!(seen >= 10);
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<Fncall>(FncallConfig {
        infeasible_share: 0.5,
        ..FncallConfig::default()
    });
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<Fncall>(
        FncallConfig {
            modules: 2,
            parts: 1,
            ..FncallConfig::default()
        },
        true,
    );
    testkit::assert_acceptance::<Fncall>(
        FncallConfig {
            modules: 4,
            parts: 3,
            ..FncallConfig::default()
        },
        true,
    );
}

testkit::format_tests!(Fncall, FncallConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Fncall>(FncallConfig::default());
}

#[test]
fn the_observation_text_is_exact() {
    let mut env = Fncall::reset(&bank_task(), Rng::from_seed(0));
    let head = "Fulfil the user's request with the functions below.\n\
        Request: Move half of the money in savings (rounded down) to checking.\n\
        When done, call answer with the figure the request asks for, or `done` if it asks for none. \
        If a part cannot be done with these functions, do every other part, then answer `infeasible: PART`, \
        quoting the part of the request that no function can do.\n\n\
        Functions:\n\
        - move_money(from_account, to_account, sum): move money between two accounts\n\
        - check_balance(acct): the current balance of an account\n\
        - answer(answer): finish: the figure asked for, `done` if none, or `infeasible: PART`\n\
        Call exactly one tool per turn, e.g. <tool_call>{\"name\": \"TOOL\", \"arguments\": {\"ARG\": \"VALUE\"}}</tool_call> \
        (OpenAI tool_calls JSON, {\"name\", \"parameters\"} JSON, ReAct `Action:`/`Action Input:` and `TOOL \"arg\"` commands work too). \
        End with the `answer` tool; if the task cannot be done, answer `infeasible: EVIDENCE` with the evidence the task asks for.\n\n\
        History:\n";
    assert_eq!(env.observe(0).text, format!("{head}(no calls yet)\n"));
    let call = env.parse_action(0, "check_balance savings").unwrap();
    env.apply(0, call).unwrap();
    assert_eq!(
        env.observe(0).text,
        format!("{head}[1] check_balance(acct=\"savings\")\n{{\"balance\": 901}}\n")
    );
}
