//! The config, the two services' records, the request and the policy of
//! `tools/travel`: which trips the policy and the traveller allow, the
//! cheapest of them (or the lowest total over budget), and the reference
//! calls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;
use crate::toolkit::final_answer::infeasible_answer;

/// Calls after its placement during which a hold can still be booked.
pub(crate) const HOLD_CALLS: usize = 5;

/// The only fare class the policy allows.
pub(crate) const ECONOMY: &str = "economy";

/// The policy, with the company cap filled in.
pub(crate) fn policy(cap: i64) -> String {
    format!(
        "Travel desk policy:\n\
1. Fares: book economy fares only; premium and business fares are not allowed, even when the traveller asks for them.\n\
2. Budget: the trip's total (both fares plus the hotel's price per night times the nights) may not exceed the company cap of {cap} or the traveller's own budget, whichever is lower.\n\
3. Hotel: one hotel in the destination city for the whole stay: check in on the date the outbound flight ARRIVES (an overnight flight arrives the next day) and check out on the date the return flight departs.\n\
4. Holds: flights are booked from holds (flights_hold, then flights_book with the hold id). A hold expires {HOLD_CALLS} calls after it is placed; hold again if it has. Release every hold you do not book, expired ones too (flights_cancel with the hold id) before you answer.\n\
5. Cancellations: never cancel a non-refundable flight booking (it is charged in full). Refundable fares and hotel bookings may be cancelled free of charge.\n\
6. Of the trips that follow these rules and every wish of the traveller (route and dates, non-stop, airline, refundable fares, hotel distance from the venue), book the one with the lowest total: exactly one outbound flight, one return flight and one hotel booking; then answer with the total as a number.\n\
7. If no such trip fits the budget, book nothing and answer `infeasible: TOTAL`, where TOTAL is the lowest total of a trip that meets every rule and wish except the budget."
    )
}

/// One fare on one flight (the flights service sells each flight in one
/// class).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flight {
    pub id: String,
    pub airline: String,
    pub origin: String,
    pub destination: String,
    /// Day of the month (May 2027) it departs.
    pub date: i64,
    pub depart: String,
    /// Day of the month it arrives (`date + 1` for an overnight flight).
    pub arrive_date: i64,
    pub arrive: String,
    pub stops: u8,
    pub fare_class: String,
    pub refundable: bool,
    pub price: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hotel {
    pub id: String,
    pub name: String,
    pub city: String,
    /// Distance to the city's venue in tenths of a km (shown as km).
    pub distance_tenths: i64,
    pub price_per_night: i64,
    /// Nights (days of the month) with no room left.
    pub full_nights: Vec<i64>,
}

impl Hotel {
    /// Whether a room is free every night from `check_in` up to `check_out`.
    pub(crate) fn free(&self, check_in: i64, check_out: i64) -> bool {
        (check_in..check_out).all(|n| !self.full_nights.contains(&n))
    }
}

/// What the traveller asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub traveller: String,
    pub origin: String,
    pub destination: String,
    pub venue: String,
    pub out_date: i64,
    pub return_date: i64,
    pub budget: i64,
    pub nonstop: bool,
    /// Their loyalty programme's airline, when they fly only with it.
    pub airline: Option<String>,
    pub refundable: bool,
    /// Hotel within this many km of the venue.
    pub max_km: i64,
    /// They ask for business class (which the policy forbids).
    pub wants_business: bool,
}

/// A whole trip: outbound flight, return flight, hotel and its dates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trip {
    pub outbound: String,
    #[serde(rename = "return")]
    pub back: String,
    pub hotel: String,
    pub check_in: i64,
    pub check_out: i64,
    pub total: i64,
}

/// The policy's outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    Book(Trip),
    /// No allowed trip fits the budget; the lowest total over it.
    Infeasible {
        lowest: i64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TravelConfig {
    pub flights_per_leg: usize,
    pub hotels: usize,
    pub infeasible_share: f64,
}

impl Default for TravelConfig {
    fn default() -> Self {
        TravelConfig {
            flights_per_leg: 5,
            hotels: 5,
            infeasible_share: 0.25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TravelTask {
    pub flights: Vec<Flight>,
    pub hotels: Vec<Hotel>,
    pub request: Request,
    /// The company cap in the policy.
    pub cap: i64,
    /// The traveller's message.
    pub opening: String,
    pub plan: Plan,
    /// The reference calls, the answer last.
    pub gold: Vec<String>,
}

impl TravelTask {
    pub(crate) fn flight(&self, id: &str) -> Option<&Flight> {
        self.flights.iter().find(|f| f.id.eq_ignore_ascii_case(id))
    }

    pub(crate) fn hotel(&self, id: &str) -> Option<&Hotel> {
        self.hotels.iter().find(|h| h.id.eq_ignore_ascii_case(id))
    }

    /// The answer the policy asks for.
    pub(crate) fn answer(&self) -> String {
        match &self.plan {
            Plan::Book(trip) => trip.total.to_string(),
            Plan::Infeasible { lowest } => infeasible_answer(&lowest.to_string()),
        }
    }
}

/// `2027-05-DD`, the services' date format.
pub(crate) fn show_date(day: i64) -> String {
    format!("2027-05-{day:02}")
}

/// A day of May 2027 from `2027-05-DD` (surrounding space ignored).
pub(crate) fn parse_date(text: &str) -> Option<i64> {
    let day = text.trim().strip_prefix("2027-05-")?.parse::<i64>().ok()?;
    (1..=31).contains(&day).then_some(day)
}

/// Whether a flight meets the fare rule and the traveller's flight wishes
/// on the leg from `from` to `to` on `date`.
fn flight_ok(f: &Flight, r: &Request, from: &str, to: &str, date: i64) -> bool {
    f.origin == from
        && f.destination == to
        && f.date == date
        && f.fare_class == ECONOMY
        && (!r.nonstop || f.stops == 0)
        && r.airline.as_ref().is_none_or(|a| &f.airline == a)
        && (!r.refundable || f.refundable)
}

/// Every trip that meets every rule and wish but the budget, by total.
/// With `any` the wishes and the fare rule are dropped (a careless desk's
/// trips: dates and city only).
pub(crate) fn trips(flights: &[Flight], hotels: &[Hotel], r: &Request, any: bool) -> Vec<Trip> {
    let leg = |from: &str, to: &str, date: i64| -> Vec<&Flight> {
        flights
            .iter()
            .filter(|f| {
                if any {
                    f.origin == from && f.destination == to && f.date == date
                } else {
                    flight_ok(f, r, from, to, date)
                }
            })
            .collect()
    };
    let outs = leg(&r.origin, &r.destination, r.out_date);
    let backs = leg(&r.destination, &r.origin, r.return_date);
    let mut out = Vec::new();
    for o in &outs {
        let (check_in, check_out) = (o.arrive_date, r.return_date);
        let stays = hotels.iter().filter(|h| {
            h.city == r.destination
                && h.free(check_in, check_out)
                && (any || h.distance_tenths <= 10 * r.max_km)
        });
        for h in stays {
            for b in &backs {
                out.push(Trip {
                    outbound: o.id.clone(),
                    back: b.id.clone(),
                    hotel: h.id.clone(),
                    check_in,
                    check_out,
                    total: o.price + b.price + (check_out - check_in) * h.price_per_night,
                });
            }
        }
    }
    out.sort_by_key(|t| t.total);
    out
}

/// The cheapest trip when it is the only one at its total.
pub(crate) fn cheapest(trips: &[Trip]) -> Option<&Trip> {
    match trips {
        [first, second, ..] if second.total == first.total => None,
        [first, ..] => Some(first),
        [] => None,
    }
}

/// The policy's outcome: the cheapest allowed trip within the lower of the
/// cap and the budget, or the lowest total over it; `None` when no trip
/// meets the rules and wishes or the cheapest is tied.
pub(crate) fn decide(flights: &[Flight], hotels: &[Hotel], r: &Request, cap: i64) -> Option<Plan> {
    let all = trips(flights, hotels, r, false);
    let best = cheapest(&all)?;
    Some(if best.total <= cap.min(r.budget) {
        Plan::Book(best.clone())
    } else {
        Plan::Infeasible { lowest: best.total }
    })
}

/// The calls that book `trip` from a fresh episode (holds `HD-1`, `HD-2`).
pub(crate) fn booking_calls(trip: &Trip) -> Vec<String> {
    vec![
        call_text("flights_hold", json!({"flight_id": trip.outbound})),
        call_text("flights_book", json!({"hold_id": "HD-1"})),
        call_text("flights_hold", json!({"flight_id": trip.back})),
        call_text("flights_book", json!({"hold_id": "HD-2"})),
        call_text(
            "hotels_book",
            json!({"hotel_id": trip.hotel, "check_in": show_date(trip.check_in),
                "check_out": show_date(trip.check_out)}),
        ),
    ]
}

/// The reference calls: search both legs and the hotels for the stay the
/// cheapest outbound gives, book (or not), answer.
pub(crate) fn gold_calls(task: &TravelTask) -> Vec<String> {
    let r = &task.request;
    let check_in = match &task.plan {
        Plan::Book(t) => t.check_in,
        Plan::Infeasible { .. } => cheapest(&trips(&task.flights, &task.hotels, r, false))
            .map_or(r.out_date, |t| t.check_in),
    };
    let mut gold = vec![
        call_text(
            "flights_search",
            json!({"origin": r.origin, "destination": r.destination, "date": show_date(r.out_date)}),
        ),
        call_text(
            "flights_search",
            json!({"origin": r.destination, "destination": r.origin, "date": show_date(r.return_date)}),
        ),
        call_text(
            "hotels_search",
            json!({"city": r.destination, "check_in": show_date(check_in),
                "check_out": show_date(r.return_date)}),
        ),
    ];
    if let Plan::Book(trip) = &task.plan {
        gold.extend(booking_calls(trip));
    }
    gold.push(call_text("answer", json!({"answer": task.answer()})));
    gold
}
