use super::task::{decide, gold_calls};
use super::*;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

fn pay(id: &str, kind: PayKind, label: &str, balance: i64) -> Payment {
    Payment {
        id: id.into(),
        kind,
        label: label.into(),
        balance,
    }
}

fn variant(item_id: &str, options: &str, price: i64, available: bool) -> Variant {
    Variant {
        item_id: item_id.into(),
        options: options.into(),
        price,
        available,
    }
}

fn order(id: &str, user: &str, status: Status, items: &[&str], payment: &str) -> Order {
    Order {
        id: id.into(),
        user: user.into(),
        status,
        items: Vec::new(),
        payment: payment.into(),
        address: "1 Elm Street, Springfield, 11111".into(),
        returns: Vec::new(),
        exchanges: Vec::new(),
    }
    .with(items)
}

impl Order {
    fn with(mut self, items: &[&str]) -> Order {
        let store = store_without_orders();
        self.items = items
            .iter()
            .map(|id| {
                let (p, v) = store.variant(id).unwrap();
                Item {
                    item_id: v.item_id.clone(),
                    product_id: p.id.clone(),
                    name: p.name.clone(),
                    options: v.options.clone(),
                    price: v.price,
                }
            })
            .collect();
        self
    }
}

/// Ada (U-1) has a credit card PM-1, a gift card PM-2 (balance 50) and a
/// second credit card PM-3; Bo (U-2) has PM-9. T-shirts P-1: I-11 (red M,
/// 25), I-12 (red L, 26), I-13 (blue M, 25, out of stock); hoodies P-2:
/// I-21 (black L, 55), I-22 (grey L, 57).
fn store_without_orders() -> Store {
    Store {
        users: vec![
            User {
                id: "U-1".into(),
                name: "Ada Berg".into(),
                email: "ada@example.com".into(),
                address: "1 Elm Street, Springfield, 11111".into(),
                payments: vec![
                    pay("PM-1", PayKind::CreditCard, "credit card ending 1111", 0),
                    pay("PM-2", PayKind::GiftCard, "gift card", 50),
                    pay("PM-3", PayKind::CreditCard, "credit card ending 3333", 0),
                ],
            },
            User {
                id: "U-2".into(),
                name: "Bo Ito".into(),
                email: "bo@example.com".into(),
                address: "9 Oak Lane, Riverton, 22222".into(),
                payments: vec![pay(
                    "PM-9",
                    PayKind::CreditCard,
                    "credit card ending 9999",
                    0,
                )],
            },
        ],
        products: vec![
            Product {
                id: "P-1".into(),
                name: "t-shirt".into(),
                variants: vec![
                    variant("I-11", "color: red, size: M", 25, true),
                    variant("I-12", "color: red, size: L", 26, true),
                    variant("I-13", "color: blue, size: M", 25, false),
                ],
            },
            Product {
                id: "P-2".into(),
                name: "hoodie".into(),
                variants: vec![
                    variant("I-21", "color: black, size: L", 55, true),
                    variant("I-22", "color: grey, size: L", 57, true),
                ],
            },
        ],
        orders: Vec::new(),
        ledger: Vec::new(),
    }
}

/// Ada's O-1 is pending (I-11, I-21; PM-1), O-2 delivered (I-12, I-22;
/// PM-1), O-3 processed (I-11; gift card PM-2); Bo's O-4 is pending (I-13).
fn store() -> Store {
    let mut store = store_without_orders();
    store.orders = vec![
        order("O-1", "U-1", Status::Pending, &["I-11", "I-21"], "PM-1"),
        order("O-2", "U-1", Status::Delivered, &["I-12", "I-22"], "PM-1"),
        order("O-3", "U-1", Status::Processed, &["I-11"], "PM-2"),
        order("O-4", "U-2", Status::Pending, &["I-13"], "PM-9"),
    ];
    store
}

fn task(request: Request) -> RetailTask {
    let store = store();
    let expected = decide(&store, "U-1", &request);
    let mut task = RetailTask {
        store,
        caller: 0,
        request,
        opening: "Hi, I'm Ada Berg, my email is ada@example.com.".into(),
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}

fn s(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|i| i.to_string()).collect()
}

fn swaps(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn cancel(order: &str) -> Request {
    Request::Cancel {
        order: order.into(),
    }
}

fn ret(order: &str, items: &[&str], method: &str) -> Request {
    Request::Return {
        order: order.into(),
        items: s(items),
        method: method.into(),
    }
}

fn exchange(order: &str, pairs: &[(&str, &str)]) -> Request {
    Request::Exchange {
        order: order.into(),
        swaps: swaps(pairs),
    }
}

fn modify(order: &str, pairs: &[(&str, &str)]) -> Request {
    Request::Modify {
        order: order.into(),
        swaps: swaps(pairs),
    }
}

const FIND: &str = "find_user ada@example.com";

fn passes(task: &RetailTask, script: &[&str]) -> bool {
    testkit::script_passes::<Retail>(task, script)
}

/// The request carried out as asked fails, closed as complete or with the
/// right refusal, even though the user asked for it; the right refusal
/// alone passes, and a wrong reason, another user's id or a hand-over fail.
fn assert_refused(task: &RetailTask, doing: &str, reason: &str) {
    assert_eq!(task.expected, Outcome::Refuse(reason.into()));
    testkit::assert_user_desk_refuses::<Retail>(task, FIND, doing, reason, &REASONS);
}

/// The allowed request carried out after authenticating and completed
/// passes; refusing it, handing it over, completing without doing it, or
/// doing it before `find_user` fails.
fn assert_allowed(task: &RetailTask, doing: &str) {
    assert!(
        matches!(task.expected, Outcome::Do(_)),
        "{:?}",
        task.expected
    );
    testkit::assert_user_desk_allows::<Retail>(task, FIND, doing, &REASONS);
}

#[test]
fn rule_1a_no_change_before_authentication() {
    let task = task(cancel("O-1"));
    assert_allowed(&task, "cancel_pending_order O-1");
    let (score, _) = run_script::<Retail>(
        &task,
        s(&["cancel_pending_order O-1", FIND, "complete_request U-1"]),
    );
    assert_eq!(score.breakdown["state_correct"], 1.0);
    assert_eq!(score.breakdown["closing_correct"], 1.0);
    assert_eq!(score.breakdown["authenticated_first"], 0.0);
    assert!(!score.passed);
    // Looking up another user does not authenticate the caller.
    assert!(!passes(
        &task,
        &[
            "find_user bo@example.com",
            "cancel_pending_order O-1",
            "complete_request U-1"
        ]
    ));
}

#[test]
fn rule_1b_only_the_users_own_orders() {
    assert_refused(
        &task(cancel("O-4")),
        "cancel_pending_order O-4",
        "not_owner",
    );
    assert_refused(
        &task(Request::Address {
            order: "O-4".into(),
            address: "5 Mill Avenue, Ashford, 33333".into(),
        }),
        "update_order_address O-4 5 Mill Avenue, Ashford, 33333",
        "not_owner",
    );
}

#[test]
fn rule_2_cancel_modify_and_readdress_only_pending_orders() {
    assert_refused(
        &task(cancel("O-2")),
        "cancel_pending_order O-2",
        "not_pending",
    );
    assert_refused(
        &task(cancel("O-3")),
        "cancel_pending_order O-3",
        "not_pending",
    );
    assert_refused(
        &task(modify("O-3", &[("I-11", "I-12")])),
        "modify_pending_order_items O-3 I-11 I-12",
        "not_pending",
    );
    let moved = Request::Address {
        order: "O-3".into(),
        address: "5 Mill Avenue, Ashford, 33333".into(),
    };
    assert_refused(
        &task(moved),
        "update_order_address O-3 5 Mill Avenue, Ashford, 33333",
        "not_pending",
    );
    // The pending order: cancelling refunds its 80 to PM-1.
    let allowed = task(cancel("O-1"));
    assert_allowed(&allowed, "cancel_pending_order O-1");
    let address = Request::Address {
        order: "O-1".into(),
        address: "5 Mill Avenue, Ashford, 33333".into(),
    };
    let readdress = task(address);
    assert_allowed(
        &readdress,
        "update_order_address O-1 5 Mill Avenue, Ashford, 33333",
    );
    assert!(!passes(
        &readdress,
        &[
            FIND,
            "update_order_address O-1 5 Mill Avenue, Ashford, 33334",
            "complete_request U-1"
        ]
    ));
}

#[test]
fn rule_3_return_and_exchange_only_delivered_orders() {
    assert_refused(
        &task(ret("O-1", &["I-11"], "PM-1")),
        "return_delivered_order_items O-1 I-11 PM-1",
        "not_delivered",
    );
    assert_refused(
        &task(exchange("O-3", &[("I-11", "I-12")])),
        "exchange_delivered_order_items O-3 I-11 I-12",
        "not_delivered",
    );
    assert_allowed(
        &task(exchange("O-2", &[("I-12", "I-11")])),
        "exchange_delivered_order_items O-2 I-12 I-11",
    );
}

#[test]
fn rule_4_refunds_only_to_the_original_method_or_a_gift_card() {
    for other in ["PM-3", "PM-9"] {
        let task = task(ret("O-2", &["I-12"], other));
        let doing = format!("return_delivered_order_items O-2 I-12 {other}");
        assert_refused(&task, &doing, "refund_method_not_allowed");
    }
    let original = task(ret("O-2", &["I-12", "I-22"], "PM-1"));
    assert_allowed(&original, "return_delivered_order_items O-2 I-12,I-22 PM-1");
    // Refunded elsewhere, or only some of the items: the state differs.
    for wrong in [
        "return_delivered_order_items O-2 I-12,I-22 PM-2",
        "return_delivered_order_items O-2 I-12 PM-1",
    ] {
        assert!(
            !passes(&original, &[FIND, wrong, "complete_request U-1"]),
            "{wrong}"
        );
    }
    let gift = task(ret("O-2", &["I-22"], "PM-2"));
    assert_allowed(&gift, "return_delivered_order_items O-2 I-22 PM-2");
    let mut env = Retail::reset(&gift, Rng::from_seed(0));
    for text in [FIND, "return_delivered_order_items O-2 I-22 PM-2"] {
        let calls = env.parse_action(0, text).unwrap();
        env.apply(0, calls).unwrap();
    }
    assert_eq!(env.world.users[0].payments[1].balance, 50 + 57);
}

#[test]
fn rule_5a_swaps_stay_within_the_product() {
    assert_refused(
        &task(exchange("O-2", &[("I-12", "I-21")])),
        "exchange_delivered_order_items O-2 I-12 I-21",
        "different_product",
    );
    assert_refused(
        &task(modify("O-1", &[("I-11", "I-22")])),
        "modify_pending_order_items O-1 I-11 I-22",
        "different_product",
    );
    // Both swaps of one request must stay within their products.
    assert_refused(
        &task(modify("O-1", &[("I-11", "I-12"), ("I-21", "I-11")])),
        "modify_pending_order_items O-1 I-11,I-21 I-12,I-11",
        "different_product",
    );
}

#[test]
fn rule_5b_swaps_only_to_available_variants() {
    assert_refused(
        &task(modify("O-1", &[("I-11", "I-13")])),
        "modify_pending_order_items O-1 I-11 I-13",
        "out_of_stock",
    );
    assert_refused(
        &task(exchange("O-2", &[("I-12", "I-13")])),
        "exchange_delivered_order_items O-2 I-12 I-13",
        "out_of_stock",
    );
    let allowed = task(modify("O-1", &[("I-11", "I-12"), ("I-21", "I-22")]));
    assert_allowed(
        &allowed,
        "modify_pending_order_items O-1 I-11,I-21 I-12,I-22",
    );
    // The 3 extra is charged to PM-1 and the items replaced.
    let mut expected = store();
    if let Outcome::Do(op) = &allowed.expected {
        expected.apply(op);
    }
    assert_eq!(
        expected.ledger,
        vec![Entry {
            order: "O-1".into(),
            method: "PM-1".into(),
            amount: -3
        }]
    );
    assert_eq!(expected.orders[0].items[1].item_id, "I-22");
}

#[test]
fn rule_6_compensation_goes_to_a_human() {
    let task = task(Request::Compensation {
        order: "O-2".into(),
    });
    assert_eq!(task.expected, Outcome::Transfer);
    assert!(passes(&task, &[FIND, "transfer_to_human U-1"]));
    assert!(!passes(&task, &[FIND, "transfer_to_human U-2"]));
    assert!(!passes(&task, &[FIND, "complete_request U-1"]));
    for reason in REASONS {
        assert!(!passes(&task, &[&format!("refuse {reason} U-1")]));
    }
    // A refund made on the side fails even with the hand-over.
    assert!(!passes(
        &task,
        &[
            FIND,
            "return_delivered_order_items O-2 I-12 PM-1",
            "transfer_to_human U-1"
        ]
    ));
    assert!(oracle_passes::<Retail>(&task));
}

#[test]
fn rule_7_one_change_call_per_order() {
    let task = task(ret("O-2", &["I-12", "I-22"], "PM-1"));
    assert!(!passes(
        &task,
        &[
            FIND,
            "return_delivered_order_items O-2 I-12 PM-1",
            "return_delivered_order_items O-2 I-22 PM-1",
            "complete_request U-1"
        ]
    ));
    let swap = super::tests::task(modify("O-1", &[("I-11", "I-12")]));
    assert_allowed(&swap, "modify_pending_order_items O-1 I-11 I-12");
    assert!(!passes(
        &swap,
        &[
            FIND,
            "modify_pending_order_items O-1 I-11 I-12",
            "modify_pending_order_items O-1 I-12 I-11",
            "modify_pending_order_items O-1 I-11 I-12",
            "complete_request U-1"
        ]
    ));
}

#[test]
fn outcomes_come_in_fixed_shares_and_every_reason_occurs() {
    testkit::assert_user_desk_outcome_shares::<Retail, Op>(
        |task| &task.expected,
        &REASONS,
        &["cancel", "modify", "return", "exchange", "address"],
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<Retail>([0, 5], true);
}

testkit::format_tests!(Retail, RetailConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Retail>(RetailConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<Retail>(&[
        (r#"{"users":1}"#, "users"),
        (r#"{"orders_per_user":6}"#, "orders_per_user"),
        (r#"{"products":2}"#, "products"),
        (r#"{"max_items":0}"#, "max_items"),
        (r#"{"refuse_share":0.9}"#, "refuse_share"),
    ]);
}

#[test]
fn tools_answer_exactly() {
    let task = task(exchange("O-2", &[("I-12", "I-11")]));
    let mut env = Retail::reset(&task, Rng::from_seed(0));
    for (text, want) in [
        ("find_user ADA@example.com", r#"{"user_id":"U-1"}"#),
        (
            "find_user nobody@example.com",
            "error: no user with that email",
        ),
        (
            "get_user u-2",
            r#"{"address":"9 Oak Lane, Riverton, 22222","name":"Bo Ito","orders":["O-4"],"payment_methods":[{"kind":"credit_card","label":"credit card ending 9999","payment_method_id":"PM-9"}],"user_id":"U-2"}"#,
        ),
        (
            "get_order O-3",
            r#"{"address":"1 Elm Street, Springfield, 11111","exchanges":[],"items":[{"item_id":"I-11","name":"t-shirt","options":"color: red, size: M","price":25,"product_id":"P-1"}],"order_id":"O-3","payment_method_id":"PM-2","returns":[],"status":"processed","user_id":"U-1"}"#,
        ),
        (
            "get_product P-2",
            r#"{"name":"hoodie","product_id":"P-2","variants":[{"available":true,"item_id":"I-21","options":"color: black, size: L","price":55},{"available":true,"item_id":"I-22","options":"color: grey, size: L","price":57}]}"#,
        ),
        ("get_order O-99", "error: no such order"),
        (
            "exchange_delivered_order_items O-2 I-12 I-99",
            "error: no item I-99",
        ),
        (
            "exchange_delivered_order_items O-2 I-11 I-12",
            "error: item I-11 is not in the order (or given twice)",
        ),
        (
            "exchange_delivered_order_items O-2 I-12,I-22 I-11",
            "error: item_ids and new_item_ids differ in length",
        ),
        (
            "return_delivered_order_items O-2 I-12 PM-77",
            "error: no such payment method",
        ),
        (
            "exchange_delivered_order_items O-2 i-12 I-11",
            r#"{"status":"exchange requested"}"#,
        ),
        (
            "complete_request U-1",
            "request completed; conversation closed",
        ),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
    // The exchange refunded the 1 difference to PM-1.
    assert_eq!(
        env.world.ledger,
        vec![Entry {
            order: "O-2".into(),
            method: "PM-1".into(),
            amount: 1
        }]
    );
}
