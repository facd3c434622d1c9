//! The generated tasks of `tools/airline`: outcome shares, the built-in
//! agents' pass rates, every call format, replays and config checks.

use super::*;
use crate::toolkit::testkit;

#[test]
fn outcomes_come_in_fixed_shares_and_every_reason_occurs() {
    let mut rng = Rng::from_seed(4);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..300 {
        let task = AirlineEnv::generate(&AirlineConfig::default(), &mut rng);
        let key = match &task.expected {
            Outcome::Do(op) => serde_json::to_value(op)
                .unwrap()
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone(),
            Outcome::Refuse(r) => r.clone(),
            Outcome::Transfer => "transfer".into(),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    for reason in REASONS.iter().chain(&["transfer"]) {
        assert!(counts.get(*reason).is_some_and(|&n| n >= 3), "{counts:?}");
    }
    for op in ["cancel", "change", "bags", "certificate"] {
        assert!(counts.get(op).is_some_and(|&n| n >= 20), "{counts:?}");
    }
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<AirlineEnv>([0, 5], true);
}

testkit::format_tests!(AirlineEnv, AirlineConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<AirlineEnv>(AirlineConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<AirlineEnv>(&[
        (r#"{"users":1}"#, "users"),
        (r#"{"reservations_per_user":0}"#, "reservations_per_user"),
        (r#"{"airports":7}"#, "airports"),
        (r#"{"refuse_share":0.9}"#, "refuse_share"),
    ]);
}
