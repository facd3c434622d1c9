//! The import's error for an input it cannot read at all (one bad row is a
//! [`crate::DropReason`] instead).

/// Why the input as a whole cannot be imported (exit code 2 in the CLI).
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(
        "unknown layout `{0}`: use one of gsm8k, math, deepmath, verl, generic, multiple-choice, apps, taco, codecontests, livecodebench, mbpp, humaneval"
    )]
    UnknownLayout(String),
    #[error(
        "--map `{0}`: write OURS=THEIRS pairs separated by commas, e.g. prompt=question,answer=final"
    )]
    BadMap(String),
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a readable Parquet file: {message}")]
    Parquet { path: String, message: String },
    #[error(
        "{path} looks like Parquet, but this build has no Parquet support: rebuild with the `parquet` feature or convert it to JSONL"
    )]
    NoParquet { path: String },
    #[error("{0} holds no rows")]
    Empty(String),
}
