//! Candidate tasks of `tools/bank` (the env screens them): a random bank,
//! then the request kind and the policy's outcome drawn with fixed shares,
//! and the facts of the named account set to force that outcome.

use super::task::{
    Account, BANK_HOLDS, Bank, BankConfig, BankTask, CUSTOMER_HOLD, Customer, Direction, Hold,
    Request, Txn, TxnKind, decide, gold_calls,
};
use crate::rng::Rng;

const FIRST: &[&str] = &[
    "Amara", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hiro", "Ines", "Jonas",
    "Kemi", "Luca", "Mira", "Nils",
];
const LAST: &[&str] = &[
    "Achebe", "Berg", "Castillo", "Dubois", "Eriksen", "Fontaine", "Gupta", "Haas", "Ito",
    "Jensen", "Kaur", "Larsen",
];
const KINDS: [&str; 4] = ["checking", "savings", "travel", "business"];
const MERCHANTS: &[&str] = &[
    "grocery store",
    "fuel station",
    "bookshop",
    "pharmacy",
    "cinema",
    "hardware store",
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

fn round5(x: i64) -> i64 {
    (x / 5).max(1) * 5
}

/// A random bank of `config`'s size, with ids drawn without repeats.
fn bank(config: &BankConfig, rng: &mut Rng) -> Bank {
    let per = config.accounts_per_customer;
    let mut ids = crate::tools::distinct(rng, 10000, 99999, config.customers * (per + 1) * 2)
        .into_iter()
        .map(|n| n.to_string());
    let mut next = || ids.next().expect("enough ids");
    let mut bank = Bank {
        customers: Vec::new(),
        accounts: Vec::new(),
        holds: Vec::new(),
        transactions: Vec::new(),
    };
    for c in 0..config.customers {
        let name = format!("{} {}", pick(rng, FIRST), pick(rng, LAST));
        let email = format!("{}{c}@example.com", name.to_lowercase().replace(' ', "."));
        let id = format!("C-{}", next());
        let mut kinds = KINDS.to_vec();
        rng.shuffle(&mut kinds[1..]);
        for kind in kinds.into_iter().take(per) {
            let account = format!("A-{}", next());
            if rng.chance(0.15) {
                let reason = pick(rng, &[CUSTOMER_HOLD, BANK_HOLDS[0], BANK_HOLDS[1]]);
                bank.holds.push(Hold {
                    id: format!("H-{}", next()),
                    account: account.clone(),
                    reason: reason.into(),
                });
            }
            bank.accounts.push(Account {
                id: account,
                owner: id.clone(),
                kind: kind.into(),
                balance: rng.range_i64(0, 6000),
                daily_limit: 500 * rng.range_i64(1, 6),
            });
        }
        bank.customers.push(Customer { id, name, email });
    }
    let ids: Vec<String> = bank.accounts.iter().map(|a| a.id.clone()).collect();
    for account in &ids {
        for _ in 0..config.transactions_per_account {
            let txn = random_txn(account, &ids, rng);
            bank.transactions.push(txn);
        }
    }
    bank
}

fn random_txn(account: &str, ids: &[String], rng: &mut Rng) -> Txn {
    let other = || ids.iter().filter(|i| *i != account);
    let peer = other().nth(rng.below(other().count() as u64) as usize);
    let (kind, direction, counterparty) = match rng.below(4) {
        0 | 1 if peer.is_some() => (
            TxnKind::Transfer,
            [Direction::Out, Direction::In][rng.below(2) as usize],
            peer.cloned().unwrap_or_default(),
        ),
        2 | 0 => (
            TxnKind::Card,
            Direction::Out,
            pick(rng, MERCHANTS).to_string(),
        ),
        _ => (
            TxnKind::Deposit,
            Direction::In,
            pick(rng, &["payroll", "cash deposit"]).to_string(),
        ),
    };
    Txn {
        account: account.into(),
        days_ago: rng.range_i64(0, 4),
        kind,
        direction,
        amount: round5(rng.range_i64(5, 800)),
        counterparty,
    }
}

/// Sets the facts of the sending account so a transfer meets `target`;
/// returns the amount.
fn shape_transfer(bank: &mut Bank, from: &str, target: Target, rng: &mut Rng) -> i64 {
    let mut sent = bank.sent_today(from);
    if target == Target::Refuse("over_daily_limit") && sent == 0 {
        let ids: Vec<String> = bank.accounts.iter().map(|a| a.id.clone()).collect();
        let peer = ids.iter().find(|i| *i != from).cloned().unwrap_or_default();
        bank.transactions.push(Txn {
            account: from.into(),
            days_ago: 0,
            kind: TxnKind::Transfer,
            direction: Direction::Out,
            amount: round5(rng.range_i64(50, 600)),
            counterparty: peer,
        });
        sent = bank.sent_today(from);
    }
    if target != Target::Refuse("account_on_hold") {
        bank.holds.retain(|h| h.account != from);
    }
    let amount;
    let account = bank
        .accounts
        .iter_mut()
        .find(|a| a.id == from)
        .expect("the sender exists");
    match target {
        Target::Refuse("insufficient_funds") => {
            amount = round5(rng.range_i64(100, 2000));
            account.balance = rng.range_i64(0, amount - 1);
            account.daily_limit = 500 * ((sent + amount) / 500 + rng.range_i64(1, 3));
        }
        Target::Refuse("over_daily_limit") => {
            // Over only with today's transfers counted: the amount alone fits.
            account.daily_limit = 500 * ((sent / 500) + rng.range_i64(1, 3));
            let room = account.daily_limit - sent;
            amount = round5(rng.range_i64(room + 5, account.daily_limit));
            account.balance = amount + rng.range_i64(0, 3000);
        }
        _ => {
            amount = round5(rng.range_i64(20, 1200));
            account.balance = amount + rng.range_i64(0, 3000);
            let tight = rng.chance(0.5);
            account.daily_limit = if tight {
                // Just fits: the amount plus today's transfers meet the limit.
                sent + amount + 5 * rng.range_i64(0, 10)
            } else {
                500 * ((sent + amount) / 500 + rng.range_i64(1, 3))
            };
        }
    }
    if target == Target::Refuse("account_on_hold") && bank.hold_on(from).is_none() {
        bank.holds.push(Hold {
            id: format!("H-{}", rng.range_i64(100000, 999999)),
            account: from.into(),
            reason: pick(rng, &[CUSTOMER_HOLD, BANK_HOLDS[0], BANK_HOLDS[1]]).into(),
        });
    }
    amount
}

/// How the caller names an account: by kind ("my savings account") or by id.
fn named(account: &Account, by_id: bool) -> String {
    if by_id {
        format!("account {}", account.id)
    } else {
        format!("my {} account", account.kind)
    }
}

pub(super) fn draw(config: &BankConfig, rng: &mut Rng) -> BankTask {
    let mut bank = bank(config, rng);
    let caller = rng.below(bank.customers.len() as u64) as usize;
    let caller_id = bank.customers[caller].id.clone();
    let own: Vec<Account> = bank
        .accounts
        .iter()
        .filter(|a| a.owner == caller_id)
        .cloned()
        .collect();
    let others: Vec<Account> = bank
        .accounts
        .iter()
        .filter(|a| a.owner != caller_id)
        .cloned()
        .collect();
    let kind = rng.unit_f64();
    let refuse = rng.chance(config.refuse_share);
    let account = own[rng.below(own.len() as u64) as usize].clone();
    let (request, wish) = if kind < 0.6 {
        let target = if refuse {
            Target::Refuse(
                [
                    "not_owner",
                    "account_on_hold",
                    "insufficient_funds",
                    "over_daily_limit",
                ][rng.below(4) as usize],
            )
        } else {
            Target::Allow
        };
        let from = if target == Target::Refuse("not_owner") {
            others[rng.below(others.len() as u64) as usize].clone()
        } else {
            account.clone()
        };
        // The receiver: another of the caller's accounts, or a payee.
        let mine: Vec<&Account> = own.iter().filter(|a| a.id != from.id).collect();
        let to = if !mine.is_empty() && rng.chance(0.3) {
            mine[rng.below(mine.len() as u64) as usize].clone()
        } else {
            let payees: Vec<&Account> = others.iter().filter(|a| a.id != from.id).collect();
            match payees.is_empty() {
                true => own[0].clone(),
                false => payees[rng.below(payees.len() as u64) as usize].clone(),
            }
        };
        let amount = shape_transfer(&mut bank, &from.id, target, rng);
        let by_id = target == Target::Refuse("not_owner") || rng.chance(0.4);
        let wish = format!(
            "Please send {amount} from {} to {}.",
            named(&from, by_id),
            named(&to, to.owner != caller_id)
        );
        let request = Request::Transfer {
            from: from.id.clone(),
            to: to.id.clone(),
            amount,
        };
        (request, wish)
    } else if kind < 0.8 {
        bank.holds.retain(|h| h.account != account.id);
        if refuse {
            bank.holds.push(Hold {
                id: format!("H-{}", rng.range_i64(100000, 999999)),
                account: account.id.clone(),
                reason: pick(rng, &[CUSTOMER_HOLD, BANK_HOLDS[0], BANK_HOLDS[1]]).into(),
            });
        }
        let wish = format!(
            "I lost my card. Please put a hold on {}.",
            named(&account, rng.chance(0.3))
        );
        (
            Request::PlaceHold {
                account: account.id.clone(),
            },
            wish,
        )
    } else {
        bank.holds.retain(|h| h.account != account.id);
        let reason = if refuse {
            pick(rng, &BANK_HOLDS)
        } else {
            CUSTOMER_HOLD
        };
        bank.holds.push(Hold {
            id: format!("H-{}", rng.range_i64(100000, 999999)),
            account: account.id.clone(),
            reason: reason.into(),
        });
        let wish = format!(
            "There is a hold on {}. Please lift it.",
            named(&account, rng.chance(0.3))
        );
        (
            Request::ReleaseHold {
                account: account.id.clone(),
            },
            wish,
        )
    };
    let who = &bank.customers[caller];
    let opening = format!(
        "Hi, this is {}, my email is {}. {wish}",
        who.name, who.email
    );
    let expected = decide(&bank, &caller_id, &request);
    let mut task = BankTask {
        bank,
        caller,
        request,
        opening,
        expected,
        gold: Vec::new(),
    };
    task.gold = gold_calls(&task);
    task
}
