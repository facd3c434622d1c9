//! The data of a `selfplay/code-io` episode: the task type, code examples
//! (references, proposals, buffer entries), the task, and the texts that
//! write a call and a proposal.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::rng::Rng;
use crate::selfplay::buffer::{Proposal, normalize_python};
use crate::selfplay::programs::Program;
use crate::selfplay::pyliteral::to_python;

/// What the solver is asked to do with a proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskType {
    /// Predict `f(input)`.
    Deduction,
    /// Find an input with `f(input) == output`.
    Abduction,
    /// Write `f` from input/output pairs.
    Induction,
}

/// A program with its inputs (argument lists) and outputs: a reference example, a
/// validated proposal, a buffer entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeExample {
    pub program: String,
    pub inputs: Vec<Value>,
    pub outputs: Vec<Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
}

impl Proposal for CodeExample {
    fn normalized(&self) -> String {
        normalize_python(&self.program)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CodeIoTask {
    pub task_type: TaskType,
    pub solver_samples: usize,
    pub inputs_required: usize,
    /// Induction: how many of the proposer's pairs the solver sees (the rest are hidden).
    pub visible_pairs: usize,
    pub invalid_penalty: f64,
    pub stages: usize,
    pub list_len: usize,
    pub references: Vec<CodeExample>,
    /// What the oracle proposer proposes.
    pub scripted: CodeExample,
}

/// A random generated example: a program and `inputs` random inputs with their outputs.
pub(crate) fn generated_example(
    stages: usize,
    list_len: usize,
    inputs: usize,
    rng: &mut Rng,
) -> CodeExample {
    let program = Program::random(stages, rng);
    let inputs: Vec<Value> = (0..inputs)
        .map(|_| Program::random_input(list_len, rng))
        .collect();
    let outputs = inputs
        .iter()
        .map(|i| program.eval(i).unwrap_or(Value::Null))
        .collect();
    CodeExample {
        program: program.python(),
        inputs,
        outputs,
        message: "f transforms a list of ints step by step".into(),
    }
}

/// `f(a, b)` for an argument list.
pub fn call_text(args: &Value) -> String {
    let parts: Vec<String> = args
        .as_array()
        .map(|a| a.iter().map(to_python).collect())
        .unwrap_or_default();
    format!("f({})", parts.join(", "))
}

/// The proposer's action text for an example.
pub fn proposal_text(example: &CodeExample) -> String {
    let mut text = format!("```python\n{}```\n", example.program);
    for input in &example.inputs {
        text.push_str(&format!("INPUT: {}\n", call_text(input)));
    }
    if !example.message.is_empty() {
        text.push_str(&format!("MESSAGE: {}\n", example.message));
    }
    text
}
