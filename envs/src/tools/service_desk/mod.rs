//! `tools/service-desk-v2`: a policy-bound refund desk with a scripted,
//! deterministic customer; the agent must refund, transfer or refuse exactly
//! as the policy says.
//!
//! # Task
//! A customer database (customers, orders with item, price, status, days
//! since delivery, final-sale flag) and one customer who asks for a refund
//! of an item, giving only their name and email. The refund reason is known
//! only by asking the customer. The written policy decides: refund (full
//! for damaged or defective items within 90 days; price minus a 10%
//! restocking fee, rounded down, for a change of mind within 30 days and not
//! final sale), transfer to a human when the refund would exceed 500, or
//! refuse with a reason code (`not_delivered`, `outside_window`,
//! `final_sale`, `no_such_order`). The decision is drawn first with fixed
//! shares (`refuse_share`, `transfer_share`) and the facts made to fit it.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]:
//! `find_customer`, `get_order`, `ask_customer` (the scripted customer
//! answers `reason`, `order_id`, `email` or `confirm` questions), and the
//! resolutions `issue_refund`, `transfer_to_human`, `refuse`. Unparseable
//! calls and bad arguments are [`crate::InvalidAction`]s; lookups that find
//! nothing are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The policy, the customer's opening message, the tools, how to call, and
//! the conversation so far. Structured: `policy`, `opening`, `tools`
//! (OpenAI function schemas), `history`, `resolution`.
//!
//! # Reward
//! 1 and `passed` only when the resolution equals the policy's: the same
//! refund (order and amount, issued after the customer confirmed), the same
//! transfer (order and amount), or a refusal with the right reason and the
//! caller's customer id (which only the lookup gives, so a constant
//! refusal never passes).
//! Breakdown: `correct`, `kind_correct` (refund/transfer/refuse matched).
//!
//! # Episode end
//! The first resolution call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `customers` (2..=30), `orders_per_customer` (1..=6), `refuse_share`
//! and `transfer_share` (each 0..=0.5).
//!
//! # Seeding
//! Decision, facts and wording come from the task rng; each candidate is
//! screened (the oracle passes through the agent's path; refusing with any
//! reason, transferring or refunding at once fails on feasible tasks).
//!
//! # Version history
//! v1: first version.
//! v2: refusals name the caller's customer id (a constant refusal with the
//! commonest reason passed a share of the refusal tasks).

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{MAX_ATTEMPTS, screen, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, openai_specs};
use crate::toolkit::tool_env::{CallCount, Log, ToolEnv, apply_calls, turn_until};
use crate::tools::policy_desk::Desk;

mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Customer, Order, Resolution, ServiceDeskConfig, ServiceDeskTask};

use task::{POLICY, REFUSALS};

#[derive(Clone, Debug)]
pub struct ServiceDesk {
    task: ServiceDeskTask,
    log: Log,
    count: CallCount,
    confirmed: bool,
    resolution: Option<Resolution>,
    /// The customer id a refusal named: a refusal must say whose request it
    /// refuses, which only looking the caller up tells (so a constant
    /// refusal is never right).
    refused_customer: Option<String>,
}

/// The agent's role and policy.
const DESK: Desk = Desk {
    role: "You are a customer-service agent.",
    policy: POLICY,
    speaker: "Customer",
};

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let order = || Param::required("order_id", ParamType::String, "order id like O-12345");
    vec![
        ToolSpec::new(
            "find_customer",
            "a customer's id, name and orders (id and item) by email",
            vec![Param::required(
                "email",
                ParamType::String,
                "the customer's email",
            )],
        ),
        ToolSpec::new(
            "get_order",
            "an order's item, price, status, days since delivery and final-sale flag",
            vec![order()],
        ),
        ToolSpec::new(
            "ask_customer",
            "ask the customer a question and get their reply",
            vec![
                Param::required("question", ParamType::String, "what to ask")
                    .one_of(&["reason", "order_id", "email", "confirm"]),
            ],
        ),
        ToolSpec::new(
            "issue_refund",
            "refund an order (ends the conversation)",
            vec![
                order(),
                Param::required("amount", ParamType::Integer, "whole amount to refund"),
            ],
        )
        .ending(),
        ToolSpec::new(
            "transfer_to_human",
            "hand the case to a human agent (ends the conversation)",
            vec![
                order(),
                Param::required(
                    "amount",
                    ParamType::Integer,
                    "the refund amount the human should approve",
                ),
            ],
        )
        .ending(),
        ToolSpec::new(
            "refuse",
            "refuse the request under the policy (ends the conversation)",
            vec![
                Param::required("reason", ParamType::String, "policy reason").one_of(&REFUSALS),
                Param::required(
                    "customer_id",
                    ParamType::String,
                    "the caller's customer id like C-12345",
                ),
            ],
        )
        .ending(),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl ServiceDesk {
    fn run(&mut self, call: &ToolCall) -> String {
        let task = &self.task;
        match call.name.as_str() {
            "find_customer" => match task.customers.iter().find(|c| c.email.eq_ignore_ascii_case(call.str("email").trim())) {
                Some(c) => {
                    let orders: Vec<Value> = task
                        .orders
                        .iter()
                        .filter(|o| o.customer == c.id)
                        .map(|o| json!({"order_id": o.id, "item": o.item}))
                        .collect();
                    json!({"customer_id": c.id, "name": c.name, "orders": orders}).to_string()
                }
                None => "error: no customer with that email".into(),
            },
            "get_order" => match task.orders.iter().find(|o| o.id == call.str("order_id").trim()) {
                Some(o) => json!({
                    "order_id": o.id, "customer_id": o.customer, "item": o.item, "price": o.price,
                    "status": o.status, "days_since_delivery": o.days_since_delivery, "final_sale": o.final_sale,
                })
                .to_string(),
                None => "error: no such order".into(),
            },
            "ask_customer" => match call.str("question") {
                "reason" => task.reason_reply.clone(),
                "order_id" => format!("I don't have the order number at hand, sorry. It's the {}.", task.item),
                "email" => format!("It's {}.", task.caller().email),
                _ => {
                    self.confirmed = true;
                    "Yes, please go ahead.".into()
                }
            },
            "issue_refund" => {
                self.resolution = Some(Resolution::Refund {
                    order: call.str("order_id").trim().to_string(),
                    amount: call.int("amount"),
                    confirmed: self.confirmed,
                });
                "refund issued; conversation closed".into()
            }
            "transfer_to_human" => {
                self.resolution = Some(Resolution::Transfer { order: call.str("order_id").trim().to_string(), amount: call.int("amount") });
                "transferred; conversation closed".into()
            }
            "refuse" => {
                self.resolution = Some(Resolution::Refuse { reason: call.str("reason").to_string() });
                self.refused_customer = Some(call.str("customer_id").trim().to_string());
                "refused; conversation closed".into()
            }
            other => format!("error: no tool {other}"),
        }
    }
}

impl ToolEnv for ServiceDesk {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    /// Refusal tasks are this env's infeasible ones.
    fn feasible(task: &ServiceDeskTask) -> bool {
        !matches!(task.expected, Resolution::Refuse { .. })
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for ServiceDesk {
    type Config = ServiceDeskConfig;
    type Task = ServiceDeskTask;
    type Action = Calls;

    // v1's refunds and transfers read as v2's; its refusals named no
    // customer, a constant v2 no longer pays.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| {
            refuse_constant_verdict(card.task["expected"].get("refuse").is_some())
        }),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/service-desk-v2",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound refund desk with a scripted customer: refund, transfer or refuse exactly as the policy says",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"customers":3,"orders_per_customer":2}"#,
        r#"{"customers":4,"orders_per_customer":3}"#,
        r#"{}"#,
        r#"{"customers":12,"orders_per_customer":4}"#,
        r#"{"customers":20,"orders_per_customer":5}"#,
    ];

    fn effort(task: &ServiceDeskTask) -> Option<f64> {
        tool_effort::<Self>(task.customers.len() + task.orders.len(), task)
    }

    fn validate(config: &ServiceDeskConfig) -> Result<(), ConfigError> {
        if !(2..=30).contains(&config.customers) || !(1..=6).contains(&config.orders_per_customer) {
            return Err("customers must be in 2..=30 and orders_per_customer in 1..=6".into());
        }
        if !(0.0..=0.5).contains(&config.refuse_share)
            || !(0.0..=0.5).contains(&config.transfer_share)
        {
            return Err("refuse_share and transfer_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &ServiceDeskConfig, rng: &mut Rng) -> ServiceDeskTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let task = generate::draw(config, rng);
            let feasible = ServiceDesk::feasible(&task);
            // Degenerate desks: refuse at once with any reason, or transfer or
            // refund every order of the caller's at its price or fee price.
            let mut extra: Vec<Vec<String>> = REFUSALS
                .iter()
                .filter(|r| {
                    feasible
                        || !matches!(&task.expected, Resolution::Refuse { reason } if reason == *r)
                })
                .map(|r| {
                    let caller = &task.customers[task.caller].id;
                    vec![call_text(
                        "refuse",
                        json!({"reason": r, "customer_id": caller}),
                    )]
                })
                .collect();
            for order in task
                .orders
                .iter()
                .filter(|o| o.customer == task.customers[task.caller].id)
            {
                for amount in [order.price, order.price * 9 / 10] {
                    let args = json!({"order_id": order.id, "amount": amount});
                    if !matches!(&task.expected, Resolution::Transfer { .. }) {
                        extra.push(vec![call_text("transfer_to_human", args.clone())]);
                    }
                    extra.push(vec![call_text("issue_refund", args)]);
                }
            }
            if screen::<ServiceDesk>(&task, &extra) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &ServiceDeskTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &ServiceDeskTask, _rng: Rng) -> Self {
        ServiceDesk {
            task: task.clone(),
            log: Log::default(),
            count: CallCount::default(),
            confirmed: false,
            resolution: None,
            refused_customer: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.resolution.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        DESK.observation(
            &self.task.opening(),
            &TOOLS,
            tool_specs(),
            &self.log,
            json!(self.resolution),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let got = self.resolution.as_ref();
        let kind = got.is_some_and(|r| r.kind() == self.task.expected.kind());
        let whose = match got {
            Some(Resolution::Refuse { .. }) => self
                .refused_customer
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(&self.task.caller().id)),
            _ => true,
        };
        Score::binary(got == Some(&self.task.expected) && whose)
            .part("kind_correct", f64::from(u8::from(kind)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.task.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let order = self.task.orders[rng.below(self.task.orders.len() as u64) as usize]
            .id
            .clone();
        let email = self.task.customers[rng.below(self.task.customers.len() as u64) as usize]
            .email
            .clone();
        let question = ["reason", "order_id", "email", "confirm"][rng.below(4) as usize];
        let call = match rng.below(6) {
            0 => ToolCall::new("find_customer", json!({"email": email})),
            1 => ToolCall::new("get_order", json!({"order_id": order})),
            2 => ToolCall::new("ask_customer", json!({"question": question})),
            3 => ToolCall::new(
                "issue_refund",
                json!({"order_id": order, "amount": rng.range_i64(1, 2000)}),
            ),
            4 => ToolCall::new(
                "transfer_to_human",
                json!({"order_id": order, "amount": rng.range_i64(1, 2000)}),
            ),
            _ => ToolCall::new(
                "refuse",
                json!({"reason": REFUSALS[rng.below(4) as usize], "customer_id": format!("C-{}", rng.range_i64(10000, 99999))}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} confirmed={} resolution={:?} expected={:?}",
            self.log.entries.len(),
            self.confirmed,
            self.resolution,
            self.task.expected
        )
    }
}
