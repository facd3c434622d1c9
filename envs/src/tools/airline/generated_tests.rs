//! The generated tasks of `tools/airline`: outcome shares, the built-in
//! agents' pass rates, every call format, replays and config checks.

use super::*;
use crate::toolkit::testkit;

#[test]
fn outcomes_come_in_fixed_shares_and_every_reason_occurs() {
    testkit::assert_user_desk_outcome_shares::<AirlineEnv, Op>(
        |task| &task.expected,
        &REASONS,
        &["cancel", "change", "bags", "certificate"],
    );
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
