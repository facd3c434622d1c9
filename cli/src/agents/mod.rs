//! Agents by name: the one place the CLIs turn an agent name into an agent.
//!
//! - `http:BASE_URL#MODEL`: a chat-completions endpoint ([`http`]);
//! - `burn:PATH`: a trained reference-agent checkpoint (`verigym-agent`);
//! - `human`: a person at the terminal ([`human`]);
//! - anything else: a built-in agent of the env crate (`random`,
//!   `heuristic`, `noop`, `oracle`, `echo`, `constant:TEXT`).

use verigym_envs::Agent;
use verigym_envs::driver::builtin_agent;

pub mod http;
pub mod human;

/// Makes an agent by name (see the module docs for the names).
///
/// # Errors
/// An unknown name, a malformed `http:` spec, or a checkpoint that cannot
/// be loaded.
pub fn make_agent(name: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    if name.starts_with("http:") {
        // Read once: every HTTP agent of the process shares the settings
        // (and the concurrency limit they set).
        static SETTINGS: std::sync::OnceLock<http::HttpSettings> = std::sync::OnceLock::new();
        let settings = SETTINGS.get_or_init(http::HttpSettings::from_env).clone();
        return Ok(Box::new(http::HttpAgent::from_spec(name, settings)?));
    }
    if let Some(path) = name.strip_prefix("burn:") {
        return verigym_agent::load_agent(std::path::Path::new(path))
            .map_err(|e| format!("cannot load the burn agent `{path}`: {e}"));
    }
    if human::is_human(name) {
        return Ok(Box::new(human::HumanAgent));
    }
    builtin_agent(name, seed)
}
