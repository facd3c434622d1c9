//! `verigym.import_rows`: a data set's rows (dicts, e.g. from `datasets.load_dataset`)
//! as task cards of the dataset envs, with the importer's summary.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use verigym_import::{Layout, Options, import_rows as import, parse_map};

use crate::convert::{from_py, to_py};

/// Imports `rows` (an iterable of dicts) read with `layout` (`gsm8k`, `math`,
/// `deepmath`, `verl`, `generic`, `multiple-choice`, `apps`, `taco`, `codecontests`,
/// `livecodebench`, `mbpp`, `humaneval`). `map` names other fields as the layout's
/// (`{"prompt": "question"}`); `file` is recorded in each card's source; `validate`
/// runs reference solutions in the sandbox; `mutants` also runs mutants of each reference
/// on its row's tests and lists rows whose tests let some pass (`summary["mutants"]`);
/// `max_tests` caps the tests kept per code row (0: all; a deterministic sample recorded
/// in the card's `sampled`); rows whose tests a trivial program passes are dropped
/// (`weak_tests`) unless `keep_weak`, which keeps them listed in `summary["weak"]`. Returns `{"cards": [...], "summary": {...}}`:
/// one card per usable row in input order; the summary counts the dropped rows by reason
/// and lists each with its reason.
// Each argument is one of the Python function's keyword arguments.
#[allow(clippy::too_many_arguments)]
#[pyfunction]
#[pyo3(signature = (rows, layout, file="<rows>", map=None, validate=true, mutants=false, max_tests=verigym_import::sample::DEFAULT_MAX_TESTS, keep_weak=false))]
pub fn import_rows<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    layout: &str,
    file: &str,
    map: Option<std::collections::BTreeMap<String, String>>,
    validate: bool,
    mutants: bool,
    max_tests: usize,
    keep_weak: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let layout: Layout = layout
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{e}")))?;
    let mut values = Vec::new();
    for row in rows.try_iter()? {
        values.push(from_py(&row?).map_err(|e| e.to_string()));
    }
    let pairs = map
        .unwrap_or_default()
        .into_iter()
        .map(|(ours, theirs)| format!("{ours}={theirs}"))
        .collect::<Vec<_>>()
        .join(",");
    let options = Options {
        file: file.to_string(),
        map: parse_map(&pairs).map_err(|e| PyValueError::new_err(format!("{e}")))?,
        validate,
        mutants,
        max_tests,
        keep_weak,
    };
    let imported = py.detach(|| import(values.into_iter(), &layout, &options));
    let cards: Vec<serde_json::Value> = imported
        .cards
        .iter()
        .map(|c| serde_json::to_value(c).expect("cards serialise"))
        .collect();
    let summary = serde_json::to_value(&imported.summary).expect("summaries serialise");
    let out = PyDict::new(py);
    out.set_item("cards", to_py(py, &serde_json::Value::Array(cards))?)?;
    out.set_item("summary", to_py(py, &summary)?)?;
    Ok(out)
}
