//! `selfplay/code-io-v1`: propose a Python function and inputs; solve by deduction,
//! abduction or induction. Everything model-written runs only in the WASM sandbox.
//!
//! # Task
//! The task type (from `task_types`, uniform by seed), reference examples for the
//! proposer (a program, an input and its output: drawn from `reference_pool` when the
//! config has one, else generated from the seed by `programs`), and the scripted
//! proposal the oracle proposer plays.
//!
//! # Action
//! - Proposer (player 0): a ```` ```python ```` block defining `f`, then one
//!   `INPUT: f(...)` line per required input (1 for deduction and abduction,
//!   `induction_visible + induction_hidden` for induction) and optionally `MESSAGE: ...`
//!   (shown to the solver in induction). Any text is accepted; an invalid proposal ends
//!   the episode with the penalty.
//! - Solver (player 1), `solver_samples` times: deduction: the output as a Python literal;
//!   abduction: an argument list `f(...)` that makes `f` return the shown output;
//!   induction: a program `f` (in a ```` ```python ```` block) that reproduces the pairs.
//!
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The proposer sees the task type, the instructions and the reference examples; the
//! solver sees what its task type shows (deduction: `f` and an input; abduction: `f` and
//! an output; induction: the visible pairs and the proposer's message) and its attempt
//! number, never the hidden pairs or the other attempts.
//!
//! # Validation of a proposal
//! A fenced program under 4,000 bytes; the required number of inputs, each a Python
//! literal argument list; not a copy of a reference example (normalised source); a
//! static check in the sandbox (parses, defines `f`, imports only the allowed modules,
//! no `eval`/`exec`/`__import__`/private attributes); then `f` runs on every input twice
//! in one instance within fuel and memory, returns plain values
//! (None/bool/int/float/str/list/tuple/dict of exact built-in types) of at most 2,000
//! bytes, the same both times.
//!
//! # Verification of an attempt
//! Deduction: the literal is parsed on the host and compared type-exactly (floats within
//! 1e-9). Abduction: `f` runs on the solver's arguments in the sandbox; its value is
//! compared on the host. Induction: the solver's program is judged in the sandbox on all
//! of the proposer's pairs (the hidden ones included), expected values on the host.
//!
//! # Reward
//! See [`super`]: solver `1/N` per verified attempt; proposer learnability `1 - rate`
//! (0 at rates 0 and 1); `-invalid_penalty` (default 0.5) for an invalid proposal.
//!
//! # Episode end
//! After an invalid proposal, or after the solver's `solver_samples`-th attempt.
//!
//! # Parameters
//! `task_types`, `solver_samples` (1–16), `references` (0–8), `stages` (1–8),
//! `list_len` (1–16), `induction_visible` (1–8), `induction_hidden` (1–16),
//! `invalid_penalty` (0–1), `reference_pool`.
//!
//! # Seeding
//! The seed picks the task type and draws the reference examples (or picks them from
//! `reference_pool`) and the oracle's scripted proposal.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::episode::{EPISODE_SPEC, ProposeSolve, ProposeSolveEnv, draw_fresh, draw_references};
use super::pyliteral::to_python;
use super::{MAX_SOLVER_SAMPLES, PROPOSER, Rejection};
use crate::core::{EnvSpec, Player, Preset};
use crate::error::ConfigError;
use crate::rng::Rng;

mod task;
mod verify;

pub use task::{CodeExample, CodeIoTask, TaskType, call_text, proposal_text};

use task::generated_example;
pub use verify::{validate_proposal, verify_answer};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CodeIoConfig {
    /// Task types drawn from (uniformly by seed).
    pub task_types: Vec<TaskType>,
    /// Solver attempts per proposal (1–16): the N of the learnability estimate.
    pub solver_samples: usize,
    /// Reference examples shown to the proposer (0–8).
    pub references: usize,
    /// Pipeline stages of generated programs (1–8): reference and scripted programs.
    pub stages: usize,
    /// Length of generated input lists (1–16).
    pub list_len: usize,
    /// Induction: pairs the solver sees (1–8) and hidden pairs it is also judged on (1–16).
    pub induction_visible: usize,
    pub induction_hidden: usize,
    /// Subtracted from the proposer's reward for an invalid proposal (0–1).
    pub invalid_penalty: f64,
    /// Validated proposals (e.g. from a [`super::buffer::TaskBuffer`]) to draw reference
    /// examples from instead of generating them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reference_pool: Vec<CodeExample>,
}

impl Default for CodeIoConfig {
    fn default() -> Self {
        CodeIoConfig {
            task_types: vec![
                TaskType::Deduction,
                TaskType::Abduction,
                TaskType::Induction,
            ],
            solver_samples: 4,
            references: 3,
            stages: 3,
            list_len: 8,
            induction_visible: 3,
            induction_hidden: 5,
            invalid_penalty: 0.5,
            reference_pool: Vec::new(),
        }
    }
}

/// `selfplay/code-io-v1`: the shared propose-then-solve episode on Python functions.
pub type CodeIo = ProposeSolveEnv<CodeIoTask>;

impl ProposeSolve for CodeIoTask {
    type Config = CodeIoConfig;
    type Proposal = CodeExample;

    const SPEC: EnvSpec = EnvSpec {
        id: "selfplay/code-io-v1",
        description: "Propose-and-solve self-play on Python functions: deduction, abduction, induction; learnability reward; WASM sandbox",
        presets: &Preset::graded(LEVELS, [1, 2, 3]),
        ..EPISODE_SPEC
    };

    const LEVELS: &'static [&'static str] = LEVELS;

    fn effort(&self) -> Option<f64> {
        // Elementwise steps of the scripted program over its input, per pair to explain.
        Some(((self.stages + 1) * self.list_len) as f64)
    }

    fn validate_config(c: &CodeIoConfig) -> Result<(), ConfigError> {
        let checks = [
            (
                !c.task_types.is_empty(),
                "task_types must name at least one task type",
            ),
            (
                (1..=MAX_SOLVER_SAMPLES).contains(&c.solver_samples),
                "solver_samples must be 1..=16",
            ),
            (c.references <= 8, "references must be 0..=8"),
            ((1..=8).contains(&c.stages), "stages must be 1..=8"),
            ((1..=16).contains(&c.list_len), "list_len must be 1..=16"),
            (
                (1..=8).contains(&c.induction_visible),
                "induction_visible must be 1..=8",
            ),
            (
                (1..=16).contains(&c.induction_hidden),
                "induction_hidden must be 1..=16",
            ),
            (
                (0.0..=1.0).contains(&c.invalid_penalty),
                "invalid_penalty must be 0..=1",
            ),
        ];
        match checks.iter().find(|(ok, _)| !ok) {
            Some((_, message)) => Err((*message).into()),
            None => Ok(()),
        }
    }

    fn generate(c: &CodeIoConfig, rng: &mut Rng) -> CodeIoTask {
        let task_type = *rng.choose(&c.task_types).unwrap_or(&TaskType::Deduction);
        let inputs_required = match task_type {
            TaskType::Induction => c.induction_visible + c.induction_hidden,
            _ => 1,
        };
        let references = draw_references(&c.reference_pool, c.references, rng, |rng| {
            generated_example(c.stages, c.list_len, 1, rng)
        });
        let scripted = draw_fresh(&references, rng, |rng| {
            generated_example(c.stages, c.list_len, inputs_required, rng)
        });
        CodeIoTask {
            task_type,
            solver_samples: c.solver_samples,
            inputs_required,
            visible_pairs: c.induction_visible.min(inputs_required),
            invalid_penalty: c.invalid_penalty,
            stages: c.stages,
            list_len: c.list_len,
            references,
            scripted,
        }
    }

    fn solver_samples(&self) -> usize {
        self.solver_samples
    }

    fn invalid_penalty(&self) -> f64 {
        self.invalid_penalty
    }

    fn render_name(&self) -> String {
        format!("selfplay/code-io {:?}", self.task_type)
    }

    fn proposer_prompt(&self) -> String {
        let goal = match self.task_type {
            TaskType::Deduction => {
                "the solver will be shown f and your input and must predict the output"
            }
            TaskType::Abduction => {
                "the solver will be shown f and its output on your input and must find an input that gives it"
            }
            TaskType::Induction => {
                "the solver will see some of your input/output pairs and your message, and must write f; it is judged on all pairs, the hidden ones too"
            }
        };
        let mut text = format!(
            "You are the proposer in a propose-and-solve game ({:?}). Write a Python function f \
             and {} input(s): {goal}. Your reward is high when the solver succeeds on some \
             but not all of its {} attempts.\n\nRules: f must be deterministic, return a plain \
             value (None/bool/int/float/str/list/tuple/dict), finish quickly, and import only: \
             {}. No eval/exec/open/__import__ or private attributes.\n",
            self.task_type,
            self.inputs_required,
            self.solver_samples,
            super::validate::ALLOWED_MODULES.join(", ")
        );
        for (i, r) in self.references.iter().enumerate() {
            text.push_str(&format!(
                "\nReference example {i}:\n```python\n{}```\n{} == {}\n",
                r.program,
                call_text(&r.inputs[0]),
                to_python(&r.outputs[0])
            ));
        }
        text.push_str(
            "\nReply with f in a ```python block, then one `INPUT: f(...)` line per input \
             and optionally `MESSAGE: ...` (a hint shown to the solver in induction).",
        );
        text
    }

    fn solver_prompt(&self, p: &CodeExample, head: &str) -> String {
        match self.task_type {
            TaskType::Deduction => format!(
                "{head} Predict the exact value of {} for this function:\n```python\n{}```\n\
                 Reply with the value as a Python literal in a ```python block.",
                call_text(&p.inputs[0]),
                p.program
            ),
            TaskType::Abduction => format!(
                "{head} Find an input for which this function returns {}:\n```python\n{}```\n\
                 Reply with the call `f(...)` in a ```python block.",
                to_python(&p.outputs[0]),
                p.program
            ),
            TaskType::Induction => {
                let pairs: String = p
                    .inputs
                    .iter()
                    .zip(&p.outputs)
                    .take(self.visible_pairs)
                    .map(|(i, o)| format!("    {} == {}\n", call_text(i), to_python(o)))
                    .collect();
                format!(
                    "{head} Write a Python function f consistent with these examples; it is \
                     also checked on hidden inputs.\n{pairs}Message from the proposer: {}\n\
                     Reply with f in a ```python block.",
                    if p.message.is_empty() {
                        "(none)"
                    } else {
                        &p.message
                    }
                )
            }
        }
    }

    fn fields(&self, proposal: Option<&CodeExample>, player: Player) -> Value {
        let visible_proposal = proposal.map(|p| match self.task_type {
            TaskType::Deduction => json!({"program": p.program, "input": p.inputs[0]}),
            TaskType::Abduction => json!({"program": p.program, "output": p.outputs[0]}),
            TaskType::Induction => json!({
                "pairs": p.inputs.iter().zip(&p.outputs).take(self.visible_pairs)
                    .map(|(i, o)| json!({"input": i, "output": o})).collect::<Vec<_>>(),
                "message": p.message,
            }),
        });
        json!({
            "task_type": self.task_type,
            "inputs_required": self.inputs_required,
            "references": if player == PROPOSER { json!(self.references) } else { Value::Null },
            "proposal": visible_proposal,
        })
    }

    fn check_proposal(&self, text: &str) -> Result<CodeExample, Rejection> {
        validate_proposal(self, text)
    }

    fn valid_event(&self, _proposal: &CodeExample) -> String {
        format!("valid {:?} proposal", self.task_type)
    }

    fn grade(
        &self,
        proposal: &CodeExample,
        answer: &str,
        _prompt: impl FnOnce() -> String,
    ) -> (Option<bool>, String) {
        verify_answer(self.task_type, proposal, answer)
    }

    fn scripted_proposal(&self) -> String {
        proposal_text(&self.scripted)
    }

    fn solution(&self, p: &CodeExample) -> String {
        match self.task_type {
            TaskType::Deduction => format!("```python\n{}\n```", to_python(&p.outputs[0])),
            TaskType::Abduction => format!("```python\n{}\n```", call_text(&p.inputs[0])),
            TaskType::Induction => format!("```python\n{}```", p.program),
        }
    }

    fn random_action(
        &self,
        _proposal: Option<&CodeExample>,
        player: Player,
        rng: &mut Rng,
    ) -> String {
        if player == PROPOSER {
            return proposal_text(&generated_example(
                self.stages,
                self.list_len,
                self.inputs_required,
                rng,
            ));
        }
        let n = rng.range_i64(-20, 20);
        match self.task_type {
            TaskType::Induction => format!("```python\ndef f(*args):\n    return {n}\n```"),
            _ => format!("```python\n{n}\n```"),
        }
    }
}

/// The difficulty scale: program stages, input length and hidden induction pairs.
const LEVELS: &[&str] = &[
    r#"{"stages":1,"list_len":4,"induction_hidden":3}"#,
    r#"{"stages":2,"list_len":6,"induction_hidden":4}"#,
    "{}",
    r#"{"stages":4,"list_len":10,"induction_hidden":6}"#,
    r#"{"stages":6,"list_len":12,"induction_hidden":8}"#,
];
