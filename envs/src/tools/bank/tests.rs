use super::task::{decide, gold_calls};
use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn txn(account: &str, days_ago: i64, kind: &str, direction: &str, amount: i64, other: &str) -> Txn {
    Txn {
        account: account.into(),
        days_ago,
        kind: serde_json::from_value(json!(kind)).unwrap(),
        direction: serde_json::from_value(json!(direction)).unwrap(),
        amount,
        counterparty: other.into(),
    }
}

fn account(id: &str, owner: &str, kind: &str, balance: i64, daily_limit: i64) -> Account {
    Account {
        id: id.into(),
        owner: owner.into(),
        kind: kind.into(),
        balance,
        daily_limit,
    }
}

/// Ada (C-1) owns A-1 (1000, limit 1000, 400 sent by transfer today and
/// 300 paid by card) and A-2 (300, limit 500); Bo (C-2) owns A-3.
fn bank(holds: &[(&str, &str)]) -> Bank {
    Bank {
        customers: vec![
            Customer {
                id: "C-1".into(),
                name: "Ada Berg".into(),
                email: "ada@example.com".into(),
            },
            Customer {
                id: "C-2".into(),
                name: "Bo Ito".into(),
                email: "bo@example.com".into(),
            },
        ],
        accounts: vec![
            account("A-1", "C-1", "checking", 1000, 1000),
            account("A-2", "C-1", "savings", 300, 500),
            account("A-3", "C-2", "checking", 5000, 2000),
        ],
        holds: holds
            .iter()
            .enumerate()
            .map(|(i, (account, reason))| Hold {
                id: format!("H-{}", 7 + i),
                account: (*account).into(),
                reason: (*reason).into(),
            })
            .collect(),
        transactions: vec![
            txn("A-1", 0, "transfer", "out", 400, "A-3"),
            txn("A-1", 0, "card", "out", 300, "grocery store"),
            txn("A-1", 1, "transfer", "out", 500, "A-3"),
            txn("A-1", 0, "transfer", "in", 200, "A-3"),
            txn("A-3", 0, "transfer", "in", 400, "A-1"),
        ],
    }
}

fn task(bank: Bank, request: Request) -> BankTask {
    let expected = decide(&bank, "C-1", &request);
    let mut task = BankTask {
        bank,
        caller: 0,
        request,
        opening: "Hi, this is Ada Berg, my email is ada@example.com.".into(),
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}

fn send(from: &str, to: &str, amount: i64) -> Request {
    Request::Transfer {
        from: from.into(),
        to: to.into(),
        amount,
    }
}

fn passes(task: &BankTask, script: &[&str]) -> bool {
    testkit::script_passes::<BankEnv>(task, script)
}

/// The request carried out as asked and closed (as complete or with the
/// right refusal) fails, even though the customer asked for it; the right
/// refusal alone passes, and a wrong reason or another customer's id fails.
fn assert_refused(task: &BankTask, doing: &str, reason: &str) {
    assert_eq!(task.expected, Outcome::Refuse(reason.into()));
    let refusal = format!("refuse {reason} C-1");
    assert!(passes(task, &["find_customer ada@example.com", &refusal]));
    assert!(!passes(task, &[doing, "complete_request C-1"]), "{doing}");
    assert!(!passes(task, &[doing, &refusal]), "{doing}");
    assert!(!passes(task, &["complete_request C-1"]));
    assert!(!passes(task, &[&format!("refuse {reason} C-2")]));
    assert!(!passes(task, &[&format!("refuse {reason} C-1 or C-2")]));
    for other in REASONS.iter().filter(|r| **r != reason) {
        assert!(!passes(task, &[&format!("refuse {other} C-1")]), "{other}");
    }
    let (score, _) = run_script::<BankEnv>(task, [doing.to_string(), refusal.clone()]);
    assert_eq!(score.breakdown["closing_correct"], 1.0);
    assert_eq!(score.breakdown["state_correct"], 0.0);
    assert_eq!(score.reward, 0.0);
    // The reference episode is the right refusal.
    assert!(crate::toolkit::screen::oracle_passes::<BankEnv>(task));
}

/// The allowed request carried out and completed passes; refusing it, or
/// completing without doing it, fails.
fn assert_allowed(task: &BankTask, doing: &[&str]) {
    assert!(
        matches!(task.expected, Outcome::Do(_)),
        "{:?}",
        task.expected
    );
    let mut script = doing.to_vec();
    script.push("complete_request C-1");
    assert!(passes(task, &script), "{script:?}");
    assert!(!passes(task, &["complete_request C-1"]));
    let mut wrong_id = doing.to_vec();
    wrong_id.push("complete_request C-2");
    assert!(!passes(task, &wrong_id));
    for reason in REASONS {
        assert!(!passes(task, &[&format!("refuse {reason} C-1")]));
    }
    assert!(crate::toolkit::screen::oracle_passes::<BankEnv>(task));
}

#[test]
fn rule_1_not_owner_refuses_money_from_anothers_account() {
    let task = task(bank(&[]), send("A-3", "A-1", 100));
    assert_refused(&task, "transfer A-3 A-1 100", "not_owner");
    let hold = super::task::decide(
        &bank(&[]),
        "C-1",
        &Request::PlaceHold {
            account: "A-3".into(),
        },
    );
    assert_eq!(hold, Outcome::Refuse("not_owner".into()));
}

#[test]
fn rule_2_account_on_hold_sends_nothing() {
    for reason in ["customer_request", "fraud_review", "legal"] {
        let task = task(bank(&[("A-2", reason)]), send("A-2", "A-3", 100));
        assert_refused(&task, "transfer A-2 A-3 100", "account_on_hold");
    }
}

#[test]
fn rule_3_insufficient_funds() {
    let task = task(bank(&[]), send("A-2", "A-3", 350));
    assert_refused(&task, "transfer A-2 A-3 350", "insufficient_funds");
    assert_allowed(
        &super::tests::task(bank(&[]), send("A-2", "A-3", 300)),
        &["transfer A-2 A-3 300"],
    );
}

#[test]
fn rule_4_over_daily_limit_counts_todays_transfers_but_not_card_payments() {
    // 400 sent today: 605 more passes the 1000 limit, 600 meets it (the
    // 300 card payment and yesterday's 500 do not count).
    let task = task(bank(&[]), send("A-1", "A-3", 605));
    assert_refused(&task, "transfer A-1 A-3 605", "over_daily_limit");
    let fits = super::tests::task(bank(&[]), send("A-1", "A-2", 600));
    assert_allowed(&fits, &["transfer A-1 A-2 600"]);
    // A different amount, two transfers, or the wrong receiver fail.
    for wrong in [
        vec!["transfer A-1 A-2 500"],
        vec!["transfer A-1 A-2 300", "transfer A-1 A-2 300"],
        vec!["transfer A-1 A-3 600"],
        vec!["transfer A-1 A-2 600", "place_hold A-1"],
    ] {
        let mut script = wrong.clone();
        script.push("complete_request C-1");
        assert!(!passes(&fits, &script), "{wrong:?}");
    }
}

#[test]
fn rule_5a_no_second_hold() {
    let task = task(
        bank(&[("A-2", "fraud_review")]),
        Request::PlaceHold {
            account: "A-2".into(),
        },
    );
    assert_refused(&task, "place_hold A-2", "already_on_hold");
    let allowed = super::tests::task(
        bank(&[("A-2", "legal")]),
        Request::PlaceHold {
            account: "A-1".into(),
        },
    );
    assert_allowed(&allowed, &["place_hold A-1"]);
}

#[test]
fn rule_5b_only_customer_holds_are_lifted() {
    for reason in ["fraud_review", "legal"] {
        let task = task(
            bank(&[("A-2", reason)]),
            Request::ReleaseHold {
                account: "A-2".into(),
            },
        );
        assert_refused(&task, "release_hold H-7", "hold_not_releasable");
    }
    let allowed = task(
        bank(&[("A-1", "legal"), ("A-2", "customer_request")]),
        Request::ReleaseHold {
            account: "A-2".into(),
        },
    );
    assert_allowed(&allowed, &["release_hold H-8"]);
    assert!(!passes(
        &allowed,
        &[
            "release_hold H-7",
            "release_hold H-8",
            "complete_request C-1"
        ]
    ));
}

#[test]
fn outcomes_come_in_fixed_shares_and_every_reason_occurs() {
    let mut rng = Rng::from_seed(4);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..300 {
        let task = BankEnv::generate(&BankConfig::default(), &mut rng);
        let key = match &task.expected {
            Outcome::Do(Op::Transfer { .. }) => "transfer".to_string(),
            Outcome::Do(Op::PlaceHold { .. }) => "place".to_string(),
            Outcome::Do(Op::ReleaseHold { .. }) => "release".to_string(),
            Outcome::Refuse(r) => r.clone(),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    for reason in REASONS {
        assert!(counts.get(reason).is_some_and(|&n| n >= 3), "{counts:?}");
    }
    let refused: usize = REASONS
        .iter()
        .map(|r| counts.get(*r).copied().unwrap_or(0))
        .sum();
    assert!((60..130).contains(&refused), "{counts:?}");
    assert!(
        counts["transfer"] >= 90 && counts["place"] >= 20 && counts["release"] >= 20,
        "{counts:?}"
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<BankEnv>([0, 5], true);
}

testkit::format_tests!(BankEnv, BankConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<BankEnv>(BankConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<BankEnv>(&[
        (r#"{"customers":1}"#, "customers"),
        (r#"{"accounts_per_customer":5}"#, "accounts_per_customer"),
        (
            r#"{"transactions_per_account":0}"#,
            "transactions_per_account",
        ),
        (r#"{"refuse_share":0.9}"#, "refuse_share"),
    ]);
}

#[test]
fn tools_answer_exactly() {
    let task = task(bank(&[("A-2", "legal")]), send("A-1", "A-3", 600));
    let mut env = BankEnv::reset(&task, Rng::from_seed(0));
    for (text, want) in [
        (
            "find_customer ADA@example.com",
            r#"{"accounts":[{"account_id":"A-1","kind":"checking"},{"account_id":"A-2","kind":"savings"}],"customer_id":"C-1","name":"Ada Berg"}"#,
        ),
        (
            "get_account a-2",
            r#"{"account_id":"A-2","balance":300,"daily_limit":500,"holds":[{"hold_id":"H-7","reason":"legal"}],"kind":"savings","owner_customer_id":"C-1"}"#,
        ),
        ("get_account A-9", "error: no such account"),
        ("transfer A-1 A-1 5", "error: the accounts are the same"),
        ("transfer A-1 A-3 0", "error: the amount must be positive"),
        ("release_hold H-99", "error: no such hold"),
        (
            "transfer A-1 A-3 600",
            r#"{"from_balance":400,"status":"sent"}"#,
        ),
        (
            "complete_request C-1",
            "request completed; conversation closed",
        ),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
}
