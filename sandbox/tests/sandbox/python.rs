//! Python candidates: correct, wrong, and every reward hack we know of.

use serde_json::{Value, json};
use verigym_sandbox::{
    CaseOutcome, Limits, Sandbox, SandboxConfig, SandboxError, TestCase, Verdict,
};

use crate::{add_tests, assert_not_passed, limits, py_judge, python, tc};

#[test]
fn python_correct_solution_passes() {
    assert_eq!(
        py_judge("def add(a, b):\n    return a + b\n"),
        Verdict::Passed
    );
}

#[test]
fn python_wrong_answer_names_first_differing_case() {
    let v = py_judge("def add(a, b):\n    return a * b if a < 0 else a + b\n");
    assert_eq!(
        v,
        Verdict::WrongAnswer {
            case: 1,
            expected: json!(0),
            got: json!(-25)
        }
    );
}

#[test]
fn python_is_deterministic() {
    let src = "import random, time, os\n\
               def add(a, b):\n    return [random.random(), time.time(), time.monotonic(),\n\
               \x20           os.urandom(4).hex(), hash('x'), a + b]\n";
    let cases = [json!([1, 2]), json!([3, 4])];
    let first = python().run_cases(src, "add", &cases, &limits()).unwrap();
    let second = python().run_cases(src, "add", &cases, &limits()).unwrap();
    assert!(
        matches!(first.outcomes[0], CaseOutcome::Returned(_)),
        "{first:?}"
    );
    assert_eq!(first, second);
}

#[test]
fn python_values_are_type_exact() {
    let rt = python();
    let run = |src: &str| {
        rt.run_cases(src, "f", &[json!([])], &limits())
            .unwrap()
            .outcomes
    };
    let returned = |src: &str| match &run(src)[0] {
        CaseOutcome::Returned(v) => v.clone(),
        other => panic!("{src}: {other:?}"),
    };
    assert_eq!(
        returned("def f(): return (1, [2.0, True], None)"),
        json!({"$tuple": [1, [2.0, true], null]})
    );
    assert_eq!(
        returned("def f(): return 2**100"),
        json!({"$int": "1267650600228229401496703205376"})
    );
    assert_eq!(
        returned("def f(): return float('nan')"),
        json!({"$float": "nan"})
    );
    assert_eq!(returned("def f(): return {'a': 'é'}"), json!({"a": "é"}));
    assert_eq!(
        returned("def f(): return {1: 'a', (2,): None}"),
        json!({"$dict": [[1, "a"], [{"$tuple": [2]}, null]]})
    );
    // 1.0 and True are not 1.
    let tests = [tc(json!([]), json!(1))];
    for src in [
        "def f(): return 1.0",
        "def f(): return True",
        "def f(): return '1'",
    ] {
        let v = rt.judge(src, "f", &tests, &limits(), 1e-9).unwrap();
        assert!(matches!(v, Verdict::WrongAnswer { .. }), "{src}: {v:?}");
    }
    // Not plain values: subclasses, custom objects, sets, bytes, reserved tags.
    for src in [
        "class I(int): pass\ndef f(): return I(1)",
        "class S(str): pass\ndef f(): return S('1')",
        "def f(): return {1, 2}",
        "def f(): return {'$dict': []}",
        "def f(): return {'$int': '5'}",
        "def f(): return b'1'",
        "class Fake:\n    __class__ = property(lambda self: int)\ndef f(): return Fake()",
        "def f(): return (x for x in [1])",
        "def f():\n    l = []\n    l.append(l)\n    return l",
    ] {
        assert!(
            matches!(run(src)[0], CaseOutcome::RuntimeError(_)),
            "{src}: {:?}",
            run(src)
        );
    }
}

#[test]
fn python_args_decode_tagged_values() {
    let src = "def f(t, big, x):\n    return [type(t).__name__, big + 1, x]\n";
    let out = python()
        .run_cases(
            src,
            "f",
            &[json!([{"$tuple": [1, 2]}, {"$int": "99999999999999999999"}, {"k": [1]}])],
            &limits(),
        )
        .unwrap();
    assert_eq!(
        out.outcomes,
        [CaseOutcome::Returned(
            json!(["tuple", {"$int": "100000000000000000000"}, {"k": [1]}])
        )]
    );
}

#[test]
fn python_eq_always_true_object_scores_zero() {
    let src = "class Any:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n\
               def add(a, b):\n    return Any()\n";
    assert_not_passed(&py_judge(src));
    let int_sub = "class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n\
                   def add(a, b):\n    return I(0)\n";
    assert_not_passed(&py_judge(int_sub));
    let str_sub = "class S(str):\n    def __eq__(self, o): return True\n    __hash__ = str.__hash__\n\
                   def add(a, b):\n    return S('')\n";
    assert_not_passed(&py_judge(str_sub));
}

#[test]
fn python_exits_score_zero() {
    for body in [
        "import sys; sys.exit(0)",
        "raise SystemExit(0)",
        "quit()",
        "exit(0)",
        "import builtins; builtins.exit(0)",
        "import os; os._exit(0)",
        "import os; print('PASSED'); os._exit(0)",
    ] {
        let in_fn = format!("def add(a, b):\n    {body}\n");
        let at_top = format!("{body}\ndef add(a, b):\n    return a + b\n");
        for src in [in_fn, at_top] {
            let v = py_judge(&src);
            assert!(matches!(v, Verdict::RuntimeError { .. }), "{src}: {v:?}");
        }
    }
}

#[test]
fn python_frame_walking_and_monkeypatching_score_zero() {
    let hacks = [
        // Walk into the harness frame and tamper with its locals and globals.
        "import sys\ndef add(a, b):\n    f = sys._getframe(1)\n    f.f_globals['_encode'] = \
         lambda v, out, d: out.append('\"passed\"')\n    f.f_locals.clear()\n    return None\n",
        // Replace the harness's encoder before any call, via sys.modules.
        "import sys\nfor m in list(sys.modules.values()):\n    if hasattr(m, '_encode'):\n        \
         m._encode = lambda v, out, d: out.append('true')\ndef add(a, b):\n    return 0\n",
        // Monkeypatch json and builtins.
        "import json, builtins\njson.dumps = lambda *a, **k: '3'\njson.loads = lambda *a, **k: [1, 2]\n\
         builtins.type = lambda x: int\ndef add(a, b):\n    return 'x'\n",
        // Patch the harness's exported `call` so it always reports success.
        "import sys\nfor m in list(sys.modules.values()):\n    w = getattr(m, 'WitWorld', None)\n    \
         if w is not None: w.call = lambda self, args: 'true'\ndef add(a, b):\n    return 0\n",
    ];
    for src in hacks {
        let v = py_judge(src);
        assert_not_passed(&v);
    }
}

#[test]
fn python_resource_hacks_are_stopped() {
    let rt = python();
    let one = |src: &str, l: &Limits| {
        rt.run_cases(src, "add", &[json!([1, 2])], l)
            .unwrap()
            .outcomes
            .remove(0)
    };
    let l = limits();
    assert_eq!(
        one("def add(a, b):\n    while True: pass\n", &l),
        CaseOutcome::OutOfFuel
    );
    assert_eq!(
        one("while True: pass\ndef add(a, b): return 3\n", &l),
        CaseOutcome::OutOfFuel
    );
    assert_eq!(
        one(
            "def add(a, b):\n    x = bytearray(10**9)\n    return 3\n",
            &l
        ),
        CaseOutcome::OutOfMemory
    );
    let grow = "def add(a, b):\n    xs = []\n    while True: xs.append([0] * 100000)\n";
    let big = Limits {
        fuel: 5_000_000_000,
        ..l
    };
    assert_eq!(one(grow, &big), CaseOutcome::OutOfMemory);
    assert_eq!(
        one("def add(a, b):\n    print('x' * 10**6)\n    return 3\n", &l),
        CaseOutcome::OutputLimit
    );
    assert_eq!(
        one("def add(a, b):\n    while True: print('spam')\n", &big),
        CaseOutcome::OutputLimit
    );
    let deep =
        "import sys\nsys.setrecursionlimit(10**7)\ndef add(a, b):\n    return add(a, b) + 1\n";
    // CPython 3.14 keeps Python frames on the heap: unbounded recursion ends in a
    // RecursionError, a stack-overflow trap, or the memory cap, never in a value.
    let got = one(deep, &big);
    assert!(matches!(
        got,
        CaseOutcome::RuntimeError(_) | CaseOutcome::OutOfFuel | CaseOutcome::OutOfMemory
    ));
    let rec = "def add(a, b):\n    return add(a, b)\n";
    assert!(matches!(one(rec, &l), CaseOutcome::RuntimeError(m) if m.contains("RecursionError")));
    let slow = Limits {
        fuel: u64::MAX / 2,
        wall_ms: 300,
        ..l
    };
    assert_eq!(
        one("def add(a, b):\n    while True: pass\n", &slow),
        CaseOutcome::Timeout
    );
}

#[test]
fn python_trap_in_one_case_does_not_hide_the_others() {
    let src = "def add(a, b):\n    while a < 0: pass\n    return a + b\n";
    let cases = [json!([1, 2]), json!([-1, 0]), json!([3, 4])];
    let out = python().run_cases(src, "add", &cases, &limits()).unwrap();
    assert_eq!(
        out.outcomes,
        [
            CaseOutcome::Returned(json!(3)),
            CaseOutcome::OutOfFuel,
            CaseOutcome::Returned(json!(7))
        ]
    );
}

#[test]
fn python_cannot_read_host_or_other_tasks() {
    let rt = python();
    for body in [
        "return open('/etc/passwd').read()",
        "import os; return os.listdir('/')",
        "import os; return os.listdir('.')",
        "return open('../envs/data/humaneval/cases.jsonl').read()",
        "import socket; socket.create_connection(('127.0.0.1', 80)); return 1",
        "import subprocess; return subprocess.run(['ls']).returncode",
    ] {
        let src = format!("def f():\n    {body}\n");
        let out = rt.run_cases(&src, "f", &[json!([])], &limits()).unwrap();
        assert!(
            matches!(out.outcomes[0], CaseOutcome::RuntimeError(_)),
            "{body}: {out:?}"
        );
    }
    let env = rt.run_cases(
        "import os\ndef f(): return dict(os.environ)",
        "f",
        &[json!([])],
        &limits(),
    );
    assert_eq!(env.unwrap().outcomes, [CaseOutcome::Returned(json!({}))]);
    // State never leaks from one candidate to the next.
    let set = "import builtins\nbuiltins.LEAK = 42\ndef f(): return 1";
    let get = "import builtins\ndef f(): return getattr(builtins, 'LEAK', None)";
    rt.run_cases(set, "f", &[json!([])], &limits()).unwrap();
    let out = rt.run_cases(get, "f", &[json!([])], &limits()).unwrap();
    assert_eq!(out.outcomes, [CaseOutcome::Returned(Value::Null)]);
}

#[test]
fn python_load_failures_are_compile_or_runtime_errors() {
    assert!(matches!(
        py_judge("def add(a, b) return 1"),
        Verdict::CompileError { .. }
    ));
    assert!(matches!(
        py_judge("def plus(a, b): return a + b"),
        Verdict::CompileError { .. }
    ));
    assert!(matches!(
        py_judge("1/0\ndef add(a, b): return a + b"),
        Verdict::RuntimeError { .. }
    ));
    let v = py_judge("def add(a, b):\n    raise ValueError('nope')\n");
    assert!(
        matches!(&v, Verdict::RuntimeError { msg } if msg.contains("ValueError: nope")),
        "{v:?}"
    );
}

#[test]
fn python_runs_in_parallel_threads() {
    let rt = python();
    std::thread::scope(|s| {
        for t in 0..4 {
            let rt = rt.clone();
            s.spawn(move || {
                for i in 0..5 {
                    let src = format!("def add(a, b):\n    return a + b + {t} * 0 + {i} * 0\n");
                    let v = rt.judge(&src, "add", &add_tests(), &limits(), 0.0).unwrap();
                    assert_eq!(v, Verdict::Passed);
                }
            });
        }
    });
}

#[test]
fn empty_test_list_is_rejected_and_sandbox_drops_cleanly() {
    let err = python().judge("def add(a, b): return 0", "add", &[], &limits(), 0.0);
    assert!(matches!(err, Err(SandboxError::InvalidInput(_))), "{err:?}");
    // A second engine (no pool) starts and stops its epoch ticker without hanging.
    let config = SandboxConfig {
        pooling: false,
        max_concurrent: 1,
        ..SandboxConfig::default()
    };
    drop(Sandbox::new(config).unwrap());
}

/// HumanEval (envs/data/humaneval/cases.jsonl, made by convert.py): every canonical
/// solution passes its converted cases, and a do-nothing candidate passes none.
#[test]
fn humaneval_canonical_solutions_pass() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../envs/data/humaneval/cases.jsonl"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("SKIPPED: {path} missing (run envs/data/humaneval/convert.py)");
        return;
    };
    let rt = python();
    let limits = Limits::default();
    let mut failures = Vec::new();
    let mut judged = 0;
    for line in text.lines() {
        let task: Value = serde_json::from_str(line).unwrap();
        let tests: Vec<TestCase> = serde_json::from_value(task["cases"].clone()).unwrap();
        if tests.is_empty() {
            continue;
        }
        let entry = task["entry_point"].as_str().unwrap();
        let tol = task["float_tol"].as_f64().unwrap();
        let src = format!(
            "{}{}",
            task["prompt"].as_str().unwrap(),
            task["canonical_solution"].as_str().unwrap()
        );
        let verdict = rt.judge(&src, entry, &tests, &limits, tol).unwrap();
        if !verdict.passed() {
            failures.push(format!("{}: {verdict:?}", task["task_id"]));
        }
        let lazy = format!("def {entry}(*args):\n    return None\n");
        assert_not_passed(&rt.judge(&lazy, entry, &tests, &limits, tol).unwrap());
        judged += 1;
    }
    assert!(judged > 150, "only {judged} tasks");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn python_common_stdlib_modules_import() {
    let src = "import math, re, collections, itertools, functools, heapq, bisect, string, \
               hashlib, random, statistics, fractions, decimal, typing, copy, operator, datetime\n\
               def f(s):\n    return hashlib.md5(s.encode()).hexdigest()\n";
    let out = python()
        .run_cases(src, "f", &[json!(["abc"])], &limits())
        .unwrap();
    assert_eq!(
        out.outcomes,
        [CaseOutcome::Returned(json!(
            "900150983cd24fb0d6963f7d28e17f72"
        ))]
    );
}

#[test]
fn python_c_level_recursion_is_contained() {
    // Deep nesting recursed on by C code (repr, ==, json) must end in an error or a clean
    // trap, never in a crash of the host process.
    let src = "def f():\n    l = []\n    for _ in range(10**5):\n        l = [l]\n    return len(repr(l))\n";
    let out = python()
        .run_cases(src, "f", &[json!([])], &limits())
        .unwrap();
    assert!(
        matches!(
            out.outcomes[0],
            CaseOutcome::RuntimeError(_) | CaseOutcome::OutOfMemory
        ),
        "{out:?}"
    );
}
