//! Tool-use envs: multi-turn tasks where the agent calls tools on an offline,
//! generated world and is scored on the final state and a typed answer.
//!
//! - [`vfs_shell`]: file chores in a virtual file system.
//! - [`fncall`]: BFCL-style function calling over generated APIs.
//! - [`service_desk`]: a policy-bound refund desk with a scripted customer.
//! - [`search_qa`]: multi-hop questions over a generated corpus.
//! - [`sql_db`]: questions and edits on generated relational tables.
//! - [`calendar`]: booking meetings across people, rooms and time zones.
//! - [`bank`]: a policy-bound bank desk (transfers, limits, holds).
//! - [`email`]: searching, labelling, replying and forwarding in a mailbox.
//! - [`retail`]: a policy-bound store desk (cancel, modify, return, exchange).
//! - [`airline`]: a policy-bound airline desk (cancel, change, bags, certificates).
//! - [`api_chain`]: paginated, authenticated REST-like services joined across calls.
//! - [`spreadsheet`]: cell edits and formulas in a policy-bound sheet.
//! - [`travel`]: a policy-bound travel desk over a flights and a hotels service.
//!
//! - [`policy_desk`]: what the policy-bound desks share (their prompt and
//!   observation, closing tools); [`user_desk`]: the running desk of
//!   airline and retail (outcome, closing, episode state).
//!
//! The call formats, tool specs, observations, generation screen and test
//! kit they share with the web envs are in [`crate::toolkit`].

use crate::rng::Rng;

pub mod airline;
pub mod api_chain;
pub mod bank;
pub mod calendar;
pub mod email;
pub mod fncall;
pub mod policy_desk;
pub mod retail;
pub mod search_qa;
pub mod service_desk;
pub mod spreadsheet;
pub mod sql_db;
pub mod travel;
pub mod user_desk;
pub mod vfs_shell;

#[cfg(test)]
mod tests;

/// `n` distinct integers in `lo..=hi`, in draw order (for ids).
///
/// # Panics
/// If the range holds fewer than `n` integers.
pub(crate) fn distinct(rng: &mut Rng, lo: i64, hi: i64, n: usize) -> Vec<i64> {
    assert!(
        (hi - lo + 1) as usize >= n,
        "range too small for {n} distinct ids"
    );
    let mut out: Vec<i64> = Vec::with_capacity(n);
    while out.len() < n {
        let x = rng.range_i64(lo, hi);
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}
