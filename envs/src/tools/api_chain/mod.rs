//! `tools/api-chain-v1`: a client of three paginated, authenticated
//! REST-like services (users, orders, inventory) answers a question that
//! joins them, or makes the asked change; scored on the exact answer or the
//! final records, and on the API's rules.
//!
//! # Task
//! Generated records behind three services: users (id, name, region,
//! tier), orders (id, user, item, quantity, amount, status, version) and
//! inventory items (sku, name, stock, price, version), and one task that
//! needs all three: the total amount of the open orders of users in a
//! region for items out of stock, the ids of those users, cancelling the
//! open orders of a named user whose item is out of stock, or restocking
//! the out-of-stock items that open orders from a region ask for. The
//! server has rules an agent meets on the way: a login returns a token with
//! the asked scopes that answers a fixed number of calls (401 afterwards;
//! 403 without the scope), listings come one page at a time with opaque
//! page tokens, each service serves a few requests and then answers 429
//! with a wait counted in calls, and PATCH takes an `If-Match` version
//! (412 when stale).
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `login`,
//! `request` (method, path with query, token, body, if_match) and the
//! closing `answer`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; what the server refuses is an HTTP error
//! result. Each turn is read out of the whole reply by `crate::reply`:
//! reasoning is dropped, then the reply as it is, the text after an
//! `Action:`, `Move:` or `Command:` marker, a fenced block, or the last
//! line; two different actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The API key, the API reference, the client rules, the task, the tools,
//! how to call them, and the calls so far with their results. Structured:
//! `task`, `tools` (OpenAI function schemas), `history`, `answered`.
//!
//! # Reward
//! 1 and `passed` only when `answer` was called, no client rule was broken
//! (no write scope on a task that asks for no change, no PATCH without
//! `If-Match`, no request to a service inside its retry-after wait: the
//! server goes along, the episode fails), and the records end as asked:
//! unchanged for a question, which also needs the exact answer (a number
//! compared by value; a list of ids compared as a set, any order, no
//! extra or repeated id); exactly the asked records changed (each once,
//! its version up by one) for a change, whose answer text is not graded.
//! Breakdown: `answer_correct`, `state_correct`, `rules_kept`.
//!
//! # Episode end
//! `answer` (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `users` (4..=40), `orders_per_user` (1..=4), `items` (4..=30),
//! `page_size` (2..=10), `token_life` (3..=30 calls), `burst` (2..=20
//! requests), `retry_after` (1..=5 calls).
//!
//! # Seeding
//! The records, the question, the API key and the token salt come from the
//! task rng; a candidate is kept only when dropping the stock or the region
//! filter changes its answer, its reference fits 44 calls, and it passes
//! the screen (the oracle passes through the agent's path; every answer
//! copied from the prompt, given at once, fails).
//!
//! # Version history
//! v1: first version.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::final_answer::answers_match;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{blind_answers, draw_screened, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, RESOLUTION_CALL_HELP, ToolEnv, apply_calls, observation_text, tool_observation,
    turn_until,
};

mod api;
mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use api::{Api, Item, Order, Settings, User, Violation, World};
pub use task::{ApiChainConfig, ApiChainTask, Question};

use api::SCOPES;

const API_DOC: &str = "API reference:\n\
- login(api_key, scopes): scopes are space-separated, from users:read, orders:read, orders:write, inventory:read, inventory:write. Returns a token with those scopes; it answers the next `expires_in_calls` calls (every call counts), then requests get 401 token_expired: log in again.\n\
- request(method, path, token, body?, if_match?): answers `HTTP <status> <json>`. Paths (query in the path):\n\
  GET /users?region=R&tier=T, GET /users/{id} (users:read)\n\
  GET /orders?status=S&user_id=U, GET /orders/{id} (orders:read); PATCH /orders/{id} with body {\"status\": \"cancelled\"} (orders:write)\n\
  GET /inventory, GET /inventory/{sku} (inventory:read); PATCH /inventory/{sku} with body {\"stock\": N} (inventory:write)\n\
  GET /health (no token needed; does nothing)\n\
  Filters are optional. A listing answers one page: {\"items\": [...], \"next_page_token\": T or null}; add page_token=T to the same query for the next page. Records carry a `version`; a PATCH sends it as if_match (412 when it is stale).\n\
  Errors: 400 bad query, body or page token; 401 missing, wrong or expired token; 403 missing scope; 404 unknown path or record; 412 stale version; 429 rate_limited: each service serves a few requests, then answers 429 with retry_after_calls K.";

const RULES: &str = "Client rules (breaking one fails the task, even where the server goes along):\n\
1. Ask for write scopes only when the task asks for a change.\n\
2. Every PATCH sends if_match with the record's current version.\n\
3. After a 429 with retry_after_calls K, make your next K calls elsewhere (another service, login or GET /health) before calling that service again.\n\
4. Change only what the task asks for.";

/// The running client session. It copies only what the tools change and
/// the facts it scores with.
#[derive(Clone, Debug)]
pub struct ApiChainEnv {
    api: Api,
    question: Question,
    instruction: String,
    answer: Option<String>,
    expected: World,
    gold: std::sync::Arc<[String]>,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    vec![
        ToolSpec::new(
            "login",
            "log in with the API key; returns a token with the asked scopes",
            vec![
                Param::required("api_key", ParamType::String, "the API key"),
                Param::required(
                    "scopes",
                    ParamType::String,
                    "space-separated scopes, e.g. `users:read orders:read`",
                ),
            ],
        ),
        ToolSpec::new(
            "request",
            "one HTTP request to the API",
            vec![
                Param::required("method", ParamType::String, "GET or PATCH")
                    .one_of(&["GET", "PATCH"]),
                Param::required(
                    "path",
                    ParamType::String,
                    "path with its query, e.g. /orders?status=open",
                ),
                Param::required("token", ParamType::String, "the token from login"),
                Param::optional(
                    "body",
                    ParamType::String,
                    "a PATCH's JSON body as a string, e.g. {\"stock\": 5}",
                ),
                Param::optional(
                    "if_match",
                    ParamType::String,
                    "a PATCH's If-Match: the record's current version",
                ),
            ],
        ),
        answer_tool("finish: the number, the JSON list of ids, or `done` after a change"),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

/// Whether `given` is the expected answer: a JSON list of ids compares as
/// a set written once each (any order, brackets and quotes optional);
/// anything else by [`answers_match`] (numbers by value).
fn answer_matches(given: &str, expected: &str) -> bool {
    let Ok(want) = serde_json::from_str::<Vec<String>>(expected) else {
        return answers_match(given, expected);
    };
    let mut got: Vec<String> = given
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']' | '"' | '\''))
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches('.').to_ascii_uppercase())
        .collect();
    let mut want: Vec<String> = want.iter().map(|w| w.to_ascii_uppercase()).collect();
    got.sort();
    want.sort();
    got == want
}

impl ApiChainEnv {
    fn run(&mut self, call: &ToolCall) -> String {
        match call.name.as_str() {
            "login" => self.api.login(call.str("api_key"), call.str("scopes")),
            "request" => {
                let if_match = call.args.get("if_match").and_then(Value::as_str);
                self.api.request(
                    call.str("method"),
                    call.str("path"),
                    call.str("token"),
                    call.str("body"),
                    if_match,
                )
            }
            "answer" => {
                self.api.tick();
                self.answered = Some(call.str("answer").to_string());
                "answer recorded".into()
            }
            other => format!("error: no tool {other}"),
        }
    }
}

impl ToolEnv for ApiChainEnv {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    /// Every task can be done.
    fn feasible(_task: &ApiChainTask) -> bool {
        true
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for ApiChainEnv {
    type Config = ApiChainConfig;
    type Task = ApiChainTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/api-chain-v1",
        kind: EnvKind::MultiTurn,
        description: "Paginated, authenticated REST-like services (users, orders, inventory): tokens that expire in calls, scopes, page tokens, 429 waits and If-Match versions; joins answered exactly or changes checked on the final records",
        players: 1,
        max_steps: 60,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"users":6,"orders_per_user":2,"items":5,"page_size":3,"token_life":12,"burst":8,"retry_after":1}"#,
        r#"{"users":8,"orders_per_user":2,"items":6,"page_size":3,"token_life":10,"burst":5,"retry_after":1}"#,
        r#"{}"#,
        r#"{"users":16,"orders_per_user":2,"items":12,"page_size":4,"token_life":7,"burst":4,"retry_after":2}"#,
        r#"{"users":24,"orders_per_user":3,"items":18,"page_size":4,"token_life":6,"burst":3,"retry_after":3}"#,
    ];

    fn effort(task: &ApiChainTask) -> Option<f64> {
        let w = &task.world;
        tool_effort::<Self>(w.users.len() + w.orders.len() + w.items.len(), task)
    }

    fn validate(config: &ApiChainConfig) -> Result<(), ConfigError> {
        let ranges = [
            ("users", config.users, 4, 40),
            ("orders_per_user", config.orders_per_user, 1, 4),
            ("items", config.items, 4, 30),
            ("page_size", config.page_size, 2, 10),
            ("token_life", config.token_life, 3, 30),
            ("burst", config.burst, 2, 20),
            ("retry_after", config.retry_after, 1, 5),
        ];
        for (name, value, lo, hi) in ranges {
            if !(lo..=hi).contains(&value) {
                return Err(format!("{name} must be in {lo}..={hi}").into());
            }
        }
        Ok(())
    }

    fn generate(config: &ApiChainConfig, rng: &mut Rng) -> ApiChainTask {
        draw_screened::<ApiChainEnv>(|| generate::draw(config, rng), degenerate_scripts)
    }

    fn reference(task: &ApiChainTask) -> Option<Value> {
        Some(match &task.answer {
            Some(answer) => json!(answer),
            None => json!({"expected": task.expected}),
        })
    }

    fn reset(task: &ApiChainTask, _rng: Rng) -> Self {
        ApiChainEnv {
            api: Api::new(task.world.clone(), task.settings.clone()),
            question: task.question.clone(),
            instruction: format!(
                "API key: {}\n\n{API_DOC}\n\n{RULES}\n\nTask: {}",
                task.settings.api_key,
                task.question.text()
            ),
            answer: task.answer.clone(),
            expected: task.expected.clone(),
            gold: task.gold.clone().into(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        let text = observation_text(
            &format!(
                "You are a client of a REST API with three services: users, orders and inventory. End with the `answer` tool.\n\n{}",
                self.instruction
            ),
            &TOOLS,
            RESOLUTION_CALL_HELP,
            &self.log,
        );
        tool_observation(
            text,
            tool_specs(),
            &self.log,
            json!({"task": self.instruction, "answered": self.answered}),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let answer = match (&self.answered, &self.answer) {
            (Some(given), Some(want)) => answer_matches(given, want),
            (Some(_), None) => true,
            (None, _) => false,
        };
        let state = self.api.world == self.expected;
        let rules = self.api.violations.is_empty();
        Score::binary(answer && state && rules)
            .part("answer_correct", f64::from(u8::from(answer)))
            .part("state_correct", f64::from(u8::from(state)))
            .part("rules_kept", f64::from(u8::from(rules)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let w = &self.api.world;
        let user = &w.users[rng.below(w.users.len() as u64) as usize].id;
        let order = &w.orders[rng.below(w.orders.len() as u64) as usize].id;
        let item = &w.items[rng.below(w.items.len() as u64) as usize].sku;
        let token = format!("tk_{:012x}", rng.next_u64() & 0xffff_ffff_ffff);
        let path = match rng.below(6) {
            0 => "/users".to_string(),
            1 => format!("/users/{user}"),
            2 => "/orders?status=open".to_string(),
            3 => format!("/orders/{order}"),
            4 => "/inventory".to_string(),
            _ => format!("/inventory/{item}"),
        };
        let call = match rng.below(5) {
            0 => ToolCall::new(
                "login",
                json!({"api_key": "key_0", "scopes": SCOPES[rng.below(SCOPES.len() as u64) as usize]}),
            ),
            1 | 2 => ToolCall::new(
                "request",
                json!({"method": "GET", "path": path, "token": token}),
            ),
            3 => ToolCall::new(
                "request",
                json!({"method": "PATCH", "path": path, "token": token,
                    "body": json!({"stock": rng.range_i64(0, 50)}).to_string(),
                    "if_match": rng.range_i64(1, 5).to_string()}),
            ),
            _ => ToolCall::new(
                "answer",
                json!({"answer": rng.range_i64(0, 5000).to_string()}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} answered={:?} expected={:?} violations={:?} question={:?}",
            self.log.entries.len(),
            self.answered,
            self.answer,
            self.api.violations,
            self.question
        )
    }
}

/// Answers given at once: everything copied from the prompt and the
/// constant answers. Such an answer passes a question exactly when it
/// matches (no call changed anything or broke a rule), so only the
/// matching ones are played; it never passes a change, which `done` at
/// once stands for.
fn degenerate_scripts(task: &ApiChainTask) -> Vec<Vec<String>> {
    let answer = |a: &str| vec![call_text("answer", json!({ "answer": a }))];
    let Some(want) = &task.answer else {
        return vec![answer("done")];
    };
    blind_answers::<ApiChainEnv>(task)
        .into_iter()
        .chain(["0".to_string(), "[]".to_string()])
        .filter(|a| answer_matches(a, want))
        .map(|a| answer(&a))
        .collect()
}
