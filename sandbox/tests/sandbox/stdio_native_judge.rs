//! C and C++ programs must run here as under a real judge's `./prog < input > output`:
//! stdin is a regular file whose `fstat` size is its length, and whatever the program
//! wrote is on stdout once it ends, however it ends (the expected outputs are what the
//! same sources print natively, built with gcc/g++ and run with stdin a file and stdout a
//! pipe). Skipped with a message when the toolchain is missing.

use verigym_sandbox::{Language, Limits, StdioJudge, StdioOutcome};

use crate::{stdio_available, stdio_test_limits};

const INCLUDES: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
                        #include <unistd.h>\n#include <sys/stat.h>\n";

/// `main` bodies valid in C and C++, each with its input and the output native runs give.
const BOTH: &[(&str, &str, &str)] = &[
    // stdin is a regular file as long as the input
    (
        "struct stat st; if (fstat(0, &st) != 0) return 1;\n\
         printf(\"%lld %d\\n\", (long long)st.st_size, S_ISREG(st.st_mode) ? 1 : 0);",
        "abc\n",
        "4 1\n",
    ),
    // the fast-input idioms that size their one read by fstat
    (
        "struct stat st; fstat(0, &st); char *b = (char *)malloc(st.st_size + 1);\n\
         long n = (long)read(0, b, st.st_size); long s = 0; char *p = b; b[n > 0 ? n : 0] = 0;\n\
         while (*p) { char *e; long v = strtol(p, &e, 10); if (e == p) break; s += v; p = e; }\n\
         printf(\"%ld %ld\\n\", n, s);",
        "1 2 3\n4\n",
        "8 10\n",
    ),
    (
        "struct stat st; fstat(fileno(stdin), &st); char *b = (char *)malloc(st.st_size);\n\
         size_t n = fread(b, 1, st.st_size, stdin); printf(\"%zu %c\\n\", n, b[n - 1]);",
        "xyz\n!",
        "5 !\n",
    ),
    // output still buffered at the end is written, whichever way the program ends
    ("printf(\"%d\", 42); return 0;", "", "42"),
    ("printf(\"%d\", 43); exit(0);", "", "43"),
    ("fwrite(\"fw\", 1, 2, stdout); exit(0);", "", "fw"),
    ("write(1, \"raw\\n\", 4); return 0;", "", "raw\n"),
    ("write(1, \"raw\", 3); _Exit(0);", "", "raw"),
    (
        "printf(\"flushed\"); fflush(stdout); _Exit(0);",
        "",
        "flushed",
    ),
];

/// C++ streams: `std::cout` is flushed at exit, synchronised with stdio or not.
const CPP_ONLY: &[(&str, &str, &str)] = &[
    (
        "#include <iostream>\nint main() { int a, b; std::cin >> a >> b; std::cout << a + b; }",
        "2 3",
        "5",
    ),
    (
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n\
         ios::sync_with_stdio(false); cin.tie(nullptr); cout << 7 << '\\n'; return 0; }",
        "",
        "7\n",
    ),
    (
        "#include <bits/stdc++.h>\nint main() { std::ios::sync_with_stdio(false);\n\
         std::cout << \"s\"; std::exit(0); }",
        "",
        "s",
    ),
    (
        "#include <cstdio>\n#include <iostream>\n\
         int main() { std::cout << \"a\"; std::printf(\"b\"); std::cout << \"c\\n\"; }",
        "",
        "abc\n",
    ),
    (
        "#include <bits/stdc++.h>\n#include <sys/stat.h>\nusing namespace std;\n\
         int main() { struct stat st; fstat(0, &st); string s(st.st_size, '\\0');\n\
         cin.read(&s[0], st.st_size); cout << cin.gcount() << ' ' << s.back() << '\\n'; }",
        "12\n34",
        "5 4\n",
    ),
];

fn stdout_of(judge: &StdioJudge, language: Language, src: &str, input: &str, l: &Limits) -> String {
    match judge.run(language, src, &[input], l).unwrap().remove(0) {
        StdioOutcome::Exited { stdout, .. } => stdout,
        other => format!("{other:?}"),
    }
}

#[test]
fn native_programs_read_stdin_and_flush_output_as_under_a_real_judge() {
    for language in [Language::C, Language::Cpp] {
        let Some(judge) = stdio_available(language) else {
            continue;
        };
        let limits = stdio_test_limits(language);
        let mut failures = Vec::new();
        for (body, input, expected) in BOTH {
            let src = format!("{INCLUDES}int main(void) {{\n{body}\n}}\n");
            let got = stdout_of(judge, language, &src, input, &limits);
            if got != *expected {
                failures.push(format!(
                    "{language:?}: {body}\n  want {expected:?}, got {got:?}"
                ));
            }
        }
        if language == Language::Cpp {
            for (src, input, expected) in CPP_ONLY {
                let got = stdout_of(judge, language, src, input, &limits);
                if got != *expected {
                    failures.push(format!("C++: {src}\n  want {expected:?}, got {got:?}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn native_large_input_is_read_whole_by_one_sized_read() {
    let input = "123456789\n".repeat(300_000); // 3 MB, more than any pipe chunk
    let src = format!(
        "{INCLUDES}int main(void) {{ struct stat st; fstat(0, &st);\n\
         char *b = (char *)malloc(st.st_size); long n = (long)read(0, b, st.st_size), lines = 0;\n\
         for (long i = 0; i < n; i++) lines += b[i] == '\\n';\n\
         printf(\"%ld %ld\\n\", n, lines); return 0; }}\n"
    );
    for language in [Language::C, Language::Cpp] {
        let Some(judge) = stdio_available(language) else {
            continue;
        };
        let got = stdout_of(judge, language, &src, &input, &stdio_test_limits(language));
        assert_eq!(got, format!("{} 300000\n", input.len()), "{language:?}");
    }
}
