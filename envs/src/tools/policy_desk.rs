//! What the policy-bound desks share: the prompt and observation of a desk
//! that follows a written policy ([`Desk`]: [`super::airline`],
//! [`super::retail`], [`super::bank`], [`super::service_desk`],
//! [`super::spreadsheet`], [`super::travel`]); the closing tools and the
//! screen's refuse-only scripts of the desks closed by `complete_request`
//! or `refuse` naming the caller (airline, retail, bank); and, for the
//! desks whose user asks for one change that the policy may refuse or hand
//! over (airline, retail), the policy's [`Outcome`] and how the
//! conversation was closed ([`Closing`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::core::Observation;
use crate::toolkit::calls::{ToolCall, call_text};
use crate::toolkit::spec::{Param, ParamType, ToolSpec};
use crate::toolkit::tool_env::{Log, RESOLUTION_CALL_HELP, observation_text, tool_observation};

/// Who the agent is at a desk, the policy it follows, and who opens the
/// conversation.
pub(crate) struct Desk<'a> {
    /// The agent's role in one sentence ("You are a bank's customer-service
    /// agent.").
    pub role: &'a str,
    pub policy: &'a str,
    /// Who speaks the opening message ("User", "Customer", "Traveller").
    pub speaker: &'a str,
}

impl Desk<'_> {
    /// The head of the observation text: the role, the policy and the
    /// opening message.
    pub fn head(&self, opening: &str) -> String {
        format!(
            "{} Follow the policy exactly.\n\n{}\n\n{}: {opening}",
            self.role, self.policy, self.speaker
        )
    }

    /// The observation of a desk that ends with a closing call: the text
    /// (head, tools, how to call them, the history) and, structured,
    /// `policy`, `opening`, `tools` (`specs`), `history` and `resolution`
    /// (how the conversation was closed, `null` while it is open).
    pub fn observation(
        &self,
        opening: &str,
        tools: &[ToolSpec],
        specs: Value,
        log: &Log,
        resolution: Value,
    ) -> Observation {
        tool_observation(
            observation_text(&self.head(opening), tools, RESOLUTION_CALL_HELP, log),
            specs,
            log,
            json!({"policy": self.policy, "opening": opening, "resolution": resolution}),
        )
    }
}

/// The closing tools of a desk whose caller is named by the parameter
/// `caller` makes: `complete_request`, `refuse` with one of `reasons`, and
/// where `hand_over`, `transfer_to_human`.
pub(crate) fn closing_tools(
    reasons: &[&str],
    caller: impl Fn() -> Param,
    hand_over: bool,
) -> Vec<ToolSpec> {
    let mut tools = vec![
        ToolSpec::new(
            "complete_request",
            "close the conversation after doing what was asked",
            vec![caller()],
        )
        .ending(),
        ToolSpec::new(
            "refuse",
            "refuse the request under the policy (ends the conversation)",
            vec![
                Param::required("reason", ParamType::String, "policy reason").one_of(reasons),
                caller(),
            ],
        )
        .ending(),
    ];
    if hand_over {
        tools.push(
            ToolSpec::new(
                "transfer_to_human",
                "hand the conversation to a human agent (ends it)",
                vec![caller()],
            )
            .ending(),
        );
    }
    tools
}

/// Screen scripts that only refuse, once with each of `reasons` but the
/// policy's own (`refused`, where the policy refuses), naming `caller` as
/// the argument `caller_key`.
pub(crate) fn wrong_refusals(
    reasons: &[&str],
    refused: Option<&str>,
    caller_key: &str,
    caller: &str,
) -> Vec<Vec<String>> {
    reasons
        .iter()
        .filter(|r| refused != Some(**r))
        .map(|r| {
            let mut args = Map::new();
            args.insert("reason".into(), json!(r));
            args.insert(caller_key.into(), json!(caller));
            vec![call_text("refuse", Value::Object(args))]
        })
        .collect()
}

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
