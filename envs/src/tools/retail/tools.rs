//! The tools of `tools/retail`: their specs and what each call does to the
//! running store.

use std::sync::LazyLock;

use serde_json::{Value, json};

use super::Retail;
use super::task::{Item, Op, PayKind, REASONS, clean_address, id_list};
use crate::toolkit::calls::ToolCall;
use crate::toolkit::spec::{Param, ParamType, ToolSpec};
use crate::toolkit::tool_env::ToolError;
use crate::tools::policy_desk::closing_tools;
use crate::tools::user_desk::find_user_tool;

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let order = || Param::required("order_id", ParamType::String, "order id like O-12345");
    let user = || Param::required("user_id", ParamType::String, "the user's id like U-12345");
    let items = |name: &str, what: &str| Param::required(name, ParamType::String, what);
    let old = || {
        items(
            "item_ids",
            "the order's item ids, comma-separated, like I-12345,I-23456",
        )
    };
    let new = || {
        items(
            "new_item_ids",
            "the new variants' item ids, comma-separated, in the same order",
        )
    };
    let mut tools = vec![
        find_user_tool(),
        ToolSpec::new(
            "get_user",
            "a user's name, address, payment methods (id, kind, gift card balance) and order ids",
            vec![user()],
        ),
        ToolSpec::new(
            "get_order",
            "an order's owner, status, items (item id, product id, options, price), payment method and address",
            vec![order()],
        ),
        ToolSpec::new(
            "get_product",
            "a product's variants: item id, options, price, availability",
            vec![Param::required(
                "product_id",
                ParamType::String,
                "product id like P-12345",
            )],
        ),
        ToolSpec::new(
            "cancel_pending_order",
            "cancel an order; the total is refunded to its payment method",
            vec![order()],
        ),
        ToolSpec::new(
            "modify_pending_order_items",
            "replace items of an order by other variants; the price difference settles on its payment method",
            vec![order(), old(), new()],
        ),
        ToolSpec::new(
            "return_delivered_order_items",
            "request the return of items of an order; their price is refunded to the payment method",
            vec![
                order(),
                old(),
                Param::required(
                    "payment_method_id",
                    ParamType::String,
                    "payment method id like PM-12345",
                ),
            ],
        ),
        ToolSpec::new(
            "exchange_delivered_order_items",
            "request the exchange of items of an order for other variants; the price difference settles on its payment method",
            vec![order(), old(), new()],
        ),
        ToolSpec::new(
            "update_order_address",
            "change an order's shipping address",
            vec![
                order(),
                Param::required("address", ParamType::String, "the full new address"),
            ],
        ),
    ];
    tools.extend(closing_tools(&REASONS, user, true));
    tools
});

fn item_json(i: &Item) -> Value {
    json!({"item_id": i.item_id, "product_id": i.product_id, "name": i.name, "options": i.options, "price": i.price})
}

impl Retail {
    /// The order and the swaps of a modify or exchange call, checked for
    /// existence (not for the policy).
    fn swaps(&self, call: &ToolCall) -> Result<(String, Vec<(String, String)>), ToolError> {
        let order = self.known_items(call)?;
        let (old, new) = (
            id_list(call.str("item_ids")),
            id_list(call.str("new_item_ids")),
        );
        if old.len() != new.len() {
            return Err("error: item_ids and new_item_ids differ in length".into());
        }
        if let Some(bad) = new.iter().find(|n| self.world.variant(n).is_none()) {
            return Err(format!("error: no item {bad}").into());
        }
        Ok((order, old.into_iter().zip(new).collect()))
    }

    /// The order of a call whose `item_ids` must be distinct items of it.
    fn known_items(&self, call: &ToolCall) -> Result<String, ToolError> {
        let id = call.str("order_id").trim().to_ascii_uppercase();
        let order = self.world.order(&id).ok_or("error: no such order")?;
        let items = id_list(call.str("item_ids"));
        if items.is_empty() {
            return Err("error: no item ids given".into());
        }
        for (k, item) in items.iter().enumerate() {
            if !order.items.iter().any(|i| &i.item_id == item) || items[..k].contains(item) {
                return Err(
                    format!("error: item {item} is not in the order (or given twice)").into(),
                );
            }
        }
        Ok(id)
    }

    fn change(&mut self, op: Op) -> String {
        self.apply_change(&op);
        let status = match op {
            Op::Cancel { .. } => "cancelled",
            Op::Modify { .. } => "modified",
            Op::Return { .. } => "return requested",
            Op::Exchange { .. } => "exchange requested",
            Op::Address { .. } => "address updated",
        };
        json!({"status": status}).to_string()
    }

    /// Runs one call: its result, or the error result (nothing changed).
    pub(super) fn run(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let id = |key: &str| call.str(key).trim().to_ascii_uppercase();
        let store = &self.world;
        Ok(match call.name.as_str() {
            "find_user" => self.find_user(call)?,
            "get_user" => {
                let user = store.user(&id("user_id")).ok_or("error: no such user")?;
                let payments: Vec<Value> = user
                    .payments
                    .iter()
                    .map(|p| match p.kind {
                        PayKind::GiftCard => json!({"payment_method_id": p.id, "kind": p.kind, "label": p.label, "balance": p.balance}),
                        _ => json!({"payment_method_id": p.id, "kind": p.kind, "label": p.label}),
                    })
                    .collect();
                let orders: Vec<&str> = store
                    .orders
                    .iter()
                    .filter(|o| o.user == user.id)
                    .map(|o| o.id.as_str())
                    .collect();
                json!({"user_id": user.id, "name": user.name, "address": user.address,
                    "payment_methods": payments, "orders": orders})
                .to_string()
            }
            "get_order" => {
                let o = store.order(&id("order_id")).ok_or("error: no such order")?;
                json!({"order_id": o.id, "user_id": o.user, "status": o.status,
                    "items": o.items.iter().map(item_json).collect::<Vec<_>>(),
                    "payment_method_id": o.payment, "address": o.address,
                    "returns": o.returns, "exchanges": o.exchanges})
                .to_string()
            }
            "get_product" => {
                let p = store
                    .product(&id("product_id"))
                    .ok_or("error: no such product")?;
                let variants: Vec<Value> = p
                    .variants
                    .iter()
                    .map(|v| json!({"item_id": v.item_id, "options": v.options, "price": v.price, "available": v.available}))
                    .collect();
                json!({"product_id": p.id, "name": p.name, "variants": variants}).to_string()
            }
            "cancel_pending_order" => {
                let order = id("order_id");
                store.order(&order).ok_or("error: no such order")?;
                self.change(Op::Cancel { order })
            }
            "modify_pending_order_items" => {
                let (order, swaps) = self.swaps(call)?;
                self.change(Op::Modify { order, swaps })
            }
            "exchange_delivered_order_items" => {
                let (order, swaps) = self.swaps(call)?;
                self.change(Op::Exchange { order, swaps })
            }
            "return_delivered_order_items" => {
                let order = self.known_items(call)?;
                let method = id("payment_method_id");
                if !store
                    .users
                    .iter()
                    .flat_map(|u| &u.payments)
                    .any(|p| p.id == method)
                {
                    return Err("error: no such payment method".into());
                }
                let items = id_list(call.str("item_ids"));
                self.change(Op::Return {
                    order,
                    items,
                    method,
                })
            }
            "update_order_address" => {
                let order = id("order_id");
                store.order(&order).ok_or("error: no such order")?;
                let address = clean_address(call.str("address"));
                if address.is_empty() {
                    return Err("error: the address is empty".into());
                }
                self.change(Op::Address { order, address })
            }
            other => return Err(format!("error: no tool {other}").into()),
        })
    }
}
