//! The two services of `tools/travel`: the records the agent's calls make
//! (holds, fare bookings, hotel bookings), what each call does, and whether
//! the final records are the policy's.

use std::sync::Arc;

use serde_json::{Value, json};

use super::Travel;
use super::task::{HOLD_CALLS, Plan, parse_date, show_date};
use crate::toolkit::calls::ToolCall;
use crate::toolkit::tool_env::ToolError;
/// A fare booked on the flights service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FlightBooking {
    pub(super) id: String,
    pub(super) flight: String,
    pub(super) refundable: bool,
    pub(super) cancelled: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HoldState {
    Open,
    Booked,
    Released,
}

/// A hold on a fare, placed at call number `placed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hold {
    pub(super) id: String,
    pub(super) flight: String,
    pub(super) placed: usize,
    pub(super) state: HoldState,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HotelBooking {
    pub(super) id: String,
    pub(super) hotel: String,
    pub(super) check_in: i64,
    pub(super) check_out: i64,
    pub(super) cancelled: bool,
}

/// The services refuse new records past this many (bounded state).
const MAX_RECORDS: usize = 40;

fn date_arg(call: &ToolCall, key: &str) -> Result<i64, ToolError> {
    parse_date(call.str(key)).ok_or_else(|| format!("{key} must be a date like 2027-05-14").into())
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b)
}

impl Travel {
    pub(super) fn run(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let task = Arc::clone(&self.task);
        let full = |n: usize| -> Result<(), ToolError> {
            if n >= MAX_RECORDS {
                Err("too many records".into())
            } else {
                Ok(())
            }
        };
        match call.name.as_str() {
            "flights_search" => {
                let date = date_arg(call, "date")?;
                let rows: Vec<Value> = task
                    .flights
                    .iter()
                    .filter(|f| {
                        f.date == date
                            && same(call.str("origin"), &f.origin)
                            && same(call.str("destination"), &f.destination)
                    })
                    .map(|f| {
                        json!({"flight_id": f.id, "airline": f.airline,
                            "departs": format!("{} {}", show_date(f.date), f.depart),
                            "arrives": format!("{} {}", show_date(f.arrive_date), f.arrive),
                            "stops": f.stops, "fare_class": f.fare_class,
                            "refundable": f.refundable, "price": f.price})
                    })
                    .collect();
                Ok(match rows.is_empty() {
                    true => "no flights found".into(),
                    false => Value::Array(rows).to_string(),
                })
            }
            "flights_hold" => {
                let f = task
                    .flight(call.str("flight_id").trim())
                    .ok_or("no such flight")?;
                full(self.holds.len())?;
                let id = format!("HD-{}", self.holds.len() + 1);
                self.holds.push(Hold {
                    id: id.clone(),
                    flight: f.id.clone(),
                    placed: self.count.calls(),
                    state: HoldState::Open,
                });
                Ok(json!({"hold_id": id, "flight_id": f.id, "price": f.price,
                    "expires": format!("after {HOLD_CALLS} more calls")})
                .to_string())
            }
            "flights_book" => {
                let calls = self.count.calls();
                let hold = self
                    .holds
                    .iter_mut()
                    .find(|h| same(call.str("hold_id"), &h.id))
                    .ok_or("no such hold")?;
                match hold.state {
                    HoldState::Booked => return Err("that hold is already booked".into()),
                    HoldState::Released => return Err("that hold was released".into()),
                    HoldState::Open if calls - hold.placed > HOLD_CALLS => {
                        return Err("that hold has expired; place a new hold".into());
                    }
                    HoldState::Open => {}
                }
                full(self.flight_bookings.len())?;
                hold.state = HoldState::Booked;
                let f = task.flight(&hold.flight).ok_or("no such flight")?;
                let id = format!("BK-{}", self.flight_bookings.len() + 1);
                self.flight_bookings.push(FlightBooking {
                    id: id.clone(),
                    flight: f.id.clone(),
                    refundable: f.refundable,
                    cancelled: false,
                });
                Ok(
                    json!({"booking_id": id, "flight_id": f.id, "price": f.price,
                    "refundable": f.refundable})
                    .to_string(),
                )
            }
            "flights_cancel" => {
                let id = call.str("id");
                if let Some(hold) = self.holds.iter_mut().find(|h| same(id, &h.id)) {
                    if hold.state != HoldState::Open {
                        return Err("that hold is not open".into());
                    }
                    hold.state = HoldState::Released;
                    return Ok(format!("hold {} released", hold.id));
                }
                let b = self
                    .flight_bookings
                    .iter_mut()
                    .find(|b| same(id, &b.id) && !b.cancelled)
                    .ok_or("no such open booking or hold")?;
                b.cancelled = true;
                let price = task.flight(&b.flight).map_or(0, |f| f.price);
                Ok(match b.refundable {
                    true => format!("booking {} cancelled; refunded in full", b.id),
                    false => format!(
                        "booking {} cancelled; non-refundable: {price} charged",
                        b.id
                    ),
                })
            }
            "hotels_search" => {
                let (check_in, check_out) =
                    (date_arg(call, "check_in")?, date_arg(call, "check_out")?);
                if check_out <= check_in {
                    return Err("check_out must be after check_in".into());
                }
                let nights = check_out - check_in;
                let rows: Vec<Value> = task
                    .hotels
                    .iter()
                    .filter(|h| same(call.str("city"), &h.city) && h.free(check_in, check_out))
                    .map(|h| {
                        json!({"hotel_id": h.id, "name": h.name,
                            "distance_km": h.distance_tenths as f64 / 10.0,
                            "price_per_night": h.price_per_night, "nights": nights,
                            "total": nights * h.price_per_night})
                    })
                    .collect();
                Ok(match rows.is_empty() {
                    true => "no hotels with a room every night".into(),
                    false => Value::Array(rows).to_string(),
                })
            }
            "hotels_book" => {
                let h = task
                    .hotel(call.str("hotel_id").trim())
                    .ok_or("no such hotel")?;
                let (check_in, check_out) =
                    (date_arg(call, "check_in")?, date_arg(call, "check_out")?);
                if check_out <= check_in {
                    return Err("check_out must be after check_in".into());
                }
                if let Some(night) = (check_in..check_out).find(|n| h.full_nights.contains(n)) {
                    return Err(format!("no room on {}", show_date(night)).into());
                }
                full(self.hotel_bookings.len())?;
                let id = format!("HB-{}", self.hotel_bookings.len() + 1);
                self.hotel_bookings.push(HotelBooking {
                    id: id.clone(),
                    hotel: h.id.clone(),
                    check_in,
                    check_out,
                    cancelled: false,
                });
                Ok(
                    json!({"booking_id": id, "hotel_id": h.id, "nights": check_out - check_in,
                    "total": (check_out - check_in) * h.price_per_night})
                    .to_string(),
                )
            }
            "hotels_cancel" => {
                let b = self
                    .hotel_bookings
                    .iter_mut()
                    .find(|b| same(call.str("booking_id"), &b.id) && !b.cancelled)
                    .ok_or("no such open hotel booking")?;
                b.cancelled = true;
                Ok(format!("hotel booking {} cancelled", b.id))
            }
            _ => {
                self.answered = Some(call.str("answer").to_string());
                Ok("answer recorded".into())
            }
        }
    }

    /// Whether both services hold exactly what the plan books, no hold is
    /// open and no non-refundable fare was cancelled.
    pub(super) fn state_correct(&self) -> bool {
        let mut flights: Vec<&str> = self
            .flight_bookings
            .iter()
            .filter(|b| !b.cancelled)
            .map(|b| b.flight.as_str())
            .collect();
        flights.sort_unstable();
        let stays: Vec<(&str, i64, i64)> = self
            .hotel_bookings
            .iter()
            .filter(|b| !b.cancelled)
            .map(|b| (b.hotel.as_str(), b.check_in, b.check_out))
            .collect();
        let clean = self.holds.iter().all(|h| h.state != HoldState::Open)
            && self
                .flight_bookings
                .iter()
                .all(|b| b.refundable || !b.cancelled);
        let expected = match &self.task.plan {
            Plan::Book(t) => {
                let mut want = vec![t.outbound.as_str(), t.back.as_str()];
                want.sort_unstable();
                flights == want && stays == [(t.hotel.as_str(), t.check_in, t.check_out)]
            }
            Plan::Infeasible { .. } => flights.is_empty() && stays.is_empty(),
        };
        clean && expected
    }
}
