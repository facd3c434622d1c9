//! Candidate tasks of `tools/retail` (the env screens them): a random
//! store, then the request kind and the policy's outcome drawn with fixed
//! shares, and the named order (its owner, status, items, payment) and the
//! wanted variants set to force that outcome.

use super::task::{
    Item, Order, PayKind, Payment, Product, Request, RetailConfig, RetailTask, Status, Store, User,
    Variant, decide, gold_calls,
};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Amara", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hiro", "Ines", "Jonas",
    "Kemi", "Luca", "Mira", "Nils", "Omar", "Priya",
];
const LAST: &[&str] = &[
    "Achebe", "Berg", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gupta", "Haas", "Ito",
    "Jensen", "Kaur", "Larsen", "Moreau", "Novak",
];
const STREETS: &[&str] = &[
    "Elm Street",
    "Oak Lane",
    "Harbor Road",
    "Mill Avenue",
    "Cedar Court",
    "Station Road",
    "Maple Drive",
    "River Walk",
];
const TOWNS: &[&str] = &[
    "Springfield",
    "Riverton",
    "Lakeside",
    "Fairview",
    "Kingsport",
    "Ashford",
];

/// Product name, base price, and two option dimensions with their values.
type Spec = (
    &'static str,
    i64,
    [(&'static str, &'static [&'static str]); 2],
);

const CATALOG: &[Spec] = &[
    (
        "t-shirt",
        25,
        [
            ("color", &["red", "blue", "black", "white"]),
            ("size", &["S", "M", "L", "XL"]),
        ],
    ),
    (
        "hoodie",
        55,
        [
            ("color", &["grey", "black", "navy"]),
            ("size", &["S", "M", "L", "XL"]),
        ],
    ),
    (
        "running shoes",
        90,
        [
            ("color", &["white", "black", "green"]),
            ("size", &["8", "9", "10", "11"]),
        ],
    ),
    (
        "desk lamp",
        40,
        [
            ("finish", &["black", "white", "brass"]),
            ("bulb", &["LED", "halogen"]),
        ],
    ),
    (
        "water bottle",
        18,
        [
            ("capacity", &["500ml", "750ml", "1000ml"]),
            ("color", &["blue", "green", "steel"]),
        ],
    ),
    (
        "backpack",
        70,
        [
            ("color", &["black", "olive", "red"]),
            ("capacity", &["20L", "30L", "40L"]),
        ],
    ),
    (
        "headphones",
        120,
        [
            ("color", &["black", "silver"]),
            ("type", &["wired", "wireless", "noise-cancelling"]),
        ],
    ),
    (
        "yoga mat",
        35,
        [
            ("thickness", &["4mm", "6mm", "8mm"]),
            ("color", &["purple", "teal", "black"]),
        ],
    ),
    (
        "kettle",
        45,
        [
            ("capacity", &["1L", "1.5L", "1.7L"]),
            ("material", &["steel", "glass"]),
        ],
    ),
    (
        "jigsaw puzzle",
        22,
        [
            ("pieces", &["500", "1000", "1500"]),
            ("theme", &["animals", "maps", "art"]),
        ],
    ),
    (
        "office chair",
        180,
        [
            ("color", &["black", "grey"]),
            ("armrest", &["fixed", "adjustable"]),
        ],
    ),
    (
        "wall clock",
        30,
        [
            ("diameter", &["25cm", "30cm", "40cm"]),
            ("style", &["modern", "classic"]),
        ],
    ),
];

/// What the generator aims the request at (the policy decides in the end).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Target {
    Allow,
    Refuse(&'static str),
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn address(rng: &mut Rng) -> String {
    format!(
        "{} {}, {}, {}",
        rng.range_i64(1, 199),
        pick(rng, STREETS),
        pick(rng, TOWNS),
        rng.range_i64(10000, 99999)
    )
}

/// A random store of `config`'s size, with ids drawn without repeats.
fn store(config: &RetailConfig, rng: &mut Rng) -> Store {
    let needed = config.users * (4 + config.orders_per_user) + config.products * 9 + 8;
    let mut ids = crate::tools::distinct(rng, 10000, 99999, needed)
        .into_iter()
        .map(|n| n.to_string());
    let mut next = || ids.next().expect("enough ids");
    let mut specs: Vec<&Spec> = CATALOG.iter().collect();
    rng.shuffle(&mut specs);
    let mut products = Vec::new();
    for (name, base, [(a, avs), (b, bvs)]) in specs.into_iter().take(config.products) {
        let mut combos: Vec<String> = avs
            .iter()
            .flat_map(|x| bvs.iter().map(move |y| format!("{a}: {x}, {b}: {y}")))
            .collect();
        rng.shuffle(&mut combos);
        let keep = rng.range_usize(3, combos.len().min(6));
        let variants = combos
            .into_iter()
            .take(keep)
            .map(|options| Variant {
                item_id: format!("I-{}", next()),
                options,
                price: base + rng.range_i64(-4, 8),
                available: rng.chance(0.7),
            })
            .collect();
        products.push(Product {
            id: format!("P-{}", next()),
            name: (*name).into(),
            variants,
        });
    }
    let mut users = Vec::new();
    let mut orders = Vec::new();
    for u in 0..config.users {
        let name = format!("{} {}", pick(rng, FIRST), pick(rng, LAST));
        let email = format!("{}{u}@example.com", name.to_lowercase().replace(' ', "."));
        let id = format!("U-{}", next());
        let mut payments = vec![Payment {
            id: format!("PM-{}", next()),
            kind: PayKind::CreditCard,
            label: format!("credit card ending {}", rng.range_i64(1000, 9999)),
            balance: 0,
        }];
        if rng.chance(0.5) {
            payments.push(gift_card(next(), rng));
        }
        if rng.chance(0.4) {
            payments.push(Payment {
                id: format!("PM-{}", next()),
                kind: PayKind::Paypal,
                label: "PayPal".into(),
                balance: 0,
            });
        }
        let home = address(rng);
        for _ in 0..config.orders_per_user {
            let status = [
                Status::Pending,
                Status::Processed,
                Status::Delivered,
                Status::Cancelled,
            ][rng.below(4) as usize];
            let payment = payments[rng.below(payments.len() as u64) as usize]
                .id
                .clone();
            let items = random_items(&products, config.max_items, rng);
            orders.push(Order {
                id: format!("O-{}", next()),
                user: id.clone(),
                status,
                items,
                payment,
                address: home.clone(),
                returns: Vec::new(),
                exchanges: Vec::new(),
            });
        }
        users.push(User {
            id,
            name,
            email,
            address: home,
            payments,
        });
    }
    Store {
        users,
        products,
        orders,
        ledger: Vec::new(),
    }
}

fn gift_card(id: String, rng: &mut Rng) -> Payment {
    Payment {
        id: format!("PM-{id}"),
        kind: PayKind::GiftCard,
        label: "gift card".into(),
        balance: rng.range_i64(0, 200),
    }
}

/// One to `max` items of distinct products.
fn random_items(products: &[Product], max: usize, rng: &mut Rng) -> Vec<Item> {
    let mut order: Vec<&Product> = products.iter().collect();
    rng.shuffle(&mut order);
    let n = rng.range_usize(1, max.min(products.len()));
    order
        .into_iter()
        .take(n)
        .map(|p| {
            let v = &p.variants[rng.below(p.variants.len() as u64) as usize];
            Item {
                item_id: v.item_id.clone(),
                product_id: p.id.clone(),
                name: p.name.clone(),
                options: v.options.clone(),
                price: v.price,
            }
        })
        .collect()
}

/// How the user names an item of their order.
fn said(item: &Item) -> String {
    format!("the {} ({})", item.name, item.options)
}

/// Picks swaps for some items of `order` aimed at `target`: another
/// variant of the same product (available unless `out_of_stock`), or a
/// variant of another product for `different_product`. Returns the swaps
/// and how the user words them.
fn swaps(
    store: &mut Store,
    order: usize,
    target: Target,
    rng: &mut Rng,
) -> (Vec<(String, String)>, String) {
    let items = store.orders[order].items.clone();
    let n = rng.range_usize(1, items.len().min(2));
    let mut out = Vec::new();
    let mut words = Vec::new();
    for (k, item) in items.iter().take(n).enumerate() {
        // Only the first swap carries the refusal; the rest are fine.
        let aim = if k == 0 { target } else { Target::Allow };
        let p = store
            .products
            .iter()
            .position(|p| p.id == item.product_id)
            .expect("the item's product exists");
        let (pi, vi) = if aim == Target::Refuse("different_product") {
            let others: Vec<usize> = (0..store.products.len()).filter(|&i| i != p).collect();
            let q = others[rng.below(others.len() as u64) as usize];
            (
                q,
                rng.below(store.products[q].variants.len() as u64) as usize,
            )
        } else {
            let others: Vec<usize> = (0..store.products[p].variants.len())
                .filter(|&i| store.products[p].variants[i].item_id != item.item_id)
                .collect();
            (p, others[rng.below(others.len() as u64) as usize])
        };
        let variant = &mut store.products[pi].variants[vi];
        match aim {
            Target::Refuse("out_of_stock") => variant.available = false,
            Target::Refuse("different_product") => {}
            _ => variant.available = true,
        }
        let name = &store.products[pi].name;
        let variant = &store.products[pi].variants[vi];
        words.push(format!(
            "{} for the {name} with {}",
            said(item),
            variant.options
        ));
        out.push((item.item_id.clone(), variant.item_id.clone()));
    }
    (out, words.join(", and "))
}

pub(super) fn draw(config: &RetailConfig, rng: &mut Rng) -> RetailTask {
    let mut store = store(config, rng);
    let caller = rng.below(store.users.len() as u64) as usize;
    let caller_id = store.users[caller].id.clone();
    let kind = rng.unit_f64();
    let refuse = rng.chance(config.refuse_share);
    let choose = |rng: &mut Rng, reasons: &[&'static str]| {
        if refuse {
            Target::Refuse(reasons[rng.below(reasons.len() as u64) as usize])
        } else {
            Target::Allow
        }
    };
    let (kind, target) = match kind {
        k if k < 0.18 => ("cancel", choose(rng, &["not_owner", "not_pending"])),
        k if k < 0.34 => (
            "modify",
            choose(
                rng,
                &[
                    "not_owner",
                    "not_pending",
                    "different_product",
                    "out_of_stock",
                ],
            ),
        ),
        k if k < 0.58 => (
            "return",
            choose(
                rng,
                &["not_owner", "not_delivered", "refund_method_not_allowed"],
            ),
        ),
        k if k < 0.78 => (
            "exchange",
            choose(
                rng,
                &[
                    "not_owner",
                    "not_delivered",
                    "different_product",
                    "out_of_stock",
                ],
            ),
        ),
        k if k < 0.92 => ("address", choose(rng, &["not_owner", "not_pending"])),
        _ => ("compensation", Target::Allow),
    };
    // The order the request names: the caller's, or another user's.
    let candidates: Vec<usize> = (0..store.orders.len())
        .filter(|&i| (store.orders[i].user == caller_id) != (target == Target::Refuse("not_owner")))
        .collect();
    let at = candidates[rng.below(candidates.len() as u64) as usize];
    let wanted = match kind {
        "cancel" | "modify" | "address" => Status::Pending,
        "compensation" => [Status::Processed, Status::Delivered][rng.below(2) as usize],
        _ => Status::Delivered,
    };
    store.orders[at].status = match target {
        Target::Refuse("not_pending") => {
            [Status::Processed, Status::Delivered, Status::Cancelled][rng.below(3) as usize]
        }
        Target::Refuse("not_delivered") => {
            [Status::Pending, Status::Processed, Status::Cancelled][rng.below(3) as usize]
        }
        _ => wanted,
    };
    let order_id = store.orders[at].id.clone();
    let first_item = said(&store.orders[at].items[0]);
    let (request, wish) = match kind {
        "cancel" => (
            Request::Cancel {
                order: order_id.clone(),
            },
            format!("Please cancel my order {order_id}; I no longer need it."),
        ),
        "modify" | "exchange" => {
            let (swaps, words) = swaps(&mut store, at, target, rng);
            let order = order_id.clone();
            if kind == "modify" {
                let wish =
                    format!("My order {order_id} has not shipped yet. Please change {words}.");
                (Request::Modify { order, swaps }, wish)
            } else {
                let wish =
                    format!("My order {order_id} arrived. I would like to exchange {words}.");
                (Request::Exchange { order, swaps }, wish)
            }
        }
        "return" => return_request(&mut store, at, caller, target, rng),
        "address" => {
            let new = address(rng);
            let wish = format!("Please ship my order {order_id} to {new} instead.");
            (
                Request::Address {
                    order: order_id.clone(),
                    address: new,
                },
                wish,
            )
        }
        _ => {
            let wish = if rng.chance(0.5) {
                format!(
                    "My order {order_id} arrived two weeks late. I want compensation for the delay."
                )
            } else {
                format!(
                    "I saw {first_item} from my order {order_id} cheaper elsewhere. Please match the price."
                )
            };
            (
                Request::Compensation {
                    order: order_id.clone(),
                },
                wish,
            )
        }
    };
    let who = &store.users[caller];
    let opening = format!("Hi, I'm {}, my email is {}. {wish}", who.name, who.email);
    let expected = decide(&store, &caller_id, &request);
    let mut task = RetailTask {
        store,
        caller,
        request,
        opening,
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}

/// A return of some items of order `at`, refunded to a method aimed at
/// `target` (the caller's own methods only; a forbidden one is a method of
/// the caller that is neither the original nor a gift card).
fn return_request(
    store: &mut Store,
    at: usize,
    caller: usize,
    target: Target,
    rng: &mut Rng,
) -> (Request, String) {
    let order = store.orders[at].clone();
    let n = rng.range_usize(1, order.items.len());
    let items: Vec<&Item> = order.items.iter().take(n).collect();
    // An unused id (of the other ids' width) for a payment method added here.
    let taken: Vec<&str> = store
        .users
        .iter()
        .flat_map(|u| u.payments.iter().map(|p| p.id.as_str()))
        .collect();
    let fresh = loop {
        let id = rng.range_i64(10000, 99999).to_string();
        if !taken.contains(&format!("PM-{id}").as_str()) {
            break id;
        }
    };
    let user = &mut store.users[caller];
    let method_id = if target == Target::Refuse("refund_method_not_allowed") {
        // Paid by gift card or PayPal, refund asked to a (new) credit card.
        let original = user
            .payments
            .iter()
            .find(|p| p.kind != PayKind::CreditCard)
            .map(|p| p.id.clone());
        let original = original.unwrap_or_else(|| {
            let id = format!("PM-{fresh}");
            user.payments.push(Payment {
                id: id.clone(),
                kind: PayKind::Paypal,
                label: "PayPal".into(),
                balance: 0,
            });
            id
        });
        store.orders[at].payment = original;
        store.users[caller].payments[0].id.clone()
    } else if store.orders[at].user == user.id && rng.chance(0.4) {
        // To a gift card (added if the user has none).
        match user.payments.iter().find(|p| p.kind == PayKind::GiftCard) {
            Some(p) => p.id.clone(),
            None => {
                let card = gift_card(fresh, rng);
                let id = card.id.clone();
                user.payments.push(card);
                id
            }
        }
    } else {
        store.orders[at].payment.clone()
    };
    let label = |store: &Store, id: &str| {
        store
            .users
            .iter()
            .flat_map(|u| &u.payments)
            .find(|p| p.id == id)
            .map(|p| format!("my {}", p.label))
            .unwrap_or_default()
    };
    let to = if method_id == store.orders[at].payment && rng.chance(0.5) {
        "the original payment method".to_string()
    } else {
        label(store, &method_id)
    };
    let names: Vec<String> = items.iter().map(|i| said(i)).collect();
    let wish = format!(
        "My order {} arrived. I want to return {}, refunded to {to}.",
        order.id,
        names.join(" and ")
    );
    let request = Request::Return {
        order: order.id.clone(),
        items: items.iter().map(|i| i.item_id.clone()).collect(),
        method: method_id,
    };
    (request, wish)
}
