use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn jacket(title: &str, price: i64, features: &[&str], colors: &[&str]) -> Product {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
    Product {
        title: title.into(),
        category: "rain jacket".into(),
        price,
        features: s(features),
        colors: s(colors),
        sizes: s(&["s", "m"]),
    }
}

fn store() -> ShopTask {
    ShopTask {
        instruction:
            "Buy a rain jacket with the feature \"hooded\", in navy, size m, for at most $100."
                .into(),
        products: vec![
            jacket("Fjord Pro rain jacket", 120, &["hooded"], &["navy"]),
            jacket("Atlas Go rain jacket", 90, &["hooded"], &["navy", "red"]),
            jacket("Lumen Air rain jacket", 80, &["packable"], &["navy"]),
        ],
        goal: Goal {
            category: "rain jacket".into(),
            feature: "hooded".into(),
            color: "navy".into(),
            size: "m".into(),
            budget: 100,
        },
        target: Some(1),
        salt: 7,
    }
}

fn act(env: &mut Shop, text: &str) -> String {
    let call = env.parse_action(0, text).unwrap();
    env.apply(0, call).unwrap();
    env.message.clone()
}

fn id(env: &Shop, key: &str) -> i64 {
    env.page.id_for(key).unwrap()
}

fn click(env: &mut Shop, key: &str) -> String {
    let id = id(env, key);
    act(env, &format!("click [{id}]"))
}

#[test]
fn a_shopping_trip_renders_exactly() {
    let mut env = Shop::reset(&store(), Rng::from_seed(0));
    let q = id(&env, "q");
    assert_eq!(
        act(&mut env, &format!("type [{q}] \"hooded rain jacket\"")),
        format!("typed into [{q}]")
    );
    assert_eq!(
        act(&mut env, &format!("click [{q}]")),
        format!("focused [{q}]")
    );
    let search = id(&env, "search");
    assert_eq!(act(&mut env, &format!("click [{search}]")), "searched");
    let b = env.page.base_id;
    assert_eq!(
        env.page.render(),
        format!(
            "page \"Search results\"\n  heading \"Results for \\\"hooded rain jacket\\\"\"\n  text \"3 items, page 1 of 1\"\n  \
             [{}] link \"Fjord Pro rain jacket - $120\"\n  [{}] link \"Atlas Go rain jacket - $90\"\n  \
             [{}] link \"Lumen Air rain jacket - $80\"\n  [{}] button \"New search\"\n",
            b + 2,
            b + 3,
            b + 4,
            b + 5
        )
    );
    assert_eq!(
        act(&mut env, &format!("click [{search}]")),
        format!("error: no element [{search}] in this view; use the ids shown now")
    );
    act(&mut env, &format!("click [{}]", b + 3));
    let buy = id(&env, "buy");
    assert_eq!(
        act(&mut env, &format!("click [{buy}]")),
        "error: choose a color and a size first"
    );
    click(&mut env, "opt:color:navy");
    click(&mut env, "opt:size:m");
    assert!(env.page.render().contains("radio \"navy\" (checked)"));
    assert_eq!(act(&mut env, &format!("click [{buy}]")), "order placed");
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
}

#[test]
fn wrong_options_or_items_fail_with_partial_credit_only() {
    let mut env = Shop::reset(&store(), Rng::from_seed(0));
    let q = id(&env, "q");
    act(&mut env, &format!("type [{q}] \"rain jacket\""));
    click(&mut env, "search");
    click(&mut env, "p:1");
    click(&mut env, "opt:color:red");
    click(&mut env, "opt:size:m");
    click(&mut env, "buy");
    let score = env.score(0);
    assert!(!score.passed);
    assert_eq!(score.reward, 0.0);
    assert_eq!(score.breakdown["attributes_met"], 0.8);
    let mut infeasible = store();
    infeasible.products.remove(1);
    infeasible.target = None;
    let verdict = |text: &str| {
        run_script::<Shop>(&infeasible, [format!("answer {}", json!(text))])
            .0
            .passed
    };
    // Either near miss is evidence, with the one requirement it breaks.
    assert!(verdict("infeasible: Fjord Pro rain jacket; price"));
    assert!(verdict("Infeasible: fjord pro rain jacket - PRICE."));
    assert!(verdict("infeasible: Lumen Air rain jacket; feature"));
    for wrong in [
        "infeasible",
        "infeasible:",
        "infeasible: Fjord Pro rain jacket",
        "infeasible: Fjord Pro rain jacket; color",
        "infeasible: Atlas Go rain jacket; price",
        "infeasible: Fjord Pro rain jacket; price or infeasible: Lumen Air rain jacket; feature",
        "infeasible: Fjord Pro rain jacket; price, feature",
        "Fjord Pro rain jacket; price",
    ] {
        assert!(!verdict(wrong), "{wrong:?}");
    }
    assert!(
        !run_script::<Shop>(
            &store(),
            [r#"answer "infeasible: Fjord Pro rain jacket; price""#.to_string()]
        )
        .0
        .passed
    );
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<Shop>(ShopConfig {
        infeasible_share: 0.5,
        ..ShopConfig::default()
    });
}

#[test]
fn ids_change_between_views() {
    let mut env = Shop::reset(&store(), Rng::from_seed(0));
    let first = env.page.base_id;
    click(&mut env, "search");
    act(&mut env, "back");
    assert_ne!(env.page.base_id, first);
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<Shop>(
        ShopConfig {
            products: 10,
            near_misses: 2,
            ..ShopConfig::default()
        },
        true,
    );
    testkit::assert_acceptance::<Shop>(
        ShopConfig {
            products: 100,
            near_misses: 6,
            ..ShopConfig::default()
        },
        true,
    );
}

testkit::format_tests!(Shop, ShopConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Shop>(ShopConfig::default());
}
