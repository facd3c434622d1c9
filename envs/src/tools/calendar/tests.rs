use super::time::{Person, Room, earliest};
use super::*;
use crate::toolkit::calls::call_text;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn office() -> CalendarTask {
    let people = vec![
        Person {
            name: "Amara".into(),
            utc_offset: 0,
        },
        Person {
            name: "Hiro".into(),
            utc_offset: -2,
        },
    ];
    let rooms = vec![
        Room {
            name: "Aspen".into(),
            capacity: 1,
        },
        Room {
            name: "Oak".into(),
            capacity: 4,
        },
    ];
    let bookings = vec![Booking {
        id: "B1".into(),
        title: "Standup".into(),
        room: "Oak".into(),
        start: 11 * 60,
        end: 12 * 60,
        attendees: vec!["Amara".into()],
    }];
    let refs: Vec<&Person> = people.iter().collect();
    let slot = earliest(&refs, &rooms, 60, &bookings, None);
    assert_eq!(
        slot,
        Some((12 * 60, "Oak".to_string())),
        "Hiro starts 11:00 UTC, Amara is busy until 12:00"
    );
    CalendarTask {
        instruction: "Book".into(),
        people,
        rooms,
        bookings,
        meeting: Meeting {
            title: "Sync".into(),
            attendees: vec!["Amara".into(), "Hiro".into()],
            minutes: 60,
            day: None,
            earliest: true,
        },
        earliest: Some(12 * 60),
        gold: Vec::new(),
    }
}

fn book(room: &str, day: &str, start: &str, minutes: i64, attendees: &str) -> String {
    call_text(
        "book",
        json!({"title": "Sync", "room": room, "day": day, "start": start, "minutes": minutes, "attendees": attendees}),
    )
}

fn answer(a: &str) -> String {
    call_text("answer", json!({"answer": a}))
}

#[test]
fn tools_show_and_refuse_exactly() {
    let mut env = Calendar::reset(&office(), Rng::from_seed(0));
    for (text, want) in [
        ("list_people", "Amara (UTC+0)\nHiro (UTC-2)"),
        (
            "get_schedule amara",
            "B1 Mon 11:00-12:00 \"Standup\" in Oak with Amara",
        ),
        (
            r#"book Sync Aspen Mon "11:30" 60 "Hiro, Amara""#,
            "error: conflicts with B1 Mon 11:00-12:00 \"Standup\" in Oak with Amara",
        ),
        (
            r#"book Sync Oak Mon "12:00" 60 "Hiro, Amara""#,
            "booked B2 Mon 12:00-13:00 \"Sync\" in Oak with Hiro, Amara",
        ),
        (
            "cancel B2",
            "cancelled B2 Mon 12:00-13:00 \"Sync\" in Oak with Hiro, Amara",
        ),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
}

#[test]
fn every_constraint_is_checked() {
    let task = office();
    let pass = |script: Vec<String>| run_script::<Calendar>(&task, script).0.passed;
    assert!(pass(vec![
        book("Oak", "Mon", "12:00", 60, "Amara, Hiro"),
        answer("Mon 12:00 UTC")
    ]));
    // Valid but not the earliest.
    assert!(!pass(vec![
        book("Oak", "Mon", "13:00", 60, "Amara, Hiro"),
        answer("Mon 13:00")
    ]));
    // Too small a room, wrong length, a missing attendee, a wrong answer.
    assert!(!pass(vec![
        book("Aspen", "Mon", "12:00", 60, "Amara, Hiro"),
        answer("Mon 12:00")
    ]));
    assert!(!pass(vec![
        book("Oak", "Mon", "12:00", 30, "Amara, Hiro"),
        answer("Mon 12:00")
    ]));
    assert!(!pass(vec![
        book("Oak", "Mon", "12:00", 60, "Amara"),
        answer("Mon 12:00")
    ]));
    assert!(!pass(vec![
        book("Oak", "Mon", "12:00", 60, "Amara, Hiro"),
        answer("Mon 12:30")
    ]));
    // Cancelling someone else's booking to make room is a change.
    assert!(!pass(vec![
        "cancel B1".into(),
        book("Oak", "Mon", "12:00", 60, "Amara, Hiro"),
        answer("Mon 12:00")
    ]));
    // Any-slot tasks accept any valid start that day, not out-of-hours ones.
    let mut any = office();
    any.meeting.earliest = false;
    any.meeting.day = Some(0);
    let pass_any = |script: Vec<String>| run_script::<Calendar>(&any, script).0.passed;
    assert!(pass_any(vec![
        book("Oak", "Mon", "15:30", 60, "Amara, Hiro"),
        answer("Mon 15:30")
    ]));
    assert!(!pass_any(vec![
        book("Oak", "Mon", "16:30", 60, "Amara, Hiro"),
        answer("Mon 16:30")
    ]));
    assert!(!pass_any(vec![
        book("Oak", "Tue", "12:00", 60, "Amara, Hiro"),
        answer("Tue 12:00")
    ]));
}

#[test]
fn infeasible_tasks_have_no_slot_at_all() {
    let mut rng = Rng::from_seed(6);
    let config = CalendarConfig {
        infeasible_share: 0.5,
        ..CalendarConfig::default()
    };
    let mut seen = 0;
    for _ in 0..60 {
        let task = Calendar::generate(&config, &mut rng);
        if task.earliest.is_none() {
            seen += 1;
            let refs = task.attendees();
            let rooms = vec![Room {
                name: "Huge".into(),
                capacity: 99,
            }];
            let anywhere = earliest(
                &refs,
                &rooms,
                task.meeting.minutes,
                &task.bookings,
                task.meeting.day,
            );
            let crowded = task.rooms.iter().all(|r| r.capacity < refs.len());
            assert!(anywhere.is_none() || crowded, "{}", task.instruction);
            let blockers = task.blockers();
            assert!(!blockers.is_empty(), "{}", task.instruction);
            let verdict = format!("infeasible: {}", blockers[blockers.len() - 1]);
            assert!(run_script::<Calendar>(&task, [answer(&verdict)]).0.passed);
            let flipped = verdict
                .replace("UTC+", "UTC#")
                .replace("UTC-", "UTC+")
                .replace("UTC#", "UTC-");
            for wrong in ["infeasible".to_string(), format!("{verdict}, B1")] {
                assert!(
                    !run_script::<Calendar>(&task, [answer(&wrong)]).0.passed,
                    "{wrong}"
                );
            }
            if flipped != verdict && !verdict.contains("UTC+0") {
                assert!(
                    !run_script::<Calendar>(&task, [answer(&flipped)]).0.passed,
                    "{flipped}"
                );
            }
        }
    }
    assert!(seen >= 15, "{seen}");
}

#[test]
fn acceptance_easy_and_hard() {
    let easy = CalendarConfig {
        people: 4,
        rooms: 2,
        bookings_per_person: 2,
        attendees: 2,
        ..CalendarConfig::default()
    };
    testkit::assert_acceptance::<Calendar>(easy, true);
    let hard = CalendarConfig {
        people: 10,
        rooms: 5,
        bookings_per_person: 6,
        attendees: 4,
        ..CalendarConfig::default()
    };
    testkit::assert_acceptance::<Calendar>(hard, true);
}

testkit::format_tests!(Calendar, CalendarConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Calendar>(CalendarConfig::default());
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<Calendar>(CalendarConfig {
        infeasible_share: 0.5,
        ..CalendarConfig::default()
    });
}
