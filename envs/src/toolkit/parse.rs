//! The parsers for every action format agents emit: every tool and web env
//! reads a turn's calls through [`parse_calls`].
//!
//! Accepted formats (the sites are found by [`super::sites`]):
//!
//! - OpenAI `tool_calls`: `{"tool_calls":[{"type":"function","function":
//!   {"name":"ls","arguments":"{\"path\":\"/\"}"}}]}` (arguments as a JSON
//!   string, or an object), a bare array of such calls, or one call object;
//! - Hermes/Qwen: `<tool_call>{"name":"ls","arguments":{"path":"/"}}</tool_call>`;
//! - Mistral: `[TOOL_CALLS][{"name":"ls","arguments":{"path":"/"}}]`;
//! - Llama 3: `<|python_tag|>{"name":"ls","parameters":{"path":"/"}}`;
//! - Llama 3.2 pythonic: `[ls(path="/")]` (literals only, never evaluated);
//! - plain JSON: `{"name":"ls","parameters":{"path":"/"}}` (or `arguments`),
//!   optionally inside a ```` ```json ```` fence;
//! - ReAct: `Action: ls` then `Action Input: {"path":"/"}`, markdown bold
//!   allowed (`**Action:** ls`);
//! - commands: `ls "/"`, `click [12]`, `type [12] "text"`: positional
//!   arguments in the order the tool's schema lists its parameters.
//!
//! JSON may carry trailing commas. A chat end-of-turn marker
//! ([`END_MARKERS`]) ends the reply: text after it is not read.
//!
//! **One turn, several calls.** Where a format writes several calls (an
//! OpenAI list, several `<tool_call>` blocks, a Mistral or pythonic list)
//! they are the turn's calls, run in order. The turn's format is the first
//! present in the order listed by the `sites` module; every call written in
//! another format (a ReAct action beside a `<tool_call>`, a fenced call
//! before it) must repeat one of the turn's calls, else the turn holds two
//! different actions and is refused as ambiguous. A call that ends the
//! episode (`answer`, a resolution) may be followed only by repeats of
//! itself: two different answers are refused, and so is any other call
//! after the answer (it could never run); the same answer twice is fine.
//! Prose around the calls is never read: a restatement of the answer, a
//! check, an explanation cost nothing. The command syntax is read only from
//! a turn without any other call (its first line), since prose lines often
//! start with a tool's name. An end-of-turn marker ends the reply even
//! inside an argument: a model that writes one has ended its turn.
//!
//! Arguments are checked against the tool's schema (unknown, missing and
//! mistyped arguments are refused with a reason); harmless coercions are
//! made (`"12"` for an integer, `12` for a string). Nothing is ever
//! evaluated: arguments are data.

use super::calls::ToolCall;
use super::check::{EXAMPLE, check_call, clip, invalid, parse_command};
use super::sites::{Format, find_sites, strip_fence};
use super::spec::ToolSpec;
use crate::core::InvalidAction;

/// Longest action text we read (bounded work on hostile input).
pub const MAX_ACTION_CHARS: usize = 20_000;

/// Most calls one turn may make (each counts toward the episode's cap).
pub const MAX_CALLS_PER_TURN: usize = 16;

/// Chat end-of-turn markers: the reply ends at the first one.
pub const END_MARKERS: [&str; 6] = [
    "<|im_end|>",
    "<|eot_id|>",
    "<|eom_id|>",
    "<|end|>",
    "</s>",
    "<|endoftext|>",
];

/// Parses one tool call in any accepted format and checks it against
/// `tools`: [`parse_calls`] for a turn that must hold exactly one call.
///
/// # Errors
/// [`InvalidAction`] saying what is wrong and what a valid call looks like;
/// a turn with several calls is refused.
pub fn parse_call(text: &str, tools: &[ToolSpec]) -> Result<ToolCall, InvalidAction> {
    let mut calls = parse_calls(text, tools)?;
    if calls.len() > 1 {
        return Err(invalid(format!(
            "one tool call expected here, got {}",
            calls.len()
        )));
    }
    Ok(calls.remove(0))
}

/// Parses the calls of one turn (at least one, in order) in any accepted
/// format and checks each against `tools`.
///
/// # Errors
/// [`InvalidAction`] saying what is wrong and what a valid call looks like;
/// [`InvalidAction::ambiguous`] when the turn holds two different actions.
pub fn parse_calls(text: &str, tools: &[ToolSpec]) -> Result<Vec<ToolCall>, InvalidAction> {
    if text.len() > MAX_ACTION_CHARS {
        return Err(invalid(format!(
            "action longer than {MAX_ACTION_CHARS} characters"
        )));
    }
    let text = before_end_marker(text).trim();
    if text.is_empty() {
        return Err(invalid(format!(
            "empty action: call one tool, e.g. {EXAMPLE}"
        )));
    }
    let sites = find_sites(text, tools);
    let Some(first) = sites.first() else {
        let (name, args) = parse_command(strip_fence(text), tools)?;
        return Ok(vec![check_call(&name, args, tools)?]);
    };
    if first.format == Format::React
        && sites.iter().filter(|s| s.format == Format::React).count() > 1
    {
        return Err(InvalidAction::ambiguous(
            "one `Action:` per turn (ReAct writes one call per step): send the next call after its observation",
        ));
    }
    let calls = first
        .calls
        .clone()?
        .into_iter()
        .map(|(name, args)| check_call(&name, args, tools))
        .collect::<Result<Vec<_>, _>>()?;
    if calls.len() > MAX_CALLS_PER_TURN {
        return Err(invalid(format!(
            "{} calls in one turn; at most {MAX_CALLS_PER_TURN}: send the others next turn",
            calls.len()
        )));
    }
    // A call written in another format (or another fence) must repeat one of
    // the turn's calls; one that fails to parse or check is not a call.
    for site in &sites[1..] {
        let Ok(raw) = &site.calls else { continue };
        for (name, args) in raw {
            let Ok(other) = check_call(name, args.clone(), tools) else {
                continue;
            };
            if !calls.contains(&other) {
                return Err(InvalidAction::ambiguous(format!(
                    "two different actions in one turn: `{}` and `{}` in another format; write a turn's calls in one format",
                    clip(&calls[0].compact()),
                    clip(&other.compact())
                )));
            }
        }
    }
    check_one_ending(&calls, tools)?;
    Ok(calls)
}

/// A call of a tool that ends the episode (an answer, a resolution) may be
/// followed in its turn only by repeats of itself: a different final call
/// is a second answer, and any other call would never run (the episode is
/// over), so a turn that writes one after the answer is refused rather than
/// half run. Both make the turn ambiguous.
fn check_one_ending(calls: &[ToolCall], tools: &[ToolSpec]) -> Result<(), InvalidAction> {
    let ends = |c: &ToolCall| tools.iter().any(|t| t.name == c.name && t.ends_episode);
    let Some(at) = calls.iter().position(ends) else {
        return Ok(());
    };
    let first = &calls[at];
    match calls[at + 1..].iter().find(|c| *c != first) {
        Some(other) if ends(other) => Err(InvalidAction::ambiguous(format!(
            "two different final calls in one turn (`{}` and `{}`): end the episode with one",
            clip(&first.compact()),
            clip(&other.compact())
        ))),
        Some(other) => Err(InvalidAction::ambiguous(format!(
            "`{}` comes after `{}`, which ends the episode: make the final call the turn's last",
            clip(&other.compact()),
            clip(&first.compact())
        ))),
        None => Ok(()),
    }
}

/// The text before the first end-of-turn marker.
fn before_end_marker(text: &str) -> &str {
    let end = END_MARKERS
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    &text[..end]
}
