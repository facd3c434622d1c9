//! How well a row's tests tell wrong programs from right ones: mutants of the row's
//! reference solution (a constant ±1, a comparison or arithmetic operator swapped, a loop
//! bound off by one: [`verigym_envs::code::mutants`]) are judged on the row's tests, and
//! the ones that pass are counted. A row whose tests let mutants through rewards some
//! wrong programs; the import summary names such rows so users can drop or strengthen
//! them before training (`verigym import --mutants`).

use serde::Serialize;
use verigym_envs::code::dataset::{CodeRow, judge, language_of};
use verigym_envs::code::mutants::check_mutants_at_most;
use verigym_sandbox::Verdict;

/// Mutants judged per row at most (evenly spaced over all of the reference's mutants):
/// each is a full run of the row's tests in the sandbox.
pub const MUTANTS_PER_ROW: usize = 24;

/// One row's mutation result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowMutants {
    pub row: u64,
    /// Mutants run on the row's tests (mutants that do not compile are not counted).
    pub ran: usize,
    /// Mutants that passed every test.
    pub survived: usize,
    /// The first survivor: where and how it differs from the reference.
    pub example: Option<String>,
}

/// Runs the mutants of `reference` on `task`'s tests.
///
/// # Errors
/// No verdict: the language is not run here, the sandbox failed, or the reference
/// itself does not pass (the importer drops such rows before asking).
pub fn check_row(row: u64, task: &CodeRow, reference: &str) -> Result<RowMutants, String> {
    let language = language_of(task).map_err(|e| e.to_string())?;
    let report = check_mutants_at_most(language, reference, MUTANTS_PER_ROW, |src| {
        let outcome = judge(task, src)?;
        Ok(match outcome.failure {
            None if outcome.passed() => Verdict::Passed,
            Some("compile_error") => Verdict::CompileError { msg: outcome.note },
            // Any other failure kills the mutant; its kind does not matter here, but a
            // Python syntax error must read as one (a stillborn mutant, not a kill).
            _ => Verdict::RuntimeError { msg: outcome.note },
        })
    })
    .map_err(|e| e.to_string())?;
    Ok(RowMutants {
        row,
        ran: report.killed + report.survivors.len(),
        survived: report.survivors.len(),
        example: report.survivors.first().map(ToString::to_string),
    })
}
