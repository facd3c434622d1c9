//! The config and task of `web/shop`: the catalogue, the goal, and which
//! requirements a product meets.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Product {
    pub title: String,
    pub category: String,
    pub price: i64,
    pub features: Vec<String>,
    pub colors: Vec<String>,
    pub sizes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goal {
    pub category: String,
    pub feature: String,
    pub color: String,
    pub size: String,
    pub budget: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ShopConfig {
    pub products: usize,
    pub near_misses: usize,
    pub infeasible_share: f64,
}

impl Default for ShopConfig {
    fn default() -> Self {
        ShopConfig {
            products: 30,
            near_misses: 4,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShopTask {
    pub instruction: String,
    pub products: Vec<Product>,
    pub goal: Goal,
    /// The index of the one product meeting the goal; `None` if infeasible.
    pub target: Option<usize>,
    /// Salt of the per-view element ids.
    pub salt: u64,
}

/// The requirements in the order of [`matches`], as an infeasible verdict
/// names the one a near miss breaks (category is never the one).
pub(super) const REQUIREMENTS: [&str; 5] = ["category", "feature", "color", "size", "price"];

/// The one requirement a product of the wanted category breaks, if it
/// breaks exactly one: what makes it evidence that the task is infeasible.
pub(super) fn broken_requirement(p: &Product, g: &Goal) -> Option<&'static str> {
    let met = matches(p, g);
    let mut unmet = (0..5).filter(|&i| !met[i]);
    match (met[0], unmet.next(), unmet.next()) {
        (true, Some(i), None) => Some(REQUIREMENTS[i]),
        _ => None,
    }
}

/// The evidence of an infeasible verdict about product `p`.
pub(super) fn near_miss_evidence(p: &Product, broken: &str) -> String {
    format!("{}; {broken}", p.title)
}

pub(super) fn matches(p: &Product, g: &Goal) -> [bool; 5] {
    [
        p.category == g.category,
        p.features.contains(&g.feature),
        p.colors.contains(&g.color),
        p.sizes.contains(&g.size),
        p.price <= g.budget,
    ]
}
