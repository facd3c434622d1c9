//! What the policy-bound desks share: the prompt and observation of a desk
//! that follows a written policy ([`Desk`]: [`super::airline`],
//! [`super::retail`], [`super::bank`], [`super::service_desk`],
//! [`super::spreadsheet`], [`super::travel`]); and the closing tools and
//! the screen's refuse-only scripts of the desks closed by
//! `complete_request` or `refuse` naming the caller (airline, retail,
//! bank). The running state of the desks whose user asks for one change
//! (airline, retail) is [`super::user_desk`].

use serde_json::{Map, Value, json};

use crate::core::Observation;
use crate::toolkit::calls::call_text;
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
