//! The trainer reward path ([`verigym_envs::labels`]) and the one rule that
//! reads chat completions as actions ([`verigym_envs::completion`]): the
//! Python integrations call these and add nothing of their own.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use serde_json::{Value, json};
use verigym_envs::completion;
use verigym_envs::labels::{Label, LabelOptions};
use verigym_envs::session::Rules;
use verigym_envs::shaping::Shaping;

use crate::batch::on_threads;
use crate::convert::{from_py, scored_dict, to_py};
use crate::{Refused, env_error, registry};

/// A label or completion as JSON: text stays text (a label's JSON text is
/// decoded once, in Rust).
fn json_of(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    match obj.cast::<PyString>() {
        Ok(text) => Ok(Value::String(text.to_str()?.to_owned())),
        Err(_) => from_py(obj),
    }
}

/// Scores `completions[i]` against `labels[i]` (see `verigym_envs::labels`):
/// one call per batch, in parallel, GIL released.
#[pyfunction]
#[pyo3(signature = (labels, completions, *, opponent="heuristic", shaping=None, max_retries=2, max_turns=None, threads=None))]
#[allow(clippy::too_many_arguments)] // Python keyword arguments, all optional
pub fn score_labels<'py>(
    py: Python<'py>,
    labels: &Bound<'py, PyAny>,
    completions: &Bound<'py, PyAny>,
    opponent: &str,
    shaping: Option<&Bound<'py, PyAny>>,
    max_retries: u32,
    max_turns: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let labels: Vec<Value> = labels
        .try_iter()?
        .map(|item| json_of(&item?))
        .collect::<PyResult<_>>()?;
    let completions: Vec<Value> = completions
        .try_iter()?
        .map(|item| json_of(&item?))
        .collect::<PyResult<_>>()?;
    if labels.len() != completions.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "got {} labels but {} completions; pass one completion per label",
            labels.len(),
            completions.len()
        )));
    }
    let shaping: Shaping = match shaping {
        None => Shaping::default(),
        Some(obj) => serde_json::from_value(from_py(obj)?)
            .map_err(|e| env_error(format!("bad shaping: {e}")))?,
    };
    let options = LabelOptions {
        opponent: opponent.to_string(),
        shaping,
        rules: Rules {
            max_retries,
            max_turns,
        },
    };
    let results = py.detach(|| {
        on_threads(threads, || {
            verigym_envs::labels::score_labels(registry(), &labels, &completions, &options)
        })
    })?;
    let list = PyList::empty(py);
    for (i, result) in results.into_iter().enumerate() {
        let scored =
            result.map_err(|e| env_error(Refused::new(e.kind(), format!("item {i}: {e}"))))?;
        list.append(scored_dict(py, scored)?)?;
    }
    Ok(list)
}

/// The task card (a dict) and seat of a label.
#[pyfunction]
pub fn parse_label<'py>(
    py: Python<'py>,
    label: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let label = Label::parse(&json_of(label)?).map_err(env_error)?;
    let card = serde_json::to_value(&label.card).map_err(|e| env_error(e.to_string()))?;
    Ok((to_py(py, &card)?, label.seat))
}

/// The actions of a completion, one per assistant turn; `action_tool` names
/// the action method (`answer`, `act`, `play`) of an env without tools.
#[pyfunction]
#[pyo3(signature = (completion, action_tool=None))]
pub fn completion_actions(
    completion: &Bound<'_, PyAny>,
    action_tool: Option<&str>,
) -> PyResult<Vec<String>> {
    completion::completion_actions(&json_of(completion)?, action_tool)
        .map_err(|e| PyTypeError::new_err(e.to_string()))
}

/// A single-turn answer: the completion's last action, reasoning kept in
/// front as `<think>…</think>`.
#[pyfunction]
#[pyo3(signature = (completion, action_tool=None))]
pub fn completion_answer(
    completion: &Bound<'_, PyAny>,
    action_tool: Option<&str>,
) -> PyResult<String> {
    completion::completion_answer(&json_of(completion)?, action_tool)
        .map_err(|e| PyTypeError::new_err(e.to_string()))
}

/// The actions of one chat message (none for another role than assistant).
#[pyfunction]
#[pyo3(signature = (message, action_tool=None))]
pub fn message_actions(
    message: &Bound<'_, PyAny>,
    action_tool: Option<&str>,
) -> PyResult<Vec<String>> {
    let message = from_py(message)?;
    completion::completion_actions(&Value::Array(vec![message]), action_tool)
        .map_err(|e| PyTypeError::new_err(e.to_string()))
}

/// One tool call as the action text envs read (the OpenAI shape every
/// completion's calls are put in).
#[pyfunction]
pub fn tool_call_action(name: &str, arguments: &Bound<'_, PyAny>) -> PyResult<String> {
    let arguments = from_py(arguments)?;
    let call = json!({"name": name, "arguments": arguments});
    let message = json!({"role": "assistant", "tool_calls": [call]});
    Ok(completion::message_actions(&message, None).remove(0))
}
