//! Filesystem confinement for the host tools that read model-written input (clang and the
//! linker it starts), through Linux Landlock (kernel ≥ 5.13, `landlock` crate).
//!
//! A short-lived thread restricts itself to a [`Confinement`] and spawns the tool from
//! there; the child inherits the restriction (and `no_new_privs`), the rest of the process
//! is untouched. The tool may then read (and execute) only beneath the listed read-only
//! paths and write only beneath the listed writable ones; everything else, including
//! reading through a symlink that resolves outside those paths, fails with `EACCES`.
//!
//! Without Landlock (an older kernel, Landlock not in the LSM list, not Linux) nothing runs:
//! [`run_confined`] returns [`SandboxError::Confinement`], so the caller has no verdict
//! instead of an unconfined compile. On a kernel that knows only part of the access rights
//! we ask for (ABI < 5: truncation, device ioctls) the restriction is partial, but reading,
//! writing and executing files are confined from ABI 1 on.

use std::path::{Path, PathBuf};

use crate::SandboxError;

/// What a confined tool may touch. Paths that do not exist are skipped.
#[derive(Debug, Clone, Default)]
pub(crate) struct Confinement {
    /// Read and execute beneath these (directories) or these files.
    pub(crate) read: Vec<PathBuf>,
    /// Full access beneath these (the tool's fresh work directory, `/dev/null`).
    pub(crate) write: Vec<PathBuf>,
}

/// Runs `f` on a new thread restricted to `confinement`; processes `f` spawns inherit it.
pub(crate) fn run_confined<R: Send>(
    confinement: &Confinement,
    f: impl FnOnce() -> R + Send,
) -> Result<R, SandboxError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("verigym-confined".into())
            .spawn_scoped(scope, move || {
                restrict_current_thread(confinement)?;
                Ok(f())
            })
            .map_err(|e| SandboxError::Confinement(format!("spawning a thread: {e}")))?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The host's shared-library directories (clang and the linker are dynamically linked).
pub(crate) fn host_library_dirs() -> Vec<PathBuf> {
    let triple = format!("{}-linux-gnu", std::env::consts::ARCH);
    let mut dirs: Vec<PathBuf> = Vec::new();
    for dir in [
        format!("/usr/lib/{triple}"),
        format!("/lib/{triple}"),
        "/lib64".to_string(),
        "/usr/lib64".to_string(),
    ] {
        if let Ok(real) = Path::new(&dir).canonicalize()
            && real.is_dir()
            && !dirs.contains(&real)
        {
            dirs.push(real);
        }
    }
    dirs
}

/// `Ok` when this machine can confine tools (runs an empty confined thread).
#[cfg(test)]
pub(crate) fn probe() -> Result<(), SandboxError> {
    run_confined(&Confinement::default(), || ())
}

#[cfg(target_os = "linux")]
fn restrict_current_thread(confinement: &Confinement) -> Result<(), SandboxError> {
    use landlock::{
        ABI, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
        path_beneath_rules,
    };
    // The newest rights this crate version knows; older kernels drop what they lack
    // (best effort), and a kernel with none at all is refused below.
    let abi = ABI::V6;
    let fail =
        |e: &dyn std::fmt::Display| SandboxError::Confinement(format!("setting up Landlock: {e}"));
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .map_err(|e| fail(&e))?
        .create()
        .map_err(|e| fail(&e))?
        .add_rules(path_beneath_rules(
            &confinement.read,
            AccessFs::from_read(abi),
        ))
        .map_err(|e| fail(&e))?
        .add_rules(path_beneath_rules(
            &confinement.write,
            AccessFs::from_all(abi),
        ))
        .map_err(|e| fail(&e))?
        .restrict_self()
        .map_err(|e| fail(&e))?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err(SandboxError::Confinement(
            "this kernel does not enforce Landlock (needs Linux ≥ 5.13 with `landlock` in the \
             LSM list, e.g. boot with lsm=landlock,...); the compiler is never run unconfined"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn restrict_current_thread(_: &Confinement) -> Result<(), SandboxError> {
    Err(SandboxError::Confinement(
        "confining the compiler needs Linux Landlock; the compiler is never run unconfined".into(),
    ))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Command;

    /// A confinement that lets `cat` run (its binary and shared libraries) and read
    /// `dir`, nothing else.
    fn cat_only(cat: &std::path::Path, dir: &std::path::Path) -> Confinement {
        let mut read = vec![cat.to_path_buf(), PathBuf::from("/etc/ld.so.cache")];
        read.extend(host_library_dirs());
        read.push(dir.to_path_buf());
        Confinement {
            read,
            // std's `output()` opens /dev/null as the child's stdin
            write: vec![PathBuf::from("/dev/null")],
        }
    }

    #[test]
    fn reads_only_what_is_allowed_even_through_symlinks() {
        if let Err(e) = probe() {
            eprintln!("SKIPPED: {e}");
            return;
        }
        let work = tempfile::tempdir().unwrap();
        let dir = work.path();
        std::fs::write(dir.join("mine.txt"), "ours").unwrap();
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "secret").unwrap();
        std::os::unix::fs::symlink(secret.path(), dir.join("link")).unwrap();
        let cat_path = crate::toolchain::which("cat").expect("cat");
        let cat = |name: &std::path::Path| {
            let name = name.to_path_buf();
            let cat_path = cat_path.clone();
            run_confined(&cat_only(&cat_path, dir), move || {
                Command::new(&cat_path)
                    .arg(&name)
                    .env_clear()
                    .output()
                    .unwrap()
            })
            .unwrap()
        };
        let mine = cat(&dir.join("mine.txt"));
        assert_eq!(String::from_utf8_lossy(&mine.stdout), "ours", "{mine:?}");
        for denied in [dir.join("link"), secret.path().to_path_buf()] {
            let out = cat(&denied);
            assert!(!out.status.success(), "{denied:?} was readable");
            assert!(out.stdout.is_empty());
            assert!(
                String::from_utf8_lossy(&out.stderr).contains("Permission denied"),
                "{out:?}"
            );
        }
        // The rest of the process is not confined.
        assert_eq!(std::fs::read_to_string(secret.path()).unwrap(), "secret");
    }
}
