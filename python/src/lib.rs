//! The `verigym._verigym` extension module behind the `verigym` Python
//! package (`python/verigym/`): envs with Gymnasium-style reset/step, batch
//! generation and scoring, and the math verifier. The batch functions release
//! the GIL and run on rayon.

use std::sync::OnceLock;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use verigym_envs::{EnvError as RustEnvError, Registry};

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

/// What a Python caller gets as `EnvError`: the message and its `kind`.
pub(crate) struct Refused {
    /// A stable snake_case word: an [`RustEnvError::kind`], or
    /// [`INVALID_ARGUMENT`] for an argument this layer refused itself.
    pub kind: &'static str,
    pub message: String,
}

/// The `kind` of an argument the Python layer itself refused (a `view` or
/// `player` that does not exist, say).
pub(crate) const INVALID_ARGUMENT: &str = "invalid_argument";

impl Refused {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Refused {
            kind,
            message: message.into(),
        }
    }
}

impl From<RustEnvError> for Refused {
    fn from(error: RustEnvError) -> Self {
        Refused::new(error.kind(), error.to_string())
    }
}

impl From<String> for Refused {
    fn from(message: String) -> Self {
        Refused::new(INVALID_ARGUMENT, message)
    }
}

impl From<verigym_envs::completion::NoReplyFound> for Refused {
    fn from(error: verigym_envs::completion::NoReplyFound) -> Self {
        Refused::new("no_reply_found", error.to_string())
    }
}

/// `EnvError` carrying the Rust message, with its `kind` attribute set.
pub(crate) fn env_error(error: impl Into<Refused>) -> PyErr {
    let Refused { kind, message } = error.into();
    let error = EnvError::new_err(message);
    Python::attach(|py| {
        // Setting an attribute of a fresh exception instance cannot fail.
        let _ = error.value(py).setattr("kind", kind);
    });
    error
}

/// The built-in registry, made once.
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

#[pymodule]
fn _verigym(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let env_error = m.py().get_type::<EnvError>();
    // Raised from Python code (the integrations), an `EnvError` has no kind.
    env_error.setattr("kind", m.py().None())?;
    m.add("EnvError", env_error)?;
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
