//! The one reason type for "no final answer could be taken from this response", shared by
//! the plain extraction ([`super::final_answer`]) and the math extraction
//! ([`crate::math::extract_answer`]).

use thiserror::Error;

/// Why no final answer could be taken from a response.
///
/// Each message says what was wrong and what a correct response looks like.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AnswerError {
    /// Nothing is left once the reasoning is removed.
    #[error("empty response: after the reasoning, write the final answer, e.g. \\boxed{{42}}")]
    Empty,
    /// The reasoning was opened (`<think>`, `<thinking>`, `<reasoning>`) and never closed:
    /// the response was cut off before it reached an answer.
    #[error("truncated: the reasoning was opened and never closed, so no final answer was written")]
    Truncated,
    /// The whole response, reasoning included, is longer than the scanning cap.
    #[error(
        "response is {len} bytes, over the {cap}-byte cap on a whole response (reasoning included)"
    )]
    ResponseTooLong { len: usize, cap: usize },
    /// The text after the reasoning is longer than the answer cap.
    #[error(
        "the text after the reasoning is {len} bytes, over the {cap}-byte cap on an answer: \
         keep the reasoning inside <think>…</think> and the answer short"
    )]
    AnswerTooLong { len: usize, cap: usize },
    #[error("unbalanced braces in \\boxed{{…}}: close every box")]
    UnbalancedBox,
    #[error("empty \\boxed{{}}: put the final answer inside the box")]
    EmptyBox,
    /// Two boxes (or box groups) that disagree: a box per candidate is a hedge.
    #[error("several different boxed answers ({0} and {1}): hedged answers score zero")]
    Hedged(String, String),
    /// A different value offered as an alternative next to the boxed answer ("4 or
    /// \boxed{5}", "\boxed{5} (or maybe 43)").
    #[error("an alternative is offered next to the boxed answer {0}: hedged answers score zero")]
    AlternativeOffered(String),
    /// The math extraction found no candidate that parses.
    #[error("no answer found: give the final answer in \\boxed{{}}")]
    NoAnswer,
    /// The math extraction found a box whose content is not a parseable expression.
    #[error("boxed answer does not parse: {0}")]
    UnparseableBox(String),
    #[error("no \\boxed{{}} answer, and one is required")]
    BoxRequired,
    #[error("the response only repeats the prompt")]
    EchoedPrompt,
}
