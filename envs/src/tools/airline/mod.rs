//! `tools/airline-v1`: an airline's reservation desk bound by a written
//! policy, in the manner of tau-bench's airline domain; the agent
//! authenticates the user, looks up reservations and flights, cancels,
//! changes flights, adds bags or gives a compensation certificate, refuses,
//! or hands over to a human, and is scored on the airline's final state and
//! the policy.
//!
//! # Task
//! An airline database (users with a membership level and payment methods;
//! flights on every route between `airports` airports every day from May 14
//! to 18, each with a status, and a price and free seats per cabin; and
//! reservations with owner, flights, cabin, passengers, checked bags,
//! travel insurance, booking time, payment method and amount paid), the
//! present time (2026-05-15 09:00), and one user who gives their name and
//! email and asks for one thing about one reservation: cancel it (with a
//! reason), move one of its flights to another flight, set its checked bags,
//! or get compensation for a delayed or cancelled flight. The policy in the
//! prompt decides: authenticate before any change, only the user's own
//! reservations, a partly flown trip goes to a human, cancellation only
//! within 24 hours of booking, after an airline cancellation, in business or
//! with insurance for health or weather, no changes to basic economy, the
//! cabin kept, seats for every passenger, bags only added and the paid ones
//! counted from the membership's and cabin's allowance, certificates only
//! for delayed or cancelled flights of eligible users at a fixed amount per
//! passenger. A broken rule is refused with its reason code. The request
//! kind and its outcome are drawn first (refusals with a fixed share
//! `refuse_share`) and the reservation built to force it.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `find_user`,
//! `get_user`, `get_reservation`, `get_flight` (reads),
//! `cancel_reservation`, `update_reservation_flights`,
//! `update_reservation_baggages`, `send_certificate` (changes, carried out
//! whatever the policy says, as a real back office would), and the closing
//! calls `complete_request`, `refuse` and `transfer_to_human`. Unparseable
//! calls and bad arguments are [`crate::InvalidAction`]s; unknown
//! reservations, flights and users are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The policy, the user's message, the tools, how to call them, and the
//! calls so far with their results. Structured: `policy`, `opening`,
//! `tools` (OpenAI function schemas), `history`, `resolution`.
//!
//! # Reward
//! 1 and `passed` only when the airline's final state (every reservation's
//! flights, cabin, bags, amount paid and status, every flight's free seats,
//! every refund and charge, every certificate's user and amount) equals the
//! state the policy leads to, no change was made before `find_user` found
//! the user, and the closing call is the policy's: `complete_request` after
//! an allowed change, `refuse` with the first broken rule's reason, or
//! `transfer_to_human` for a partly flown trip; each names the user's id,
//! which only `find_user` gives (so a constant closing call never passes).
//! A forbidden cancellation, change, bag fee or certificate fails even when
//! the user asked for it, and so does a refusal of an allowed request.
//! Breakdown: `state_correct`, `closing_correct`, `authenticated_first`.
//!
//! # Episode end
//! The first closing call (terminated); the step cap truncates (score as it
//! stands, which is 0 without a closing call).
//!
//! # Parameters
//! `users` (2..=30), `reservations_per_user` (1..=5), `airports` (2..=6),
//! `refuse_share` (0..=0.6).
//!
//! # Seeding
//! The airline, the request and its wording come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! closing at once with any reason or by either other closing call, and
//! carrying out the request as asked where the policy says otherwise,
//! fail).
//!
//! # Version history
//! v1: first version.

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{draw_screened, tool_effort};
use crate::toolkit::spec::{ToolSpec, openai_specs};
use crate::toolkit::tool_env::{ToolError, apply_calls};
use crate::tools::policy_desk::{Desk, wrong_refusals};
pub use crate::tools::user_desk::{Closing, UserDesk};
use crate::tools::user_desk::{DeskStart, DeskWorld};

mod generate;
#[cfg(test)]
mod generated_tests;
mod task;
#[cfg(test)]
mod tests;
mod tools;

pub use task::{
    Airline, AirlineConfig, AirlineTask, Cabin, Entry, Flight, FlightStatus, Membership, Op,
    Outcome, Request, Reservation, User,
};
pub use tools::TOOLS;

use task::{POLICY, REASONS, asked_op, op_call};

/// The running desk: the task's airline (the part the tools change) and
/// the few facts it scores with.
pub type AirlineEnv = UserDesk<Airline>;

impl DeskWorld for Airline {
    type Op = Op;
    type Task = AirlineTask;

    fn apply(&mut self, op: &Op) {
        Airline::apply(self, op);
    }

    fn user_by_email(&self, email: &str) -> Option<&str> {
        (self.users.iter())
            .find(|u| u.email.eq_ignore_ascii_case(email))
            .map(|u| u.id.as_str())
    }

    fn tools() -> &'static [ToolSpec] {
        &TOOLS
    }

    fn outcome(task: &AirlineTask) -> &Outcome {
        &task.expected
    }

    fn run(desk: &mut AirlineEnv, call: &ToolCall) -> Result<String, ToolError> {
        desk.run(call)
    }
}

/// The agent's role and policy.
const DESK: Desk = Desk {
    role: "You are an airline's customer-service agent.",
    policy: POLICY,
    speaker: "User",
};

/// The tools in OpenAI function format, built once (every observation
/// carries them).
static SPECS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| openai_specs(&TOOLS));

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    SPECS.clone()
}

impl Env for AirlineEnv {
    type Config = AirlineConfig;
    type Task = AirlineTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/airline-v1",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound airline desk in the manner of tau-bench airline: cancellations by fare, insurance and time window, flight changes in the same cabin, bag fees, compensation certificates, refusals or hand-over; scored on the final database state",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Seven levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"users":2,"reservations_per_user":1,"airports":2}"#,
        r#"{"users":3,"reservations_per_user":1,"airports":3}"#,
        r#"{"users":4,"reservations_per_user":2,"airports":3}"#,
        r#"{}"#,
        r#"{"users":10,"reservations_per_user":3,"airports":5}"#,
        r#"{"users":14,"reservations_per_user":4,"airports":5}"#,
        r#"{"users":20,"reservations_per_user":5,"airports":6}"#,
    ];

    fn effort(task: &AirlineTask) -> Option<f64> {
        let a = &task.airline;
        let records = a.users.len() + a.flights.len() + a.reservations.len();
        tool_effort::<Self>(records, task)
    }

    fn validate(config: &AirlineConfig) -> Result<(), ConfigError> {
        if !(2..=30).contains(&config.users) {
            return Err("users must be in 2..=30".into());
        }
        if !(1..=5).contains(&config.reservations_per_user) {
            return Err("reservations_per_user must be in 1..=5".into());
        }
        if !(2..=6).contains(&config.airports) {
            return Err("airports must be in 2..=6".into());
        }
        if !(0.0..=0.6).contains(&config.refuse_share) {
            return Err("refuse_share must be in 0..=0.6".into());
        }
        Ok(())
    }

    fn generate(config: &AirlineConfig, rng: &mut Rng) -> AirlineTask {
        draw_screened::<AirlineEnv>(|| generate::draw(config, rng), degenerate_scripts)
    }

    fn reference(task: &AirlineTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &AirlineTask, _rng: Rng) -> Self {
        UserDesk::new(DeskStart {
            world: &task.airline,
            caller: (&task.caller().id, &task.caller().email),
            opening: &task.opening,
            outcome: &task.expected,
            gold: &task.gold,
        })
    }

    fn turn(&self) -> Turn {
        self.turn_within(Self::SPEC.max_steps)
    }

    fn observe(&self, _player: Player) -> Observation {
        self.observation(&DESK, &TOOLS, tool_specs())
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        self.policy_score()
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        self.next_reference()
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let a = &self.world;
        let mut any = |n: usize| rng.below(n as u64) as usize;
        let r = &a.reservations[any(a.reservations.len())];
        let flight = &r.flights[any(r.flights.len())];
        let new = &a.flights[any(a.flights.len())].number;
        let user = &a.users[any(a.users.len())];
        let cabin = Cabin::ALL[any(3)].name();
        let email = if any(2) == 0 {
            &self.caller_email
        } else {
            &user.email
        };
        let (bags, paid, amount) = (any(6), any(4), 50 * (1 + any(6)));
        let stranger = format!("U-{}", rng.range_i64(10000, 99999));
        let call = match rng.below(12) {
            0 => ToolCall::new("find_user", json!({"email": email})),
            1 => ToolCall::new("get_user", json!({"user_id": user.id})),
            2 => ToolCall::new("get_reservation", json!({"reservation_id": r.id})),
            3 => ToolCall::new("get_flight", json!({"flight_number": new})),
            4 => ToolCall::new("cancel_reservation", json!({"reservation_id": r.id})),
            5 => ToolCall::new(
                "update_reservation_flights",
                json!({"reservation_id": r.id, "flight_number": flight, "new_flight_number": new, "cabin": cabin}),
            ),
            6 => ToolCall::new(
                "update_reservation_baggages",
                json!({"reservation_id": r.id, "total_bags": bags, "paid_bags": paid}),
            ),
            7 => ToolCall::new(
                "send_certificate",
                json!({"user_id": user.id, "amount": amount}),
            ),
            8 | 9 => ToolCall::new("complete_request", json!({"user_id": stranger})),
            10 => ToolCall::new("transfer_to_human", json!({"user_id": stranger})),
            _ => ToolCall::new(
                "refuse",
                json!({"reason": REASONS[rng.below(REASONS.len() as u64) as usize], "user_id": stranger}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        self.summary()
    }
}

/// Closing calls that need no looking up beyond the user's id: refusing
/// with any wrong reason, completing or handing over when that is not the
/// policy's closing, and carrying out the request as asked (bags all paid
/// for or all free, the cancelled-flight certificate) where the policy says
/// otherwise.
fn degenerate_scripts(task: &AirlineTask) -> Vec<Vec<String>> {
    let caller = &task.caller().id;
    let close = |name: &str| call_text(name, json!({"user_id": caller}));
    let mut scripts = wrong_refusals(&REASONS, task.expected.refusal(), "user_id", caller);
    let find = call_text("find_user", json!({"email": task.caller().email}));
    let mut asked = vec![asked_op(&task.airline, caller, &task.request)];
    if let Op::Bags {
        reservation, total, ..
    } = &asked[0]
    {
        asked.push(Op::Bags {
            reservation: reservation.clone(),
            total: *total,
            paid: 0,
        });
    }
    for name in ["complete_request", "transfer_to_human"] {
        scripts.push(vec![close(name)]);
        // A change before find_user always fails (`authenticated_first`),
        // and looking up alone changes nothing: neither is screened.
        for op in &asked {
            scripts.push(vec![find.clone(), op_call(op), close(name)]);
        }
    }
    // The right episodes (without their reads) stay out of the screen.
    let right: Vec<Vec<String>> = match &task.expected {
        Outcome::Do(op) => vec![vec![find.clone(), op_call(op), close("complete_request")]],
        Outcome::Transfer => vec![
            vec![close("transfer_to_human")],
            vec![find, close("transfer_to_human")],
        ],
        Outcome::Refuse(_) => Vec::new(),
    };
    scripts.retain(|s| !right.contains(s));
    scripts
}
