//! What happened to a candidate, and the host-side comparison that turns it into a verdict.
//!
//! The guest only ever reports "the candidate returned this plain value"; the expected
//! value stays on the host and [`crate::equality::compare_outputs`] decides. Exit codes and printed text
//! are never part of the verdict.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::equality::{Equality, compare_values};

/// One test case: the argument list for the entry point and the value it must return.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestCase {
    /// JSON array of positional arguments (tagged encoding, see the `python` module).
    pub args: Value,
    /// The value the candidate must return (same encoding).
    pub expected: Value,
}

/// What one case of a run produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CaseOutcome {
    /// The entry point returned this plain value.
    Returned(Value),
    /// The candidate raised, trapped, exited (any exit code) or returned a non-plain value.
    RuntimeError(String),
    /// The candidate did not compile / load, or lacks the entry point.
    CompileError(String),
    /// The deterministic fuel budget ran out.
    OutOfFuel,
    /// The memory limit was hit (MemoryError in Python, a refused `memory.grow` in C).
    OutOfMemory,
    /// stdout/stderr or the returned value exceeded `Limits::output_bytes`.
    OutputLimit,
    /// The wall-clock backstop fired (fuel should normally run out first).
    Timeout,
}

/// The verdict for a candidate against a list of test cases. Only `Passed` scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Verdict {
    Passed,
    /// The first case (0-based) whose returned value differs from the expected one.
    WrongAnswer {
        case: usize,
        expected: Value,
        got: Value,
    },
    RuntimeError {
        msg: String,
    },
    OutOfFuel,
    OutOfMemory,
    CompileError {
        msg: String,
    },
    OutputLimit,
    Timeout,
}

impl Verdict {
    /// True only for [`Verdict::Passed`].
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Passed)
    }

    /// The verdict a non-`Returned` outcome at `case` gives; `None` for `Returned`.
    pub(crate) fn from_failure(case: usize, outcome: &CaseOutcome) -> Option<Verdict> {
        Some(match outcome {
            CaseOutcome::Returned(_) => return None,
            CaseOutcome::RuntimeError(msg) => Verdict::RuntimeError {
                msg: format!("case {case}: {msg}"),
            },
            CaseOutcome::CompileError(msg) => Verdict::CompileError { msg: msg.clone() },
            CaseOutcome::OutOfFuel => Verdict::OutOfFuel,
            CaseOutcome::OutOfMemory => Verdict::OutOfMemory,
            CaseOutcome::OutputLimit => Verdict::OutputLimit,
            CaseOutcome::Timeout => Verdict::Timeout,
        })
    }

    /// Judges one case: `None` when it passed, else the verdict for the candidate.
    pub(crate) fn of_case(
        case: usize,
        outcome: &CaseOutcome,
        expected: &Value,
        float_tol: f64,
    ) -> Option<Verdict> {
        Verdict::of_case_by(case, outcome, expected, float_tol, Equality::Exact)
    }

    /// [`Verdict::of_case`] under a comparison policy.
    pub(crate) fn of_case_by(
        case: usize,
        outcome: &CaseOutcome,
        expected: &Value,
        float_tol: f64,
        equality: Equality,
    ) -> Option<Verdict> {
        match outcome {
            CaseOutcome::Returned(got) if compare_values(expected, got, float_tol, equality) => {
                None
            }
            CaseOutcome::Returned(got) => Some(Verdict::WrongAnswer {
                case,
                expected: expected.clone(),
                got: got.clone(),
            }),
            other => Verdict::from_failure(case, other),
        }
    }
}

/// The verdict for already collected outcomes: the first failing case decides.
pub fn judge_outcomes(outcomes: &[CaseOutcome], tests: &[TestCase], float_tol: f64) -> Verdict {
    if outcomes.len() != tests.len() {
        return Verdict::RuntimeError {
            msg: format!("{} outcomes for {} cases", outcomes.len(), tests.len()),
        };
    }
    for (case, (outcome, test)) in outcomes.iter().zip(tests).enumerate() {
        if let Some(verdict) = Verdict::of_case(case, outcome, &test.expected, float_tol) {
            return verdict;
        }
    }
    Verdict::Passed
}

/// What a run produced: one outcome per case, plus the captured (capped) output of the
/// last instance, for display only.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub outcomes: Vec<CaseOutcome>,
    pub stdout: String,
    pub stderr: String,
}

/// Cuts `s` to at most `max` bytes on a char boundary.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equality::compare_outputs;
    use serde_json::json;

    #[test]
    fn type_exact() {
        assert!(compare_outputs(&json!(1), &json!(1), 1e-9));
        assert!(!compare_outputs(&json!(1), &json!(1.0), 1e-9));
        assert!(!compare_outputs(&json!(1), &json!(true), 1e-9));
        assert!(!compare_outputs(&json!(0), &json!(false), 1e-9));
        assert!(!compare_outputs(&json!("1"), &json!(1), 1e-9));
        assert!(!compare_outputs(&json!(null), &json!(0), 1e-9));
        assert!(!compare_outputs(
            &json!([1, 2]),
            &json!({"$tuple": [1, 2]}),
            1e-9
        ));
        assert!(compare_outputs(
            &json!({"$tuple": [1, "a"]}),
            &json!({"$tuple": [1, "a"]}),
            0.0
        ));
        assert!(!compare_outputs(&json!([1, 2]), &json!([1, 2, 3]), 1e-9));
        assert!(!compare_outputs(
            &json!({"a": 1}),
            &json!({"a": 1, "b": 2}),
            1e-9
        ));
        assert!(compare_outputs(
            &json!({"a": 1, "b": [2.0]}),
            &json!({"b": [2.0], "a": 1}),
            0.0
        ));
        assert!(!compare_outputs(
            &json!(-1),
            &json!(18446744073709551615u64),
            0.0
        ));
    }

    #[test]
    fn float_tolerance() {
        assert!(compare_outputs(&json!(0.1 + 0.2), &json!(0.3), 1e-9));
        assert!(!compare_outputs(&json!(0.1 + 0.2), &json!(0.3), 0.0));
        assert!(compare_outputs(&json!(1e12), &json!(1e12 + 1.0), 1e-9));
        assert!(!compare_outputs(&json!(1.0), &json!(1.1), 1e-9));
        assert!(compare_outputs(
            &json!({"$float": "nan"}),
            &json!({"$float": "nan"}),
            0.0
        ));
        assert!(!compare_outputs(
            &json!({"$float": "inf"}),
            &json!(1e308),
            1e-9
        ));
    }

    #[test]
    fn first_failing_case_decides() {
        let tests = vec![
            TestCase {
                args: json!([1]),
                expected: json!(2),
            },
            TestCase {
                args: json!([2]),
                expected: json!(3),
            },
            TestCase {
                args: json!([3]),
                expected: json!(4),
            },
        ];
        let outcomes = vec![
            CaseOutcome::Returned(json!(2)),
            CaseOutcome::Returned(json!(5)),
            CaseOutcome::OutOfFuel,
        ];
        assert_eq!(
            judge_outcomes(&outcomes, &tests, 0.0),
            Verdict::WrongAnswer {
                case: 1,
                expected: json!(3),
                got: json!(5)
            }
        );
        assert!(!judge_outcomes(&outcomes[..1], &tests, 0.0).passed());
    }
}
