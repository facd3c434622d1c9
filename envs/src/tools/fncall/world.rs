//! The world behind `tools/fncall`'s generated APIs: five modules of state,
//! the operations on them, and how a generated function maps onto an
//! operation.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::toolkit::calls::ToolCall;
use crate::toolkit::spec::{Param, ParamType, ToolSpec};
use crate::toolkit::tool_env::ToolError;

/// Every module's state. Tasks include only some modules' functions, but the
/// whole world is always there (so an excluded module's request really
/// cannot be done).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    pub accounts: BTreeMap<String, i64>,
    pub rooms: BTreeMap<String, i64>,
    pub lists: BTreeMap<String, Vec<String>>,
    pub stock: BTreeMap<String, i64>,
    pub contacts: Vec<String>,
    /// Sent messages as (recipient, text), in order.
    pub outbox: Vec<(String, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Module {
    Bank,
    Climate,
    Lists,
    Inventory,
    Messages,
}

pub const MODULES: [Module; 5] = [
    Module::Bank,
    Module::Climate,
    Module::Lists,
    Module::Inventory,
    Module::Messages,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Transfer,
    GetBalance,
    SetTemperature,
    GetTemperature,
    AddItem,
    RemoveItem,
    Restock,
    GetStock,
    SendMessage,
}

/// One argument slot of an operation: name synonyms, type, description.
struct Slot {
    names: [&'static str; 3],
    ty: ParamType,
    description: &'static str,
}

const fn slot(names: [&'static str; 3], ty: ParamType, description: &'static str) -> Slot {
    Slot {
        names,
        ty,
        description,
    }
}

const ACCOUNT_FROM: Slot = slot(
    ["source", "from_account", "debit_account"],
    ParamType::String,
    "account to take money from",
);
const ACCOUNT_TO: Slot = slot(
    ["target", "to_account", "credit_account"],
    ParamType::String,
    "account to pay into",
);
const AMOUNT: Slot = slot(
    ["amount", "value", "sum"],
    ParamType::Integer,
    "whole currency units, positive",
);
const ACCOUNT: Slot = slot(
    ["account", "account_name", "acct"],
    ParamType::String,
    "account name",
);
const ROOM: Slot = slot(["room", "zone", "area"], ParamType::String, "room name");
const CELSIUS: Slot = slot(
    ["celsius", "temperature", "degrees"],
    ParamType::Integer,
    "target in whole degrees Celsius, 10 to 30",
);
const LIST: Slot = slot(
    ["list", "list_name", "collection"],
    ParamType::String,
    "list name",
);
const ITEM: Slot = slot(
    ["item", "entry", "text"],
    ParamType::String,
    "the item, exactly",
);
const SKU: Slot = slot(
    ["sku", "product_code", "item_id"],
    ParamType::String,
    "product code like SKU-1234",
);
const QUANTITY: Slot = slot(
    ["quantity", "units", "count"],
    ParamType::Integer,
    "units to add, positive",
);
const RECIPIENT: Slot = slot(
    ["recipient", "to", "contact"],
    ParamType::String,
    "contact name",
);
const BODY: Slot = slot(
    ["text", "message", "body"],
    ParamType::String,
    "the message, exactly",
);

impl Op {
    pub fn module(self) -> Module {
        match self {
            Op::Transfer | Op::GetBalance => Module::Bank,
            Op::SetTemperature | Op::GetTemperature => Module::Climate,
            Op::AddItem | Op::RemoveItem => Module::Lists,
            Op::Restock | Op::GetStock => Module::Inventory,
            Op::SendMessage => Module::Messages,
        }
    }

    pub fn of(module: Module) -> &'static [Op] {
        match module {
            Module::Bank => &[Op::Transfer, Op::GetBalance],
            Module::Climate => &[Op::SetTemperature, Op::GetTemperature],
            Module::Lists => &[Op::AddItem, Op::RemoveItem],
            Module::Inventory => &[Op::Restock, Op::GetStock],
            Module::Messages => &[Op::SendMessage],
        }
    }

    fn names(self) -> [&'static str; 3] {
        match self {
            Op::Transfer => ["transfer_funds", "move_money", "send_transfer"],
            Op::GetBalance => ["get_balance", "check_balance", "account_balance"],
            Op::SetTemperature => ["set_temperature", "set_thermostat", "adjust_heating"],
            Op::GetTemperature => ["get_temperature", "read_thermostat", "current_setpoint"],
            Op::AddItem => ["add_item", "append_to_list", "add_entry"],
            Op::RemoveItem => ["remove_item", "delete_from_list", "drop_entry"],
            Op::Restock => ["restock", "add_stock", "increase_inventory"],
            Op::GetStock => ["get_stock", "check_inventory", "stock_level"],
            Op::SendMessage => ["send_message", "notify_contact", "post_message"],
        }
    }

    fn description(self) -> &'static str {
        match self {
            Op::Transfer => "move money between two accounts",
            Op::GetBalance => "the current balance of an account",
            Op::SetTemperature => "set a room's thermostat",
            Op::GetTemperature => "a room's current thermostat setting",
            Op::AddItem => "append an item to a list",
            Op::RemoveItem => "remove an item from a list",
            Op::Restock => "add units of a product to the stock",
            Op::GetStock => "units of a product in stock",
            Op::SendMessage => "send a text message to a contact",
        }
    }

    fn slots(self) -> &'static [Slot] {
        match self {
            Op::Transfer => &[ACCOUNT_FROM, ACCOUNT_TO, AMOUNT],
            Op::GetBalance => &[ACCOUNT],
            Op::SetTemperature => &[ROOM, CELSIUS],
            Op::GetTemperature => &[ROOM],
            Op::AddItem | Op::RemoveItem => &[LIST, ITEM],
            Op::Restock => &[SKU, QUANTITY],
            Op::GetStock => &[SKU],
            Op::SendMessage => &[RECIPIENT, BODY],
        }
    }

    pub fn mutates(self) -> bool {
        !matches!(self, Op::GetBalance | Op::GetTemperature | Op::GetStock)
    }
}

/// A generated function: an operation under a drawn name and argument names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiFn {
    pub op: Op,
    pub name: String,
    /// Argument names in the operation's slot order.
    pub params: Vec<String>,
}

impl ApiFn {
    /// Draws the function's names with `pick(n)` choosing among n synonyms.
    pub(crate) fn draw(op: Op, mut pick: impl FnMut(usize) -> usize) -> Self {
        let names = op.names();
        ApiFn {
            op,
            name: names[pick(names.len())].to_string(),
            params: op
                .slots()
                .iter()
                .map(|s| s.names[pick(3)].to_string())
                .collect(),
        }
    }

    pub fn spec(&self) -> ToolSpec {
        let params = self
            .params
            .iter()
            .zip(self.op.slots())
            .map(|(name, s)| Param::required(name, s.ty, s.description))
            .collect();
        ToolSpec::new(&self.name, self.op.description(), params)
    }

    /// A call of this function with values in slot order.
    pub(crate) fn call(&self, values: &[Value]) -> ToolCall {
        ToolCall {
            name: self.name.clone(),
            args: self
                .params
                .iter()
                .cloned()
                .zip(values.iter().cloned())
                .collect(),
        }
    }

    /// The call's values in slot order.
    pub(crate) fn values(&self, call: &ToolCall) -> Vec<Value> {
        self.params
            .iter()
            .map(|p| call.args.get(p).cloned().unwrap_or(Value::Null))
            .collect()
    }
}

fn unknown(kind: &str, name: &str, known: impl Iterator<Item = String>) -> ToolError {
    let known: Vec<String> = known.collect();
    format!(
        "error: no {kind} named {name:?}; known: {}",
        known.join(", ")
    )
    .into()
}

/// Runs an operation; an error changes nothing.
pub(crate) fn execute(world: &mut World, op: Op, values: &[Value]) -> Result<String, ToolError> {
    let s = |i: usize| {
        values
            .get(i)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let n = |i: usize| values.get(i).and_then(Value::as_i64).unwrap_or(0);
    match op {
        Op::Transfer => {
            let (from, to, amount) = (s(0), s(1), n(2));
            let Some(&have) = world.accounts.get(&from) else {
                return Err(unknown("account", &from, world.accounts.keys().cloned()));
            };
            if !world.accounts.contains_key(&to) {
                return Err(unknown("account", &to, world.accounts.keys().cloned()));
            }
            if from == to || amount <= 0 {
                return Err("error: need two different accounts and a positive amount".into());
            }
            if amount > have {
                return Err(format!("error: insufficient funds in {from}").into());
            }
            *world.accounts.get_mut(&from).expect("checked") -= amount;
            *world.accounts.get_mut(&to).expect("checked") += amount;
            Ok(format!(
                "{{\"status\": \"ok\", \"{from}\": {}, \"{to}\": {}}}",
                world.accounts[&from], world.accounts[&to]
            ))
        }
        Op::GetBalance => world
            .accounts
            .get(&s(0))
            .map(|b| format!("{{\"balance\": {b}}}"))
            .ok_or_else(|| unknown("account", &s(0), world.accounts.keys().cloned())),
        Op::SetTemperature => {
            let (room, celsius) = (s(0), n(1));
            if !(10..=30).contains(&celsius) {
                return Err("error: celsius must be between 10 and 30".into());
            }
            match world.rooms.get_mut(&room) {
                Some(t) => {
                    *t = celsius;
                    Ok(format!(
                        "{{\"status\": \"ok\", \"room\": \"{room}\", \"celsius\": {celsius}}}"
                    ))
                }
                None => Err(unknown("room", &room, world.rooms.keys().cloned())),
            }
        }
        Op::GetTemperature => world
            .rooms
            .get(&s(0))
            .map(|t| format!("{{\"celsius\": {t}}}"))
            .ok_or_else(|| unknown("room", &s(0), world.rooms.keys().cloned())),
        Op::AddItem | Op::RemoveItem => {
            let (list, item) = (s(0), s(1));
            let names = world.lists.keys().cloned().collect::<Vec<_>>();
            let Some(items) = world.lists.get_mut(&list) else {
                return Err(unknown("list", &list, names.into_iter()));
            };
            if op == Op::AddItem {
                if item.is_empty() || items.len() >= 50 {
                    return Err("error: empty item or full list".into());
                }
                items.push(item);
            } else {
                let Some(at) = items.iter().position(|i| *i == item) else {
                    return Err(format!("error: {item:?} is not on the {list} list").into());
                };
                items.remove(at);
            }
            Ok(format!(
                "{{\"status\": \"ok\", \"{list}\": {}}}",
                serde_json::to_string(items).expect("strings")
            ))
        }
        Op::Restock => {
            let (sku, quantity) = (s(0), n(1));
            if quantity <= 0 || quantity > 100_000 {
                return Err("error: quantity must be positive".into());
            }
            let names = world.stock.keys().cloned().collect::<Vec<_>>();
            match world.stock.get_mut(&sku) {
                Some(units) => {
                    *units += quantity;
                    Ok(format!(
                        "{{\"status\": \"ok\", \"sku\": \"{sku}\", \"units\": {units}}}"
                    ))
                }
                None => Err(unknown("product", &sku, names.into_iter())),
            }
        }
        Op::GetStock => world
            .stock
            .get(&s(0))
            .map(|u| format!("{{\"units\": {u}}}"))
            .ok_or_else(|| unknown("product", &s(0), world.stock.keys().cloned())),
        Op::SendMessage => {
            let (to, text) = (s(0), s(1));
            if !world.contacts.contains(&to) {
                return Err(unknown("contact", &to, world.contacts.iter().cloned()));
            }
            if text.is_empty() || world.outbox.len() >= 50 {
                return Err("error: empty message or outbox full".into());
            }
            world.outbox.push((to, text));
            Ok("{\"status\": \"sent\"}".into())
        }
    }
}
