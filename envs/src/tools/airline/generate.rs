//! Candidate tasks of `tools/airline` (the env screens them): a random
//! airline (a flight on every route every day from May 14 to 18; flights
//! before the present have landed), then the request kind and the policy's
//! outcome drawn with fixed shares, and a reservation built for the request
//! (its flights, cabin, insurance, booking time, the flights' statuses and
//! seats, the user's membership) to force that outcome.

use super::task::{
    Airline, AirlineConfig, AirlineTask, CANCEL_REASONS, Cabin, Flight, FlightStatus, Membership,
    NOW_HOURS, Request, Reservation, User, decide, gold_calls, hours, stamp,
};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Amara", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hiro", "Ines", "Jonas",
    "Kemi", "Luca", "Mira", "Nils", "Omar", "Priya",
];
const LAST: &[&str] = &[
    "Achebe", "Berg", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gupta", "Haas", "Ito",
    "Jensen", "Kaur", "Larsen", "Moreau", "Novak",
];
const AIRPORTS: [&str; 6] = ["BOS", "DEN", "JFK", "LAX", "ORD", "SEA"];
/// Flight days in May.
const DAYS: std::ops::RangeInclusive<i64> = 14..=18;

/// What the generator aims the request at (the policy decides in the end).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Target {
    Allow,
    Refuse(&'static str),
    Transfer,
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn flights(config: &AirlineConfig, rng: &mut Rng) -> Vec<Flight> {
    let ports = &AIRPORTS[..config.airports];
    let routes = ports.len() * (ports.len() - 1);
    let numbers = crate::tools::distinct(rng, 100, 999, routes * DAYS.count());
    let mut numbers = numbers.into_iter();
    let mut out = Vec::new();
    for origin in ports {
        for destination in ports.iter().filter(|d| *d != origin) {
            let base = [rng.range_i64(60, 160), 0, 0];
            let base = [
                base[0],
                base[0] + rng.range_i64(40, 120),
                base[0] * 3 + rng.range_i64(0, 200),
            ];
            for day in DAYS {
                let hour = rng.range_i64(6, 21);
                let at = (day - 1) * 24 + hour;
                let status = if at < NOW_HOURS {
                    FlightStatus::Landed
                } else {
                    match rng.below(8) {
                        0 => FlightStatus::Delayed,
                        1 => FlightStatus::Cancelled,
                        _ => FlightStatus::Scheduled,
                    }
                };
                let jitter = rng.range_i64(-15, 30);
                out.push(Flight {
                    number: format!("VG{}", numbers.next().expect("enough numbers")),
                    origin: (*origin).into(),
                    destination: (*destination).into(),
                    date: format!("2026-05-{day:02}"),
                    departure: format!("{hour:02}:00"),
                    status,
                    prices: base.map(|p| p + jitter),
                    seats: [0; 3].map(|_| rng.range_i64(0, 9)),
                });
            }
        }
    }
    out
}

/// Departure in hours since May 1.
fn departs(f: &Flight) -> i64 {
    hours(&format!("{} {}", f.date, f.departure)).unwrap_or(0)
}

/// A flight index matching `route` (origin, destination) that departs in
/// `window` (hours), drawn at random.
fn flight_in(
    flights: &[Flight],
    route: Option<(&str, &str)>,
    window: std::ops::Range<i64>,
    exclude: &[String],
    rng: &mut Rng,
) -> Option<usize> {
    let fits: Vec<usize> = (0..flights.len())
        .filter(|&i| {
            let f = &flights[i];
            window.contains(&departs(f))
                && !exclude.contains(&f.number)
                && route.is_none_or(|(o, d)| f.origin == o && f.destination == d)
        })
        .collect();
    rng.choose(&fits).copied()
}

/// A reservation for `user`: a one-way or round trip, all in the future
/// (`flown` false) or with the outbound flight landed and the return ahead.
fn reservation(
    airline: &Airline,
    id: String,
    user: &User,
    flown: bool,
    rng: &mut Rng,
) -> Option<Reservation> {
    let fl = &airline.flights;
    let end = DAYS.end() * 24 + 24;
    let out = if flown {
        flight_in(fl, None, 0..NOW_HOURS, &[], rng)?
    } else {
        flight_in(fl, None, NOW_HOURS..end - 48, &[], rng)?
    };
    let o = &fl[out];
    let back = if flown || rng.chance(0.5) {
        let from = departs(o).max(NOW_HOURS) + 12;
        Some(flight_in(
            fl,
            Some((o.destination.as_str(), o.origin.as_str())),
            from..end,
            &[],
            rng,
        )?)
    } else {
        None
    };
    let cabin = Cabin::ALL[rng.below(3) as usize];
    let n = rng.range_usize(1, 3);
    let passengers: Vec<String> = (0..n)
        .map(|k| match k {
            0 => user.name.clone(),
            _ => format!("{} {}", pick(rng, FIRST), pick(rng, LAST)),
        })
        .collect();
    let flights: Vec<usize> = [Some(out), back].into_iter().flatten().collect();
    let paid = flights
        .iter()
        .map(|&i| fl[i].prices[cabin.index()])
        .sum::<i64>()
        * n as i64;
    let booked = (departs(o) - rng.range_i64(30, 600)).min(NOW_HOURS - rng.range_i64(1, 240));
    Some(Reservation {
        id,
        user: user.id.clone(),
        flights: flights.iter().map(|&i| fl[i].number.clone()).collect(),
        cabin,
        passengers,
        bags: rng.range_i64(0, 2 * n as i64),
        insurance: rng.chance(0.3),
        booked_at: stamp(booked.max(0)),
        payment: user.payments[rng.below(user.payments.len() as u64) as usize]
            .0
            .clone(),
        paid,
        cancelled: false,
    })
}

fn airline(config: &AirlineConfig, rng: &mut Rng) -> Airline {
    let needed = config.users * (3 + config.reservations_per_user) + 4;
    let mut ids = crate::tools::distinct(rng, 10000, 99999, needed)
        .into_iter()
        .map(|n| n.to_string());
    let mut next = || ids.next().expect("enough ids");
    let mut airline = Airline {
        users: Vec::new(),
        flights: flights(config, rng),
        reservations: Vec::new(),
        ledger: Vec::new(),
        certificates: Vec::new(),
    };
    for u in 0..config.users {
        let name = format!("{} {}", pick(rng, FIRST), pick(rng, LAST));
        let mut payments = vec![(
            format!("PM-{}", next()),
            format!("credit card ending {}", rng.range_i64(1000, 9999)),
        )];
        if rng.chance(0.4) {
            payments.push((format!("PM-{}", next()), "gift card".into()));
        }
        let user = User {
            id: format!("U-{}", next()),
            email: format!("{}{u}@example.com", name.to_lowercase().replace(' ', ".")),
            name,
            membership: [Membership::Regular, Membership::Silver, Membership::Gold]
                [rng.below(3) as usize],
            payments,
        };
        for _ in 0..config.reservations_per_user {
            let flown = rng.chance(0.3);
            if let Some(r) = reservation(&airline, format!("R-{}", next()), &user, flown, rng) {
                airline.reservations.push(r);
            }
        }
        airline.users.push(user);
    }
    airline
}

fn set_status(airline: &mut Airline, flight: &str, status: FlightStatus) {
    if let Some(f) = airline.flights.iter_mut().find(|f| f.number == flight) {
        f.status = status;
    }
}

/// How the user words each cancellation reason.
fn why(reason: &str) -> &'static str {
    match reason {
        "health" => "I am ill and cannot travel",
        "weather" => "a storm is forecast at my destination",
        "airline_cancelled_flight" => "the airline cancelled my flight",
        _ => "my plans changed",
    }
}

pub(super) fn draw(config: &AirlineConfig, rng: &mut Rng) -> Option<AirlineTask> {
    let mut airline = airline(config, rng);
    let caller = rng.below(airline.users.len() as u64) as usize;
    let caller_id = airline.users[caller].id.clone();
    let refuse = rng.chance(config.refuse_share);
    let choose = |rng: &mut Rng, reasons: &[&'static str]| match refuse {
        true => Target::Refuse(reasons[rng.below(reasons.len() as u64) as usize]),
        false => Target::Allow,
    };
    let k = rng.unit_f64();
    let (kind, mut target) = match k {
        k if k < 0.3 => ("cancel", choose(rng, &["not_owner", "cancel_not_allowed"])),
        k if k < 0.6 => (
            "change",
            choose(
                rng,
                &[
                    "not_owner",
                    "basic_economy_no_changes",
                    "cabin_change_not_allowed",
                    "no_seats",
                ],
            ),
        ),
        k if k < 0.8 => ("bags", choose(rng, &["not_owner", "bags_not_removable"])),
        _ => (
            "compensation",
            choose(rng, &["not_owner", "no_compensation"]),
        ),
    };
    if matches!(kind, "cancel" | "change") && !refuse && rng.chance(0.12) {
        target = Target::Transfer;
    }
    // The named reservation: built for the request, for the caller or for
    // another user.
    let owner = if target == Target::Refuse("not_owner") {
        let others: Vec<usize> = (0..airline.users.len()).filter(|&u| u != caller).collect();
        others[rng.below(others.len() as u64) as usize]
    } else {
        caller
    };
    let user = airline.users[owner].clone();
    let id = loop {
        let id = format!("R-{}", rng.range_i64(10000, 99999));
        if airline.reservation(&id).is_none() {
            break id;
        }
    };
    let mut r = reservation(&airline, id.clone(), &user, target == Target::Transfer, rng)?;
    let n = r.passengers.len() as i64;
    let (request, wish) = match kind {
        "cancel" => {
            let mut reason = pick(rng, &CANCEL_REASONS);
            if target == Target::Refuse("cancel_not_allowed") {
                r.booked_at = stamp(NOW_HOURS - rng.range_i64(30, 240));
                if r.cabin == Cabin::Business {
                    r.cabin = Cabin::ALL[rng.below(2) as usize];
                }
                for f in &r.flights {
                    set_status(&mut airline, f, FlightStatus::Scheduled);
                }
                if r.insurance && matches!(reason, "health" | "weather") {
                    r.insurance = false;
                }
            } else if target == Target::Allow {
                match rng.below(4) {
                    0 => r.booked_at = stamp(NOW_HOURS - rng.range_i64(1, 23)),
                    1 => {
                        reason = "airline_cancelled_flight";
                        let f = r.flights[rng.below(r.flights.len() as u64) as usize].clone();
                        set_status(&mut airline, &f, FlightStatus::Cancelled);
                    }
                    2 => r.cabin = Cabin::Business,
                    _ => {
                        reason = pick(rng, &["health", "weather"]);
                        r.insurance = true;
                    }
                }
            }
            let wish = format!("Please cancel my reservation {id}; {}.", why(reason));
            let request = Request::Cancel {
                reservation: id.clone(),
                reason: reason.into(),
            };
            (request, wish)
        }
        "change" => {
            // The flight to replace: the return when the outbound has landed.
            let at = if target == Target::Transfer {
                1
            } else {
                rng.below(r.flights.len() as u64) as usize
            };
            let old = airline.flight(&r.flights[at])?.clone();
            let new = flight_in(
                &airline.flights,
                Some((old.origin.as_str(), old.destination.as_str())),
                NOW_HOURS + 1..DAYS.end() * 24 + 24,
                &r.flights,
                rng,
            )
            .map(|i| airline.flights[i].clone())?;
            set_status(
                &mut airline,
                &new.number,
                [FlightStatus::Scheduled, FlightStatus::Delayed][rng.below(2) as usize],
            );
            match target {
                Target::Refuse("basic_economy_no_changes") => r.cabin = Cabin::BasicEconomy,
                Target::Refuse(_) | Target::Allow if r.cabin == Cabin::BasicEconomy => {
                    r.cabin = Cabin::ALL[1 + rng.below(2) as usize];
                }
                _ => {}
            }
            let cabin = if target == Target::Refuse("cabin_change_not_allowed") {
                Cabin::ALL[(r.cabin.index() + 1 + rng.below(2) as usize) % 3]
            } else {
                r.cabin
            };
            let seats = if target == Target::Refuse("no_seats") {
                rng.range_i64(0, n - 1)
            } else {
                n + rng.range_i64(0, 5)
            };
            if let Some(f) = airline.flights.iter_mut().find(|f| f.number == new.number) {
                f.seats[cabin.index()] = seats;
            }
            let in_cabin = match cabin == r.cabin {
                true => String::new(),
                false => format!(" in {}", cabin.name().replace('_', " ")),
            };
            let wish = format!(
                "On reservation {id}, please move me from flight {} to flight {} on {}{in_cabin}.",
                old.number, new.number, new.date
            );
            let request = Request::Change {
                reservation: id.clone(),
                flight: old.number,
                new_flight: new.number,
                cabin,
            };
            (request, wish)
        }
        "bags" => {
            let total = if target == Target::Refuse("bags_not_removable") {
                r.bags = r.bags.max(1) + rng.range_i64(0, 1);
                rng.range_i64(0, r.bags - 1)
            } else {
                r.bags + rng.range_i64(1, 3)
            };
            let wish =
                format!("Please set the checked bags on reservation {id} to {total} in total.");
            (
                Request::Bags {
                    reservation: id.clone(),
                    total,
                },
                wish,
            )
        }
        _ => {
            let flight = r.flights[rng.below(r.flights.len() as u64) as usize].clone();
            let mut status =
                [FlightStatus::Cancelled, FlightStatus::Delayed][rng.below(2) as usize];
            let eligible = |r: &Reservation, m: Membership| {
                m != Membership::Regular || r.insurance || r.cabin == Cabin::Business
            };
            if target == Target::Refuse("no_compensation") {
                if rng.chance(0.5) {
                    status = FlightStatus::Scheduled;
                } else {
                    airline.users[owner].membership = Membership::Regular;
                    r.insurance = false;
                    if r.cabin == Cabin::Business {
                        r.cabin = Cabin::Economy;
                    }
                }
            } else if !eligible(&r, airline.users[owner].membership) {
                r.insurance = true;
            }
            set_status(&mut airline, &flight, status);
            let what = match status {
                FlightStatus::Cancelled => "was cancelled",
                _ => "is delayed",
            };
            let wish = format!(
                "My flight {flight} on reservation {id} {what}. I would like compensation."
            );
            (
                Request::Compensation {
                    reservation: id.clone(),
                    flight,
                },
                wish,
            )
        }
    };
    // The paid amount follows the final cabin.
    r.paid = r
        .flights
        .iter()
        .filter_map(|f| airline.flight(f))
        .map(|f| f.prices[r.cabin.index()])
        .sum::<i64>()
        * n;
    let at = rng.below(airline.reservations.len() as u64 + 1) as usize;
    airline.reservations.insert(at, r);
    let who = &airline.users[caller];
    let opening = format!("Hi, I'm {}, my email is {}. {wish}", who.name, who.email);
    let expected = decide(&airline, &caller_id, &request);
    let mut task = AirlineTask {
        airline,
        caller,
        request,
        opening,
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    Some(task)
}
