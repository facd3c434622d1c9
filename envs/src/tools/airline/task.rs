//! The config, database, requests and policy of `tools/airline`: the
//! airline's records and their four changes (shared by the tools and the
//! expected final state), the policy's decision, and the reference calls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

/// The refusal reasons, in the order the policy checks its rules.
pub(crate) const REASONS: [&str; 7] = [
    "not_owner",
    "cancel_not_allowed",
    "basic_economy_no_changes",
    "cabin_change_not_allowed",
    "no_seats",
    "bags_not_removable",
    "no_compensation",
];

/// The cancellation reasons a user may give.
pub(crate) const CANCEL_REASONS: [&str; 4] = [
    "change_of_plans",
    "health",
    "weather",
    "airline_cancelled_flight",
];

/// The present moment of every task (the policy states it,
/// 2026-05-15 09:00) in hours since 2026-05-01 00:00.
pub(crate) const NOW_HOURS: i64 = 14 * 24 + 9;

/// Free checked bags per passenger: by membership (regular, silver, gold)
/// and cabin (basic economy, economy, business).
pub(crate) const FREE_BAGS: [[i64; 3]; 3] = [[0, 1, 2], [1, 2, 3], [2, 3, 4]];
pub(crate) const BAG_FEE: i64 = 50;
/// Certificate per passenger for a cancelled and for a delayed flight.
pub(crate) const CERTIFICATE: [i64; 2] = [100, 50];

pub(crate) const POLICY: &str = "Airline policy (the current time is 2026-05-15 09:00):\n\
1. Authenticate first: look the user up with find_user by their email before any change. Act only on the user's own reservations: a request about another user's reservation is refused with `not_owner`.\n\
2. If a flight of the reservation has already landed (status `landed`), a cancellation or flight change cannot be handled here: transfer_to_human with the user's id.\n\
3. Cancellation is allowed only if the booking was made less than 24 hours ago, or the airline cancelled a flight of the reservation (its status is `cancelled`), or the cabin is business, or the reservation has travel insurance and the user cancels for health or weather. Otherwise refuse with `cancel_not_allowed`. The whole amount paid is refunded to the original payment method by cancel_reservation.\n\
4. Flight changes: a basic_economy reservation cannot be changed (`basic_economy_no_changes`); the new flight keeps the reservation's cabin (`cabin_change_not_allowed`); the new flight needs as many free seats in that cabin as the reservation has passengers (`no_seats`). The fare difference settles on the original payment method by itself.\n\
5. Checked bags can be added, never removed (`bags_not_removable`). Free bags per passenger: regular members 0 in basic_economy, 1 in economy, 2 in business; silver members 1, 2, 3; gold members 2, 3, 4. Each bag beyond the free ones costs 50: pass the number of newly added bags that must be paid for as paid_bags.\n\
6. Compensation for a flight of the reservation is a certificate, given only if the flight is `cancelled` (100 per passenger) or `delayed` (50 per passenger) and the user is a silver or gold member, or has travel insurance on the reservation, or flies business. Otherwise refuse with `no_compensation`.\n\
7. Check the rules in this order and refuse with the first one broken; a refused request changes nothing. Otherwise make exactly one change call, then call complete_request with the user's id. Refuse with refuse(reason, the user's id).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Membership {
    Regular,
    Silver,
    Gold,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cabin {
    BasicEconomy,
    Economy,
    Business,
}

impl Cabin {
    pub(crate) const ALL: [Cabin; 3] = [Cabin::BasicEconomy, Cabin::Economy, Cabin::Business];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn parse(text: &str) -> Option<Cabin> {
        serde_json::from_value(json!(
            text.trim().to_ascii_lowercase().replace([' ', '-'], "_")
        ))
        .ok()
    }

    pub(crate) fn name(self) -> &'static str {
        ["basic_economy", "economy", "business"][self.index()]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlightStatus {
    Scheduled,
    Delayed,
    Cancelled,
    Landed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flight {
    pub number: String,
    pub origin: String,
    pub destination: String,
    /// `2026-05-18`.
    pub date: String,
    /// `14:30`.
    pub departure: String,
    pub status: FlightStatus,
    /// Per cabin, in [`Cabin::ALL`] order.
    pub prices: [i64; 3],
    pub seats: [i64; 3],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub name: String,
    pub email: String,
    pub membership: Membership,
    /// (payment method id, label like `credit card ending 4821`).
    pub payments: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reservation {
    pub id: String,
    pub user: String,
    /// Flight numbers, outbound first.
    pub flights: Vec<String>,
    pub cabin: Cabin,
    pub passengers: Vec<String>,
    pub bags: i64,
    pub insurance: bool,
    /// `2026-05-14 15:00`.
    pub booked_at: String,
    pub payment: String,
    pub paid: i64,
    pub cancelled: bool,
}

/// One money movement: a refund (positive) or a charge (negative).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub reservation: String,
    pub method: String,
    pub amount: i64,
}

/// The airline's records: what the tools read and change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Airline {
    pub users: Vec<User>,
    pub flights: Vec<Flight>,
    pub reservations: Vec<Reservation>,
    pub ledger: Vec<Entry>,
    /// Certificates given: (user id, amount); the ids the tool makes up
    /// are not part of the state.
    pub certificates: Vec<(String, i64)>,
}

/// A `YYYY-MM-DD HH:MM` time of May 2026 in hours since 2026-05-01 00:00.
pub(crate) fn hours(stamp: &str) -> Option<i64> {
    let day: i64 = stamp.get(8..10)?.parse().ok()?;
    let hour: i64 = stamp.get(11..13)?.parse().ok()?;
    Some((day - 1) * 24 + hour)
}

/// The inverse of [`hours`].
pub(crate) fn stamp(hours: i64) -> String {
    format!("2026-05-{:02} {:02}:00", hours / 24 + 1, hours % 24)
}

impl Airline {
    pub(crate) fn reservation(&self, id: &str) -> Option<&Reservation> {
        self.reservations.iter().find(|r| r.id == id)
    }

    pub(crate) fn flight(&self, number: &str) -> Option<&Flight> {
        self.flights.iter().find(|f| f.number == number)
    }

    pub(crate) fn user(&self, id: &str) -> Option<&User> {
        self.users.iter().find(|u| u.id == id)
    }

    fn seats(&mut self, flight: &str, cabin: Cabin, delta: i64) {
        if let Some(f) = self.flights.iter_mut().find(|f| f.number == flight) {
            f.seats[cabin.index()] += delta;
        }
    }

    fn book(&mut self, reservation: &str, method: &str, amount: i64) {
        if amount != 0 {
            self.ledger.push(Entry {
                reservation: reservation.into(),
                method: method.into(),
                amount,
            });
        }
    }

    /// Applies `op` as the tools would (the ids exist; the tools check).
    pub(crate) fn apply(&mut self, op: &Op) {
        match op {
            Op::Cancel { reservation } => {
                let Some(r) = self.reservations.iter_mut().find(|r| &r.id == reservation) else {
                    return;
                };
                r.cancelled = true;
                let r = r.clone();
                for f in &r.flights {
                    self.seats(f, r.cabin, r.passengers.len() as i64);
                }
                self.book(reservation, &r.payment, r.paid);
            }
            Op::Change {
                reservation,
                flight,
                new_flight,
                cabin,
            } => {
                let Some(r) = self.reservation(reservation).cloned() else {
                    return;
                };
                let Some(at) = r.flights.iter().position(|f| f == flight) else {
                    return;
                };
                let n = r.passengers.len() as i64;
                let old_price = self.flight(flight).map_or(0, |f| f.prices[r.cabin.index()]);
                let new_price = self
                    .flight(new_flight)
                    .map_or(0, |f| f.prices[cabin.index()]);
                self.seats(flight, r.cabin, n);
                self.seats(new_flight, *cabin, -n);
                let difference = n * (old_price - new_price);
                if let Some(r) = self.reservations.iter_mut().find(|r| &r.id == reservation) {
                    r.flights[at] = new_flight.clone();
                    r.cabin = *cabin;
                    r.paid -= difference;
                }
                self.book(reservation, &r.payment, difference);
            }
            Op::Bags {
                reservation,
                total,
                paid,
            } => {
                let Some(r) = self.reservations.iter_mut().find(|r| &r.id == reservation) else {
                    return;
                };
                r.bags = *total;
                r.paid += BAG_FEE * paid;
                let method = r.payment.clone();
                self.book(reservation, &method, -BAG_FEE * paid);
            }
            Op::Certificate { user, amount } => self.certificates.push((user.clone(), *amount)),
        }
    }
}

/// What the user asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    Cancel {
        reservation: String,
        reason: String,
    },
    Change {
        reservation: String,
        flight: String,
        new_flight: String,
        cabin: Cabin,
    },
    Bags {
        reservation: String,
        total: i64,
    },
    Compensation {
        reservation: String,
        flight: String,
    },
}

impl Request {
    pub(crate) fn reservation(&self) -> &str {
        match self {
            Request::Cancel { reservation, .. }
            | Request::Change { reservation, .. }
            | Request::Bags { reservation, .. }
            | Request::Compensation { reservation, .. } => reservation,
        }
    }
}

/// A change the airline makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Cancel {
        reservation: String,
    },
    Change {
        reservation: String,
        flight: String,
        new_flight: String,
        cabin: Cabin,
    },
    Bags {
        reservation: String,
        total: i64,
        paid: i64,
    },
    Certificate {
        user: String,
        amount: i64,
    },
}

/// The policy's outcome: the change to make, a refusal, or a hand-over.
pub type Outcome = crate::tools::user_desk::Outcome<Op>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AirlineConfig {
    pub users: usize,
    pub reservations_per_user: usize,
    pub airports: usize,
    pub refuse_share: f64,
}

impl Default for AirlineConfig {
    fn default() -> Self {
        AirlineConfig {
            users: 6,
            reservations_per_user: 2,
            airports: 4,
            refuse_share: 0.25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AirlineTask {
    pub airline: Airline,
    /// The user writing in (index into `airline.users`).
    pub caller: usize,
    pub request: Request,
    /// The user's message.
    pub opening: String,
    /// The policy's outcome.
    pub expected: Outcome,
    /// The reference calls, the closing call last.
    pub gold: Vec<String>,
}

impl AirlineTask {
    pub(super) fn caller(&self) -> &User {
        &self.airline.users[self.caller]
    }
}

/// The bags of `total` a reservation pays for, given its free allowance.
pub(crate) fn paid_bags(free: i64, before: i64, total: i64) -> i64 {
    (total - free).max(0) - (before - free).max(0)
}

/// The policy's outcome for `caller`'s request on `airline`.
pub(crate) fn decide(airline: &Airline, caller: &str, request: &Request) -> Outcome {
    let refuse = |reason: &str| Outcome::Refuse(reason.into());
    let Some(r) = airline
        .reservation(request.reservation())
        .filter(|r| r.user == caller && !r.cancelled)
    else {
        return refuse("not_owner");
    };
    let Some(user) = airline.user(caller) else {
        return refuse("not_owner");
    };
    let status = |f: &String| airline.flight(f).map(|f| f.status);
    let landed = r
        .flights
        .iter()
        .any(|f| status(f) == Some(FlightStatus::Landed));
    let passengers = r.passengers.len() as i64;
    match request {
        Request::Cancel { reason, .. } => {
            if landed {
                return Outcome::Transfer;
            }
            let recent = hours(&r.booked_at).is_some_and(|h| NOW_HOURS - h < 24);
            let airline_cancelled = r
                .flights
                .iter()
                .any(|f| status(f) == Some(FlightStatus::Cancelled));
            let insured = r.insurance && (reason == "health" || reason == "weather");
            if recent || airline_cancelled || r.cabin == Cabin::Business || insured {
                Outcome::Do(Op::Cancel {
                    reservation: r.id.clone(),
                })
            } else {
                refuse("cancel_not_allowed")
            }
        }
        Request::Change {
            flight,
            new_flight,
            cabin,
            ..
        } => {
            if landed {
                Outcome::Transfer
            } else if r.cabin == Cabin::BasicEconomy {
                refuse("basic_economy_no_changes")
            } else if *cabin != r.cabin {
                refuse("cabin_change_not_allowed")
            } else if airline
                .flight(new_flight)
                .is_none_or(|f| f.seats[cabin.index()] < passengers)
            {
                refuse("no_seats")
            } else {
                Outcome::Do(Op::Change {
                    reservation: r.id.clone(),
                    flight: flight.clone(),
                    new_flight: new_flight.clone(),
                    cabin: *cabin,
                })
            }
        }
        Request::Bags { total, .. } => {
            if *total < r.bags {
                return refuse("bags_not_removable");
            }
            let free = passengers * FREE_BAGS[user.membership as usize][r.cabin.index()];
            Outcome::Do(Op::Bags {
                reservation: r.id.clone(),
                total: *total,
                paid: paid_bags(free, r.bags, *total),
            })
        }
        Request::Compensation { flight, .. } => {
            let per = match status(flight) {
                Some(FlightStatus::Cancelled) => CERTIFICATE[0],
                Some(FlightStatus::Delayed) => CERTIFICATE[1],
                _ => return refuse("no_compensation"),
            };
            let eligible =
                user.membership != Membership::Regular || r.insurance || r.cabin == Cabin::Business;
            if eligible && r.flights.contains(flight) {
                Outcome::Do(Op::Certificate {
                    user: caller.into(),
                    amount: per * passengers,
                })
            } else {
                refuse("no_compensation")
            }
        }
    }
}

/// The change call that carries `op` out.
pub(crate) fn op_call(op: &Op) -> String {
    match op {
        Op::Cancel { reservation } => {
            call_text("cancel_reservation", json!({"reservation_id": reservation}))
        }
        Op::Change {
            reservation,
            flight,
            new_flight,
            cabin,
        } => call_text(
            "update_reservation_flights",
            json!({"reservation_id": reservation, "flight_number": flight,
                "new_flight_number": new_flight, "cabin": cabin.name()}),
        ),
        Op::Bags {
            reservation,
            total,
            paid,
        } => call_text(
            "update_reservation_baggages",
            json!({"reservation_id": reservation, "total_bags": total, "paid_bags": paid}),
        ),
        Op::Certificate { user, amount } => call_text(
            "send_certificate",
            json!({"user_id": user, "amount": amount}),
        ),
    }
}

/// The change the user asks for, carried out as asked (bags all paid for,
/// a certificate at the cancelled-flight rate).
pub(crate) fn asked_op(airline: &Airline, caller: &str, request: &Request) -> Op {
    match request {
        Request::Cancel { reservation, .. } => Op::Cancel {
            reservation: reservation.clone(),
        },
        Request::Change {
            reservation,
            flight,
            new_flight,
            cabin,
        } => Op::Change {
            reservation: reservation.clone(),
            flight: flight.clone(),
            new_flight: new_flight.clone(),
            cabin: *cabin,
        },
        Request::Bags { reservation, total } => {
            let before = airline.reservation(reservation).map_or(0, |r| r.bags);
            Op::Bags {
                reservation: reservation.clone(),
                total: *total,
                paid: (total - before).max(0),
            }
        }
        Request::Compensation { reservation, .. } => {
            let n = airline
                .reservation(reservation)
                .map_or(1, |r| r.passengers.len());
            Op::Certificate {
                user: caller.into(),
                amount: CERTIFICATE[0] * n as i64,
            }
        }
    }
}

/// The reference calls: authenticate, read the reservation (the user for
/// bags and compensation, the flights, the new flight), act, close.
pub(super) fn gold_calls(task: &AirlineTask) -> Vec<String> {
    let caller = &task.caller().id;
    let id = task.request.reservation();
    let mut gold = vec![call_text(
        "find_user",
        json!({"email": task.caller().email}),
    )];
    let owned = task
        .airline
        .reservation(id)
        .is_some_and(|r| &r.user == caller && !r.cancelled);
    if matches!(
        task.request,
        Request::Bags { .. } | Request::Compensation { .. }
    ) && owned
    {
        gold.push(call_text("get_user", json!({"user_id": caller})));
    }
    gold.push(call_text("get_reservation", json!({"reservation_id": id})));
    if owned {
        let flights = match &task.request {
            Request::Cancel { .. } => task.airline.reservation(id).map(|r| r.flights.clone()),
            Request::Change { new_flight, .. } => task
                .airline
                .reservation(id)
                .map(|r| r.flights.iter().chain([new_flight]).cloned().collect()),
            Request::Compensation { flight, .. } => Some(vec![flight.clone()]),
            Request::Bags { .. } => None,
        };
        for f in flights.unwrap_or_default() {
            gold.push(call_text("get_flight", json!({"flight_number": f})));
        }
    }
    gold.push(match &task.expected {
        Outcome::Do(op) => op_call(op),
        Outcome::Refuse(reason) => {
            call_text("refuse", json!({"reason": reason, "user_id": caller}))
        }
        Outcome::Transfer => call_text("transfer_to_human", json!({"user_id": caller})),
    });
    if matches!(task.expected, Outcome::Do(_)) {
        gold.push(call_text("complete_request", json!({"user_id": caller})));
    }
    gold
}
