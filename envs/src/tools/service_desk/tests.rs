use super::task::{decide, gold_calls};
use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn order(
    id: &str,
    item: &str,
    price: i64,
    status: &str,
    days: Option<i64>,
    final_sale: bool,
) -> Order {
    Order {
        id: id.into(),
        customer: "C-1".into(),
        item: item.into(),
        price,
        status: status.into(),
        days_since_delivery: days,
        final_sale,
    }
}

fn desk(order: Order, damaged: bool) -> ServiceDeskTask {
    let mut task = ServiceDeskTask {
        customers: vec![Customer {
            id: "C-1".into(),
            name: "Ada Novak".into(),
            email: "ada@example.com".into(),
        }],
        item: order.item.clone(),
        orders: vec![order],
        caller: 0,
        reason_reply: if damaged {
            "It arrived damaged."
        } else {
            "I changed my mind about it."
        }
        .into(),
        damaged,
        expected: Resolution::Refuse {
            reason: String::new(),
        },
        gold: Vec::new(),
    };
    task.expected = decide(task.orders.first(), damaged);
    task.gold = gold_calls(&task);
    task
}

#[test]
fn the_policy_decides_every_case() {
    let refund = |order: &str, amount| Resolution::Refund {
        order: order.into(),
        amount,
        confirmed: true,
    };
    let refuse = |reason: &str| Resolution::Refuse {
        reason: reason.into(),
    };
    let lamp = |price, status, days, fs| order("O-1", "lamp", price, status, days, fs);
    assert_eq!(
        decide(Some(&lamp(100, "delivered", Some(80), true)), true),
        refund("O-1", 100)
    );
    assert_eq!(
        decide(Some(&lamp(100, "delivered", Some(91), false)), true),
        refuse("outside_window")
    );
    assert_eq!(
        decide(Some(&lamp(99, "delivered", Some(30), false)), false),
        refund("O-1", 89)
    );
    assert_eq!(
        decide(Some(&lamp(99, "delivered", Some(31), false)), false),
        refuse("outside_window")
    );
    assert_eq!(
        decide(Some(&lamp(99, "delivered", Some(3), true)), false),
        refuse("final_sale")
    );
    assert_eq!(
        decide(Some(&lamp(99, "shipped", None, false)), true),
        refuse("not_delivered")
    );
    assert_eq!(decide(None, true), refuse("no_such_order"));
    assert_eq!(
        decide(Some(&lamp(556, "delivered", Some(1), false)), false),
        refund("O-1", 500)
    );
    assert_eq!(
        decide(Some(&lamp(557, "delivered", Some(1), false)), false),
        Resolution::Transfer {
            order: "O-1".into(),
            amount: 501
        }
    );
}

#[test]
fn the_scripted_customer_and_the_tools_answer_exactly() {
    let task = desk(
        order("O-7", "lamp", 120, "delivered", Some(3), false),
        false,
    );
    let mut env = ServiceDesk::reset(&task, Rng::from_seed(0));
    assert_eq!(
        task.opening(),
        "Hi, this is Ada Novak. My email is ada@example.com. I'd like a refund for the lamp I ordered."
    );
    for (text, want) in [
        (
            "find_customer ADA@example.com",
            r#"{"customer_id":"C-1","name":"Ada Novak","orders":[{"item":"lamp","order_id":"O-7"}]}"#,
        ),
        (
            "get_order O-7",
            r#"{"customer_id":"C-1","days_since_delivery":3,"final_sale":false,"item":"lamp","order_id":"O-7","price":120,"status":"delivered"}"#,
        ),
        (
            "ask_customer order_id",
            "I don't have the order number at hand, sorry. It's the lamp.",
        ),
        ("ask_customer reason", "I changed my mind about it."),
        ("ask_customer confirm", "Yes, please go ahead."),
        ("issue_refund O-7 108", "refund issued; conversation closed"),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want);
    }
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
}

#[test]
fn only_the_policys_resolution_passes() {
    let task = desk(
        order("O-7", "lamp", 120, "delivered", Some(3), false),
        false,
    );
    let confirm = "ask_customer confirm".to_string();
    for (script, passes) in [
        (vec![confirm.clone(), "issue_refund O-7 108".into()], true),
        (vec!["issue_refund O-7 108".into()], false),
        (vec![confirm.clone(), "issue_refund O-7 120".into()], false),
        (
            vec![confirm.clone(), "transfer_to_human O-7 108".into()],
            false,
        ),
        (vec!["refuse outside_window C-1".into()], false),
        (
            vec![
                "refuse final_sale C-1".into(),
                confirm.clone(),
                "issue_refund O-7 108".into(),
            ],
            false,
        ),
    ] {
        assert_eq!(
            run_script::<ServiceDesk>(&task, script.clone()).0.passed,
            passes,
            "{script:?}"
        );
    }
    let refusal = desk(order("O-7", "lamp", 120, "processing", None, false), true);
    let refuses = |text: &str| {
        run_script::<ServiceDesk>(&refusal, [text.to_string()])
            .0
            .passed
    };
    assert!(refuses("refuse not_delivered C-1"));
    assert!(refuses(
        r#"{"name": "refuse", "arguments": {"reason": "not_delivered", "customer_id": " c-1 "}}"#
    ));
    // A refusal must say whose request it refuses.
    assert!(!refuses("refuse not_delivered"));
    assert!(!refuses("refuse not_delivered C-2"));
    assert!(!refuses(r#"refuse not_delivered "C-1 or C-2""#));
    let (wrong_reason, _) =
        run_script::<ServiceDesk>(&refusal, ["refuse outside_window C-1".to_string()]);
    assert!(!wrong_reason.passed);
    assert_eq!(wrong_reason.breakdown["kind_correct"], 1.0);
    assert_eq!(wrong_reason.reward, 0.0);
}

#[test]
fn decisions_come_in_fixed_shares() {
    let mut rng = Rng::from_seed(4);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..200 {
        let task = ServiceDesk::generate(&ServiceDeskConfig::default(), &mut rng);
        *counts.entry(task.expected.kind()).or_insert(0) += 1;
    }
    let (refund, transfer, refuse) = (counts["refund"], counts["transfer"], counts["refuse"]);
    assert!(
        (70..130).contains(&refund) && (20..60).contains(&transfer) && (40..80).contains(&refuse),
        "{counts:?}"
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<ServiceDesk>(
        ServiceDeskConfig {
            customers: 3,
            orders_per_customer: 2,
            ..ServiceDeskConfig::default()
        },
        true,
    );
    testkit::assert_acceptance::<ServiceDesk>(
        ServiceDeskConfig {
            customers: 20,
            orders_per_customer: 5,
            ..ServiceDeskConfig::default()
        },
        true,
    );
}

testkit::format_tests!(ServiceDesk, ServiceDeskConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<ServiceDesk>(ServiceDeskConfig::default());
}

/// A constant refusal (any reason, any customer id but the caller's) never
/// passes a refusal task; the policy's refusal for the caller does.
#[test]
fn refusals_pass_only_for_the_caller_with_the_policys_reason() {
    let mut rng = Rng::from_seed(12);
    let config = ServiceDeskConfig {
        refuse_share: 0.5,
        transfer_share: 0.0,
        ..ServiceDeskConfig::default()
    };
    let tasks: Vec<ServiceDeskTask> = (0..40)
        .map(|_| ServiceDesk::generate(&config, &mut rng))
        .filter(|t| !ServiceDesk::feasible(t))
        .collect();
    assert!(tasks.len() >= 10, "{}", tasks.len());
    for (i, task) in tasks.iter().enumerate() {
        let Resolution::Refuse { reason } = &task.expected else {
            unreachable!()
        };
        let refuse = |reason: &str, customer: &str| {
            let call = call_text("refuse", json!({"reason": reason, "customer_id": customer}));
            run_script::<ServiceDesk>(task, [call]).0.passed
        };
        let caller = &task.customers[task.caller].id;
        let other = &tasks[(i + 1) % tasks.len()].customers[0].id;
        assert!(refuse(reason, caller));
        for r in REFUSALS {
            assert_eq!(refuse(r, caller), r == reason.as_str(), "{r}");
            if other != caller {
                assert!(!refuse(r, other));
            }
            assert!(!refuse(r, ""));
        }
    }
}
