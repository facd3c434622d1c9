//! Candidate tasks of `tools/service-desk` (the env screens them): the
//! decision is drawn first with fixed shares, then a database whose facts
//! force it.

use super::task::{
    Customer, HUMAN_LIMIT, Order, Resolution, ServiceDeskConfig, ServiceDeskTask, decide,
    gold_calls,
};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Ada", "Bram", "Cleo", "Dev", "Esme", "Femi", "Gus", "Hana", "Ivo", "Juno", "Kai", "Lena",
];
const LAST: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Novak",
    "Reyes",
    "Schmidt",
    "Adeyemi",
    "Kowalski",
    "Byrne",
];
const ITEMS: &[&str] = &[
    "headphones",
    "desk lamp",
    "rain jacket",
    "coffee grinder",
    "backpack",
    "phone case",
    "yoga mat",
    "blender",
    "monitor",
    "office chair",
    "hiking boots",
    "air purifier",
    "tablet",
    "espresso machine",
];
const DAMAGED: &[&str] = &[
    "It arrived damaged.",
    "It stopped working after two days.",
    "The screen was cracked out of the box.",
];
const CHANGED: &[&str] = &[
    "I changed my mind about it.",
    "I found it cheaper elsewhere.",
    "It doesn't suit me.",
];

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Refund,
    Transfer,
    Refuse(usize),
}

/// Facts of the asked-about order that force the target decision.
fn target_order(
    target: Target,
    damaged: bool,
    rng: &mut Rng,
) -> (i64, &'static str, Option<i64>, bool) {
    let window = if damaged { 90 } else { 30 };
    let cheap = |rng: &mut Rng| rng.range_i64(20, if damaged { HUMAN_LIMIT } else { 555 });
    match target {
        Target::Refund => (
            cheap(rng),
            "delivered",
            Some(rng.range_i64(0, window)),
            damaged && rng.chance(0.3),
        ),
        Target::Transfer => (
            rng.range_i64(if damaged { 501 } else { 560 }, 2500),
            "delivered",
            Some(rng.range_i64(0, window)),
            damaged && rng.chance(0.3),
        ),
        Target::Refuse(0) => (
            cheap(rng),
            ["shipped", "processing"][rng.below(2) as usize],
            None,
            rng.chance(0.2),
        ),
        Target::Refuse(1) => (
            cheap(rng),
            "delivered",
            Some(rng.range_i64(window + 1, window + 200)),
            damaged && rng.chance(0.3),
        ),
        _ => (cheap(rng), "delivered", Some(rng.range_i64(0, 30)), true),
    }
}

pub(super) fn draw(config: &ServiceDeskConfig, rng: &mut Rng) -> ServiceDeskTask {
    let roll = rng.unit_f64();
    let target = if roll < config.refuse_share {
        Target::Refuse(rng.below(4) as usize)
    } else if roll < config.refuse_share + config.transfer_share {
        Target::Transfer
    } else {
        Target::Refund
    };
    // A final-sale refusal needs a change of mind.
    let damaged = target != Target::Refuse(2) && rng.chance(0.5);
    let mut ids = crate::tools::distinct(
        rng,
        10000,
        99999,
        config.customers * (config.orders_per_customer + 1),
    )
    .into_iter();
    let mut customers = Vec::new();
    let mut orders = Vec::new();
    for c in 0..config.customers {
        let name = format!(
            "{} {}",
            FIRST[rng.below(FIRST.len() as u64) as usize],
            LAST[rng.below(LAST.len() as u64) as usize]
        );
        let email = format!("{}{}@example.com", name.to_lowercase().replace(' ', "."), c);
        let id = format!("C-{}", ids.next().expect("enough ids"));
        let mut items = ITEMS.to_vec();
        rng.shuffle(&mut items);
        for item in items.into_iter().take(config.orders_per_customer) {
            let status = ["delivered", "delivered", "shipped", "processing"][rng.below(4) as usize];
            orders.push(Order {
                id: format!("O-{}", ids.next().expect("enough ids")),
                customer: id.clone(),
                item: item.into(),
                price: rng.range_i64(15, 1500),
                status: status.into(),
                days_since_delivery: (status == "delivered").then(|| rng.range_i64(0, 200)),
                final_sale: rng.chance(0.2),
            });
        }
        customers.push(Customer { id, name, email });
    }
    let caller = rng.below(customers.len() as u64) as usize;
    let own: Vec<usize> = (0..orders.len())
        .filter(|&i| orders[i].customer == customers[caller].id)
        .collect();
    let item = if target == Target::Refuse(3) {
        let owned: Vec<&str> = own.iter().map(|&i| orders[i].item.as_str()).collect();
        let others: Vec<&&str> = ITEMS.iter().filter(|i| !owned.contains(*i)).collect();
        others[rng.below(others.len() as u64) as usize].to_string()
    } else {
        let at = own[rng.below(own.len() as u64) as usize];
        let (price, status, days, final_sale) = target_order(target, damaged, rng);
        let order = &mut orders[at];
        (
            order.price,
            order.status,
            order.days_since_delivery,
            order.final_sale,
        ) = (price, status.into(), days, final_sale);
        order.item.clone()
    };
    let replies = if damaged { DAMAGED } else { CHANGED };
    let mut task = ServiceDeskTask {
        reason_reply: replies[rng.below(replies.len() as u64) as usize].into(),
        expected: Resolution::Refuse {
            reason: String::new(),
        },
        gold: Vec::new(),
        customers,
        orders,
        caller,
        item,
        damaged,
    };
    let asked = task
        .orders
        .iter()
        .find(|o| o.customer == task.customers[caller].id && o.item == task.item);
    task.expected = decide(asked, damaged);
    task.gold = gold_calls(&task);
    task
}
