//! Reading an answer out of text: parsing one candidate (with both readings of a
//! digit-group comma, and numbers inside `\text{}`), choosing the final answer among a
//! response's candidates, and the anti-hedging rules around it.

use super::ast::Expr;
use super::extract::{self, Candidate, Source};
use super::lex::{self, Mode};
use super::units::is_unit_word;
use super::{Answer, MAX_CANDIDATE_CHARS, MathConfig, ParseError, Targets};
use super::{compare, normalize, parse};
use crate::answer::{AnswerError, same_tokens, trailing_candidate};

/// Text around a boxed answer searched for alternatives, each side.
const MAX_HEDGE_CONTEXT: usize = 300;

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
    for cand in extract::candidates(prepared, targets.latex, targets.expr) {
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

/// The predicted answer with the anti-hedging rules (see [`super::extract_prediction`]).
pub(super) fn extract_prediction(
    prediction: &str,
    cfg: &MathConfig,
) -> Result<Answer, AnswerError> {
    let prepared = normalize::prepare_response(prediction)?;
    let boxes = extract::find_boxes(&prepared);
    if cfg.require_boxed && boxes.is_empty() {
        return Err(AnswerError::BoxRequired);
    }
    let mut answer = first_parsed(&prepared, cfg.pred_targets, cfg.decimal_comma)?;
    if answer.source != Source::Boxed {
        answer = widen_alternatives(&prepared, answer, cfg);
    }
    if cfg.pred_targets.latex && answer.source == Source::Boxed {
        let groups = extract::box_groups(&prepared, &boxes);
        let hedge = |other: &str| AnswerError::Hedged(other.to_string(), answer.text.clone());
        if groups.len() > 16 {
            return Err(hedge(&groups[0].2));
        }
        let cmp = compare::Comparer::new(cfg);
        for (_, _, content) in &groups[..groups.len().saturating_sub(1)] {
            let agrees = parse_candidate(content, true, cfg.decimal_comma)
                .is_ok_and(|e| cmp.equiv(&answer.expr, &e));
            if !agrees {
                return Err(hedge(content));
            }
        }
        if let Some((start, end, content)) = groups.last()
            && (offers_alternative_to_box(&prepared, (*start, *end, content), &answer.expr, cfg)
                || offers_candidate_after_box(&prepared[*end..], &answer, cfg))
        {
            return Err(AnswerError::AlternativeOffered(answer.text.clone()));
        }
    }
    Ok(answer)
}

/// "It is 4 or \boxed{5}", "\boxed{5} or 43", "\boxed{5} (or maybe 43)": a different
/// value linked to the box by words that offer an alternative, in the box's sentence.
fn offers_alternative_to_box(
    prepared: &str,
    (start, end, content): (usize, usize, &str),
    answer: &Expr,
    cfg: &MathConfig,
) -> bool {
    let before = unwrap_word_text(sentence_start(&prepared[..start]));
    let after = unwrap_word_text(sentence_end(&prepared[end..]));
    let (before, after) = (before.as_str(), after.as_str());
    let targets = cfg.pred_targets;
    let parses = |c: &Candidate| parse_candidate(&c.text, c.latex, cfg.decimal_comma).is_ok();
    let differs = |c: &Candidate| {
        parse_candidate(&c.text, c.latex, cfg.decimal_comma)
            .is_ok_and(|e| !compare::Comparer::new(cfg).equiv(answer, &e))
    };
    if extract::offers_alternatives(after)
        && let Some(c) = extract::alternative_after(after, targets.latex, targets.expr, parses)
        && differs(&c)
    {
        return true;
    }
    if !extract::offers_alternatives(before) {
        return false;
    }
    // The chain that ends at the box, with its content standing in as a LaTeX span.
    let window = format!("{before} ${content}$");
    let chain = extract::alternative_chain(&window, targets.latex, targets.expr, parses);
    chain.iter().any(differs)
}

/// The shared rule for text after the final box ([`crate::answer::trailing_candidate`]),
/// with values compared as values: `\boxed{1/2}` then `0.5` restates, `17` offers another.
fn offers_candidate_after_box(tail: &str, answer: &Answer, cfg: &MathConfig) -> bool {
    let cmp = compare::Comparer::new(cfg);
    let same = |t: &str| {
        [true, false].into_iter().any(|latex| {
            parse_candidate(t, latex, cfg.decimal_comma).is_ok_and(|e| cmp.equiv(&answer.expr, &e))
        }) || same_tokens(t, &answer.text)
    };
    trailing_candidate(tail, &answer.text, &same).is_some()
}

/// `\text{ or }` → ` or `: text commands holding only words, so that the words between
/// values are seen as words.
fn unwrap_word_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\\text{") {
        let body = &rest[i + 6..];
        match body.find('}') {
            Some(j)
                if body[..j]
                    .chars()
                    .all(|c| c.is_alphabetic() || " ,.()".contains(c)) =>
            {
                out.push_str(&rest[..i]);
                out.push(' ');
                out.push_str(&body[..j]);
                out.push(' ');
                rest = &body[j + 1..];
            }
            _ => {
                out.push_str(&rest[..i + 6]);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The start of the sentence that `head` ends in, at most [`MAX_HEDGE_CONTEXT`] bytes.
fn sentence_start(head: &str) -> &str {
    let mut from = head.len().saturating_sub(MAX_HEDGE_CONTEXT);
    while !head.is_char_boundary(from) {
        from += 1;
    }
    let head = &head[from..];
    let cut = head
        .char_indices()
        .rev()
        .filter(|&(i, c)| c == '\n' || (c == '.' && head[i + 1..].starts_with(char::is_whitespace)))
        .map(|(i, c)| i + c.len_utf8())
        .next()
        .unwrap_or(0);
    &head[cut..]
}

/// The rest of the sentence that `tail` starts in, at most [`MAX_HEDGE_CONTEXT`] bytes,
/// and the next sentence too when it opens with an alternative ("\boxed{5}. Or maybe
/// 43.").
fn sentence_end(tail: &str) -> &str {
    let mut to = tail.len().min(MAX_HEDGE_CONTEXT);
    while !tail.is_char_boundary(to) {
        to -= 1;
    }
    let tail = &tail[..to];
    let end_from = |from: usize| {
        tail[from..]
            .char_indices()
            .find(|&(i, c)| {
                c == '\n' || (c == '.' && tail[from + i + 1..].starts_with(char::is_whitespace))
            })
            .map_or(tail.len(), |(i, _)| from + i)
    };
    let first = end_from(0);
    let next = tail[first..].trim_start_matches(|c: char| c == '.' || c.is_whitespace());
    let opens_alternative = ["or ", "maybe", "perhaps", "possibly", "alternatively"]
        .iter()
        .any(|w| {
            next.get(..w.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(w))
        });
    if opens_alternative {
        return &tail[..end_from(tail.len() - next.len())];
    }
    &tail[..first]
}

/// "The answer is 3 or 4": when the sentence holding an unboxed answer offers
/// alternatives, the answer is the list of every distinct value in it, which can only
/// match a gold list.
fn widen_alternatives(prepared: &str, answer: Answer, cfg: &MathConfig) -> Answer {
    if matches!(answer.expr, Expr::Union(_)) {
        // `x < 1` or `x > 2`: the "or" is part of the answer (a union), not a hedge.
        return answer;
    }
    let window = extract::hedge_window(prepared, answer.source);
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
