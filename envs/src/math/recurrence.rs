//! `math/recurrence-v1`: a far term of a linear recurrence with constant coefficients.
//!
//! # Task
//! "A sequence satisfies $a_n = 3a_{n-1} - 2a_{n-2} + 5$ for $n \ge 2$, with
//! $a_0 = 1$ and $a_1 = 4$. Find $a_{37}$." The recurrence has order 1 to 3,
//! integer coefficients and an optional constant term; the asked index is
//! far enough that the term is large (an exact integer, possibly with
//! dozens of digits).
//!
//! # Action
//! One free-text answer whose last `\boxed{}` holds one integer (read by
//! [`crate::single_turn`] and the math verifier).
//!
//! # Observation
//! The recurrence, its initial terms, the asked index and the answer format.
//!
//! # Reward
//! 1 and `passed` when the boxed integer is the term exactly (the reference
//! is computed with big integers), else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `order` (1–3), `max_coef` (1–9, the largest coefficient and constant
//! term in size), `min_n` / `max_n` (the asked index, order+2 ≤ min_n ≤
//! max_n ≤ 300), `constant` (whether a constant term may appear).
//!
//! # Seeding
//! Sequences that stay bounded (constant or periodic ones) are redrawn, as
//! are terms below 10 in size; the leading coefficient of the lowest term
//! is never 0, so the order is exactly `order`.
//!
//! # Version history
//! v1: first version.

use num_bigint::BigInt;
use num_traits::Signed;
use serde::{Deserialize, Serialize};

use super::effort;
use super::forms::Form;
use super::latex::nonzero;
use super::question::{Family, MathEnv, MathTask};
use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecurrenceConfig {
    pub order: usize,
    pub max_coef: i64,
    pub min_n: usize,
    pub max_n: usize,
    pub constant: bool,
}

impl Default for RecurrenceConfig {
    fn default() -> Self {
        RecurrenceConfig {
            order: 2,
            max_coef: 3,
            min_n: 20,
            max_n: 40,
            constant: true,
        }
    }
}

pub struct RecurrenceFamily;
pub type Recurrence = MathEnv<RecurrenceFamily>;

/// The terms `a_0 ..= a_n` of `a_k = coefs[0] a_{k-1} + … + coefs[d-1] a_{k-d} + constant`.
pub fn terms(coefs: &[i64], constant: i64, initial: &[i64], n: usize) -> Vec<BigInt> {
    let mut out: Vec<BigInt> = initial.iter().map(|&x| BigInt::from(x)).collect();
    while out.len() <= n {
        let k = out.len();
        let next = coefs
            .iter()
            .enumerate()
            .map(|(i, &c)| BigInt::from(c) * &out[k - 1 - i])
            .sum::<BigInt>()
            + constant;
        out.push(next);
    }
    out.truncate(n + 1);
    out
}

/// `3a_{n-1} - 2a_{n-2} + 5`.
pub fn latex_rule(coefs: &[i64], constant: i64) -> String {
    let mut out = String::new();
    let mut push = |c: i64, body: &str| {
        if c == 0 {
            return;
        }
        let sign = match (out.is_empty(), c < 0) {
            (true, true) => "-",
            (true, false) => "",
            (false, true) => " - ",
            (false, false) => " + ",
        };
        let magnitude = if c.abs() == 1 && !body.is_empty() {
            String::new()
        } else {
            c.abs().to_string()
        };
        out.push_str(&format!("{sign}{magnitude}{body}"));
    };
    for (i, &c) in coefs.iter().enumerate() {
        push(c, &format!("a_{{n-{}}}", i + 1));
    }
    push(constant, "");
    out
}

fn question(coefs: &[i64], constant: i64, initial: &[i64], n: usize) -> String {
    let d = coefs.len();
    let given: Vec<String> = initial
        .iter()
        .enumerate()
        .map(|(i, x)| format!("$a_{i} = {x}$"))
        .collect();
    let given = match given.as_slice() {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    format!(
        "A sequence satisfies $a_n = {}$ for $n \\ge {d}$, with {given}. Find $a_{{{n}}}$. Give the exact integer.",
        latex_rule(coefs, constant)
    )
}

impl Family for RecurrenceFamily {
    type Config = RecurrenceConfig;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/recurrence-v1",
        kind: EnvKind::SingleTurn,
        description: "A far term of a linear recurrence with constant integer coefficients; answer the exact integer",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };

    /// Difficulty levels, easiest first: the order grows 1 → 3, the
    /// coefficients 2 → 9 and the asked index 4 → 150.
    const LEVELS: &'static [&'static str] = &[
        r#"{"order":1,"max_coef":3,"min_n":4,"max_n":8}"#,
        r#"{"order":2,"max_coef":2,"min_n":5,"max_n":10}"#,
        r#"{"order":2,"max_coef":3,"min_n":10,"max_n":20}"#,
        "{}",
        r#"{"order":3,"max_coef":3,"min_n":20,"max_n":40}"#,
        r#"{"order":3,"max_coef":5,"min_n":40,"max_n":80}"#,
        r#"{"order":3,"max_coef":9,"min_n":80,"max_n":150}"#,
    ];

    /// Digit operations of the step-by-step evaluation: each of the `n`
    /// steps multiplies `order` terms (as long as the answer, at most) by a
    /// one-digit coefficient and adds them.
    fn effort(task: &MathTask) -> Option<f64> {
        let (_, asked) = task.question.split_once("Find $a_{")?;
        let n = *effort::integers_in(asked.split('}').next()?).first()? as f64;
        let order = task.question.matches("a_{n-").count().max(1) as f64;
        let digits = task.answer.trim_start_matches('-').len() as f64;
        Some(n * order * digits)
    }

    fn validate(config: &RecurrenceConfig) -> Result<(), ConfigError> {
        if !(1..=3).contains(&config.order) {
            return Err("order must be in 1..=3".into());
        }
        if !(1..=9).contains(&config.max_coef) {
            return Err("max_coef must be in 1..=9".into());
        }
        if config.min_n < config.order + 2 || config.max_n < config.min_n || config.max_n > 300 {
            return Err("need order + 2 <= min_n <= max_n <= 300".into());
        }
        Ok(())
    }

    fn draw(config: &RecurrenceConfig, rng: &mut Rng) -> Option<MathTask> {
        let d = config.order;
        let k = config.max_coef;
        let mut coefs: Vec<i64> = (0..d).map(|_| rng.range_i64(-k, k)).collect();
        coefs[d - 1] = nonzero(rng, k);
        let constant = if config.constant {
            rng.range_i64(-k, k)
        } else {
            0
        };
        let initial: Vec<i64> = (0..d).map(|_| rng.range_i64(-5, 9)).collect();
        let n = rng.range_usize(config.min_n, config.max_n);
        let seq = terms(&coefs, constant, &initial, n);
        let answer = &seq[n];
        // Bounded sequences (constant, periodic) answer with a number the
        // prompt nearly states; a growing one must have left the start behind.
        let start = initial
            .iter()
            .chain([&constant])
            .map(|x| x.abs())
            .max()
            .unwrap_or(0);
        if answer.abs() < BigInt::from(10.max(2 * start)) {
            return None;
        }
        Some(MathTask {
            question: question(&coefs, constant, &initial, n),
            answer: answer.to_string(),
            form: Form::Number,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::question::check;
    use crate::math::testing;
    use num_traits::{One, Pow};

    #[test]
    fn references_verify_and_do_not_transfer() {
        for preset in RecurrenceFamily::SPEC.presets {
            let config: RecurrenceConfig = serde_json::from_str(preset.overrides).unwrap();
            let tasks = testing::references_hold::<RecurrenceFamily>(&config, 400);
            testing::attacks_fail::<RecurrenceFamily>(&tasks[0]);
        }
    }

    #[test]
    fn terms_match_closed_forms() {
        // Fibonacci: F_100.
        let fib = terms(&[1, 1], 0, &[0, 1], 100);
        assert_eq!(fib[100].to_string(), "354224848179261915075");
        // First order: a_n = p^n a_0 + r (p^n - 1) / (p - 1).
        let mut rng = Rng::from_seed(5);
        for _ in 0..200 {
            let p = rng.range_i64(-6, 6);
            let (r, a0) = (rng.range_i64(-9, 9), rng.range_i64(-9, 9));
            if p == 1 {
                continue;
            }
            let n = rng.range_usize(0, 60);
            let pn = BigInt::from(p).pow(n as u32);
            let closed = &pn * a0 + BigInt::from(r) * (&pn - BigInt::one()) / (p - 1);
            assert_eq!(terms(&[p], r, &[a0], n)[n], closed, "p={p} r={r} a0={a0}");
        }
        // a_n = 3a_{n-1} - 2a_{n-2} has a_n = 2^n (a_1 - a_0) + 2 a_0 - a_1.
        let seq = terms(&[3, -2], 0, &[4, 7], 90);
        let closed = BigInt::from(2).pow(90u32) * 3 + 1;
        assert_eq!(seq[90], closed);
    }

    #[test]
    fn only_the_exact_term_passes() {
        let (coefs, constant, initial) = (vec![3, -2], 5, vec![1, 4]);
        let seq = terms(&coefs, constant, &initial, 30);
        let task = MathTask {
            question: question(&coefs, constant, &initial, 30),
            answer: seq[30].to_string(),
            form: Form::Number,
        };
        assert!(task.question.contains("$a_n = 3a_{n-1} - 2a_{n-2} + 5$"));
        assert!(check(&task, &format!("\\boxed{{{}}}", seq[30])).0);
        assert!(check(&task, &format!("\\boxed{{a_{{30}} = {}}}", seq[30])).0);
        for bad in [
            format!("\\boxed{{{}}}", &seq[30] + 1),
            format!("\\boxed{{{}}}", seq[29]),
            format!("\\boxed{{{} \\text{{ or }} {}}}", seq[30], seq[29]),
            format!("\\boxed{{{}}} \\boxed{{{}}}", seq[30], seq[29]),
            "\\boxed{3a_{29} - 2a_{28} + 5}".into(),
        ] {
            assert!(!check(&task, &bad).0, "{bad}");
        }
    }
}
