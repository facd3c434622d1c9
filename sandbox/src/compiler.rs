//! The C and C++ compiler, treated as part of the sandbox: Debian's clang-19 with
//! wasi-libc (and libc++ for C++) targeting `wasm32-wasi`, run on the host as a confined
//! child process.
//!
//! Every compile:
//! * passes [`crate::source_check`] first (inline assembly, includes other than standard
//!   `<headers>`, `#embed`, `__has_include`, `_Pragma` and most pragmas are refused);
//! * defines `asm`, `__asm` and `__asm__` as an undeclared name on the command line, so
//!   inline assembly that a macro pastes together (`CAT(__as, m__)`) fails to compile;
//! * runs clang in a fresh temp directory inside a sealed filesystem view
//!   ([`crate::sealed_view`]) that holds only the compiler's own installation (and the
//!   tools it starts), the WASI sysroot, the host's shared libraries, `/etc/ld.so.cache`,
//!   `/dev/null` and the work directory, so no spelling of `__has_include`, `__has_embed`,
//!   `#embed` or `.incbin` can even see whether another host path exists; and under
//!   Landlock ([`crate::confine`]) inside it: it may write only the work directory, and
//!   reading through a symlink to anything else fails (Landlock checks the resolved file);
//! * has a 30 s wall-clock limit, 60 CPU-s, 4 GiB of address space, 256 MiB per written
//!   file and no core dumps (template and macro bombs), and an empty environment.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::SandboxError;
use crate::confine::{Confinement, host_library_dirs};
use crate::outcome::truncate;

const COMPILE_TIMEOUT: Duration = Duration::from_secs(30);
/// The WASI sysroot Debian's `wasi-libc` / `libc++-19-dev-wasm32` install into.
const SYSROOT: &str = "/usr";
const SYSROOT_DIRS: &[&str] = &["/usr/include/wasm32-wasi", "/usr/lib/wasm32-wasi"];
/// The name every inline-assembly keyword is defined to (see the module docs).
const NO_ASM: &str = "__verigym_inline_assembly_is_not_allowed";
/// Kept in the diagnostics only up to this size.
const LOG_BYTES: u64 = 64 << 10;

pub(crate) const INSTALL_C: &str = "run `sandbox/setup.sh c` (Debian: `apt-get install clang-19 \
     lld-19 wasi-libc libclang-rt-19-dev-wasm32 libc++-19-dev-wasm32 libc++abi-19-dev-wasm32`)";

/// The source language of a compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Dialect {
    C,
    Cpp,
}

impl Dialect {
    fn driver(self) -> &'static str {
        match self {
            Dialect::C => "clang-19",
            Dialect::Cpp => "clang++-19",
        }
    }

    pub(crate) fn extension(self) -> &'static str {
        match self {
            Dialect::C => "c",
            Dialect::Cpp => "cpp",
        }
    }

    /// Flags of every compile in this dialect (the per-use ones come from the caller).
    pub(crate) fn base_flags(self) -> Vec<String> {
        let mut flags: Vec<String> = [
            "--target=wasm32-wasi",
            &format!("--sysroot={SYSROOT}"),
            "-O2",
            "-fno-color-diagnostics",
            "-fno-crash-diagnostics",
            &format!("-Dasm={NO_ASM}"),
            &format!("-D__asm={NO_ASM}"),
            &format!("-D__asm__={NO_ASM}"),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        match self {
            Dialect::C => flags.push("-std=gnu17".into()),
            // libc++ for wasm32-wasi is built without exceptions.
            Dialect::Cpp => flags.extend(["-std=gnu++20".into(), "-fno-exceptions".into()]),
        }
        flags
    }
}

/// A located clang driver for one dialect, with what its runs may read.
#[derive(Debug, Clone)]
pub(crate) struct Toolchain {
    pub(crate) dialect: Dialect,
    clang: PathBuf,
    /// `clang --version`: part of every cache key.
    pub(crate) version: String,
    /// Read-only in the sealed view and under Landlock (the work directory is added).
    read: Vec<PathBuf>,
}

/// Why a candidate did not compile: its fault, reported as its compile error (every case
/// of a call-based run, the verdict of a program).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CompileError {
    /// The source check refused it before clang ran.
    #[error(transparent)]
    Refused(#[from] crate::source_check::SourceRejected),
    /// clang's diagnostics (work-dir paths removed), fresh or cached.
    #[error("{0}")]
    Rejected(String),
    /// clang ran past its time budget.
    #[error("{0}")]
    TimedOut(String),
    /// wasmtime could not compile clang's output.
    #[error("wasm compilation failed: {0}")]
    Wasm(String),
    /// The program imports what the runtime does not provide.
    #[error("linking failed: {0}")]
    Link(String),
}

/// What a clang run gave.
pub(crate) enum Clang {
    Built(Vec<u8>),
    /// The compiler's diagnostics (work-dir paths removed): deterministic, cacheable.
    Rejected(String),
    /// Not cacheable: a slow compile may be the machine's load, not the source.
    TimedOut(String),
}

impl Toolchain {
    /// Finds clang (`$VERIGYM_CLANG` / `$VERIGYM_CLANGXX` override) and the sysroot.
    pub(crate) fn locate(dialect: Dialect) -> Result<Toolchain, SandboxError> {
        let missing = |tool: &str| SandboxError::ToolchainMissing {
            tool: tool.into(),
            install: INSTALL_C.into(),
        };
        let var = match dialect {
            Dialect::C => "VERIGYM_CLANG",
            Dialect::Cpp => "VERIGYM_CLANGXX",
        };
        let clang = match std::env::var_os(var) {
            Some(path) => PathBuf::from(path),
            None => crate::toolchain::which(dialect.driver())
                .ok_or_else(|| missing(dialect.driver()))?,
        };
        let needed: &[&str] = match dialect {
            Dialect::C => &["/usr/lib/wasm32-wasi/libc.a"],
            Dialect::Cpp => &[
                "/usr/lib/wasm32-wasi/libc.a",
                "/usr/lib/wasm32-wasi/libc++.a",
                "/usr/lib/wasm32-wasi/libc++abi.a",
            ],
        };
        if let Some(absent) = needed.iter().find(|p| !Path::new(p).exists()) {
            return Err(missing(absent));
        }
        let version = Command::new(&clang)
            .arg("--version")
            .output()
            .map_err(|_| missing(&clang.display().to_string()))?;
        // The driver's installation (e.g. /usr/lib/llvm-19): its binaries, the linker it
        // runs, the resource headers and compiler-rt all live beneath it.
        let real = clang
            .canonicalize()
            .map_err(|e| SandboxError::io(&clang, e))?;
        let install = real
            .parent()
            .and_then(Path::parent)
            .map_or_else(|| real.clone(), Path::to_path_buf);
        let mut read = vec![install, PathBuf::from("/etc/ld.so.cache")];
        read.extend(SYSROOT_DIRS.iter().map(PathBuf::from));
        read.extend(host_library_dirs());
        // The driver as spelled (its symlinks recreated) and the tools it starts, which may
        // live outside the installation (Debian's `/usr/bin/wasm-ld-19`).
        read.push(clang.clone());
        read.extend(driver_tools(&clang, dialect)?);
        let toolchain = Toolchain {
            dialect,
            clang,
            version: String::from_utf8_lossy(&version.stdout).into_owned(),
            read,
        };
        // Fail here, with the requirement named, where the sealed view cannot be built.
        let work = tempfile::tempdir().map_err(|e| SandboxError::io(std::env::temp_dir(), e))?;
        match toolchain.invoke(work.path(), &["--version".into()], None, &[])? {
            Clang::Built(_) => Ok(toolchain),
            Clang::Rejected(msg) | Clang::TimedOut(msg) => Err(SandboxError::Confinement(format!(
                "clang does not start in its sealed view: {msg}"
            ))),
        }
    }

    /// The driver's path, for tests that run it outside the view.
    #[cfg(test)]
    pub(crate) fn clang_path(&self) -> &Path {
        &self.clang
    }

    /// Compiles and links `units` (file name, text) with `flags` after the dialect's base
    /// flags, in a fresh confined work directory; `read_also` are extra read-only paths
    /// (e.g. a precompiled header). Sources must have passed the source check.
    pub(crate) fn run(
        &self,
        units: &[(&str, &str)],
        flags: &[String],
        read_also: &[PathBuf],
    ) -> Result<Clang, SandboxError> {
        let work = tempfile::tempdir().map_err(|e| SandboxError::io(std::env::temp_dir(), e))?;
        self.run_in(work.path(), units, flags, read_also)
    }

    /// [`Toolchain::run`] in a given directory (tests plant files there first).
    pub(crate) fn run_in(
        &self,
        dir: &Path,
        units: &[(&str, &str)],
        flags: &[String],
        read_also: &[PathBuf],
    ) -> Result<Clang, SandboxError> {
        for (name, text) in units {
            std::fs::write(dir.join(name), text)
                .map_err(|e| SandboxError::io(dir.join(name), e))?;
        }
        let mut args = flags.to_vec();
        args.extend(["-o".to_string(), "out.wasm".to_string()]);
        args.extend(units.iter().map(|(name, _)| name.to_string()));
        self.invoke(dir, &args, Some("out.wasm"), read_also)
    }

    /// Precompiles the C++ header `header` with `flags` (as programs using it will be
    /// compiled) in a fresh confined work directory; `Built` holds the PCH's bytes.
    pub(crate) fn precompile_header(
        &self,
        header: &Path,
        flags: &[String],
        read_also: &[PathBuf],
    ) -> Result<Clang, SandboxError> {
        let work = tempfile::tempdir().map_err(|e| SandboxError::io(std::env::temp_dir(), e))?;
        let mut args = flags.to_vec();
        args.extend([
            "-x".into(),
            "c++-header".into(),
            header.display().to_string(),
        ]);
        args.extend(["-o".to_string(), "out.pch".to_string()]);
        self.invoke(work.path(), &args, Some("out.pch"), read_also)
    }

    /// Runs clang with the base flags and `args` in `dir`, sealed and confined, under the
    /// limits; `output` is the file (in `dir`) a successful run leaves (`None`: no file,
    /// `Built` is empty).
    fn invoke(
        &self,
        dir: &Path,
        args: &[String],
        output: Option<&str>,
        read_also: &[PathBuf],
    ) -> Result<Clang, SandboxError> {
        let log_path = dir.join("clang.log");
        let log = std::fs::File::create(&log_path).map_err(|e| SandboxError::io(&log_path, e))?;
        let log2 = log
            .try_clone()
            .map_err(|e| SandboxError::io(&log_path, e))?;
        let mut cmd = Command::new(&self.clang);
        cmd.args(self.dialect.base_flags())
            .args(args)
            .current_dir(dir)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            // clang keeps its intermediate object files in $TMPDIR.
            .env("TMPDIR", dir)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log2);
        let mut confinement = Confinement {
            read: self.read.clone(),
            write: vec![dir.to_path_buf(), PathBuf::from("/dev/null")],
        };
        confinement.read.extend(read_also.iter().cloned());
        // The view's root is mounted on an empty directory of its own (only in the child).
        let mount_point =
            tempfile::tempdir().map_err(|e| SandboxError::io(std::env::temp_dir(), e))?;
        seal(&mut cmd, &confinement, mount_point.path(), dir)?;
        limit_resources(&mut cmd);
        let clang = &self.clang;
        let mut child = cmd.spawn().map_err(|e| {
            SandboxError::Confinement(format!(
                "starting {} in its sealed view: {e}; {NEEDS_NAMESPACES}",
                clang.display()
            ))
        })?;
        let started = Instant::now();
        let waited = loop {
            match child.try_wait().map_err(|e| SandboxError::io(clang, e))? {
                Some(status) => break Some(status),
                None if started.elapsed() > COMPILE_TIMEOUT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        let Some(status) = waited else {
            return Ok(Clang::TimedOut(format!(
                "compilation timed out after {}s",
                COMPILE_TIMEOUT.as_secs()
            )));
        };
        if !status.success() {
            let mut text = String::new();
            if let Ok(f) = std::fs::File::open(&log_path) {
                let _ = f.take(LOG_BYTES).read_to_string(&mut text);
            }
            // Temp paths would make the message (and a cached copy) nondeterministic.
            let text = text.replace(&format!("{}/", dir.display()), "");
            return Ok(Clang::Rejected(truncate(&text, 4000)));
        }
        let Some(output) = output else {
            return Ok(Clang::Built(Vec::new()));
        };
        let out = dir.join(output);
        std::fs::read(&out)
            .map(Clang::Built)
            .map_err(|e| SandboxError::io(out, e))
    }
}

/// What a failed start of the sealed compiler needs.
const NEEDS_NAMESPACES: &str = "compiling C/C++ needs unprivileged user and mount namespaces \
     (`unshare(CLONE_NEWUSER|CLONE_NEWNS)`: sysctl kernel.unprivileged_userns_clone=1 and \
     user.max_user_namespaces>0, and a container runtime that allows them); the compiler is \
     never run outside its sealed view";

/// Makes `cmd` start in a sealed view holding `confinement`'s paths, under its Landlock
/// rules, in `cwd`.
#[cfg(target_os = "linux")]
fn seal(
    cmd: &mut Command,
    confinement: &Confinement,
    mount_point: &Path,
    cwd: &Path,
) -> Result<(), SandboxError> {
    let landlock = crate::confine::ruleset(confinement)?;
    let view = crate::sealed_view::SealedView::plan(&crate::sealed_view::ViewSpec {
        read: &confinement.read,
        write: &confinement.write,
        mount_point,
        cwd,
    })?;
    view.install(cmd, landlock);
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn seal(_: &mut Command, _: &Confinement, _: &Path, _: &Path) -> Result<(), SandboxError> {
    Err(SandboxError::Confinement(NEEDS_NAMESPACES.into()))
}

/// The programs the driver starts for a compile and link (`clang -###`): the view must
/// hold them at the paths the driver uses.
fn driver_tools(clang: &Path, dialect: Dialect) -> Result<Vec<PathBuf>, SandboxError> {
    let work = tempfile::tempdir().map_err(|e| SandboxError::io(std::env::temp_dir(), e))?;
    let src = work.path().join(format!("t.{}", dialect.extension()));
    std::fs::write(&src, "").map_err(|e| SandboxError::io(&src, e))?;
    let out = Command::new(clang)
        .args(dialect.base_flags())
        .args(["-###", "-o", "t.wasm"])
        .arg(&src)
        .current_dir(work.path())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .output()
        .map_err(|e| SandboxError::io(clang, e))?;
    // Each command is printed as ` "TOOL" "ARG" ...`.
    Ok(String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|line| line.strip_prefix(" \"")?.split('"').next())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .collect())
}

#[cfg(target_os = "linux")]
fn limit_resources(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and calls only setrlimit, which is
    // async-signal-safe; it allocates nothing (the array lives on the stack) and takes no
    // locks.
    unsafe {
        cmd.pre_exec(|| {
            for (resource, value) in [
                (libc::RLIMIT_AS, 4 << 30),
                (libc::RLIMIT_CPU, 60),
                (libc::RLIMIT_FSIZE, 256 << 20),
                (libc::RLIMIT_CORE, 0),
            ] {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_resources(_: &mut Command) {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    //! The sealed view and Landlock stop every escape: these compiles bypass the source
    //! check (and the asm poisoning, by `#undef`) on purpose.
    use super::*;

    const SECRET: &str = "VERIGYM_SECRET_9c2e";

    /// A program printing the bytes `.incbin` or `#embed` put into it.
    fn incbin(path: &str) -> String {
        format!(
            "#undef __asm__\n#include <stdio.h>\n\
             __asm__(\".section .data,\\\"\\\",@\\n.globl s\\ns:\\n.incbin \\\"{path}\\\"\\n.byte 0\\n\");\n\
             extern char s[];\nint main(void) {{ puts(s); return 0; }}\n"
        )
    }

    fn embed(path: &str) -> String {
        format!(
            "#include <stdio.h>\nstatic const char s[] = {{\n#embed \"{path}\"\n, 0 }};\n\
             int main(void) {{ puts(s); return 0; }}\n"
        )
    }

    fn include(path: &str) -> String {
        format!("#define P \"{path}\"\n#include P\nint main(void) {{ return 0; }}\n")
    }

    fn line_file(path: &str) -> String {
        format!("#line 1 \"{path}\"\n#include __FILE__\nint main(void) {{ return 0; }}\n")
    }

    pub(super) fn toolchains() -> Vec<Toolchain> {
        [Dialect::C, Dialect::Cpp]
            .into_iter()
            .filter_map(|d| match Toolchain::locate(d) {
                Ok(t) => Some(t),
                Err(e) => {
                    eprintln!("SKIPPED {d:?}: {e}");
                    None
                }
            })
            .collect()
    }

    fn compile_in(t: &Toolchain, dir: &Path, src: &str) -> Clang {
        let name = format!("p.{}", t.dialect.extension());
        t.run_in(dir, &[(&name, src)], &[], &[]).unwrap()
    }

    fn built_contains(clang: &Clang, needle: &str) -> bool {
        match clang {
            Clang::Built(wasm) => wasm.windows(needle.len()).any(|w| w == needle.as_bytes()),
            _ => false,
        }
    }

    #[test]
    fn the_sealed_compiler_stops_every_escape_even_through_symlinks() {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, SECRET).unwrap();
        let secret = secret.to_str().unwrap().to_string();
        for t in toolchains() {
            let work = tempfile::tempdir().unwrap();
            let dir = work.path();
            std::os::unix::fs::symlink(&secret, dir.join("leak")).unwrap();
            std::fs::write(dir.join("mine.txt"), "OWN_FILE_OK").unwrap();
            // The techniques work where the file is readable: clang embeds the bytes.
            for control in [incbin("mine.txt"), embed("mine.txt")] {
                assert!(
                    built_contains(&compile_in(&t, dir, &control), "OWN_FILE_OK"),
                    "{:?}: the work dir's own file should be embedded by {control}",
                    t.dialect
                );
            }
            for src in [
                incbin(&secret),
                incbin("leak"),
                embed(&secret),
                embed("leak"),
                include(&secret),
                include("leak"),
                line_file(&secret),
            ] {
                match compile_in(&t, dir, &src) {
                    Clang::Rejected(msg) => assert!(!msg.contains(SECRET), "leaked: {msg}"),
                    Clang::Built(wasm) => panic!(
                        "{:?} compiled {src}\n(secret inside: {})",
                        t.dialect,
                        built_contains(&Clang::Built(wasm.clone()), SECRET)
                    ),
                    Clang::TimedOut(msg) => panic!("{msg}"),
                }
            }
        }
    }

    #[test]
    fn unconfined_clang_would_leak_so_the_test_above_means_something() {
        let Some(t) = toolchains().into_iter().next() else {
            return;
        };
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, SECRET).unwrap();
        let work = tempfile::tempdir().unwrap();
        std::fs::write(work.path().join("p.c"), incbin(secret.to_str().unwrap())).unwrap();
        let status = Command::new(&t.clang)
            .args(t.dialect.base_flags())
            .args(["-o", "out.wasm", "p.c"])
            .current_dir(work.path())
            .status()
            .unwrap();
        assert!(status.success());
        let wasm = std::fs::read(work.path().join("out.wasm")).unwrap();
        assert!(built_contains(&Clang::Built(wasm), SECRET));
    }

    #[test]
    fn inline_assembly_pasted_by_a_macro_does_not_compile() {
        for t in toolchains() {
            let work = tempfile::tempdir().unwrap();
            std::fs::write(work.path().join("mine.txt"), "OWN_FILE_OK").unwrap();
            let src = "#define CAT(a, b) a##b\nCAT(__as, m__)(\".incbin \\\"mine.txt\\\"\");\n\
                       int main(void) { return 0; }\n";
            assert!(matches!(
                compile_in(&t, work.path(), src),
                Clang::Rejected(_)
            ));
        }
    }
}
