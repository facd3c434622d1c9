//! The `verigym._verigym` extension module behind the `verigym` Python
//! package (`python/verigym/`): envs with Gymnasium-style reset/step, batch
//! generation and scoring, and the math verifier. The batch functions release
//! the GIL and run on rayon.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use verigym_envs::Registry;

mod batch;
mod completion;
mod convert;
mod env;
mod import_rows;
mod labels;
mod seat;

pyo3::create_exception!(
    verigym,
    EnvError,
    PyValueError,
    "An env refused: unknown id or preset, bad config or task card, a step out of turn or after the end."
);

/// `EnvError` carrying the Rust message.
pub(crate) fn env_error(error: impl std::fmt::Display) -> PyErr {
    EnvError::new_err(error.to_string())
}

/// The built-in registry, made once.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

#[pymodule]
fn _verigym(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("EnvError", m.py().get_type::<EnvError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<env::PyEnv>()?;
    m.add_class::<seat::PySeatEnv>()?;
    m.add_function(wrap_pyfunction!(env::make, m)?)?;
    m.add_function(wrap_pyfunction!(batch::list_envs, m)?)?;
    m.add_function(wrap_pyfunction!(batch::spec, m)?)?;
    m.add_function(wrap_pyfunction!(batch::generate, m)?)?;
    m.add_function(wrap_pyfunction!(batch::score, m)?)?;
    m.add_function(wrap_pyfunction!(batch::check_math, m)?)?;
    m.add_function(wrap_pyfunction!(import_rows::import_rows, m)?)?;
    m.add_function(wrap_pyfunction!(labels::score_labels, m)?)?;
    m.add_function(wrap_pyfunction!(labels::parse_label, m)?)?;
    m.add_function(wrap_pyfunction!(labels::completion_actions, m)?)?;
    m.add_function(wrap_pyfunction!(labels::completion_answer, m)?)?;
    m.add_function(wrap_pyfunction!(labels::message_actions, m)?)?;
    m.add_function(wrap_pyfunction!(labels::tool_call_action, m)?)?;
    m.add_function(wrap_pyfunction!(completion::strip_end_of_turn, m)?)?;
    m.add_function(wrap_pyfunction!(completion::reply_after_prompt, m)?)?;
    Ok(())
}
