//! The services of `tools/api-chain`: the records (users, orders,
//! inventory items) and the server in front of them: login and tokens
//! whose life is counted in calls, scopes, opaque page tokens, a
//! per-service rate limit whose wait is counted in calls, and `If-Match`
//! versions on PATCH. Every answer is `HTTP <status> <json body>`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::rng::splitmix64;

/// The three services, in the order their state is kept.
pub(crate) const SERVICES: [&str; 3] = ["users", "orders", "inventory"];

/// Every scope a token may carry.
pub(crate) const SCOPES: [&str; 5] = [
    "users:read",
    "orders:read",
    "orders:write",
    "inventory:read",
    "inventory:write",
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub name: String,
    pub region: String,
    pub tier: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    pub id: String,
    pub user_id: String,
    pub sku: String,
    pub qty: i64,
    pub amount: i64,
    /// `open`, `shipped` or `cancelled`.
    pub status: String,
    pub version: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub sku: String,
    pub name: String,
    pub stock: i64,
    pub price: i64,
    pub version: i64,
}

/// The records behind the services.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    pub users: Vec<User>,
    pub orders: Vec<Order>,
    pub items: Vec<Item>,
}

impl World {
    pub(crate) fn item(&self, sku: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.sku == sku)
    }

    pub(crate) fn out_of_stock(&self, sku: &str) -> bool {
        self.item(sku).is_some_and(|i| i.stock == 0)
    }
}

/// The server's fixed settings (part of the task).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub api_key: String,
    /// Seeds the tokens and page tokens (so they cannot be guessed).
    pub salt: u64,
    pub page_size: usize,
    /// A token answers this many calls after the login that made it.
    pub token_life: usize,
    /// A service serves this many requests, then answers one 429.
    pub burst: usize,
    /// The calls that must go elsewhere after a 429.
    pub retry_after: usize,
    /// Whether the task asks for a change (write scopes allowed).
    pub writes_allowed: bool,
}

/// A token the server issued.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    value: String,
    scopes: Vec<String>,
    /// The last call index it answers.
    expires_at: usize,
}

/// A broken API rule (the episode fails even when the server went along).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Violation {
    /// A write scope requested for a task that asks for no change.
    WriteScopeOnReadTask,
    /// A PATCH without `If-Match` (the legacy server applies it anyway).
    PatchWithoutIfMatch,
    /// A request to a service inside its retry-after wait.
    IgnoredRetryAfter,
}

/// The running server: the records plus the session state.
#[derive(Clone, Debug)]
pub struct Api {
    pub world: World,
    settings: Settings,
    tokens: Vec<Token>,
    /// Tool calls made so far (the clock of tokens and waits).
    pub calls: usize,
    served: [usize; 3],
    /// Calls up to this index are refused by the service (after a 429).
    blocked_until: [usize; 3],
    pub violations: Vec<Violation>,
}

fn hash_text(text: &str, salt: u64) -> u64 {
    text.bytes()
        .fold(splitmix64(salt), |h, b| splitmix64(h ^ u64::from(b)))
}

fn reply(status: u16, body: Value) -> String {
    format!("HTTP {status} {body}")
}

fn error(status: u16, code: &str, detail: &str) -> String {
    reply(status, json!({"error": code, "detail": detail}))
}

/// The status of a server answer (0 when it is not one).
pub(crate) fn status_of(result: &str) -> u16 {
    result
        .strip_prefix("HTTP ")
        .and_then(|r| r.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

impl Api {
    pub fn new(world: World, settings: Settings) -> Self {
        Api {
            world,
            settings,
            tokens: Vec::new(),
            calls: 0,
            served: [0; 3],
            blocked_until: [0; 3],
            violations: Vec::new(),
        }
    }

    /// The page token of `offset` in the listing `key` (resource and
    /// sorted filters).
    pub(crate) fn page_token(&self, key: &str, offset: usize) -> String {
        let h = hash_text(&format!("{key}#{offset}"), self.settings.salt);
        format!("pt_{:08x}", h & 0xffff_ffff)
    }

    /// Whether `token` answers the next call.
    pub(crate) fn token_ok(&self, token: &str) -> bool {
        self.tokens
            .iter()
            .any(|t| t.value == token && self.calls < t.expires_at)
    }

    /// Whether `service` refuses the next call.
    pub(crate) fn blocked(&self, service: usize) -> bool {
        self.calls + 1 < self.blocked_until[service]
    }

    /// Whether the next request to `service` gets the 429.
    pub(crate) fn limit_reached(&self, service: usize) -> bool {
        self.served[service] >= self.settings.burst
    }

    /// One login call: checks the key and the scopes, issues a token.
    pub fn login(&mut self, api_key: &str, scopes: &str) -> String {
        self.calls += 1;
        if api_key.trim() != self.settings.api_key {
            return error(401, "invalid_api_key", "the API key is wrong");
        }
        let mut asked: Vec<String> = scopes
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        asked.sort();
        asked.dedup();
        if let Some(bad) = asked.iter().find(|s| !SCOPES.contains(&s.as_str())) {
            return error(400, "invalid_scope", &format!("unknown scope {bad}"));
        }
        if asked.is_empty() {
            return error(400, "invalid_scope", "no scope requested");
        }
        if !self.settings.writes_allowed && asked.iter().any(|s| s.ends_with(":write")) {
            self.violations.push(Violation::WriteScopeOnReadTask);
        }
        let n = self.tokens.len() as u64;
        let value = format!(
            "tk_{:012x}",
            splitmix64(self.settings.salt ^ (n + 1)) & 0xffff_ffff_ffff
        );
        let life = self.settings.token_life;
        self.tokens.push(Token {
            value: value.clone(),
            scopes: asked.clone(),
            expires_at: self.calls + life,
        });
        reply(
            200,
            json!({"token": value, "scopes": asked, "expires_in_calls": life}),
        )
    }

    /// A call of another tool (the answer): it still moves the clock.
    pub fn tick(&mut self) {
        self.calls += 1;
    }

    /// One request: route, rate limit, authentication, then the handler.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: &str,
        if_match: Option<&str>,
    ) -> String {
        self.calls += 1;
        let method = method.trim().to_ascii_uppercase();
        let (route, query) = path.trim().split_once('?').unwrap_or((path.trim(), ""));
        let parts: Vec<&str> = route.trim_matches('/').split('/').collect();
        if parts == ["health"] {
            return reply(200, json!({"status": "ok", "calls_so_far": self.calls}));
        }
        let Some(service) = SERVICES.iter().position(|s| *s == parts[0]) else {
            return error(404, "not_found", "no such resource");
        };
        let id = match parts.len() {
            1 => None,
            2 => Some(parts[1].to_ascii_uppercase()),
            _ => return error(404, "not_found", "no such resource"),
        };
        let writable = service != 0 && id.is_some();
        match method.as_str() {
            "GET" => {}
            "PATCH" if writable => {}
            _ => return error(405, "method_not_allowed", "method not allowed here"),
        }
        if self.calls < self.blocked_until[service] {
            self.violations.push(Violation::IgnoredRetryAfter);
            let left = self.blocked_until[service] - self.calls - 1;
            return reply(
                429,
                json!({"error": "rate_limited", "retry_after_calls": left}),
            );
        }
        if self.limit_reached(service) {
            self.served[service] = 0;
            self.blocked_until[service] = self.calls + self.settings.retry_after + 1;
            return reply(
                429,
                json!({"error": "rate_limited", "retry_after_calls": self.settings.retry_after}),
            );
        }
        self.served[service] += 1;
        let scope = format!(
            "{}:{}",
            SERVICES[service],
            if method == "GET" { "read" } else { "write" }
        );
        let token = token.trim().trim_start_matches("Bearer ").trim();
        let Some(held) = self.tokens.iter().find(|t| t.value == token) else {
            return error(401, "invalid_token", "log in and send the token");
        };
        if self.calls > held.expires_at {
            return error(401, "token_expired", "the token has expired; log in again");
        }
        if !held.scopes.contains(&scope) {
            return error(403, "insufficient_scope", &format!("needs {scope}"));
        }
        match (method.as_str(), id) {
            ("GET", None) => self.list(service, query),
            ("GET", Some(id)) => match self.record(service, &id) {
                Some(v) => reply(200, v),
                None => error(404, "not_found", "no such record"),
            },
            (_, Some(id)) => self.patch(service, &id, body, if_match),
            _ => error(405, "method_not_allowed", "method not allowed here"),
        }
    }

    fn record(&self, service: usize, id: &str) -> Option<Value> {
        let w = &self.world;
        match service {
            0 => w.users.iter().find(|u| u.id == id).map(|u| json!(u)),
            1 => w.orders.iter().find(|o| o.id == id).map(|o| json!(o)),
            _ => w.item(id).map(|i| json!(i)),
        }
    }

    /// A listing: the filters each service takes, then one page.
    fn list(&self, service: usize, query: &str) -> String {
        let allowed: &[&str] = match service {
            0 => &["region", "tier"],
            1 => &["status", "user_id"],
            _ => &[],
        };
        let mut filters: Vec<(String, String)> = Vec::new();
        let mut page = None;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
            if k == "page_token" {
                page = Some(v);
            } else if allowed.contains(&k.as_str()) {
                filters.push((k, v));
            } else {
                return error(400, "bad_query", &format!("unknown query parameter {k}"));
            }
        }
        filters.sort();
        let rows = self.rows(service, &filters);
        let key = listing_key(service, &filters);
        let size = self.settings.page_size;
        let offset = match page {
            None => 0,
            Some(t) => match (1..rows.len().div_ceil(size))
                .map(|p| p * size)
                .find(|&o| self.page_token(&key, o) == t)
            {
                Some(o) => o,
                None => {
                    return error(
                        400,
                        "bad_page_token",
                        "the page token does not belong to this listing",
                    );
                }
            },
        };
        let end = (offset + size).min(rows.len());
        let next = (end < rows.len()).then(|| self.page_token(&key, end));
        reply(
            200,
            json!({
                "items": rows[offset..end].iter().map(|&i| self.row(service, i)).collect::<Vec<_>>(),
                "next_page_token": next,
            }),
        )
    }

    /// The indices of a listing's records, in id order (filtered on the
    /// records themselves: only the page shown is written as JSON).
    fn rows(&self, service: usize, filters: &[(String, String)]) -> Vec<usize> {
        let w = &self.world;
        let field = |i: usize, k: &str| -> &str {
            match (service, k) {
                (0, "region") => &w.users[i].region,
                (0, _) => &w.users[i].tier,
                (1, "status") => &w.orders[i].status,
                _ => &w.orders[i].user_id,
            }
        };
        let n = [w.users.len(), w.orders.len(), w.items.len()][service];
        (0..n)
            .filter(|&i| {
                filters
                    .iter()
                    .all(|(k, want)| field(i, k).eq_ignore_ascii_case(want))
            })
            .collect()
    }

    fn row(&self, service: usize, i: usize) -> Value {
        let w = &self.world;
        match service {
            0 => json!(w.users[i]),
            1 => json!(w.orders[i]),
            _ => json!(w.items[i]),
        }
    }

    fn patch(&mut self, service: usize, id: &str, body: &str, if_match: Option<&str>) -> String {
        let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(body) else {
            return error(400, "bad_body", "the body must be a JSON object");
        };
        let version = match service {
            1 => self
                .world
                .orders
                .iter()
                .find(|o| o.id == id)
                .map(|o| o.version),
            _ => self.world.item(id).map(|i| i.version),
        };
        let Some(version) = version else {
            return error(404, "not_found", "no such record");
        };
        match if_match.map(|m| m.trim().trim_matches('"').trim()) {
            Some(m) if m != version.to_string() => {
                return error(412, "precondition_failed", "the version has changed");
            }
            Some(_) => {}
            None => self.violations.push(Violation::PatchWithoutIfMatch),
        }
        let (field, ok) = match service {
            1 => (
                "status",
                fields.len() == 1
                    && fields.get("status").and_then(Value::as_str) == Some("cancelled"),
            ),
            _ => (
                "stock",
                fields.len() == 1
                    && fields
                        .get("stock")
                        .and_then(Value::as_i64)
                        .is_some_and(|n| n >= 0),
            ),
        };
        if !ok {
            let want = if field == "status" {
                r#"{"status": "cancelled"}"#
            } else {
                r#"{"stock": N} with N >= 0"#
            };
            return error(400, "bad_body", &format!("the body must be {want}"));
        }
        let w = &mut self.world;
        let record = if service == 1 {
            let o = w
                .orders
                .iter_mut()
                .find(|o| o.id == id)
                .expect("found above");
            if o.status != "open" {
                return error(409, "conflict", "only open orders can be cancelled");
            }
            o.status = "cancelled".into();
            o.version += 1;
            json!(o)
        } else {
            let i = w
                .items
                .iter_mut()
                .find(|i| i.sku == id)
                .expect("found above");
            i.stock = fields["stock"].as_i64().unwrap_or(0);
            i.version += 1;
            json!(i)
        };
        reply(200, record)
    }
}

/// The key a listing's page tokens are made from.
pub(crate) fn listing_key(service: usize, filters: &[(String, String)]) -> String {
    let f: Vec<String> = filters
        .iter()
        .map(|(k, v)| format!("{k}={}", v.to_ascii_lowercase()))
        .collect();
    format!("{}?{}", SERVICES[service], f.join("&"))
}
