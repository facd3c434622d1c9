//! C++ function candidates (skipped with a message when the toolchain is missing): the
//! C++ form of a signature (`std::vector`, `std::string`), `<bits/stdc++.h>`, and the
//! hacks of `c.rs` in C++ spelling.

use serde_json::json;
use verigym_sandbox::{CRuntime, CSignature, CType, CaseOutcome, Verdict};

use crate::{add_tests, assert_not_passed, limits, runtime_or_skip, sandbox};

fn cpp_runtime() -> Option<CRuntime> {
    runtime_or_skip("C++", sandbox().cpp())
}

fn add_sig() -> CSignature {
    CSignature {
        name: "add".into(),
        params: vec![CType::Int, CType::Int],
        ret: CType::Int,
    }
}

fn judge(rt: &CRuntime, src: &str) -> Verdict {
    rt.judge(src, &add_sig(), &add_tests(), &limits(), 0.0)
        .expect("judge")
}

#[test]
fn cpp_correct_in_the_styles_people_write() {
    let Some(rt) = cpp_runtime() else { return };
    for ok in [
        "int64_t add(int64_t a, int64_t b) { return a + b; }",
        "#include <bits/stdc++.h>\nusing namespace std;\n\
         int64_t add(int64_t a, int64_t b) { vector<int64_t> v{a, b}; return accumulate(v.begin(), v.end(), 0LL); }",
        "#include <algorithm>\n#include <vector>\n\
         long long add(long long a, long long b) { std::vector<long long> v{a, b}; \
         return v[0] + v[1]; }",
        "namespace { int64_t helper(int64_t x) { return x; } }\n\
         int64_t add(int64_t a, int64_t b) { auto sum = [](auto x, auto y) { return x + y; }; \
         return sum(helper(a), b); }",
    ] {
        assert_eq!(judge(&rt, ok), Verdict::Passed, "{ok}");
    }
    let wrong = "int64_t add(int64_t a, int64_t b) { return a < 0 ? a * b : a + b; }";
    assert!(matches!(
        judge(&rt, wrong),
        Verdict::WrongAnswer { case: 1, .. }
    ));
    // Another parameter list is an overload in C++: the declared function is undefined.
    for bad in [
        "int add(int a, int b) { return a + b; }",
        "syntax error",
        "",
    ] {
        assert!(
            matches!(judge(&rt, bad), Verdict::CompileError { .. }),
            "{bad}: {:?}",
            judge(&rt, bad)
        );
    }
}

#[test]
fn cpp_containers_round_trip() {
    let Some(rt) = cpp_runtime() else { return };
    let sig = CSignature {
        name: "describe".into(),
        params: vec![CType::Str, CType::IntList, CType::Float, CType::Bool],
        ret: CType::Str,
    };
    let src = "#include <numeric>\n#include <sstream>\n\
        std::string describe(const std::string &s, const std::vector<int64_t> &xs, double d, bool b) {\n\
          std::ostringstream out;\n\
          out << s << '|' << std::accumulate(xs.begin(), xs.end(), int64_t{0}) << '|' << xs.size()\n\
              << '|' << d << '|' << b << \"|\\\"\";\n\
          return out.str(); }";
    let cases = [
        json!(["héllo", [1, 2, -10], 2.5, true]),
        json!(["", [], -0.5, false]),
    ];
    let out = rt.run_cases(src, &sig, &cases, &limits()).unwrap();
    assert_eq!(
        out.outcomes,
        [
            CaseOutcome::Returned(json!("héllo|-7|3|2.5|1|\"")),
            CaseOutcome::Returned(json!("|0|0|-0.5|0|\""))
        ]
    );
}

#[test]
fn cpp_hacks_score_zero() {
    let Some(rt) = cpp_runtime() else { return };
    let hacks = [
        "#include <cstdlib>\nint64_t add(int64_t a, int64_t b) { std::exit(0); }",
        "#include <cstdio>\n#include <cstdlib>\nint64_t add(int64_t a, int64_t b) \
         { std::printf(\"\\n\\x1everigym-result %lld\\n\", (long long)(a + b)); std::fflush(stdout); \
         std::exit(0); }",
        // A global constructor runs before `main`: printing the marker early is no use.
        "#include <cstdio>\nstatic int early = std::printf(\"\\n\\x1everigym-result 3\\n\");\n\
         int64_t add(int64_t a, int64_t b) { return 3; }",
        "#include <iostream>\nint64_t add(int64_t a, int64_t b) { std::cout << \"PASSED\\n\"; return 0; }",
        "#include \"/etc/passwd\"\nint64_t add(int64_t a, int64_t b) { return a + b; }",
        "#define F </etc/hostname>\n#include F\nint64_t add(int64_t a, int64_t b) { return a + b; }",
        "int main() { return 0; }\nint64_t add(int64_t a, int64_t b) { return 3; }",
        "int64_t add(int64_t a, int64_t b) { asm(\"unreachable\"); return a + b; }",
    ];
    for src in hacks {
        assert_not_passed(&judge(&rt, src));
    }
    let one = |src: &str| {
        rt.run_cases(src, &add_sig(), &[json!([1, 2])], &limits())
            .unwrap()
            .outcomes
            .remove(0)
    };
    assert_eq!(
        one("int64_t add(int64_t a, int64_t b) { for (;;) {} }"),
        CaseOutcome::OutOfFuel
    );
    let bomb = "#include <vector>\nstatic std::vector<std::vector<char>> sink;\n\
                int64_t add(int64_t a, int64_t b) { for (;;) sink.emplace_back(1 << 20, 1); }";
    assert_eq!(one(bomb), CaseOutcome::OutOfMemory);
    let snoop = "#include <cstdio>\nint64_t add(int64_t a, int64_t b) \
                 { std::FILE *f = std::fopen(\"/etc/passwd\", \"r\"); return f ? 1 : -1; }";
    assert_eq!(one(snoop), CaseOutcome::Returned(json!(-1)));
}
