//! `tools/bank-v1`: a bank desk bound by a written policy; the agent looks
//! up accounts and transactions, moves money or places and lifts holds, or
//! refuses, and is scored on the bank's final state and the policy.
//!
//! # Task
//! A bank database (customers; accounts with owner, kind, balance and daily
//! transfer limit; holds with a reason; recent transactions with days ago,
//! kind, direction and amount) and one caller who gives their name and
//! email and asks for one thing: send an amount from one account to
//! another, put a hold on an account (a lost card), or lift a hold. The
//! policy in the prompt decides: only the caller's own accounts, no
//! transfers from an account on hold, none over the balance, none that
//! with today's transfers out (card payments excluded) would pass the daily
//! limit, no second hold, and only holds placed at the customer's request
//! may be lifted; a broken rule is refused with its reason code. The
//! request kind and its outcome are drawn first (refusals with a fixed
//! share `refuse_share`) and the named account's facts set to force it.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]:
//! `find_customer`, `get_account`, `list_transactions` (reads), `transfer`,
//! `place_hold`, `release_hold` (changes, carried out whatever the policy
//! says, as a real back office would), and the closing calls
//! `complete_request` and `refuse`. Unparseable calls and bad arguments are
//! [`crate::InvalidAction`]s; unknown accounts and holds are error results.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several: they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`).
//!
//! # Observation
//! The policy, the caller's message, the tools, how to call them, and the
//! calls so far with their results. Structured: `policy`, `opening`,
//! `tools` (OpenAI function schemas), `history`, `resolution`.
//!
//! # Reward
//! 1 and `passed` only when the bank's final state (every balance, every
//! hold's account and reason, every transaction) equals the state the
//! policy leads to, and the closing call is the policy's: `complete_request`
//! after an allowed change, or `refuse` with the first broken rule's reason;
//! both name the caller's customer id, which only `find_customer` gives (so
//! a constant closing call never passes). A forbidden transfer, hold or
//! release fails even when the customer asked for it, and so does a
//! refusal of an allowed request.
//! Breakdown: `state_correct`, `closing_correct`.
//!
//! # Episode end
//! The first closing call (terminated); the step cap truncates (score as it
//! stands, which is 0 without a closing call).
//!
//! # Parameters
//! `customers` (2..=30), `accounts_per_customer` (1..=4),
//! `transactions_per_account` (1..=15), `refuse_share` (0..=0.6).
//!
//! # Seeding
//! The bank, the request and its wording come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! closing at once with any reason, and carrying out a refused request,
//! fail).
//!
//! # Version history
//! v1: first version.

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{draw_screened, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, openai_specs};
use crate::toolkit::tool_env::{CallCount, Log, ToolEnv, apply_calls, turn_until};
use crate::tools::policy_desk::{Desk, closing_tools, wrong_refusals};

mod generate;
mod task;
#[cfg(test)]
mod tests;

pub use task::{
    Account, Bank, BankConfig, BankTask, Customer, Direction, Hold, Op, Outcome, Request, Txn,
    TxnKind,
};

use task::{POLICY, REASONS, State};

/// How a conversation was closed: the call and the customer id it named.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Closing {
    Complete { customer: String },
    Refuse { reason: String, customer: String },
}

/// The running desk. It copies only the task's bank (the part the tools
/// change) and the few facts it scores with.
#[derive(Clone, Debug)]
pub struct BankEnv {
    bank: Bank,
    caller: String,
    opening: String,
    outcome: Outcome,
    gold: std::sync::Arc<[String]>,
    /// The transactions the task starts with (the tools only append).
    base: usize,
    expected: State,
    log: Log,
    count: CallCount,
    placed: usize,
    closing: Option<Closing>,
}

/// The agent's role and policy.
const DESK: Desk = Desk {
    role: "You are a bank's customer-service agent.",
    policy: POLICY,
    speaker: "Customer",
};

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let account = |name: &str| Param::required(name, ParamType::String, "account id like A-12345");
    let customer = || {
        Param::required(
            "customer_id",
            ParamType::String,
            "the caller's customer id like C-12345",
        )
    };
    let mut tools = vec![
        ToolSpec::new(
            "find_customer",
            "a customer's id, name and accounts (id and kind) by email",
            vec![Param::required(
                "email",
                ParamType::String,
                "the customer's email",
            )],
        ),
        ToolSpec::new(
            "get_account",
            "an account's owner, kind, balance, daily transfer limit and holds",
            vec![account("account_id")],
        ),
        ToolSpec::new(
            "list_transactions",
            "an account's recent transactions (days ago, kind, direction, amount, counterparty)",
            vec![account("account_id")],
        ),
        ToolSpec::new(
            "transfer",
            "send a whole amount from one account to another",
            vec![
                account("from_account"),
                account("to_account"),
                Param::required("amount", ParamType::Integer, "whole amount to send"),
            ],
        ),
        ToolSpec::new(
            "place_hold",
            "put a customer-requested hold on an account",
            vec![account("account_id")],
        ),
        ToolSpec::new(
            "release_hold",
            "lift a hold",
            vec![Param::required(
                "hold_id",
                ParamType::String,
                "hold id like H-12345",
            )],
        ),
    ];
    tools.extend(closing_tools(&REASONS, customer, false));
    tools
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl BankEnv {
    fn run(&mut self, call: &ToolCall) -> String {
        let id = |key: &str| call.str(key).trim().to_ascii_uppercase();
        let bank = &self.bank;
        match call.name.as_str() {
            "find_customer" => {
                let email = call.str("email").trim();
                match bank
                    .customers
                    .iter()
                    .find(|c| c.email.eq_ignore_ascii_case(email))
                {
                    Some(c) => {
                        let accounts: Vec<Value> = bank
                            .accounts
                            .iter()
                            .filter(|a| a.owner == c.id)
                            .map(|a| json!({"account_id": a.id, "kind": a.kind}))
                            .collect();
                        json!({"customer_id": c.id, "name": c.name, "accounts": accounts})
                            .to_string()
                    }
                    None => "error: no customer with that email".into(),
                }
            }
            "get_account" => match bank.account(&id("account_id")) {
                Some(a) => {
                    let holds: Vec<Value> = bank
                        .holds
                        .iter()
                        .filter(|h| h.account == a.id)
                        .map(|h| json!({"hold_id": h.id, "reason": h.reason}))
                        .collect();
                    json!({
                        "account_id": a.id, "owner_customer_id": a.owner, "kind": a.kind,
                        "balance": a.balance, "daily_limit": a.daily_limit, "holds": holds,
                    })
                    .to_string()
                }
                None => "error: no such account".into(),
            },
            "list_transactions" => {
                let account = id("account_id");
                if bank.account(&account).is_none() {
                    return "error: no such account".into();
                }
                let mut rows: Vec<&task::Txn> = bank
                    .transactions
                    .iter()
                    .filter(|t| t.account == account)
                    .collect();
                rows.sort_by_key(|t| t.days_ago);
                let rows: Vec<Value> = rows
                    .iter()
                    .map(|t| {
                        json!({"days_ago": t.days_ago, "kind": t.kind, "direction": t.direction,
                            "amount": t.amount, "counterparty": t.counterparty})
                    })
                    .collect();
                Value::Array(rows).to_string()
            }
            "transfer" => {
                let (from, to, amount) = (id("from_account"), id("to_account"), call.int("amount"));
                if bank.account(&from).is_none() || bank.account(&to).is_none() {
                    "error: no such account".into()
                } else if from == to {
                    "error: the accounts are the same".into()
                } else if amount <= 0 {
                    "error: the amount must be positive".into()
                } else {
                    self.bank.transfer(&from, &to, amount);
                    let balance = self.bank.account(&from).map_or(0, |a| a.balance);
                    json!({"status": "sent", "from_balance": balance}).to_string()
                }
            }
            "place_hold" => {
                let account = id("account_id");
                if bank.account(&account).is_none() {
                    return "error: no such account".into();
                }
                self.placed += 1;
                let hold = format!("H-{}", 1_000_000 + self.placed);
                self.bank.place_hold(&account, hold.clone());
                json!({"status": "placed", "hold_id": hold}).to_string()
            }
            "release_hold" => {
                if self.bank.release_hold(&id("hold_id")) {
                    "hold released".into()
                } else {
                    "error: no such hold".into()
                }
            }
            "complete_request" => {
                self.closing = Some(Closing::Complete {
                    customer: id("customer_id"),
                });
                "request completed; conversation closed".into()
            }
            "refuse" => {
                self.closing = Some(Closing::Refuse {
                    reason: call.str("reason").to_string(),
                    customer: id("customer_id"),
                });
                "refused; conversation closed".into()
            }
            other => format!("error: no tool {other}"),
        }
    }
}

impl ToolEnv for BankEnv {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    /// Refusal tasks are this env's infeasible ones.
    fn feasible(task: &BankTask) -> bool {
        matches!(task.expected, Outcome::Do(_))
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for BankEnv {
    type Config = BankConfig;
    type Task = BankTask;
    type Action = Calls;

    const SPEC: EnvSpec = EnvSpec {
        id: "tools/bank-v1",
        kind: EnvKind::MultiTurn,
        description: "Policy-bound bank desk: transfers within balances and daily limits, holds placed and lifted by the rules, or the right refusal; scored on the final database state",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Seven levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"customers":2,"accounts_per_customer":1,"transactions_per_account":2}"#,
        r#"{"customers":3,"accounts_per_customer":2,"transactions_per_account":3}"#,
        r#"{"customers":4,"accounts_per_customer":2,"transactions_per_account":4}"#,
        r#"{}"#,
        r#"{"customers":10,"accounts_per_customer":3,"transactions_per_account":8}"#,
        r#"{"customers":14,"accounts_per_customer":3,"transactions_per_account":10}"#,
        r#"{"customers":20,"accounts_per_customer":4,"transactions_per_account":10}"#,
    ];

    fn effort(task: &BankTask) -> Option<f64> {
        let b = &task.bank;
        let records = b.customers.len() + b.accounts.len() + b.holds.len() + b.transactions.len();
        tool_effort::<Self>(records, task)
    }

    fn validate(config: &BankConfig) -> Result<(), ConfigError> {
        if !(2..=30).contains(&config.customers) {
            return Err("customers must be in 2..=30".into());
        }
        if !(1..=4).contains(&config.accounts_per_customer) {
            return Err("accounts_per_customer must be in 1..=4".into());
        }
        if !(1..=15).contains(&config.transactions_per_account) {
            return Err("transactions_per_account must be in 1..=15".into());
        }
        if !(0.0..=0.6).contains(&config.refuse_share) {
            return Err("refuse_share must be in 0..=0.6".into());
        }
        Ok(())
    }

    fn generate(config: &BankConfig, rng: &mut Rng) -> BankTask {
        draw_screened::<BankEnv>(|| Some(generate::draw(config, rng)), degenerate_scripts)
    }

    fn reference(task: &BankTask) -> Option<Value> {
        serde_json::to_value(&task.expected).ok()
    }

    fn reset(task: &BankTask, _rng: Rng) -> Self {
        BankEnv {
            bank: task.bank.clone(),
            caller: task.caller().id.clone(),
            opening: task.opening.clone(),
            outcome: task.expected.clone(),
            gold: task.gold.clone().into(),
            base: task.bank.transactions.len(),
            expected: task.bank.expected_state(&task.expected),
            log: Log::default(),
            count: CallCount::default(),
            placed: 0,
            closing: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.closing.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        DESK.observation(
            &self.opening,
            &TOOLS,
            tool_specs(),
            &self.log,
            json!(self.closing),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let caller = &self.caller;
        let closing = match (&self.closing, &self.outcome) {
            (Some(Closing::Complete { customer }), Outcome::Do(_)) => customer == caller,
            (Some(Closing::Refuse { reason, customer }), Outcome::Refuse(want)) => {
                customer == caller && reason == want
            }
            _ => false,
        };
        let state = self.bank.state(self.base) == self.expected;
        Score::binary(closing && state)
            .part("state_correct", f64::from(u8::from(state)))
            .part("closing_correct", f64::from(u8::from(closing)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    fn oracle(&self, _player: Player) -> Option<String> {
        self.log.next_gold(&self.gold)
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let bank = &self.bank;
        let mut account = || {
            bank.accounts[rng.below(bank.accounts.len() as u64) as usize]
                .id
                .clone()
        };
        let (a, b) = (account(), account());
        let email = bank.customers[rng.below(bank.customers.len() as u64) as usize]
            .email
            .clone();
        let hold = bank
            .holds
            .first()
            .map_or("H-10000".to_string(), |h| h.id.clone());
        let stranger = format!("C-{}", rng.range_i64(10000, 99999));
        let call = match rng.below(8) {
            0 => ToolCall::new("find_customer", json!({"email": email})),
            1 => ToolCall::new("get_account", json!({"account_id": a})),
            2 => ToolCall::new("list_transactions", json!({"account_id": a})),
            3 => ToolCall::new(
                "transfer",
                json!({"from_account": a, "to_account": b, "amount": rng.range_i64(1, 3000)}),
            ),
            4 => ToolCall::new("place_hold", json!({"account_id": a})),
            5 => ToolCall::new("release_hold", json!({"hold_id": hold})),
            6 => ToolCall::new("complete_request", json!({"customer_id": stranger})),
            _ => ToolCall::new(
                "refuse",
                json!({"reason": REASONS[rng.below(REASONS.len() as u64) as usize], "customer_id": stranger}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        format!(
            "calls={} closing={:?} expected={:?}",
            self.log.entries.len(),
            self.closing,
            self.outcome
        )
    }
}

/// Closing calls that need no looking up beyond the caller's id: refusing
/// with any wrong reason, completing a refused request, and carrying out a
/// refused request as asked.
fn degenerate_scripts(task: &BankTask) -> Vec<Vec<String>> {
    let caller = &task.caller().id;
    let complete = || call_text("complete_request", json!({"customer_id": caller}));
    let refused = match &task.expected {
        Outcome::Refuse(reason) => Some(reason.as_str()),
        Outcome::Do(_) => None,
    };
    let mut scripts = wrong_refusals(&REASONS, refused, "customer_id", caller);
    if let Outcome::Refuse(_) = &task.expected {
        let mut doing = match &task.request {
            Request::Transfer { from, to, amount } => vec![call_text(
                "transfer",
                json!({"from_account": from, "to_account": to, "amount": amount}),
            )],
            Request::PlaceHold { account } => {
                vec![call_text("place_hold", json!({"account_id": account}))]
            }
            Request::ReleaseHold { account } => task
                .bank
                .holds
                .iter()
                .filter(|h| &h.account == account)
                .map(|h| call_text("release_hold", json!({"hold_id": h.id})))
                .collect(),
        };
        scripts.push(vec![complete()]);
        doing.push(complete());
        scripts.push(doing);
    } else {
        scripts.push(vec![complete()]);
    }
    scripts
}
