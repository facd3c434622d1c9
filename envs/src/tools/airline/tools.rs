//! The tools of `tools/airline`: their specs and what each call does to the
//! running airline.

use std::sync::LazyLock;

use serde_json::{Value, json};

use super::AirlineEnv;
use super::task::{Cabin, Op, REASONS};
use crate::toolkit::calls::ToolCall;
use crate::toolkit::spec::{Param, ParamType, ToolSpec};
use crate::toolkit::tool_env::ToolError;
use crate::tools::policy_desk::closing_tools;
use crate::tools::user_desk::find_user_tool;

/// The most bags a reservation may hold.
const MAX_BAGS: i64 = 50;
/// The largest certificate the tool gives.
const MAX_CERTIFICATE: i64 = 10_000;

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let reservation = || {
        Param::required(
            "reservation_id",
            ParamType::String,
            "reservation id like R-123456",
        )
    };
    let user = || Param::required("user_id", ParamType::String, "the user's id like U-12345");
    let flight = |name: &str| Param::required(name, ParamType::String, "flight number like VG123");
    let int = |name: &str, what: &str| Param::required(name, ParamType::Integer, what);
    let mut tools = vec![
        find_user_tool(),
        ToolSpec::new(
            "get_user",
            "a user's name, membership, payment methods and reservation ids",
            vec![user()],
        ),
        ToolSpec::new(
            "get_reservation",
            "a reservation's owner, flights, cabin, passengers, bags, insurance, booking time, payment method, amount paid and status",
            vec![reservation()],
        ),
        ToolSpec::new(
            "get_flight",
            "a flight's route, date, departure, status, and price and free seats per cabin",
            vec![flight("flight_number")],
        ),
        ToolSpec::new(
            "cancel_reservation",
            "cancel a reservation; the amount paid is refunded to its payment method",
            vec![reservation()],
        ),
        ToolSpec::new(
            "update_reservation_flights",
            "replace one flight of a reservation by another in the given cabin; the fare difference settles on its payment method",
            vec![
                reservation(),
                flight("flight_number"),
                flight("new_flight_number"),
                Param::required("cabin", ParamType::String, "cabin of the new flight")
                    .one_of(&Cabin::ALL.map(Cabin::name)),
            ],
        ),
        ToolSpec::new(
            "update_reservation_baggages",
            "set a reservation's checked bags; paid_bags of the new ones are charged 50 each to its payment method",
            vec![
                reservation(),
                int("total_bags", "checked bags in total after the change"),
                int("paid_bags", "newly added bags that must be paid for"),
            ],
        ),
        ToolSpec::new(
            "send_certificate",
            "give the user a travel certificate worth the amount",
            vec![user(), int("amount", "the certificate's amount")],
        ),
    ];
    tools.extend(closing_tools(&REASONS, user, true));
    tools
});

impl AirlineEnv {
    fn change(&mut self, op: Op) -> String {
        self.apply_change(&op);
        match op {
            Op::Cancel { .. } => json!({"status": "cancelled"}),
            Op::Change { .. } => json!({"status": "flights updated"}),
            Op::Bags { .. } => json!({"status": "bags updated"}),
            Op::Certificate { .. } => {
                json!({"status": "sent", "certificate_id": format!("CERT-{}", 1000 + self.world.certificates.len())})
            }
        }
        .to_string()
    }

    /// Runs one call: its result, or the error result (nothing changed).
    pub(super) fn run(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let id = |key: &str| call.str(key).trim().to_ascii_uppercase();
        let air = &self.world;
        let reservation = || {
            let r = id("reservation_id");
            air.reservation(&r)
                .map(|_| r)
                .ok_or("error: no such reservation")
        };
        Ok(match call.name.as_str() {
            "find_user" => self.find_user(call)?,
            "get_user" => {
                let user = air.user(&id("user_id")).ok_or("error: no such user")?;
                let payments: Vec<Value> = user
                    .payments
                    .iter()
                    .map(|(id, label)| json!({"payment_method_id": id, "label": label}))
                    .collect();
                let reservations: Vec<&str> = air
                    .reservations
                    .iter()
                    .filter(|r| r.user == user.id)
                    .map(|r| r.id.as_str())
                    .collect();
                json!({"user_id": user.id, "name": user.name, "membership": user.membership,
                    "payment_methods": payments, "reservations": reservations})
                .to_string()
            }
            "get_reservation" => {
                let r = air
                    .reservation(&reservation()?)
                    .ok_or("error: no such reservation")?;
                json!({"reservation_id": r.id, "user_id": r.user, "flights": r.flights,
                    "cabin": r.cabin, "passengers": r.passengers, "checked_bags": r.bags,
                    "travel_insurance": r.insurance, "booked_at": r.booked_at,
                    "payment_method_id": r.payment, "amount_paid": r.paid,
                    "status": if r.cancelled { "cancelled" } else { "active" }})
                .to_string()
            }
            "get_flight" => {
                let f = air
                    .flight(&id("flight_number"))
                    .ok_or("error: no such flight")?;
                let cabins: serde_json::Map<String, Value> = Cabin::ALL
                    .iter()
                    .map(|c| {
                        let i = c.index();
                        (
                            c.name().to_string(),
                            json!({"price": f.prices[i], "free_seats": f.seats[i]}),
                        )
                    })
                    .collect();
                json!({"flight_number": f.number, "origin": f.origin, "destination": f.destination,
                    "date": f.date, "departure": f.departure, "status": f.status, "cabins": cabins})
                .to_string()
            }
            "cancel_reservation" => {
                let reservation = reservation()?;
                self.change(Op::Cancel { reservation })
            }
            "update_reservation_flights" => {
                let reservation = reservation()?;
                let (flight, new_flight) = (id("flight_number"), id("new_flight_number"));
                let r = air
                    .reservation(&reservation)
                    .ok_or("error: no such reservation")?;
                if !r.flights.contains(&flight) {
                    return Err(format!("error: flight {flight} is not in the reservation").into());
                }
                if air.flight(&new_flight).is_none() || r.flights.contains(&new_flight) {
                    return Err(format!("error: no flight {new_flight} to move to").into());
                }
                let cabin = Cabin::parse(call.str("cabin")).ok_or("error: no such cabin")?;
                self.change(Op::Change {
                    reservation,
                    flight,
                    new_flight,
                    cabin,
                })
            }
            "update_reservation_baggages" => {
                let reservation = reservation()?;
                let (total, paid) = (call.int("total_bags"), call.int("paid_bags"));
                if total < 0 || paid < 0 {
                    return Err("error: bag counts cannot be negative".into());
                }
                // Bounded so that the fee stays a small number.
                if total > MAX_BAGS || paid > total {
                    return Err(format!(
                        "error: at most {MAX_BAGS} bags, and paid_bags at most total_bags"
                    )
                    .into());
                }
                self.change(Op::Bags {
                    reservation,
                    total,
                    paid,
                })
            }
            "send_certificate" => {
                let user = air
                    .user(&id("user_id"))
                    .ok_or("error: no such user")?
                    .id
                    .clone();
                let amount = call.int("amount");
                if !(1..=MAX_CERTIFICATE).contains(&amount) {
                    return Err(
                        format!("error: the amount must be in 1..={MAX_CERTIFICATE}").into(),
                    );
                }
                self.change(Op::Certificate { user, amount })
            }
            other => return Err(format!("error: no tool {other}").into()),
        })
    }
}
