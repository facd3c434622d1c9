//! Candidate tasks of `tools/travel` (the env screens them): fares on both
//! legs (and on the days around them), hotels in both cities, a request
//! with drawn wishes, one trip forced to meet them, and the budget and
//! cap set on either side of the cheapest allowed trip's total.

use super::task::{
    ECONOMY, Flight, Hotel, Plan, Request, TravelConfig, TravelTask, decide, gold_calls, show_date,
};
use crate::rng::Rng;

/// Cities and the venue in each.
const CITIES: [(&str, &str); 8] = [
    ("Lisbon", "Tagus Congress Centre"),
    ("Oslo", "Fjord Expo Hall"),
    ("Vienna", "Ringstrasse Forum"),
    ("Porto", "Douro Arena"),
    ("Krakow", "Vistula Conference Hall"),
    ("Valencia", "Turia Convention Centre"),
    ("Tallinn", "Baltic Tech Hub"),
    ("Lyon", "Rhone Exhibition Park"),
];
/// Airlines and their flight-number prefixes.
const AIRLINES: [(&str, &str); 4] = [
    ("Aerolux", "AX"),
    ("Borealis", "BO"),
    ("Cirrus", "CI"),
    ("Meridian", "ME"),
];
const HOTEL_NAMES: &[&str] = &[
    "Grand",
    "Harbour",
    "Central",
    "Garden",
    "Plaza",
    "Riverside",
    "Station",
    "Park",
    "Old Town",
    "Skyline",
    "Cathedral",
    "Lantern",
];
const TRAVELLERS: &[&str] = &[
    "Amara Okafor",
    "Bruno Castillo",
    "Chiara Dubois",
    "Dmitri Haas",
    "Elif Kaur",
    "Farah Jensen",
    "Hiro Larsen",
    "Ines Berg",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn clock(minutes: i64) -> String {
    format!("{:02}:{:02}", minutes / 60 % 24, minutes % 60)
}

/// Ids without repeats: flight numbers and hotel numbers.
struct Ids(Vec<i64>);

impl Ids {
    fn next(&mut self) -> i64 {
        self.0.pop().expect("enough ids")
    }
}

fn fare(
    rng: &mut Rng,
    ids: &mut Ids,
    from: &str,
    to: &str,
    date: i64,
    overnight_bias: bool,
) -> Flight {
    let (airline, code) = AIRLINES[rng.below(4) as usize];
    let stops = u8::from(rng.chance(0.5));
    let fare_class = match rng.below(20) {
        0..=12 => ECONOMY,
        13..=16 => "premium",
        _ => "business",
    };
    let refundable = rng.chance(0.4);
    let base = 5 * rng.range_i64(18, 90);
    let mult = match fare_class {
        ECONOMY => 10,
        "premium" => 17,
        _ => 28,
    };
    let price = 5 * ((base * mult / 10 + if refundable { 40 } else { 0 }) / 5);
    let late = overnight_bias && rng.chance(0.35);
    let depart = if late {
        5 * rng.range_i64(20 * 12, 23 * 12 + 6)
    } else {
        5 * rng.range_i64(6 * 12, 20 * 12)
    };
    let length = 5 * rng.range_i64(18, 72) + i64::from(stops) * 5 * rng.range_i64(12, 30);
    let arrive = depart + length;
    Flight {
        id: format!("{code}{}", ids.next()),
        airline: airline.into(),
        origin: from.into(),
        destination: to.into(),
        date,
        depart: clock(depart),
        arrive_date: date + arrive / (24 * 60),
        arrive: clock(arrive),
        stops,
        fare_class: fare_class.into(),
        refundable,
        price,
    }
}

/// Makes `f` meet the fare rule and the flight wishes of `r`.
fn comply(f: &mut Flight, r: &Request) {
    f.fare_class = ECONOMY.into();
    if r.nonstop {
        f.stops = 0;
    }
    if let Some(a) = &r.airline {
        let code = AIRLINES.iter().find(|(n, _)| n == a).map_or("AX", |x| x.1);
        f.airline = a.clone();
        f.id = format!("{code}{}", &f.id[2..]);
    }
    if r.refundable && !f.refundable {
        f.refundable = true;
        f.price += 40;
    }
}

/// Rounds up (`up`) or down to a multiple of 50.
fn round50(x: i64, up: bool) -> i64 {
    if up { (x + 49) / 50 * 50 } else { x / 50 * 50 }
}

pub(super) fn draw(config: &TravelConfig, rng: &mut Rng) -> Option<TravelTask> {
    let n = config.flights_per_leg;
    let (a, b) = (rng.below(8) as usize, rng.below(7) as usize);
    let (origin, _) = CITIES[a];
    let (destination, venue) = CITIES[(a + 1 + b) % 8];
    let out_date = rng.range_i64(3, 18);
    let return_date = out_date + rng.range_i64(2, 5);
    let mut ids = Ids(crate::tools::distinct(
        rng,
        100,
        999,
        4 * n + 2 * config.hotels + 8,
    ));
    let mut flights = Vec::new();
    for (from, to, date, overnight) in [
        (origin, destination, out_date, true),
        (destination, origin, return_date, false),
    ] {
        for _ in 0..n {
            flights.push(fare(rng, &mut ids, from, to, date, overnight));
        }
        // Decoys on the day before or after, for a search on the wrong date.
        for _ in 0..n.div_ceil(3) {
            let day = date + [-1, 1][rng.below(2) as usize];
            flights.push(fare(rng, &mut ids, from, to, day, overnight));
        }
    }
    let airline = rng
        .chance(0.35)
        .then(|| AIRLINES[rng.below(4) as usize].0.to_string());
    let request = Request {
        traveller: pick(rng, TRAVELLERS).into(),
        origin: origin.into(),
        destination: destination.into(),
        venue: venue.into(),
        out_date,
        return_date,
        budget: 0,
        nonstop: rng.chance(0.5),
        airline,
        refundable: rng.chance(0.35),
        max_km: [2, 3, 5, 8][rng.below(4) as usize],
        wants_business: rng.chance(0.2),
    };
    // One fare on each leg meets every wish, so some trip exists.
    let out_i = rng.below(n as u64) as usize;
    let back_i = flights
        .iter()
        .position(|f| f.date == return_date && f.origin == destination)
        .unwrap_or(0)
        + rng.below(n as u64) as usize;
    comply(&mut flights[out_i], &request);
    comply(&mut flights[back_i], &request);
    let mut hotels = Vec::new();
    let mut names = HOTEL_NAMES.to_vec();
    rng.shuffle(&mut names);
    for (i, city) in (0..config.hotels + config.hotels / 2).map(|i| {
        (
            i,
            if i < config.hotels {
                destination
            } else {
                origin
            },
        )
    }) {
        let full_nights = (out_date - 1..=return_date)
            .filter(|_| rng.chance(0.12))
            .collect();
        hotels.push(Hotel {
            id: format!("HT{}", ids.next()),
            name: format!("{} {city}", names[i % names.len()]),
            city: city.into(),
            distance_tenths: rng.range_i64(2, 120),
            price_per_night: 5 * rng.range_i64(12, 64),
            full_nights,
        });
    }
    let arrival = flights[out_i].arrive_date;
    let good = rng.below(config.hotels as u64) as usize;
    hotels[good]
        .full_nights
        .retain(|d| !(arrival..return_date).contains(d));
    hotels[good].distance_tenths = rng.range_i64(2, 10 * request.max_km);

    let mut request = request;
    request.budget = 100_000;
    let Some(Plan::Book(best)) = decide(&flights, &hotels, &request, 100_000) else {
        return None;
    };
    let infeasible = rng.chance(config.infeasible_share);
    let limit = if infeasible {
        round50(best.total - rng.range_i64(1, 400), false)
    } else {
        round50(best.total + rng.range_i64(0, 400), true)
    };
    if limit < 200 {
        return None;
    }
    let slack = 50 * rng.range_i64(2, 20);
    let (budget, cap) = if rng.chance(0.5) {
        (limit, limit + slack)
    } else {
        (limit + slack, limit)
    };
    request.budget = budget;
    let plan = decide(&flights, &hotels, &request, cap)?;
    let opening = opening(&request);
    let mut task = TravelTask {
        flights,
        hotels,
        request,
        cap,
        opening,
        plan,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    Some(task)
}

fn opening(r: &Request) -> String {
    let mut wishes = Vec::new();
    if r.nonstop {
        wishes.push("Non-stop flights only, please.".to_string());
    }
    if let Some(a) = &r.airline {
        wishes.push(format!(
            "I collect miles in {a}'s loyalty programme, so both flights must be {a}."
        ));
    }
    if r.refundable {
        wishes.push("Both fares must be refundable.".to_string());
    }
    if r.wants_business {
        wishes.push("Business class would be lovely if there is one.".to_string());
    }
    format!(
        "Hi, this is {}. I'm going from {} to {} for an event at the {}: I fly out on {} and fly back on {}. \
I need a hotel within {} km of the {} for the whole stay. {} My budget for the whole trip is {}. Please book the cheapest trip that works.",
        r.traveller,
        r.origin,
        r.destination,
        r.venue,
        show_date(r.out_date),
        show_date(r.return_date),
        r.max_km,
        r.venue,
        wishes.join(" "),
        r.budget
    )
    .replace("  ", " ")
}
