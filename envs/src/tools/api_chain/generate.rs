//! Candidate tasks of `tools/api-chain` (the env screens them): random
//! records, a question drawn with fixed shares, and a candidate kept only
//! when its answer needs every join it names (dropping a filter, such as
//! the stock or the region, gives another answer or change).

use super::api::{Item, Order, Settings, User, World};
use super::task::{
    ApiChainConfig, ApiChainTask, Question, answer_of, cancel_targets, expected_world, gold_calls,
    restock_targets,
};
use crate::rng::Rng;

const REGIONS: [&str; 4] = ["north", "south", "east", "west"];
const TIERS: [&str; 3] = ["gold", "silver", "basic"];
const FIRST: &[&str] = &[
    "Amara", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hiro", "Ines", "Jonas",
    "Kemi", "Luca", "Mira", "Nils", "Oona", "Pavel",
];
const LAST: &[&str] = &[
    "Achebe", "Berg", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gupta", "Haas", "Ito",
    "Jensen", "Kaur", "Larsen", "Moreau", "Novak",
];
const PRODUCTS: &[&str] = &[
    "desk lamp",
    "kettle",
    "backpack",
    "headphones",
    "yoga mat",
    "water bottle",
    "notebook",
    "monitor stand",
    "keyboard",
    "blender",
    "umbrella",
    "tent",
    "camera bag",
    "thermos",
    "bike light",
    "drill",
    "rice cooker",
    "toaster",
    "pillow",
    "bookshelf",
    "mouse",
    "scarf",
    "sunglasses",
    "frying pan",
    "teapot",
    "wall clock",
    "speaker",
    "charger",
    "hammock",
    "lunch box",
];

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

/// Random records of `config`'s size, each kind sorted by id (the order
/// listings page through).
fn world(config: &ApiChainConfig, rng: &mut Rng) -> World {
    let regions = &REGIONS[..(config.users / 3).clamp(2, 4)];
    let mut names: Vec<String> = Vec::new();
    while names.len() < config.users {
        let name = format!("{} {}", pick(rng, FIRST), pick(rng, LAST));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let user_ids = crate::tools::distinct(rng, 1000, 9999, config.users);
    let mut users: Vec<User> = names
        .into_iter()
        .zip(user_ids)
        .map(|(name, n)| User {
            id: format!("U-{n}"),
            name,
            region: pick(rng, regions).into(),
            tier: pick(rng, &TIERS).into(),
        })
        .collect();
    users.sort_by(|a, b| a.id.cmp(&b.id));
    let mut products = PRODUCTS.to_vec();
    rng.shuffle(&mut products);
    let skus = crate::tools::distinct(rng, 100, 999, config.items);
    let mut items: Vec<Item> = products
        .into_iter()
        .zip(skus)
        .map(|(name, n)| Item {
            sku: format!("SKU-{n}"),
            name: name.into(),
            stock: if rng.chance(0.35) {
                0
            } else {
                rng.range_i64(1, 60)
            },
            price: rng.range_i64(5, 200),
            version: rng.range_i64(1, 4),
        })
        .collect();
    items.sort_by(|a, b| a.sku.cmp(&b.sku));
    let counts: Vec<usize> = users
        .iter()
        .map(|_| rng.range_usize(1, 2 * config.orders_per_user))
        .collect();
    let order_ids = crate::tools::distinct(rng, 10000, 99999, counts.iter().sum());
    let mut ids = order_ids.into_iter();
    let mut orders = Vec::new();
    for (user, n) in users.iter().zip(counts) {
        for _ in 0..n {
            let item = &items[rng.below(items.len() as u64) as usize];
            let qty = rng.range_i64(1, 5);
            let roll = rng.unit_f64();
            let status = if roll < 0.55 {
                "open"
            } else if roll < 0.85 {
                "shipped"
            } else {
                "cancelled"
            };
            orders.push(Order {
                id: format!("O-{}", ids.next().expect("enough ids")),
                user_id: user.id.clone(),
                sku: item.sku.clone(),
                qty,
                amount: qty * item.price,
                status: status.into(),
                version: rng.range_i64(1, 4),
            });
        }
    }
    orders.sort_by(|a, b| a.id.cmp(&b.id));
    World {
        users,
        orders,
        items,
    }
}

/// A copy of `world` where every item counts as out of stock (the answer a
/// solver that skips the inventory would give).
fn all_out(world: &World) -> World {
    let mut w = world.clone();
    for i in &mut w.items {
        i.stock = 0;
    }
    w
}

/// A copy where every user is in `region` (a solver that skips the users).
fn all_in(world: &World, region: &str) -> World {
    let mut w = world.clone();
    for u in &mut w.users {
        u.region = region.into();
    }
    w
}

/// Whether the question's answer needs each join: it is not empty, and
/// skipping the stock or the region filter changes it.
fn needs_every_join(world: &World, question: &Question) -> bool {
    match question {
        Question::OpenValue { region } | Question::Customers { region } => {
            let answer = answer_of(world, question);
            answer.as_deref() != Some("0")
                && answer.as_deref() != Some("[]")
                && answer != answer_of(&all_out(world), question)
                && answer != answer_of(&all_in(world, region), question)
        }
        Question::Cancel { name } => {
            let targets = cancel_targets(world, name);
            !targets.is_empty() && targets != cancel_targets(&all_out(world), name)
        }
        Question::Restock { region, .. } => {
            let targets = restock_targets(world, region);
            !targets.is_empty()
                && targets != restock_targets(&all_out(world), region)
                && targets != restock_targets(&all_in(world, region), region)
        }
    }
}

/// The questions of `kind` that `world` supports: one per region or per
/// user, kept when it needs every join.
fn questions(world: &World, kind: u64, stock: i64) -> Vec<Question> {
    let mut regions: Vec<String> = world.users.iter().map(|u| u.region.clone()).collect();
    regions.sort();
    regions.dedup();
    let all: Vec<Question> = match kind {
        0 => regions
            .into_iter()
            .map(|region| Question::OpenValue { region })
            .collect(),
        1 => regions
            .into_iter()
            .map(|region| Question::Customers { region })
            .collect(),
        2 => world
            .users
            .iter()
            .map(|u| Question::Cancel {
                name: u.name.clone(),
            })
            .collect(),
        _ => regions
            .into_iter()
            .map(|region| Question::Restock { region, stock })
            .collect(),
    };
    all.into_iter()
        .filter(|q| needs_every_join(world, q))
        .collect()
}

/// The question kind is drawn first (fixed shares), then worlds until one
/// supports a question of that kind.
pub(super) fn draw(config: &ApiChainConfig, rng: &mut Rng) -> Option<ApiChainTask> {
    let kind = rng.below(4);
    let stock = 5 * rng.range_i64(2, 12);
    let (world, question) = (0..32).find_map(|_| {
        let world = world(config, rng);
        let mut found = questions(&world, kind, stock);
        (!found.is_empty()).then(|| {
            let at = rng.below(found.len() as u64) as usize;
            (world, found.swap_remove(at))
        })
    })?;
    let settings = Settings {
        api_key: format!("key_{:010x}", rng.next_u64() & 0xff_ffff_ffff),
        salt: rng.next_u64(),
        page_size: config.page_size,
        token_life: config.token_life,
        burst: config.burst,
        retry_after: config.retry_after,
        writes_allowed: question.writes(),
    };
    let mut task = ApiChainTask {
        answer: answer_of(&world, &question),
        expected: expected_world(&world, &question),
        world,
        settings,
        question,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task)?;
    Some(task)
}
