//! The config and task of `web/site-nav`: the portal's backend, its help
//! articles, and the errand.

use serde::{Deserialize, Serialize};

use crate::card::TaskCard;
use crate::error::Refusal;
use crate::refusals::refuse_constant_verdict;

/// The ticket categories a portal may offer; each task's form offers some.
pub(crate) const CATEGORIES: [&str; 8] = [
    "billing",
    "shipping",
    "technical",
    "returns",
    "account",
    "warranty",
    "legal",
    "other",
];
/// Categories a task's ticket form offers.
pub(crate) const OFFERED_CATEGORIES: usize = 4;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    pub category: String,
    pub order: String,
    pub message: String,
}

/// The portal's backend: what tasks are scored on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Backend {
    /// email, phone, city.
    pub profile: [String; 3],
    /// (topic, subscribed), in display order.
    pub topics: Vec<(String, bool)>,
    pub tickets: Vec<Ticket>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Article {
    pub title: String,
    pub body: String,
}

/// What the reference navigator works towards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Errand {
    Profile,
    Topics,
    Ticket,
    /// Read this article (index) then answer.
    Lookup(usize),
    /// A ticket in a category the form does not offer: infeasible.
    MissingCategory,
    /// A look-up with no article: infeasible.
    MissingArticle,
}

impl Errand {
    pub fn feasible(&self) -> bool {
        !matches!(self, Errand::MissingCategory | Errand::MissingArticle)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SiteNavConfig {
    pub topics: usize,
    pub articles: usize,
    pub tickets: usize,
    pub infeasible_share: f64,
}

impl Default for SiteNavConfig {
    fn default() -> Self {
        SiteNavConfig {
            topics: 5,
            articles: 5,
            tickets: 2,
            infeasible_share: 0.2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteNavTask {
    pub instruction: String,
    pub name: String,
    pub initial: Backend,
    pub expected: Backend,
    pub articles: Vec<Article>,
    /// The categories the ticket form offers, in its order.
    pub categories: Vec<String>,
    pub errand: Errand,
    pub answer: String,
    pub salt: u64,
}

/// The ticket form of every `web/site-nav-v1` task, in its order.
const V1_CATEGORIES: [&str; 4] = ["billing", "shipping", "technical", "other"];

/// A `web/site-nav-v1` card as v2 reads it: v2 tasks list their form's
/// categories, and v1's form offered the same four on every task. v1's
/// impossible errands took a bare `infeasible` (v2 asks for evidence), so
/// they stay refused.
pub(super) fn upgrade_v1(card: &mut TaskCard) -> Result<(), Refusal> {
    refuse_constant_verdict(card.task["errand"] == "impossible")?;
    card.task
        .as_object_mut()
        .ok_or("the task is not a JSON object")?
        .insert("categories".into(), serde_json::json!(V1_CATEGORIES));
    Ok(())
}
