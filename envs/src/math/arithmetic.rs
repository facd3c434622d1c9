//! `math/arithmetic-v1`: evaluate an arithmetic expression exactly. A
//! [`Question`] on the single-turn base with its own exact-number check.
//!
//! # Task
//! An expression over integers with `+ - * /` and, on harder presets,
//! parentheses, e.g. `(12 + 7) * 3 - 45 / 9`. The value is an exact rational.
//!
//! # Action
//! One free-text answer. The final answer is the last `\boxed{…}` (all boxes
//! must agree) or, without a box, the whole reply; it must be a single
//! integer or fraction (`-7/3`, `\frac{-7}{3}`, `2.5`).
//!
//! # Observation
//! The expression and the answer format.
//!
//! # Reward
//! 1 and `passed` when the answer equals the value exactly, else 0.
//! Breakdown: `correct`, `format` (1 when a single number was found).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `min_terms`/`max_terms` (operands, 2–12), `digits` (1–9 per operand),
//! `operators` (a subset of `+-*/`), `parentheses`.
//!
//! # Seeding
//! Tasks whose value is -1, 0 or 1 are regenerated, so no constant answer
//! scores on them.
//!
//! # Version history
//! v1: first version.

use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::numeric::{format_rational, parse_exact_number};

use crate::core::{EnvKind, EnvSpec, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn, boxed};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ArithmeticConfig {
    pub min_terms: usize,
    pub max_terms: usize,
    pub digits: u32,
    pub operators: String,
    pub parentheses: bool,
}

impl Default for ArithmeticConfig {
    fn default() -> Self {
        ArithmeticConfig {
            min_terms: 3,
            max_terms: 4,
            digits: 2,
            operators: "+-*/".into(),
            parentheses: true,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArithmeticTask {
    pub expression: String,
    /// The exact value, `p/q` in lowest terms or an integer.
    pub answer: String,
}

/// The arithmetic [`Question`]; [`Arithmetic`] is its env.
pub struct ArithmeticQuestion;

pub type Arithmetic = SingleTurn<ArithmeticQuestion>;

const MAX_TERMS: usize = 12;
const MAX_DIGITS: u32 = 9;

fn operand(config: &ArithmeticConfig, rng: &mut Rng) -> BigRational {
    let hi = 10i64.pow(config.digits) - 1;
    BigRational::from_integer(rng.range_i64(1, hi).into())
}

fn combine(op: char, left: &BigRational, right: &BigRational) -> BigRational {
    match op {
        '+' => left + right,
        '-' => left - right,
        '*' => left * right,
        _ => left / right, // operands are >= 1 and never cancel to 0 under * and /
    }
}

/// A flat expression `a op b op c …`, valued with the usual precedence:
/// `*` and `/` first, then `+` and `-`, each left to right.
fn flat_expression(
    config: &ArithmeticConfig,
    ops: &[char],
    terms: usize,
    rng: &mut Rng,
) -> (String, BigRational) {
    let first = operand(config, rng);
    let mut text = first.to_string();
    // Sum of finished products, the product in progress and its sign.
    let (mut sum, mut product, mut sign) = (BigRational::zero(), first, BigRational::one());
    for _ in 1..terms {
        let op = ops[rng.below(ops.len() as u64) as usize];
        let value = operand(config, rng);
        text.push_str(&format!(" {op} {value}"));
        match op {
            '*' | '/' => product = combine(op, &product, &value),
            _ => {
                sum += &sign * &product;
                sign = if op == '+' {
                    BigRational::one()
                } else {
                    -BigRational::one()
                };
                product = value;
            }
        }
    }
    (text, sum + sign * product)
}

/// A random binary tree in which every compound operand is parenthesised.
/// Returns `None` on division by zero (the caller draws again).
fn tree_expression(
    config: &ArithmeticConfig,
    ops: &[char],
    terms: usize,
    rng: &mut Rng,
) -> Option<(String, BigRational)> {
    if terms == 1 {
        let value = operand(config, rng);
        return Some((value.to_string(), value));
    }
    let left_terms = rng.range_usize(1, terms - 1);
    let (left_text, left) = tree_expression(config, ops, left_terms, rng)?;
    let (right_text, right) = tree_expression(config, ops, terms - left_terms, rng)?;
    let op = ops[rng.below(ops.len() as u64) as usize];
    if op == '/' && right.is_zero() {
        return None;
    }
    let wrap = |text: String, n: usize| if n > 1 { format!("({text})") } else { text };
    let text = format!(
        "{} {op} {}",
        wrap(left_text, left_terms),
        wrap(right_text, terms - left_terms)
    );
    Some((text, combine(op, &left, &right)))
}

impl Question for ArithmeticQuestion {
    type Config = ArithmeticConfig;
    type Task = ArithmeticTask;

    const SPEC: EnvSpec = EnvSpec {
        id: "math/arithmetic-v1",
        kind: EnvKind::SingleTurn,
        description: "Evaluate an integer expression with + - * / exactly; answer an integer or fraction",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [2, 4, 6]),
    };

    /// Difficulty levels, easiest first: operands per expression 2 → 9
    /// (`min_terms`/`max_terms`) and `digits` 1 → 4 grow; `*` and `/` join
    /// at level 3, parentheses at `medium`.
    const LEVELS: &'static [&'static str] = &[
        r#"{"min_terms":2,"max_terms":2,"digits":1,"operators":"+-","parentheses":false}"#,
        r#"{"min_terms":2,"max_terms":3,"digits":2,"operators":"+-","parentheses":false}"#,
        r#"{"min_terms":3,"max_terms":3,"digits":2,"operators":"+-","parentheses":false}"#,
        r#"{"min_terms":3,"max_terms":3,"digits":2,"operators":"+-*/","parentheses":false}"#,
        "{}",
        r#"{"min_terms":4,"max_terms":5,"digits":3}"#,
        r#"{"min_terms":5,"max_terms":7,"digits":3}"#,
        r#"{"min_terms":7,"max_terms":9,"digits":4}"#,
    ];

    const STRUCTURED_KEY: Option<&'static str> = None;

    /// Digit operations of evaluating the expression by hand (see
    /// [`crate::math::effort::schoolbook`]): a product of two 3-digit
    /// numbers is harder than a sum, though the answers are as long.
    fn effort(task: &ArithmeticTask) -> Option<f64> {
        crate::math::effort::schoolbook_work(&task.expression)
    }

    fn validate(config: &ArithmeticConfig) -> Result<(), ConfigError> {
        if !(2..=MAX_TERMS).contains(&config.min_terms)
            || config.max_terms < config.min_terms
            || config.max_terms > MAX_TERMS
        {
            return Err(format!("need 2 <= min_terms <= max_terms <= {MAX_TERMS}").into());
        }
        if !(1..=MAX_DIGITS).contains(&config.digits) {
            return Err(format!("digits must be 1..={MAX_DIGITS}").into());
        }
        if config.operators.is_empty() || !config.operators.chars().all(|c| "+-*/".contains(c)) {
            return Err("operators must be a non-empty subset of \"+-*/\"".into());
        }
        Ok(())
    }

    fn generate(config: &ArithmeticConfig, rng: &mut Rng) -> ArithmeticTask {
        let ops: Vec<char> = config.operators.chars().collect();
        loop {
            let terms = rng.range_usize(config.min_terms, config.max_terms);
            let built = if config.parentheses {
                tree_expression(config, &ops, terms, rng)
            } else {
                Some(flat_expression(config, &ops, terms, rng))
            };
            let Some((expression, value)) = built else {
                continue;
            };
            // Constant answers must not pay: skip tasks valued -1, 0 or 1.
            if value.is_integer() && value.abs() <= BigRational::one() {
                continue;
            }
            return ArithmeticTask {
                expression,
                answer: format_rational(&value),
            };
        }
    }

    fn prompt(task: &ArithmeticTask) -> String {
        format!(
            "Compute the exact value of this expression (usual operator precedence; / is exact division):\n\n    {}\n\nGive the answer as an integer or a fraction in lowest terms, like -7/3, inside \\boxed{{}}.",
            task.expression
        )
    }

    fn structured(task: &ArithmeticTask) -> Value {
        json!({ "expression": task.expression })
    }

    fn reference(task: &ArithmeticTask) -> String {
        task.answer.clone()
    }

    /// Exact equality of the values; an answer that is not one number is
    /// unreadable (format 0).
    fn check(task: &ArithmeticTask, answer: &str) -> Result<bool, CheckError> {
        let given = parse_exact_number(answer).ok_or("not a single number")?;
        Ok(parse_exact_number(&task.answer) == Some(given))
    }

    fn random_answer(rng: &mut Rng) -> String {
        boxed(&rng.range_i64(-200, 200).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Env, Score, Turn};
    use num_bigint::BigInt;

    fn episode(task: &ArithmeticTask, answer: &str) -> Score {
        let mut env = Arithmetic::reset(task, Rng::from_seed(0));
        let action = env.parse_action(0, answer).unwrap();
        env.apply(0, action).unwrap();
        assert_eq!(env.turn(), Turn::Over);
        env.score(0)
    }

    #[test]
    fn values_follow_precedence_exactly() {
        let task = ArithmeticTask {
            expression: "2 + 3 * 4 - 5 / 2".into(),
            answer: "23/2".into(),
        };
        assert!(episode(&task, "\\boxed{23/2}").passed);
        assert!(episode(&task, "It is \\boxed{\\frac{23}{2}}").passed);
        assert!(episode(&task, "11.5").passed);
        assert!(episode(&task, "<think>maybe 12</think>\\boxed{46/4}").passed);
    }

    #[test]
    fn wrong_empty_hedged_padded_and_echoed_answers_score_zero() {
        let task = ArithmeticTask {
            expression: "12 - 7 * 3".into(),
            answer: "-9".into(),
        };
        let prompt = Arithmetic::reset(&task, Rng::from_seed(0)).observe(0).text;
        for bad in [
            "",
            "\\boxed{}",
            "\\boxed{9}",
            "\\boxed{-9} or \\boxed{9}",
            "-9 or 9",
            "-9, 9",
            "The answer is -9 or maybe 9",
            "12 - 7 * 3",
            prompt.as_str(),
            "0",
            "1",
            "\\boxed{-8.999}",
        ] {
            let score = episode(&task, bad);
            assert!(!score.passed && score.reward == 0.0, "{bad:?} passed");
        }
        assert_eq!(episode(&task, "\\boxed{9}").breakdown["format"], 1.0);
        assert_eq!(episode(&task, "nine").breakdown["format"], 0.0);
    }

    #[test]
    fn generated_texts_evaluate_to_their_answers_under_precedence() {
        // Re-evaluate each generated expression with an independent
        // precedence-climbing evaluator, so a wrong paren rule shows up.
        for preset in [
            ArithmeticConfig {
                parentheses: false,
                ..Default::default()
            },
            ArithmeticConfig::default(),
            ArithmeticConfig {
                min_terms: 5,
                max_terms: 7,
                digits: 3,
                ..Default::default()
            },
        ] {
            let mut rng = Rng::from_seed(11);
            for _ in 0..300 {
                let task = Arithmetic::generate(&preset, &mut rng);
                let value = eval(&task.expression);
                assert_eq!(format_rational(&value), task.answer, "{}", task.expression);
                assert!(!["0", "1", "-1"].contains(&task.answer.as_str()));
            }
        }
    }

    fn eval(text: &str) -> BigRational {
        let tokens: Vec<String> = text
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(String::from)
            .collect();
        let mut pos = 0;
        let value = expr(&tokens, &mut pos);
        assert_eq!(pos, tokens.len(), "trailing tokens in {text}");
        value
    }

    fn expr(t: &[String], pos: &mut usize) -> BigRational {
        let mut acc = term(t, pos);
        while *pos < t.len() && (t[*pos] == "+" || t[*pos] == "-") {
            let op = t[*pos].clone();
            *pos += 1;
            let rhs = term(t, pos);
            acc = if op == "+" { acc + rhs } else { acc - rhs };
        }
        acc
    }

    fn term(t: &[String], pos: &mut usize) -> BigRational {
        let mut acc = atom(t, pos);
        while *pos < t.len() && (t[*pos] == "*" || t[*pos] == "/") {
            let op = t[*pos].clone();
            *pos += 1;
            let rhs = atom(t, pos);
            acc = if op == "*" { acc * rhs } else { acc / rhs };
        }
        acc
    }

    fn atom(t: &[String], pos: &mut usize) -> BigRational {
        let token = t[*pos].clone();
        *pos += 1;
        if token == "(" {
            let v = expr(t, pos);
            assert_eq!(t[*pos], ")");
            *pos += 1;
            v
        } else {
            BigRational::from_integer(token.parse::<BigInt>().unwrap())
        }
    }
}
