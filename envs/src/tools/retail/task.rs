//! The config, database, requests and policy of `tools/retail`: the store's
//! records and their five changes (shared by the tools and the expected
//! final state), the policy's decision, and the reference calls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

/// The refusal reasons, in the order the policy checks its rules.
pub(crate) const REASONS: [&str; 6] = [
    "not_owner",
    "not_pending",
    "not_delivered",
    "refund_method_not_allowed",
    "different_product",
    "out_of_stock",
];

pub(crate) const POLICY: &str = "Store policy:\n\
1. Authenticate first: look the user up with find_user by their email before any change. Act only on the user's own orders: a request about another user's order is refused with `not_owner`.\n\
2. Only a `pending` order may be cancelled, have its items modified or its shipping address changed; otherwise refuse with `not_pending`.\n\
3. Only a `delivered` order may have items returned or exchanged; otherwise refuse with `not_delivered`.\n\
4. A return's refund goes to the order's original payment method or to one of the user's own gift cards; any other method is refused with `refund_method_not_allowed`.\n\
5. Items are modified or exchanged only for another variant of the same product (the product's item ids are in get_product): another product is refused with `different_product`, and a variant that is not available with `out_of_stock`.\n\
6. Compensation and price matching are not handled here: transfer_to_human with the user's id.\n\
7. Check the rules in this order and refuse with the first one broken; a refused request changes nothing. Otherwise make exactly one change call for the order, covering every item asked about (price differences settle on the order's payment method by themselves), then call complete_request with the user's id. Refuse with refuse(reason, the user's id).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PayKind {
    CreditCard,
    GiftCard,
    Paypal,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    pub id: String,
    pub kind: PayKind,
    /// How the user names it: `credit card ending 4821`, `gift card`, `PayPal`.
    pub label: String,
    /// Gift cards only (0 for the others).
    pub balance: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub name: String,
    pub email: String,
    pub address: String,
    pub payments: Vec<Payment>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    pub item_id: String,
    /// `color: red, size: M`.
    pub options: String,
    pub price: i64,
    pub available: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub id: String,
    pub name: String,
    pub variants: Vec<Variant>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub item_id: String,
    pub product_id: String,
    pub name: String,
    pub options: String,
    pub price: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pending,
    Processed,
    Delivered,
    Cancelled,
    ReturnRequested,
    ExchangeRequested,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub id: String,
    pub user: String,
    pub status: Status,
    pub items: Vec<Item>,
    /// The payment method id it was paid with.
    pub payment: String,
    pub address: String,
    /// Item ids whose return was requested.
    pub returns: Vec<String>,
    /// (old item id, new item id) of requested exchanges.
    pub exchanges: Vec<(String, String)>,
}

/// One money movement: a refund (positive) or a charge (negative).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub order: String,
    pub method: String,
    pub amount: i64,
}

/// The store's records: what the tools read and change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Store {
    pub users: Vec<User>,
    pub products: Vec<Product>,
    pub orders: Vec<Order>,
    pub ledger: Vec<Entry>,
}

/// Item ids written as a list, or one string of ids split by commas or
/// spaces; upper-cased.
pub(crate) fn id_list(text: &str) -> Vec<String> {
    text.split(|c: char| c == ',' || c.is_whitespace() || c == '[' || c == ']' || c == '"')
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// Addresses compare with runs of white space as one space and no
/// trailing full stop.
pub(crate) fn clean_address(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches('.')
        .to_string()
}

impl Store {
    pub(crate) fn order(&self, id: &str) -> Option<&Order> {
        self.orders.iter().find(|o| o.id == id)
    }

    pub(crate) fn user(&self, id: &str) -> Option<&User> {
        self.users.iter().find(|u| u.id == id)
    }

    pub(crate) fn product(&self, id: &str) -> Option<&Product> {
        self.products.iter().find(|p| p.id == id)
    }

    /// The product and variant of an item id.
    pub(crate) fn variant(&self, item: &str) -> Option<(&Product, &Variant)> {
        self.products.iter().find_map(|p| {
            p.variants
                .iter()
                .find(|v| v.item_id == item)
                .map(|v| (p, v))
        })
    }

    /// Books `amount` to `method` (refund positive, charge negative); a
    /// gift card's balance follows. Zero amounts book nothing.
    fn book(&mut self, order: &str, method: &str, amount: i64) {
        if amount == 0 {
            return;
        }
        for p in self.users.iter_mut().flat_map(|u| u.payments.iter_mut()) {
            if p.id == method && p.kind == PayKind::GiftCard {
                p.balance += amount;
            }
        }
        self.ledger.push(Entry {
            order: order.into(),
            method: method.into(),
            amount,
        });
    }

    fn order_mut(&mut self, id: &str) -> Option<&mut Order> {
        self.orders.iter_mut().find(|o| o.id == id)
    }

    /// Applies `op` as the tools would (the ids exist; the tools check).
    pub(crate) fn apply(&mut self, op: &Op) {
        match op {
            Op::Cancel { order } => {
                let Some(o) = self.order_mut(order) else {
                    return;
                };
                o.status = Status::Cancelled;
                let (total, method) = (o.items.iter().map(|i| i.price).sum(), o.payment.clone());
                self.book(order, &method, total);
            }
            Op::Modify { order, swaps } | Op::Exchange { order, swaps } => {
                let exchange = matches!(op, Op::Exchange { .. });
                let news: Vec<Item> = swaps
                    .iter()
                    .filter_map(|(_, new)| {
                        self.variant(new).map(|(p, v)| Item {
                            item_id: v.item_id.clone(),
                            product_id: p.id.clone(),
                            name: p.name.clone(),
                            options: v.options.clone(),
                            price: v.price,
                        })
                    })
                    .collect();
                let Some(o) = self.order_mut(order) else {
                    return;
                };
                let mut difference = 0;
                for ((old, _), new) in swaps.iter().zip(news) {
                    let Some(at) = o.items.iter().position(|i| &i.item_id == old) else {
                        continue;
                    };
                    difference += o.items[at].price - new.price;
                    if exchange {
                        o.exchanges.push((old.clone(), new.item_id.clone()));
                    } else {
                        o.items[at] = new;
                    }
                }
                if exchange {
                    o.status = Status::ExchangeRequested;
                }
                let method = o.payment.clone();
                self.book(order, &method, difference);
            }
            Op::Return {
                order,
                items,
                method,
            } => {
                let Some(o) = self.order_mut(order) else {
                    return;
                };
                let total = o
                    .items
                    .iter()
                    .filter(|i| items.contains(&i.item_id))
                    .map(|i| i.price)
                    .sum();
                o.returns.extend(items.iter().cloned());
                o.status = Status::ReturnRequested;
                self.book(order, method, total);
            }
            Op::Address { order, address } => {
                if let Some(o) = self.order_mut(order) {
                    o.address = clean_address(address);
                }
            }
        }
    }
}

/// What the user asks for (items already resolved to ids).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    Cancel {
        order: String,
    },
    Modify {
        order: String,
        swaps: Vec<(String, String)>,
    },
    Return {
        order: String,
        items: Vec<String>,
        method: String,
    },
    Exchange {
        order: String,
        swaps: Vec<(String, String)>,
    },
    Address {
        order: String,
        address: String,
    },
    Compensation {
        order: String,
    },
}

impl Request {
    pub(crate) fn order(&self) -> &str {
        match self {
            Request::Cancel { order }
            | Request::Modify { order, .. }
            | Request::Return { order, .. }
            | Request::Exchange { order, .. }
            | Request::Address { order, .. }
            | Request::Compensation { order } => order,
        }
    }
}

/// A change the store makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Cancel {
        order: String,
    },
    Modify {
        order: String,
        swaps: Vec<(String, String)>,
    },
    Return {
        order: String,
        items: Vec<String>,
        method: String,
    },
    Exchange {
        order: String,
        swaps: Vec<(String, String)>,
    },
    Address {
        order: String,
        address: String,
    },
}

/// The policy's outcome: the change to make, a refusal, or a hand-over.
pub type Outcome = crate::tools::user_desk::Outcome<Op>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetailConfig {
    pub users: usize,
    pub orders_per_user: usize,
    pub products: usize,
    pub max_items: usize,
    pub refuse_share: f64,
}

impl Default for RetailConfig {
    fn default() -> Self {
        RetailConfig {
            users: 6,
            orders_per_user: 2,
            products: 6,
            max_items: 3,
            refuse_share: 0.25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RetailTask {
    pub store: Store,
    /// The user writing in (index into `store.users`).
    pub caller: usize,
    pub request: Request,
    /// The user's message.
    pub opening: String,
    /// The policy's outcome.
    pub expected: Outcome,
    /// The reference calls, the closing call last.
    pub gold: Vec<String>,
}

impl RetailTask {
    pub(super) fn caller(&self) -> &User {
        &self.store.users[self.caller]
    }
}

/// Rule 5 for a list of swaps: the first broken check, if any.
fn swap_refusal(store: &Store, swaps: &[(String, String)]) -> Option<&'static str> {
    let product_of = |item: &str| store.variant(item).map(|(p, _)| p.id.clone());
    if swaps
        .iter()
        .any(|(old, new)| product_of(old) != product_of(new) || old == new)
    {
        return Some("different_product");
    }
    let out = |new: &String| store.variant(new).is_none_or(|(_, v)| !v.available);
    swaps
        .iter()
        .any(|(_, new)| out(new))
        .then_some("out_of_stock")
}

/// The policy's outcome for `caller`'s request on `store`.
pub(crate) fn decide(store: &Store, caller: &str, request: &Request) -> Outcome {
    let refuse = |reason: &str| Outcome::Refuse(reason.into());
    let Some(order) = store.order(request.order()).filter(|o| o.user == caller) else {
        return refuse("not_owner");
    };
    let pending = order.status == Status::Pending;
    let delivered = order.status == Status::Delivered;
    let op = match request {
        Request::Compensation { .. } => return Outcome::Transfer,
        Request::Cancel { .. } | Request::Modify { .. } | Request::Address { .. } if !pending => {
            return refuse("not_pending");
        }
        Request::Return { .. } | Request::Exchange { .. } if !delivered => {
            return refuse("not_delivered");
        }
        Request::Cancel { order } => Op::Cancel {
            order: order.clone(),
        },
        Request::Address { order, address } => Op::Address {
            order: order.clone(),
            address: address.clone(),
        },
        Request::Return {
            order,
            items,
            method,
        } => {
            let gift = store.user(caller).is_some_and(|u| {
                u.payments
                    .iter()
                    .any(|p| &p.id == method && p.kind == PayKind::GiftCard)
            });
            if method != &order_payment(store, order) && !gift {
                return refuse("refund_method_not_allowed");
            }
            Op::Return {
                order: order.clone(),
                items: items.clone(),
                method: method.clone(),
            }
        }
        Request::Modify { order, swaps } | Request::Exchange { order, swaps } => {
            if let Some(reason) = swap_refusal(store, swaps) {
                return refuse(reason);
            }
            let (order, swaps) = (order.clone(), swaps.clone());
            match request {
                Request::Modify { .. } => Op::Modify { order, swaps },
                _ => Op::Exchange { order, swaps },
            }
        }
    };
    Outcome::Do(op)
}

fn order_payment(store: &Store, order: &str) -> String {
    store
        .order(order)
        .map(|o| o.payment.clone())
        .unwrap_or_default()
}

/// The calls that carry `request` out as asked (the change call only).
pub(crate) fn doing_calls(request: &Request) -> Option<String> {
    let joined = |ids: &mut dyn Iterator<Item = &String>| {
        ids.map(String::as_str).collect::<Vec<_>>().join(",")
    };
    Some(match request {
        Request::Cancel { order } => call_text("cancel_pending_order", json!({"order_id": order})),
        Request::Modify { order, swaps } | Request::Exchange { order, swaps } => {
            let name = match request {
                Request::Modify { .. } => "modify_pending_order_items",
                _ => "exchange_delivered_order_items",
            };
            call_text(
                name,
                json!({
                    "order_id": order,
                    "item_ids": joined(&mut swaps.iter().map(|s| &s.0)),
                    "new_item_ids": joined(&mut swaps.iter().map(|s| &s.1)),
                }),
            )
        }
        Request::Return {
            order,
            items,
            method,
        } => call_text(
            "return_delivered_order_items",
            json!({"order_id": order, "item_ids": joined(&mut items.iter()), "payment_method_id": method}),
        ),
        Request::Address { order, address } => call_text(
            "update_order_address",
            json!({"order_id": order, "address": address}),
        ),
        Request::Compensation { .. } => return None,
    })
}

/// The reference calls: authenticate, read the order (and the user's
/// payment methods for a return, the product for a swap), act, close.
pub(super) fn gold_calls(task: &RetailTask) -> Vec<String> {
    let caller = &task.caller().id;
    let store = &task.store;
    let mut gold = vec![
        call_text("find_user", json!({"email": task.caller().email})),
        call_text("get_order", json!({"order_id": task.request.order()})),
    ];
    let reached = |reasons: &[&str]| match &task.expected {
        Outcome::Refuse(r) => !reasons.contains(&r.as_str()),
        _ => true,
    };
    match &task.request {
        Request::Return { .. } if reached(&["not_owner", "not_delivered"]) => {
            gold.push(call_text("get_user", json!({"user_id": caller})));
        }
        Request::Modify { swaps, .. } | Request::Exchange { swaps, .. }
            if reached(&[
                "not_owner",
                "not_pending",
                "not_delivered",
                "different_product",
            ]) =>
        {
            let mut seen = Vec::new();
            for (old, _) in swaps {
                if let Some((p, _)) = store.variant(old).filter(|(p, _)| !seen.contains(&p.id)) {
                    seen.push(p.id.clone());
                    gold.push(call_text("get_product", json!({"product_id": p.id})));
                }
            }
        }
        _ => {}
    }
    match &task.expected {
        Outcome::Do(_) => {
            gold.extend(doing_calls(&task.request));
            gold.push(call_text("complete_request", json!({"user_id": caller})));
        }
        Outcome::Refuse(reason) => gold.push(call_text(
            "refuse",
            json!({"reason": reason, "user_id": caller}),
        )),
        Outcome::Transfer => gold.push(call_text("transfer_to_human", json!({"user_id": caller}))),
    }
    gold
}
