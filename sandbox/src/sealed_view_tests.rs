//! The compiler sees no host: whether a host file outside the sealed view exists must not
//! change what a compile gives, whichever way a program probes it (`__has_include`,
//! `__has_embed`, `#embed`, `.incbin`) and however it spells the probe (plainly, pasted by a
//! macro, with the `%:` digraph, with line splices). These compiles bypass the source check
//! and the inline-assembly poisoning on purpose: the view alone must hold.

use std::process::Command;

use crate::compiler::{Clang, CompileError, Dialect, Toolchain};

/// Wraps a preprocessor condition into a program whose binary says which way it went.
fn condition(directive_if: &str, directive_else: &str, directive_end: &str, cond: &str) -> String {
    format!(
        "#define P(a, b) a##b\n{directive_if} {cond}\nconst char *probe = \"PROBE_PRESENT\";\n\
         {directive_else}\nconst char *probe = \"PROBE_ABSENT\";\n{directive_end}\n\
         int main(void) {{ return probe[6] == 'P'; }}\n"
    )
}

/// Every probe of `path`, each in every spelling.
fn probes(path: &str) -> Vec<String> {
    let plain = ("#if", "#else", "#endif");
    let digraph = ("%:if", "%:else", "%:endif");
    let mut out = Vec::new();
    for (name, tail) in [("include", ""), ("embed", " == __STDC_EMBED_FOUND__")] {
        let spliced = format!("__has_{}\\\n{}", &name[..2], &name[2..]);
        for (dirs, cond) in [
            (plain, format!("__has_{name}(\"{path}\"){tail}")),
            (plain, format!("P(__has_, {name})(\"{path}\"){tail}")),
            (digraph, format!("__has_{name}(\"{path}\"){tail}")),
            (digraph, format!("P(__has_, {name})(\"{path}\"){tail}")),
            (plain, format!("{spliced}(\"{path}\"){tail}")),
            // the path itself pasted and spliced
            (
                plain,
                format!(
                    "P(__has_, {name})(\"{}\\\n{}\"){tail}",
                    &path[..3],
                    &path[3..]
                ),
            ),
        ] {
            out.push(condition(dirs.0, dirs.1, dirs.2, &cond));
        }
    }
    for directive in ["#embed", "%:embed", "#em\\\nbed", "%:\\\nembed"] {
        out.push(format!(
            "static const char s[] = {{\n{directive} \"{path}\"\n, 0 }};\n\
             int main(void) {{ return s[0]; }}\n"
        ));
    }
    // `#embed` of a macro-built operand (`"P"` made by stringising)
    out.push(format!(
        "#define S(x) #x\n#define X(x) S(x)\nstatic const char s[] = {{\n#embed X({path})\n, 0 }};\n\
         int main(void) {{ return s[0]; }}\n"
    ));
    for (undef, keyword, bin) in [
        ("#undef", "__asm__", ".incbin"),
        ("%:undef", "P(__as, m__)", ".incbin"),
        ("#undef", "__as\\\nm__", ".inc\\\nbin"),
    ] {
        out.push(format!(
            "#define P(a, b) a##b\n{undef} __asm__\n\
             {keyword}(\".section .data,\\\"\\\",@\\n.globl s\\ns:\\n{bin} \\\"{path}\\\"\\n.byte 0\\n\");\n\
             extern char s[];\nint main(void) {{ return s[0]; }}\n"
        ));
    }
    out
}

/// The installed toolchains; a missing one is skipped with a message, but where this
/// machine allows user and mount namespaces (`unshare -Urm` works) a toolchain that cannot
/// be sealed is a failure, not a skip.
fn toolchains() -> Vec<Toolchain> {
    let namespaces = Command::new("unshare")
        .args(["-Urm", "true"])
        .status()
        .is_ok_and(|s| s.success());
    [Dialect::C, Dialect::Cpp]
        .into_iter()
        .filter_map(|d| match Toolchain::locate(d) {
            Ok(t) => Some(t),
            Err(e @ crate::SandboxError::Confinement(_)) if namespaces => {
                panic!("namespaces work here, yet {d:?}: {e}")
            }
            Err(e) => {
                eprintln!("SKIPPED {d:?}: {e}");
                None
            }
        })
        .collect()
}

/// A compile's binary, or its diagnostics.
type Compiled = Result<Vec<u8>, CompileError>;

/// What a compile gave, comparable across runs.
fn result(clang: Clang) -> Compiled {
    match clang {
        Clang::Built(wasm) => Ok(wasm),
        Clang::Rejected(msg) => Err(CompileError::Rejected(msg)),
        Clang::TimedOut(msg) => panic!("{msg}"),
    }
}

fn sealed(t: &Toolchain, src: &str) -> Compiled {
    let name = format!("p.{}", t.dialect.extension());
    result(t.run(&[(&name, src)], &[], &[]).unwrap())
}

/// The same compile with no view and no Landlock (the control).
fn unsealed(t: &Toolchain, src: &str) -> Compiled {
    let work = tempfile::tempdir().unwrap();
    let name = format!("p.{}", t.dialect.extension());
    std::fs::write(work.path().join(&name), src).unwrap();
    let out = Command::new(t.clang_path())
        .args(t.dialect.base_flags())
        .args(["-o", "out.wasm", &name])
        .current_dir(work.path())
        .output()
        .unwrap();
    if out.status.success() {
        Ok(std::fs::read(work.path().join("out.wasm")).unwrap())
    } else {
        Err(CompileError::Rejected(
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ))
    }
}

fn contains(wasm: &[u8], needle: &str) -> bool {
    wasm.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// A host file outside every work directory, and its path.
fn planted() -> (tempfile::TempDir, String) {
    let outside = tempfile::tempdir().unwrap();
    let path = outside.path().join("host-secret.txt");
    std::fs::write(&path, "HOST_SECRET_41").unwrap();
    let path = path.to_str().unwrap().to_string();
    (outside, path)
}

/// Compiles every probe with the file present, then absent; `compile` decides how.
fn present_and_absent(
    t: &Toolchain,
    compile: impl Fn(&Toolchain, &str) -> Compiled,
) -> Vec<(String, Compiled, Compiled)> {
    let (_outside, path) = planted();
    let srcs = probes(&path);
    let present: Vec<_> = srcs.iter().map(|s| compile(t, s)).collect();
    std::fs::remove_file(&path).unwrap();
    let absent = srcs.iter().map(|s| compile(t, s));
    srcs.iter()
        .cloned()
        .zip(present)
        .zip(absent)
        .map(|((s, p), a)| (s, p, a))
        .collect()
}

#[test]
fn a_host_file_outside_the_view_cannot_be_observed() {
    for t in toolchains() {
        for (src, present, absent) in present_and_absent(&t, sealed) {
            assert_eq!(
                present, absent,
                "{:?} observed the host file with\n{src}",
                t.dialect
            );
            // Identical, and identical to a compile where the file is missing: not, say,
            // the same failure for an unrelated reason.
            if src.contains("PROBE_ABSENT") {
                let wasm = present.unwrap_or_else(|e| panic!("{src}\n{e}"));
                assert!(contains(&wasm, "PROBE_ABSENT") && !contains(&wasm, "PROBE_PRESENT"));
            } else {
                let msg = present.err().unwrap_or_else(|| panic!("built:\n{src}"));
                assert!(
                    ["not found", "no such file", "could not find"]
                        .iter()
                        .any(|m| msg.to_string().to_lowercase().contains(m)),
                    "{:?}: {src}\n{msg}",
                    t.dialect
                );
            }
        }
    }
}

#[test]
fn without_the_view_every_probe_observes_the_host_file() {
    // So the test above means something: each probe does tell, unconfined.
    for t in toolchains() {
        for (src, present, absent) in present_and_absent(&t, unsealed) {
            assert_ne!(present, absent, "{:?} probe cannot tell:\n{src}", t.dialect);
        }
    }
}

#[test]
fn host_paths_the_toolchain_does_not_need_do_not_exist_in_the_view() {
    for t in toolchains() {
        for path in [
            "/etc/hostname",
            "/etc/passwd",
            "/proc/self/status",
            "/home",
            "/root",
        ] {
            let src = condition(
                "#if",
                "#else",
                "#endif",
                &format!("P(__has_, include)(\"{path}\")"),
            );
            let wasm = sealed(&t, &src).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                contains(&wasm, "PROBE_ABSENT") && !contains(&wasm, "PROBE_PRESENT"),
                "{path} is visible"
            );
        }
    }
}

#[test]
fn standard_headers_still_compile_in_the_view() {
    for t in toolchains() {
        let src = match t.dialect {
            Dialect::C => {
                "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n\
                           int main(void) { printf(\"%f\\n\", sqrt(2.0)); return 0; }\n"
            }
            Dialect::Cpp => {
                "#include <vector>\n#include <iostream>\n#include <algorithm>\n\
                             int main() { std::vector<int> v{3, 1, 2}; std::sort(v.begin(), v.end());\n\
                             std::cout << v[0] << std::endl; }\n"
            }
        };
        let built = sealed(&t, src);
        assert!(built.is_ok(), "{:?}: {built:?}", t.dialect);
    }
}
