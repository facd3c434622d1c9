use super::*;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn mail(id: &str, from: &str, topic: &str, days_ago: i64, attachments: &[&str]) -> Mail {
    let name = match from {
        "ana" => "Anika Chen",
        _ => "Basil Dahl",
    };
    Mail {
        id: id.into(),
        from: format!("{from}@corp.example"),
        from_name: name.into(),
        subject: topic.into(),
        body: format!(
            "Hi, a note on the {topic}. The reference code is REF-{}. Thanks!",
            &id[2..]
        ),
        days_ago,
        labels: vec!["work".into()],
        attachments: attachments.iter().map(|a| a.to_string()).collect(),
    }
}

fn task(goal: Goal) -> EmailTask {
    EmailTask {
        mailbox: Mailbox {
            mails: vec![
                mail(
                    "M-1",
                    "ana",
                    "budget review",
                    1,
                    &["budget.pdf", "notes.txt"],
                ),
                mail("M-2", "ana", "team lunch", 5, &[]),
                mail("M-3", "bas", "budget review", 2, &["b.pdf"]),
                mail("M-4", "ana", "tax filing", 9, &[]),
            ],
            sent: Vec::new(),
        },
        instruction: "t".into(),
        goal,
        queries: vec![],
        gold: vec![],
    }
}

fn passes(task: &EmailTask, script: &[&str]) -> bool {
    let mut script: Vec<String> = script.iter().map(|s| s.to_string()).collect();
    script.push("done".into());
    run_script::<Email>(task, script).0.passed
}

#[test]
fn a_forward_needs_the_mail_the_address_and_every_attachment() {
    let t = task(Goal::Forward {
        mail: "M-1".into(),
        to: "bas@corp.example".into(),
    });
    assert!(passes(&t, &["forward M-1 bas@corp.example true"]));
    assert!(passes(
        &t,
        &[
            r#"{"name": "forward", "arguments": {"email_id": "m-1", "to": "Bas@Corp.example", "attachments": true}}"#
        ]
    ));
    assert!(!passes(&t, &["forward M-1 bas@corp.example false"]));
    assert!(!passes(&t, &["forward M-3 bas@corp.example true"]));
    assert!(!passes(&t, &["forward M-1 ana@corp.example true"]));
    assert!(!passes(
        &t,
        &[
            "forward M-1 bas@corp.example true",
            "forward M-1 bas@corp.example true"
        ]
    ));
    assert!(!passes(
        &t,
        &["forward M-1 bas@corp.example true", "add_label M-1 urgent"]
    ));
    assert!(!passes(
        &t,
        &["forward M-1 bas@corp.example true", "remove_label M-2 work"]
    ));
    assert!(!passes(&t, &[]));
    // Without `done` the episode never passes.
    assert!(
        !run_script::<Email>(&t, ["forward M-1 bas@corp.example true".to_string()])
            .0
            .passed
    );
}

#[test]
fn labels_go_on_exactly_the_asked_mails() {
    let t = task(Goal::Label {
        mails: vec!["M-1".into(), "M-2".into()],
        label: "follow-up".into(),
    });
    assert!(passes(
        &t,
        &["add_label M-1 follow-up", "add_label M-2 Follow-Up"]
    ));
    assert!(passes(
        &t,
        &[
            "add_label M-2 follow-up",
            "add_label M-1 follow-up",
            "add_label M-1 follow-up"
        ]
    ));
    assert!(passes(
        &t,
        &[
            "add_label M-4 follow-up",
            "remove_label M-4 follow-up",
            "add_label M-1 follow-up",
            "add_label M-2 follow-up"
        ]
    ));
    assert!(!passes(&t, &["add_label M-1 follow-up"]));
    assert!(!passes(
        &t,
        &[
            "add_label M-1 follow-up",
            "add_label M-2 follow-up",
            "add_label M-4 follow-up"
        ]
    ));
    assert!(!passes(
        &t,
        &["add_label M-1 follow-up", "add_label M-2 followup"]
    ));
    assert!(!passes(
        &t,
        &[
            "add_label M-1 follow-up",
            "add_label M-2 follow-up",
            "remove_label M-1 work"
        ]
    ));
}

#[test]
fn a_reply_must_hold_the_looked_up_code() {
    let t = task(Goal::Reply {
        mail: "M-3".into(),
        source: "M-4".into(),
        code: "REF-4".into(),
    });
    assert!(passes(
        &t,
        &[r#"reply M-3 "Hello Basil, the code you need is REF-4. Best""#]
    ));
    assert!(passes(&t, &[r#"reply M-3 "ref-4""#]));
    assert!(!passes(&t, &[r#"reply M-3 "REF-3""#]));
    assert!(!passes(&t, &[r#"reply M-3 "REF-41""#]));
    assert!(!passes(&t, &[r#"reply M-1 "REF-4""#]));
    assert!(!passes(
        &t,
        &[r#"reply M-3 "REF-4""#, r#"reply M-3 "REF-4""#]
    ));
    assert!(!passes(&t, &["forward M-3 bas@corp.example true"]));
}

#[test]
fn tools_answer_exactly() {
    let t = task(Goal::Forward {
        mail: "M-1".into(),
        to: "bas@corp.example".into(),
    });
    let mut env = Email::reset(&t, Rng::from_seed(0));
    for (text, want) in [
        (
            "search \"anika budget\"",
            r#"{"matches":1,"shown":[{"days_ago":1,"email_id":"M-1","from":"Anika Chen","subject":"budget review"}]}"#,
        ),
        ("read M-9", "error: no such email"),
        (
            r#"{"name": "add_label", "arguments": {"email_id": "M-2", "label": " "}}"#,
            "error: empty label",
        ),
        ("forward M-1 bas@corp.example true", "sent"),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
}

#[test]
fn every_goal_kind_is_drawn() {
    let mut rng = Rng::from_seed(5);
    let mut kinds = std::collections::BTreeMap::new();
    for _ in 0..90 {
        let task = Email::generate(&EmailConfig::default(), &mut rng);
        let kind = testkit::variant_tag(&task.goal);
        *kinds.entry(kind).or_insert(0) += 1;
    }
    assert!(
        kinds.values().all(|&n| n >= 15) && kinds.len() == 3,
        "{kinds:?}"
    );
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<Email>([0, 5], false);
}

testkit::format_tests!(Email, EmailConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Email>(EmailConfig::default());
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<Email>(&[
        (r#"{"contacts":2}"#, "contacts"),
        (r#"{"mails":90}"#, "mails"),
        (r#"{"contacts":3,"mails":40}"#, "mails"),
    ]);
}
