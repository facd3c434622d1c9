//! What every web env does the same way around its own site: a command's
//! way onto the page (ids of this view, focus, scrolling, the recorded
//! answer, the page message), a turn of several calls, and drawing a task
//! that passes the screen. Each env supplies only what its site does on a
//! click, a typed text, `back` and `submit` ([`Browser`]).

use crate::core::Env;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall};
use crate::toolkit::screen::{MAX_ATTEMPTS, screen};
use crate::toolkit::tool_env::{ToolEnv, apply_calls};

use super::{Page, Role};

/// Most characters a typed text keeps.
const MAX_TYPED: usize = 200;

/// What [`act`] reaches into: the page on show, the message of the last
/// command (shown with the next page), and the agent's `answer`, once given.
pub(crate) type Chrome<'a> = (&'a mut Page, &'a mut String, &'a mut Option<String>);

/// A web env's site: what it does with each kind of command. The rest of a
/// command's handling (ids, focus, scrolling, answers) is [`act`]'s.
pub(crate) trait Browser {
    fn chrome(&mut self) -> Chrome<'_>;
    /// A click on the visible element with `key` (not a text box).
    fn click(&mut self, key: &str) -> String;
    /// `text` (cut to 200 characters) typed into the text box `[id]` with
    /// `key`.
    fn type_into(&mut self, id: i64, key: &str, text: String) -> String;
    /// Submits the form on this page, if it has one.
    fn submit(&mut self) -> String;
    /// Goes to the previous page; `None` when there is none to go to.
    fn back(&mut self) -> Option<()>;
}

/// Runs one web command on `env` and returns its message: ids are looked
/// up in this view, typing goes only into text boxes, a click on a text box
/// only focuses it.
pub(crate) fn act<B: Browser>(env: &mut B, call: &ToolCall) -> String {
    match call.name.as_str() {
        "click" | "type" => {
            let id = call.int("id");
            let Some(element) = env.chrome().0.find(id).cloned() else {
                return format!("error: no element [{id}] in this view; use the ids shown now");
            };
            match (call.name.as_str(), element.role) {
                ("type", Role::Textbox) => {
                    let text = call.str("text").chars().take(MAX_TYPED).collect();
                    env.type_into(id, &element.key, text)
                }
                ("type", _) => format!("error: [{id}] is not a text box"),
                (_, Role::Textbox) => format!("focused [{id}]"),
                _ => env.click(&element.key),
            }
        }
        "scroll" => {
            if env.chrome().0.scroll_by(call.str("direction") == "down") {
                "scrolled".into()
            } else {
                "error: cannot scroll further".into()
            }
        }
        "back" => match env.back() {
            Some(()) => "went back".into(),
            None => "error: no previous page".into(),
        },
        "submit" => env.submit(),
        _ => {
            *env.chrome().2 = Some(call.str("answer").to_string());
            "answer recorded".into()
        }
    }
}

/// [`ToolEnv::run_call`] of a web env: the command's message is shown on
/// the next page too.
pub(crate) fn run_call<B: Browser>(env: &mut B, call: &ToolCall) -> String {
    let message = act(env, call);
    env.chrome().1.clone_from(&message);
    message
}

/// Applies one turn's calls to a web env and returns their events. The page
/// message is one call's own message, or, for several, each call with its
/// message in order (the page shown is the one after the last call).
pub(crate) fn apply_turn<E: ToolEnv + Browser>(env: &mut E, calls: Calls) -> Vec<String> {
    let names: Vec<String> = calls.iter().map(ToolCall::compact).collect();
    let events = apply_calls(env, calls);
    if events.len() >= 2 {
        let lines: Vec<String> = names
            .iter()
            .zip(&events)
            .enumerate()
            .map(|(i, (call, result))| format!("[{}] {call}: {result}", i + 1))
            .collect();
        *env.chrome().1 = format!("{} calls this turn:\n{}", events.len(), lines.join("\n"));
    }
    events
}

/// Draws up to [`MAX_ATTEMPTS`] tasks and keeps the first that passes the
/// screen (else the last drawn); `draw` may give up on a candidate.
pub(crate) fn draw_screened<E: Env>(
    rng: &mut Rng,
    mut draw: impl FnMut(&mut Rng) -> Option<E::Task>,
) -> E::Task {
    let mut fallback = None;
    for _ in 0..MAX_ATTEMPTS {
        let Some(task) = draw(rng) else {
            continue;
        };
        if screen::<E>(&task, &[]) {
            return task;
        }
        fallback = Some(task);
    }
    fallback.expect("some candidate is drawn within the attempts")
}
