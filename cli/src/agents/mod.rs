//! Agents by name: the one place the CLIs turn an agent name into an agent.
//!
//! - `http:BASE_URL#MODEL`: a chat-completions endpoint ([`http`]);
//! - `burn:PATH`: a trained reference-agent checkpoint (`verigym-agent`),
//!   read from the current directory or else from this checkout; `burn:NAME`
//!   is a shipped one, `datasets/agents/NAME.json` ([`burn`]);
//! - `human`: a person at the terminal ([`human`]);
//! - anything else: a built-in agent of the env crate (`random`,
//!   `heuristic`, `noop`, `oracle`, `echo`, `constant:TEXT`).

use verigym_envs::Agent;
use verigym_envs::driver::builtin_agent;

pub mod burn;
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
        return burn::make(path);
    }
    if human::is_human(name) {
        return Ok(Box::new(human::HumanAgent));
    }
    builtin_agent(name, seed).map_err(|e| e.to_string())
}

/// Checks that agent `name` can play env `env` (`family/name-vN[@preset]`):
/// a trained checkpoint plays only the env it was trained on.
///
/// # Errors
/// A checkpoint trained on another env, or one that cannot be loaded.
pub fn check_fits(name: &str, env: &str) -> Result<(), String> {
    let Some(path) = name.strip_prefix("burn:") else {
        return Ok(());
    };
    let trained = burn::trained_env(path)?;
    if trained == burn::base_id(env) {
        Ok(())
    } else {
        Err(format!(
            "`{name}` was trained on {trained} and cannot play {env}: \
             list it only under that env's agents"
        ))
    }
}
