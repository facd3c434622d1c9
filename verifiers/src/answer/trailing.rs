//! Whether a final-answer statement states another answer than the graded one: the
//! conflict test of the one-answer rule ([`super::position`]) for a statement beside a
//! box (`\boxed{42}` and `Final answer: 17`).
//!
//! A statement states another answer when, after its label, it holds no prose word (a
//! closed list of English function words and remark words: `the`, `is`, `check`, …) and
//! at least one token of the answer's kind that does not restate the answer. A token of
//! the answer's kind is a number when the answer has digits, and any word or number that
//! is not prose when it has none. The same tokens, the same number, or an equation one of
//! whose sides is the answer restate it; readers that know what a value is pass their own
//! test of "the same" (the math reader compares values). A statement in prose (`the
//! answer is the number of apples, 17`) states no bare answer and is not a conflict.
//!
//! Prose words can be answers too (`yes`/`no`, or an env whose tokens are `a`, `as`,
//! `be`): a statement short enough to be an answer of the answer's own shape is read as
//! one whatever its words. Once the answer's words and alternative words (`or`) are set
//! aside, a statement that keeps one word, or no more words than the answer has when
//! the answer itself holds prose words, states those words as its answer, unless they
//! are all remarks (`verified`, `done`).

use std::collections::HashSet;

/// Words that join alternatives: never a candidate themselves.
const ALTERNATIVE_WORDS: &[&str] = &[
    "or",
    "maybe",
    "perhaps",
    "possibly",
    "alternatively",
    "otherwise",
];

/// Remarks a model writes as a whole statement (`Final answer: verified`): never a
/// candidate, even where a statement is as short as an answer.
const REMARK_WORDS: &[&str] = &[
    "check",
    "checks",
    "checked",
    "verify",
    "verified",
    "verifies",
    "verification",
    "correct",
    "holds",
    "satisfies",
    "satisfied",
    "works",
    "confirm",
    "confirmed",
    "confirms",
    "done",
    "qed",
    "indeed",
    "above",
    "boxed",
    "shown",
    "optimal",
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
    /// Whether `text` offers a candidate of the answer's kind that is not the answer.
    /// A `bare` candidate must also hold no prose word.
    fn offers(&self, text: &str, bare: bool) -> bool {
        let words: Vec<&str> = tokens(text).collect();
        if words.iter().any(|w| is_one_of(w, RESTATING_WORDS)) {
            return false;
        }
        let prose = |w: &&str| is_prose(w) && !self.answer_words.contains(&normal_token(w));
        let short = match (bare, self.kind) {
            (true, Kind::Any) => self.short_statement_offers(&words),
            _ => None,
        };
        match short {
            Some(false) => return false,
            Some(true) => {}
            None => {
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
            }
        }
        // A restatement, or an equation one of whose sides is the answer.
        let sides: Vec<&str> = text.split(['=', '≈']).collect();
        !sides.iter().any(|side| (self.same)(strip_decoration(side)))
    }

    /// For a statement as short as an answer, whether it offers another one (`None`
    /// for a longer statement, which the prose test reads). Its words, without the
    /// answer's and the alternative words, are candidates whatever they are, unless all
    /// are remarks: a one-word statement is never a sentence, and when the answer is
    /// made of prose words a statement no longer than it is an answer of its shape.
    fn short_statement_offers(&self, words: &[&str]) -> Option<bool> {
        let rest: Vec<&&str> = words
            .iter()
            .filter(|w| !self.answer_words.contains(&normal_token(w)))
            .filter(|w| !is_one_of(w, ALTERNATIVE_WORDS))
            .collect();
        let answer_is_prose = self.answer_words.iter().any(|w| is_prose(w));
        let short = rest.len() == 1 || (answer_is_prose && rest.len() <= self.answer_words.len());
        if rest.is_empty() || !short {
            return None;
        }
        Some(!rest.iter().all(|w| is_one_of(w, REMARK_WORDS)))
    }
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
