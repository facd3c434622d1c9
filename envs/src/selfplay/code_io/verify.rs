//! Checking both seats of `selfplay/code-io`: a proposal (its format here,
//! then the sandbox checks of [`crate::selfplay::validate`]) and a solver's
//! answer (on the host for deduction, in the sandbox for abduction and
//! induction).

use serde_json::Value;
use verigym_sandbox::{CaseOutcome, Limits, TestCase, compare_outputs};

use super::task::{CodeExample, CodeIoTask, TaskType};
use crate::sandboxed::{SandboxedError, extract_code_visible, judged_event, python};
use crate::selfplay::buffer::Proposal;
use crate::selfplay::pyliteral::{parse_args, parse_literal};
use crate::selfplay::validate::{check_source, proposal_limits, run_proposal};
use crate::selfplay::{Rejection, field, fields};

/// Budgets for a solver's induction program: about 0.1 s of CPython work per case.
pub(crate) fn solver_limits() -> Limits {
    Limits {
        fuel: 200_000_000,
        ..proposal_limits()
    }
}

/// Reads and validates a proposal for `task`: the format here, then the sandbox checks.
///
/// # Errors
/// The [`Rejection`] with its reason.
pub fn validate_proposal(task: &CodeIoTask, text: &str) -> Result<CodeExample, Rejection> {
    let (program, fenced) = extract_code_visible(text);
    if !fenced {
        return Err(Rejection::new(
            "format",
            "no ```python block: put `def f(...)` in one, then one `INPUT: f(...)` line per input",
        ));
    }
    let outside: String = text.split("```").step_by(2).collect::<Vec<_>>().join("\n");
    let inputs: Vec<Value> = fields(&outside, "input")
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            parse_args(line).map_err(|e| Rejection::new("format", format!("INPUT {i}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if inputs.len() != task.inputs_required {
        return Err(Rejection::new(
            "format",
            format!(
                "{} INPUT lines, {} required: one `INPUT: f(...)` line per input, after the code block",
                inputs.len(),
                task.inputs_required
            ),
        ));
    }
    let message = field(&outside, "message").unwrap_or_default().to_string();
    let mut proposal = CodeExample {
        program,
        inputs,
        outputs: Vec::new(),
        message,
    };
    if let Some(i) = task
        .references
        .iter()
        .position(|r| r.key() == proposal.key())
    {
        return Err(Rejection::new(
            "copy",
            format!("the program copies reference example {i}: propose a new one"),
        ));
    }
    check_source(&proposal.program)?;
    proposal.outputs = run_proposal(&proposal.program, &proposal.inputs)?;
    Ok(proposal)
}

/// Verifies one solver answer against a validated proposal: `Some(verified)`, or `None`
/// when the sandbox or the host failed (no verdict); the note says why.
/// Induction is judged on every pair, the visible ones included.
pub fn verify_answer(
    task_type: TaskType,
    proposal: &CodeExample,
    answer: &str,
) -> (Option<bool>, String) {
    let (text, _) = extract_code_visible(answer);
    match task_type {
        TaskType::Deduction => match parse_literal(text.trim()) {
            Ok(got) if compare_outputs(&proposal.outputs[0], &got, 1e-9) => {
                (Some(true), "the predicted output is right".into())
            }
            Ok(_) => (Some(false), "wrong output".into()),
            Err(e) => (Some(false), format!("not a Python literal: {e}")),
        },
        TaskType::Abduction => {
            let args = match parse_args(&text) {
                Ok(args) => args,
                Err(e) => return (Some(false), format!("not an argument list: {e}")),
            };
            let report = python().and_then(|py| {
                py.run_cases(&proposal.program, "f", &[args], &proposal_limits())
                    .map_err(SandboxedError::run)
            });
            match report.as_ref().map(|r| r.outcomes.first()) {
                Ok(Some(CaseOutcome::Returned(got)))
                    if compare_outputs(&proposal.outputs[0], got, 1e-9) =>
                {
                    (Some(true), "f returns the target output on it".into())
                }
                Ok(Some(CaseOutcome::Returned(_))) => {
                    (Some(false), "f returns another output".into())
                }
                Ok(other) => (Some(false), format!("f fails on it: {other:?}")),
                Err(e) => (None, e.to_string()),
            }
        }
        TaskType::Induction => {
            let tests: Vec<TestCase> = proposal
                .inputs
                .iter()
                .zip(&proposal.outputs)
                .map(|(args, expected)| TestCase {
                    args: args.clone(),
                    expected: expected.clone(),
                })
                .collect();
            let judged = python().and_then(|py| {
                py.judge(&text, "f", &tests, &solver_limits(), 1e-9)
                    .map_err(SandboxedError::run)
            });
            let verdict = judged.as_ref().ok().map(|v| v.passed());
            (verdict, judged_event(&judged))
        }
    }
}
