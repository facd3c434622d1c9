//! Completeness probes: the env's own reference answers and oracle actions,
//! written the way chat models write them. A false zero teaches a model as
//! wrongly as a false one, so the audit plays every style and flags an env
//! whose reference passes in any style on fewer than 99% of tasks.
//!
//! Single-turn references (`\boxed{…}` answers, fenced programs) get long
//! reasoning, template-opened reasoning holding a draft answer, prose around
//! the answer, a markdown heading, a bold "Final answer", display math, and,
//! for answers of several lines, LaTeX `\\` rows and a code fence inside the
//! box. Every action of a multi-turn env, tool env, web env or game gets long
//! reasoning, template-opened reasoning, a sentence before it, an `Action:`
//! marker after a thought, and a code fence.

use std::sync::LazyLock;

use crate::driver::{Agent, AgentTurn, ScriptedAgent};

/// Bytes of reasoning before a single-turn answer: about 30k tokens, ordinary
/// for models trained at 16k–32k response lengths.
const LONG_REASONING_BYTES: usize = 100 * 1024;
/// Bytes of reasoning before each action of a multi-turn episode (over the
/// 20,000-character action cap of the tool parsers).
const ACTION_REASONING_BYTES: usize = 30 * 1024;

/// Plausible reasoning: numbers, a draft box and a candidate move in prose,
/// none of which may count once the reasoning is removed.
fn reasoning(bytes: usize) -> String {
    const SENTENCES: [&str; 4] = [
        "Let me check the constraints again: 17 against 23 gives 40, which is too large. ",
        "A first draft gives \\boxed{12}, but I have not verified it yet. ",
        "Maybe I should try the other option first and compare the results. ",
        "Wait, that contradicts step 3, so I need to go back and recount. ",
    ];
    let mut text = String::with_capacity(bytes + 128);
    for sentence in SENTENCES.iter().cycle() {
        if text.len() >= bytes {
            break;
        }
        text.push_str(sentence);
    }
    text
}

static LONG_REASONING: LazyLock<String> = LazyLock::new(|| reasoning(LONG_REASONING_BYTES));
static ACTION_REASONING: LazyLock<String> = LazyLock::new(|| reasoning(ACTION_REASONING_BYTES));

/// A style: the reference (or action) as a model writes it, given another
/// task's reference as a plausible draft; `None` where the style does not
/// apply to this reference (display math for a program).
pub(crate) type Style = fn(&str, &str) -> Option<String>;

fn boxed_contents(reference: &str) -> Option<&str> {
    reference.strip_prefix("\\boxed{")?.strip_suffix('}')
}

/// Styles of a single-turn answer.
pub(crate) const ANSWER_STYLES: &[(&str, Style)] = &[
    ("style_long_reasoning", |r, _| {
        Some(format!("<think>\n{}\n</think>\n\n{r}", *LONG_REASONING))
    }),
    ("style_template_opened_draft", |r, draft| {
        Some(format!(
            "Let me work this out. A first guess would be {draft}, but let me verify.\n{}\n</think>\n\n{r}",
            &LONG_REASONING[..2_000]
        ))
    }),
    ("style_prose_around", |r, _| {
        Some(format!(
            "Let me solve this step by step.\n\nAfter checking every condition, the answer is:\n\n{r}\n\nI verified it against the constraints above."
        ))
    }),
    ("style_markdown_heading", |r, _| {
        Some(format!(
            "## Approach\n\nI work through the constraints one by one.\n\n## Final Answer\n\n{r}\n"
        ))
    }),
    ("style_bold_final_answer", |r, _| {
        Some(format!(
            "We check each case in turn.\n\n**Final Answer:** {r}"
        ))
    }),
    ("style_display_math", |r, _| {
        boxed_contents(r).map(|_| format!("Therefore\n\n$$\n{r}\n$$"))
    }),
    ("style_latex_rows_in_box", |r, _| {
        let inner = boxed_contents(r)?;
        inner.contains('\n').then(|| {
            let rows: Vec<&str> = inner.lines().collect();
            format!("\\boxed{{{}}}", rows.join(" \\\\ "))
        })
    }),
    // Arithmetic expressions (countdown, 24) written with LaTeX operators.
    // Spaced operators tell an expression from a number such as `-12/5`,
    // which a number-only prompt (arithmetic) asks for as it is.
    ("style_latex_operators", |r, _| {
        let inner = boxed_contents(r)?;
        let arithmetic = (inner.contains(" * ") || inner.contains(" / "))
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || " +-*/().".contains(c));
        arithmetic.then(|| {
            format!(
                "\\boxed{{{}}}",
                inner.replace('*', "\\times ").replace('/', "\\div ")
            )
        })
    }),
    ("style_fence_in_box", |r, _| {
        let inner = boxed_contents(r)?;
        inner
            .contains('\n')
            .then(|| format!("\\boxed{{\n```\n{inner}\n```\n}}"))
    }),
];

/// Styles of one action in a multi-turn env, tool env, web env or game.
pub(crate) const ACTION_STYLES: &[(&str, Style)] = &[
    ("style_long_reasoning", |a, _| {
        Some(format!("<think>\n{}\n</think>\n\n{a}", *ACTION_REASONING))
    }),
    ("style_template_opened", |a, _| {
        Some(format!(
            "{}\nSo my next move is clear.\n</think>\n\n{a}",
            &ACTION_REASONING[..1_000]
        ))
    }),
    ("style_sentence_before", |a, _| {
        Some(format!(
            "Based on the last observation, here is my next move.\n{a}"
        ))
    }),
    ("style_action_marker", |a, _| {
        (!a.contains('\n'))
            .then(|| format!("Thought: the last observation settles this step.\nAction: {a}"))
    }),
    ("style_fenced", |a, _| {
        (!a.contains("```")).then(|| format!("Here is my move:\n\n```\n{a}\n```"))
    }),
];

/// Plays the oracle's action in one style (the plain action where the style
/// does not apply to it).
pub(crate) struct StyledOracle {
    pub(crate) style: Style,
    pub(crate) draft: String,
}

impl Agent for StyledOracle {
    fn name(&self) -> String {
        "styled-oracle".into()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let action = turn.env.oracle_action(turn.player).unwrap_or_default();
        (self.style)(&action, &self.draft).unwrap_or(action)
    }
}

/// One seat replaying, in a style, the moves a recorded episode shows it
/// making: the styled oracle without its search, for an oracle that is a
/// function of the state.
pub(crate) struct StyledReplay {
    pub(crate) style: Style,
    pub(crate) script: ScriptedAgent,
}

impl Agent for StyledReplay {
    fn name(&self) -> String {
        "styled-replay".into()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let action = self.script.act(turn);
        (self.style)(&action, "").unwrap_or(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_style_keeps_the_reference_visible_after_the_reasoning() {
        let reference = "\\boxed{1 2\n3 4}";
        for (name, style) in ANSWER_STYLES {
            // Only the operator style does not fit a grid; it has its own test.
            let Some(text) = style(reference, "\\boxed{7}") else {
                assert_eq!(*name, "style_latex_operators");
                continue;
            };
            let visible = verigym_verifiers::answer::strip_reasoning(&text).unwrap();
            assert!(
                !visible.contains("\\boxed{12}") && !visible.contains("\\boxed{7}"),
                "{name}: a draft leaked"
            );
            assert!(visible.contains("1 2"), "{name}: {visible:?}");
        }
        for (name, style) in ACTION_STYLES {
            let text = style("reveal 3 4", "").unwrap();
            let visible = verigym_verifiers::answer::strip_reasoning(&text).unwrap();
            assert!(visible.contains("reveal 3 4"), "{name}");
        }
        assert!(LONG_REASONING.len() >= LONG_REASONING_BYTES);
    }

    #[test]
    fn styles_that_do_not_fit_a_reference_say_so() {
        let program = "```python\ndef f():\n    return 1\n```";
        let skipped: Vec<&str> = ANSWER_STYLES
            .iter()
            .filter(|(_, s)| s(program, "").is_none())
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(
            skipped,
            [
                "style_display_math",
                "style_latex_rows_in_box",
                "style_latex_operators",
                "style_fence_in_box"
            ]
        );
    }

    #[test]
    fn the_operator_style_rewrites_arithmetic_only() {
        let style = ANSWER_STYLES
            .iter()
            .find(|(n, _)| *n == "style_latex_operators")
            .unwrap()
            .1;
        assert_eq!(
            style("\\boxed{(8 - 2) * 4 / 1}", "").as_deref(),
            Some("\\boxed{(8 - 2) \\times  4 \\div  1}")
        );
        assert_eq!(style("\\boxed{12}", ""), None);
        assert_eq!(style("\\boxed{-12/5}", ""), None);
        assert_eq!(style("\\boxed{x * y}", ""), None);
    }
}
