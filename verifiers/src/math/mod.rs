//! Math answer equivalence: is a model's final answer the same as the reference answer?
//!
//! This is a reward function for RL, so it follows the one-answer rule
//! ([`crate::answer`], DESIGN.md rule 4): exactly one answer is graded, the one in answer
//! position (the last box group, else the last final-answer statement, else the latest
//! expression of the text). An answer position that carries two candidates never equals
//! a single gold value — "3 or 4", a box per candidate, "between 3 and 4", a row of
//! numbers (`3 5`), alternatives inside the box (`5 \text{(or maybe 43)}`), a box and a
//! final-answer statement of another value (in either order, compared as values). Prose
//! around a box is not graded (`\boxed{5} (or maybe 43)` is the answer 5: the 43 can never
//! raise a reward); an empty box is no answer; numbers are never fished out of LaTeX that
//! failed to parse (delimited or not).
//!
//! # Pipeline
//!
//! 1. **Extraction** ([`extract_answer`]): remove the reasoning (the shared
//!    [`crate::answer::strip_reasoning`]; reasoning never closed is
//!    [`AnswerError::Truncated`]) and chat markers, then
//!    take the last `\boxed{}` group (adjacent boxes form a list), else the last
//!    final-answer statement ([`crate::answer::position`]), else the latest LaTeX span,
//!    undelimited LaTeX stretch or plain-text expression that parses. Nested boxes (`\boxed{\boxed{5}}`) are one box.
//! 2. **Normalisation**: `\left`/`\right`, spacing, `\dfrac`, digit grouping (below),
//!    `\%` and percent words, degrees, `\text{}`/`\mathrm{}` units and bare unit words,
//!    currency, trailing punctuation, mixed numbers (`4 4/9`, `2\frac{1}{3}`,
//!    `-2\frac{1}{3}` = -7/3), escape damage (`\\frac`, a form feed for `\f`).
//! 3. **Parsing** ([`parse_expr`], [`parse_plain_expr`]): an own recursive-descent parser
//!    to an [`Expr`]; unknown commands fail. Input length (2,000 characters), nesting (50),
//!    exponents (20,000), factorials (3,000) and total work are capped; long sums fold
//!    into balanced trees, so small thread stacks suffice. Scans are linear.
//! 4. **Comparison** ([`equivalent`]): exact over big rationals whenever possible
//!    (`1/2004!` ≠ `1/2006!`); rational functions of variables by canonical form
//!    (`n₁d₂ = n₂d₁` over exact rationals); other expressions with variables at seeded
//!    rational points over the whole line — positive, negative, below one in size,
//!    mixed signs and zero — with the domain taken into account (Schwartz–Zippel; the
//!    seed is derived from the two expressions, so verdicts are deterministic but the
//!    points cannot be targeted): `x` ≠ `|x|`, `x` ≠ `\sqrt{x^2}`, `\ln(x^2)` ≠ `2\ln x`,
//!    while `\frac{x^2-1}{x-1}` = `x+1`. Radicals, trig, logs, `e` and `π` with ~60-digit
//!    rational arithmetic and tracked error bounds — "equal" needs the bounds below 1e-40
//!    relative, anything undecidable is "not equivalent". Exact trig values at rational
//!    multiples of π; `i` as the imaginary unit when it evaluates (`e^{i\pi}` = -1,
//!    `|3+4i|` = 5).
//!
//! # Numbers
//!
//! * **Exact by default.** A decimal equals a value only if it is exactly that value:
//!   `0.5` = `\frac{1}{2}`, but `0.3333333333` ≠ `\frac{1}{3}` and `100.00000001` ≠ `100`.
//!   [`MathConfig::float_rounding`] opts in to Math-Verify's rounding for datasets whose
//!   references are rounded (both sides rounded to `k` places when either is a decimal).
//! * **Commas.** A comma between digits separates list items, or groups thousands in
//!   groups of exactly three digits; it is never a decimal point unless
//!   [`MathConfig::decimal_comma`] asks. `12{,}345`, `32,\!349` and thin or non-breaking
//!   spaces (`12\,345`, `12\;345`, U+2009) always group digits; a bare `12,345` (with or
//!   without a space after the comma) reads both as 12345 and as the list 12, 345
//!   ([`Expr::Readings`]) outside brackets, and as two items inside them. So `(3,4)`,
//!   `[3,4]` and `3.4` all differ, `(1,2)` = `(1, 2)`, and a space after a comma never
//!   changes a verdict.
//! * **Percent,** the same rule on either side: a percentage equals its fraction
//!   (`25\%` = `0.25`); a LaTeX `25\%` (where `\%` also marks a unit) also equals `25`; a
//!   plain-text `25%` means 0.25 only.
//! * **Text.** `\text{13}` is 13 and `\text{5 apples}` is 5 (unit words after a value are
//!   dropped); `\text{Evelyn}` equals `Evelyn` (letters, ignoring case and punctuation).
//!   Multiple-choice letters: [`extract_choice`].
//!
//! # Gold-driven rules
//!
//! * **Assignments.** `x = 3` against a bare `3` (either side) compares the value when the
//!   left side *names* something (a variable, `f(x)`, `|AB|`, `A:B`, `(p, q)`); `2x+z = 1`
//!   names nothing and stays an equation. Chains `x = 5+5+1 = 11` state `x = 11`, and a
//!   true constant equation `3/4 = 0.75` states its value.
//! * **Equations** are equal when one side-difference is a non-zero constant multiple of
//!   the other; inequalities need a positive multiple and the same strictness (`>` is
//!   flipped to `<`). A predicted `x \in S` compares as a set; a gold `x \in S` against an
//!   inequality only with [`MathConfig::allow_set_relation_comp`].
//! * **Sets of reals** compare as sets however written: intervals (open, closed,
//!   half-open), unions, inequalities, `|x - c| < r`, conditions joined by "or",
//!   `x \ne a`, `\mathbb{R} \setminus \{a\}` (`|x| < 2` = `(-2, 2)`; `x < -2 \text{ or }
//!   x > 2` = `(-\infty, -2) \cup (2, \infty)`).
//! * **Lists.** Sets and bare lists compare as sets (a task with no order); a caller whose
//!   bare lists are ordered sets [`MathConfig::ordered_lists`]. Tuples, `\langle a, b
//!   \rangle` vectors and one-row or one-column matrices compare in order; a bare list
//!   against a tuple compares in order; `(a, b)` against an interval is the open interval.
//!
//! ```
//! use verigym_verifiers::math::{verify, MathConfig};
//!
//! let cfg = MathConfig::default();
//! assert!(verify("$\\frac{1}{2}$", "So the answer is $\\boxed{0.5}$.", &cfg).equivalent);
//! assert!(verify("$(x+1)^2$", "$x^2+2x+1$", &cfg).equivalent);
//! assert!(!verify("$3$", "It is \\boxed{3} or \\boxed{4}", &cfg).equivalent);
//! assert!(!verify("$\\frac{1}{2004!}$", "$\\frac{1}{2006!}$", &cfg).equivalent);
//! assert!(!verify("$\\pi$", "$\\pi + 10^{-20}$", &cfg).equivalent);
//! assert!(!verify("$\\frac{1}{3}$", "\\boxed{0.3333333333}", &cfg).equivalent);
//! assert!(!verify("$x$", "\\boxed{\\sqrt{x^2}}", &cfg).equivalent);
//! assert!(!verify("$5$", "\\boxed{5}\n\nFinal answer: 43", &cfg).equivalent);
//! assert!(!verify("$5$", "\\boxed{5 \\text{ or } 43}", &cfg).equivalent);
//! assert!(verify("$5$", "\\boxed{5} (43 was my first guess)", &cfg).equivalent);
//! assert!(verify("(1,2)", "(1, 2)", &cfg).equivalent && !verify("(3,4)", "3.4", &cfg).equivalent);
//! ```

mod ast;
mod choice;
mod compare;
mod complex;
mod eval;
mod extract;
mod hp;
mod lex;
mod normalize;
mod parse;
mod poly;
mod read;
mod sample;
mod scan;
mod separators;
mod sets;
mod shape;
mod units;
mod value;

pub use ast::{Constant, Expr, Func, RelOp};
pub use choice::{extract_choice, verify_choice};
pub use extract::Source;

use crate::answer::AnswerError;
use thiserror::Error;

/// Longest candidate answer that is parsed at all.
const MAX_CANDIDATE_CHARS: usize = 2_000;

/// Why a string is not a parseable answer.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    #[error("empty answer")]
    Empty,
    #[error("answer too long ({0} characters)")]
    TooLong(usize),
    #[error("unexpected character {0:?}")]
    BadChar(char),
    #[error("unknown command \\{0}")]
    UnknownCommand(String),
    #[error("unknown word {0:?}")]
    UnknownWord(String),
    #[error("unexpected {0}")]
    Unexpected(String),
    #[error("nesting too deep")]
    TooDeep,
    #[error("invalid number: {0}")]
    BadNumber(String),
    #[error("unexpected end of answer")]
    Eof,
}

/// What to look for when extracting an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Targets {
    /// Boxes and LaTeX spans (`$…$`, `\[…\]`, …).
    pub latex: bool,
    /// Plain-text expressions and numbers.
    pub expr: bool,
}

impl Default for Targets {
    fn default() -> Self {
        Targets {
            latex: true,
            expr: true,
        }
    }
}

/// Settings for one check.
#[derive(Clone, Debug, PartialEq)]
pub struct MathConfig {
    pub gold_targets: Targets,
    pub pred_targets: Targets,
    /// The opt-in numeric tolerance. `None` (the default): exact — a decimal equals a
    /// value only if it is exactly that value (`0.5` = `\frac{1}{2}`, `0.3333333333` ≠
    /// `\frac{1}{3}`, `100.00000001` ≠ `100`). `Some(k)`: when either answer is a
    /// decimal literal, both are rounded to `k` decimal places first (Math-Verify's
    /// `float_rounding`), for datasets whose references are rounded.
    pub float_rounding: Option<u32>,
    /// Read a comma between digits that cannot group thousands (`2,74`, `0,111`,
    /// `2{,}5`) as a decimal point, for data written in such locales. Off by default:
    /// a comma separates list items or groups thousands, never decimals.
    pub decimal_comma: bool,
    /// Compare bare lists (`3, 1, 2`) in order. Off by default: a bare list, like a
    /// set, is an unordered collection of answers; a tuple `(a, b)` or `\langle a,
    /// b\rangle` is always ordered.
    pub ordered_lists: bool,
    /// When false, `x = 3` and `y = 3` are the same answer (left sides are ignored).
    pub strict: bool,
    /// Let `x \in [a, b]` equal `a <= x <= b`.
    pub allow_set_relation_comp: bool,
    /// Only a `\boxed{}` answer counts.
    pub require_boxed: bool,
}

impl MathConfig {
    /// Reads the per-check config used by `verigym check math` and the
    /// Math-Verify-derived data: `gold_extraction` / `pred_extraction`
    /// (lists of `"latex"`, `"expr"`), `float_rounding` (a number of places opts in
    /// to rounding, `null` keeps exact comparison), `decimal_comma`,
    /// `ordered_lists`, `strict`, `allow_set_relation_comp`, `require_boxed`. Missing
    /// keys keep their defaults; unknown keys are ignored (the data carries
    /// Math-Verify-only settings).
    pub fn from_json(value: &serde_json::Value) -> MathConfig {
        fn targets(list: &serde_json::Value) -> Targets {
            let names: Vec<&str> = list
                .as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            Targets {
                latex: names.contains(&"latex"),
                expr: names.contains(&"expr"),
            }
        }
        let mut cfg = MathConfig::default();
        if let Some(g) = value.get("gold_extraction") {
            cfg.gold_targets = targets(g);
        }
        if let Some(p) = value.get("pred_extraction") {
            cfg.pred_targets = targets(p);
        }
        if let Some(r) = value.get("float_rounding").and_then(|r| r.as_u64()) {
            cfg.float_rounding = Some(r.min(u64::from(u32::MAX)) as u32);
        }
        let flag = |key: &str| value.get(key).and_then(|v| v.as_bool());
        cfg.strict = flag("strict").unwrap_or(cfg.strict);
        cfg.allow_set_relation_comp =
            flag("allow_set_relation_comp").unwrap_or(cfg.allow_set_relation_comp);
        cfg.require_boxed = flag("require_boxed").unwrap_or(cfg.require_boxed);
        cfg.decimal_comma = flag("decimal_comma").unwrap_or(cfg.decimal_comma);
        cfg.ordered_lists = flag("ordered_lists").unwrap_or(cfg.ordered_lists);
        cfg
    }
}

impl Default for MathConfig {
    fn default() -> Self {
        MathConfig {
            gold_targets: Targets::default(),
            pred_targets: Targets::default(),
            float_rounding: None,
            decimal_comma: false,
            ordered_lists: false,
            strict: true,
            allow_set_relation_comp: false,
            require_boxed: false,
        }
    }
}

/// The outcome of [`verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub equivalent: bool,
    /// Canonical text of the parsed gold answer.
    pub gold_parsed: Option<String>,
    /// Canonical text of the parsed predicted answer.
    pub prediction_parsed: Option<String>,
    /// A short human-readable explanation.
    pub reason: String,
}

/// An extracted and parsed answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub expr: Expr,
    /// The candidate text it was parsed from.
    pub text: String,
    pub source: Source,
}

/// Parses one LaTeX answer (no extraction; `$` delimiters and trailing dots are fine).
pub fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    read::parse_candidate(text, true, false)
}

/// Parses one plain-text answer such as `4 4/9` or `28%`.
pub fn parse_plain_expr(text: &str) -> Result<Expr, ParseError> {
    read::parse_candidate(text, false, false)
}

/// Extracts and parses the final answer of a response.
pub fn extract_answer(response: &str, targets: Targets) -> Result<Answer, AnswerError> {
    let prepared = normalize::prepare_response(response)?;
    read::first_parsed(&prepared, targets, false)
}

/// Whether two parsed answers are equivalent (gold first: some rules are gold-driven).
pub fn equivalent(gold: &Expr, pred: &Expr, cfg: &MathConfig) -> bool {
    shape::well_formed(gold)
        && shape::well_formed(pred)
        && compare::Comparer::new(cfg).equiv(gold, pred)
}

/// Extracts a predicted answer the way [`verify`] does: like [`extract_answer`] with the
/// prediction targets, plus the one-answer rule (every boxed group and every final-answer
/// statement must agree with the graded answer; alternatives offered in the sentence of
/// an unboxed answer become a list) and [`MathConfig::require_boxed`].
pub fn extract_prediction(prediction: &str, cfg: &MathConfig) -> Result<Answer, AnswerError> {
    read::extract_prediction(prediction, cfg)
}

/// Checks a predicted response against a gold answer.
pub fn verify(gold: &str, prediction: &str, cfg: &MathConfig) -> Verdict {
    judge(gold, extract_prediction(prediction, cfg), cfg)
}

/// [`verify`] for text whose reasoning is already removed (a multi-turn env's action,
/// which the reply rule of `verigym_envs::reply` has read once): a tag it mentions is
/// text, never reasoning read again.
pub fn verify_visible(gold: &str, visible: &str, cfg: &MathConfig) -> Verdict {
    let prediction =
        normalize::prepare_visible(visible).and_then(|p| read::extract_prepared(&p, cfg));
    judge(gold, prediction, cfg)
}

/// The verdict on a read prediction.
fn judge(gold: &str, pred_answer: Result<Answer, AnswerError>, cfg: &MathConfig) -> Verdict {
    // The gold answer is trusted: if the configured targets find nothing in it, try all.
    let read_gold = |targets| {
        let prepared = normalize::prepare_response(gold)?;
        read::first_parsed(&prepared, targets, cfg.decimal_comma)
    };
    let gold_answer =
        read_gold(cfg.gold_targets).or_else(|e| match cfg.gold_targets == Targets::default() {
            true => Err(e),
            false => read_gold(Targets::default()),
        });
    let gold_answer = gold_answer.map(|a| grouped_gold(gold, a));
    let gold_parsed = gold_answer.as_ref().ok().map(|a| a.expr.to_string());
    let prediction_parsed = pred_answer.as_ref().ok().map(|a| a.expr.to_string());
    let (equivalent, reason) = match (&gold_answer, &pred_answer) {
        (Err(e), _) => (false, format!("gold: {e}")),
        (_, Err(e)) => (false, format!("prediction: {e}")),
        (Ok(g), Ok(p)) => {
            if equivalent(&g.expr, &p.expr, cfg) {
                (true, "equivalent".to_string())
            } else {
                (false, "not equivalent".to_string())
            }
        }
    };
    Verdict {
        equivalent,
        gold_parsed,
        prediction_parsed,
        reason,
    }
}

/// A gold answer is trusted: a digit grouping in it (`3,000`, `1,000,000`) is one
/// number, never also the list `3, 000` (which `\boxed{0, 3}` would match). A comma
/// followed by a space still separates a gold list.
fn grouped_gold(gold: &str, answer: Answer) -> Answer {
    match answer.expr {
        Expr::Readings(mut readings) if !gold.contains(", ") && !readings.is_empty() => Answer {
            expr: readings.swap_remove(0),
            ..answer
        },
        expr => Answer { expr, ..answer },
    }
}

/// [`verify`], also rejecting a response that merely repeats the prompt (an echo can
/// contain the right number by accident).
pub fn verify_with_prompt(gold: &str, prediction: &str, prompt: &str, cfg: &MathConfig) -> Verdict {
    if let Some(echo) = echoed(gold, prediction, prompt, cfg) {
        return echo;
    }
    verify(gold, prediction, cfg)
}

/// [`verify_with_prompt`] for text whose reasoning is already removed (see
/// [`verify_visible`]).
pub fn verify_visible_with_prompt(
    gold: &str,
    visible: &str,
    prompt: &str,
    cfg: &MathConfig,
) -> Verdict {
    if let Some(echo) = echoed(gold, visible, prompt, cfg) {
        return echo;
    }
    verify_visible(gold, visible, cfg)
}

/// The verdict on a response that merely repeats the prompt; `None` for any other.
fn echoed(gold: &str, prediction: &str, prompt: &str, cfg: &MathConfig) -> Option<Verdict> {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (p, q) = (squash(prediction), squash(prompt));
    let echo = !q.is_empty() && (p == q || (p.len() >= q.len() / 2 && q.contains(&p)));
    echo.then(|| Verdict {
        equivalent: false,
        gold_parsed: extract_answer(gold, cfg.gold_targets)
            .ok()
            .map(|a| a.expr.to_string()),
        prediction_parsed: None,
        reason: format!("prediction: {}", AnswerError::EchoedPrompt),
    })
}

#[cfg(test)]
mod tests;
