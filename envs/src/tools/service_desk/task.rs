//! The config, task and refund policy of `tools/service-desk`: the desk's
//! records, the policy's decision, and the reference calls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

/// Refunds above this go to a human.
pub(crate) const HUMAN_LIMIT: i64 = 500;
pub(crate) const REFUSALS: [&str; 4] = [
    "not_delivered",
    "outside_window",
    "final_sale",
    "no_such_order",
];

pub(crate) const POLICY: &str = "Refund policy:\n\
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
    pub(super) fn kind(&self) -> &'static str {
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

impl ServiceDeskTask {
    pub(super) fn caller(&self) -> &Customer {
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
pub(crate) fn decide(order: Option<&Order>, damaged: bool) -> Resolution {
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

/// The reference calls for a task: look up, read the order, ask the reason,
/// confirm a refund, resolve.
pub(super) fn gold_calls(task: &ServiceDeskTask) -> Vec<String> {
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
