//! The running desk of [`super::airline`] and [`super::retail`], where one
//! user asks for one change that the written policy allows, refuses or
//! hands over: the policy's [`Outcome`], how the conversation was closed
//! ([`Closing`]), and the episode state both keep ([`UserDesk`]: the
//! world the tools change, the caller, the authentication, the calls so
//! far), with what they do alike (reset, turn, observation, score, oracle,
//! the `find_user` and closing calls, the [`ToolEnv`] side). Each env adds
//! its world's tools.

use std::fmt::Debug;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::policy_desk::Desk;
use crate::core::{Env, Observation, Score, Turn};
use crate::toolkit::calls::{Calls, ToolCall};
use crate::toolkit::spec::{Param, ParamType, ToolSpec};
use crate::toolkit::tool_env::{CallCount, Log, ToolEnv, ToolError, turn_until};

/// The policy's outcome at a desk where the user asks for one change: the
/// change to make, a refusal with its reason, or a hand-over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome<Op> {
    Do(Op),
    Refuse(String),
    Transfer,
}

impl<Op> Outcome<Op> {
    /// The refusal's reason, if the policy refuses.
    pub fn refusal(&self) -> Option<&str> {
        match self {
            Outcome::Refuse(reason) => Some(reason),
            _ => None,
        }
    }
}

/// How a conversation was closed: the call and the user id it named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Closing {
    Complete { user: String },
    Refuse { reason: String, user: String },
    Transfer { user: String },
}

impl Closing {
    /// The closing a call of a tool of [`closing_tools`] makes (the user
    /// named by `user_id`) and its result; `None` for any other tool.
    pub(crate) fn of_call(call: &ToolCall) -> Option<(Closing, &'static str)> {
        let user = call.str("user_id").trim().to_ascii_uppercase();
        Some(match call.name.as_str() {
            "complete_request" => (
                Closing::Complete { user },
                "request completed; conversation closed",
            ),
            "refuse" => (
                Closing::Refuse {
                    reason: call.str("reason").to_string(),
                    user,
                },
                "refused; conversation closed",
            ),
            "transfer_to_human" => (
                Closing::Transfer { user },
                "transferred to a human agent; conversation closed",
            ),
            _ => return None,
        })
    }

    /// Whether this is the policy's closing: `complete_request` after a
    /// change, `refuse` with the policy's reason, `transfer_to_human` for a
    /// hand-over, each naming `caller`.
    pub(crate) fn is_policys<Op>(&self, outcome: &Outcome<Op>, caller: &str) -> bool {
        match (self, outcome) {
            (Closing::Complete { user }, Outcome::Do(_))
            | (Closing::Transfer { user }, Outcome::Transfer) => user == caller,
            (Closing::Refuse { reason, user }, Outcome::Refuse(want)) => {
                user == caller && reason == want
            }
            _ => false,
        }
    }
}

/// The `find_user` tool ([`UserDesk::find_user`]).
pub(crate) fn find_user_tool() -> ToolSpec {
    ToolSpec::new(
        "find_user",
        "a user's id by email",
        vec![Param::required(
            "email",
            ParamType::String,
            "the user's email",
        )],
    )
}

/// The world of a user desk: the records its tools read and change.
pub trait DeskWorld: Clone + Debug + PartialEq {
    /// One change the tools make.
    type Op: Clone + Debug + PartialEq;
    /// The env's task.
    type Task;
    /// Makes the change.
    fn apply(&mut self, op: &Self::Op);
    /// The id of the user with this email (matched without case).
    fn user_by_email(&self, email: &str) -> Option<&str>;
    /// The desk's tools, the closing ones included.
    fn tools() -> &'static [ToolSpec];
    /// The policy's outcome of a task.
    fn outcome(task: &Self::Task) -> &Outcome<Self::Op>;
    /// Runs a call of a tool other than the closing ones: its result, or
    /// the error result (nothing changed).
    fn run(desk: &mut UserDesk<Self>, call: &ToolCall) -> Result<String, ToolError>;
}

impl<W: DeskWorld> ToolEnv for UserDesk<W>
where
    UserDesk<W>: Env<Action = Calls, Task = W::Task>,
{
    fn tools(&self) -> &[ToolSpec] {
        W::tools()
    }

    /// Refusal and hand-over tasks are a user desk's infeasible ones.
    fn feasible(task: &W::Task) -> bool {
        matches!(W::outcome(task), Outcome::Do(_))
    }

    /// A closing call closes the conversation, any other goes to the
    /// world's tools; the call is logged with its result.
    fn run_call(&mut self, call: ToolCall) -> String {
        let result = match Closing::of_call(&call) {
            Some((closing, note)) => {
                self.closing = Some(closing);
                note.to_string()
            }
            None => W::run(self, &call).unwrap_or_else(|e| e.message),
        };
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

/// A user desk's running episode: the task's world (the part the tools
/// change) and the few facts it scores with.
#[derive(Clone, Debug)]
pub struct UserDesk<W: DeskWorld> {
    pub(crate) world: W,
    pub(crate) caller: String,
    pub(crate) caller_email: String,
    pub(crate) opening: String,
    pub(crate) outcome: Outcome<W::Op>,
    pub(crate) gold: Arc<[String]>,
    /// The world the policy leads to.
    pub(crate) expected: W,
    /// Whether `find_user` has found the caller yet.
    pub(crate) authenticated: bool,
    /// Whether a change was made before that.
    pub(crate) acted_unauthenticated: bool,
    pub(crate) log: Log,
    pub(crate) count: CallCount,
    pub(crate) closing: Option<Closing>,
}

/// What a user desk's episode starts from.
pub(crate) struct DeskStart<'a, W: DeskWorld> {
    pub world: &'a W,
    /// The caller's user id and email.
    pub caller: (&'a str, &'a str),
    pub opening: &'a str,
    pub outcome: &'a Outcome<W::Op>,
    pub gold: &'a [String],
}

impl<W: DeskWorld> UserDesk<W> {
    /// The episode at its start; the expected world is the task's with the
    /// policy's change made.
    pub(crate) fn new(start: DeskStart<W>) -> Self {
        let mut expected = start.world.clone();
        if let Outcome::Do(op) = start.outcome {
            expected.apply(op);
        }
        UserDesk {
            world: start.world.clone(),
            caller: start.caller.0.to_string(),
            caller_email: start.caller.1.to_string(),
            opening: start.opening.to_string(),
            outcome: start.outcome.clone(),
            gold: start.gold.into(),
            expected,
            authenticated: false,
            acted_unauthenticated: false,
            log: Log::default(),
            count: CallCount::default(),
            closing: None,
        }
    }

    /// Over at the closing call or when the calls reach `max_steps`.
    pub(crate) fn turn_within(&self, max_steps: usize) -> Turn {
        turn_until(self.closing.is_some() || self.count.spent(max_steps))
    }

    /// The desk's observation (see [`Desk::observation`]).
    pub(crate) fn observation(&self, desk: &Desk, tools: &[ToolSpec], specs: Value) -> Observation {
        desk.observation(&self.opening, tools, specs, &self.log, json!(self.closing))
    }

    /// 1 when the world is the expected one, no change came before the
    /// caller was found, and the closing is the policy's.
    pub(crate) fn policy_score(&self) -> Score {
        let closing =
            (self.closing.as_ref()).is_some_and(|c| c.is_policys(&self.outcome, &self.caller));
        let state = self.world == self.expected;
        let first = !self.acted_unauthenticated;
        Score::binary(closing && state && first)
            .part("state_correct", f64::from(u8::from(state)))
            .part("closing_correct", f64::from(u8::from(closing)))
            .part("authenticated_first", f64::from(u8::from(first)))
    }

    /// The reference calls in order (assumes it made every earlier call).
    pub(crate) fn next_reference(&self) -> Option<String> {
        self.log.next_gold(&self.gold)
    }

    /// The calls made, the closing and the policy's outcome, for `render`.
    pub(crate) fn summary(&self) -> String {
        format!(
            "calls={} closing={:?} expected={:?}",
            self.log.entries.len(),
            self.closing,
            self.outcome
        )
    }

    /// `find_user`: the id of the user with the call's email; finding the
    /// caller authenticates them.
    pub(crate) fn find_user(&mut self, call: &ToolCall) -> Result<String, ToolError> {
        let user = (self.world)
            .user_by_email(call.str("email").trim())
            .ok_or("error: no user with that email")?;
        if user == self.caller {
            self.authenticated = true;
        }
        Ok(json!({"user_id": user}).to_string())
    }

    /// Makes a change, whatever the policy says (as a real back office
    /// would); one made before the caller was found is remembered.
    pub(crate) fn apply_change(&mut self, op: &W::Op) {
        if !self.authenticated {
            self.acted_unauthenticated = true;
        }
        self.world.apply(op);
    }
}
