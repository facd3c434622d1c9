//! JSON values to Python objects and back, and Python answers to actions.
//!
//! Cards, observations and configs are JSON in Rust; Python callers pass and
//! get plain dicts, lists, strings and numbers (or JSON text where noted).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use verigym_envs::TaskCard;
use verigym_envs::score::ScoredAnswer;

use crate::{Refused, env_error};

/// A JSON value as the Python object `json.loads` would give.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (key, item) in map {
                dict.set_item(key, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// A Python object made of dicts (string keys), lists, tuples, strings,
/// numbers, booleans and None, as JSON.
///
/// # Errors
/// `TypeError` naming the first value that has no JSON form.
pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: Python's bool is an int.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        if let Ok(v) = i.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = i.extract::<u64>() {
            return Ok(Value::from(v));
        }
        return Err(PyTypeError::new_err(format!(
            "the integer {i} does not fit in 64 bits"
        )));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            PyTypeError::new_err(format!("{v} has no JSON form; use a finite number"))
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in d.iter() {
            let key = key.cast::<PyString>().map_err(|_| {
                PyTypeError::new_err(format!("dict keys must be strings, got {key:?}"))
            })?;
            map.insert(key.to_str()?.to_owned(), from_py(&item)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l.iter().map(|item| from_py(&item)).collect();
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t.iter().map(|item| from_py(&item)).collect();
    }
    Err(PyTypeError::new_err(format!(
        "{} has no JSON form; pass dicts, lists, strings, numbers, booleans or None",
        obj.get_type().name()?
    )))
}

/// A task card from a dict (a card, or a chat row carrying one under
/// `card`) or its JSON text.
///
/// # Errors
/// `EnvError` naming what is wrong with the card.
pub fn card_from_py(obj: &Bound<'_, PyAny>) -> PyResult<TaskCard> {
    let value = match obj.cast::<PyString>() {
        Ok(text) => serde_json::from_str(text.to_str()?).map_err(|e| {
            env_error(Refused::new(
                "bad_card",
                format!("a task card string must be JSON: {e}"),
            ))
        })?,
        Err(_) => from_py(obj)?,
    };
    verigym_envs::score::card_from_json(value)
        .map_err(|e| env_error(Refused::new("bad_card", format!("not a task card: {e}"))))
}

/// The actions of an answer: a string is one action, a list of strings one
/// action per turn, None no action at all.
///
/// # Errors
/// `TypeError` for anything else.
pub fn actions_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if obj.is_none() {
        return Ok(Vec::new());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(vec![s.to_str()?.to_owned()]);
    }
    let value = from_py(obj)?;
    verigym_envs::score::answer_actions(&value).map_err(|e| PyTypeError::new_err(e.to_string()))
}

/// One scored item as the dict `verigym.score` returns.
pub(crate) fn scored_dict<'py>(
    py: Python<'py>,
    scored: ScoredAnswer,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("id", scored.id)?;
    // None when the env could not judge the answer (`no_verdict` says why).
    dict.set_item("reward", scored.reward)?;
    dict.set_item("passed", scored.passed)?;
    dict.set_item("breakdown", scored.breakdown)?;
    dict.set_item("no_verdict", scored.no_verdict)?;
    // Only for a superseded version's card: the version that scored it.
    if let Some(scored_by) = scored.scored_by {
        dict.set_item("scored_by", scored_by)?;
    }
    Ok(dict)
}
