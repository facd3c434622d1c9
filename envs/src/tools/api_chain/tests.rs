use super::task::{answer_of, expected_world, gold_calls};
use super::*;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

fn user(id: &str, name: &str, region: &str) -> User {
    User {
        id: id.into(),
        name: name.into(),
        region: region.into(),
        tier: "gold".into(),
    }
}

fn order(id: &str, user: &str, sku: &str, amount: i64, status: &str) -> Order {
    Order {
        id: id.into(),
        user_id: user.into(),
        sku: sku.into(),
        qty: 1,
        amount,
        status: status.into(),
        version: 2,
    }
}

fn item(sku: &str, stock: i64) -> Item {
    Item {
        sku: sku.into(),
        name: format!("thing {sku}"),
        stock,
        price: 10,
        version: 3,
    }
}

/// Ada (U-1) and Bo (U-2) live north, Cy (U-3) south; SKU-1 and SKU-3 are
/// out of stock. North's open orders for them: O-1 (20) and O-3 (21).
fn world() -> World {
    World {
        users: vec![
            user("U-1", "Ada Berg", "north"),
            user("U-2", "Bo Ito", "north"),
            user("U-3", "Cy Haas", "south"),
        ],
        orders: vec![
            order("O-1", "U-1", "SKU-1", 20, "open"),
            order("O-2", "U-1", "SKU-2", 30, "open"),
            order("O-3", "U-2", "SKU-3", 21, "open"),
            order("O-4", "U-3", "SKU-1", 10, "open"),
            order("O-5", "U-2", "SKU-1", 10, "shipped"),
            order("O-6", "U-3", "SKU-2", 50, "open"),
        ],
        items: vec![item("SKU-1", 0), item("SKU-2", 5), item("SKU-3", 0)],
    }
}

/// Pages of two, tokens for four calls, two requests per service before
/// a 429 with a two-call wait: the reference meets every rule.
fn task(question: Question) -> ApiChainTask {
    let world = world();
    let mut task = ApiChainTask {
        settings: Settings {
            api_key: "key_test".into(),
            salt: 7,
            page_size: 2,
            token_life: 4,
            burst: 2,
            retry_after: 2,
            writes_allowed: question.writes(),
        },
        answer: answer_of(&world, &question),
        expected: expected_world(&world, &question),
        world,
        question,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task).expect("the reference fits");
    task
}

fn north_value() -> ApiChainTask {
    task(Question::OpenValue {
        region: "north".into(),
    })
}

fn cancel_ada() -> ApiChainTask {
    task(Question::Cancel {
        name: "Ada Berg".into(),
    })
}

fn restock_north() -> ApiChainTask {
    task(Question::Restock {
        region: "north".into(),
        stock: 40,
    })
}

fn run(task: &ApiChainTask, script: &[String]) -> Score {
    run_script::<ApiChainEnv>(task, script.iter().cloned()).0
}

/// The gold calls with `answer` replaced.
fn with_answer(task: &ApiChainTask, answer: &str) -> Vec<String> {
    let mut script = task.gold.clone();
    *script.last_mut().unwrap() = call_text("answer", json!({ "answer": answer }));
    script
}

fn env_after(task: &ApiChainTask, script: &[&str]) -> ApiChainEnv {
    let mut env = ApiChainEnv::reset(task, Rng::from_seed(0));
    for text in script {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
    }
    env
}

fn last(env: &ApiChainEnv) -> String {
    env.log.last_result().unwrap().to_string()
}

#[test]
fn the_reference_passes_every_question_and_meets_logins_waits_and_pages() {
    let customers = task(Question::Customers {
        region: "north".into(),
    });
    assert_eq!(customers.answer.as_deref(), Some(r#"["U-1","U-2"]"#));
    assert_eq!(north_value().answer.as_deref(), Some("41"));
    for t in [north_value(), customers, cancel_ada(), restock_north()] {
        assert!(oracle_passes::<ApiChainEnv>(&t), "{:?}", t.question);
        let logins = t.gold.iter().filter(|g| g.contains("\"login\"")).count();
        assert!(logins >= 2, "{:?}: {logins} logins", t.question);
    }
    let gold = north_value().gold.join("\n");
    assert!(
        gold.contains("/health") && gold.contains("page_token=pt_"),
        "{gold}"
    );
}

#[test]
fn rule_auth_tokens_need_the_key_expire_in_calls_and_carry_scopes() {
    let t = north_value();
    let login = |scopes: &str| call_text("login", json!({"api_key": "key_test", "scopes": scopes}));
    let get = |path: &str, token: &str| {
        call_text(
            "request",
            json!({"method": "GET", "path": path, "token": token}),
        )
    };
    let env = env_after(&t, &[&get("/users", "")]);
    assert!(last(&env).starts_with(
        "HTTP 401 {\"detail\":\"log in and send the token\",\"error\":\"invalid_token\""
    ));
    let env = env_after(
        &t,
        &[&call_text(
            "login",
            json!({"api_key": "key_x", "scopes": "users:read"}),
        )],
    );
    assert!(last(&env).starts_with("HTTP 401"), "{}", last(&env));
    let env = env_after(&t, &[&login("users:read")]);
    let token = last(&env)[9..].parse::<Value>().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        last(&env),
        format!(r#"HTTP 200 {{"expires_in_calls":4,"scopes":["users:read"],"token":"{token}"}}"#)
    );
    // Scope: orders are refused; users answer. Four calls, then expired.
    let mut script = vec![login("users:read"), get("/orders", &token)];
    let env = env_after(&t, &script.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(last(&env).starts_with("HTTP 403"), "{}", last(&env));
    script.extend([
        get("/health", ""),
        get("/users/U-3", &token),
        get("/users/U-2", &token),
    ]);
    let env = env_after(&t, &script.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(last(&env).starts_with("HTTP 200"), "{}", last(&env));
    script.push(get("/inventory", &token));
    let env = env_after(&t, &script.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(last(&env).contains("token_expired"), "{}", last(&env));
}

#[test]
fn rule_pagination_page_tokens_belong_to_their_listing() {
    let t = north_value();
    let login = call_text(
        "login",
        json!({"api_key": "key_test", "scopes": "orders:read users:read"}),
    );
    let env = env_after(&t, &[&login]);
    let token = last(&env)[9..].parse::<Value>().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let get = |path: &str| {
        call_text(
            "request",
            json!({"method": "GET", "path": path, "token": token}),
        )
    };
    let env = env_after(&t, &[&login, &get("/orders?status=open")]);
    let page: Value = last(&env)[9..].parse().unwrap();
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    let next = page["next_page_token"].as_str().unwrap().to_string();
    let second = get(&format!("/orders?status=open&page_token={next}"));
    let env = env_after(&t, &[&login, &get("/orders?status=open"), &second]);
    let page: Value = last(&env)[9..].parse().unwrap();
    let ids: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["O-3", "O-4"]);
    assert_ne!(page["next_page_token"], Value::Null);
    for wrong in [
        format!("/orders?status=shipped&page_token={next}"),
        "/orders?status=open&page_token=pt_00000000".into(),
        "/orders?colour=red".into(),
    ] {
        let env = env_after(&t, &[&login, &get(&wrong)]);
        assert!(
            last(&env).starts_with("HTTP 400"),
            "{wrong}: {}",
            last(&env)
        );
    }
}

#[test]
fn rule_1_a_write_scope_on_a_question_fails_even_with_the_right_answer() {
    let t = north_value();
    assert!(run(&t, &t.gold).passed);
    let greedy: Vec<String> = t
        .gold
        .iter()
        .map(|g| g.replace("inventory:read\"", "inventory:read orders:write\""))
        .collect();
    assert_ne!(greedy, t.gold);
    let score = run(&t, &greedy);
    assert!(!score.passed);
    assert_eq!(score.breakdown["answer_correct"], 1.0);
    assert_eq!(score.breakdown["rules_kept"], 0.0);
    // A change task may ask for write scopes.
    assert!(run(&cancel_ada(), &cancel_ada().gold).passed);
}

#[test]
fn rule_2_a_patch_without_if_match_fails_though_the_server_applies_it() {
    for t in [cancel_ada(), restock_north()] {
        let bare: Vec<String> = t
            .gold
            .iter()
            .map(|g| {
                let mut call: Value = g
                    .trim_start_matches("<tool_call>")
                    .trim_end_matches("</tool_call>")
                    .trim()
                    .parse()
                    .unwrap();
                call["arguments"]
                    .as_object_mut()
                    .unwrap()
                    .remove("if_match");
                call_text(call["name"].as_str().unwrap(), call["arguments"].clone())
            })
            .collect();
        let score = run(&t, &bare);
        assert!(!score.passed, "{:?}", t.question);
        assert_eq!(score.breakdown["state_correct"], 1.0);
        assert_eq!(score.breakdown["rules_kept"], 0.0);
    }
    // A stale version is refused with 412 and changes nothing.
    let t = cancel_ada();
    let at = t.gold.iter().position(|g| g.contains("PATCH")).unwrap();
    let mut script: Vec<&str> = t.gold[..at].iter().map(String::as_str).collect();
    let stale = t.gold[at].replace("\"if_match\":\"2\"", "\"if_match\":\"1\"");
    assert_ne!(stale, t.gold[at]);
    script.push(&stale);
    let env = env_after(&t, &script);
    assert!(last(&env).starts_with("HTTP 412"), "{}", last(&env));
    assert_eq!(env.api.world, t.world);
}

#[test]
fn rule_3_calling_a_service_inside_its_retry_after_wait_fails() {
    let t = north_value();
    // Each wait call replaced by the request it waits for: the server
    // answers 429 again, and the answer at the end is right.
    let mut hammer = t.gold.clone();
    for i in (0..hammer.len()).rev() {
        if hammer[i].contains("/health") {
            let next = hammer[i + 1..]
                .iter()
                .find(|g| g.contains("\"request\"") && !g.contains("/health"))
                .unwrap()
                .clone();
            hammer[i] = next;
        }
    }
    assert_ne!(hammer, t.gold);
    let score = run(&t, &hammer);
    assert!(!score.passed);
    assert_eq!(score.breakdown["answer_correct"], 1.0);
    assert_eq!(score.breakdown["rules_kept"], 0.0);
}

#[test]
fn rule_4_only_the_asked_change() {
    let t = cancel_ada();
    let token_of = |env: &ApiChainEnv| {
        env.log
            .entries
            .iter()
            .rev()
            .find_map(|(_, r)| {
                r.get(9..)?.parse::<Value>().ok()?["token"]
                    .as_str()
                    .map(String::from)
            })
            .unwrap()
    };
    // The other open order of Ada (in stock) cancelled too, with its
    // version, after waiting out any 429 and logging in again.
    let mut script = t.gold.clone();
    let done = script.pop().unwrap();
    let health = call_text(
        "request",
        json!({"method": "GET", "path": "/health", "token": ""}),
    );
    let login = call_text(
        "login",
        json!({"api_key": "key_test", "scopes": "orders:write"}),
    );
    script.extend([health.clone(), health.clone(), health.clone(), login]);
    let env = env_after(&t, &script.iter().map(String::as_str).collect::<Vec<_>>());
    let extra = call_text(
        "request",
        json!({"method": "PATCH", "path": "/orders/O-2", "token": token_of(&env), "body": "{\"status\": \"cancelled\"}", "if_match": "2"}),
    );
    // The server's count runs on: the PATCH may meet a 429 first.
    script.extend([extra.clone(), health.clone(), health, extra, done]);
    let score = run(&t, &script);
    assert_eq!(score.breakdown["rules_kept"], 1.0);
    assert_eq!(score.breakdown["state_correct"], 0.0);
    assert!(!score.passed);
    // Restocking to another amount, or answering `done` without the
    // change, fails.
    let r = restock_north();
    let other: Vec<String> = r
        .gold
        .iter()
        .map(|g| g.replace("{\\\"stock\\\":40}", "{\\\"stock\\\":41}"))
        .collect();
    assert_ne!(other, r.gold);
    assert!(!run(&r, &other).passed);
    assert!(!run(&r, &[call_text("answer", json!({"answer": "done"}))]).passed);
}

#[test]
fn answers_compare_as_values() {
    let t = north_value();
    for good in ["41", "41.0", "$41", " 41. "] {
        assert!(run(&t, &with_answer(&t, good)).passed, "{good}");
    }
    for bad in ["40", "41 or 42", "", "done", "[41]", "4100"] {
        assert!(!run(&t, &with_answer(&t, bad)).passed, "{bad}");
    }
    let c = task(Question::Customers {
        region: "north".into(),
    });
    for good in [
        r#"["U-1","U-2"]"#,
        r#"["U-2", "U-1"]"#,
        "U-1, U-2",
        "u-2 u-1",
        "[U-1, U-2]",
    ] {
        assert!(run(&c, &with_answer(&c, good)).passed, "{good}");
    }
    for bad in [
        r#"["U-1"]"#,
        "U-1, U-2, U-3",
        "U-1, U-1, U-2",
        "U-1 or U-2",
        "[]",
        "2",
    ] {
        assert!(!run(&c, &with_answer(&c, bad)).passed, "{bad}");
    }
    // A constant answer at once fails.
    assert!(!run(&t, &[call_text("answer", json!({"answer": "0"}))]).passed);
}

#[test]
fn generated_tasks_draw_every_question_and_meet_the_servers_rules() {
    let mut rng = Rng::from_seed(5);
    let mut kinds = std::collections::BTreeMap::new();
    let (mut waits, mut relogins) = (0, 0);
    for _ in 0..60 {
        let t = ApiChainEnv::generate(&ApiChainConfig::default(), &mut rng);
        let kind = testkit::variant_tag(&t.question);
        *kinds.entry(kind).or_insert(0) += 1;
        waits += usize::from(t.gold.iter().any(|g| g.contains("/health")));
        relogins += usize::from(t.gold.iter().filter(|g| g.contains("\"login\"")).count() > 1);
        assert!(t.gold.len() <= task::MAX_GOLD);
    }
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    assert!(kinds.values().all(|&n| n >= 8), "{kinds:?}");
    assert!(
        waits >= 10 && relogins >= 10,
        "waits {waits}, relogins {relogins}"
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<ApiChainEnv>([0, 4], false);
}

testkit::format_tests!(ApiChainEnv, ApiChainConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<ApiChainEnv>(ApiChainConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<ApiChainEnv>(&[
        (r#"{"users":3}"#, "users"),
        (r#"{"orders_per_user":5}"#, "orders_per_user"),
        (r#"{"items":31}"#, "items"),
        (r#"{"page_size":1}"#, "page_size"),
        (r#"{"token_life":2}"#, "token_life"),
        (r#"{"burst":1}"#, "burst"),
        (r#"{"retry_after":6}"#, "retry_after"),
    ]);
}
