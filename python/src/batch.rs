//! The batch functions: list, generate, score, check_math. Each converts its
//! Python input under the GIL, then releases it (`Python::detach`) while
//! rayon does the work, so other Python threads keep running.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;
use verigym_envs::generate::{OutputFormat, card_seed, format_card};
use verigym_envs::shaping::Shaping;
use verigym_verifiers::math::{MathConfig, verify};

use crate::convert::{actions_from_py, card_from_py, from_py, scored_dict, to_py};
use crate::{Refused, env_error, registry};

/// Runs `work` on a pool of `threads` threads, or on rayon's global pool
/// (one thread per core) when `threads` is None. Ray workers pass 1 so that
/// each worker is one core and the workers are the parallelism.
pub(crate) fn on_threads<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    match threads {
        None => Ok(work()),
        Some(0) => Err(PyValueError::new_err(
            "threads must be at least 1, or None for one per core",
        )),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}")))?;
            Ok(pool.install(work))
        }
    }
}

/// Ids of every registered env, in registry order, optionally only one
/// family's (`"math"`, `"logic"`, `"games"`, `"tools"`, `"web"`, `"code"`).
#[pyfunction]
#[pyo3(signature = (family=None))]
pub fn list_envs(family: Option<&str>) -> Vec<&'static str> {
    registry()
        .entries()
        .iter()
        .filter(|e| family.is_none_or(|f| e.spec.family() == f))
        .map(|e| e.spec.id)
        .collect()
}

/// What an env is: id, family, kind, players, max_steps, reward_range,
/// description, presets and difficulty levels.
#[pyfunction]
pub fn spec<'py>(py: Python<'py>, env_id: &str) -> PyResult<Bound<'py, PyDict>> {
    let id = env_id.split_once('@').map_or(env_id, |(id, _)| id);
    let registration = registry().get(id).map_err(env_error)?;
    let spec = registration.spec;
    let dict = PyDict::new(py);
    dict.set_item("id", spec.id)?;
    dict.set_item("family", spec.family())?;
    dict.set_item("version", spec.version())?;
    let kind = serde_json::to_value(spec.kind).unwrap_or(Value::Null);
    dict.set_item("kind", to_py(py, &kind)?)?;
    dict.set_item("description", spec.description)?;
    dict.set_item("players", spec.players)?;
    dict.set_item("max_steps", spec.max_steps)?;
    dict.set_item("reward_range", spec.reward_range)?;
    dict.set_item("zero_sum", spec.zero_sum)?;
    let presets: Vec<&str> = spec.presets.iter().map(|p| p.name).collect();
    dict.set_item("presets", presets)?;
    dict.set_item("levels", registration.levels().len())?;
    Ok(dict)
}

/// Task cards `start..start + n` of `env_id[@preset]` from `seed` (card `i`
/// uses seed `mix(seed, i)`: the same cards as `verigym generate`, and
/// shards with consecutive `start`s concatenate to one big batch).
#[pyfunction]
#[pyo3(signature = (env_id, n, seed=0, config=None, format="card", threads=None, start=0))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments, all optional
pub fn generate<'py>(
    py: Python<'py>,
    env_id: &str,
    n: usize,
    seed: u64,
    config: Option<&Bound<'py, PyAny>>,
    format: &str,
    threads: Option<usize>,
    start: usize,
) -> PyResult<Bound<'py, PyList>> {
    let format = match format {
        "card" => OutputFormat::Card,
        "chat" => OutputFormat::Chat,
        other => {
            return Err(PyValueError::new_err(format!(
                "format must be \"card\" or \"chat\", got {other:?}"
            )));
        }
    };
    let overrides = config.map(from_py).transpose()?;
    let env = registry()
        .make(env_id, overrides.as_ref())
        .map_err(env_error)?;
    let rows: Vec<Value> = py.detach(|| {
        on_threads(threads, || {
            use rayon::prelude::*;
            (start..start + n)
                .into_par_iter()
                .map(|i| {
                    let card = env.generate(card_seed(seed, i));
                    match format {
                        OutputFormat::Card => {
                            serde_json::to_value(&card).expect("cards always serialise")
                        }
                        OutputFormat::Chat => serde_json::from_str(&format_card(&card, format))
                            .expect("chat rows are JSON"),
                    }
                })
                .collect()
        })
    })?;
    let list = PyList::empty(py);
    for row in &rows {
        list.append(to_py(py, row)?)?;
    }
    Ok(list)
}

/// Scores `answers[i]` against `tasks[i]`: rewards in parallel, GIL released.
#[pyfunction]
#[pyo3(signature = (tasks, answers, shaping=None, threads=None))]
pub fn score<'py>(
    py: Python<'py>,
    tasks: &Bound<'py, PyAny>,
    answers: &Bound<'py, PyAny>,
    shaping: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let tasks: Vec<Bound<'py, PyAny>> = tasks.try_iter()?.collect::<PyResult<_>>()?;
    let answers: Vec<Bound<'py, PyAny>> = answers.try_iter()?.collect::<PyResult<_>>()?;
    if tasks.len() != answers.len() {
        return Err(PyValueError::new_err(format!(
            "got {} tasks but {} answers; pass one answer per task",
            tasks.len(),
            answers.len()
        )));
    }
    let shaping: Shaping = match shaping {
        None => Shaping::default(),
        Some(obj) => serde_json::from_value(from_py(obj)?)
            .map_err(|e| env_error(Refused::new("bad_config", format!("bad shaping: {e}"))))?,
    };
    let mut cards = Vec::with_capacity(tasks.len());
    let mut actions = Vec::with_capacity(tasks.len());
    for (i, (task, answer)) in tasks.iter().zip(&answers).enumerate() {
        cards.push(card_from_py(task).map_err(|e| prefix_error(py, e, "task", i))?);
        actions.push(actions_from_py(answer).map_err(|e| prefix_error(py, e, "answer", i))?);
    }
    let results = py.detach(|| {
        on_threads(threads, || {
            verigym_envs::score::score_cards(registry(), &cards, &actions, &shaping)
        })
    })?;
    let list = PyList::empty(py);
    for (i, result) in results.into_iter().enumerate() {
        let scored =
            result.map_err(|e| env_error(Refused::new(e.kind(), format!("task {i}: {e}"))))?;
        list.append(scored_dict(py, scored)?)?;
    }
    Ok(list)
}

/// The same error type (and kind), its message prefixed with which item it
/// was about.
fn prefix_error(py: Python<'_>, error: PyErr, what: &str, index: usize) -> PyErr {
    let message = format!("{what} {index}: {}", error.value(py));
    if error.is_instance_of::<crate::EnvError>(py) {
        let prefixed = crate::EnvError::new_err(message);
        if let Ok(kind) = error.value(py).getattr("kind") {
            let _ = prefixed.value(py).setattr("kind", kind);
        }
        prefixed
    } else {
        pyo3::exceptions::PyTypeError::new_err(message)
    }
}

/// Whether each prediction is mathematically equivalent to its gold answer
/// (the math verifier: boxed/last-answer extraction, symbolic comparison).
#[pyfunction]
#[pyo3(signature = (golds, predictions, config=None, details=false, threads=None))]
pub fn check_math<'py>(
    py: Python<'py>,
    golds: Vec<String>,
    predictions: Vec<String>,
    config: Option<&Bound<'py, PyAny>>,
    details: bool,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    if golds.len() != predictions.len() {
        return Err(PyValueError::new_err(format!(
            "got {} golds but {} predictions; pass one prediction per gold",
            golds.len(),
            predictions.len()
        )));
    }
    let config = match config {
        None => MathConfig::default(),
        Some(obj) => MathConfig::from_json(&from_py(obj)?),
    };
    let verdicts = py.detach(|| {
        on_threads(threads, || {
            use rayon::prelude::*;
            golds
                .par_iter()
                .zip(predictions.par_iter())
                .map(|(gold, prediction)| verify(gold, prediction, &config))
                .collect::<Vec<_>>()
        })
    })?;
    let list = PyList::empty(py);
    for verdict in verdicts {
        if details {
            let dict = PyDict::new(py);
            dict.set_item("equivalent", verdict.equivalent)?;
            dict.set_item("gold_parsed", verdict.gold_parsed)?;
            dict.set_item("prediction_parsed", verdict.prediction_parsed)?;
            dict.set_item("reason", verdict.reason)?;
            list.append(dict)?;
        } else {
            list.append(verdict.equivalent)?;
        }
    }
    Ok(list)
}
