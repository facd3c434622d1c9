//! The on-disk cache: content-hashed build outputs, atomic writes (several processes may
//! build at once), an inter-process build lock, and precompiled-code keys that change with
//! the wasmtime version and every engine setting that affects compiled code.

use std::fs::File;
use std::hash::{Hash, Hasher};
use std::path::Path;

use sha2::{Digest, Sha256};
use wasmtime::Engine;

use crate::error::SandboxError;

/// Hex SHA-256 of the concatenation of `parts`, each length-prefixed so that
/// ("ab", "c") and ("a", "bc") differ.
pub(crate) fn content_hash(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Feeds `Hash` output into SHA-256, because std's `DefaultHasher` is not stable across
/// Rust releases and the key must be.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        unreachable!("only the SHA-256 digest is read")
    }
}

/// Key for compiled code of this engine: wasmtime's version plus its compatibility hash
/// (target, tunables, enabled features: fuel, epochs, ...).
pub(crate) fn engine_key(engine: &Engine) -> String {
    let mut h = ShaHasher(Sha256::new());
    h.0.update(b"wasmtime 48.0.8\0");
    engine.precompile_compatibility_hash().hash(&mut h);
    hex(&h.0.finalize())[..16].to_string()
}

pub(crate) fn create_dir(dir: &Path) -> Result<(), SandboxError> {
    std::fs::create_dir_all(dir).map_err(|e| SandboxError::io(dir, e))
}

/// Writes `bytes` to `path` via a temp file in the same directory and a rename, so that a
/// reader never sees a half-written file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SandboxError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_dir(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| SandboxError::io(dir, e))?;
    std::io::Write::write_all(&mut tmp, bytes).map_err(|e| SandboxError::io(tmp.path(), e))?;
    tmp.persist(path)
        .map_err(|e| SandboxError::io(path, e.error))?;
    Ok(())
}

/// An exclusive inter-process lock on `dir/.lock`, held until dropped; serialises slow
/// builds (venv creation, componentize-py) between test processes and users.
pub(crate) struct BuildLock(#[allow(dead_code)] File);

impl BuildLock {
    pub(crate) fn acquire(dir: &Path) -> Result<BuildLock, SandboxError> {
        create_dir(dir)?;
        let path = dir.join(".lock");
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| SandboxError::io(&path, e))?;
        file.lock().map_err(|e| SandboxError::io(&path, e))?;
        Ok(BuildLock(file))
    }
}
