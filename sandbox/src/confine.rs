//! Filesystem confinement for the host tools that read model-written input (clang and the
//! linker it starts), through Linux Landlock (kernel ≥ 5.13, `landlock` crate): the layer
//! inside the sealed view of [`crate::sealed_view`].
//!
//! The parent builds the ruleset ([`ruleset`]); the child applies it between fork and exec,
//! after it has entered its sealed view ([`restrict_self`]): a process under Landlock may no
//! longer mount, so the order is fixed. The tool may then read (and execute) only beneath
//! the listed read-only paths and write only beneath the listed writable ones; everything
//! else, including reading through a symlink that resolves outside those paths, fails with
//! `EACCES`. The rest of the process is untouched.
//!
//! Without Landlock (an older kernel, Landlock not in the LSM list, not Linux) nothing runs:
//! [`ruleset`] returns [`SandboxError::Confinement`], so the caller has no verdict instead
//! of a less confined compile. On a kernel that knows only part of the access rights we ask
//! for (ABI < 5: truncation, device ioctls) the restriction is partial, but reading,
//! writing and executing files are confined from ABI 1 on.

use std::os::fd::{OwnedFd, RawFd};
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

#[cfg(target_os = "linux")]
/// In a forked child, between fork and exec: sets `no_new_privs` and enforces the ruleset
/// `fd` on the child (async-signal-safe: two system calls).
pub(crate) fn restrict_self(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: plain system calls on integers.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::syscall(libc::SYS_landlock_restrict_self, fd, 0) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
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
        // As spelled, not resolved, even where two spellings are one directory: the sealed
        // view recreates the symlinks on the way (`/lib` → `usr/lib`), and the ELF
        // interpreter's path goes through them.
        if Path::new(&dir).is_dir() {
            dirs.push(PathBuf::from(dir));
        }
    }
    dirs
}

/// The Landlock ruleset of `confinement`, for [`restrict_self`] in a child.
#[cfg(target_os = "linux")]
pub(crate) fn ruleset(confinement: &Confinement) -> Result<OwnedFd, SandboxError> {
    use landlock::{
        ABI, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, path_beneath_rules,
    };
    // The newest rights this crate version knows; older kernels drop what they lack
    // (best effort), and a kernel with none at all is refused below.
    let abi = ABI::V6;
    let fail =
        |e: &dyn std::fmt::Display| SandboxError::Confinement(format!("setting up Landlock: {e}"));
    let created = Ruleset::default()
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
        .map_err(|e| fail(&e))?;
    // A kernel without Landlock gives no ruleset (best-effort mode): refuse.
    let fd: Option<OwnedFd> = created.into();
    fd.ok_or_else(|| {
        SandboxError::Confinement(
            "this kernel does not enforce Landlock (needs Linux ≥ 5.13 with `landlock` in the \
             LSM list, e.g. boot with lsm=landlock,...); the compiler is never run unconfined"
                .into(),
        )
    })
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn ruleset(_: &Confinement) -> Result<OwnedFd, SandboxError> {
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
        let work = tempfile::tempdir().unwrap();
        let dir = work.path();
        std::fs::write(dir.join("mine.txt"), "ours").unwrap();
        let secret = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(secret.path(), "secret").unwrap();
        std::os::unix::fs::symlink(secret.path(), dir.join("link")).unwrap();
        let cat_path = crate::toolchain::which("cat").expect("cat");
        let cat = |name: &std::path::Path| {
            let fd = match ruleset(&cat_only(&cat_path, dir)) {
                Ok(fd) => fd,
                Err(e) => {
                    eprintln!("SKIPPED: {e}");
                    return None;
                }
            };
            let mut cmd = Command::new(&cat_path);
            cmd.arg(name).env_clear();
            // SAFETY: restrict_self makes two system calls and allocates nothing.
            unsafe {
                use std::os::fd::AsRawFd;
                use std::os::unix::process::CommandExt;
                cmd.pre_exec(move || restrict_self(fd.as_raw_fd()));
            }
            Some(cmd.output().unwrap())
        };
        let Some(mine) = cat(&dir.join("mine.txt")) else {
            return;
        };
        assert_eq!(String::from_utf8_lossy(&mine.stdout), "ours", "{mine:?}");
        for denied in [dir.join("link"), secret.path().to_path_buf()] {
            let out = cat(&denied).unwrap();
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
