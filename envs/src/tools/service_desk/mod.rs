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
//! One call per turn in any format of [`crate::tools::calls`]:
//! `find_customer`, `get_order`, `ask_customer` (the scripted customer
//! answers `reason`, `order_id`, `email` or `confirm` questions), and the
//! resolutions `issue_refund`, `transfer_to_human`, `refuse`. Unparseable
//! calls and bad arguments are [`crate::InvalidAction`]s; lookups that find
//! nothing are error results.
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

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::calls::{Param, ParamType, ToolCall, ToolSpec, call_text, openai_specs, parse_call};
use super::{
    Log, RESOLUTION_CALL_HELP, ToolEnv, observation_text, random_format, tool_effort, turn_until,
};
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::rng::Rng;

mod generate;
#[cfg(test)]
mod tests;

/// Refunds above this go to a human.
pub const HUMAN_LIMIT: i64 = 500;
pub const REFUSALS: [&str; 4] = [
    "not_delivered",
    "outside_window",
    "final_sale",
    "no_such_order",
];

pub const POLICY: &str = "Refund policy:\n\
1. Look the customer up by email. Only their own orders can be refunded; if they have no order of the item they name, refuse with `no_such_order`.\n\
2. Only delivered orders can be refunded; otherwise refuse with `not_delivered`.\n\
3. Ask the customer for the reason. Damaged or defective items: full price, up to 90 days after delivery. \
Change of mind (any other reason): price minus a 10% restocking fee, rounded down to a whole amount, up to 30 days after delivery, \
and never for final-sale items (refuse with `final_sale`). Past the window, refuse with `outside_window`.\n\
4. If the refund would exceed 500, do not refund: transfer to a human with the order id and the refund amount.\n\
5. Before issuing a refund, ask the customer to confirm.\n\
Resolve with exactly one of issue_refund, transfer_to_human or refuse (with the reason and the caller's customer id); that ends the conversation.";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub id: String,
    pub customer: String,
    pub item: String,
    pub price: i64,
    /// `delivered`, `shipped` or `processing`.
    pub status: String,
    pub days_since_delivery: Option<i64>,
    pub final_sale: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Customer {
    pub id: String,
    pub name: String,
    pub email: String,
}

/// How a conversation ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    Refund {
        order: String,
        amount: i64,
        confirmed: bool,
    },
    Transfer {
        order: String,
        amount: i64,
    },
    Refuse {
        reason: String,
    },
}

impl Resolution {
    fn kind(&self) -> &'static str {
        match self {
            Resolution::Refund { .. } => "refund",
            Resolution::Transfer { .. } => "transfer",
            Resolution::Refuse { .. } => "refuse",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServiceDeskConfig {
    pub customers: usize,
    pub orders_per_customer: usize,
    pub refuse_share: f64,
    pub transfer_share: f64,
}

impl Default for ServiceDeskConfig {
    fn default() -> Self {
        ServiceDeskConfig {
            customers: 6,
            orders_per_customer: 3,
            refuse_share: 0.3,
            transfer_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceDeskTask {
    pub customers: Vec<Customer>,
    pub orders: Vec<Order>,
    /// The customer at the desk (index into `customers`).
    pub caller: usize,
    /// The item they ask about.
    pub item: String,
    /// What they answer when asked for the reason.
    pub reason_reply: String,
    pub damaged: bool,
    /// The policy's resolution (a refund's `confirmed` is true).
    pub expected: Resolution,
    /// The reference calls, resolution last.
    pub gold: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct ServiceDesk {
    task: ServiceDeskTask,
    log: Log,
    confirmed: bool,
    resolution: Option<Resolution>,
    /// The customer id a refusal named: a refusal must say whose request it
    /// refuses, which only looking the caller up tells (so a constant
    /// refusal is never right).
    refused_customer: Option<String>,
}

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
        ),
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
        ),
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
        ),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl ServiceDeskTask {
    fn caller(&self) -> &Customer {
        &self.customers[self.caller]
    }

    pub fn opening(&self) -> String {
        let c = self.caller();
        format!(
            "Hi, this is {}. My email is {}. I'd like a refund for the {} I ordered.",
            c.name, c.email, self.item
        )
    }
}

/// The policy's resolution for a customer's order and reason.
pub fn decide(order: Option<&Order>, damaged: bool) -> Resolution {
    let refuse = |reason: &str| Resolution::Refuse {
        reason: reason.into(),
    };
    let Some(order) = order else {
        return refuse("no_such_order");
    };
    let Some(days) = order
        .days_since_delivery
        .filter(|_| order.status == "delivered")
    else {
        return refuse("not_delivered");
    };
    let (window, amount) = if damaged {
        (90, order.price)
    } else {
        (30, order.price * 9 / 10)
    };
    if !damaged && order.final_sale {
        return refuse("final_sale");
    }
    if days > window {
        return refuse("outside_window");
    }
    if amount > HUMAN_LIMIT {
        Resolution::Transfer {
            order: order.id.clone(),
            amount,
        }
    } else {
        Resolution::Refund {
            order: order.id.clone(),
            amount,
            confirmed: true,
        }
    }
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
}

impl Env for ServiceDesk {
    type Config = ServiceDeskConfig;
    type Task = ServiceDeskTask;
    type Action = ToolCall;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/service-desk-v2",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound refund desk with a scripted customer: refund, transfer or refuse exactly as the policy says",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: Self::LEVELS[0],
            },
            Preset {
                name: "medium",
                overrides: Self::LEVELS[2],
            },
            Preset {
                name: "hard",
                overrides: Self::LEVELS[4],
            },
        ],
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

    fn validate(config: &ServiceDeskConfig) -> Result<(), String> {
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
        generate::generate(config, rng)
    }

    fn reference(task: &ServiceDeskTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &ServiceDeskTask, _rng: Rng) -> Self {
        ServiceDesk {
            task: task.clone(),
            log: Log::default(),
            confirmed: false,
            resolution: None,
            refused_customer: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.resolution.is_some())
    }

    fn observe(&self, _player: Player) -> Observation {
        let text = observation_text(
            &format!(
                "You are a customer-service agent. Follow the policy exactly.\n\n{POLICY}\n\nCustomer: {}",
                self.task.opening()
            ),
            &TOOLS,
            RESOLUTION_CALL_HELP,
            &self.log,
        );
        Observation {
            text,
            structured: json!({
                "policy": POLICY,
                "opening": self.task.opening(),
                "tools": tool_specs(),
                "history": self.log.json(),
                "resolution": self.resolution,
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<ToolCall, InvalidAction> {
        parse_call(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, call: ToolCall) -> Result<Vec<String>, InvalidAction> {
        let result = self.run(&call);
        self.log.push(&call, result);
        Ok(vec![call.compact()])
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
        let at = self.log.entries.len().min(self.task.gold.len() - 1);
        Some(self.task.gold[at].clone())
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

/// The reference calls for a task: look up, read the order, ask the reason,
/// confirm a refund, resolve.
fn gold_calls(task: &ServiceDeskTask) -> Vec<String> {
    let mut gold = vec![call_text(
        "find_customer",
        json!({"email": task.caller().email}),
    )];
    let own = task
        .orders
        .iter()
        .find(|o| o.customer == task.caller().id && o.item == task.item);
    if let Some(order) = own {
        gold.push(call_text("get_order", json!({"order_id": order.id})));
        gold.push(call_text("ask_customer", json!({"question": "reason"})));
    }
    let resolution = match &task.expected {
        Resolution::Refund { order, amount, .. } => {
            gold.push(call_text("ask_customer", json!({"question": "confirm"})));
            call_text("issue_refund", json!({"order_id": order, "amount": amount}))
        }
        Resolution::Transfer { order, amount } => call_text(
            "transfer_to_human",
            json!({"order_id": order, "amount": amount}),
        ),
        Resolution::Refuse { reason } => call_text(
            "refuse",
            json!({"reason": reason, "customer_id": task.caller().id}),
        ),
    };
    gold.push(resolution);
    gold
}
