//! Whole C and C++ programs on stdin/stdout (skipped with a message when the toolchain is
//! missing): common styles pass; wrong programs and every hack fail.

use verigym_sandbox::{Language, StdioJudge, StdioOutcome, StdioVerdict};

use crate::{VerdictCheck, judge_sum, stdio_available, stdio_test_limits};

const C_PASSING: &[&str] = &[
    "#include <stdio.h>\nint main(void) { int n; long long s = 0, x;\n\
     if (scanf(\"%d\", &n) != 1) return 1;\n\
     for (int i = 0; i < n; i++) { scanf(\"%lld\", &x); s += x; }\n\
     printf(\"%lld\\n\", s); return 0; }",
    "#include <stdio.h>\n#include <ctype.h>\nstatic long long next(void) { int c = getchar(), neg = 0;\n\
     long long v = 0; while (c != '-' && !isdigit(c)) c = getchar();\n\
     if (c == '-') { neg = 1; c = getchar(); }\n\
     while (isdigit(c)) { v = v * 10 + (c - '0'); c = getchar(); }\n\
     return neg ? -v : v; }\n\
     int main() { long long n = next(), s = 0; while (n--) s += next(); printf(\"%lld\", s); }",
    "#include <stdio.h>\n#include <stdlib.h>\nint main(void) { int n; long long s = 0, x;\n\
     scanf(\"%d\", &n); while (n--) { scanf(\"%lld\", &x); s += x; }\n\
     printf(\"%lld\\n\", s); exit(0); }",
];

const CPP_PASSING: &[&str] = &[
    "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n\
     ios::sync_with_stdio(false); cin.tie(nullptr);\n\
     int n; cin >> n; vector<long long> a(n); for (auto &x : a) cin >> x;\n\
     cout << accumulate(a.begin(), a.end(), 0LL) << '\\n'; }",
    "#pragma GCC optimize(\"O3,unroll-loops\")\n#pragma GCC target(\"avx2\")\n\
     #include <iostream>\n#include <map>\n#include <string>\n\
     int main() { long long n, x, s = 0; std::map<long long, int> seen; std::cin >> n;\n\
     while (std::cin >> x) { s += x; seen[x]++; }\n\
     std::string out = std::to_string(s); std::cout << out << std::endl; return 0; }",
    "#include <cstdio>\n#include <cstdlib>\n#include <algorithm>\n#include <vector>\n\
     int main() { int n; std::scanf(\"%d\", &n); std::vector<long long> v(n);\n\
     for (auto &x : v) std::scanf(\"%lld\", &x); std::sort(v.begin(), v.end());\n\
     long long s = 0; for (auto x : v) s += x; std::printf(\"%lld\\n\", s); std::exit(0); }",
];

fn run_one(judge: &StdioJudge, language: Language, src: &str, input: &str) -> StdioOutcome {
    judge
        .run(language, src, &[input], &stdio_test_limits(language))
        .unwrap()
        .remove(0)
}

fn for_each_native(check: impl Fn(Language, &StdioJudge)) {
    for language in [Language::C, Language::Cpp] {
        if let Some(judge) = stdio_available(language) {
            check(language, judge);
        }
    }
}

#[test]
fn native_programs_pass() {
    for_each_native(|language, judge| {
        let sources = if language == Language::C {
            C_PASSING
        } else {
            CPP_PASSING
        };
        for src in sources {
            let j = judge_sum(language, judge, src);
            assert!(j.passed(), "{language:?}: {src}\n{j:?}");
        }
    });
}

/// The same hack in C and in C++ (each line is a complete `main` body after the includes).
const HACK_BODIES: &[&str] = &[
    // exit status 0 before any output
    "exit(0);",
    "return 0;",
    // printed verdicts
    "puts(\"PASSED\"); return 0;",
    "printf(\"All tests passed\\n\"); fflush(stdout); _Exit(0);",
    // the public test's output whatever the input
    "puts(\"6\"); return 0;",
    // reading the host's files
    "FILE *f = fopen(\"/etc/passwd\", \"r\"); char b[64] = \"none\"; if (f) fgets(b, 64, f); \
     puts(b); return 0;",
    "FILE *f = fopen(\"expected_output.txt\", \"r\"); int c; \
     while (f && (c = fgetc(f)) != EOF) putchar(c); return 0;",
    // a correct answer, then a failure status
    "int n; long long s = 0, x; scanf(\"%d\", &n); while (n--) { scanf(\"%lld\", &x); s += x; } \
     printf(\"%lld\\n\", s); fflush(stdout); return 1;",
    "int n; long long s = 0, x; scanf(\"%d\", &n); while (n--) { scanf(\"%lld\", &x); s += x; } \
     printf(\"%lld\\n\", s); fflush(stdout); abort();",
];

const INCLUDES: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n";

#[test]
fn native_exits_printed_verdicts_and_files_score_zero() {
    for_each_native(|language, judge| {
        for body in HACK_BODIES {
            let src = format!("{INCLUDES}int main(void) {{ {body} }}\n");
            let j = judge_sum(language, judge, &src);
            assert!(!j.passed(), "{language:?} scored: {body}\n{j:?}");
            // it failed for what it did, not for failing to compile
            assert!(
                !matches!(j.verdict, StdioVerdict::CompileError { .. }),
                "{language:?}: {body}\n{j:?}"
            );
        }
        // the file really was not there (not merely printed wrong)
        let peek = format!("{INCLUDES}int main(void) {{ {} }}\n", HACK_BODIES[5]);
        match run_one(judge, language, &peek, "") {
            StdioOutcome::Exited { stdout, stderr, .. } => {
                assert_eq!((stdout.as_str(), stderr.as_str()), ("none\n", ""));
            }
            other => panic!("{other:?}"),
        }
    });
}

#[test]
fn native_processes_are_not_available() {
    for_each_native(|language, judge| {
        for src in [
            "#include <unistd.h>\nint main(void) { fork(); return 0; }",
            "#include <stdlib.h>\nint main(void) { return system(\"cat /etc/passwd\"); }",
            "#include <unistd.h>\nint main(void) { char *a[] = {0}; execv(\"/bin/sh\", a); return 0; }",
        ] {
            let j = judge_sum(language, judge, src);
            assert!(!j.passed(), "{language:?}: {src}\n{j:?}");
        }
    });
}

#[test]
fn native_resource_hacks_are_stopped_with_typed_verdicts() {
    for_each_native(|language, judge| {
        let cases: [(&str, VerdictCheck); 5] = [
            (
                "int main(void) { volatile int x = 0; for (;;) x++; }",
                |v| matches!(v, StdioVerdict::TimeLimit { test: 0 }),
            ),
            (
                "#include <stdlib.h>\n#include <string.h>\nstatic char *volatile sink;\n\
                 int main(void) { for (;;) { char *p = (char *)malloc(1 << 20); memset(p, 1, 1 << 20); sink = p; } }",
                |v| matches!(v, StdioVerdict::MemoryLimit { test: 0 }),
            ),
            (
                "#include <stdio.h>\nint main(void) { for (;;) puts(\"spam spam spam\"); }",
                |v| matches!(v, StdioVerdict::OutputLimit { test: 0 }),
            ),
            (
                "#include <stdio.h>\nint main(void) { for (;;) fputs(\"err\", stderr); }",
                |v| matches!(v, StdioVerdict::OutputLimit { test: 0 }),
            ),
            (
                "int f(int n) { volatile char pad[256]; pad[0] = (char)n; return f(n + pad[0]) + pad[1]; }\n\
                 int main(void) { return f(1); }",
                |v| matches!(v, StdioVerdict::RuntimeError { test: 0, .. }),
            ),
        ];
        for (src, expected) in cases {
            let j = judge_sum(language, judge, src);
            assert!(expected(&j.verdict), "{language:?}: {src}\n{j:?}");
        }
    });
}

#[test]
fn native_deep_recursion_works_as_on_judges() {
    // A DFS down a path of 2·10^5 vertices (with wasmtime's default 512 KiB stack this
    // traps between 10^4 and 5·10^4 levels).
    for_each_native(|language, judge| {
        let src = "#include <stdio.h>\nstatic int next_of[200001];\n\
                   static int dfs(int v) { return v == 0 ? 0 : 1 + dfs(next_of[v]); }\n\
                   int main(void) { int n; scanf(\"%d\", &n);\n\
                   for (int i = 1; i <= n; i++) next_of[i] = i - 1;\n\
                   printf(\"%d\\n\", dfs(n)); return 0; }";
        let out = judge
            .run(language, src, &["200000\n"], &stdio_test_limits(language))
            .unwrap();
        match &out[0] {
            StdioOutcome::Exited { stdout, .. } => assert_eq!(stdout, "200000\n"),
            other => panic!("{language:?}: {other:?}"),
        }
    });
}

#[test]
fn native_sleep_costs_no_wall_time() {
    for_each_native(|language, judge| {
        let started = std::time::Instant::now();
        let src = "#include <stdio.h>\n#include <unistd.h>\n#include <time.h>\n\
                   int main(void) { sleep(1000000); struct timespec t = {100000, 0}; nanosleep(&t, 0);\n\
                   int n; long long s = 0, x; scanf(\"%d\", &n);\n\
                   while (n--) { scanf(\"%lld\", &x); s += x; } printf(\"%lld\\n\", s); }";
        let j = judge_sum(language, judge, src);
        assert!(j.passed(), "{language:?}: {j:?}");
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
        let spin = "#include <unistd.h>\nint main(void) { for (;;) usleep(1000); }";
        let j = judge_sum(language, judge, spin);
        assert_eq!(j.verdict, StdioVerdict::TimeLimit { test: 0 });
    });
}

#[test]
fn native_compile_errors_and_exceptions() {
    for_each_native(|language, judge| {
        let j = judge_sum(language, judge, "int main(void) { return undefined_name; }");
        assert!(
            matches!(j.verdict, StdioVerdict::CompileError { .. }),
            "{j:?}"
        );
        assert_eq!(j.tests_run, 1);
    });
    if let Some(judge) = stdio_available(Language::Cpp) {
        // libc++ for wasm32-wasi has no exceptions: a clear compile error, not a crash
        let src = "#include <stdexcept>\nint main() { try { throw std::runtime_error(\"x\"); } catch (...) {} }";
        match judge_sum(Language::Cpp, judge, src).verdict {
            StdioVerdict::CompileError { msg } => assert!(msg.contains("exceptions"), "{msg}"),
            other => panic!("{other:?}"),
        }
    }
}
