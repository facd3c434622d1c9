//! Answers built from a task's own visible text: what a policy can copy out
//! of the prompt without acting. Evidence that can be copied from the prompt
//! without any tool call is not evidence, so none of these may pass a task
//! on its own.
//!
//! The candidates come from five sources, each in prompt order:
//! - `quote`: each quoted span (`"…"`, `“…”`, `` `…` ``);
//! - `entity`: each named thing (a token holding a digit and a letter or an
//!   inner `-`, `_`, `.`, `/`, `@`, like `SKU-4411` or `/home/a.txt`, and
//!   each capitalised word that does not open a sentence);
//! - `option`: each listed option (a line opening with `- `, `* `, `1. `,
//!   `(a) `, `[12] `), and the env's legal actions where it lists them;
//! - `number`: each number;
//! - `part`: each part of the request line (the line labelled `Request:`,
//!   `Task:`, `Question:` or `Goal:`, else the first line, without its
//!   label), split at sentence ends and at `Then:`.
//!
//! Each is tried as it is and after each verdict prefix the prompt teaches
//! (`infeasible: ` when the prompt names that verdict). The generation
//! screen of the tool and web envs redraws a task that any candidate solves
//! at once ([`PromptAnswers::all`]); the audit plays the first and the last
//! candidate of each source as fixed strategies.

use std::collections::BTreeSet;

/// Longest prompt read (bounded work on big prompts: the head holds the
/// request).
const MAX_PROMPT_CHARS: usize = 40_000;
/// Most candidates kept per source.
const MAX_PER_SOURCE: usize = 64;
/// Longest candidate kept (a whole paragraph is not an answer anyone copies).
const MAX_CANDIDATE_CHARS: usize = 400;

/// Labels that mark the request line.
const REQUEST_LABELS: &[&str] = &["Request:", "Task:", "Question:", "Goal:"];

/// Verdicts a prompt may teach, tried as prefixes when the prompt names them.
const VERDICT_PREFIXES: &[&str] = &["infeasible: "];

/// Where a candidate was copied from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    Quote,
    Entity,
    Option,
    Number,
    Part,
}

impl Source {
    pub const ALL: [Source; 5] = [
        Source::Quote,
        Source::Entity,
        Source::Option,
        Source::Number,
        Source::Part,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Source::Quote => "quote",
            Source::Entity => "entity",
            Source::Option => "option",
            Source::Number => "number",
            Source::Part => "part",
        }
    }
}

/// The candidates of one prompt, by source, and the verdict prefixes it
/// teaches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromptAnswers {
    pub quotes: Vec<String>,
    pub entities: Vec<String>,
    pub options: Vec<String>,
    pub numbers: Vec<String>,
    pub parts: Vec<String>,
    pub prefixes: Vec<&'static str>,
}

impl PromptAnswers {
    /// The candidates read from `prompt`, plus `listed` (the env's legal
    /// actions, if it lists them) as options.
    pub fn read(prompt: &str, listed: &[String]) -> Self {
        let mut end = prompt.len().min(MAX_PROMPT_CHARS);
        while !prompt.is_char_boundary(end) {
            end -= 1;
        }
        let prompt = &prompt[..end];
        let mut options = listed_options(prompt);
        options.extend(listed.iter().cloned());
        PromptAnswers {
            quotes: cap(quotes(prompt)),
            entities: cap(entities(prompt)),
            options: cap(options),
            numbers: cap(numbers(prompt)),
            parts: cap(request_parts(prompt)),
            prefixes: VERDICT_PREFIXES
                .iter()
                .copied()
                .filter(|p| {
                    let word = p.trim_end_matches([':', ' ']);
                    prompt.to_ascii_lowercase().contains(word)
                })
                .collect(),
        }
    }

    /// The candidates of one source, in prompt order.
    pub fn of(&self, source: Source) -> &[String] {
        match source {
            Source::Quote => &self.quotes,
            Source::Entity => &self.entities,
            Source::Option => &self.options,
            Source::Number => &self.numbers,
            Source::Part => &self.parts,
        }
    }

    /// Every candidate of every source, bare and after each prefix, once.
    pub fn all(&self) -> Vec<String> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for source in Source::ALL {
            for text in self.of(source) {
                for prefix in std::iter::once("").chain(self.prefixes.iter().copied()) {
                    let candidate = format!("{prefix}{text}");
                    if seen.insert(candidate.clone()) {
                        out.push(candidate);
                    }
                }
            }
        }
        out
    }
}

/// Drops empty, overlong and repeated candidates, keeping prompt order.
fn cap(items: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.chars().count() <= MAX_CANDIDATE_CHARS)
        .filter(|s| seen.insert(s.clone()))
        .take(MAX_PER_SOURCE)
        .collect()
}

/// Every span between matching quote marks on one line.
fn quotes(prompt: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prompt.lines() {
        for (open, close) in [('"', '"'), ('“', '”'), ('`', '`')] {
            let mut rest = line;
            while let Some(start) = rest.find(open) {
                let after = &rest[start + open.len_utf8()..];
                let Some(len) = after.find(close) else { break };
                out.push(after[..len].to_string());
                rest = &after[len + close.len_utf8()..];
            }
        }
    }
    out
}

/// Tokens that name things: identifiers with digits or inner punctuation,
/// and capitalised words that do not open a sentence.
fn entities(prompt: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prompt.lines() {
        let mut sentence_start = true;
        for raw in line.split_whitespace() {
            let token = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '/');
            let token = token.trim_end_matches('.');
            let inner_punct = token
                .char_indices()
                .any(|(i, c)| i > 0 && i + c.len_utf8() < token.len() && "-_./@".contains(c));
            let has_digit = token.chars().any(|c| c.is_ascii_digit());
            let has_alpha = token.chars().any(char::is_alphabetic);
            let capitalised = token.chars().next().is_some_and(char::is_uppercase)
                && token.chars().skip(1).any(char::is_lowercase);
            if has_alpha && ((has_digit || inner_punct) || (capitalised && !sentence_start)) {
                out.push(token.to_string());
            }
            sentence_start = raw.ends_with(['.', '?', '!', ':']);
        }
    }
    out
}

/// Lines that list options: `- x`, `* x`, `1. x`, `(a) x`, `[12] x`.
fn listed_options(prompt: &str) -> Vec<String> {
    prompt
        .lines()
        .filter_map(|line| {
            let t = line.trim_start_matches(['|', ' ']);
            if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
                return Some(rest.to_string());
            }
            let (head, rest) = t.split_once(' ')?;
            let numbered = head.ends_with(['.', ')'])
                && head[..head.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric())
                && head.len() <= 4;
            let bracketed =
                head.starts_with(['[', '(']) && head.ends_with([']', ')']) && head.len() <= 6;
            (numbered || bracketed).then(|| rest.to_string())
        })
        .collect()
}

/// Every number (integers and decimals, with a leading minus).
fn numbers(prompt: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = prompt.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let minus =
                i > 0 && bytes[i - 1] == b'-' && (i < 2 || !bytes[i - 2].is_ascii_alphanumeric());
            let start = if minus { i - 1 } else { i };
            let mut j = i;
            while j < bytes.len()
                && (bytes[j].is_ascii_digit()
                    || (bytes[j] == b'.' && bytes.get(j + 1).is_some_and(u8::is_ascii_digit)))
            {
                j += 1;
            }
            out.push(prompt[start..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The request line's parts: the labelled line (else the first line) split
/// at sentence ends and `Then:`.
fn request_parts(prompt: &str) -> Vec<String> {
    let lines: Vec<&str> = prompt.lines().map(str::trim).collect();
    let labelled = lines.iter().find_map(|line| {
        REQUEST_LABELS
            .iter()
            .find_map(|label| line.strip_prefix(label))
            .map(str::trim)
    });
    let Some(line) = labelled.or_else(|| lines.iter().copied().find(|l| !l.is_empty())) else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    let mut current = String::new();
    let words: Vec<&str> = line.split_whitespace().collect();
    for (k, word) in words.iter().enumerate() {
        if *word == "Then:" {
            parts.push(std::mem::take(&mut current));
            continue;
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        let next_opens = words
            .get(k + 1)
            .is_some_and(|w| w.chars().next().is_some_and(char::is_uppercase));
        if word.ends_with(['.', '?', '!']) && next_opens {
            parts.push(std::mem::take(&mut current));
        }
    }
    parts.push(current);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const FNCALL: &str = "Fulfil the user's request with the functions below.\n\
        Request: Transfer 139 from savings to checking. Then: Add \"milk\" to the errands list. Then: How many units of SKU-4411 are in stock?\n\
        If any part cannot be done, answer `infeasible: PART`.\n\nFunctions:\n- move_money(source, target, value): move money\n";

    #[test]
    fn each_source_reads_its_kind_of_text() {
        let answers = PromptAnswers::read(FNCALL, &["look".to_string()]);
        assert_eq!(answers.quotes, ["milk", "infeasible: PART"]);
        assert_eq!(
            answers.parts,
            [
                "Transfer 139 from savings to checking.",
                "Add \"milk\" to the errands list.",
                "How many units of SKU-4411 are in stock?",
            ]
        );
        assert!(answers.entities.contains(&"SKU-4411".to_string()));
        assert_eq!(answers.numbers, ["139", "4411"]);
        assert_eq!(
            answers.options,
            ["move_money(source, target, value): move money", "look"]
        );
        assert_eq!(answers.prefixes, ["infeasible: "]);
        let all = answers.all();
        assert!(all.contains(&"infeasible: Transfer 139 from savings to checking.".to_string()));
        assert!(all.contains(&"SKU-4411".to_string()));
    }

    #[test]
    fn unlabelled_prompts_use_their_first_line_and_no_prefix() {
        let answers = PromptAnswers::read("What is 3 + 4? Answer with a number.\nMore.", &[]);
        assert_eq!(answers.parts, ["What is 3 + 4?", "Answer with a number."]);
        assert!(answers.prefixes.is_empty());
    }

    #[test]
    fn candidates_are_bounded() {
        let long = "\"x\" ".repeat(10_000);
        let answers = PromptAnswers::read(&long, &[]);
        assert_eq!(answers.quotes, ["x"]);
        assert!(
            PromptAnswers::read(&"a1 ".repeat(50_000), &[])
                .entities
                .len()
                <= 1
        );
    }
}
