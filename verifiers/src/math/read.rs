//! Reading an answer out of text: parsing one candidate (with both readings of a
//! digit-group comma, and numbers inside `\text{}`), choosing the final answer among a
//! response's candidates, and the anti-hedging rules around it.

use super::ast::Expr;
use super::extract::{self, Candidate, Located, Source};
use super::lex::{self, Mode};
use super::units::is_unit_word;
use super::{Answer, MAX_CANDIDATE_CHARS, MathConfig, ParseError, Targets};
use super::{compare, normalize, parse};
use crate::answer::AnswerError;

/// Parses one candidate. Outside brackets, a comma followed by exactly three digits is
/// read both as a thousands separator and as a list separator (`12,345` is 12345 or the
/// list 12, 345): when both readings parse and differ, the answer is
/// [`Expr::Readings`]. A lone `\text{…}` holding a number is that number.
pub(super) fn parse_candidate(
    text: &str,
    latex: bool,
    decimal_comma: bool,
) -> Result<Expr, ParseError> {
    if text.len() > MAX_CANDIDATE_CHARS {
        return Err(ParseError::TooLong(text.len()));
    }
    let (norm, mode) = if latex {
        (normalize::normalize_latex(text, decimal_comma), Mode::Latex)
    } else {
        (normalize::normalize_plain(text, decimal_comma), Mode::Plain)
    };
    let parse = |toks| {
        parse::Parser::new(toks, mode)
            .parse_answer()
            .map(|e| text_value(e, decimal_comma))
    };
    let separated = lex::lex(&norm, mode, false);
    let grouped = norm
        .contains(',')
        .then(|| lex::lex(&norm, mode, true).ok())
        .flatten();
    match grouped {
        Some(g) if separated.as_ref().ok() != Some(&g) => {
            match (parse(g), separated.and_then(parse)) {
                (Ok(g), Ok(l)) if g != l => Ok(Expr::Readings(vec![g, l])),
                (Ok(g), _) => Ok(g),
                (Err(_), l) => l,
            }
        }
        _ => separated.and_then(parse),
    }
}

/// `\text{13}` is the number 13, `\text{5 apples}` the number 5 (unit words after a
/// value are dropped, as after `5\text{ apples}`). Text that holds a number but reads as
/// no value (`5 apples and 3 pears`) stays text, which equals only the same text.
fn text_value(e: Expr, decimal_comma: bool) -> Expr {
    let Expr::Text(t) = &e else { return e };
    // Plain text only (no commands, so no recursion into nested `\text{}`).
    if !t.chars().any(|c| c.is_ascii_digit()) || t.contains('\\') || t.len() > 200 {
        return e;
    }
    let mut words: Vec<&str> = t.split_whitespace().collect();
    while words.len() > 1 && words.last().is_some_and(|w| is_unit_word(w)) {
        words.pop();
    }
    match parse_candidate(&words.join(" "), false, decimal_comma) {
        Ok(v) if !matches!(v, Expr::Text(_)) => v,
        _ => e,
    }
}

/// The first candidate of a prepared response that parses, best first.
pub(super) fn first_parsed(
    prepared: &str,
    targets: Targets,
    decimal_comma: bool,
) -> Result<Answer, AnswerError> {
    first_parsed_located(prepared, &Located::new(prepared), targets, decimal_comma)
}

/// [`first_parsed`] where the answer positions are already located.
fn first_parsed_located(
    prepared: &str,
    located: &Located,
    targets: Targets,
    decimal_comma: bool,
) -> Result<Answer, AnswerError> {
    for cand in extract::candidates(prepared, located, targets.latex, targets.expr) {
        if cand.source == Source::Boxed && cand.text.trim().is_empty() {
            return Err(AnswerError::EmptyBox);
        }
        match parse_candidate(&cand.text, cand.latex, decimal_comma) {
            Ok(expr) => {
                return Ok(Answer {
                    expr,
                    text: cand.text,
                    source: cand.source,
                });
            }
            Err(e) if cand.source == Source::Boxed => {
                return Err(AnswerError::UnparseableBox(e.to_string()));
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
                // A row of numbers that is not one expression (`3 5`, `4 4/9 2`) offers
                // several candidates where one is asked: no answer, and no number is
                // taken out of it.
                return Err(AnswerError::NoAnswer);
            }
            Err(_) => {}
        }
    }
    Err(AnswerError::NoAnswer)
}

/// Only digits, spaces, fraction bars, decimal points, commas, signs and percent signs,
/// with at least two numbers.
fn is_number_row(t: &str) -> bool {
    t.chars()
        .all(|c| c.is_ascii_digit() || " /.,%-$€£".contains(c) || c == '\t')
        && t.split([' ', '\t'])
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .count()
            >= 2
}

fn is_short_words(t: &str) -> bool {
    let t = t.trim().trim_end_matches(['.', '!']);
    !t.is_empty()
        && t.len() <= 40
        && t.starts_with(|c: char| c.is_alphabetic())
        && t.chars().all(|c| c.is_alphabetic() || " '-".contains(c))
}

/// The predicted answer with the one-answer rule (see [`super::extract_prediction`]).
pub(super) fn extract_prediction(
    prediction: &str,
    cfg: &MathConfig,
) -> Result<Answer, AnswerError> {
    extract_prepared(&normalize::prepare_response(prediction)?, cfg)
}

/// [`extract_prediction`] of a prepared response.
pub(super) fn extract_prepared(prepared: &str, cfg: &MathConfig) -> Result<Answer, AnswerError> {
    let located = Located::new(prepared);
    if cfg.require_boxed && located.boxes.is_empty() {
        return Err(AnswerError::BoxRequired);
    }
    let mut answer = first_parsed_located(prepared, &located, cfg.pred_targets, cfg.decimal_comma)?;
    if answer.source != Source::Boxed {
        answer = widen_alternatives(prepared, &located, answer, cfg);
    }
    let cmp = compare::Comparer::new(cfg);
    let hedge = |other: &str| AnswerError::Hedged(other.to_string(), answer.text.clone());
    if cfg.pred_targets.latex && answer.source == Source::Boxed {
        let groups = &located.groups;
        if groups.len() > 16 {
            return Err(hedge(&groups[0].2));
        }
        for (_, _, content) in &groups[..groups.len().saturating_sub(1)] {
            let agrees = parse_candidate(content, true, cfg.decimal_comma)
                .is_ok_and(|e| cmp.equiv(&answer.expr, &e));
            if !agrees {
                return Err(hedge(content));
            }
        }
    }
    // Every final-answer statement is in answer position too: one that states another
    // value (before or after the box) makes the reply ambiguous. A statement that reads
    // as no value is prose, and prose is not graded.
    let statements = &located.statements;
    let graded_statement = match answer.source {
        Source::AnswerPhrase => statements.len().checked_sub(1),
        _ => None,
    };
    for (i, statement) in statements.iter().enumerate() {
        if Some(i) == graded_statement {
            continue;
        }
        // The raw span: math delimiters tell the reader what is LaTeX.
        let text = statement.math_text(prepared);
        if let Ok(stated) = first_parsed(text, cfg.pred_targets, cfg.decimal_comma)
            && (matches!(answer.expr, Expr::Text(_)) || !matches!(stated.expr, Expr::Text(_)))
            && !cmp.equiv(&answer.expr, &stated.expr)
        {
            return Err(hedge(text));
        }
    }
    Ok(answer)
}

/// "The answer is 3 or 4": when the sentence holding an unboxed answer offers
/// alternatives, the answer is the list of every distinct value in it, which can only
/// match a gold list.
fn widen_alternatives(
    prepared: &str,
    located: &Located,
    answer: Answer,
    cfg: &MathConfig,
) -> Answer {
    if matches!(answer.expr, Expr::Union(_)) {
        // `x < 1` or `x > 2`: the "or" is part of the answer (a union), not a hedge.
        return answer;
    }
    let window = extract::hedge_window(prepared, located, answer.source);
    if !extract::offers_alternatives(window) {
        return answer;
    }
    let cmp = compare::Comparer::new(cfg);
    let mut distinct: Vec<Expr> = Vec::new();
    let targets = cfg.pred_targets;
    let parse = |c: &Candidate| parse_candidate(&c.text, c.latex, cfg.decimal_comma);
    let parses = |c: &Candidate| parse(c).is_ok();
    for cand in extract::alternative_chain(window, targets.latex, targets.expr, parses) {
        let Ok(e) = parse(&cand) else {
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
