//! The model's reply inside decoded trainer text ([`verigym_envs::completion`]).

use pyo3::prelude::*;

use crate::env_error;

/// `text` without trailing end-of-turn markers (`<|im_end|>`, `</s>`, ...).
#[pyfunction]
pub fn strip_end_of_turn(text: &str) -> &str {
    verigym_envs::completion::strip_end_of_turn(text)
}

/// The reply in `query` (the decoded prompt followed by the reply): the text
/// after `prompt`, end-of-turn markers stripped. Raises `EnvError` when the
/// query holds neither its prompt nor an assistant turn.
#[pyfunction]
pub fn reply_after_prompt<'a>(query: &'a str, prompt: &str) -> PyResult<&'a str> {
    verigym_envs::completion::reply_after_prompt(query, prompt).map_err(env_error)
}
