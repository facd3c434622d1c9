use super::task::{civil_from_days, days_from_civil, parse_iso};
use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

/// Ada Berg, listed country Norway, no mailing address, Standard plan by
/// email, five nights from 2027-06-05 for three guests.
fn task() -> FormsTask {
    let expected: Record = [
        ("name", "Ada Berg"),
        ("dob", "1990-03-04"),
        ("email", "ada.berg@example.com"),
        ("phone", "5551234567"),
        ("street", "12 Oak Street"),
        ("city", "Riverton"),
        ("postcode", "02139"),
        ("country", "Norway"),
        ("mailing", "no"),
        ("plan", "Standard"),
        ("contact", "Email"),
        ("start", "2027-06-05"),
        ("end", "2027-06-10"),
        ("guests", "3"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    FormsTask {
        instruction: "Fill in the booking application for Ada Berg.".into(),
        countries: vec!["France".into(), "Norway".into(), "Japan".into()],
        expected,
        messy: Vec::new(),
        salt: 7,
    }
}

fn act(env: &mut Forms, text: &str) -> String {
    let call = env.parse_action(0, text).unwrap();
    env.apply(0, call).unwrap();
    env.message.clone()
}

/// The id of the element with `key`, scrolling to it first.
fn find(env: &mut Forms, key: &str) -> i64 {
    for _ in 0..8 {
        if let Some(id) = env.page.id_for(key) {
            return id;
        }
        let down = env.page.below(key);
        act(env, if down { "scroll down" } else { "scroll up" });
    }
    panic!("no {key} on {}", env.page.render())
}

/// Sets field `key` to `value` as an agent would: types, clicks the radio,
/// or ticks / unticks the box (an empty radio value chooses nothing).
fn fill(env: &mut Forms, key: &str, value: &str) {
    match task::field_spec(key).unwrap().kind {
        Kind::Text => {
            let id = find(env, &format!("f:{key}"));
            act(env, &format!("type [{id}] {}", json!(value)));
        }
        Kind::Radio if value.is_empty() => {}
        Kind::Radio => {
            let id = find(env, &format!("r:{key}:{value}"));
            act(env, &format!("click [{id}]"));
        }
        Kind::Check => {
            if (env.value(key) == "yes") != (value == "yes") {
                let id = find(env, &format!("c:{key}"));
                act(env, &format!("click [{id}]"));
            }
        }
    }
}

/// Fills the current page with the expected record, `overrides` taking
/// precedence, in display order (a conditional field once shown).
fn fill_page(env: &mut Forms, overrides: &[(&str, &str)]) {
    let View::Form(p) = env.view else {
        panic!("not on a form page")
    };
    for f in FIELDS.iter().filter(|f| f.page == p) {
        if !shown(f.key, &env.values) {
            continue;
        }
        let value = overrides
            .iter()
            .find(|(k, _)| *k == f.key)
            .map(|(_, v)| v.to_string())
            .or_else(|| env.task.expected.get(f.key).cloned());
        if let Some(value) = value {
            fill(env, f.key, &value);
        }
    }
}

/// A fresh form advanced to page `p` with the expected values.
fn at_page(task: &FormsTask, p: usize) -> Forms {
    let mut env = Forms::reset(task, Rng::from_seed(0));
    for _ in 0..p {
        fill_page(&mut env, &[]);
        assert!(
            act(&mut env, "submit").starts_with("page "),
            "{}",
            env.message
        );
    }
    env
}

/// Rule check: on page `p`, each bad value of `key` (with `setup` filled
/// first) is refused with the rule's error and the page stays; `good` is
/// then accepted.
fn rule(p: usize, key: &str, setup: &[(&str, &str)], bad: &[&str], good: &str) {
    let label = task::field_spec(key).unwrap().label;
    for b in bad {
        let mut env = at_page(&task(), p);
        let mut overrides = setup.to_vec();
        overrides.push((key, b));
        fill_page(&mut env, &overrides);
        let before = env.page.base_id;
        let message = act(&mut env, "submit");
        assert!(
            message.starts_with("error: the page was not accepted"),
            "{key}={b:?}: {message}"
        );
        assert_eq!(env.view, View::Form(p), "{key}={b:?}");
        assert_ne!(
            env.page.base_id, before,
            "a refused page reloads with new ids"
        );
        let text = env.page.render();
        assert!(
            text.contains(&format!("Error: {label}:")),
            "{key}={b:?}: {text}"
        );
        assert_eq!(env.rejected, 1);
        fill(&mut env, key, good);
        assert!(
            act(&mut env, "submit").starts_with(&format!("page {} accepted", p + 1)),
            "{key}: {}",
            env.message
        );
    }
}

#[test]
fn rule_full_name_is_first_last_without_commas() {
    rule(
        0,
        "name",
        &[],
        &["Berg, Ada", "", "Ada", "Ada B3rg"],
        "Ada Berg",
    );
}

#[test]
fn rule_date_of_birth_is_iso_and_in_range() {
    rule(
        0,
        "dob",
        &[],
        &[
            "4 March 1990",
            "03/04/1990",
            "1990-3-4",
            "1990-02-30",
            "1919-12-31",
            "2009-01-01",
        ],
        "1990-03-04",
    );
}

#[test]
fn rule_email_is_lowercase_and_well_formed() {
    rule(
        0,
        "email",
        &[],
        &[
            "Ada.Berg@Example.com",
            "ada.berg",
            "ada berg@example.com",
            "ada@example",
        ],
        "ada.berg@example.com",
    );
}

#[test]
fn rule_phone_is_exactly_ten_digits() {
    rule(
        0,
        "phone",
        &[],
        &[
            "(555) 123-4567",
            "555 123 4567",
            "+1 5551234567",
            "555123456",
        ],
        "5551234567",
    );
}

#[test]
fn rule_street_and_city_are_required() {
    rule(1, "street", &[], &["", "   "], "12 Oak Street");
    rule(1, "city", &[], &[""], "Riverton");
}

#[test]
fn rule_postcodes_are_five_digits() {
    rule(1, "postcode", &[], &["2139", "021 39", "AB123"], "02139");
    rule(
        1,
        "mail_postcode",
        &[
            ("mailing", "yes"),
            ("mail_street", "4 Mill Lane"),
            ("mail_city", "Ashford"),
        ],
        &["3030"],
        "30301",
    );
}

#[test]
fn rule_country_is_required() {
    rule(1, "country", &[], &[""], "Norway");
}

#[test]
fn rule_other_country_is_required_when_other_is_chosen() {
    rule(1, "other_country", &[("country", OTHER)], &[""], "Peru");
    // Shown only once Other is chosen, and only then part of the record.
    let mut env = at_page(&task(), 1);
    assert!(
        env.page
            .render()
            .lines()
            .all(|l| !l.contains("Other country ("))
    );
    fill(&mut env, "country", OTHER);
    assert!(env.page.render().contains("Other country ("));
    fill(&mut env, "country", "Norway");
    assert!(!record(&env.values).contains_key("other_country"));
}

#[test]
fn rule_mailing_address_is_required_when_ticked() {
    rule(
        1,
        "mail_street",
        &[
            ("mailing", "yes"),
            ("mail_postcode", "30301"),
            ("mail_city", "Ashford"),
        ],
        &[""],
        "4 Mill Lane",
    );
    rule(
        1,
        "mail_city",
        &[
            ("mailing", "yes"),
            ("mail_postcode", "30301"),
            ("mail_street", "4 Mill Lane"),
        ],
        &[""],
        "Ashford",
    );
}

#[test]
fn rule_plan_is_required() {
    rule(2, "plan", &[], &[""], "Standard");
}

#[test]
fn rule_premium_is_contacted_by_phone() {
    rule(
        2,
        "contact",
        &[("plan", "Premium")],
        &["Email", "Post"],
        "Phone",
    );
    rule(2, "contact", &[], &[""], "Email");
}

#[test]
fn rule_check_in_is_an_iso_date_in_2027() {
    rule(
        2,
        "start",
        &[],
        &["June 5, 2027", "2026-06-05", "2028-06-05"],
        "2027-06-05",
    );
}

#[test]
fn rule_check_out_is_after_check_in_and_within_14_nights() {
    rule(
        2,
        "end",
        &[],
        &[
            "2027-06-05",
            "2027-06-04",
            "2027-06-20",
            "for 5 nights",
            "10 June 2027",
        ],
        "2027-06-19",
    );
}

#[test]
fn rule_guests_are_one_to_six() {
    rule(
        2,
        "guests",
        &[],
        &["0", "7", "2 adults and 1 child", "three", ""],
        "3",
    );
}

/// Recovery path: the request's way of writing `key` is refused on its
/// page, and the normalised value then passes the whole episode.
fn recovers(key: &str, setup: &[(&str, &str)], as_written: &str) {
    let t = task();
    let p = task::field_spec(key).unwrap().page;
    let mut env = at_page(&t, p);
    let mut overrides = setup.to_vec();
    overrides.push((key, as_written));
    fill_page(&mut env, &overrides);
    assert!(
        act(&mut env, "submit").starts_with("error:"),
        "{key}: {as_written:?} accepted"
    );
    // The oracle reads the reloaded page and finishes from there.
    for _ in 0..40 {
        if env.turn() == Turn::Over {
            break;
        }
        let command = env.next_command();
        act(&mut env, &command);
    }
    let score = env.score(0);
    assert!(score.passed, "{key}: {}", env.render());
    assert_eq!(score.breakdown["rejected"], 1.0);
    assert_eq!(score.breakdown["submitted"], 1.0);
}

#[test]
fn recovery_name_written_last_first() {
    recovers("name", &[], "Berg, Ada");
}

#[test]
fn recovery_date_of_birth_in_words() {
    recovers("dob", &[], "4 March 1990");
    recovers("dob", &[], "March 4, 1990");
}

#[test]
fn recovery_email_with_capitals() {
    recovers("email", &[], "Ada.Berg@Example.Com");
}

#[test]
fn recovery_phone_with_spaces_symbols_or_country_code() {
    for written in [
        "(555) 123-4567",
        "555 123 4567",
        "555.123.4567",
        "+1 555 123 4567",
    ] {
        recovers("phone", &[], written);
    }
}

#[test]
fn recovery_check_in_in_words() {
    recovers("start", &[], "June 5, 2027");
}

#[test]
fn recovery_stay_given_in_nights() {
    recovers("end", &[], "for 5 nights");
}

#[test]
fn recovery_guests_as_adults_and_children() {
    recovers("guests", &[], "2 adults and 1 child");
}

#[test]
fn recovery_premium_asked_with_email_contact() {
    let mut t = task();
    t.expected.insert("plan".into(), "Premium".into());
    t.expected.insert("contact".into(), "Phone".into());
    let mut env = at_page(&t, 2);
    fill_page(&mut env, &[("contact", "Email")]);
    assert!(act(&mut env, "submit").starts_with("error:"));
    assert!(
        env.page
            .render()
            .contains("Error: Contact by: choose one; the Premium plan must be contacted by Phone")
    );
    fill(&mut env, "contact", "Phone");
    act(&mut env, "submit");
    act(&mut env, "submit");
    assert!(env.score(0).passed, "{}", env.render());
}

#[test]
fn a_page_renders_its_rules_and_the_review_lists_the_record() {
    let env = Forms::reset(&task(), Rng::from_seed(0));
    let b = env.page.base_id;
    assert_eq!(
        env.page.render(),
        format!(
            "page \"Personal details\"\n  heading \"Step 1 of 4: Personal details\"\n  \
             [{}] textbox \"Full name (First Last, letters and spaces only, no commas)\" value=\"\"\n  \
             [{}] textbox \"Date of birth (YYYY-MM-DD, born 1920 to 2008)\" value=\"\"\n  \
             [{}] textbox \"Email (lowercase only, like name@example.com)\" value=\"\"\n  \
             [{}] textbox \"Phone (exactly 10 digits: no country code, spaces or symbols)\" value=\"\"\n  \
             [{}] button \"Next\"\n",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5
        )
    );
    let mut env = at_page(&task(), 3);
    assert_eq!(env.view, View::Review);
    let text = env.page.render();
    assert!(text.contains("Address: Street: 12 Oak Street; City: Riverton; Postcode: 02139; Country: Norway; Letters go to a different mailing address: no"), "{text}");
    assert_eq!(act(&mut env, "submit"), "application submitted");
    assert_eq!(env.turn(), Turn::Over);
    assert!(env.score(0).passed);
    assert_eq!(env.score(0).breakdown["rejected"], 0.0);
}

#[test]
fn the_server_rechecks_every_page_on_submit() {
    // Edit a page from the review, break it, and return by `back` (no
    // Next): Submit refuses and shows the broken page.
    let mut env = at_page(&task(), 3);
    let edit = find(&mut env, "edit:0");
    act(&mut env, &format!("click [{edit}]"));
    fill(&mut env, "phone", "555 123 4567");
    assert_eq!(act(&mut env, "back"), "went back");
    assert_eq!(env.view, View::Review);
    assert!(act(&mut env, "submit").starts_with("error:"));
    assert_eq!(env.view, View::Form(0));
    assert!(env.submitted.is_empty());
    assert!(!env.score(0).passed);
}

#[test]
fn valid_but_wrong_records_and_no_submission_fail() {
    // One night too many passes the validator but is not the stay asked for.
    let mut env = at_page(&task(), 2);
    fill_page(&mut env, &[("end", "2027-06-11")]);
    act(&mut env, "submit");
    assert_eq!(act(&mut env, "submit"), "application submitted");
    let score = env.score(0);
    assert!(!score.passed);
    assert_eq!(score.reward, 0.0);
    assert!(score.breakdown["fields_correct"] > 0.9);
    // A name in another case is the same name; a wrong guest count is not.
    let mut env = at_page(&task(), 0);
    fill_page(&mut env, &[("name", "ada  BERG")]);
    for _ in 0..3 {
        fill_page(&mut env, &[("name", "ada  BERG")]);
        act(&mut env, "submit");
    }
    act(&mut env, "submit");
    assert!(env.score(0).passed, "{}", env.render());
    // Answers, filled forms left unsubmitted and the empty form fail.
    for script in [
        vec![r#"answer "done""#.to_string()],
        vec!["submit".to_string(); 10],
        Vec::new(),
    ] {
        assert!(!run_script::<Forms>(&task(), script).0.passed);
    }
    let mut env = at_page(&task(), 3);
    act(&mut env, r#"answer "submitted""#);
    assert!(!env.score(0).passed);
}

#[test]
fn dates_round_trip_and_parse_strictly() {
    for days in [-1000, 0, 19_000, 20_819, 21_000] {
        let (y, m, d) = civil_from_days(days);
        assert_eq!(days_from_civil(y, m, d), days);
    }
    assert_eq!(task::iso(days_from_civil(2027, 6, 5) + 5), "2027-06-10");
    assert_eq!(parse_iso("2027-02-29"), None);
    assert_eq!(parse_iso("2028-02-29").map(|p| p.1), Some(2028));
    assert_eq!(parse_iso("2027-6-05"), None);
    assert_eq!(parse_iso("2027/06/05"), None);
}

#[test]
fn messy_values_are_not_in_the_request_as_the_form_wants_them() {
    let config = FormsConfig {
        messy: 8,
        conditional: 2,
    };
    let mut rng = Rng::from_seed(5);
    for _ in 0..20 {
        let t = Forms::generate(&config, &mut rng);
        assert_eq!(t.messy.len(), 8);
        for key in ["name", "dob", "email", "phone", "start", "end"] {
            let want = &t.expected[key];
            assert!(
                !t.instruction.contains(want.as_str()),
                "{key}={want} in {}",
                t.instruction
            );
        }
        assert_eq!(t.expected["contact"], "Phone");
        assert_eq!(t.expected["country"], OTHER);
        assert_eq!(t.expected["mailing"], "yes");
        assert!(!t.countries.contains(&t.expected["other_country"]));
        // The record itself meets every rule.
        assert!(
            (0..3).all(|p| page_errors(p, &t.expected).is_empty()),
            "{:?}",
            t.expected
        );
    }
}

/// Each way the generator writes a messy value is refused by its field's
/// rule as written (so the page, not luck, makes the agent normalise it).
#[test]
fn every_messy_writing_is_refused_as_written() {
    let mut rng = Rng::from_seed(3);
    let refused = |key: &str, value: &str| {
        let mut values = task().expected;
        values.insert(key.to_string(), value.to_string());
        !task::valid(key, &values)
    };
    for _ in 0..200 {
        let days = days_from_civil(2027, 1, 1) + rng.range_i64(0, 330);
        assert!(refused("start", &generate::in_words(days, &mut rng)));
        assert!(refused("dob", &generate::in_words(days - 12_000, &mut rng)));
        let phone = format!("{}", rng.range_i64(2_000_000_000, 9_999_999_999));
        assert!(refused("phone", &generate::phone_messy(&phone, &mut rng)));
    }
    assert!(refused(
        "email",
        &generate::email_messy("ada.berg@example.com")
    ));
    assert_eq!(
        generate::email_messy("ada.berg@mail.test"),
        "Ada.Berg@Mail.Test"
    );
    assert!(refused("name", "Berg, Ada"));
    assert!(refused("guests", "2 adults and 1 child"));
    assert!(refused("end", "for 5 nights"));
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<Forms>(
        FormsConfig {
            messy: 1,
            conditional: 0,
        },
        false,
    );
    testkit::assert_acceptance::<Forms>(
        FormsConfig {
            messy: 8,
            conditional: 2,
        },
        false,
    );
}

testkit::format_tests!(Forms, FormsConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Forms>(FormsConfig::default());
}
