//! `tools/travel-v1`: a corporate travel desk books a trip across two
//! services, a flights service and a hotels service, under a written policy
//! and the traveller's wishes, or books nothing and says why; scored on both
//! services' final state and the answer.
//!
//! # Task
//! Fares on both legs of a route (and on the days around them; airline,
//! times, arrival date, stops, fare class, refundable or not, price),
//! hotels in both cities (distance to the destination's venue, price per
//! night, nights with no room), a company cap in the policy, and one
//! traveller's message: origin, destination, venue, outbound and return
//! dates, budget, and drawn wishes (non-stop, one airline for their loyalty
//! programme, refundable fares, a hotel within X km of the venue, sometimes
//! business class, which the policy forbids). The policy allows economy
//! fares only, a total within the lower of the cap and the budget, one hotel
//! from the outbound flight's ARRIVAL date to the return flight's date,
//! flights booked from holds that expire and must not be left open, and no
//! cancelling of non-refundable fares; of the allowed trips the cheapest
//! (unique by construction) is booked. A fixed share (`infeasible_share`)
//! has no allowed trip within the budget: those pass only with nothing
//! booked and `infeasible: TOTAL`, the lowest total over the budget, which
//! only the searches reveal.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]:
//! `flights_search`, `flights_hold`, `flights_book`, `flights_cancel`
//! (bookings and holds), `hotels_search`, `hotels_book`, `hotels_cancel`,
//! and `answer`. The services carry out whatever the policy says, as real
//! ones would; they refuse only what they cannot do (an unknown id, an
//! expired hold, a night with no room). Unparseable calls and bad arguments
//! are [`crate::InvalidAction`]s; the refusals are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The policy, the traveller's message, the tools, how to call them, and
//! the calls so far with their results. Structured: `policy`, `opening`,
//! `tools` (OpenAI function schemas), `history`, `answered`.
//!
//! # Reward
//! 1 and `passed` only when both services' final state is the policy's and
//! the answer is right: for a feasible task exactly the cheapest allowed
//! trip's two flight bookings and one hotel booking (its hotel and dates)
//! stand, and the answer is its total; for an infeasible one no booking
//! stands and the answer is `infeasible: TOTAL`. Either way no hold is left
//! open and no non-refundable fare was cancelled. A forbidden booking (a
//! business fare, a trip over the cap) fails even when the traveller asked
//! for it. Breakdown: `state_correct`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score as it
//! stands, which is 0 without an answer).
//!
//! # Parameters
//! `flights_per_leg` (2..=12), `hotels` (2..=12), `infeasible_share`
//! (0..=0.5).
//!
//! # Seeding
//! Everything comes from the task rng; each candidate is screened (the
//! oracle passes through the agent's path; the answer without bookings,
//! the cheapest trip that ignores the wishes and the fare rule, a stay from
//! the departure date, and booking an infeasible task's trip anyway, all
//! fail, and an infeasible task's total is no number of the prompt).
//!
//! # Version history
//! v1: first version.

use std::sync::{Arc, LazyLock};

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::final_answer::answers_match;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{draw_screened, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CALL_HELP, CallCount, Log, ToolEnv, apply_calls, observation_text, tool_observation, turn_until,
};
use crate::tools::policy_desk::Desk;

mod generate;
mod services;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Flight, Hotel, Plan, Request, TravelConfig, TravelTask, Trip};

use services::{FlightBooking, Hold, HotelBooking};
use task::{booking_calls, policy, show_date, trips};

/// The running desk: the task and both services' records.
#[derive(Clone, Debug)]
pub struct Travel {
    task: Arc<TravelTask>,
    holds: Vec<Hold>,
    flight_bookings: Vec<FlightBooking>,
    hotel_bookings: Vec<HotelBooking>,
    log: Log,
    /// The calls and turns so far (holds expire by the calls).
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let s = |n: &str, d: &str| Param::required(n, ParamType::String, d);
    let date = |n: &str| Param::required(n, ParamType::String, "date as YYYY-MM-DD");
    vec![
        ToolSpec::new(
            "flights_search",
            "flights service: the fares from one city to another on a date (departure and arrival dates and times, airline, stops, fare class, refundable, price)",
            vec![
                s("origin", "departure city"),
                s("destination", "arrival city"),
                date("date"),
            ],
        ),
        ToolSpec::new(
            "flights_hold",
            "flights service: hold a fare; returns a hold id (expires after a few calls)",
            vec![s("flight_id", "flight id like AX123")],
        ),
        ToolSpec::new(
            "flights_book",
            "flights service: book a held fare",
            vec![s("hold_id", "hold id like HD-1")],
        ),
        ToolSpec::new(
            "flights_cancel",
            "flights service: cancel a booking (BK-…) or release a hold (HD-…)",
            vec![s("id", "booking or hold id")],
        ),
        ToolSpec::new(
            "hotels_search",
            "hotels service: hotels in a city with a room every night of a stay (distance to the city's venue in km, price per night, total)",
            vec![s("city", "city"), date("check_in"), date("check_out")],
        ),
        ToolSpec::new(
            "hotels_book",
            "hotels service: book a room for a stay",
            vec![
                s("hotel_id", "hotel id like HT123"),
                date("check_in"),
                date("check_out"),
            ],
        ),
        ToolSpec::new(
            "hotels_cancel",
            "hotels service: cancel a hotel booking",
            vec![s("booking_id", "hotel booking id like HB-1")],
        ),
        answer_tool("finish: the booked trip's total, or `infeasible: TOTAL`"),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl ToolEnv for Travel {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(task: &TravelTask) -> bool {
        matches!(task.plan, Plan::Book(_))
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call).unwrap_or_else(|e| format!("error: {e}"));
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Travel {
    type Config = TravelConfig;
    type Task = TravelTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/travel-v1",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound travel desk over a flights and a hotels service: the cheapest allowed trip booked consistently across both (holds, fare class, budget cap, hotel nights), or nothing and why; scored on both services' final state",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"flights_per_leg":2,"hotels":2}"#,
        r#"{"flights_per_leg":3,"hotels":3}"#,
        r#"{}"#,
        r#"{"flights_per_leg":8,"hotels":8}"#,
        r#"{"flights_per_leg":12,"hotels":12}"#,
    ];

    fn effort(task: &TravelTask) -> Option<f64> {
        tool_effort::<Self>(task.flights.len() + task.hotels.len(), task)
    }

    fn validate(c: &TravelConfig) -> Result<(), ConfigError> {
        if !(2..=12).contains(&c.flights_per_leg) {
            return Err("flights_per_leg must be in 2..=12".into());
        }
        if !(2..=12).contains(&c.hotels) {
            return Err("hotels must be in 2..=12".into());
        }
        if !(0.0..=0.5).contains(&c.infeasible_share) {
            return Err("infeasible_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &TravelConfig, rng: &mut Rng) -> TravelTask {
        draw_screened::<Travel>(|| generate::draw(config, rng), degenerate_scripts)
    }

    fn reference(task: &TravelTask) -> Option<Value> {
        Some(json!(task.answer()))
    }

    fn reset(task: &TravelTask, _rng: Rng) -> Self {
        Travel {
            task: Arc::new(task.clone()),
            holds: Vec::new(),
            flight_bookings: Vec::new(),
            hotel_bookings: Vec::new(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        let policy = policy(self.task.cap);
        let desk = Desk {
            role: "You are a corporate travel desk working with two services: flights (flights_* tools) and hotels (hotels_* tools).",
            policy: &policy,
            speaker: "Traveller",
        };
        tool_observation(
            observation_text(&desk.head(&self.task.opening), &TOOLS, CALL_HELP, &self.log),
            tool_specs(),
            &self.log,
            json!({"policy": policy, "opening": self.task.opening, "answered": self.answered}),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let state = self.state_correct();
        let answer = self
            .answered
            .as_deref()
            .is_some_and(|a| answers_match(a, &self.task.answer()));
        Score::binary(state && answer)
            .part("state_correct", f64::from(u8::from(state)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.task.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let task = &self.task;
        let flight = task.flights[rng.below(task.flights.len() as u64) as usize].clone();
        let hotel = &task.hotels[rng.below(task.hotels.len() as u64) as usize];
        let day = rng.range_i64(task.request.out_date - 1, task.request.return_date);
        let (from, to) = (show_date(day), show_date(day + rng.range_i64(1, 4)));
        let n = rng.range_i64(1, 3);
        let call = match rng.below(8) {
            0 => ToolCall::new(
                "flights_search",
                json!({"origin": flight.origin, "destination": flight.destination, "date": from}),
            ),
            1 => ToolCall::new("flights_hold", json!({"flight_id": flight.id})),
            2 => ToolCall::new("flights_book", json!({"hold_id": format!("HD-{n}")})),
            3 => ToolCall::new("flights_cancel", json!({"id": format!("BK-{n}")})),
            4 => ToolCall::new(
                "hotels_search",
                json!({"city": hotel.city, "check_in": from, "check_out": to}),
            ),
            5 => ToolCall::new(
                "hotels_book",
                json!({"hotel_id": hotel.id, "check_in": from, "check_out": to}),
            ),
            6 => ToolCall::new("hotels_cancel", json!({"booking_id": format!("HB-{n}")})),
            _ => ToolCall::new(
                "answer",
                json!({"answer": (flight.price + 3 * hotel.price_per_night).to_string()}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} holds={} flight_bookings={} hotel_bookings={} answered={:?} plan={:?}",
            self.log.entries.len(),
            self.holds.len(),
            self.flight_bookings.len(),
            self.hotel_bookings.len(),
            self.answered,
            self.task.plan
        )
    }
}

/// Scripts that must fail (the generic blind answers copied from the
/// prompt need no run here: without bookings only an infeasible verdict can
/// pass, and its evidence is a total, so the one blind answer that could
/// pass is that total copied from the prompt, checked below): a feasible
/// task's answer without bookings; the cheapest trip
/// that ignores the wishes and the fare rule; the right trip with the stay
/// starting on the departure date; and, for an infeasible task, its trip
/// booked anyway (answered with its total or the verdict).
fn degenerate_scripts(task: &TravelTask) -> Vec<Vec<String>> {
    let answer = |a: String| call_text("answer", json!({ "answer": a }));
    let book = |trip: &Trip, a: String| {
        let mut script = booking_calls(trip);
        script.push(answer(a));
        script
    };
    let mut scripts = Vec::new();
    if Travel::feasible(task) {
        scripts.push(vec![answer(task.answer())]);
    }
    if let Some(careless) = trips(&task.flights, &task.hotels, &task.request, true).first() {
        scripts.push(book(careless, careless.total.to_string()));
    }
    match &task.plan {
        Plan::Book(trip) if trip.check_in != task.request.out_date => {
            let early = Trip {
                check_in: task.request.out_date,
                ..trip.clone()
            };
            scripts.push(book(&early, trip.total.to_string()));
        }
        Plan::Book(_) => {}
        Plan::Infeasible { lowest } => {
            // Answered at once when the prompt already holds the total (the
            // evidence must come from the searches).
            let prompt = format!("{} {}", policy(task.cap), task.opening);
            let numbers = prompt.split(|c: char| !c.is_ascii_digit());
            if numbers.into_iter().any(|n| n == lowest.to_string()) {
                scripts.push(vec![answer(task.answer())]);
            }
            let best =
                task::cheapest(&trips(&task.flights, &task.hotels, &task.request, false)).cloned();
            if let Some(best) = best {
                scripts.push(book(&best, lowest.to_string()));
                scripts.push(book(&best, task.answer()));
            }
        }
    }
    scripts
}
