//! The compiler is part of the sandbox: every way of making clang read a host file into
//! the program is refused, for C and for C++, and the program never sees the file, nor
//! learns whether it exists. (That the sealed compile view and Landlock alone also stop each
//! of them, in every spelling, and a symlink planted in the work directory, is tested inside
//! the crate, in `compiler.rs` and `sealed_view_tests.rs`, where the text check can be
//! bypassed.)

use verigym_sandbox::{CSignature, CType, Language, SandboxError, StdioOutcome, Verdict};

use crate::{add_tests, limits, sandbox, stdio_available, stdio_test_limits};

/// A host file with recognisable contents, and C-string-safe path.
fn secret_file() -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), "VERIGYM_SECRET_6d1f\n").unwrap();
    file
}

/// Programs that would print `path`'s bytes if clang read it.
fn escapes(path: &str) -> Vec<String> {
    vec![
        // .incbin through inline assembly, spelled three ways and pasted by a macro
        format!(
            "#include <stdio.h>\n__asm__(\".section .data,\\\"\\\",@\\n.globl s\\ns:\\n.incbin \\\"{path}\\\"\\n.byte 0\\n\");\n\
             extern char s[];\nint main(void) {{ puts(s); return 0; }}\n"
        ),
        format!("asm(\".incbin \\\"{path}\\\"\");\nint main(void) {{ return 0; }}\n"),
        format!(
            "void f(void) {{ __asm volatile(\".incbin \\\"{path}\\\"\"); }}\nint main(void) {{ return 0; }}\n"
        ),
        format!(
            "#define CAT(a, b) a##b\nCAT(__as, m__)(\".incbin \\\"{path}\\\"\");\nint main(void) {{ return 0; }}\n"
        ),
        // #embed, directly and through a macro
        format!(
            "#include <stdio.h>\nstatic const char s[] = {{\n#embed \"{path}\"\n, 0 }};\n\
             int main(void) {{ puts(s); return 0; }}\n"
        ),
        format!(
            "#define F \"{path}\"\nstatic const char s[] = {{\n#embed F\n}};\nint main(void) {{ return 0; }}\n"
        ),
        // absolute includes, directly and through macros, and __FILE__ after #line
        format!("#include \"{path}\"\nint main(void) {{ return 0; }}\n"),
        format!("#include <{path}>\nint main(void) {{ return 0; }}\n"),
        format!("#define P \"{path}\"\n#include P\nint main(void) {{ return 0; }}\n"),
        format!(
            "#define STR(x) #x\n#define XSTR(x) STR(x)\n#define FILE {path}\n#include XSTR(FILE)\n\
             int main(void) {{ return 0; }}\n"
        ),
        format!("#line 1 \"{path}\"\n#include __FILE__\nint main(void) {{ return 0; }}\n"),
        format!("#if __has_include(\"{path}\")\nint main(void) {{ return 1; }}\n#endif\n"),
        format!("_Pragma(\"GCC dependency \\\"{path}\\\"\")\nint main(void) {{ return 0; }}\n"),
        format!("#pragma GCC dependency \"{path}\"\nint main(void) {{ return 0; }}\n"),
    ]
}

#[test]
fn compiler_escapes_are_compile_errors_for_programs() {
    let secret = secret_file();
    let path = secret.path().to_str().unwrap().to_string();
    for language in [Language::C, Language::Cpp] {
        let Some(judge) = stdio_available(language) else {
            continue;
        };
        for src in escapes(&path) {
            let out = judge
                .run(language, &src, &[""], &stdio_test_limits(language))
                .unwrap();
            match &out[0] {
                StdioOutcome::CompileError(msg) => {
                    assert!(
                        !msg.contains("VERIGYM_SECRET"),
                        "{language:?} leaked: {msg}"
                    );
                }
                other => panic!("{language:?} compiled an escape:\n{src}\n{other:?}"),
            }
        }
    }
}

#[test]
fn compiler_escapes_are_compile_errors_for_c_functions() {
    let rt = match sandbox().c() {
        Ok(rt) => rt,
        Err(e @ (SandboxError::ToolchainMissing { .. } | SandboxError::Confinement(_))) => {
            eprintln!("SKIPPED: {e}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    let secret = secret_file();
    let path = secret.path().to_str().unwrap();
    let sig = CSignature {
        name: "add".into(),
        params: vec![CType::Int, CType::Int],
        ret: CType::Int,
    };
    for escape in escapes(path) {
        // the escape's own main is renamed away: the trusted harness provides main
        let src = format!(
            "{}\nint64_t add(int64_t a, int64_t b) {{ return a + b; }}\n",
            escape.replace("int main(void)", "static int unused_main(void)")
        );
        match rt.judge(&src, &sig, &add_tests(), &limits(), 0.0).unwrap() {
            Verdict::CompileError { msg } => assert!(!msg.contains("VERIGYM_SECRET"), "{msg}"),
            other => panic!("compiled an escape:\n{src}\n{other:?}"),
        }
    }
}

/// A program printing whether `path` exists, asked the way that passes the text check:
/// `__has_include` / `__has_embed` pasted together by a macro.
fn pasted_probes(path: &str, run: usize) -> Vec<String> {
    [
        "P(__has_, include)(F)",
        "P(__has_, embed)(F) == __STDC_EMBED_FOUND__",
    ]
    .iter()
    .map(|cond| {
        format!(
            "/* run {run}: a new source, so no cached compile is reused */\n\
                 #include <stdio.h>\n#define P(a, b) a##b\n#define F \"{path}\"\n\
                 int main(void) {{\n#if {cond}\n puts(\"1\");\n#else\n puts(\"0\");\n#endif\n\
                 return 0; }}\n"
        )
    })
    .collect()
}

#[test]
fn whether_a_host_file_exists_cannot_be_observed_through_pasted_probes() {
    for language in [Language::C, Language::Cpp] {
        let Some(judge) = stdio_available(language) else {
            continue;
        };
        let secret = secret_file();
        let path = secret.path().to_str().unwrap().to_string();
        let limits = stdio_test_limits(language);
        let printed = |run: usize| -> Vec<String> {
            pasted_probes(&path, run)
                .iter()
                .map(
                    |src| match &judge.run(language, src, &[""], &limits).unwrap()[0] {
                        StdioOutcome::Exited { stdout, .. } => stdout.clone(),
                        other => panic!("{language:?}: {src}\n{other:?}"),
                    },
                )
                .collect()
        };
        let present = printed(1);
        drop(secret);
        assert!(!std::path::Path::new(&path).exists());
        let absent = printed(2);
        assert_eq!(present, absent, "{language:?} observed the host file");
        assert!(present.iter().all(|out| out == "0\n"), "{present:?}");
    }
}
