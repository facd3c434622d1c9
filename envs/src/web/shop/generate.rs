//! Candidate catalogues and goals of `web/shop` (the env screens them).

use std::collections::BTreeSet;

use super::task::{Goal, Product, ShopConfig, ShopTask, matches};
use crate::rng::Rng;

struct Category {
    name: &'static str,
    features: &'static [&'static str],
    sizes: &'static [&'static str],
}

const CATEGORIES: &[Category] = &[
    Category {
        name: "rain jacket",
        features: &["waterproof", "hooded", "packable", "insulated"],
        sizes: &["xs", "s", "m", "l", "xl"],
    },
    Category {
        name: "running shoe",
        features: &["lightweight", "trail", "wide fit", "cushioned"],
        sizes: &["39", "40", "41", "42", "43"],
    },
    Category {
        name: "backpack",
        features: &["waterproof", "laptop sleeve", "ultralight", "roll-top"],
        sizes: &["20l", "30l", "40l"],
    },
    Category {
        name: "t-shirt",
        features: &["organic cotton", "quick-dry", "oversized", "v-neck"],
        sizes: &["xs", "s", "m", "l", "xl"],
    },
    Category {
        name: "desk chair",
        features: &["ergonomic", "mesh back", "adjustable arms", "reclining"],
        sizes: &["standard", "tall"],
    },
];
const COLORS: &[&str] = &[
    "black", "navy", "olive", "grey", "red", "white", "teal", "mustard",
];
const BRANDS: &[&str] = &[
    "Kestrel", "Fjord", "Lumen", "Atlas", "Cobalt", "Ember", "Juniper", "Harbor", "Quill", "Sable",
];
const MODELS: &[&str] = &["Pro", "Lite", "Max", "Air", "One", "Go", "Trek", "Core"];

fn some(rng: &mut Rng, items: &[&str], lo: usize, hi: usize) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    rng.shuffle(&mut v);
    v.truncate(rng.range_usize(lo, hi.min(items.len())));
    v
}

fn product(category: &Category, rng: &mut Rng, titles: &mut BTreeSet<String>) -> Product {
    let title = loop {
        let t = format!(
            "{} {} {}",
            BRANDS[rng.below(BRANDS.len() as u64) as usize],
            MODELS[rng.below(MODELS.len() as u64) as usize],
            category.name
        );
        if titles.insert(t.clone()) {
            break t;
        }
    };
    Product {
        title,
        category: category.name.into(),
        price: rng.range_i64(15, 300),
        features: some(rng, category.features, 1, 2),
        colors: some(rng, COLORS, 2, 4),
        sizes: some(rng, category.sizes, 2, 4),
    }
}

pub(super) fn draw(config: &ShopConfig, rng: &mut Rng) -> Option<ShopTask> {
    let mut titles = BTreeSet::new();
    let category = &CATEGORIES[rng.below(CATEGORIES.len() as u64) as usize];
    let mut target = product(category, rng, &mut titles);
    let goal = Goal {
        category: category.name.into(),
        feature: target.features[rng.below(target.features.len() as u64) as usize].clone(),
        color: target.colors[rng.below(target.colors.len() as u64) as usize].clone(),
        size: target.sizes[rng.below(target.sizes.len() as u64) as usize].clone(),
        budget: target.price + rng.range_i64(0, 40),
    };
    target.price = target.price.min(goal.budget);
    let mut products = Vec::new();
    for k in 0..config.near_misses {
        let mut miss = target.clone();
        miss.title = product(category, rng, &mut titles).title;
        match k % 4 {
            0 => miss.price = goal.budget + rng.range_i64(1, 80),
            1 => miss.colors.retain(|c| *c != goal.color),
            2 => miss.sizes.retain(|s| *s != goal.size),
            _ => miss.features.retain(|f| *f != goal.feature),
        }
        if miss.colors.is_empty() || miss.sizes.is_empty() || miss.features.is_empty() {
            return None;
        }
        products.push(miss);
    }
    while products.len() + 1 < config.products {
        let c = &CATEGORIES[rng.below(CATEGORIES.len() as u64) as usize];
        products.push(product(c, rng, &mut titles));
    }
    let feasible = !rng.chance(config.infeasible_share);
    if feasible {
        products.push(target);
    }
    rng.shuffle(&mut products);
    let meeting: Vec<usize> = (0..products.len())
        .filter(|&i| matches(&products[i], &goal).iter().all(|m| *m))
        .collect();
    let target = match (feasible, meeting.as_slice()) {
        (true, [one]) => Some(*one),
        (false, []) => None,
        _ => return None,
    };
    let instruction = format!(
        "Buy a {} with the feature \"{}\", in {}, size {}, for at most ${}. Choose the colour and size on the product page before buying. \
         If no product meets every requirement, buy nothing and answer `infeasible: TITLE; REQUIREMENT` with the title of a {} \
         that meets every requirement but one and that one (feature, color, size or price).",
        goal.category, goal.feature, goal.color, goal.size, goal.budget, goal.category
    );
    Some(ShopTask {
        instruction,
        products,
        goal,
        target,
        salt: rng.next_u64(),
    })
}
