//! The config, database, requests and policy of `tools/bank`: the bank's
//! records and their three mutations (shared by the tools and the expected
//! final state), the policy's decision, and the reference calls.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::toolkit::calls::call_text;

/// The refusal reasons, in the order the policy checks its rules.
pub(crate) const REASONS: [&str; 6] = [
    "not_owner",
    "account_on_hold",
    "insufficient_funds",
    "over_daily_limit",
    "already_on_hold",
    "hold_not_releasable",
];

/// The reason of every hold the desk places; the only one it may lift.
pub(crate) const CUSTOMER_HOLD: &str = "customer_request";
/// Holds the desk may not lift.
pub(crate) const BANK_HOLDS: [&str; 2] = ["fraud_review", "legal"];

pub(crate) const POLICY: &str = "Bank desk policy:\n\
1. Identify the caller with find_customer by their email. Act only on accounts the caller owns: a request to send money from, or to place or lift a hold on, another customer's account is refused with `not_owner`.\n\
2. An account with an active hold sends no transfers: refuse with `account_on_hold`.\n\
3. A transfer may not exceed the sending account's balance: refuse with `insufficient_funds`.\n\
4. Daily limit: the transfers the account sent today (list_transactions: kind `transfer`, direction `out`, days_ago 0; card payments do not count) plus the new amount may not exceed its daily_limit: refuse with `over_daily_limit`.\n\
5. Place a hold when the owner asks, unless the account already has one (refuse with `already_on_hold`). Lift a hold only if its reason is `customer_request`; holds for `fraud_review` or `legal` stay: refuse with `hold_not_releasable`.\n\
6. Check the rules in this order and refuse with the first one broken; a refused request changes nothing. Otherwise do exactly what was asked (one transfer of the exact amount, one hold or one release) and call complete_request with the caller's customer id. Refuse with refuse(reason, the caller's customer id).";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Customer {
    pub id: String,
    pub name: String,
    pub email: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    pub id: String,
    pub owner: String,
    /// `checking`, `savings`, `travel` or `business` (one of each per owner).
    pub kind: String,
    pub balance: i64,
    pub daily_limit: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub id: String,
    pub account: String,
    pub reason: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxnKind {
    Transfer,
    Card,
    Deposit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    In,
    Out,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Txn {
    pub account: String,
    pub days_ago: i64,
    pub kind: TxnKind,
    pub direction: Direction,
    pub amount: i64,
    pub counterparty: String,
}

/// The bank's records: what the tools read and change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bank {
    pub customers: Vec<Customer>,
    pub accounts: Vec<Account>,
    pub holds: Vec<Hold>,
    pub transactions: Vec<Txn>,
}

/// What the final state is compared on: balances (in account order), holds
/// (account and reason) and the transactions after the first `base` (the
/// tools only append), without the ids the tools make up.
pub(crate) type State = (Vec<i64>, Vec<(String, String)>, Vec<Txn>);

impl Bank {
    pub(crate) fn account(&self, id: &str) -> Option<&Account> {
        self.accounts.iter().find(|a| a.id == id)
    }

    pub(crate) fn hold_on(&self, account: &str) -> Option<&Hold> {
        self.holds.iter().find(|h| h.account == account)
    }

    /// What `account` sent by transfer today.
    pub(crate) fn sent_today(&self, account: &str) -> i64 {
        self.transactions
            .iter()
            .filter(|t| {
                t.account == account
                    && t.days_ago == 0
                    && t.kind == TxnKind::Transfer
                    && t.direction == Direction::Out
            })
            .map(|t| t.amount)
            .sum()
    }

    /// Moves `amount` between two existing accounts and logs it on both.
    pub(crate) fn transfer(&mut self, from: &str, to: &str, amount: i64) {
        for (account, other, sign, direction) in
            [(from, to, -1, Direction::Out), (to, from, 1, Direction::In)]
        {
            if let Some(a) = self.accounts.iter_mut().find(|a| a.id == account) {
                a.balance += sign * amount;
            }
            self.transactions.push(Txn {
                account: account.into(),
                days_ago: 0,
                kind: TxnKind::Transfer,
                direction,
                amount,
                counterparty: other.into(),
            });
        }
    }

    pub(crate) fn place_hold(&mut self, account: &str, id: String) {
        self.holds.push(Hold {
            id,
            account: account.into(),
            reason: CUSTOMER_HOLD.into(),
        });
    }

    pub(crate) fn release_hold(&mut self, id: &str) -> bool {
        let before = self.holds.len();
        self.holds.retain(|h| h.id != id);
        self.holds.len() < before
    }

    /// The state, with the transactions after the first `base`.
    pub(crate) fn state(&self, base: usize) -> State {
        let balances = self.accounts.iter().map(|a| a.balance).collect();
        let mut holds: Vec<(String, String)> = self
            .holds
            .iter()
            .map(|h| (h.account.clone(), h.reason.clone()))
            .collect();
        holds.sort();
        let mut txns = self.transactions[base.min(self.transactions.len())..].to_vec();
        txns.sort();
        (balances, holds, txns)
    }

    /// The state `outcome` leads to (new transactions only), computed on a
    /// copy without the old transactions (changes only append).
    pub(crate) fn expected_state(&self, outcome: &Outcome) -> State {
        let mut light = Bank {
            customers: Vec::new(),
            accounts: self.accounts.clone(),
            holds: self.holds.clone(),
            transactions: Vec::new(),
        };
        if let Outcome::Do(op) = outcome {
            light.apply(op);
        }
        light.state(0)
    }

    /// Applies `op` as the tools would.
    pub(crate) fn apply(&mut self, op: &Op) {
        match op {
            Op::Transfer { from, to, amount } => self.transfer(from, to, *amount),
            Op::PlaceHold { account } => self.place_hold(account, "new".into()),
            Op::ReleaseHold { hold } => {
                self.release_hold(hold);
            }
        }
    }
}

/// What the caller asks for (accounts already resolved to ids).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    Transfer {
        from: String,
        to: String,
        amount: i64,
    },
    PlaceHold {
        account: String,
    },
    ReleaseHold {
        account: String,
    },
}

/// A change the desk makes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    Transfer {
        from: String,
        to: String,
        amount: i64,
    },
    PlaceHold {
        account: String,
    },
    ReleaseHold {
        hold: String,
    },
}

/// The policy's outcome: the change to make, or the refusal reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Do(Op),
    Refuse(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BankConfig {
    pub customers: usize,
    pub accounts_per_customer: usize,
    pub transactions_per_account: usize,
    pub refuse_share: f64,
}

impl Default for BankConfig {
    fn default() -> Self {
        BankConfig {
            customers: 6,
            accounts_per_customer: 2,
            transactions_per_account: 6,
            refuse_share: 0.3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BankTask {
    pub bank: Bank,
    /// The customer on the line (index into `bank.customers`).
    pub caller: usize,
    pub request: Request,
    /// The customer's message.
    pub opening: String,
    /// The policy's outcome.
    pub expected: Outcome,
    /// The reference calls, the closing call last.
    pub gold: Vec<String>,
}

impl BankTask {
    pub(super) fn caller(&self) -> &Customer {
        &self.bank.customers[self.caller]
    }
}

/// The policy's outcome for `caller`'s request on `bank`.
pub(crate) fn decide(bank: &Bank, caller: &str, request: &Request) -> Outcome {
    let refuse = |reason: &str| Outcome::Refuse(reason.into());
    let owned = |id: &str| bank.account(id).is_some_and(|a| a.owner == caller);
    match request {
        Request::Transfer { from, to, amount } => {
            let Some(account) = bank.account(from).filter(|_| owned(from)) else {
                return refuse("not_owner");
            };
            if bank.hold_on(from).is_some() {
                refuse("account_on_hold")
            } else if *amount > account.balance {
                refuse("insufficient_funds")
            } else if bank.sent_today(from) + amount > account.daily_limit {
                refuse("over_daily_limit")
            } else {
                Outcome::Do(Op::Transfer {
                    from: from.clone(),
                    to: to.clone(),
                    amount: *amount,
                })
            }
        }
        Request::PlaceHold { account } if !owned(account) => refuse("not_owner"),
        Request::PlaceHold { account } => match bank.hold_on(account) {
            Some(_) => refuse("already_on_hold"),
            None => Outcome::Do(Op::PlaceHold {
                account: account.clone(),
            }),
        },
        Request::ReleaseHold { account } if !owned(account) => refuse("not_owner"),
        Request::ReleaseHold { account } => match bank.hold_on(account) {
            Some(h) if h.reason == CUSTOMER_HOLD => {
                Outcome::Do(Op::ReleaseHold { hold: h.id.clone() })
            }
            _ => refuse("hold_not_releasable"),
        },
    }
}

/// The reference calls: look the caller up, read the account (and its
/// transactions for a transfer), act, close.
pub(super) fn gold_calls(task: &BankTask) -> Vec<String> {
    let caller = &task.caller().id;
    let mut gold = vec![call_text(
        "find_customer",
        json!({"email": task.caller().email}),
    )];
    let account = match &task.request {
        Request::Transfer { from, .. } => from,
        Request::PlaceHold { account } | Request::ReleaseHold { account } => account,
    };
    gold.push(call_text("get_account", json!({"account_id": account})));
    let owned = task
        .bank
        .account(account)
        .is_some_and(|a| &a.owner == caller);
    if matches!(task.request, Request::Transfer { .. })
        && owned
        && task.bank.hold_on(account).is_none()
    {
        gold.push(call_text(
            "list_transactions",
            json!({"account_id": account}),
        ));
    }
    match &task.expected {
        Outcome::Do(op) => {
            gold.push(match op {
                Op::Transfer { from, to, amount } => call_text(
                    "transfer",
                    json!({"from_account": from, "to_account": to, "amount": amount}),
                ),
                Op::PlaceHold { account } => {
                    call_text("place_hold", json!({"account_id": account}))
                }
                Op::ReleaseHold { hold } => call_text("release_hold", json!({"hold_id": hold})),
            });
            gold.push(call_text(
                "complete_request",
                json!({"customer_id": caller}),
            ));
        }
        Outcome::Refuse(reason) => gold.push(call_text(
            "refuse",
            json!({"reason": reason, "customer_id": caller}),
        )),
    }
    gold
}
