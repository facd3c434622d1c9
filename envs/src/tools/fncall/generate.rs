//! Candidate tasks of `tools/fncall`: a world, a generated API over some of
//! its modules, a request of one to three parts and its gold calls (the env
//! runs them through the agent's path, then screens the task).

use serde_json::{Value, json};

use super::task::{FncallConfig, FncallTask};
use super::world::{ApiFn, MODULES, Module, Op, World, execute};
use crate::rng::Rng;
use crate::toolkit::calls::{CallFormat, render_call};
use crate::toolkit::final_answer::infeasible_answer;

const ACCOUNTS: &[&str] = &["checking", "savings", "travel", "emergency", "holiday"];
const ROOMS: &[&str] = &["kitchen", "bedroom", "office", "living room", "garage"];
const LISTS: &[&str] = &["groceries", "errands", "packing", "gifts"];
const ITEMS: &[&str] = &[
    "milk",
    "eggs",
    "batteries",
    "stamps",
    "sunscreen",
    "charger",
    "umbrella",
    "tea",
    "rice",
    "notebook",
    "socks",
    "candles",
];
const CONTACTS: &[&str] = &["alice", "bruno", "chen", "dana", "emeka", "farah"];
const DAYS: &[&str] = &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn some<'a>(rng: &mut Rng, items: &[&'a str], lo: usize, hi: usize) -> Vec<&'a str> {
    let mut v = items.to_vec();
    rng.shuffle(&mut v);
    v.truncate(rng.range_usize(lo, hi));
    v
}

fn draw_world(rng: &mut Rng) -> World {
    let mut world = World::default();
    for a in some(rng, ACCOUNTS, 3, 5) {
        world.accounts.insert(a.into(), rng.range_i64(100, 5000));
    }
    for r in some(rng, ROOMS, 3, 5) {
        world.rooms.insert(r.into(), rng.range_i64(15, 25));
    }
    for l in some(rng, LISTS, 2, 4) {
        world.lists.insert(
            l.into(),
            some(rng, ITEMS, 1, 4)
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
    }
    for _ in 0..rng.range_usize(3, 5) {
        world.stock.insert(
            format!("SKU-{}", rng.range_i64(1000, 9999)),
            rng.range_i64(0, 200),
        );
    }
    world.contacts = some(rng, CONTACTS, 3, 5)
        .iter()
        .map(|s| s.to_string())
        .collect();
    world
}

/// One part of a request: its text, the operations that do it, and the
/// figure it asks for.
struct Part {
    text: String,
    ops: Vec<(Op, Vec<Value>)>,
    asks: Option<i64>,
}

fn part(text: String, ops: Vec<(Op, Vec<Value>)>) -> Part {
    Part {
        text,
        ops,
        asks: None,
    }
}

fn keys(map: &std::collections::BTreeMap<String, impl Sized>) -> Vec<&str> {
    map.keys().map(String::as_str).collect()
}

/// A part for `module` on the world as it stands; `query` allows a part
/// that only asks for a figure.
fn draw_part(module: Module, world: &World, query: bool, rng: &mut Rng) -> Option<Part> {
    let variant = rng.below(if query { 3 } else { 2 });
    Some(match (module, variant) {
        (Module::Bank, 2) => {
            let a = pick(rng, &keys(&world.accounts));
            Part {
                text: format!("What is the balance of the {a} account?"),
                ops: vec![(Op::GetBalance, vec![json!(a)])],
                asks: Some(world.accounts[a]),
            }
        }
        (Module::Bank, v) => {
            let names = keys(&world.accounts);
            let (a, b) = (pick(rng, &names), pick(rng, &names));
            if a == b || world.accounts[a] < 4 {
                return None;
            }
            if v == 0 {
                let amount = rng.range_i64(1, world.accounts[a]);
                part(
                    format!("Transfer {amount} from {a} to {b}."),
                    vec![(Op::Transfer, vec![json!(a), json!(b), json!(amount)])],
                )
            } else {
                let half = world.accounts[a] / 2;
                part(
                    format!("Move half of the money in {a} (rounded down) to {b}."),
                    vec![
                        (Op::GetBalance, vec![json!(a)]),
                        (Op::Transfer, vec![json!(a), json!(b), json!(half)]),
                    ],
                )
            }
        }
        (Module::Climate, 2) => {
            let r = pick(rng, &keys(&world.rooms));
            Part {
                text: format!("What temperature is the {r} thermostat set to?"),
                ops: vec![(Op::GetTemperature, vec![json!(r)])],
                asks: Some(world.rooms[r]),
            }
        }
        (Module::Climate, v) => {
            let r = pick(rng, &keys(&world.rooms));
            let now = world.rooms[r];
            if v == 0 {
                let t = rng.range_i64(10, 30);
                if t == now {
                    return None;
                }
                part(
                    format!("Set the {r} to {t} degrees Celsius."),
                    vec![(Op::SetTemperature, vec![json!(r), json!(t)])],
                )
            } else {
                let d = rng.range_i64(1, 4);
                part(
                    format!("Make the {r} {d} degrees warmer than its current setting."),
                    vec![
                        (Op::GetTemperature, vec![json!(r)]),
                        (Op::SetTemperature, vec![json!(r), json!(now + d)]),
                    ],
                )
            }
        }
        (Module::Lists, v) => {
            let names = keys(&world.lists);
            let l = pick(rng, &names);
            if v == 0 {
                let item = pick(rng, ITEMS);
                part(
                    format!("Add \"{item}\" to the {l} list."),
                    vec![(Op::AddItem, vec![json!(l), json!(item)])],
                )
            } else {
                let items = &world.lists[l];
                let item = items.get(rng.below(items.len().max(1) as u64) as usize)?;
                let other = pick(rng, &names);
                if other == l || variant == 2 {
                    part(
                        format!("Take \"{item}\" off the {l} list."),
                        vec![(Op::RemoveItem, vec![json!(l), json!(item)])],
                    )
                } else {
                    part(
                        format!("Move \"{item}\" from the {l} list to the {other} list."),
                        vec![
                            (Op::RemoveItem, vec![json!(l), json!(item)]),
                            (Op::AddItem, vec![json!(other), json!(item)]),
                        ],
                    )
                }
            }
        }
        (Module::Inventory, 2) => {
            let sku = pick(rng, &keys(&world.stock));
            Part {
                text: format!("How many units of {sku} are in stock?"),
                ops: vec![(Op::GetStock, vec![json!(sku)])],
                asks: Some(world.stock[sku]),
            }
        }
        (Module::Inventory, v) => {
            let sku = pick(rng, &keys(&world.stock));
            if v == 0 {
                let q = rng.range_i64(5, 120);
                part(
                    format!("Restock {sku} with {q} units."),
                    vec![(Op::Restock, vec![json!(sku), json!(q)])],
                )
            } else {
                let target = world.stock[sku] + rng.range_i64(3, 150);
                part(
                    format!("Top {sku} up to exactly {target} units in stock."),
                    vec![
                        (Op::GetStock, vec![json!(sku)]),
                        (
                            Op::Restock,
                            vec![json!(sku), json!(target - world.stock[sku])],
                        ),
                    ],
                )
            }
        }
        (Module::Messages, _) => {
            let to = pick(
                rng,
                &world
                    .contacts
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            );
            let text = match rng.below(3) {
                0 => format!("Running {} minutes late.", rng.range_i64(5, 40)),
                1 => format!("The review moved to {}.", pick(rng, DAYS)),
                _ => format!("Please bring the {}.", pick(rng, ITEMS)),
            };
            part(
                format!("Send {to} the message \"{text}\"."),
                vec![(Op::SendMessage, vec![json!(to), json!(text)])],
            )
        }
    })
}

/// A request that needs a module outside the API, phrased on the world.
fn out_of_scope(module: Module, world: &World, rng: &mut Rng) -> Option<Part> {
    let mut scratch = rng.fork(1);
    let mut part = draw_part(module, world, false, &mut scratch)?;
    part.ops.clear();
    Some(part)
}

fn gold_call(apis: &[ApiFn], op: Op, values: &[Value]) -> String {
    let api = apis
        .iter()
        .find(|a| a.op == op)
        .expect("parts use included modules");
    render_call(&api.call(values), CallFormat::Hermes, &[]).expect("hermes renders")
}

/// A candidate task; its `expected` world is left empty for the env to
/// fill in by running the gold calls.
pub(super) fn draw(config: &FncallConfig, rng: &mut Rng) -> Option<FncallTask> {
    let initial = draw_world(rng);
    let mut modules = MODULES.to_vec();
    rng.shuffle(&mut modules);
    let (included, excluded) = modules.split_at(config.modules);
    let mut apis: Vec<ApiFn> = Vec::new();
    for &m in included {
        for &op in Op::of(m) {
            apis.push(ApiFn::draw(op, |n| rng.below(n as u64) as usize));
        }
    }
    rng.shuffle(&mut apis);
    let mut world = initial.clone();
    let mut texts = Vec::new();
    let mut gold = Vec::new();
    let mut asked = None;
    for i in 0..config.parts {
        let module = included[rng.below(included.len() as u64) as usize];
        let query = asked.is_none() && i > 0;
        let part = draw_part(module, &world, query, rng)?;
        for (op, values) in &part.ops {
            execute(&mut world, *op, values).ok()?;
            gold.push(gold_call(&apis, *op, values));
        }
        asked = asked.or(part.asks);
        texts.push(part.text);
    }
    let feasible = !rng.chance(config.infeasible_share);
    let mut impossible = None;
    if !feasible {
        let module = excluded[rng.below(excluded.len() as u64) as usize];
        let extra = out_of_scope(module, &initial, rng)?;
        let at = rng.range_usize(0, texts.len());
        texts.insert(at, extra.text.clone());
        impossible = Some(extra.text);
    }
    // The evidence of infeasibility is the part no function can do: knowing
    // it takes matching every part against the API. It can be copied from
    // the request, so an infeasible task still asks for the other parts'
    // calls (its gold calls stay).
    let answer = match (impossible, asked) {
        (Some(part), _) => infeasible_answer(&part),
        (None, Some(v)) => v.to_string(),
        (None, None) => "done".to_string(),
    };
    let task = FncallTask {
        request: texts.join(" Then: "),
        apis,
        expected: World::default(),
        initial,
        answer,
        gold,
        feasible,
    };
    Some(task)
}
