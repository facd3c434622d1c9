//! Errors of the sandbox itself (setup, toolchains, the engine), as opposed to what a
//! candidate did: a candidate's failure is a `CaseOutcome` / `Verdict`,
//! never an `Err`.

use std::path::PathBuf;

/// Something went wrong on the host side; the candidate is not to blame.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A host tool the runtime needs is not installed. `install` says exactly what to do.
    #[error("{tool} not found: {install}")]
    ToolchainMissing { tool: String, install: String },

    /// A host build step (componentize-py, pip, ...) ran but failed.
    #[error("building {what} failed: {detail}")]
    Build { what: String, detail: String },

    /// The wasmtime engine refused a configuration, a module or an instantiation.
    #[error("wasmtime: {0}")]
    Engine(String),

    /// Reading or writing the cache directory failed.
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The compiler could not be confined (no unprivileged user + mount namespaces, no
    /// Landlock on this kernel, or not Linux); C and C++ are then not compiled at all.
    #[error("cannot confine the compiler: {0}")]
    Confinement(String),

    /// The caller passed something unusable (e.g. test cases that are not arrays).
    #[error("invalid input: {0}")]
    InvalidInput(String),
}

impl SandboxError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        SandboxError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn engine(e: impl std::fmt::Display) -> Self {
        SandboxError::Engine(format!("{e:#}"))
    }
}
