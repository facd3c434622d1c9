//! Math answer equivalence: is a model's final answer the same as the reference answer?
//!
//! This is a reward function for RL, so it is built to be strict where a lenient grader
//! would be exploitable: a hedged answer ("3 or 4", a box per candidate, "between 3 and
//! 4") is a list and never equals a single gold value; an empty box is no answer; text
//! around a wrong answer never helps, and numbers are never fished out of LaTeX that
//! failed to parse (delimited or not).
//!
//! # Pipeline
//!
//! 1. **Extraction** ([`extract_answer`]): strip `<think>…</think>` and chat markers, then
//!    take the last `\boxed{}` group (adjacent boxes form a list) — unless a "final answer
//!    is"/"answer:" sentence comes after it — else the text after the last such phrase,
//!    else the latest LaTeX span, undelimited LaTeX stretch or plain-text expression that
//!    parses. Several different boxes are a hedge; so is a row of bare numbers.
//! 2. **Normalisation**: `\left`/`\right`, spacing, `\dfrac`, thousands separators
//!    (`1,000`, `1 000`, `{,}`, `,\!`), decimal commas where unambiguous, `\%` and percent
//!    words, degrees, `\text{}`/`\mathrm{}` units and bare unit words, currency, trailing
//!    punctuation, mixed numbers (`4 4/9`, `2\frac{1}{3}`), escape damage (`\\frac`, a
//!    form feed for `\f`).
//! 3. **Parsing** ([`parse_expr`], [`parse_plain_expr`]): an own recursive-descent parser
//!    to an [`Expr`]; unknown commands fail. Input length (2,000 characters), nesting (50),
//!    exponents (20,000), factorials (3,000) and total work are capped; long sums fold
//!    into balanced trees, so small thread stacks suffice.
//! 4. **Comparison** ([`equivalent`]): exact over big rationals whenever possible
//!    (`1/2004!` ≠ `1/2006!`); expressions with variables at seeded random rational points
//!    (Schwartz–Zippel; the seed is derived from the two expressions, so verdicts are
//!    deterministic but the points cannot be targeted); radicals, trig, logs, `e` and `π`
//!    with ~60-digit rational arithmetic and tracked error bounds — "equal" needs the
//!    bounds below 1e-40 relative, anything undecidable is "not equivalent". Exact trig
//!    values at rational multiples of π; `i` as the imaginary unit when it evaluates; a
//!    decimal literal on either side compares after rounding to
//!    [`MathConfig::float_rounding`] places.
//!
//! # Gold-driven rules
//!
//! * **Assignments.** `x = 3` against a bare `3` (either side) compares the value when the
//!   left side *names* something (a variable, `f(x)`, `|AB|`, `A:B`, `(p, q)`); `2x+z = 1`
//!   names nothing and stays an equation. Chains `x = 5+5+1 = 11` state `x = 11`, and a
//!   true constant equation `3/4 = 0.75` states its value.
//! * **Equations** are equal when one side-difference is a non-zero constant multiple of
//!   the other; inequalities need a positive multiple and the same strictness (`>` is
//!   flipped to `<`). `a < x < b` against a bare interval is that interval; a predicted
//!   `x \in S` compares as a set; a gold `x \in S` against an inequality only with
//!   [`MathConfig::allow_set_relation_comp`].
//! * **Percent.** A gold `28\%` accepts `28`, `0.28` and `28%`; a predicted plain-text
//!   `28%` means `0.28`; a predicted LaTeX `28\%` may also stand for `28`.
//! * **Lists.** Bare lists and sets compare as sets, tuples in order; a bare list against
//!   a tuple compares in order; `(a, b)` against an interval is the open interval.
//! * **Text.** `\text{Evelyn}` equals `Evelyn` (letters, ignoring case and punctuation);
//!   `\text{13}` is not the number 13. Multiple-choice letters: [`extract_choice`].
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
mod scan;
mod shape;
mod value;

pub use ast::{Constant, Expr, Func, RelOp};
pub use choice::{extract_choice, verify_choice};
pub use extract::Source;

use lex::Mode;
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

/// Why no answer could be taken from a response.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ExtractError {
    #[error("no answer found")]
    NoAnswer,
    #[error("empty \\boxed{{}}")]
    EmptyBox,
    #[error("boxed answer does not parse: {0}")]
    UnparseableBox(ParseError),
    #[error("no \\boxed{{}} answer, and one is required")]
    BoxRequired,
    #[error("several different boxed answers")]
    Hedged,
    #[error("the response only repeats the prompt")]
    EchoedPrompt,
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
    /// Decimal places kept when either answer is a decimal literal.
    pub float_rounding: u32,
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
    /// (lists of `"latex"`, `"expr"`), `float_rounding`, `strict`,
    /// `allow_set_relation_comp`, `require_boxed`. Missing keys keep their
    /// defaults; unknown keys are ignored (the data carries Math-Verify-only
    /// settings).
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
            cfg.float_rounding = r.min(u64::from(u32::MAX)) as u32;
        }
        let flag = |key: &str| value.get(key).and_then(|v| v.as_bool());
        cfg.strict = flag("strict").unwrap_or(cfg.strict);
        cfg.allow_set_relation_comp =
            flag("allow_set_relation_comp").unwrap_or(cfg.allow_set_relation_comp);
        cfg.require_boxed = flag("require_boxed").unwrap_or(cfg.require_boxed);
        cfg
    }
}

impl Default for MathConfig {
    fn default() -> Self {
        MathConfig {
            gold_targets: Targets::default(),
            pred_targets: Targets::default(),
            float_rounding: 6,
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
    parse_candidate(text, true)
}

/// Parses one plain-text answer such as `4 4/9` or `28%`.
pub fn parse_plain_expr(text: &str) -> Result<Expr, ParseError> {
    parse_candidate(text, false)
}

fn parse_candidate(text: &str, latex: bool) -> Result<Expr, ParseError> {
    if text.len() > MAX_CANDIDATE_CHARS {
        return Err(ParseError::TooLong(text.len()));
    }
    let (norm, mode) = if latex {
        (normalize::normalize_latex(text), Mode::Latex)
    } else {
        (normalize::normalize_plain(text), Mode::Plain)
    };
    let toks = lex::lex(&norm, mode)?;
    parse::Parser::new(toks, mode).parse_answer()
}

/// Extracts and parses the final answer of a response.
pub fn extract_answer(response: &str, targets: Targets) -> Result<Answer, ExtractError> {
    let prepared = normalize::prepare_response(response);
    first_parsed(&prepared, targets)
}

fn first_parsed(prepared: &str, targets: Targets) -> Result<Answer, ExtractError> {
    for cand in extract::candidates(prepared, targets.latex, targets.expr) {
        if cand.source == Source::Boxed && cand.text.trim().is_empty() {
            return Err(ExtractError::EmptyBox);
        }
        match parse_candidate(&cand.text, cand.latex) {
            Ok(expr) => {
                return Ok(Answer {
                    expr,
                    text: cand.text,
                    source: cand.source,
                });
            }
            Err(e) if cand.source == Source::Boxed => {
                return Err(ExtractError::UnparseableBox(e));
            }
            Err(_) if !cand.latex && is_short_words(&cand.text) => {
                // A short plain-text answer in words ("Evelyn", "Yes"): a text answer.
                let t = cand.text.trim().trim_end_matches(['.', '!']).to_string();
                return Ok(Answer {
                    expr: Expr::Text(t.clone()),
                    text: t,
                    source: cand.source,
                });
            }
            Err(_) if !cand.latex && is_number_row(&cand.text) => {
                // A row of numbers that is not one expression (`4 4/9 2`): its last number.
                match scan::last_numeric_atom(&normalize::normalize_plain(&cand.text)) {
                    Some(scan::Atom::Found(t)) => {
                        if let Ok(expr) = parse_plain_expr(&t) {
                            return Ok(Answer {
                                expr,
                                text: t,
                                source: cand.source,
                            });
                        }
                    }
                    Some(scan::Atom::Poisoned) => return Err(ExtractError::NoAnswer),
                    None => {}
                }
            }
            Err(_) => {}
        }
    }
    Err(ExtractError::NoAnswer)
}

/// Only digits, spaces, fraction bars, decimal points, commas, signs and percent signs.
fn is_number_row(t: &str) -> bool {
    t.chars()
        .all(|c| c.is_ascii_digit() || " /.,%-$€£".contains(c) || c == '\t')
}

fn is_short_words(t: &str) -> bool {
    let t = t.trim().trim_end_matches(['.', '!']);
    !t.is_empty()
        && t.len() <= 40
        && t.starts_with(|c: char| c.is_alphabetic())
        && t.chars().all(|c| c.is_alphabetic() || " '-".contains(c))
}

/// Whether two parsed answers are equivalent (gold first: some rules are gold-driven).
pub fn equivalent(gold: &Expr, pred: &Expr, cfg: &MathConfig) -> bool {
    shape::well_formed(gold)
        && shape::well_formed(pred)
        && compare::Comparer::new(cfg).equiv(gold, pred)
}

/// Extracts a predicted answer the way [`verify`] does: like [`extract_answer`] with the
/// prediction targets, plus the anti-hedging rules (every boxed group must agree with the
/// final one; alternatives offered in the answer sentence become a list) and
/// [`MathConfig::require_boxed`].
pub fn extract_prediction(prediction: &str, cfg: &MathConfig) -> Result<Answer, ExtractError> {
    let prepared = normalize::prepare_response(prediction);
    let boxes = extract::find_boxes(&prepared);
    if cfg.require_boxed && boxes.is_empty() {
        return Err(ExtractError::BoxRequired);
    }
    let mut answer = first_parsed(&prepared, cfg.pred_targets)?;
    if answer.source != Source::Boxed {
        answer = widen_alternatives(&prepared, answer, cfg);
    }
    if cfg.pred_targets.latex && answer.source == Source::Boxed {
        let groups = extract::box_groups(&prepared, &boxes);
        if groups.len() > 16 {
            return Err(ExtractError::Hedged);
        }
        let cmp = compare::Comparer::new(cfg);
        for (_, _, content) in &groups[..groups.len().saturating_sub(1)] {
            let agrees = parse_candidate(content, true).is_ok_and(|e| cmp.equiv(&answer.expr, &e));
            if !agrees {
                return Err(ExtractError::Hedged);
            }
        }
    }
    Ok(answer)
}

/// "The answer is 3 or 4": when the sentence holding an unboxed answer offers
/// alternatives, the answer is the list of every distinct value in it, which can only
/// match a gold list.
fn widen_alternatives(prepared: &str, answer: Answer, cfg: &MathConfig) -> Answer {
    let window = extract::hedge_window(prepared, answer.source);
    if !extract::offers_alternatives(window) {
        return answer;
    }
    let cmp = compare::Comparer::new(cfg);
    let mut distinct: Vec<Expr> = Vec::new();
    let targets = cfg.pred_targets;
    let parses = |c: &extract::Candidate| parse_candidate(&c.text, c.latex).is_ok();
    for cand in extract::alternative_chain(window, targets.latex, targets.expr, parses) {
        let Ok(e) = parse_candidate(&cand.text, cand.latex) else {
            continue;
        };
        let members = match e {
            Expr::List(xs) => xs,
            e => vec![e],
        };
        for e in members {
            if distinct.len() < 32 && !distinct.iter().any(|d| cmp.equiv(d, &e)) {
                distinct.push(e);
            }
        }
    }
    if distinct.len() <= 1 {
        return answer;
    }
    Answer {
        expr: Expr::List(distinct),
        ..answer
    }
}

/// Checks a predicted response against a gold answer.
pub fn verify(gold: &str, prediction: &str, cfg: &MathConfig) -> Verdict {
    // The gold answer is trusted: if the configured targets find nothing in it, try all.
    let gold_answer = extract_answer(gold, cfg.gold_targets).or_else(|e| {
        match cfg.gold_targets == Targets::default() {
            true => Err(e),
            false => extract_answer(gold, Targets::default()),
        }
    });
    let pred_answer = extract_prediction(prediction, cfg);
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

/// [`verify`], also rejecting a response that merely repeats the prompt (an echo can
/// contain the right number by accident).
pub fn verify_with_prompt(gold: &str, prediction: &str, prompt: &str, cfg: &MathConfig) -> Verdict {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let (p, q) = (squash(prediction), squash(prompt));
    if !q.is_empty() && (p == q || (p.len() >= q.len() / 2 && q.contains(&p))) {
        return Verdict {
            equivalent: false,
            gold_parsed: extract_answer(gold, cfg.gold_targets)
                .ok()
                .map(|a| a.expr.to_string()),
            prediction_parsed: None,
            reason: format!("prediction: {}", ExtractError::EchoedPrompt),
        };
    }
    verify(gold, prediction, cfg)
}

#[cfg(test)]
mod tests;
