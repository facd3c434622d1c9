//! What an import did: the [`Summary`] (rows read, cards kept, drops counted by reason,
//! each dropped row with its row number, physical line and reason) and the
//! [`DropReason`]s. Every row read is either kept or dropped with a reason:
//! `rows == kept + dropped`, nothing is lost silently.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::weak_tests::RowMutants;

/// Why one row gave no card.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DropReason {
    #[error("line is not JSON: {0}")]
    NotJson(String),
    #[error("missing field `{0}`")]
    MissingField(String),
    #[error("field `{0}`: {1}")]
    BadField(String, String),
    #[error("gold answer `{0}` is not read back by the math verifier")]
    UnreadableAnswer(String),
    #[error("no tests")]
    NoTests,
    #[error("asserts are not plain calls compared to literals: {0}")]
    NonPlainAssert(String),
    #[error("language `{0}` is not run by the sandbox (python, c, cpp)")]
    Language(String),
    #[error("duplicate of row {0} (same normalised prompt and answer or tests)")]
    Duplicate(u64),
    #[error(
        "same normalised prompt as row {0} but a different answer or tests: the data set contradicts itself; fix or remove one of them"
    )]
    ConflictingDuplicate(u64),
    #[error("reference solution fails its tests: {0}")]
    ReferenceFailed(String),
    #[error("reference solution runs out of time: {0}")]
    ReferenceTimeout(String),
    #[error(
        "a trivial program passes every test ({0}): the tests do not tell right from wrong; strengthen them, or keep the row with --keep-weak"
    )]
    WeakTests(String),
    #[error(
        "the importer failed on this row ({0}); the other rows were imported; please report this row"
    )]
    Internal(String),
}

impl DropReason {
    /// The summary's key for this reason.
    pub fn kind(&self) -> &'static str {
        match self {
            DropReason::NotJson(_) => "not_json",
            DropReason::MissingField(_) => "missing_field",
            DropReason::BadField(..) => "bad_field",
            DropReason::UnreadableAnswer(_) => "unreadable_answer",
            DropReason::NoTests => "no_tests",
            DropReason::NonPlainAssert(_) => "non_plain_assert",
            DropReason::Language(_) => "language",
            DropReason::Duplicate(_) => "duplicate",
            DropReason::ConflictingDuplicate(_) => "conflicting_duplicate",
            DropReason::ReferenceFailed(_) => "reference_failed",
            DropReason::ReferenceTimeout(_) => "reference_timeout",
            DropReason::WeakTests(_) => "weak_tests",
            DropReason::Internal(_) => "internal_error",
        }
    }
}

/// A row kept although a trivial program passes its tests.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeakRow {
    pub row: u64,
    /// What the program does (`echoing the input`).
    pub program: String,
}

/// One dropped row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dropped {
    /// 0-based row number (blank lines are not rows).
    pub row: u64,
    /// 1-based physical line of a JSONL file (blank lines counted); absent for JSON
    /// arrays, Parquet and rows handed over in memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub kind: &'static str,
    pub reason: String,
}

/// What an import did: rows read, cards kept, drops by kind with each row's reason, and
/// reference solutions that could not be run (kept, unverified).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    pub file: String,
    pub layout: String,
    pub rows: u64,
    pub kept: u64,
    pub dropped: BTreeMap<&'static str, u64>,
    pub references_checked: u64,
    pub unverified: Vec<String>,
    /// Code rows with more tests than [`Options::max_tests`](crate::Options::max_tests):
    /// each card keeps a sample and records it (`sampled`).
    pub sampled: Vec<u64>,
    /// Rows kept with `keep_weak` although a trivial program passes their tests.
    pub weak: Vec<WeakRow>,
    /// Rows kept without the weak-tests check: the sandbox gave no verdict on the
    /// trivial programs (`row N: why`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weak_unchecked: Vec<String>,
    pub drops: Vec<Dropped>,
    /// With [`Options::mutants`]: per kept code row with a reference, how many of its
    /// mutants ran and how many passed every test (weak tests when any did).
    pub mutants: Vec<RowMutants>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dropped: u64 = self.dropped.values().sum();
        writeln!(
            f,
            "{} ({}): {} rows, {} kept, {} dropped; {} reference solutions run",
            self.file, self.layout, self.rows, self.kept, dropped, self.references_checked
        )?;
        for (kind, n) in &self.dropped {
            writeln!(f, "  dropped {n:>6}  {kind}")?;
        }
        for d in self.drops.iter().take(20) {
            match d.line {
                Some(line) => writeln!(f, "  row {} (line {line}): {}", d.row, d.reason)?,
                None => writeln!(f, "  row {}: {}", d.row, d.reason)?,
            }
        }
        if self.drops.len() > 20 {
            writeln!(f, "  … {} more (see --report)", self.drops.len() - 20)?;
        }
        let weak: Vec<&RowMutants> = self.mutants.iter().filter(|m| m.survived > 0).collect();
        if !self.mutants.is_empty() {
            let ran: usize = self.mutants.iter().map(|m| m.ran).sum();
            let survived: usize = self.mutants.iter().map(|m| m.survived).sum();
            writeln!(
                f,
                "  mutants: {} rows checked, {ran} mutants run, {survived} survived; rows with weak tests: {}",
                self.mutants.len(),
                weak.len()
            )?;
            for m in weak.iter().take(20) {
                let example = m.example.as_deref().unwrap_or("");
                writeln!(
                    f,
                    "  row {}: {} of {} mutants pass every test, e.g. {example}",
                    m.row, m.survived, m.ran
                )?;
            }
        }
        for w in self.weak.iter().take(20) {
            writeln!(
                f,
                "  row {}: kept with --keep-weak, but {} passes every test",
                w.row, w.program
            )?;
        }
        if !self.sampled.is_empty() {
            writeln!(
                f,
                "  {} rows had more tests than the cap: a deterministic sample kept (recorded in each card's `sampled`), e.g. row {}",
                self.sampled.len(),
                self.sampled[0]
            )?;
        }
        if !self.weak_unchecked.is_empty() {
            writeln!(
                f,
                "  weak-tests check skipped for {} rows (the sandbox gave no verdict; run `sandbox/setup.sh` and import again): {}",
                self.weak_unchecked.len(),
                self.weak_unchecked[0]
            )?;
        }
        if !self.unverified.is_empty() {
            writeln!(
                f,
                "  {} reference solutions not run: {}",
                self.unverified.len(),
                self.unverified[0]
            )?;
        }
        Ok(())
    }
}

impl Summary {
    /// Rows dropped, all reasons together.
    pub fn dropped_count(&self) -> u64 {
        self.dropped.values().sum()
    }

    pub(crate) fn drop_row(&mut self, row: u64, line: Option<u64>, reason: &DropReason) {
        *self.dropped.entry(reason.kind()).or_default() += 1;
        self.drops.push(Dropped {
            row,
            line,
            kind: reason.kind(),
            reason: reason.to_string(),
        });
    }
}
