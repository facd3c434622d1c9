//! Finding the host tools the runtimes build with (python3 for the componentize-py venv,
//! clang-19 for C candidates).

use std::path::PathBuf;

/// The first `name` on `$PATH` that is a file.
pub(crate) fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
