//! What a function family is ([`Family`], the [`Spec`] it draws, its C part)
//! and the argument helpers the families share.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use verigym_sandbox::CSignature;

use crate::rng::Rng;

/// The C side of a family that has one: the signature and a reference solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CPart {
    pub signature: CSignature,
    /// The C prototype shown to the agent, e.g. `int64_t f(int64_t n)`.
    pub prototype: String,
    pub reference: String,
}

/// One drawn function: what the prompt states and how to test it.
pub struct Spec {
    pub entry: &'static str,
    /// The Python signature without `def` and colon, e.g. `f(xs: list[int]) -> int`.
    pub signature: String,
    /// What the function must do, one paragraph.
    pub description: String,
    pub reference: String,
    pub c: Option<CPart>,
    /// Draws one argument list (a JSON array).
    pub args: Box<dyn Fn(&mut Rng) -> Value>,
    /// Argument lists chosen on purpose at this function's boundaries (empty inputs, values
    /// on and next to each constant, window edges, exact thresholds): always among the
    /// hidden tests from v2 on, so that off-by-one and operator mistakes fail.
    pub edges: Vec<Value>,
    /// The Rust mirror of the reference: expected output for an argument list.
    pub solve: Box<dyn Fn(&Value) -> Value>,
}

/// A family: its name, topic, and how to draw a [`Spec`] at a difficulty level 1..=3.
#[derive(Clone, Copy)]
pub struct Family {
    pub name: &'static str,
    pub topic: &'static str,
    pub draw: fn(u8, &mut Rng) -> Spec,
    /// Whether it has a C reference (usable by `code/functions-c-v2`).
    pub has_c: bool,
}

/// A list of `lo..=hi` integers of length `0..=max_len`.
pub(super) fn int_list(rng: &mut Rng, max_len: usize, lo: i64, hi: i64) -> Vec<i64> {
    let n = rng.range_usize(0, max_len);
    (0..n).map(|_| rng.range_i64(lo, hi)).collect()
}

/// Argument `i` as i64 (mirrors only see arguments they generated).
pub(super) fn int_arg(args: &Value, i: usize) -> i64 {
    args[i].as_i64().unwrap_or_default()
}

pub(super) fn list_arg(args: &Value, i: usize) -> Vec<i64> {
    args[i]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

pub(super) fn str_arg(args: &Value, i: usize) -> &str {
    args[i].as_str().unwrap_or_default()
}

/// Input size for a level: small, medium, large.
pub(super) fn size(level: u8, sizes: [usize; 3]) -> usize {
    sizes[usize::from(level.clamp(1, 3)) - 1]
}
