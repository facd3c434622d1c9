//! Tool specs: a tool's name, description and typed parameters, and their
//! OpenAI function schemas (what observations publish and what calls are
//! checked against).

use serde_json::{Map, Value, json};

/// The JSON type of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
}

impl ParamType {
    pub(crate) fn schema_name(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Number => "number",
            ParamType::Boolean => "boolean",
        }
    }
}

/// One parameter of a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: ParamType,
    pub description: String,
    pub required: bool,
    /// Allowed values (a JSON-schema `enum`); empty for any.
    pub choices: Vec<String>,
}

impl Param {
    pub fn required(name: &str, ty: ParamType, description: &str) -> Self {
        Param {
            name: name.into(),
            ty,
            description: description.into(),
            required: true,
            choices: Vec::new(),
        }
    }

    pub fn optional(name: &str, ty: ParamType, description: &str) -> Self {
        Param {
            required: false,
            ..Param::required(name, ty, description)
        }
    }

    pub fn one_of(mut self, choices: &[&str]) -> Self {
        self.choices = choices.iter().map(|c| c.to_string()).collect();
        self
    }
}

/// One tool: a name, what it does, and its parameters in positional order.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub params: Vec<Param>,
    /// Whether a call of this tool ends the episode (`answer`, a final
    /// resolution): one turn may not make two different such calls.
    pub ends_episode: bool,
}

impl ToolSpec {
    pub fn new(name: &str, description: &str, params: Vec<Param>) -> Self {
        ToolSpec {
            name: name.into(),
            description: description.into(),
            params,
            ends_episode: false,
        }
    }

    /// This tool, marked as one whose call ends the episode.
    pub fn ending(mut self) -> Self {
        self.ends_episode = true;
        self
    }

    /// This tool in OpenAI function format.
    pub fn openai(&self) -> Value {
        let mut properties = Map::new();
        for p in &self.params {
            let mut prop = json!({"type": p.ty.schema_name(), "description": p.description});
            if !p.choices.is_empty() {
                prop["enum"] = json!(p.choices);
            }
            properties.insert(p.name.clone(), prop);
        }
        let required: Vec<&str> = self
            .params
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name.as_str())
            .collect();
        json!({
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {"type": "object", "properties": properties, "required": required},
            }
        })
    }

    /// `name(a, b?)` for the observation's tool list.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}{}", p.name, if p.required { "" } else { "?" }))
            .collect();
        format!("{}({}): {}", self.name, params.join(", "), self.description)
    }
}

/// The common `answer` tool that ends an episode.
pub fn answer_tool(description: &str) -> ToolSpec {
    ToolSpec::new(
        "answer",
        description,
        vec![Param::required(
            "answer",
            ParamType::String,
            "the final answer, or `infeasible: EVIDENCE` when the task cannot be done",
        )],
    )
    .ending()
}

/// Tools in OpenAI function format, as a JSON array.
pub fn openai_specs(tools: &[ToolSpec]) -> Value {
    Value::Array(tools.iter().map(ToolSpec::openai).collect())
}
