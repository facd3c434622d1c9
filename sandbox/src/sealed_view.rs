//! The filesystem view the compiler runs in: a fresh, empty root that holds only the
//! toolchain, the sysroot, the host libraries the toolchain links against and the compile's
//! work directory, each at its host path.
//!
//! Why a view and not only Landlock: Landlock refuses *opening* a file, not *finding* it, so
//! `__has_include`, `__has_embed` and the error text of `#embed` / `.incbin` (spelled through
//! token pasting, digraphs or line splices past the text check) still told the program
//! whether a host path exists. In the view, every other host path simply does not exist.
//!
//! The child process, between fork and exec, unshares a user and a mount namespace (no
//! privileges needed), mounts a tmpfs on an empty directory, creates the directories and
//! symlinks leading to each allowed path, bind-mounts the allowed paths (read-only except the
//! work directory and `/dev/null`), remounts the tmpfs read-only, `pivot_root`s into it and
//! detaches the old root. Then Landlock ([`crate::confine`]) is applied on top. There is no
//! `/proc` in the view (another process's `/proc/PID/root` would show the host).
//!
//! Without unprivileged user namespaces (`kernel.unprivileged_userns_clone=0`,
//! `user.max_user_namespaces=0`, a container whose seccomp profile refuses `unshare`) the
//! compile fails closed with [`SandboxError::Confinement`]; there is no weaker fallback.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use crate::SandboxError;

/// What the view must hold and where it is built.
pub(crate) struct ViewSpec<'a> {
    /// Visible read-only (directories or files; missing ones are skipped).
    pub(crate) read: &'a [PathBuf],
    /// Visible writable (the work directory, `/dev/null`).
    pub(crate) write: &'a [PathBuf],
    /// An empty host directory the tmpfs root is mounted on (invisible outside the child).
    pub(crate) mount_point: &'a Path,
    /// The directory the tool starts in, inside the view.
    pub(crate) cwd: &'a Path,
}

/// A bind mount of a host path onto the same path in the view.
struct Bind {
    /// The host path (already free of symlinks).
    source: CString,
    /// `mount_point` + the host path.
    target: CString,
    is_dir: bool,
    /// Inside an earlier bind, where the host already has the mount point.
    nested: bool,
    /// Flags of the remount that follows the bind; `None` keeps the bind as it is.
    remount: Option<libc::c_ulong>,
}

/// Everything the child does, prepared by the parent: between fork and exec only system
/// calls on this data may run (no allocation, no locks).
pub(crate) struct SealedView {
    uid_map: CString,
    gid_map: CString,
    mount_point: CString,
    dirs: Vec<CString>,
    symlinks: Vec<(CString, CString)>,
    binds: Vec<Bind>,
    cwd: CString,
}

/// The paths a view is made of, before they become C strings.
#[derive(Default)]
struct Plan {
    dirs: BTreeSet<PathBuf>,
    /// (link path, link target) as on the host.
    symlinks: BTreeSet<(PathBuf, PathBuf)>,
    /// (real path, writable).
    binds: Vec<(PathBuf, bool)>,
}

impl Plan {
    /// Records what makes `path` resolve in the view as on the host: the directories on
    /// the way, each symlink met (recreated, then followed), and a bind of the real path.
    fn add(&mut self, path: &Path, writable: bool, depth: u32) -> Result<(), SandboxError> {
        if depth > 40 {
            return Err(SandboxError::Confinement(format!(
                "too many symlinks resolving {}",
                path.display()
            )));
        }
        let path = normalise(path);
        let parts: Vec<Component> = path.components().skip(1).collect();
        let mut at = PathBuf::from("/");
        for (i, part) in parts.iter().enumerate() {
            let next = at.join(part);
            let Ok(meta) = std::fs::symlink_metadata(&next) else {
                return Ok(()); // absent on the host: absent in the view
            };
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&next).map_err(|e| SandboxError::io(&next, e))?;
                self.symlinks.insert((next, target.clone()));
                let mut resolved = at.join(target);
                resolved.extend(&parts[i + 1..]);
                return self.add(&resolved, writable, depth + 1);
            }
            if i + 1 == parts.len() {
                self.binds.push((next, writable));
                return Ok(());
            }
            self.dirs.insert(next.clone());
            at = next;
        }
        Ok(())
    }
}

/// `..` and `.` removed lexically; only called on paths whose prefixes are real
/// directories (a symlink is resolved as soon as [`Plan::add`] meets it).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    out
}

fn cstring(path: &Path) -> Result<CString, SandboxError> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| SandboxError::Confinement(format!("NUL in path {}", path.display())))
}

/// `inside` re-rooted under `root` (both absolute).
fn under(root: &Path, inside: &Path) -> PathBuf {
    root.join(inside.strip_prefix("/").unwrap_or(inside))
}

/// The mount flags a bind-remount of `path` must keep: in a user namespace the kernel
/// refuses to clear the ones the host mount has (nosuid, nodev, noexec, the atime mode).
fn locked_flags(path: &Path) -> Result<libc::c_ulong, SandboxError> {
    let c = cstring(path)?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c` is a valid C string and `st` a writable statvfs.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return Err(SandboxError::io(path, std::io::Error::last_os_error()));
    }
    let has = |flag: libc::c_ulong| st.f_flag & flag != 0;
    let mut flags = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if has(st_flag) {
            flags |= ms_flag;
        }
    }
    if !has(libc::ST_NOATIME) && !has(libc::ST_RELATIME) {
        flags |= libc::MS_STRICTATIME;
    }
    Ok(flags)
}

impl SealedView {
    /// Plans the view of `spec` (reads the host's symlinks and mount flags).
    pub(crate) fn plan(spec: &ViewSpec) -> Result<SealedView, SandboxError> {
        let mut plan = Plan::default();
        for path in spec.read {
            plan.add(path, false, 0)?;
        }
        for path in spec.write {
            plan.add(path, true, 0)?;
        }
        // A path beneath another bind is already visible with the same access: parents
        // first, then skip what they cover. A writable one inside a read-only one is bound
        // again on top (its mount point exists: the parent shows the host directory).
        plan.binds.sort();
        plan.binds.dedup_by(|b, a| {
            let same = b.0 == a.0;
            a.1 |= same && b.1;
            same
        });
        let mut kept: Vec<(PathBuf, bool)> = Vec::new();
        for (path, writable) in plan.binds {
            match kept.iter().rev().find(|(k, _)| path.starts_with(k)) {
                Some((_, w)) if *w || !writable => {}
                _ => kept.push((path, writable)),
            }
        }
        let covered = |p: &Path| kept.iter().any(|(k, _)| p.starts_with(k) && p != k);
        let root = spec.mount_point;
        let mut binds = Vec::new();
        for (path, writable) in &kept {
            let is_dir = std::fs::metadata(path)
                .map_err(|e| SandboxError::io(path, e))?
                .is_dir();
            let remount = match (writable, is_dir) {
                // `/dev/null` must stay a device: no nodev remount for writable files.
                (true, false) => None,
                (true, true) => Some(libc::MS_NOSUID | libc::MS_NODEV | locked_flags(path)?),
                (false, _) => Some(libc::MS_RDONLY | libc::MS_NOSUID | locked_flags(path)?),
            };
            binds.push(Bind {
                nested: covered(path),
                source: cstring(path)?,
                target: cstring(&under(root, path))?,
                is_dir,
                remount,
            });
        }
        let dirs = plan
            .dirs
            .iter()
            .filter(|d| !covered(d) && !kept.iter().any(|(k, _)| k == *d))
            .map(|d| cstring(&under(root, d)))
            .collect::<Result<_, _>>()?;
        let symlinks = plan
            .symlinks
            .iter()
            .filter(|(link, _)| !covered(link))
            .map(|(link, target)| Ok((cstring(target)?, cstring(&under(root, link))?)))
            .collect::<Result<_, SandboxError>>()?;
        // SAFETY: getuid/getgid cannot fail.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        Ok(SealedView {
            uid_map: CString::new(format!("{uid} {uid} 1\n")).expect("no NUL"),
            gid_map: CString::new(format!("{gid} {gid} 1\n")).expect("no NUL"),
            mount_point: cstring(root)?,
            dirs,
            symlinks,
            binds,
            cwd: cstring(spec.cwd)?,
        })
    }

    /// Makes `cmd` start inside the view, then confined by the Landlock ruleset `landlock`.
    pub(crate) fn install(self, cmd: &mut Command, landlock: OwnedFd) {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs between fork and exec in the single-threaded child; it
        // only makes system calls on data prepared above and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                self.enter()?;
                crate::confine::restrict_self(landlock.as_raw_fd())
            });
        }
    }

    /// The child's side (async-signal-safe: system calls only).
    fn enter(&self) -> std::io::Result<()> {
        let check = |rc: libc::c_int| {
            if rc < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(())
            }
        };
        let null = std::ptr::null::<libc::c_char>();
        // SAFETY: every pointer is a live NUL-terminated string owned by `self` (or a
        // literal), or null where the call allows it.
        unsafe {
            check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS))?;
            write_file(c"/proc/self/setgroups", c"deny")?;
            write_file(c"/proc/self/uid_map", &self.uid_map)?;
            write_file(c"/proc/self/gid_map", &self.gid_map)?;
            // Nothing mounted here propagates back to the host.
            check(libc::mount(
                null,
                c"/".as_ptr(),
                null,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ))?;
            let root = self.mount_point.as_ptr();
            check(libc::mount(
                c"tmpfs".as_ptr(),
                root,
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                c"size=1m,mode=0755".as_ptr().cast(),
            ))?;
            for dir in &self.dirs {
                if libc::mkdir(dir.as_ptr(), 0o755) != 0
                    && std::io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST)
                {
                    return Err(std::io::Error::last_os_error());
                }
            }
            for (target, link) in &self.symlinks {
                check(libc::symlink(target.as_ptr(), link.as_ptr()))?;
            }
            for bind in &self.binds {
                if bind.is_dir && !bind.nested {
                    check(libc::mkdir(bind.target.as_ptr(), 0o755))?;
                } else if !bind.nested {
                    let fd =
                        libc::open(bind.target.as_ptr(), libc::O_CREAT | libc::O_WRONLY, 0o644);
                    check(fd)?;
                    libc::close(fd);
                }
                check(libc::mount(
                    bind.source.as_ptr(),
                    bind.target.as_ptr(),
                    null,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ))?;
                if let Some(flags) = bind.remount {
                    check(libc::mount(
                        null,
                        bind.target.as_ptr(),
                        null,
                        libc::MS_BIND | libc::MS_REMOUNT | flags,
                        std::ptr::null(),
                    ))?;
                }
            }
            // Nothing new can be created outside the bound work directory.
            check(libc::mount(
                null,
                root,
                null,
                libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
                std::ptr::null(),
            ))?;
            check(libc::chdir(root))?;
            check(
                libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as libc::c_int,
            )?;
            // The old root is stacked on the new one: detach it, and the host is gone.
            check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
            check(libc::chdir(self.cwd.as_ptr()))?;
        }
        Ok(())
    }
}

/// Writes `text` to `path` with raw system calls (for the child between fork and exec).
///
/// # Safety
/// Only async-signal-safe calls are made; the strings must be live.
unsafe fn write_file(path: &std::ffi::CStr, text: &std::ffi::CStr) -> std::io::Result<()> {
    // SAFETY: see the function's contract.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let bytes = text.to_bytes();
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}
