//! Blind strategies for the audit: policies that read the first
//! observation but never the feedback, and so must not pass.
//!
//! - [`CopyAgent`]: answers at once with text copied out of the prompt
//!   (the first or last candidate of one source of
//!   [`PromptAnswers`](crate::prompt_answers::PromptAnswers), bare or after a
//!   verdict prefix such as `infeasible: `); a refused reply is retried as an
//!   `answer` tool call, then boxed.
//! - [`SequenceAgent`]: plays a fixed sequence over the listed options (the
//!   env's legal actions, else the candidates copied from the prompt): the
//!   first k in order, the last k, or one option repeated.
//!
//! Blind play should pass at most 1% of tasks. Where the game itself makes
//! that impossible (a guess budget over a shown list), the env's header says
//! so and [`BLIND_CEILINGS`] holds its bar, under 10%.

use serde_json::json;

use crate::driver::{Agent, AgentTurn};
use crate::prompt_answers::{PromptAnswers, Source};
use crate::toolkit::calls::call_text;

/// Envs whose rules let blind play win more than 1% of tasks, with the bar
/// their header states (every level must stay under it).
pub const BLIND_CEILINGS: &[(&str, f64)] = &[("logic/wordle-v2", 0.10)];

/// The bar of blind play for `env` (an id without a preset).
pub fn blind_ceiling(env: &str, default: f64) -> f64 {
    BLIND_CEILINGS
        .iter()
        .find(|(id, _)| *id == env)
        .map_or(default, |&(_, bar)| bar)
}

/// Which candidate of a source a [`CopyAgent`] copies.
#[derive(Clone, Copy, Debug)]
pub struct CopyProbe {
    pub source: Source,
    pub last: bool,
    pub prefixed: bool,
}

impl CopyProbe {
    /// Every copy probe: each source, first and last, bare and prefixed.
    pub fn all() -> Vec<CopyProbe> {
        let mut out = Vec::new();
        for source in Source::ALL {
            for prefixed in [false, true] {
                for last in [false, true] {
                    out.push(CopyProbe {
                        source,
                        last,
                        prefixed,
                    });
                }
            }
        }
        out
    }

    pub fn name(&self) -> String {
        format!(
            "copied_{}{}_{}",
            if self.prefixed { "verdict_" } else { "" },
            self.source.name(),
            if self.last { "last" } else { "first" }
        )
    }

    /// The copied text for a first observation, if it has such a candidate.
    pub fn text(&self, prompt: &str, listed: &[String]) -> Option<String> {
        let answers = PromptAnswers::read(prompt, listed);
        let candidates = answers.of(self.source);
        let pick = if self.last {
            candidates.last()
        } else {
            candidates.first()
        }?;
        if self.prefixed {
            answers.prefixes.first().map(|p| format!("{p}{pick}"))
        } else {
            Some(pick.clone())
        }
    }
}

/// The ways a copied answer is written, tried in turn while the env
/// refuses: as it is, as an `answer` tool call, boxed.
fn phrasing(text: &str, attempt: usize) -> String {
    match attempt % 3 {
        0 => text.to_string(),
        1 => call_text("answer", json!({ "answer": text })),
        _ => format!("\\boxed{{{text}}}"),
    }
}

/// Answers with text copied from the first observation, every turn.
pub struct CopyAgent {
    copy: CopyProbe,
    text: Option<String>,
    attempt: usize,
}

impl CopyAgent {
    pub fn new(copy: CopyProbe) -> Self {
        CopyAgent {
            copy,
            text: None,
            attempt: 0,
        }
    }
}

impl Agent for CopyAgent {
    fn name(&self) -> String {
        self.copy.name()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let listed = turn.observation.legal_actions.as_deref().unwrap_or(&[]);
        let text = self
            .text
            .get_or_insert_with(|| {
                self.copy
                    .text(&turn.observation.text, listed)
                    .unwrap_or_default()
            })
            .clone();
        self.attempt = if turn.last_error.is_some() {
            self.attempt + 1
        } else {
            0
        };
        phrasing(&text, self.attempt)
    }
}

/// A fixed sequence over the listed options, by the index of the attempt.
#[derive(Clone, Copy, Debug)]
pub enum Sequence {
    /// Options 1, 2, 3, … in listed order.
    FirstK,
    /// The last option, then the one before it, …
    LastK,
    /// One option, every time (0-based; `usize::MAX` is the last).
    Repeat(usize),
}

/// The sequences the audit plays.
pub const SEQUENCES: &[Sequence] = &[
    Sequence::FirstK,
    Sequence::LastK,
    Sequence::Repeat(0),
    Sequence::Repeat(1),
    Sequence::Repeat(usize::MAX),
];

impl Sequence {
    pub fn name(self) -> String {
        match self {
            Sequence::FirstK => "blind_first_k".into(),
            Sequence::LastK => "blind_last_k".into(),
            Sequence::Repeat(usize::MAX) => "blind_repeat_last".into(),
            Sequence::Repeat(k) => format!("blind_repeat_{}", k + 1),
        }
    }

    fn pick(self, options: &[String], attempt: usize) -> String {
        let n = options.len();
        if n == 0 {
            return String::new();
        }
        let i = match self {
            Sequence::FirstK => attempt % n,
            Sequence::LastK => n - 1 - attempt % n,
            Sequence::Repeat(k) => k.min(n - 1),
        };
        options[i].clone()
    }
}

/// Plays a [`Sequence`] over the options of the first observation.
pub struct SequenceAgent {
    sequence: Sequence,
    options: Option<Vec<String>>,
    attempt: usize,
}

impl SequenceAgent {
    pub fn new(sequence: Sequence) -> Self {
        SequenceAgent {
            sequence,
            options: None,
            attempt: 0,
        }
    }
}

impl Agent for SequenceAgent {
    fn name(&self) -> String {
        self.sequence.name()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let options =
            self.options
                .get_or_insert_with(|| match turn.observation.legal_actions.as_deref() {
                    Some(listed) if !listed.is_empty() => listed.to_vec(),
                    _ => PromptAnswers::read(&turn.observation.text, &[]).all(),
                });
        let action = self.sequence.pick(options, self.attempt);
        self.attempt += 1;
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_walk_the_options_without_feedback() {
        let options: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let walk = |s: Sequence| (0..4).map(|i| s.pick(&options, i)).collect::<String>();
        assert_eq!(walk(Sequence::FirstK), "abca");
        assert_eq!(walk(Sequence::LastK), "cbac");
        assert_eq!(walk(Sequence::Repeat(1)), "bbbb");
        assert_eq!(walk(Sequence::Repeat(usize::MAX)), "cccc");
        assert_eq!(Sequence::Repeat(0).name(), "blind_repeat_1");
    }

    #[test]
    fn copies_pick_first_and_last_with_the_taught_prefix() {
        let prompt = "Request: Do \"x\" now. Then: Do \"y\" later.\nOr answer `infeasible: PART`.";
        let copy = |source, last, prefixed| {
            CopyProbe {
                source,
                last,
                prefixed,
            }
            .text(prompt, &[])
        };
        assert_eq!(copy(Source::Quote, false, false).unwrap(), "x");
        assert_eq!(
            copy(Source::Part, false, true).unwrap(),
            "infeasible: Do \"x\" now."
        );
        assert_eq!(copy(Source::Number, false, false), None);
        assert_eq!(CopyProbe::all().len(), 20);
        assert_eq!(phrasing("x", 2), "\\boxed{x}");
    }

    #[test]
    fn blind_ceilings_are_stated_in_the_env_headers() {
        // Each env allowed more than 1% blind play says so in its header.
        let wordle = include_str!("../logic/wordle/mod.rs");
        let header: String = wordle
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect();
        assert!(header.contains("Blind play"), "{header}");
        assert_eq!(BLIND_CEILINGS.len(), 1);
        assert!(BLIND_CEILINGS.iter().all(|&(_, bar)| bar <= 0.10));
    }
}
