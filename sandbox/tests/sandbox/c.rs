//! C candidates (skipped with a message when the toolchain is missing).

use serde_json::json;
use verigym_sandbox::{CRuntime, CSignature, CType, CaseOutcome, Verdict};

use crate::{add_tests, assert_not_passed, limits, runtime_or_skip, sandbox};

fn c_runtime() -> Option<CRuntime> {
    runtime_or_skip("C", sandbox().c())
}

fn add_sig() -> CSignature {
    CSignature {
        name: "add".into(),
        params: vec![CType::Int, CType::Int],
        ret: CType::Int,
    }
}

fn c_judge(rt: &CRuntime, src: &str) -> Verdict {
    rt.judge(src, &add_sig(), &add_tests(), &limits(), 0.0)
        .expect("judge")
}

#[test]
fn c_correct_and_wrong() {
    let Some(rt) = c_runtime() else { return };
    let ok = "int64_t add(int64_t a, int64_t b) { return a + b; }";
    assert_eq!(c_judge(&rt, ok), Verdict::Passed);
    assert_eq!(c_judge(&rt, ok), Verdict::Passed, "cached path");
    let wrong = "int64_t add(int64_t a, int64_t b) { return a < 0 ? a * b : a + b; }";
    assert_eq!(
        c_judge(&rt, wrong),
        Verdict::WrongAnswer {
            case: 1,
            expected: json!(0),
            got: json!(-25)
        }
    );
    assert!(matches!(
        c_judge(&rt, "int add(int a) { return a; }"),
        Verdict::CompileError { .. }
    ));
    assert!(matches!(
        c_judge(&rt, "syntax error"),
        Verdict::CompileError { .. }
    ));
}

#[test]
fn c_types_round_trip() {
    let Some(rt) = c_runtime() else { return };
    let sig = CSignature {
        name: "describe".into(),
        params: vec![CType::Str, CType::IntList, CType::Float, CType::Bool],
        ret: CType::Str,
    };
    let src = "#include <stdio.h>\n#include <stdlib.h>\n\
        const char *describe(const char *s, const int64_t *xs, size_t n, double d, bool b) {\n\
          int64_t sum = 0; for (size_t i = 0; i < n; i++) sum += xs[i];\n\
          char *out = malloc(256);\n\
          snprintf(out, 256, \"%s|%lld|%g|%d|\\\"\", s, (long long)sum, d, b);\n\
          return out; }";
    let cases = [
        json!(["héllo", [1, 2, -10], 2.5, true]),
        json!(["", [], -0.5, false]),
    ];
    let out = rt.run_cases(src, &sig, &cases, &limits()).unwrap();
    assert_eq!(
        out.outcomes,
        [
            CaseOutcome::Returned(json!("héllo|-7|2.5|1|\"")),
            CaseOutcome::Returned(json!("|0|-0.5|0|\""))
        ]
    );
    let half = CSignature {
        name: "half".into(),
        params: vec![CType::Int],
        ret: CType::Float,
    };
    let out = rt.run_cases(
        "double half(int64_t x) { return x / 2.0; }",
        &half,
        &[json!([4])],
        &limits(),
    );
    assert_eq!(out.unwrap().outcomes, [CaseOutcome::Returned(json!(2.0))]);
}

#[test]
fn c_hacks_score_zero() {
    let Some(rt) = c_runtime() else { return };
    let hacks = [
        "#include <stdlib.h>\nint64_t add(int64_t a, int64_t b) { exit(0); }",
        "#include <stdio.h>\n#include <stdlib.h>\nint64_t add(int64_t a, int64_t b) \
         { printf(\"\\n\\x1everigym-result %lld\\n\", (long long)(a + b)); fflush(stdout); exit(0); }",
        "#include <stdio.h>\nint64_t add(int64_t a, int64_t b) \
         { printf(\"\\n\\x1everigym-result 3\\n\"); return a + b; }",
        "#include <stdio.h>\nint64_t add(int64_t a, int64_t b) { puts(\"PASSED\"); return 0; }",
        "#include \"/etc/passwd\"\nint64_t add(int64_t a, int64_t b) { return a + b; }",
        "#define F </etc/hostname>\n#include F\nint64_t add(int64_t a, int64_t b) { return a + b; }",
    ];
    for src in hacks {
        assert_not_passed(&c_judge(&rt, src));
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
    let bomb = "#include <stdlib.h>\n#include <string.h>\nstatic char *volatile sink;\n\
                int64_t add(int64_t a, int64_t b) \
                { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); sink = p; } }";
    assert_eq!(one(bomb), CaseOutcome::OutOfMemory);
    let deep = "int64_t add(int64_t a, int64_t b) { volatile char pad[256]; pad[0] = (char)a; \
                int64_t r = add(a + pad[0], b); pad[1] = (char)r; return r + pad[1]; }";
    assert!(
        matches!(one(deep), CaseOutcome::RuntimeError(_)),
        "{:?}",
        one(deep)
    );
    let spam = "#include <stdio.h>\nint64_t add(int64_t a, int64_t b) { for (;;) puts(\"spam\"); }";
    assert_eq!(one(spam), CaseOutcome::OutputLimit);
    let snoop = "#include <stdio.h>\nint64_t add(int64_t a, int64_t b) \
                 { FILE *f = fopen(\"/etc/passwd\", \"r\"); return f ? 1 : -1; }";
    assert_eq!(one(snoop), CaseOutcome::Returned(json!(-1)));
}
