//! The config, questions and reference of `tools/api-chain`: what each
//! question asks, its answer or final records, and the reference calls
//! (made by driving the server itself, so logins, waits and page tokens
//! are the ones an agent meets).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::api::{Api, SERVICES, Settings, World, status_of};
use crate::toolkit::calls::call_text;

/// The longest reference episode a task may need (the rest of the step cap
/// is slack for a solver's detours).
pub(crate) const MAX_GOLD: usize = 44;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ApiChainConfig {
    pub users: usize,
    pub orders_per_user: usize,
    pub items: usize,
    pub page_size: usize,
    pub token_life: usize,
    pub burst: usize,
    pub retry_after: usize,
}

impl Default for ApiChainConfig {
    fn default() -> Self {
        ApiChainConfig {
            users: 10,
            orders_per_user: 2,
            items: 8,
            page_size: 4,
            token_life: 8,
            burst: 4,
            retry_after: 2,
        }
    }
}

/// What the task asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// The total amount of open orders of users in `region` whose item is
    /// out of stock.
    OpenValue { region: String },
    /// The ids of users in `region` with an open order for an item out of
    /// stock.
    Customers { region: String },
    /// Cancel the open orders of the user named `name` whose item is out
    /// of stock.
    Cancel { name: String },
    /// Set to `stock` the stock of every item out of stock that an open
    /// order of a user in `region` asks for.
    Restock { region: String, stock: i64 },
}

impl Question {
    pub(crate) fn writes(&self) -> bool {
        matches!(self, Question::Cancel { .. } | Question::Restock { .. })
    }

    /// The scopes the reference logs in with.
    fn scopes(&self) -> &'static str {
        match self {
            Question::OpenValue { .. } | Question::Customers { .. } => {
                "users:read orders:read inventory:read"
            }
            Question::Cancel { .. } => "users:read orders:read orders:write inventory:read",
            Question::Restock { .. } => "users:read orders:read inventory:read inventory:write",
        }
    }

    pub(crate) fn text(&self) -> String {
        match self {
            Question::OpenValue { region } => format!(
                "What is the total amount of the open orders placed by users in region `{region}` for items that are out of stock (stock 0)? Answer with the number."
            ),
            Question::Customers { region } => format!(
                "Which users in region `{region}` have at least one open order for an item that is out of stock (stock 0)? Answer with their user ids as a JSON list, e.g. [\"U-1\", \"U-2\"]."
            ),
            Question::Cancel { name } => format!(
                "Cancel every open order of the user named {name} whose item is out of stock (stock 0); leave their other orders alone. Then answer `done`."
            ),
            Question::Restock { region, stock } => format!(
                "Set the stock to {stock} for every item that is out of stock (stock 0) and is asked for by an open order of a user in region `{region}`; change no other item. Then answer `done`."
            ),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiChainTask {
    pub world: World,
    pub settings: Settings,
    pub question: Question,
    /// The graded answer of a read task (`None` for a write task).
    pub answer: Option<String>,
    /// The records after the asked change (the start's for a read task).
    pub expected: World,
    /// The reference calls, `answer` last.
    pub gold: Vec<String>,
}

/// The open orders of users in `region` whose item is out of stock.
fn region_targets<'a>(world: &'a World, region: &str) -> Vec<&'a super::api::Order> {
    world
        .orders
        .iter()
        .filter(|o| o.status == "open" && world.out_of_stock(&o.sku))
        .filter(|o| {
            world
                .users
                .iter()
                .any(|u| u.id == o.user_id && u.region == region)
        })
        .collect()
}

fn user_id_named<'a>(world: &'a World, name: &str) -> Option<&'a str> {
    world
        .users
        .iter()
        .find(|u| u.name == name)
        .map(|u| u.id.as_str())
}

/// The orders a `Cancel` changes (in id order).
pub(crate) fn cancel_targets(world: &World, name: &str) -> Vec<String> {
    let user = user_id_named(world, name).unwrap_or_default();
    world
        .orders
        .iter()
        .filter(|o| o.user_id == user && o.status == "open" && world.out_of_stock(&o.sku))
        .map(|o| o.id.clone())
        .collect()
}

/// The items a `Restock` changes (sorted, without repeats).
pub(crate) fn restock_targets(world: &World, region: &str) -> Vec<String> {
    let mut skus: Vec<String> = region_targets(world, region)
        .iter()
        .map(|o| o.sku.clone())
        .collect();
    skus.sort();
    skus.dedup();
    skus
}

/// The read answer (as the reference writes it), or `None` for writes.
pub(crate) fn answer_of(world: &World, question: &Question) -> Option<String> {
    match question {
        Question::OpenValue { region } => Some(
            region_targets(world, region)
                .iter()
                .map(|o| o.amount)
                .sum::<i64>()
                .to_string(),
        ),
        Question::Customers { region } => {
            let mut ids: Vec<&str> = region_targets(world, region)
                .iter()
                .map(|o| o.user_id.as_str())
                .collect();
            ids.sort();
            ids.dedup();
            Some(json!(ids).to_string())
        }
        _ => None,
    }
}

/// The records after the asked change (each changed record's version up
/// by one, as the server does).
pub(crate) fn expected_world(world: &World, question: &Question) -> World {
    let mut out = world.clone();
    match question {
        Question::Cancel { name } => {
            let ids = cancel_targets(world, name);
            for o in out.orders.iter_mut().filter(|o| ids.contains(&o.id)) {
                o.status = "cancelled".into();
                o.version += 1;
            }
        }
        Question::Restock { region, stock } => {
            let skus = restock_targets(world, region);
            for i in out.items.iter_mut().filter(|i| skus.contains(&i.sku)) {
                i.stock = *stock;
                i.version += 1;
            }
        }
        _ => {}
    }
    out
}

/// One request of the reference plan.
enum Step {
    /// Every page of a listing (up to the page holding `stop`, if given).
    List {
        path: String,
        stop: Option<String>,
    },
    Get {
        path: String,
    },
    Patch {
        path: String,
        body: String,
        version: i64,
    },
}

/// The reference requests: read every page the question joins, then the
/// changes with the versions read.
fn plan(world: &World, question: &Question) -> Vec<Step> {
    let list = |path: String| Step::List { path, stop: None };
    let mut steps = Vec::new();
    match question {
        Question::OpenValue { region }
        | Question::Customers { region }
        | Question::Restock { region, .. } => {
            steps.push(list(format!("/users?region={region}")));
            steps.push(list("/orders?status=open".into()));
            steps.push(list("/inventory".into()));
            if let Question::Restock { stock, .. } = question {
                for sku in restock_targets(world, region) {
                    steps.push(Step::Patch {
                        path: format!("/inventory/{sku}"),
                        body: json!({ "stock": stock }).to_string(),
                        version: world.item(&sku).map_or(0, |i| i.version),
                    });
                }
            }
        }
        Question::Cancel { name } => {
            let user = user_id_named(world, name).unwrap_or_default().to_string();
            steps.push(Step::List {
                path: "/users".into(),
                stop: Some(user.clone()),
            });
            steps.push(list(format!("/orders?user_id={user}&status=open")));
            let mut skus: Vec<&str> = world
                .orders
                .iter()
                .filter(|o| o.user_id == user && o.status == "open")
                .map(|o| o.sku.as_str())
                .collect();
            skus.sort();
            skus.dedup();
            steps.extend(skus.iter().map(|s| Step::Get {
                path: format!("/inventory/{s}"),
            }));
            for id in cancel_targets(world, name) {
                steps.push(Step::Patch {
                    path: format!("/orders/{id}"),
                    body: json!({"status": "cancelled"}).to_string(),
                    version: world
                        .orders
                        .iter()
                        .find(|o| o.id == id)
                        .map_or(0, |o| o.version),
                });
            }
        }
    }
    steps
}

fn service_of(path: &str) -> usize {
    let head = path
        .trim_start_matches('/')
        .split(['/', '?'])
        .next()
        .unwrap_or("");
    SERVICES.iter().position(|s| *s == head).unwrap_or(0)
}

/// Drives a fresh server as the reference does.
struct Driver<'a> {
    task: &'a ApiChainTask,
    api: Api,
    gold: Vec<String>,
    token: String,
}

impl Driver<'_> {
    /// One request, after logging in whenever the token would not answer
    /// it and waiting out a 429 with `/health` calls; its 200 body, or
    /// `None` when it fails or the episode passes [`MAX_GOLD`] calls.
    fn send(&mut self, method: &str, path: &str, patch: Option<(&str, i64)>) -> Option<Value> {
        let service = service_of(path);
        loop {
            if self.gold.len() >= MAX_GOLD {
                return None;
            }
            if self.api.blocked(service) {
                self.gold
                    .push(request_text("GET", "/health", &self.token, None));
                self.api.request("GET", "/health", &self.token, "", None);
                continue;
            }
            if !self.api.token_ok(&self.token) {
                let (key, scopes) = (&self.task.settings.api_key, self.task.question.scopes());
                self.gold.push(call_text(
                    "login",
                    json!({"api_key": key, "scopes": scopes}),
                ));
                let result = self.api.login(key, scopes);
                let body: Value = serde_json::from_str(result.get(9..)?).ok()?;
                self.token = body["token"].as_str()?.to_string();
                continue;
            }
            let version = patch.map(|(_, v)| v.to_string());
            let body = patch.map_or("", |(b, _)| b);
            self.gold.push(request_text(
                method,
                path,
                &self.token,
                patch.map(|(b, _)| b).zip(version.as_deref()),
            ));
            let result = self
                .api
                .request(method, path, &self.token, body, version.as_deref());
            match status_of(&result) {
                200 => return serde_json::from_str(result.get(9..)?).ok(),
                429 => continue,
                _ => return None,
            }
        }
    }
}

/// The reference calls, made against a fresh server (page tokens read from
/// its answers), then the answer. `None` when a request fails or the
/// episode would pass [`MAX_GOLD`] calls.
pub(crate) fn gold_calls(task: &ApiChainTask) -> Option<Vec<String>> {
    let mut d = Driver {
        task,
        api: Api::new(task.world.clone(), task.settings.clone()),
        gold: Vec::new(),
        token: String::new(),
    };
    for step in plan(&task.world, &task.question) {
        match step {
            Step::List { path, stop } => {
                let mut at = path.clone();
                loop {
                    let page = d.send("GET", &at, None)?;
                    let found = stop.as_ref().is_some_and(|id| {
                        page["items"]
                            .as_array()
                            .is_some_and(|items| items.iter().any(|i| i["id"].as_str() == Some(id)))
                    });
                    let Some(next) = page["next_page_token"].as_str().filter(|_| !found) else {
                        break;
                    };
                    let sep = if path.contains('?') { '&' } else { '?' };
                    at = format!("{path}{sep}page_token={next}");
                }
            }
            Step::Get { path } => {
                d.send("GET", &path, None)?;
            }
            Step::Patch {
                path,
                body,
                version,
            } => {
                d.send("PATCH", &path, Some((&body, version)))?;
            }
        }
    }
    let answer = task.answer.clone().unwrap_or_else(|| "done".into());
    d.gold
        .push(call_text("answer", json!({ "answer": answer })));
    (d.gold.len() <= MAX_GOLD).then_some(d.gold)
}

/// A `request` call as the reference writes it (a PATCH with its body and
/// `If-Match` version).
pub(crate) fn request_text(
    method: &str,
    path: &str,
    token: &str,
    patch: Option<(&str, &str)>,
) -> String {
    let mut args = json!({"method": method, "path": path, "token": token});
    if let Some((body, version)) = patch {
        args["body"] = json!(body);
        args["if_match"] = json!(version);
    }
    call_text("request", args)
}
