//! The crate's one error type.

use std::path::PathBuf;

/// Everything that can go wrong while training, saving or loading an agent.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The env id names no env this crate can train on.
    #[error("no trainer for `{env_id}` with {algo}; supported: {supported}")]
    Unsupported {
        env_id: String,
        algo: String,
        supported: String,
    },
    /// The env crate refused something (unknown id, bad card, bad step).
    #[error("env `{env_id}`: {source}")]
    Env {
        env_id: String,
        #[source]
        source: verigym_envs::EnvError,
    },
    /// A checkpoint that does not parse or does not fit its network.
    #[error("checkpoint {path}: {message}")]
    BadCheckpoint { path: PathBuf, message: String },
    /// Reading or writing a file.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `VERIGYM_DEVICE` names a device this build cannot train on.
    #[error("unknown training device `{name}` (VERIGYM_DEVICE); this build supports: {available}")]
    Device {
        name: String,
        available: &'static str,
    },
    /// Drawing the learning-curve plot.
    #[error("plot {path}: {message}")]
    Plot { path: PathBuf, message: String },
}

impl AgentError {
    pub(crate) fn env(env_id: &str, source: verigym_envs::EnvError) -> Self {
        AgentError::Env {
            env_id: env_id.to_string(),
            source,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        AgentError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
