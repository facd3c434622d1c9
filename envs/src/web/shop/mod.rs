//! `web/shop-v2`: a WebShop-like store: search, open items, choose options
//! and buy the one product that meets every requirement within budget.
//!
//! # Task
//! A generated catalogue (categories, brands, features, colour and size
//! options, prices) with near misses of the wanted product: over budget,
//! lacking the colour or size, lacking the feature. The instruction names a
//! category, a feature, a colour, a size and a budget; exactly one product
//! meets them all. A fixed share (`infeasible_share`) has none (only the
//! near misses remain): those pass only with no order and the verdict
//! `infeasible: TITLE; REQUIREMENT` naming a product of the category that
//! meets every requirement but one, and that one (feature, color, size or
//! price): evidence only browsing the catalogue gives.
//!
//! # Action
//! Web commands (`click [ID]`, `type [ID] "text"`, `scroll down|up`,
//! `back`, `submit` (the search form), `answer "…"`) or the same calls in any format of
//! [`crate::toolkit::parse`]. Unparseable commands are
//! [`crate::InvalidAction`]s; an id that is not on the current view (ids
//! change on every page view) or a click that does nothing is an *error
//! observation*: the next observation says so and nothing changes.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The instruction, the page as an accessibility tree (interactive elements
//! carry `[id]`), the outcome of the last command, and how to act.
//! Structured: `task`, `tools` (OpenAI function schemas), `page` (title and
//! elements with ids), `message`.
//!
//! # Reward
//! 1 and `passed` only when the order is the wanted product with the wanted
//! colour and size (canonical attribute ids), or, for infeasible tasks, when
//! nothing was bought and the verdict names a real near miss and what it
//! breaks. The breakdown gives
//! partial credit (share of category, feature, colour, size and budget met)
//! that never counts as a pass.
//!
//! # Episode end
//! Placing an order or the `answer` call (terminated); the step cap
//! truncates (score 0).
//!
//! # Parameters
//! `products` (8..=120), `near_misses` (2..=6), `infeasible_share`
//! (0..=0.5).
//!
//! # Seeding
//! Catalogue, goal and the id salt come from the task rng; each candidate
//! is screened (the oracle passes through the agent's path; constant
//! answers fail).
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts name a near miss and the requirement it breaks
//! (a bare `infeasible` passed every infeasible task).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::browser::{self, Browser, Chrome};
use super::{Element, Page, Role, WEB_TOOLS, observe_page, random_command, web_tool_specs};
use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::bm25;
use crate::toolkit::calls::{Calls, ToolCall};
use crate::toolkit::final_answer::infeasible_answer;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::tool_effort;
use crate::toolkit::spec::ToolSpec;
use crate::toolkit::tool_env::{CallCount, ToolEnv, turn_until};

/// The tools in OpenAI function format (the shared web tools).
pub fn tool_specs() -> Value {
    web_tool_specs()
}

mod generate;
mod shopper;
mod task;
#[cfg(test)]
mod tests;

pub use task::{Goal, Product, ShopConfig, ShopTask};

use task::{REQUIREMENTS, matches, near_miss_evidence};

/// Search results per page.
const PER_PAGE: usize = 5;

/// An order: product index and canonical attribute ids.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Order {
    pub product: usize,
    pub options: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum View {
    Home,
    Results {
        query: String,
        page: usize,
    },
    Item {
        product: usize,
        chosen: BTreeMap<String, String>,
    },
}

#[derive(Clone, Debug)]
pub struct Shop {
    task: ShopTask,
    index: std::sync::OnceLock<bm25::Index>,
    view: View,
    history: Vec<View>,
    query_box: String,
    views: usize,
    page: Page,
    message: String,
    order: Option<Order>,
    answered: Option<String>,
    count: CallCount,
}

impl Shop {
    fn index(&self) -> &bm25::Index {
        self.index.get_or_init(|| {
            let docs: Vec<String> = self
                .task
                .products
                .iter()
                .map(|p| format!("{} {} {}", p.title, p.category, p.features.join(" ")))
                .collect();
            bm25::Index::new(docs.iter().map(String::as_str))
        })
    }

    fn results(&self, query: &str) -> Vec<usize> {
        self.index()
            .search(query, self.task.products.len())
            .into_iter()
            .map(|(i, _)| i)
            .collect()
    }

    /// Builds the page of the current view (a new view gets new ids).
    fn build(&mut self) {
        self.views += 1;
        let mut e = Vec::new();
        let title = match &self.view {
            View::Home => {
                e.push(Element::new(Role::Heading, "Welcome to the store", ""));
                e.push(
                    Element::new(Role::Textbox, "Search products", "q")
                        .with_value(Some(self.query_box.clone())),
                );
                e.push(Element::new(Role::Button, "Search", "search"));
                "Home".to_string()
            }
            View::Results { query, page } => {
                let hits = self.results(query);
                let pages = hits.len().div_ceil(PER_PAGE).max(1);
                e.push(Element::new(
                    Role::Heading,
                    format!("Results for \"{query}\""),
                    "",
                ));
                e.push(Element::text(format!(
                    "{} items, page {} of {pages}",
                    hits.len(),
                    page + 1
                )));
                for &i in hits.iter().skip(page * PER_PAGE).take(PER_PAGE) {
                    let p = &self.task.products[i];
                    e.push(Element::new(
                        Role::Link,
                        format!("{} - ${}", p.title, p.price),
                        format!("p:{i}"),
                    ));
                }
                if *page > 0 {
                    e.push(Element::new(Role::Button, "Previous page", "prev"));
                }
                if page + 1 < pages {
                    e.push(Element::new(Role::Button, "Next page", "next"));
                }
                e.push(Element::new(Role::Button, "New search", "home"));
                "Search results".to_string()
            }
            View::Item { product, chosen } => {
                let p = &self.task.products[*product];
                e.push(Element::new(Role::Heading, p.title.clone(), ""));
                e.push(Element::text(format!("Price: ${}", p.price)));
                e.push(Element::text(format!("Category: {}", p.category)));
                e.push(Element::text(format!(
                    "Features: {}",
                    p.features.join(", ")
                )));
                for (group, values) in [("color", &p.colors), ("size", &p.sizes)] {
                    e.push(Element::text(format!("Choose {group}:")));
                    for v in values {
                        let checked = chosen.get(group) == Some(v);
                        e.push(
                            Element::new(Role::Radio, v.clone(), format!("opt:{group}:{v}"))
                                .with_value(checked.then(|| "checked".into())),
                        );
                    }
                }
                e.push(Element::new(Role::Button, "Buy now", "buy"));
                "Product".to_string()
            }
        };
        self.page = Page::new_view(title, e, self.task.salt, self.views);
    }

    fn go(&mut self, view: View) {
        let old = std::mem::replace(&mut self.view, view);
        self.history.push(old);
        self.build();
    }
}

impl Browser for Shop {
    fn chrome(&mut self) -> Chrome<'_> {
        (&mut self.page, &mut self.message, &mut self.answered)
    }

    fn click(&mut self, key: &str) -> String {
        if key == "search" {
            let query = self.query_box.trim().to_string();
            self.go(View::Results { query, page: 0 });
            return "searched".into();
        }
        if key == "home" {
            self.go(View::Home);
            return "opened the search page".into();
        }
        if let View::Results { query, page } = self.view.clone() {
            match key {
                "next" => self.go(View::Results {
                    query,
                    page: page + 1,
                }),
                "prev" => self.go(View::Results {
                    query,
                    page: page.saturating_sub(1),
                }),
                _ => {
                    let product = key
                        .strip_prefix("p:")
                        .and_then(|i| i.parse().ok())
                        .unwrap_or(0);
                    self.go(View::Item {
                        product,
                        chosen: BTreeMap::new(),
                    });
                }
            }
            return "opened".into();
        }
        let View::Item { product, chosen } = &mut self.view else {
            return "nothing happened".into();
        };
        if let Some(rest) = key.strip_prefix("opt:") {
            let (group, value) = rest.split_once(':').unwrap_or((rest, ""));
            chosen.insert(group.to_string(), value.to_string());
            let scroll = self.page.scroll;
            self.views -= 1;
            self.build();
            self.page.scroll = scroll;
            return format!("selected {group} {value}");
        }
        if chosen.len() < 2 {
            return "error: choose a color and a size first".into();
        }
        self.order = Some(Order {
            product: *product,
            options: chosen.clone(),
        });
        "order placed".into()
    }

    /// The search box is the store's only text box.
    fn type_into(&mut self, id: i64, _key: &str, text: String) -> String {
        self.query_box = text;
        self.page
            .elements
            .iter_mut()
            .filter(|e| e.key == "q")
            .for_each(|e| e.value = Some(self.query_box.clone()));
        format!("typed into [{id}]")
    }

    fn submit(&mut self) -> String {
        match self.view {
            View::Home => self.click("search"),
            _ => "error: no form on this page".into(),
        }
    }

    fn back(&mut self) -> Option<()> {
        self.view = self.history.pop()?;
        self.build();
        Some(())
    }
}

impl ToolEnv for Shop {
    fn tools(&self) -> &[ToolSpec] {
        &WEB_TOOLS
    }

    fn feasible(task: &ShopTask) -> bool {
        task.target.is_some()
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        browser::run_call(self, &call)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Shop {
    type Config = ShopConfig;
    type Task = ShopTask;
    type Action = Calls;

    // v1's feasible tasks read as v2's; its infeasible ones (no target) took
    // a bare `infeasible`, and v2 asks for a near miss.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["target"].is_null())),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "web/shop-v2",
        kind: EnvKind::MultiTurn,
        description: "WebShop-like store: search, open items, choose options and buy the one product within budget",
        players: 1,
        max_steps: 40,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"products":10,"near_misses":2}"#,
        r#"{"products":20,"near_misses":3}"#,
        r#"{}"#,
        r#"{"products":60,"near_misses":5}"#,
        r#"{"products":100,"near_misses":6}"#,
    ];

    fn effort(task: &ShopTask) -> Option<f64> {
        tool_effort::<Self>(task.products.len(), task)
    }

    fn validate(c: &ShopConfig) -> Result<(), ConfigError> {
        if (8..=120).contains(&c.products)
            && (2..=6).contains(&c.near_misses)
            && (0.0..=0.5).contains(&c.infeasible_share)
        {
            Ok(())
        } else {
            Err("need products 8..=120, near_misses 2..=6, infeasible_share 0..=0.5".into())
        }
    }

    fn generate(config: &ShopConfig, rng: &mut Rng) -> ShopTask {
        browser::draw_screened::<Shop>(rng, |rng| generate::draw(config, rng))
    }

    fn reference(task: &ShopTask) -> Option<Value> {
        Some(match task.target {
            Some(t) => {
                json!({"product": task.products[t].title, "color": task.goal.color, "size": task.goal.size})
            }
            None => {
                let shop = Shop::reset(task, Rng::from_seed(0));
                let (w, broken) = shop.witness()?;
                json!(infeasible_answer(&near_miss_evidence(
                    &task.products[w],
                    broken
                )))
            }
        })
    }

    fn reset(task: &ShopTask, _rng: Rng) -> Self {
        let mut shop = Shop {
            task: task.clone(),
            index: std::sync::OnceLock::new(),
            view: View::Home,
            history: Vec::new(),
            query_box: String::new(),
            views: 0,
            page: Page::default(),
            message: String::new(),
            order: None,
            answered: None,
            count: CallCount::default(),
        };
        shop.build();
        shop
    }

    fn turn(&self) -> Turn {
        turn_until(
            self.order.is_some()
                || self.answered.is_some()
                || self.count.spent(Self::SPEC.max_steps),
        )
    }

    fn observe(&self, _player: Player) -> Observation {
        observe_page(&self.task.instruction, &self.page, &self.message)
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &WEB_TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(browser::apply_turn(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let goal = &self.task.goal;
        let (passed, share) = match (&self.order, self.task.target) {
            (Some(order), target) => {
                let p = &self.task.products[order.product];
                let mut met = matches(p, goal);
                met[2] &= order.options.get("color") == Some(&goal.color);
                met[3] &= order.options.get("size") == Some(&goal.size);
                (
                    Some(order.product) == target && met.iter().all(|m| *m),
                    met.iter().filter(|m| **m).count() as f64 / 5.0,
                )
            }
            (None, None) => (
                self.answered
                    .as_deref()
                    .is_some_and(|a| self.verdict_holds(a)),
                0.0,
            ),
            (None, Some(_)) => (false, 0.0),
        };
        Score::binary(passed).part("attributes_met", share)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(self.next_command())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let p = &self.task.products[rng.below(self.task.products.len() as u64) as usize];
        let broken = REQUIREMENTS[rng.below(5) as usize];
        let answer = infeasible_answer(&near_miss_evidence(p, broken));
        random_command(&self.page, answer, rng)
    }

    fn render(&self) -> String {
        format!(
            "view={:?} order={:?} answered={:?} target={:?}",
            self.view, self.order, self.answered, self.task.target
        )
    }
}
