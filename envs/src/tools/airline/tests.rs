use super::task::{decide, gold_calls};
use super::*;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

fn flight(
    number: &str,
    route: (&str, &str),
    when: (&str, &str),
    status: FlightStatus,
    prices: [i64; 3],
    seats: [i64; 3],
) -> Flight {
    Flight {
        number: number.into(),
        origin: route.0.into(),
        destination: route.1.into(),
        date: when.0.into(),
        departure: when.1.into(),
        status,
        prices,
        seats,
    }
}

fn reservation(
    id: &str,
    user: &str,
    flights: &[&str],
    cabin: Cabin,
    passengers: usize,
    booked_at: &str,
) -> Reservation {
    Reservation {
        id: id.into(),
        user: user.into(),
        flights: flights.iter().map(|f| f.to_string()).collect(),
        cabin,
        passengers: (0..passengers).map(|k| format!("Passenger {k}")).collect(),
        bags: 1,
        insurance: false,
        booked_at: booked_at.into(),
        payment: if user == "U-1" { "PM-1" } else { "PM-9" }.into(),
        paid: 240,
        cancelled: false,
    }
}

const OLD: &str = "2026-05-10 09:00";
const BOS_JFK: (&str, &str) = ("BOS", "JFK");

/// Ada (U-1, regular, PM-1) and Bo (U-2, silver, PM-9); the present is
/// May 15 09:00. R-1: Ada, VG100 (landed) and VG101, economy. R-2: Ada,
/// VG200, economy, 2 passengers, 1 bag, booked May 10. R-3: Ada, VG201
/// (delayed), basic economy, insured, booked 8 hours ago. R-4: Bo, VG200,
/// business. R-5: Ada, VG202 (cancelled by the airline), economy. R-6: Ada,
/// VG201, business.
fn airline() -> Airline {
    use FlightStatus::*;
    Airline {
        users: vec![
            User {
                id: "U-1".into(),
                name: "Ada Berg".into(),
                email: "ada@example.com".into(),
                membership: Membership::Regular,
                payments: vec![("PM-1".into(), "credit card ending 1111".into())],
            },
            User {
                id: "U-2".into(),
                name: "Bo Ito".into(),
                email: "bo@example.com".into(),
                membership: Membership::Silver,
                payments: vec![("PM-9".into(), "credit card ending 9999".into())],
            },
        ],
        flights: vec![
            flight(
                "VG100",
                ("BOS", "DEN"),
                ("2026-05-14", "10:00"),
                Landed,
                [100, 150, 400],
                [5, 5, 5],
            ),
            flight(
                "VG101",
                ("DEN", "BOS"),
                ("2026-05-17", "12:00"),
                Scheduled,
                [100, 150, 400],
                [5, 5, 5],
            ),
            flight(
                "VG102",
                ("DEN", "BOS"),
                ("2026-05-18", "08:00"),
                Scheduled,
                [90, 170, 380],
                [5, 5, 5],
            ),
            flight(
                "VG200",
                BOS_JFK,
                ("2026-05-16", "09:00"),
                Scheduled,
                [80, 120, 300],
                [3, 3, 3],
            ),
            flight(
                "VG201",
                BOS_JFK,
                ("2026-05-17", "09:00"),
                Delayed,
                [80, 130, 320],
                [3, 3, 3],
            ),
            flight(
                "VG202",
                BOS_JFK,
                ("2026-05-18", "09:00"),
                Cancelled,
                [80, 110, 300],
                [3, 3, 3],
            ),
            flight(
                "VG203",
                BOS_JFK,
                ("2026-05-19", "09:00"),
                Scheduled,
                [80, 110, 300],
                [3, 1, 3],
            ),
        ],
        reservations: vec![
            reservation("R-1", "U-1", &["VG100", "VG101"], Cabin::Economy, 1, OLD),
            reservation("R-2", "U-1", &["VG200"], Cabin::Economy, 2, OLD),
            Reservation {
                insurance: true,
                ..reservation(
                    "R-3",
                    "U-1",
                    &["VG201"],
                    Cabin::BasicEconomy,
                    1,
                    "2026-05-15 01:00",
                )
            },
            reservation("R-4", "U-2", &["VG200"], Cabin::Business, 1, OLD),
            reservation("R-5", "U-1", &["VG202"], Cabin::Economy, 1, OLD),
            reservation("R-6", "U-1", &["VG201"], Cabin::Business, 1, OLD),
        ],
        ledger: Vec::new(),
        certificates: Vec::new(),
    }
}

fn task_on(airline: Airline, request: Request) -> AirlineTask {
    let expected = decide(&airline, "U-1", &request);
    let mut task = AirlineTask {
        airline,
        caller: 0,
        request,
        opening: "Hi, I'm Ada Berg, my email is ada@example.com.".into(),
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}

fn task(request: Request) -> AirlineTask {
    task_on(airline(), request)
}

fn cancel(reservation: &str, reason: &str) -> Request {
    Request::Cancel {
        reservation: reservation.into(),
        reason: reason.into(),
    }
}

fn change(reservation: &str, flight: &str, new_flight: &str, cabin: Cabin) -> Request {
    Request::Change {
        reservation: reservation.into(),
        flight: flight.into(),
        new_flight: new_flight.into(),
        cabin,
    }
}

fn bags(reservation: &str, total: i64) -> Request {
    Request::Bags {
        reservation: reservation.into(),
        total,
    }
}

fn compensation(reservation: &str, flight: &str) -> Request {
    Request::Compensation {
        reservation: reservation.into(),
        flight: flight.into(),
    }
}

const FIND: &str = "find_user ada@example.com";

fn passes(task: &AirlineTask, script: &[&str]) -> bool {
    testkit::script_passes::<AirlineEnv>(task, script)
}

/// The request carried out as asked fails, closed as complete or with the
/// right refusal, even though the user asked for it; the right refusal
/// alone passes, and a wrong reason, another user's id or a hand-over fail.
fn assert_refused(task: &AirlineTask, doing: &str, reason: &str) {
    assert_eq!(task.expected, Outcome::Refuse(reason.into()));
    testkit::assert_user_desk_refuses::<AirlineEnv>(task, FIND, doing, reason, &REASONS);
}

/// The allowed request carried out after authenticating and completed
/// passes; refusing it, handing it over, completing without doing it, or
/// doing it before `find_user` fails.
fn assert_allowed(task: &AirlineTask, doing: &str) {
    assert!(
        matches!(task.expected, Outcome::Do(_)),
        "{:?}",
        task.expected
    );
    testkit::assert_user_desk_allows::<AirlineEnv>(task, FIND, doing, &REASONS);
}

#[test]
fn rule_1a_no_change_before_authentication() {
    let task = task(bags("R-2", 3));
    assert_allowed(&task, "update_reservation_baggages R-2 3 1");
    let (score, _) = run_script::<AirlineEnv>(
        &task,
        [
            "update_reservation_baggages R-2 3 1",
            FIND,
            "complete_request U-1",
        ]
        .map(String::from),
    );
    assert_eq!(score.breakdown["state_correct"], 1.0);
    assert_eq!(score.breakdown["authenticated_first"], 0.0);
    assert!(!score.passed);
}

#[test]
fn rule_1b_only_the_users_own_reservations() {
    assert_refused(
        &task(cancel("R-4", "change_of_plans")),
        "cancel_reservation R-4",
        "not_owner",
    );
    assert_refused(
        &task(bags("R-4", 3)),
        "update_reservation_baggages R-4 3 0",
        "not_owner",
    );
}

#[test]
fn rule_2_a_partly_flown_trip_goes_to_a_human() {
    for (request, doing) in [
        (cancel("R-1", "health"), "cancel_reservation R-1"),
        (
            change("R-1", "VG101", "VG102", Cabin::Economy),
            "update_reservation_flights R-1 VG101 VG102 economy",
        ),
    ] {
        let task = task(request);
        assert_eq!(task.expected, Outcome::Transfer);
        assert!(passes(&task, &[FIND, "transfer_to_human U-1"]));
        assert!(
            !passes(&task, &[FIND, doing, "transfer_to_human U-1"]),
            "{doing}"
        );
        assert!(
            !passes(&task, &[FIND, doing, "complete_request U-1"]),
            "{doing}"
        );
        assert!(!passes(&task, &[FIND, "transfer_to_human U-2"]));
        for reason in REASONS {
            assert!(!passes(&task, &[&format!("refuse {reason} U-1")]));
        }
        assert!(oracle_passes::<AirlineEnv>(&task));
    }
}

#[test]
fn rule_3_cancellation_needs_a_recent_booking_an_airline_cancellation_business_or_insurance() {
    // Economy, booked five days ago, no insurance: whatever the reason.
    for reason in [
        "change_of_plans",
        "health",
        "weather",
        "airline_cancelled_flight",
    ] {
        assert_refused(
            &task(cancel("R-2", reason)),
            "cancel_reservation R-2",
            "cancel_not_allowed",
        );
    }
    // Each ground alone allows it: booked 8 hours ago (R-3), the airline
    // cancelled VG202 (R-5), business (R-6).
    for r in ["R-3", "R-5", "R-6"] {
        assert_allowed(
            &task(cancel(r, "change_of_plans")),
            &format!("cancel_reservation {r}"),
        );
    }
    // Insurance covers health and weather, not a change of plans.
    let mut insured = airline();
    insured.reservations[1].insurance = true;
    for reason in ["health", "weather"] {
        assert_allowed(
            &task_on(insured.clone(), cancel("R-2", reason)),
            "cancel_reservation R-2",
        );
    }
    let plans = task_on(insured, cancel("R-2", "change_of_plans"));
    assert_refused(&plans, "cancel_reservation R-2", "cancel_not_allowed");
    // A cancellation refunds the 240 paid and frees the seats.
    let mut expected = airline();
    if let Outcome::Do(op) = &task(cancel("R-6", "weather")).expected {
        expected.apply(op);
    }
    assert_eq!(
        expected.ledger,
        vec![Entry {
            reservation: "R-6".into(),
            method: "PM-1".into(),
            amount: 240
        }]
    );
    assert_eq!(expected.flights[4].seats, [3, 3, 4]);
}

#[test]
fn rule_4a_basic_economy_cannot_be_changed() {
    let task = task(change("R-3", "VG201", "VG200", Cabin::BasicEconomy));
    assert_refused(
        &task,
        "update_reservation_flights R-3 VG201 VG200 basic_economy",
        "basic_economy_no_changes",
    );
}

#[test]
fn rule_4b_changes_keep_the_cabin() {
    let task = task(change("R-2", "VG200", "VG201", Cabin::Business));
    assert_refused(
        &task,
        "update_reservation_flights R-2 VG200 VG201 business",
        "cabin_change_not_allowed",
    );
    let allowed = super::tests::task(change("R-2", "VG200", "VG201", Cabin::Economy));
    assert_allowed(
        &allowed,
        "update_reservation_flights R-2 VG200 VG201 economy",
    );
    // Two passengers at 10 more each: 20 charged, seats moved.
    let mut expected = airline();
    if let Outcome::Do(op) = &allowed.expected {
        expected.apply(op);
    }
    assert_eq!(
        expected.ledger,
        vec![Entry {
            reservation: "R-2".into(),
            method: "PM-1".into(),
            amount: -20
        }]
    );
    assert_eq!(
        (expected.flights[3].seats[1], expected.flights[4].seats[1]),
        (5, 1)
    );
    assert_eq!(expected.reservations[1].paid, 260);
}

#[test]
fn rule_4c_the_new_flight_needs_a_seat_for_every_passenger() {
    let task = task(change("R-2", "VG200", "VG203", Cabin::Economy));
    assert_refused(
        &task,
        "update_reservation_flights R-2 VG200 VG203 economy",
        "no_seats",
    );
    // One passenger fits in the one free seat.
    let mut alone = airline();
    alone.reservations[1].passengers.truncate(1);
    let fits = task_on(alone, change("R-2", "VG200", "VG203", Cabin::Economy));
    assert_allowed(&fits, "update_reservation_flights R-2 VG200 VG203 economy");
}

#[test]
fn rule_5_bags_are_added_never_removed_and_only_extra_ones_paid() {
    // Regular member in economy, two passengers: 2 free, 1 held; 4 in total
    // means 2 paid.
    let task = task(bags("R-2", 4));
    assert_eq!(
        task.expected,
        Outcome::Do(Op::Bags {
            reservation: "R-2".into(),
            total: 4,
            paid: 2
        })
    );
    assert_allowed(&task, "update_reservation_baggages R-2 4 2");
    for paid in [0, 1, 3] {
        let wrong = format!("update_reservation_baggages R-2 4 {paid}");
        assert!(
            !passes(&task, &[FIND, &wrong, "complete_request U-1"]),
            "{wrong}"
        );
    }
    // Business pays nothing for a second bag; basic economy pays for all.
    assert_allowed(
        &super::tests::task(bags("R-6", 2)),
        "update_reservation_baggages R-6 2 0",
    );
    assert_allowed(
        &super::tests::task(bags("R-3", 3)),
        "update_reservation_baggages R-3 3 2",
    );
    assert_refused(
        &super::tests::task(bags("R-2", 0)),
        "update_reservation_baggages R-2 0 0",
        "bags_not_removable",
    );
}

#[test]
fn rule_6_certificates_only_for_eligible_users_and_disrupted_flights() {
    // Business, delayed: 50; insured basic economy, delayed: 50.
    assert_allowed(
        &task(compensation("R-6", "VG201")),
        "send_certificate U-1 50",
    );
    assert_allowed(
        &task(compensation("R-3", "VG201")),
        "send_certificate U-1 50",
    );
    for amount in [100, 25] {
        let wrong = format!("send_certificate U-1 {amount}");
        let t = task(compensation("R-6", "VG201"));
        assert!(
            !passes(&t, &[FIND, &wrong, "complete_request U-1"]),
            "{wrong}"
        );
    }
    // A regular member in economy without insurance: nothing, even for the
    // cancelled VG202; nor for a flight on schedule.
    assert_refused(
        &task(compensation("R-5", "VG202")),
        "send_certificate U-1 100",
        "no_compensation",
    );
    let mut gold = airline();
    gold.users[0].membership = Membership::Gold;
    let on_time = task_on(gold.clone(), compensation("R-2", "VG200"));
    assert_refused(&on_time, "send_certificate U-1 100", "no_compensation");
    // A gold member, the cancelled flight: 100 per passenger.
    let cancelled = task_on(gold, compensation("R-5", "VG202"));
    assert_allowed(&cancelled, "send_certificate U-1 100");
}

#[test]
fn rule_7_one_change_call() {
    let task = task(bags("R-2", 4));
    assert!(!passes(
        &task,
        &[
            FIND,
            "update_reservation_baggages R-2 3 1",
            "update_reservation_baggages R-2 4 1",
            "complete_request U-1"
        ]
    ));
    let cert = super::tests::task(compensation("R-6", "VG201"));
    assert!(!passes(
        &cert,
        &[
            FIND,
            "send_certificate U-1 25",
            "send_certificate U-1 25",
            "complete_request U-1"
        ]
    ));
}

#[test]
fn tools_answer_exactly() {
    let task = task(bags("R-2", 4));
    let mut env = AirlineEnv::reset(&task, Rng::from_seed(0));
    for (text, want) in [
        ("find_user ADA@example.com", r#"{"user_id":"U-1"}"#),
        (
            "get_user u-2",
            r#"{"membership":"silver","name":"Bo Ito","payment_methods":[{"label":"credit card ending 9999","payment_method_id":"PM-9"}],"reservations":["R-4"],"user_id":"U-2"}"#,
        ),
        (
            "get_reservation R-3",
            r#"{"amount_paid":240,"booked_at":"2026-05-15 01:00","cabin":"basic_economy","checked_bags":1,"flights":["VG201"],"passengers":["Passenger 0"],"payment_method_id":"PM-1","reservation_id":"R-3","status":"active","travel_insurance":true,"user_id":"U-1"}"#,
        ),
        (
            "get_flight vg203",
            r#"{"cabins":{"basic_economy":{"free_seats":3,"price":80},"business":{"free_seats":3,"price":300},"economy":{"free_seats":1,"price":110}},"date":"2026-05-19","departure":"09:00","destination":"JFK","flight_number":"VG203","origin":"BOS","status":"scheduled"}"#,
        ),
        ("get_reservation R-99", "error: no such reservation"),
        (
            "update_reservation_flights R-2 VG201 VG203 economy",
            "error: flight VG201 is not in the reservation",
        ),
        (
            "update_reservation_flights R-2 VG200 VG999 economy",
            "error: no flight VG999 to move to",
        ),
        (
            "update_reservation_baggages R-2 4 -1",
            "error: bag counts cannot be negative",
        ),
        (
            "send_certificate U-1 0",
            "error: the amount must be in 1..=10000",
        ),
        (
            "update_reservation_baggages R-2 51 0",
            "error: at most 50 bags, and paid_bags at most total_bags",
        ),
        (
            "update_reservation_baggages R-2 4 5",
            "error: at most 50 bags, and paid_bags at most total_bags",
        ),
        (
            "update_reservation_baggages R-2 4 2",
            r#"{"status":"bags updated"}"#,
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
    assert_eq!(
        env.world.ledger,
        vec![Entry {
            reservation: "R-2".into(),
            method: "PM-1".into(),
            amount: -100
        }]
    );
}
