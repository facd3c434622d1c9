//! `tools/retail-v1`: an online store's support desk bound by a written
//! policy, in the manner of tau-bench's retail domain; the agent
//! authenticates the user, looks up orders, products and payment methods,
//! cancels, modifies, returns, exchanges or re-addresses an order, refuses,
//! or hands over to a human, and is scored on the store's final state and
//! the policy.
//!
//! # Task
//! A store database (users with an address and payment methods: credit
//! cards, a gift card with its balance, PayPal; products with variants,
//! each an item id with options, price and availability; orders with owner,
//! status, items, payment method and shipping address) and one user who
//! gives their name and email and asks for one thing about one order:
//! cancel it, swap items of a pending order for other variants, return
//! delivered items with the refund to a named method, exchange delivered
//! items for other variants, change the shipping address, or get
//! compensation or a price match. The policy in the prompt decides:
//! authenticate before any change, only the user's own orders, cancel,
//! modify and re-address only `pending` orders, return and exchange only
//! `delivered` ones, refunds only to the original payment method or the
//! user's gift card, swaps only to an available variant of the same
//! product, compensation handed to a human, one change call per order. A
//! broken rule is refused with its reason code. The request kind and its
//! outcome are drawn first (refusals with a fixed share `refuse_share`) and
//! the named order and variants set to force it.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `find_user`,
//! `get_user`, `get_order`, `get_product` (reads), `cancel_pending_order`,
//! `modify_pending_order_items`, `return_delivered_order_items`,
//! `exchange_delivered_order_items`, `update_order_address` (changes,
//! carried out whatever the policy says, as a real back office would), and
//! the closing calls `complete_request`, `refuse` and `transfer_to_human`.
//! Unparseable calls and bad arguments are [`crate::InvalidAction`]s;
//! unknown orders, items and payment methods are error results.
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
//! 1 and `passed` only when the store's final state (every order's status,
//! items, address, returns and exchanges, every gift card balance, every
//! refund and charge) equals the state the policy leads to, no change was
//! made before `find_user` found the user, and the closing call is the
//! policy's: `complete_request` after an allowed change, `refuse` with the
//! first broken rule's reason, or `transfer_to_human` for compensation; each
//! names the user's id, which only `find_user` gives (so a constant closing
//! call never passes). A forbidden cancellation, refund, exchange or
//! address change fails even when the user asked for it, and so does a
//! refusal of an allowed request or a second change call on the order.
//! Breakdown: `state_correct`, `closing_correct`, `authenticated_first`.
//!
//! # Episode end
//! The first closing call (terminated); the step cap truncates (score as it
//! stands, which is 0 without a closing call).
//!
//! # Parameters
//! `users` (2..=30), `orders_per_user` (1..=5), `products` (3..=12),
//! `max_items` (1..=4, items per order), `refuse_share` (0..=0.6).
//!
//! # Seeding
//! The store, the request and its wording come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! closing at once with any reason or by either other closing call, and
//! carrying out a refused request, fail).
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
mod task;
#[cfg(test)]
mod tests;
mod tools;

pub use task::{
    Entry, Item, Op, Order, Outcome, PayKind, Payment, Product, Request, RetailConfig, RetailTask,
    Status, Store, User, Variant,
};

pub use tools::TOOLS;

use task::{POLICY, REASONS, doing_calls};

/// The running desk: the task's store (the part the tools change) and
/// the few facts it scores with.
pub type Retail = UserDesk<Store>;

impl DeskWorld for Store {
    type Op = Op;
    type Task = RetailTask;

    fn apply(&mut self, op: &Op) {
        Store::apply(self, op);
    }

    fn user_by_email(&self, email: &str) -> Option<&str> {
        (self.users.iter())
            .find(|u| u.email.eq_ignore_ascii_case(email))
            .map(|u| u.id.as_str())
    }

    fn tools() -> &'static [ToolSpec] {
        &TOOLS
    }

    fn outcome(task: &RetailTask) -> &Outcome {
        &task.expected
    }

    fn run(desk: &mut Retail, call: &ToolCall) -> Result<String, ToolError> {
        desk.run(call)
    }
}

/// The agent's role and policy.
const DESK: Desk = Desk {
    role: "You are an online store's customer-support agent.",
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

impl Env for Retail {
    type Config = RetailConfig;
    type Task = RetailTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/retail-v1",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound store support desk in the manner of tau-bench retail: cancel, modify, return, exchange or re-address orders by the rules, refuse, or hand over; scored on the final database state",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Seven levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"users":2,"orders_per_user":1,"products":3,"max_items":1}"#,
        r#"{"users":3,"orders_per_user":2,"products":4,"max_items":2}"#,
        r#"{"users":4,"orders_per_user":2,"products":5,"max_items":2}"#,
        r#"{}"#,
        r#"{"users":10,"orders_per_user":3,"products":8,"max_items":3}"#,
        r#"{"users":14,"orders_per_user":4,"products":10,"max_items":4}"#,
        r#"{"users":20,"orders_per_user":5,"products":12,"max_items":4}"#,
    ];

    fn effort(task: &RetailTask) -> Option<f64> {
        let s = &task.store;
        let variants: usize = s.products.iter().map(|p| p.variants.len()).sum();
        let items: usize = s.orders.iter().map(|o| o.items.len()).sum();
        tool_effort::<Self>(s.users.len() + variants + items, task)
    }

    fn validate(config: &RetailConfig) -> Result<(), ConfigError> {
        if !(2..=30).contains(&config.users) {
            return Err("users must be in 2..=30".into());
        }
        if !(1..=5).contains(&config.orders_per_user) {
            return Err("orders_per_user must be in 1..=5".into());
        }
        if !(3..=12).contains(&config.products) {
            return Err("products must be in 3..=12".into());
        }
        if !(1..=4).contains(&config.max_items) {
            return Err("max_items must be in 1..=4".into());
        }
        if !(0.0..=0.6).contains(&config.refuse_share) {
            return Err("refuse_share must be in 0..=0.6".into());
        }
        Ok(())
    }

    fn generate(config: &RetailConfig, rng: &mut Rng) -> RetailTask {
        draw_screened::<Retail>(|| Some(generate::draw(config, rng)), degenerate_scripts)
    }

    fn reference(task: &RetailTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &RetailTask, _rng: Rng) -> Self {
        UserDesk::new(DeskStart {
            world: &task.store,
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
        let s = &self.world;
        let mut any = |n: usize| rng.below(n as u64) as usize;
        let order = &s.orders[any(s.orders.len())];
        let item = &order.items[any(order.items.len())].item_id;
        let product = &s.products[any(s.products.len())];
        let new = &product.variants[any(product.variants.len())].item_id;
        let user = &s.users[any(s.users.len())];
        let method = &user.payments[any(user.payments.len())].id;
        let email = if any(2) == 0 {
            &self.caller_email
        } else {
            &user.email
        };
        let stranger = format!("U-{}", rng.range_i64(10000, 99999));
        let (o, i) = (&order.id, item);
        let call = match rng.below(13) {
            0 => ToolCall::new("find_user", json!({"email": email})),
            1 => ToolCall::new("get_user", json!({"user_id": user.id})),
            2 => ToolCall::new("get_order", json!({"order_id": o})),
            3 => ToolCall::new("get_product", json!({"product_id": product.id})),
            4 => ToolCall::new("cancel_pending_order", json!({"order_id": o})),
            5 => ToolCall::new(
                "modify_pending_order_items",
                json!({"order_id": o, "item_ids": i, "new_item_ids": new}),
            ),
            6 => ToolCall::new(
                "return_delivered_order_items",
                json!({"order_id": o, "item_ids": i, "payment_method_id": method}),
            ),
            7 => ToolCall::new(
                "exchange_delivered_order_items",
                json!({"order_id": o, "item_ids": i, "new_item_ids": new}),
            ),
            8 => ToolCall::new(
                "update_order_address",
                json!({"order_id": o, "address": user.address}),
            ),
            9 | 10 => ToolCall::new("complete_request", json!({"user_id": stranger})),
            11 => ToolCall::new("transfer_to_human", json!({"user_id": stranger})),
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
/// policy's closing, and carrying out a refused request as asked.
fn degenerate_scripts(task: &RetailTask) -> Vec<Vec<String>> {
    let caller = &task.caller().id;
    let close = |name: &str| call_text(name, json!({"user_id": caller}));
    let mut scripts = wrong_refusals(&REASONS, task.expected.refusal(), "user_id", caller);
    let find = call_text("find_user", json!({"email": task.caller().email}));
    for name in ["complete_request", "transfer_to_human"] {
        scripts.push(vec![close(name)]);
        // A change before find_user always fails (`authenticated_first`),
        // and looking up alone changes nothing: neither is screened.
        if let Some(doing) = doing_calls(&task.request) {
            scripts.push(vec![find.clone(), doing, close(name)]);
        }
    }
    // The right episodes (without their reads) stay out of the screen.
    let right: Vec<Vec<String>> = match &task.expected {
        Outcome::Do(_) => vec![vec![
            find.clone(),
            doing_calls(&task.request).unwrap_or_default(),
            close("complete_request"),
        ]],
        Outcome::Transfer => vec![
            vec![close("transfer_to_human")],
            vec![find, close("transfer_to_human")],
        ],
        Outcome::Refuse(_) => Vec::new(),
    };
    scripts.retain(|s| !right.contains(s));
    scripts
}
