//! What may follow the final box: comments on the answer, never a second candidate.
//!
//! The last box is the answer, but a response that goes on to offer another one
//! (`\boxed{42} or 17`, `\boxed{42}\n17`, `\boxed{42}. Alternatively, \(17\)`) hedges: a
//! reader that took the last number, or a person, would read another answer. The text
//! after the last box is read line by line (the rest of the box's own line first), and a
//! line offers a candidate when
//! 1. **it joins one by an alternative word**: `or`, `maybe`, `perhaps`, `possibly`,
//!    `alternatively`, `otherwise`, on the box's own line or on a line that opens with
//!    one, followed by text of the answer's kind (see below) that is not a restatement
//!    (`or equivalently …` restates);
//! 2. **or it is a bare answer**: after an optional label (`Answer:`, `so the answer is`),
//!    it holds no prose word (a closed list of English function words and remark words:
//!    `the`, `is`, `in`, `check`, `steps`, …) and at least one token of the answer's kind.
//!
//! A token of the answer's kind is a number when the boxed answer has digits (so a unit
//! or a remark in words after a numeric answer is never a candidate: `\boxed{42} cm`),
//! and any word or number that is not a prose word when it has none (`\boxed{BAKO}
//! DIMU`; `\boxed{B} 12`, where a choice's content is a number). A
//! candidate that restates the answer is not a hedge: the same tokens, the same number,
//! or an equation one of whose sides is the answer (`6 × 7 = 42` after `\boxed{42}` is a
//! verification). Readers that know what a value is pass their own test of "the same"
//! (the math reader compares values).
//!
//! So honest prose passes, numbers in it included (`This took 2 steps.`, `check: 6 × 7 =
//! 42`, `so the answer is 42.`), and a number standing alone, or joined by an alternative
//! word, does not. A sentence with prose that mentions another value as an aside (`17 was
//! my first guess`) is read as prose: it does not offer that value as the answer. The
//! scan is one pass over the text after the box.

use std::collections::HashSet;

/// Words that offer another candidate.
const ALTERNATIVE_WORDS: &[&str] = &[
    "or",
    "maybe",
    "perhaps",
    "possibly",
    "alternatively",
    "otherwise",
];

/// Words after an alternative word that mark a restatement, not a new candidate.
const RESTATING_WORDS: &[&str] = &["equivalently", "i.e", "ie", "namely"];

/// Words that make a line prose: function words, and the words of remarks models write
/// after an answer. Matched ignoring ASCII case (a single letter only in lower case, so
/// that an option letter `A` is still a candidate).
const PROSE_WORDS: &str = "\
    a an the is are was were be been being am this that these those it its it's we \
    our us i my me you your he she they them their of to in on at by for with from \
    into as so and but not no nor all each every which who since because then thus \
    hence therefore here there has have had can could would should will shall may \
    might must do does did if than also just only both any some such what how why \
    when where while after before above below about approximately exactly roughly \
    check checks checked verify verified verifies verification correct holds \
    satisfies satisfied works confirm confirmed confirms gives total step steps \
    move moves solution result final done qed units unit note indeed mod \
    pmod bmod modulo";

/// Labels after which a line's text is read as an answer.
const ANSWER_LABELS: &[&str] = &["answer is", "answer:", "answer =", "answer would be"];

/// The first candidate that the text after the last box (`tail`) offers besides the
/// boxed `answer`, or `None` when it only comments on the answer. `same` says whether a
/// piece of text restates the answer; [`same_tokens`] is the plain test.
pub fn trailing_candidate(tail: &str, answer: &str, same: &dyn Fn(&str) -> bool) -> Option<String> {
    let answer_words: HashSet<String> = tokens(answer).map(normal_token).collect();
    Reader {
        kind: Kind::of(answer),
        answer_words: &answer_words,
        same,
    }
    .first_candidate(tail)
}

/// Whether a final-answer statement's text (`Final answer: 17` beside `\boxed{42}`)
/// states an answer other than `answer`: a bare candidate of the answer's kind (no
/// prose word) that does not restate it. `same` is the reader's own test of "the same
/// value".
pub fn states_other(statement: &str, answer: &str, same: &dyn Fn(&str) -> bool) -> bool {
    if same(statement) || same_tokens(statement, answer) {
        return false;
    }
    let answer_words: HashSet<String> = tokens(answer).map(normal_token).collect();
    Reader {
        kind: Kind::of(answer),
        answer_words: &answer_words,
        same,
    }
    .offers(statement, true)
}

/// The first candidate that the text after an action (a tool call, a command) offers:
/// the rule of [`trailing_candidate`], where an action has no kind of value, so any word
/// or number in a line without prose, or after an alternative word, is a second
/// candidate (`<tool_call>…</tool_call> ls invoices`, `… or 17`). Prose after the
/// action passes.
pub fn candidate_after_action(tail: &str) -> Option<String> {
    Reader {
        kind: Kind::Any,
        answer_words: &HashSet::new(),
        same: &|_| false,
    }
    .first_candidate(tail)
}

/// Whether `text` restates `answer` token for token (case and presentation aside), or
/// both are the same number.
pub fn same_tokens(text: &str, answer: &str) -> bool {
    let a: Vec<String> = tokens(text).map(normal_token).collect();
    let b: Vec<String> = tokens(answer).map(normal_token).collect();
    if a == b && !a.is_empty() {
        return true;
    }
    let number = |t: &[String]| match t {
        [one] => one.parse::<f64>().ok().filter(|v| v.is_finite()),
        _ => None,
    };
    matches!((number(&a), number(&b)), (Some(x), Some(y)) if x == y)
}

/// Numeric answers take numbers as candidates; other answers and actions take any
/// word or number that is not prose.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Numeric,
    Any,
}

impl Kind {
    fn of(answer: &str) -> Kind {
        if answer.chars().any(|c| c.is_ascii_digit()) {
            Kind::Numeric
        } else {
            Kind::Any
        }
    }
}

struct Reader<'a> {
    kind: Kind,
    answer_words: &'a HashSet<String>,
    same: &'a dyn Fn(&str) -> bool,
}

impl Reader<'_> {
    fn first_candidate(&self, tail: &str) -> Option<String> {
        let reader = self;
        for (i, line) in tail.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = reader.alternative(line, i == 0)
                && reader.offers(rest, false)
            {
                return Some(rest.trim().to_string());
            }
            let labelled = after_label(line);
            if reader.offers(labelled, true) {
                return Some(labelled.trim().to_string());
            }
        }
        None
    }

    /// The text after an alternative word that joins it to the answer: anywhere on the
    /// box's own line, or opening a later line.
    fn alternative<'t>(&self, line: &'t str, box_line: bool) -> Option<&'t str> {
        let mut words = word_spans(line);
        let found = if box_line {
            words.find(|&(_, w)| is_one_of(w, ALTERNATIVE_WORDS))
        } else {
            words
                .next()
                .filter(|&(_, w)| is_one_of(w, ALTERNATIVE_WORDS))
        };
        found.map(|(end, _)| &line[end..])
    }

    /// Whether `text` offers a candidate of the answer's kind that is not the answer.
    /// A `bare` candidate must also hold no prose word.
    fn offers(&self, text: &str, bare: bool) -> bool {
        let words: Vec<&str> = tokens(text).collect();
        if words.iter().any(|w| is_one_of(w, RESTATING_WORDS)) {
            return false;
        }
        let prose = |w: &&str| is_prose(w) && !self.answer_words.contains(&normal_token(w));
        if bare && words.iter().any(prose) {
            return false;
        }
        let of_kind = |w: &&str| match self.kind {
            Kind::Numeric => w.chars().any(|c| c.is_ascii_digit()),
            Kind::Any => !prose(w) && !is_one_of(w, ALTERNATIVE_WORDS),
        };
        if !words.iter().any(of_kind) {
            return false;
        }
        // A restatement, or an equation one of whose sides is the answer.
        let sides: Vec<&str> = text.split(['=', '≈']).collect();
        !sides.iter().any(|side| (self.same)(strip_decoration(side)))
    }
}

/// Each word of a line with the byte offset just after it.
fn word_spans(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split_inclusive(|c: char| !is_token_char(c))
        .scan(0, |at, piece| {
            *at += piece.len();
            Some((*at, piece))
        })
        .map(|(end, piece)| {
            let word = piece.trim_end_matches(|c: char| !is_token_char(c));
            (end - (piece.len() - word.len()), word)
        })
        .filter(|(_, w)| !w.is_empty())
}

fn is_token_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '-' | '−' | '\'' | '/' | '^')
}

/// The words and numbers of a text, without its format: `\(6 \times 7\)` is `6 times
/// 7`; a sentence's final period and LaTeX commands' backslashes go, and so do
/// exponents and subscripts standing apart (`\text{cm}^2`, `x_{1}`), which qualify
/// what comes before them.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_token_char(c) && c != '_')
        .filter(|t| !t.starts_with(['^', '_']))
        .map(|t| {
            t.trim_matches(['.', '\'', '/', '^', '_'])
                .trim_end_matches(['-', '−'])
        })
        .map(|t| {
            // A sign stays on a number (`-17`), an arrow's tail goes (`-A`).
            let unsigned = t.trim_start_matches(['-', '−']);
            match unsigned.starts_with(|c: char| c.is_ascii_digit()) {
                true => t,
                false => unsigned,
            }
        })
        .map(|t| t.strip_suffix("'s").unwrap_or(t))
        .filter(|t| !t.is_empty())
}

/// Case aside, and a minus sign written `−` is `-`.
fn normal_token(t: &str) -> String {
    t.to_lowercase().replace('−', "-")
}

fn is_one_of(w: &str, list: &[&str]) -> bool {
    let w = w.trim_end_matches('.');
    list.iter().any(|l| w.eq_ignore_ascii_case(l))
}

fn is_prose(w: &str) -> bool {
    let w = w.trim_end_matches('.');
    if w.chars().count() == 1 {
        return w == "a";
    }
    PROSE_WORDS
        .split_whitespace()
        .any(|p| w.eq_ignore_ascii_case(p))
}

/// The text after the last answer label of a line, else the whole line.
fn after_label(line: &str) -> &str {
    let lower = line.to_ascii_lowercase();
    ANSWER_LABELS
        .iter()
        .filter_map(|label| lower.rfind(label).map(|i| i + label.len()))
        .max()
        .map_or(line, |end| &line[end..])
}

/// A side of an equation or a candidate without math delimiters, markdown and end
/// punctuation around it.
fn strip_decoration(text: &str) -> &str {
    let mut t = text.trim();
    loop {
        let before = t.len();
        for (open, close) in [
            ("$", "$"),
            ("\\(", "\\)"),
            ("\\[", "\\]"),
            ("**", "**"),
            ("(", ")"),
        ] {
            t = t.strip_prefix(open).unwrap_or(t).trim();
            t = t.strip_suffix(close).unwrap_or(t).trim();
        }
        t = t.strip_prefix("- ").unwrap_or(t);
        t = t
            .trim_start_matches(['#', '>', ':'])
            .trim_end_matches(['.', '!', ',', ';', ':', '✓', '✔'])
            .trim();
        if t.len() == before {
            return t;
        }
    }
}
