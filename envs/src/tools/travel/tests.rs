use super::task::{ECONOMY, booking_calls, decide, gold_calls};
use super::*;
use crate::toolkit::screen::{oracle_passes, run_script};
use crate::toolkit::testkit;

#[allow(clippy::too_many_arguments)]
fn fare(
    id: &str,
    from: &str,
    date: i64,
    times: (&str, i64, &str),
    stops: u8,
    class: &str,
    refundable: bool,
    price: i64,
) -> Flight {
    let (a, b) = if from == "Lisbon" {
        ("Lisbon", "Oslo")
    } else {
        ("Oslo", "Lisbon")
    };
    let airline = match &id[..2] {
        "AX" => "Aerolux",
        "BO" => "Borealis",
        "CI" => "Cirrus",
        _ => "Meridian",
    };
    Flight {
        id: id.into(),
        airline: airline.into(),
        origin: a.into(),
        destination: b.into(),
        date,
        depart: times.0.into(),
        arrive_date: times.1,
        arrive: times.2.into(),
        stops,
        fare_class: class.into(),
        refundable,
        price,
    }
}

/// Lisbon to Oslo on the 10th, back on the 13th. Outbound: AX101 economy
/// non-stop refundable 300; BO102 business overnight 100; CI103 economy
/// one stop overnight (arrives the 11th) non-refundable 180; AX104 economy
/// non-stop non-refundable 260. Return: AX201 economy refundable 280,
/// ME202 economy non-refundable 150. Oslo hotels: HT1 1.5 km 100 a night,
/// HT2 6 km 60, HT3 0.8 km 90 but full on the 10th.
fn world() -> (Vec<Flight>, Vec<Hotel>) {
    let flights = vec![
        fare(
            "AX101",
            "Lisbon",
            10,
            ("08:00", 10, "12:00"),
            0,
            ECONOMY,
            true,
            300,
        ),
        fare(
            "BO102",
            "Lisbon",
            10,
            ("22:00", 11, "02:00"),
            0,
            "business",
            true,
            100,
        ),
        fare(
            "CI103",
            "Lisbon",
            10,
            ("22:30", 11, "03:00"),
            1,
            ECONOMY,
            false,
            180,
        ),
        fare(
            "AX104",
            "Lisbon",
            10,
            ("09:00", 10, "13:00"),
            0,
            ECONOMY,
            false,
            260,
        ),
        fare(
            "AX105",
            "Lisbon",
            11,
            ("09:00", 11, "13:00"),
            0,
            ECONOMY,
            false,
            90,
        ),
        fare(
            "AX201",
            "Oslo",
            13,
            ("10:00", 13, "14:00"),
            0,
            ECONOMY,
            true,
            280,
        ),
        fare(
            "ME202",
            "Oslo",
            13,
            ("18:00", 13, "22:00"),
            0,
            ECONOMY,
            false,
            150,
        ),
    ];
    let hotel = |id: &str, tenths: i64, price: i64, full: &[i64]| Hotel {
        id: id.into(),
        name: format!("{id} Oslo"),
        city: "Oslo".into(),
        distance_tenths: tenths,
        price_per_night: price,
        full_nights: full.to_vec(),
    };
    let hotels = vec![
        hotel("HT1", 15, 100, &[]),
        hotel("HT2", 60, 60, &[]),
        hotel("HT3", 8, 90, &[10]),
    ];
    (flights, hotels)
}

fn request() -> Request {
    Request {
        traveller: "Ada Berg".into(),
        origin: "Lisbon".into(),
        destination: "Oslo".into(),
        venue: "Fjord Expo Hall".into(),
        out_date: 10,
        return_date: 13,
        budget: 2000,
        nonstop: false,
        airline: None,
        refundable: false,
        max_km: 3,
        wants_business: false,
    }
}

fn task_with(request: Request, cap: i64) -> TravelTask {
    let (flights, hotels) = world();
    let plan = decide(&flights, &hotels, &request, cap).expect("a unique cheapest trip");
    let mut task = TravelTask {
        flights,
        hotels,
        request,
        cap,
        opening: "Hi, this is Ada Berg.".into(),
        plan,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}

fn trip(out: &str, back: &str, hotel: &str, check_in: i64, total: i64) -> Trip {
    Trip {
        outbound: out.into(),
        back: back.into(),
        hotel: hotel.into(),
        check_in,
        check_out: 13,
        total,
    }
}

fn answer(a: &str) -> String {
    call_text("answer", json!({ "answer": a }))
}

fn call(name: &str, args: Value) -> String {
    call_text(name, args)
}

/// `trip` booked from a fresh episode and answered with `a`.
fn booked(trip: &Trip, a: &str) -> Vec<String> {
    let mut script = booking_calls(trip);
    script.push(answer(a));
    script
}

fn passes(task: &TravelTask, script: Vec<String>) -> bool {
    run_script::<Travel>(task, script).0.passed
}

/// The cheapest allowed trip: the overnight CI103 (arrives the 11th), so
/// the stay is the 11th to the 13th, where HT3 has rooms.
fn best() -> Trip {
    trip("CI103", "ME202", "HT3", 11, 180 + 150 + 2 * 90)
}

#[test]
fn the_cheapest_allowed_trip_is_booked_and_its_total_answered() {
    let task = task_with(request(), 3000);
    assert_eq!(task.plan, Plan::Book(best()));
    assert!(oracle_passes::<Travel>(&task));
    assert!(passes(&task, booked(&best(), "510")));
    assert!(passes(&task, booked(&best(), "$510")));
    assert!(!passes(&task, booked(&best(), "520")));
    assert!(!passes(&task, booked(&best(), "infeasible: 510")));
    assert!(!passes(&task, vec![answer("510")]));
    // A second hotel booking, or a second fare, is not the trip.
    let mut extra = booking_calls(&best());
    extra.push(call(
        "hotels_book",
        json!({"hotel_id": "HT1", "check_in": "2027-05-11", "check_out": "2027-05-13"}),
    ));
    extra.push(answer("510"));
    assert!(!passes(&task, extra));
}

#[test]
fn rule_1_economy_only_even_when_business_is_asked_for() {
    let task = task_with(
        Request {
            wants_business: true,
            ..request()
        },
        3000,
    );
    assert_eq!(task.plan, Plan::Book(best()));
    // The business fare makes the cheapest trip overall (430), and fails.
    let business = trip("BO102", "ME202", "HT3", 11, 100 + 150 + 180);
    assert!(!passes(&task, booked(&business, "430")));
    assert!(!passes(&task, booked(&business, "510")));
    assert!(passes(&task, booked(&best(), "510")));
}

#[test]
fn rule_2_the_lower_of_cap_and_budget_binds() {
    // The traveller's budget would allow 510; the company cap does not.
    let capped = task_with(request(), 500);
    assert_eq!(capped.plan, Plan::Infeasible { lowest: 510 });
    assert!(!passes(&capped, booked(&best(), "510")));
    assert!(!passes(&capped, booked(&best(), "infeasible: 510")));
    assert!(passes(&capped, vec![answer("infeasible: 510")]));
    let budget = task_with(
        Request {
            budget: 505,
            ..request()
        },
        3000,
    );
    assert_eq!(budget.plan, Plan::Infeasible { lowest: 510 });
    assert!(!passes(&budget, booked(&best(), "510")));
    // At the limit exactly, the trip is allowed.
    let exact = task_with(
        Request {
            budget: 510,
            ..request()
        },
        510,
    );
    assert!(passes(&exact, booked(&best(), "510")));
}

#[test]
fn rule_3_the_stay_runs_from_the_outbound_arrival_to_the_return_date() {
    let task = task_with(request(), 3000);
    // From the departure date: HT3 is full that night (the service refuses),
    // and HT1 from the 10th is not the trip.
    let early = Trip {
        check_in: 10,
        ..best()
    };
    assert!(!passes(&task, booked(&early, "510")));
    let other = trip("CI103", "ME202", "HT1", 10, 180 + 150 + 300);
    assert!(!passes(&task, booked(&other, "630")));
    // Checking out a day early or late fails.
    for check_out in [12, 14] {
        let wrong = Trip {
            check_out,
            ..best()
        };
        assert!(!passes(&task, booked(&wrong, "510")), "{check_out}");
    }
    // The hotel must be in the destination, on the outbound's arrival day.
    let next_day = trip("AX105", "ME202", "HT3", 11, 90 + 150 + 180);
    assert!(!passes(&task, booked(&next_day, "420")));
}

#[test]
fn rule_4_holds_expire_and_none_may_be_left_open() {
    let task = task_with(request(), 3000);
    let search = call(
        "flights_search",
        json!({"origin": "Lisbon", "destination": "Oslo", "date": "2027-05-10"}),
    );
    let mut script = booking_calls(&best());
    // Five calls between the hold and its booking: the hold has expired, so
    // the fare is not booked.
    let late: Vec<String> = std::iter::once(script[0].clone())
        .chain(std::iter::repeat_n(search.clone(), 5))
        .chain(script[1..].iter().cloned())
        .chain([answer("510")])
        .collect();
    assert!(!passes(&task, late));
    // Four in between is still in time.
    let in_time: Vec<String> = std::iter::once(script[0].clone())
        .chain(std::iter::repeat_n(search, 4))
        .chain(script[1..].iter().cloned())
        .chain([answer("510")])
        .collect();
    assert!(passes(&task, in_time));
    // An extra hold left open fails; released, it passes.
    script.push(call("flights_hold", json!({"flight_id": "AX101"})));
    let mut open = script.clone();
    open.push(answer("510"));
    assert!(!passes(&task, open));
    script.push(call("flights_cancel", json!({"id": "HD-3"})));
    script.push(answer("510"));
    assert!(passes(&task, script));
    // Booking a fare without its hold is impossible (no such hold).
    let unheld = vec![
        call("flights_book", json!({"hold_id": "HD-1"})),
        answer("510"),
    ];
    assert!(!passes(&task, unheld));
}

#[test]
fn rule_5_non_refundable_fares_are_never_cancelled() {
    let task = task_with(request(), 3000);
    let wrong = |flight: &str| {
        let mut script = vec![
            call("flights_hold", json!({"flight_id": flight})),
            call("flights_book", json!({"hold_id": "HD-1"})),
            call("flights_cancel", json!({"id": "BK-1"})),
        ];
        let rest = booking_calls(&best());
        script.extend([
            rest[0].clone(),
            call("flights_book", json!({"hold_id": "HD-2"})),
            rest[2].clone(),
            call("flights_book", json!({"hold_id": "HD-3"})),
            rest[4].clone(),
            answer("510"),
        ]);
        script
    };
    // AX104 is non-refundable: cancelling it charges the fare and fails.
    assert!(!passes(&task, wrong("AX104")));
    // AX101 is refundable: the mistake undone is free and passes.
    assert!(passes(&task, wrong("AX101")));
    // A hotel booking cancelled is free too.
    let mut hotel = vec![
        call(
            "hotels_book",
            json!({"hotel_id": "HT1", "check_in": "2027-05-11", "check_out": "2027-05-13"}),
        ),
        call("hotels_cancel", json!({"booking_id": "HB-1"})),
    ];
    hotel.extend(booked(&best(), "510"));
    assert!(passes(&task, hotel));
}

#[test]
fn rule_6_every_wish_binds() {
    // Non-stop: CI103 is out; AX104 arrives the 10th, when HT3 is full.
    let nonstop = task_with(
        Request {
            nonstop: true,
            ..request()
        },
        3000,
    );
    let want = trip("AX104", "ME202", "HT1", 10, 260 + 150 + 300);
    assert_eq!(nonstop.plan, Plan::Book(want.clone()));
    assert!(!passes(&nonstop, booked(&best(), "510")));
    assert!(passes(&nonstop, booked(&want, "710")));
    // Refundable fares: AX101 and AX201 only.
    let refundable = task_with(
        Request {
            refundable: true,
            ..request()
        },
        3000,
    );
    let want = trip("AX101", "AX201", "HT1", 10, 300 + 280 + 300);
    assert_eq!(refundable.plan, Plan::Book(want.clone()));
    assert!(!passes(&refundable, booked(&best(), "510")));
    assert!(passes(&refundable, booked(&want, "880")));
    // Loyalty airline Aerolux on both legs.
    let loyal = task_with(
        Request {
            airline: Some("Aerolux".into()),
            ..request()
        },
        3000,
    );
    let want = trip("AX104", "AX201", "HT1", 10, 260 + 280 + 300);
    assert_eq!(loyal.plan, Plan::Book(want.clone()));
    assert!(!passes(&loyal, booked(&best(), "510")));
    assert!(passes(&loyal, booked(&want, "840")));
    // Hotel distance: HT2 (6 km) is cheaper but too far at 3 km, allowed
    // at 8 km.
    let far = trip("CI103", "ME202", "HT2", 11, 180 + 150 + 120);
    assert!(!passes(&task_with(request(), 3000), booked(&far, "450")));
    let near = task_with(
        Request {
            max_km: 8,
            ..request()
        },
        3000,
    );
    assert_eq!(near.plan, Plan::Book(far.clone()));
    assert!(passes(&near, booked(&far, "450")));
}

#[test]
fn rule_7_infeasible_books_nothing_and_names_the_lowest_total() {
    let task = task_with(request(), 450);
    assert_eq!(task.plan, Plan::Infeasible { lowest: 510 });
    assert!(oracle_passes::<Travel>(&task));
    for wrong in [
        "infeasible",
        "infeasible: 450",
        "infeasible: 510 or 630",
        "510",
    ] {
        assert!(!passes(&task, vec![answer(wrong)]), "{wrong}");
    }
    // A cheaper trip that breaks a rule does not fit either.
    let business = trip("BO102", "ME202", "HT3", 11, 430);
    assert!(!passes(&task, booked(&business, "430")));
    // A refundable booking made and cancelled leaves nothing standing.
    let undone = vec![
        call("flights_hold", json!({"flight_id": "AX101"})),
        call("flights_book", json!({"hold_id": "HD-1"})),
        call("flights_cancel", json!({"id": "BK-1"})),
        answer("infeasible: 510"),
    ];
    assert!(passes(&task, undone));
}

#[test]
fn outcomes_come_in_fixed_shares_and_stays_start_on_arrival() {
    let mut rng = Rng::from_seed(4);
    let (mut infeasible, mut overnight, mut business) = (0, 0, 0);
    for _ in 0..150 {
        let task = Travel::generate(&TravelConfig::default(), &mut rng);
        assert!(oracle_passes::<Travel>(&task));
        match &task.plan {
            Plan::Infeasible { .. } => infeasible += 1,
            Plan::Book(t) => {
                overnight += usize::from(t.check_in != task.request.out_date);
                let out = task.flight(&t.outbound).unwrap();
                assert_eq!(out.arrive_date, t.check_in);
                assert_eq!(out.fare_class, ECONOMY);
            }
        }
        business += usize::from(task.request.wants_business);
    }
    assert!((20..60).contains(&infeasible), "{infeasible}");
    assert!(overnight >= 5, "{overnight}");
    assert!(business >= 10, "{business}");
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance_at_levels::<Travel>([0, 4], true);
}

testkit::format_tests!(Travel, TravelConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<Travel>(TravelConfig::default());
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<Travel>(TravelConfig {
        infeasible_share: 0.5,
        ..TravelConfig::default()
    });
}

#[test]
fn validate_names_the_field() {
    testkit::assert_validate_names_field::<Travel>(&[
        (r#"{"flights_per_leg":1}"#, "flights_per_leg"),
        (r#"{"hotels":13}"#, "hotels"),
        (r#"{"infeasible_share":0.9}"#, "infeasible_share"),
    ]);
}

#[test]
fn tools_answer_exactly() {
    let task = task_with(request(), 3000);
    let mut env = Travel::reset(&task, Rng::from_seed(0));
    for (text, want) in [
        (
            call(
                "hotels_search",
                json!({"city": "oslo", "check_in": "2027-05-10", "check_out": "2027-05-13"}),
            ),
            r#"[{"distance_km":1.5,"hotel_id":"HT1","name":"HT1 Oslo","nights":3,"price_per_night":100,"total":300},{"distance_km":6.0,"hotel_id":"HT2","name":"HT2 Oslo","nights":3,"price_per_night":60,"total":180}]"#,
        ),
        (
            call(
                "hotels_search",
                json!({"city": "Oslo", "check_in": "May 10", "check_out": "2027-05-13"}),
            ),
            "error: check_in must be a date like 2027-05-14",
        ),
        (
            call(
                "flights_search",
                json!({"origin": "Oslo", "destination": "Lisbon", "date": "2027-05-12"}),
            ),
            "no flights found",
        ),
        (
            call("flights_hold", json!({"flight_id": "ci103"})),
            r#"{"expires":"after 5 more calls","flight_id":"CI103","hold_id":"HD-1","price":180}"#,
        ),
        (
            call("flights_book", json!({"hold_id": "HD-1"})),
            r#"{"booking_id":"BK-1","flight_id":"CI103","price":180,"refundable":false}"#,
        ),
        (
            call("flights_book", json!({"hold_id": "HD-1"})),
            "error: that hold is already booked",
        ),
        (
            call("flights_cancel", json!({"id": "BK-1"})),
            "booking BK-1 cancelled; non-refundable: 180 charged",
        ),
        (
            call(
                "hotels_book",
                json!({"hotel_id": "HT3", "check_in": "2027-05-10", "check_out": "2027-05-13"}),
            ),
            "error: no room on 2027-05-10",
        ),
        (answer("510"), "answer recorded"),
    ] {
        let calls = env.parse_action(0, &text).unwrap();
        env.apply(0, calls).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
    assert_eq!(env.turn(), Turn::Over);
    let score = env.score(0);
    assert!(!score.passed);
    assert_eq!(score.breakdown["answer_correct"], 1.0);
}
