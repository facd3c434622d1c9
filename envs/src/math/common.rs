//! Shared machinery of the single-answer math envs: one generic env type
//! ([`MathEnv`]) over a task generator ([`Family`]), the answer-form checks,
//! the generation-time rejection rules, and LaTeX formatting helpers.
//!
//! Every env built here asks for one `\boxed{}` answer and scores it with
//! [`verigym_verifiers::math::verify_with_prompt`] (`require_boxed: true`),
//! after a structural [`Form`] check on the boxed expression, so that boxing
//! the question itself (`\boxed{3/4 + 2/5}`, `\boxed{(x+1)(x-2)}` for an
//! expansion) never counts as the answer.
//!
//! Generation rejects (draws again) any task whose reference answer equals a
//! small constant (the [`Role::MathGeneration`] degenerate answers: 0, ±1,
//! 2, yes/no…), appears verbatim as a token of the
//! question, or whose own reference does not pass through the scoring path.

use std::marker::PhantomData;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_verifiers::math::{
    Expr, MathConfig, RelOp, extract_prediction, verify, verify_with_prompt,
};

use crate::answers::{Role, degenerate_answers};
use crate::core::{Env, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::rng::Rng;

/// What shape the boxed answer must have, besides being equal to the reference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// One number: an integer, decimal or fraction (optionally `x = …`).
    Number,
    /// A polynomial with no product or power of a sum and no variable in a denominator.
    Expanded,
    /// A product of factors of degree at most one (powers allowed).
    Factored,
    /// An interval or a union of intervals.
    Interval,
    /// A tuple of numbers.
    Tuple,
    /// A matrix of numbers.
    Matrix,
    /// A set or list of values (radicals allowed).
    Values,
    /// Any polynomial expression (expanded or not).
    Polynomial,
    /// A rational function whose numerator and denominator degrees, as
    /// written, sum to at most `degree` (so an uncancelled form fails).
    Reduced { degree: u32 },
    /// `p_1^{k_1} \cdot p_2^{k_2} \cdots` with every `p_i` prime.
    PrimeFactors,
}

/// One task of any math env here: the question (which states the answer
/// form), the reference answer as LaTeX, and the form the answer must take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MathTask {
    pub question: String,
    pub answer: String,
    pub form: Form,
}

/// A task generator: the static side of one math env.
pub trait Family: Send + Sync + 'static {
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    const SPEC: EnvSpec;
    /// The difficulty scale, easiest first (see [`Env::LEVELS`]).
    const LEVELS: &'static [&'static str] = &[];

    /// The work the task takes (see [`Env::effort`]); `None` measures the
    /// characters of the reference answer instead.
    fn effort(_task: &MathTask) -> Option<f64> {
        None
    }

    /// # Errors
    /// A message naming the bad field.
    fn validate(_config: &Self::Config) -> Result<(), String> {
        Ok(())
    }

    /// Draws one candidate task; `None` asks for another draw.
    fn draw(config: &Self::Config, rng: &mut Rng) -> Option<MathTask>;
}

/// The episode state of a math env of family `F`.
pub struct MathEnv<F> {
    task: MathTask,
    response: Option<String>,
    family: PhantomData<fn() -> F>,
}

impl<F> Clone for MathEnv<F> {
    fn clone(&self) -> Self {
        MathEnv {
            task: self.task.clone(),
            response: self.response.clone(),
            family: PhantomData,
        }
    }
}

const INSTRUCTION: &str = "Put only the final answer inside \\boxed{}.";

pub fn prompt_of(task: &MathTask) -> String {
    format!("{}\n\n{INSTRUCTION}", task.question)
}

fn boxed_config() -> MathConfig {
    MathConfig {
        require_boxed: true,
        ..MathConfig::default()
    }
}

/// Scores a response: `(correct, form_ok)`.
pub fn check(task: &MathTask, response: &str) -> (bool, bool) {
    let cfg = boxed_config();
    let Ok(answer) = extract_prediction(response, &cfg) else {
        return (false, false);
    };
    let form_ok = form_holds(&task.form, &answer.expr);
    let correct = form_ok
        && decimals_exact(&task.answer, &task.form, &answer.expr)
        && verify_with_prompt(&task.answer, response, &prompt_of(task), &cfg).equivalent;
    (correct, form_ok)
}

/// The verifier compares decimals after rounding (to 6 places); a reward for
/// exact answers must not pay a rounded one. A decimal literal in the answer
/// is accepted only where the form holds plain numbers and only when it is
/// exactly the reference value (`0.5` for `\frac{1}{2}`, never `0.333333`).
fn decimals_exact(gold: &str, form: &Form, pred: &Expr) -> bool {
    let mut decimal = false;
    pred.walk(&mut |n| {
        decimal |= matches!(
            n,
            Expr::Num {
                decimals: Some(_),
                ..
            }
        )
    });
    if !decimal {
        return true;
    }
    if !matches!(form, Form::Number | Form::Tuple | Form::Matrix) {
        return false;
    }
    let Ok(gold) = verigym_verifiers::math::parse_expr(gold) else {
        return false;
    };
    match (numbers(&gold), numbers(pred)) {
        (Some(g), Some(p)) => g == p,
        _ => false,
    }
}

/// The exact values of a number, `x = number`, or a tuple or matrix of numbers.
fn numbers(e: &Expr) -> Option<Vec<BigRational>> {
    fn value(e: &Expr) -> Option<BigRational> {
        match e {
            Expr::Num { value, .. } => Some(value.clone()),
            Expr::Neg(a) => Some(-value(a)?),
            Expr::Div(a, b) => {
                let d = value(b)?;
                (!d.is_zero()).then(|| value(a).map(|n| n / d))?
            }
            _ => None,
        }
    }
    match e {
        Expr::Tuple(xs) => xs.iter().map(value).collect(),
        Expr::Matrix(rows) => rows.iter().flatten().map(value).collect(),
        Expr::Rel { items, ops } if ops == &[RelOp::Eq] && items.len() == 2 => numbers(&items[1]),
        other => Some(vec![value(other)?]),
    }
}

/// Whether `answer` occurs in `text` as a whole token (not inside a longer number or word).
pub fn appears_in(text: &str, answer: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '.';
    text.match_indices(answer).any(|(i, m)| {
        let before = text[..i].chars().next_back();
        let after = text[i + m.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

fn acceptable(task: &MathTask) -> bool {
    let plain = MathConfig::default();
    if degenerate_answers(Role::MathGeneration).any(|c| verify(&task.answer, c, &plain).equivalent)
    {
        return false;
    }
    if appears_in(&task.question, &task.answer) {
        return false;
    }
    check(task, &format!("\\boxed{{{}}}", task.answer)).0
}

/// Draws until a task passes the rejection rules.
pub fn generate_with<F: Family>(config: &F::Config, rng: &mut Rng) -> MathTask {
    loop {
        if let Some(task) = F::draw(config, rng)
            && acceptable(&task)
        {
            return task;
        }
    }
}

impl<F: Family> Env for MathEnv<F> {
    type Config = F::Config;
    type Task = MathTask;
    type Action = String;

    const SPEC: EnvSpec = F::SPEC;
    const LEVELS: &'static [&'static str] = F::LEVELS;

    fn effort(task: &MathTask) -> Option<f64> {
        F::effort(task)
    }

    fn validate(config: &F::Config) -> Result<(), String> {
        F::validate(config)
    }

    fn generate(config: &F::Config, rng: &mut Rng) -> MathTask {
        generate_with::<F>(config, rng)
    }

    fn reference(task: &MathTask) -> Option<Value> {
        Some(Value::String(task.answer.clone()))
    }

    fn reset(task: &MathTask, _rng: Rng) -> Self {
        MathEnv {
            task: task.clone(),
            response: None,
            family: PhantomData,
        }
    }

    fn turn(&self) -> Turn {
        if self.response.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        Observation {
            text: prompt_of(&self.task),
            structured: json!({ "question": self.task.question, "answered": self.response.is_some() }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.to_string())
    }

    fn apply(&mut self, _player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        self.response = Some(action);
        Ok(Vec::new())
    }

    fn score(&self, _player: Player) -> Score {
        let Some(response) = &self.response else {
            return Score::default();
        };
        let (correct, form_ok) = check(&self.task, response);
        Score::binary(correct).part("format", form_ok as u8 as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(format!("\\boxed{{{}}}", self.task.answer))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        format!("\\boxed{{{}}}", rng.range_i64(-200, 200))
    }
}

// ---- answer forms ----

fn is_number(e: &Expr) -> bool {
    match e {
        Expr::Num { .. } => true,
        Expr::Neg(a) => is_number(a),
        Expr::Div(a, b) => is_number(a) && is_number(b),
        _ => false,
    }
}

fn has_var(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= matches!(n, Expr::Sym(_)));
    found
}

fn is_sum(e: &Expr) -> bool {
    match e {
        Expr::Add(..) | Expr::Sub(..) => true,
        Expr::Neg(a) => is_sum(a),
        _ => false,
    }
}

fn has_sum(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |n| found |= is_sum(n));
    found
}

fn expanded(e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |n| match n {
        Expr::Mul(a, b) => ok &= !(has_sum(a) && has_var(a) || has_sum(b) && has_var(b)),
        Expr::Pow(a, b) => ok &= !has_sum(a) && !has_var(b),
        Expr::Div(_, b) => ok &= !has_var(b),
        Expr::Num { .. } | Expr::Sym(_) | Expr::Neg(_) | Expr::Add(..) | Expr::Sub(..) => {}
        _ => ok = false,
    });
    ok
}

/// Polynomial degree of an expression in its variables, `None` if not a polynomial.
fn degree(e: &Expr) -> Option<u32> {
    Some(match e {
        Expr::Num { .. } => 0,
        Expr::Sym(_) => 1,
        Expr::Neg(a) => degree(a)?,
        Expr::Add(a, b) | Expr::Sub(a, b) => degree(a)?.max(degree(b)?),
        Expr::Mul(a, b) => degree(a)? + degree(b)?,
        Expr::Div(a, b) if !has_var(b) => degree(a)?,
        Expr::Pow(a, b) => match &**b {
            Expr::Num { value, .. } if value.is_integer() && !value.is_negative() => {
                let n: u32 = value.to_integer().try_into().ok()?;
                degree(a)?.checked_mul(n)?
            }
            _ => return None,
        },
        _ => return None,
    })
}

/// `(numerator degree, denominator degree)` of a rational expression as written.
fn rational_degree(e: &Expr) -> Option<(u32, u32)> {
    Some(match e {
        Expr::Num { .. } => (0, 0),
        Expr::Sym(_) => (1, 0),
        Expr::Neg(a) => rational_degree(a)?,
        Expr::Add(a, b) | Expr::Sub(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            ((n1 + d2).max(n2 + d1), d1 + d2)
        }
        Expr::Mul(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            (n1 + n2, d1 + d2)
        }
        Expr::Div(a, b) => {
            let ((n1, d1), (n2, d2)) = (rational_degree(a)?, rational_degree(b)?);
            (n1 + d2, d1 + n2)
        }
        Expr::Pow(a, b) => match &**b {
            Expr::Num { value, .. } if value.is_integer() => {
                let k: i64 = value.to_integer().try_into().ok()?;
                let (n, d) = rational_degree(a)?;
                let k32 = u32::try_from(k.unsigned_abs()).ok()?.min(64);
                if k >= 0 {
                    (n * k32, d * k32)
                } else {
                    (d * k32, n * k32)
                }
            }
            _ => return None,
        },
        _ => return None,
    })
}

fn factored(e: &Expr) -> bool {
    fn factors<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match e {
            Expr::Mul(a, b) => {
                factors(a, out);
                factors(b, out);
            }
            Expr::Neg(a) => factors(a, out),
            Expr::Pow(a, _) => out.push(a),
            other => out.push(other),
        }
    }
    let mut list = Vec::new();
    factors(e, &mut list);
    degree(e).is_some() && list.iter().all(|f| degree(f).is_some_and(|d| d <= 1))
}

fn prime_factors(e: &Expr) -> bool {
    fn prime(e: &Expr) -> bool {
        match e {
            Expr::Num {
                value,
                decimals: None,
            } if value.is_integer() => {
                let n = value.to_integer();
                n > BigInt::one() && n < BigInt::from(1u64 << 40) && {
                    let n: u64 = n.try_into().unwrap_or(0);
                    (2..)
                        .take_while(|d| d * d <= n)
                        .all(|d| !n.is_multiple_of(d))
                }
            }
            _ => false,
        }
    }
    match e {
        Expr::Mul(a, b) => prime_factors(a) && prime_factors(b),
        Expr::Pow(a, b) => {
            prime(a)
                && matches!(&**b, Expr::Num { value, decimals: None } if value.is_integer() && value.is_positive())
        }
        other => prime(other),
    }
}

/// Whether a parsed answer has the shape `form` asks for.
pub fn form_holds(form: &Form, e: &Expr) -> bool {
    match form {
        Form::Number => match e {
            Expr::Rel { items, ops } => {
                ops == &[RelOp::Eq] && matches!(items[0], Expr::Sym(_)) && is_number(&items[1])
            }
            other => is_number(other),
        },
        Form::Expanded => expanded(e),
        Form::Factored => factored(e),
        // `(a, b)` parses as a pair; the verifier reads it as the open interval.
        Form::Interval => {
            matches!(e, Expr::Interval { .. } | Expr::Union(_))
                || matches!(e, Expr::Tuple(xs) if xs.len() == 2)
        }
        Form::Tuple => matches!(e, Expr::Tuple(xs) if xs.iter().all(is_number)),
        Form::Matrix => matches!(e, Expr::Matrix(rows) if rows.iter().flatten().all(is_number)),
        Form::Values => !has_var(e),
        Form::Polynomial => degree(e).is_some(),
        Form::Reduced { degree } => rational_degree(e).is_some_and(|(n, d)| n + d <= *degree),
        Form::PrimeFactors => prime_factors(e),
    }
}

// ---- LaTeX formatting ----

/// `12`, `-\frac{7}{3}`.
pub fn latex_rational(q: &BigRational) -> String {
    if q.is_integer() {
        return q.numer().to_string();
    }
    let sign = if q.is_negative() { "-" } else { "" };
    format!("{sign}\\frac{{{}}}{{{}}}", q.numer().abs(), q.denom())
}

pub fn rat(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

pub fn int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// A polynomial in `var` from coefficients, lowest degree first: `3x^{2} - x + \frac{1}{2}`.
pub fn latex_poly(coeffs: &[BigRational], var: &str) -> String {
    let mut out = String::new();
    for (k, c) in coeffs.iter().enumerate().rev() {
        if c.is_zero() {
            continue;
        }
        let magnitude = c.abs();
        let sign = match (out.is_empty(), c.is_negative()) {
            (true, true) => "-",
            (true, false) => "",
            (false, true) => " - ",
            (false, false) => " + ",
        };
        let coef = if k > 0 && magnitude.is_one() {
            String::new()
        } else {
            latex_rational(&magnitude)
        };
        let power = match k {
            0 => String::new(),
            1 => var.to_string(),
            _ => format!("{var}^{{{k}}}"),
        };
        out.push_str(&format!("{sign}{coef}{power}"));
    }
    if out.is_empty() { "0".into() } else { out }
}

/// [`latex_poly`] over integer coefficients.
pub fn latex_poly_i(coeffs: &[i64], var: &str) -> String {
    latex_poly(&coeffs.iter().map(|&c| int(c)).collect::<Vec<_>>(), var)
}

/// The product of two polynomials (coefficients lowest first).
pub fn poly_mul(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut out = vec![0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// `(2x - 3)` for the linear factor `a x + b`.
pub fn linear_factor(a: i64, b: i64, var: &str) -> String {
    format!("({})", latex_poly_i(&[b, a], var))
}

/// A non-zero integer in `-hi..=hi`.
pub fn nonzero(rng: &mut Rng, hi: i64) -> i64 {
    loop {
        let v = rng.range_i64(-hi, hi);
        if v != 0 {
            return v;
        }
    }
}

/// `+ 3` / `- 3` for writing `x + 3` from a signed term.
pub fn signed(v: i64) -> String {
    if v < 0 {
        format!("- {}", -v)
    } else {
        format!("+ {v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_verifiers::math::parse_expr;

    fn holds(form: Form, text: &str) -> bool {
        form_holds(&form, &parse_expr(text).unwrap())
    }

    #[test]
    fn forms_accept_their_shapes_only() {
        assert!(holds(Form::Number, "-\\frac{7}{3}"));
        assert!(holds(Form::Number, "0.75"));
        assert!(holds(Form::Number, "x = 4"));
        assert!(!holds(Form::Number, "3/4 + 2/5"));
        assert!(holds(Form::Expanded, "x^2 + 2x + 1"));
        assert!(holds(Form::Expanded, "2 \\cdot x^{3} - \\frac{x}{2}"));
        assert!(!holds(Form::Expanded, "(x+1)^2"));
        assert!(!holds(Form::Expanded, "(x+1)(x-1)"));
        assert!(holds(Form::Factored, "(x+1)(x-2)"));
        assert!(holds(Form::Factored, "-2(x+1)^{2}(3x-2)"));
        assert!(!holds(Form::Factored, "x^2 - x - 2"));
        assert!(holds(Form::PrimeFactors, "2^{3} \\cdot 3 \\cdot 7"));
        assert!(!holds(Form::PrimeFactors, "168"));
        assert!(!holds(Form::PrimeFactors, "4 \\cdot 42"));
        assert!(holds(Form::Interval, "(-\\infty, 3]"));
        assert!(holds(Form::Tuple, "(1, -2)"));
    }

    #[test]
    fn latex_helpers_write_canonical_forms() {
        assert_eq!(latex_poly_i(&[-6, -1, 1], "x"), "x^{2} - x - 6");
        assert_eq!(
            latex_poly(&[rat(1, 2), int(0), int(-3)], "x"),
            "-3x^{2} + \\frac{1}{2}"
        );
        assert_eq!(latex_rational(&rat(-14, 6)), "-\\frac{7}{3}");
        assert!(appears_in("gcd of 12 and 18", "12"));
        assert!(!appears_in("gcd of 120 and 18", "12"));
    }
}
