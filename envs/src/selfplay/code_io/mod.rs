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

use super::buffer::Proposal;
use super::pyliteral::to_python;
use super::{Ledger, MAX_SOLVER_SAMPLES, PROPOSER, with_fields};
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
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

#[derive(Clone, Debug)]
pub struct CodeIo {
    task: CodeIoTask,
    ledger: Ledger,
    proposal: Option<CodeExample>,
}

impl CodeIo {
    /// The validated proposal, once there is one.
    pub fn proposal(&self) -> Option<&CodeExample> {
        self.proposal.as_ref()
    }

    fn proposer_text(&self) -> String {
        let t = &self.task;
        let goal = match t.task_type {
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
            t.task_type,
            t.inputs_required,
            t.solver_samples,
            super::validate::ALLOWED_MODULES.join(", ")
        );
        for (i, r) in t.references.iter().enumerate() {
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

    fn solver_text(&self, p: &CodeExample) -> String {
        let t = &self.task;
        let head = format!(
            "You are the solver (attempt {} of {}).",
            self.ledger.attempts.len() + 1,
            t.solver_samples
        );
        match t.task_type {
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
                    .take(t.visible_pairs)
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
}

impl Env for CodeIo {
    type Config = CodeIoConfig;
    type Task = CodeIoTask;
    type Action = String;

    const SPEC: EnvSpec = EnvSpec {
        id: "selfplay/code-io-v1",
        kind: EnvKind::Game,
        description: "Propose-and-solve self-play on Python functions: deduction, abduction, induction; learnability reward; WASM sandbox",
        players: 2,
        max_steps: 1 + MAX_SOLVER_SAMPLES,
        reward_range: (-1.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(LEVELS, [1, 2, 3]),
    };

    const LEVELS: &'static [&'static str] = LEVELS;

    fn effort(task: &CodeIoTask) -> Option<f64> {
        // Elementwise steps of the scripted program over its input, per pair to explain.
        Some(((task.stages + 1) * task.list_len) as f64)
    }

    fn validate(c: &CodeIoConfig) -> Result<(), ConfigError> {
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
        let references: Vec<CodeExample> = if c.reference_pool.is_empty() {
            (0..c.references)
                .map(|_| generated_example(c.stages, c.list_len, 1, rng))
                .collect()
        } else {
            let mut pool = c.reference_pool.clone();
            rng.shuffle(&mut pool);
            pool.into_iter().take(c.references).collect()
        };
        let scripted = loop {
            let example = generated_example(c.stages, c.list_len, inputs_required, rng);
            if !references.iter().any(|r| r.key() == example.key()) {
                break example;
            }
        };
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

    fn reset(task: &CodeIoTask, _rng: Rng) -> Self {
        CodeIo {
            task: task.clone(),
            ledger: Ledger::new(task.solver_samples, task.invalid_penalty),
            proposal: None,
        }
    }

    fn turn(&self) -> Turn {
        self.ledger.turn()
    }

    fn observe(&self, player: Player) -> Observation {
        let text = match (self.ledger.turn(), &self.proposal) {
            (Turn::Player(PROPOSER), _) => self.proposer_text(),
            (Turn::Over, _) => self.render(),
            (_, Some(p)) => self.solver_text(p),
            (_, None) => "Waiting for the proposer.".into(),
        };
        let visible_proposal = self.proposal.as_ref().map(|p| match self.task.task_type {
            TaskType::Deduction => json!({"program": p.program, "input": p.inputs[0]}),
            TaskType::Abduction => json!({"program": p.program, "output": p.outputs[0]}),
            TaskType::Induction => json!({
                "pairs": p.inputs.iter().zip(&p.outputs).take(self.task.visible_pairs)
                    .map(|(i, o)| json!({"input": i, "output": o})).collect::<Vec<_>>(),
                "message": p.message,
            }),
        });
        let own = json!({
            "task_type": self.task.task_type,
            "inputs_required": self.task.inputs_required,
            "references": if player == PROPOSER { json!(self.task.references) } else { Value::Null },
            "proposal": visible_proposal,
        });
        Observation {
            text,
            structured: with_fields(self.ledger.structured(player), own),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        Ok(text.to_string())
    }

    fn apply(&mut self, player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        if player == PROPOSER {
            let valid = format!("valid {:?} proposal", self.task.task_type);
            let verdict = validate_proposal(&self.task, &action);
            return Ok(self
                .ledger
                .record_proposal(&mut self.proposal, verdict, valid));
        }
        let proposal = self
            .proposal
            .as_ref()
            .ok_or_else(|| InvalidAction::new("no proposal to solve yet"))?;
        let (ok, note) = verify_answer(self.task.task_type, proposal, &action);
        Ok(self.ledger.record_attempt(ok, &note))
    }

    fn score(&self, player: Player) -> Score {
        self.ledger.score(player)
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if player == PROPOSER {
            return Some(proposal_text(&self.task.scripted));
        }
        let p = self.proposal.as_ref()?;
        Some(match self.task.task_type {
            TaskType::Deduction => format!("```python\n{}\n```", to_python(&p.outputs[0])),
            TaskType::Abduction => format!("```python\n{}\n```", call_text(&p.inputs[0])),
            TaskType::Induction => format!("```python\n{}```", p.program),
        })
    }

    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        if player == PROPOSER {
            let t = &self.task;
            return proposal_text(&generated_example(
                t.stages,
                t.list_len,
                t.inputs_required,
                rng,
            ));
        }
        let n = rng.range_i64(-20, 20);
        match self.task.task_type {
            TaskType::Induction => format!("```python\ndef f(*args):\n    return {n}\n```"),
            _ => format!("```python\n{n}\n```"),
        }
    }

    fn render(&self) -> String {
        let proposer = self.ledger.proposer_score();
        format!(
            "selfplay/code-io {:?}: proposal {}; solver attempts {:?}; proposer reward {:.3}",
            self.task.task_type,
            match &self.ledger.proposal {
                None => "pending".to_string(),
                Some(Ok(())) => "valid".to_string(),
                Some(Err(r)) => format!("invalid ({}: {})", r.code, r.reason),
            },
            self.ledger.attempts,
            proposer.reward
        )
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
