//! `math/inclusion-exclusion-v1`: counting with restrictions by inclusion–exclusion.
//!
//! # Task
//! One count of four kinds: the integers from 1 to N divisible by at least
//! one (or by none) of a few given numbers, or by the first but none of the
//! others; the onto maps from an m-set to a k-set (balls into boxes, no box
//! empty); the permutations of n items that fix none of k named items
//! (derangements when k = n); and a union (or the triple intersection) of
//! two or three sets from the sizes of their intersections.
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer (read by
//! [`crate::single_turn`] and the math verifier).
//!
//! # Observation
//! The counting question and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is the count, else 0. The
//! reference is the inclusion–exclusion formula, checked against brute-force
//! enumeration at small sizes in the tests. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `kinds` (non-empty subset of `divisible`, `onto`, `fixed`, `sets`),
//! `max_n` (the largest N, 30–10^12), `divisors` (how many divisors at most,
//! 2–5), `max_items` (the largest m or n, 4–20), `sets` (2 or 3).
//!
//! # Seeding
//! Counts 0, ±1, 2 and counts written in the question are redrawn.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use num_traits::{One, Zero};
use serde::{Deserialize, Serialize};

use super::forms::Form;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

const KINDS: [&str; 4] = ["divisible", "onto", "fixed", "sets"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InclusionExclusionConfig {
    pub kinds: Vec<String>,
    pub max_n: u64,
    pub divisors: usize,
    pub max_items: usize,
    pub sets: usize,
}

impl Default for InclusionExclusionConfig {
    fn default() -> Self {
        InclusionExclusionConfig {
            kinds: KINDS.iter().map(|k| k.to_string()).collect(),
            max_n: 10_000,
            divisors: 3,
            max_items: 12,
            sets: 3,
        }
    }
}

pub struct InclusionExclusionFamily;
pub type InclusionExclusion = MathEnv<InclusionExclusionFamily>;

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Integers in `1..=n` divisible by none of `ds` (inclusion–exclusion over subsets).
pub fn divisible_by_none(n: u64, ds: &[u64]) -> u64 {
    let mut total: i128 = 0;
    for mask in 0u32..(1 << ds.len()) {
        let mut l: u64 = 1;
        for (i, &d) in ds.iter().enumerate() {
            if mask & (1 << i) != 0 {
                l = (l / gcd(l, d)).saturating_mul(d);
            }
        }
        let sign = if mask.count_ones() % 2 == 0 { 1 } else { -1 };
        total += sign * i128::from(n / l);
    }
    total as u64
}

pub fn binomial(n: u64, k: u64) -> BigInt {
    (0..k).fold(BigInt::one(), |acc, i| acc * (n - i) / (i + 1))
}

fn factorial(n: u64) -> BigInt {
    (1..=n).fold(BigInt::one(), |acc, i| acc * i)
}

/// Onto maps from an `m`-set to a `k`-set: `Σ (-1)^i C(k,i) (k-i)^m`.
pub fn onto(m: u32, k: u64) -> BigInt {
    (0..=k)
        .map(|i| {
            let term = binomial(k, i) * num_traits::pow(BigInt::from(k - i), m as usize);
            if i % 2 == 0 { term } else { -term }
        })
        .sum()
}

/// Permutations of `n` items fixing none of `k` given items: `Σ (-1)^i C(k,i) (n-i)!`.
pub fn fixing_none(n: u64, k: u64) -> BigInt {
    (0..=k)
        .map(|i| {
            let term = binomial(k, i) * factorial(n - i);
            if i % 2 == 0 { term } else { -term }
        })
        .sum()
}

/// The sizes of every non-empty intersection of the sets whose Venn
/// regions (indexed by membership mask, region 0 unused) hold `regions`.
pub fn intersections(regions: &[u64]) -> Vec<(u32, u64)> {
    (1..regions.len() as u32)
        .map(|mask| {
            let size = (1..regions.len() as u32)
                .filter(|r| r & mask == mask)
                .map(|r| regions[r as usize])
                .sum();
            (mask, size)
        })
        .collect()
}

fn set_name(mask: u32) -> String {
    let names: Vec<&str> = ["A", "B", "C"]
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, n)| *n)
        .collect();
    format!("|{}|", names.join(" \\cap "))
}

fn draw_divisible(config: &InclusionExclusionConfig, rng: &mut Rng) -> (String, BigInt) {
    let n = rng.range_i64(30.min(config.max_n as i64), config.max_n as i64) as u64;
    let count = rng.range_usize(2, config.divisors);
    let mut ds: Vec<u64> = Vec::new();
    while ds.len() < count {
        let d = rng.range_i64(2, 15) as u64;
        if !ds
            .iter()
            .any(|&x| x.is_multiple_of(d) || d.is_multiple_of(x))
        {
            ds.push(d);
        }
    }
    let list: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
    let (phrase, answer) = match rng.range_i64(0, 2) {
        0 => (
            format!("divisible by at least one of {}", list.join(", ")),
            n - divisible_by_none(n, &ds),
        ),
        1 => (
            format!("divisible by none of {}", list.join(", ")),
            divisible_by_none(n, &ds),
        ),
        // A multiple j·d0 is divisible by d exactly when j is divisible by d / gcd(d, d0).
        _ => {
            let reduced: Vec<u64> = ds[1..].iter().map(|&d| d / gcd(d, ds[0])).collect();
            (
                format!(
                    "divisible by {} but by none of {}",
                    ds[0],
                    list[1..].join(", ")
                ),
                divisible_by_none(n / ds[0], &reduced),
            )
        }
    };
    (
        format!("How many integers from 1 to {n} (inclusive) are {phrase}?"),
        BigInt::from(answer),
    )
}

fn draw_sets(config: &InclusionExclusionConfig, rng: &mut Rng) -> (String, BigInt) {
    let s = config.sets;
    let scale = 5 + 5 * config.max_items as i64;
    let regions: Vec<u64> = (0..1usize << s)
        .map(|r| {
            if r == 0 {
                0
            } else {
                rng.range_i64(1, scale) as u64
            }
        })
        .collect();
    let sizes = intersections(&regions);
    let union: u64 = regions.iter().sum();
    let full = (1u32 << s) - 1;
    let ask_core = s == 3 && rng.chance(0.5);
    let given: Vec<String> = sizes
        .iter()
        .filter(|(mask, _)| !(ask_core && *mask == full))
        .map(|(mask, size)| format!("{} = {size}", set_name(*mask)))
        .collect();
    let all = if s == 3 {
        "A \\cup B \\cup C"
    } else {
        "A \\cup B"
    };
    let (given, ask, answer) = if ask_core {
        (
            format!("{}, and $|{all}| = {union}$", given.join("$, $")),
            "How many elements are in $A \\cap B \\cap C$?".to_string(),
            regions[full as usize],
        )
    } else {
        (
            given.join("$, $"),
            format!("How many elements are in ${all}$?"),
            union,
        )
    };
    let given = if ask_core {
        format!("${given}")
    } else {
        format!("${given}$")
    };
    (
        format!("Finite sets satisfy {given}. {ask}"),
        BigInt::from(answer),
    )
}

impl Family for InclusionExclusionFamily {
    type Config = InclusionExclusionConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/inclusion-exclusion-v1",
        kind: EnvKind::SingleTurn,
        description: "Counts with restrictions by inclusion-exclusion (divisibility, onto maps, fixed points, set unions); answer an integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: N grows 100 → 10^12, the divisors
    /// 2 → 5, the items 6 → 20, and three sets replace two.
    const LEVELS: &'static [&'static str] = &[
        r#"{"max_n":100,"divisors":2,"max_items":6,"sets":2}"#,
        r#"{"max_n":1000,"divisors":2,"max_items":8,"sets":2}"#,
        r#"{"max_n":1000,"divisors":3,"max_items":10,"sets":3}"#,
        "{}",
        r#"{"max_n":1000000,"divisors":4,"max_items":14,"sets":3}"#,
        r#"{"max_n":1000000000,"divisors":4,"max_items":17,"sets":3}"#,
        r#"{"max_n":1000000000000,"divisors":5,"max_items":20,"sets":3}"#,
    ];

    /// The terms of the inclusion–exclusion sum times the digits of each:
    /// 2^divisors for a divisibility count, k + 1 onto terms, k + 1
    /// fixed-point terms, 2^sets for a union; each as long as the answer.
    fn effort(task: &MathTask) -> Option<f64> {
        let q = &task.question;
        let numbers = super::effort::integers_in(q);
        let terms = if q.starts_with("How many integers") {
            2f64.powi(numbers.len() as i32 - 2)
        } else if q.starts_with("Finite sets") {
            (numbers.len() + 1) as f64
        } else {
            *numbers.last()? as f64 + 1.0
        };
        Some(terms * task.answer.len() as f64)
    }

    fn validate(config: &InclusionExclusionConfig) -> Result<(), ConfigError> {
        if config.kinds.is_empty() || config.kinds.iter().any(|k| !KINDS.contains(&k.as_str())) {
            return Err("kinds must be a non-empty subset of divisible, onto, fixed, sets".into());
        }
        if !(30..=1_000_000_000_000).contains(&config.max_n) {
            return Err("max_n must be in 30..=1000000000000".into());
        }
        if !(2..=5).contains(&config.divisors) {
            return Err("divisors must be in 2..=5".into());
        }
        if !(4..=20).contains(&config.max_items) {
            return Err("max_items must be in 4..=20".into());
        }
        if !(2..=3).contains(&config.sets) {
            return Err("sets must be 2 or 3".into());
        }
        Ok(())
    }

    fn draw(config: &InclusionExclusionConfig, rng: &mut Rng) -> Option<MathTask> {
        let kind = rng.choose(&config.kinds)?.clone();
        let big = config.max_items as i64;
        let (question, answer) = match kind.as_str() {
            "divisible" => draw_divisible(config, rng),
            "onto" => {
                let m = rng.range_i64(3, big) as u32;
                let k = rng.range_i64(2, i64::from(m).min(7)) as u64;
                (
                    format!(
                        "In how many ways can {m} distinct balls be put into {k} distinct boxes so that no box is empty?"
                    ),
                    onto(m, k),
                )
            }
            "fixed" => {
                let n = rng.range_i64(4, big) as u64;
                let k = rng.range_i64(2, n as i64) as u64;
                let what = if k == n {
                    format!(
                        "How many permutations of $1, 2, \\ldots, {n}$ leave no number in its own position?"
                    )
                } else {
                    format!(
                        "How many permutations of $1, 2, \\ldots, {n}$ leave none of the numbers $1, \\ldots, {k}$ in its own position?"
                    )
                };
                (what, fixing_none(n, k))
            }
            _ => draw_sets(config, rng),
        };
        if answer.is_zero() {
            return None;
        }
        Some(MathTask {
            question: format!("{question} Give a single integer."),
            answer: answer.to_string(),
            form: Form::Number,
        })
    }
}

#[cfg(test)]
#[path = "inclusion_exclusion_tests.rs"]
mod tests;
