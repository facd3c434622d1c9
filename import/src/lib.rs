//! Bring your own dataset: rows of the data sets RL recipes train on, turned into task
//! cards of `math/dataset-v1` and `code/dataset-v2`.
//!
//! ```no_run
//! use serde_json::json;
//! use verigym_import::{Layout, Options, import_rows};
//!
//! let rows = vec![json!({"question": "2 + 2?", "answer": "2 + 2 = 4\n#### 4"})];
//! let imported = import_rows(rows.into_iter().map(Ok), &Layout::Gsm8k, &Options::new("mine.jsonl"));
//! assert_eq!(imported.cards.len(), 1);
//! println!("{}", imported.summary);
//! ```
//!
//! Every row gives one card, in input order, or a [`Dropped`] entry with its reason (a
//! missing or malformed field, a gold answer the verifier cannot read, no tests, asserts
//! that are not plain, a duplicate prompt, a reference solution that fails its tests,
//! tests that a trivial program passes ([`trivial`]), a hostile or malformed pickle):
//! nothing is lost silently, and one row's failure, whatever it is, is that row's drop.
//! A code row keeps at most [`Options::max_tests`] tests, a recorded sample ([`sample`]). Each card's task carries the row and its source
//! (`file`, `layout`, `row`, `row_hash`). Layouts and their field names are in
//! [`math_layouts`] and [`code_layouts`]; [`read`] reads JSONL (optionally gzipped) and,
//! with the `parquet` feature, Parquet files.

pub mod asserts;
pub mod code_layouts;
pub mod error;
pub mod math_layouts;
pub mod pickle;
pub mod read;
pub mod report;
pub mod row;
pub mod sample;
pub mod trivial;
pub mod weak_tests;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use row::field;
use serde_json::{Value, json};
use verigym_envs::code::dataset::{CodeRow, judge};
use verigym_envs::dataset::{Source, row_hash, seed_of};
use verigym_envs::math::dataset::MathRow;
use verigym_envs::single_turn::boxed;
use verigym_envs::{DynEnv, Registry, TaskCard};
use weak_tests::RowMutants;

pub use error::ImportError;
pub use report::{DropReason, Dropped, Summary};

/// A data set's row layout (see the module tables of [`math_layouts`] and
/// [`code_layouts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Gsm8k,
    Math,
    Deepmath,
    Verl,
    Generic,
    MultipleChoice,
    Apps,
    Taco,
    Codecontests,
    Livecodebench,
    Mbpp,
    Humaneval,
}

impl Layout {
    pub const NAMES: [&'static str; 12] = [
        "gsm8k",
        "math",
        "deepmath",
        "verl",
        "generic",
        "multiple-choice",
        "apps",
        "taco",
        "codecontests",
        "livecodebench",
        "mbpp",
        "humaneval",
    ];

    /// Every layout, in the order of [`Layout::NAMES`].
    pub const ALL: [Layout; 12] = [
        Layout::Gsm8k,
        Layout::Math,
        Layout::Deepmath,
        Layout::Verl,
        Layout::Generic,
        Layout::MultipleChoice,
        Layout::Apps,
        Layout::Taco,
        Layout::Codecontests,
        Layout::Livecodebench,
        Layout::Mbpp,
        Layout::Humaneval,
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl FromStr for Layout {
    type Err = ImportError;

    fn from_str(name: &str) -> Result<Layout, ImportError> {
        let wanted = name.trim().to_ascii_lowercase().replace('_', "-");
        Layout::ALL
            .into_iter()
            .find(|l| l.name() == wanted || (wanted == "mc" && *l == Layout::MultipleChoice))
            .ok_or_else(|| ImportError::UnknownLayout(name.to_string()))
    }
}

/// How to import.
#[derive(Clone, Debug)]
pub struct Options {
    /// The name recorded in each card's source.
    pub file: String,
    /// `(ours, theirs)`: the row's field `theirs` is read as `ours`.
    pub map: Vec<(String, String)>,
    /// Run each row's reference solution in the sandbox and drop rows whose reference
    /// fails or runs out of time.
    pub validate: bool,
    /// Also run mutants of each validated reference on the row's tests and report the
    /// survivors ([`weak_tests`]; up to [`weak_tests::MUTANTS_PER_ROW`] runs per row).
    pub mutants: bool,
    /// Tests kept per code row at most (0: all); a row with more keeps a deterministic
    /// sample, recorded in its card ([`sample`]). Default [`sample::DEFAULT_MAX_TESTS`].
    pub max_tests: usize,
    /// Keep rows whose tests a trivial program passes ([`trivial`]), listed in the
    /// summary's `weak`, instead of dropping them. Checked only with `validate` (it runs
    /// the sandbox).
    pub keep_weak: bool,
}

impl Options {
    pub fn new(file: &str) -> Options {
        Options {
            file: file.to_string(),
            map: Vec::new(),
            validate: true,
            mutants: false,
            max_tests: sample::DEFAULT_MAX_TESTS,
            keep_weak: false,
        }
    }
}

/// Parses `prompt=question,answer=final_answer`.
///
/// # Errors
/// [`ImportError::BadMap`] for a pair without `=` or with an empty side.
pub fn parse_map(text: &str) -> Result<Vec<(String, String)>, ImportError> {
    text.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((ours, theirs)) if !ours.trim().is_empty() && !theirs.trim().is_empty() => {
                Ok((ours.trim().to_string(), theirs.trim().to_string()))
            }
            _ => Err(ImportError::BadMap(pair.to_string())),
        })
        .collect()
}

enum Parsed {
    Math(MathRow),
    Code(CodeRow),
}

fn parse_row(row: &Value, layout: Layout) -> Result<Parsed, DropReason> {
    use Layout::*;
    Ok(match layout {
        Gsm8k => Parsed::Math(math_layouts::gsm8k(row)?),
        Math => Parsed::Math(math_layouts::math(row)?),
        Deepmath => Parsed::Math(math_layouts::deepmath(row)?),
        Verl => Parsed::Math(math_layouts::verl(row)?),
        Generic => Parsed::Math(math_layouts::generic(row)?),
        MultipleChoice => Parsed::Math(math_layouts::multiple_choice(row)?),
        Apps | Taco => Parsed::Code(code_layouts::apps(row)?),
        Codecontests => Parsed::Code(code_layouts::codecontests(row)?),
        Livecodebench => Parsed::Code(code_layouts::livecodebench(row)?),
        Mbpp => Parsed::Code(code_layouts::mbpp(row)?),
        Humaneval => Parsed::Code(code_layouts::humaneval(row)?),
    })
}

fn normalised(prompt: &str) -> String {
    prompt
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The result of an import: the cards in input order and the summary.
#[derive(Clone, Debug)]
pub struct Imported {
    pub cards: Vec<TaskCard>,
    pub summary: Summary,
}

/// Checks a code row before it becomes a card: tests exist, the language runs, and
/// (with `validate`) the reference solution passes. `Ok(Some(why))`: kept, but the
/// reference could not be run.
fn check_code(task: &CodeRow, validate: bool) -> Result<Option<String>, DropReason> {
    if task.tests.count() == 0 {
        return Err(DropReason::NoTests);
    }
    verigym_envs::code::dataset::language_of(task)
        .map_err(|_| DropReason::Language(task.language.clone()))?;
    let Some(solution) = task.solution.as_deref().filter(|_| validate) else {
        return Ok(None);
    };
    match judge(task, solution) {
        Ok(outcome) if outcome.passed() => Ok(None),
        Ok(outcome) if matches!(outcome.failure, Some("time_limit" | "wall_timeout")) => {
            Err(DropReason::ReferenceTimeout(outcome.note))
        }
        Ok(outcome) => Err(DropReason::ReferenceFailed(outcome.note)),
        Err(why) => Ok(Some(why.to_string())),
    }
}

/// What one kept row gives: its deduplication key (normalised prompt) and fingerprint
/// (answer or tests), its card, and for code rows what was checked.
struct RowOut {
    key: String,
    fingerprint: String,
    card: TaskCard,
    code: Option<CodeChecks>,
}

struct CodeChecks {
    checked: bool,
    /// The trivial program that passes every test, for a kept weak row.
    weak: Option<String>,
    /// Why the trivial programs could not be run (no sandbox verdict).
    weak_unchecked: Option<String>,
    unverified: Option<String>,
    mutants: Option<RowMutants>,
    sampled: bool,
}

/// The envs imported rows become cards of, made once per import through the
/// registry (its own card constructor, so an imported card is the card the
/// env would make of that task).
struct Targets {
    math: Box<dyn DynEnv>,
    code: Box<dyn DynEnv>,
}

impl Targets {
    fn new() -> Targets {
        let registry = Registry::builtin();
        let make = |id: &str| {
            registry
                .make(id, None)
                .unwrap_or_else(|e| panic!("the import's target env `{id}`: {e}"))
        };
        Targets {
            math: make(verigym_envs::math::dataset::ID),
            code: make(verigym_envs::code::dataset::ID),
        }
    }
}

/// The card `env` makes of an imported `task` for `seed`.
fn card_for(
    env: &dyn DynEnv,
    task: &impl serde::Serialize,
    seed: u64,
) -> Result<TaskCard, DropReason> {
    let task = serde_json::to_value(task).map_err(|e| DropReason::Internal(e.to_string()))?;
    env.card_for_task(&task, seed)
        .map_err(|e| DropReason::Internal(e.to_string()))
}

fn import_one(
    row: Value,
    index: u64,
    layout: Layout,
    options: &Options,
    targets: &Targets,
) -> Result<RowOut, DropReason> {
    let mut row = row;
    for (ours, theirs) in &options.map {
        if let (Some(value), Some(obj)) = (field(&row, theirs).cloned(), row.as_object_mut()) {
            obj.insert(ours.clone(), value);
        }
    }
    let source = Source {
        file: options.file.clone(),
        layout: layout.name().to_string(),
        row: index,
        row_hash: row_hash(&row),
    };
    let seed = seed_of(&source);
    let (key, card, code) = match parse_row(&row, layout)? {
        Parsed::Math(mut task) => {
            task.source = Some(source);
            let card = card_for(&*targets.math, &task, seed)?;
            // A gold the env's own grader cannot read back would pay nobody.
            let gold_passes = targets
                .math
                .grader(&card)
                .is_ok_and(|grader| grader.grade(&boxed(&task.answer)).passed);
            if !gold_passes {
                return Err(DropReason::UnreadableAnswer(task.answer));
            }
            (normalised(&task.question), card, None)
        }
        Parsed::Code(mut task) => {
            task.source = Some(source);
            sample::cap_tests(&mut task, options.max_tests, seed);
            let validate = options.validate && task.solution.is_some();
            let unverified = check_code(&task, options.validate)?;
            let checked = validate && unverified.is_none();
            let (weak, weak_unchecked) = if options.validate {
                match trivial::passing_trivial(&task) {
                    Ok(weak) => (weak, None),
                    Err(why) => (None, Some(why)),
                }
            } else {
                (None, None)
            };
            if let Some(program) = weak.as_ref().filter(|_| !options.keep_weak) {
                return Err(DropReason::WeakTests(program.clone()));
            }
            let mutants = match task.solution.as_deref() {
                Some(reference) if checked && options.mutants => {
                    weak_tests::check_row(index, &task, reference).ok()
                }
                _ => None,
            };
            let card = card_for(&*targets.code, &task, seed)?;
            let checks = CodeChecks {
                checked,
                weak,
                weak_unchecked,
                unverified,
                mutants,
                sampled: task.sampled.is_some(),
            };
            (normalised(&task.statement), card, Some(checks))
        }
    };
    let fingerprint = row_hash(&json!([
        card.reference,
        card.task.get("answer"),
        card.task.get("tests")
    ]));
    Ok(RowOut {
        key,
        fingerprint,
        card,
        code,
    })
}

/// [`import_one`], with a panic (an importer bug) turned into that row's drop reason:
/// one row never takes the import down.
fn import_contained(
    row: Value,
    index: u64,
    layout: Layout,
    options: &Options,
    targets: &Targets,
) -> Result<RowOut, DropReason> {
    catch_unwind(AssertUnwindSafe(|| {
        import_one(row, index, layout, options, targets)
    }))
    .unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(DropReason::Internal(why))
    })
}

/// Imports rows (each already JSON, or why its line was not) with `layout`.
pub fn import_rows(
    rows: impl Iterator<Item = Result<Value, String>>,
    layout: &Layout,
    options: &Options,
) -> Imported {
    import_lines(rows.map(|row| (None, row)), layout, options)
}

/// [`import_rows`] for rows that know their physical line ([`read::read_lines`]), which
/// the summary reports with each dropped row.
pub fn import_lines(
    rows: impl Iterator<Item = read::LineRow>,
    layout: &Layout,
    options: &Options,
) -> Imported {
    let mut summary = Summary {
        file: options.file.clone(),
        layout: layout.name().to_string(),
        ..Summary::default()
    };
    let mut cards = Vec::new();
    let mut seen: HashMap<String, (u64, String)> = HashMap::new();
    let targets = Targets::new();
    for (index, (line, row)) in rows.enumerate() {
        let index = index as u64;
        summary.rows += 1;
        let result = row
            .map_err(DropReason::NotJson)
            .and_then(|row| import_contained(row, index, *layout, options, &targets));
        let result = result.and_then(|out| match seen.get(&out.key) {
            Some((first, print)) if *print == out.fingerprint => Err(DropReason::Duplicate(*first)),
            Some((first, _)) => Err(DropReason::ConflictingDuplicate(*first)),
            None => {
                seen.insert(out.key.clone(), (index, out.fingerprint.clone()));
                Ok(out)
            }
        });
        match result {
            Ok(out) => {
                if let Some(checks) = out.code {
                    summary.references_checked += checks.checked as u64;
                    summary.mutants.extend(checks.mutants);
                    summary
                        .unverified
                        .extend(checks.unverified.map(|why| format!("row {index}: {why}")));
                    summary.weak_unchecked.extend(
                        checks
                            .weak_unchecked
                            .map(|why| format!("row {index}: {why}")),
                    );
                    if let Some(program) = checks.weak {
                        summary.weak.push(report::WeakRow {
                            row: index,
                            program,
                        });
                    }
                    if checks.sampled {
                        summary.sampled.push(index);
                    }
                }
                summary.kept += 1;
                cards.push(out.card);
            }
            Err(reason) => summary.drop_row(index, line, &reason),
        }
    }
    debug_assert_eq!(summary.rows, summary.kept + summary.dropped_count());
    Imported { cards, summary }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod trust_tests;
