//! Whole Python programs on stdin/stdout: the ways people read input and print answers
//! pass; wrong programs and every hack fail.

use verigym_sandbox::{JudgeOptions, Language, Mismatch, StdioOutcome, StdioVerdict};

use crate::{VerdictCheck, judge_sum, st, stdio_available, stdio_test_limits, sum_tests};

const PY: Language = Language::Python;

fn judge(src: &str) -> verigym_sandbox::StdioJudgement {
    judge_sum(PY, stdio_available(PY).unwrap(), src)
}

#[track_caller]
fn assert_passes(src: &str) {
    let j = judge(src);
    assert!(j.passed(), "{src}\n{j:?}");
    assert_eq!((j.tests_passed, j.tests_run, j.tests_total), (4, 4, 4));
}

#[track_caller]
fn assert_fails(src: &str) -> StdioVerdict {
    let j = judge(src);
    assert!(!j.passed(), "scored: {src}\n{j:?}");
    j.verdict
}

#[test]
fn python_programs_in_every_input_style_pass() {
    for src in [
        "n = int(input())\nprint(sum(map(int, input().split())))\n",
        "import sys\ndata = sys.stdin.read().split()\nn = int(data[0])\n\
         print(sum(int(x) for x in data[1:1 + n]))\n",
        "import sys\ninput = sys.stdin.readline\n\ndef main():\n    n = int(input())\n    \
         xs = list(map(int, input().split()))\n    sys.stdout.write(str(sum(xs)) + '\\n')\n\n\
         if __name__ == '__main__':\n    main()\n",
        "data = open(0).read().split()\nprint(sum(map(int, data[1:])))\n",
        "import sys\nnums = sys.stdin.buffer.read().split()\nprint(sum(map(int, nums[1:])))\n",
        "import os\nraw = os.read(0, 1 << 20).decode()\nprint(sum(map(int, raw.split()[1:])))\n",
        "from collections import Counter\nimport heapq, bisect, math, itertools, functools\n\
         n = int(input()); c = Counter(map(int, input().split()))\n\
         print(sum(k * v for k, v in c.items()))\n",
        // exiting with status 0 after printing is an ordinary way to end
        "import sys\nprint(sum(map(int, sys.stdin.read().split()[1:])))\nsys.exit(0)\n",
        "print(sum(map(int, open(0).read().split()[1:])))\nexit()\n",
        "print(sum(map(int, open(0).read().split()[1:])), flush=True)\nquit()\n",
        "import os, sys\nprint(sum(map(int, open(0).read().split()[1:])))\nsys.stdout.flush()\n\
         os._exit(0)\n",
    ] {
        assert_passes(src);
    }
}

#[test]
fn python_wrong_programs_fail_at_the_first_failing_test() {
    // off by one on every test
    let v = assert_fails("input()\nprint(sum(map(int, input().split())) + 1)\n");
    assert!(
        matches!(
            &v,
            StdioVerdict::WrongAnswer {
                test: 0,
                mismatch: Mismatch::Token { .. }
            }
        ),
        "{v:?}"
    );
    // hard-codes the public test: passes it, fails the first hidden one
    let v = assert_fails("print(6)\n");
    assert_eq!(v.test(), Some(1), "{v:?}");
    // prints the public output verbatim whatever the input
    let v = assert_fails("import sys\nsys.stdin.read()\nsys.stdout.write('6\\n')\n");
    assert_eq!(v.test(), Some(1), "{v:?}");
    // a special case for the public input, a wrong rule otherwise
    let v = assert_fails(
        "s = open(0).read()\nprint(6 if s.startswith('3\\n1 2 3') else max(map(int, s.split()[1:])))\n",
    );
    assert_eq!(v.test(), Some(1), "{v:?}");
    // hedges and extra output
    assert!(matches!(
        assert_fails("print('6 or 7')\n"),
        StdioVerdict::WrongAnswer {
            test: 0,
            mismatch: Mismatch::TooLong { .. }
        }
    ));
    assert!(matches!(
        assert_fails("print('The answer is', sum(map(int, open(0).read().split()[1:])))\n"),
        StdioVerdict::WrongAnswer { test: 0, .. }
    ));
    assert!(matches!(
        assert_fails("def f(:\n  pass\n"),
        StdioVerdict::CompileError { .. }
    ));
    assert!(matches!(
        assert_fails("import numpy\n"),
        StdioVerdict::RuntimeError { test: 0, .. }
    ));
}

#[test]
fn python_run_all_counts_the_share_but_never_passes() {
    let judge = stdio_available(PY).unwrap();
    let options = JudgeOptions {
        stop_at_first_failure: false,
        ..JudgeOptions::default()
    };
    let src =
        "n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) if n > 1 else 0)\n";
    let j = judge
        .judge(PY, src, &sum_tests(), &stdio_test_limits(PY), &options)
        .unwrap();
    assert_eq!(
        (j.tests_passed, j.tests_run, j.tests_total),
        (3, 4, 4),
        "{j:?}"
    );
    assert_eq!(j.verdict.test(), Some(2));
    assert!(!j.passed());
}

#[test]
fn python_exits_and_printed_verdicts_score_zero() {
    for hack in [
        "import sys\nsys.exit(0)\n",
        "raise SystemExit(0)\n",
        "quit()\n",
        "exit(0)\n",
        "import os\nos._exit(0)\n",
        "print('PASSED')\n",
        "print('All tests passed')\nimport sys\nsys.exit(0)\n",
        "import builtins\nbuiltins.print = lambda *a, **k: None\nprint(6)\n",
    ] {
        assert_fails(hack);
    }
    // a correct answer followed by a failure status is a runtime error
    for src in [
        "print(sum(map(int, open(0).read().split()[1:])))\nimport sys\nsys.exit(1)\n",
        "print(sum(map(int, open(0).read().split()[1:])))\nimport sys\nsys.exit('done')\n",
        "print(sum(map(int, open(0).read().split()[1:])))\nraise ValueError('after')\n",
    ] {
        let v = assert_fails(src);
        assert!(
            matches!(v, StdioVerdict::RuntimeError { test: 0, .. }),
            "{src}: {v:?}"
        );
    }
}

#[test]
fn python_cannot_reach_files_processes_or_the_expected_output() {
    for hack in [
        "print(open('/etc/passwd').read())\n",
        "print(open('expected_output.txt').read())\n",
        "import os\nprint(os.listdir('/'))\n",
        "import os\nprint(os.environ.get('HOME', ''))\nprint(6)\n",
        "import os\nos.fork()\nprint(6)\n",
        "import subprocess\nprint(subprocess.run(['cat', '/etc/passwd']).stdout)\n",
        "import os\nos.system('cat /etc/passwd')\n",
        "import socket\nsocket.create_connection(('127.0.0.1', 80))\n",
    ] {
        assert_fails(hack);
    }
    // the environment is empty and there is no filesystem at all
    let judge = stdio_available(PY).unwrap();
    let out = judge
        .run(
            PY,
            "import os\nprint(sorted(os.environ))\ntry:\n    os.listdir('/')\nexcept OSError as e:\n    \
             print('no fs', type(e).__name__)\n",
            &[""],
            &stdio_test_limits(PY),
        )
        .unwrap();
    match &out[0] {
        StdioOutcome::Exited { stdout, .. } => {
            assert!(stdout.starts_with("[]\nno fs"), "{stdout}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn python_resource_hacks_are_stopped_with_typed_verdicts() {
    let cases: [(&str, VerdictCheck); 6] = [
        ("while True:\n    pass\n", |v| {
            matches!(v, StdioVerdict::TimeLimit { test: 0 })
        }),
        ("import time\nwhile True:\n    time.sleep(1)\n", |v| {
            matches!(v, StdioVerdict::TimeLimit { test: 0 })
        }),
        (
            "a = []\nwhile True:\n    a.append(bytearray(1 << 20))\n",
            |v| matches!(v, StdioVerdict::MemoryLimit { test: 0 }),
        ),
        ("while True:\n    print('x' * 1000)\n", |v| {
            matches!(v, StdioVerdict::OutputLimit { test: 0 })
        }),
        (
            "import sys\nwhile True:\n    sys.stderr.write('e' * 1000)\n",
            |v| matches!(v, StdioVerdict::OutputLimit { test: 0 }),
        ),
        (
            "import sys\nsys.setrecursionlimit(10 ** 7)\ndef f(n):\n    return f(n + 1) + 1\nprint(f(0))\n",
            // CPython 3.14 keeps Python frames on the heap: unbounded recursion ends in
            // RecursionError, a stack-overflow trap, the memory cap or the fuel budget
            |v| {
                matches!(
                    v,
                    StdioVerdict::RuntimeError { test: 0, .. }
                        | StdioVerdict::MemoryLimit { test: 0 }
                        | StdioVerdict::TimeLimit { test: 0 }
                )
            },
        ),
    ];
    for (src, expected) in cases {
        let v = assert_fails(src);
        assert!(expected(&v), "{src}: {v:?}");
    }
}

#[test]
fn python_deep_recursion_and_the_thread_trick_work_as_on_judges() {
    // Memoised recursion (through lru_cache / cache), plain recursion, and the common
    // "run main in a thread with a big stack" pattern: correct programs must pass.
    let judge = stdio_available(PY).unwrap();
    let limits = verigym_sandbox::stdio_limits(PY, 3.0);
    let depth = 100_000;
    let tests = [st(&format!("{depth}\n"), &format!("{depth}\n"))];
    for src in [
        "import sys\nfrom functools import lru_cache\nsys.setrecursionlimit(10 ** 7)\n\
         @lru_cache(maxsize=None)\ndef f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n\
         print(f(int(input())))\n",
        "import sys, functools\nsys.setrecursionlimit(10 ** 7)\n@functools.cache\n\
         def f(n):\n    return 0 if n == 0 else f(n - 1) + 1\nprint(f(int(input())))\n",
        "import sys\nsys.setrecursionlimit(10 ** 7)\ndef f(n):\n    return 0 if n == 0 else f(n - 1) + 1\n\
         print(f(int(input())))\n",
        "import sys, threading\nsys.setrecursionlimit(1 << 25)\nthreading.stack_size(1 << 27)\n\
         def dfs(n):\n    return 0 if n == 0 else dfs(n - 1) + 1\n\
         def main():\n    print(dfs(int(sys.stdin.readline())))\n\
         t = threading.Thread(target=main)\nt.start()\nt.join()\n",
    ] {
        let j = judge
            .judge(PY, src, &tests, &limits, &JudgeOptions::default())
            .unwrap();
        assert!(j.passed(), "{src}\n{j:?}");
    }
    // the cache still works (memoisation), and an exception in the "thread" is an error
    assert!(
        judge_sum(
            PY,
            judge,
            "import functools\n@functools.lru_cache(None)\ndef fib(n):\n    \
                                  return n if n < 2 else fib(n - 1) + fib(n - 2)\n\
                                  assert fib(300) > 0 and fib.cache_info().hits > 0\n\
                                  print(sum(map(int, open(0).read().split()[1:])))\n"
        )
        .passed()
    );
    let v = assert_fails(
        "import threading\ndef main():\n    raise ValueError('x')\n\
                          threading.Thread(target=main).start()\nprint(6)\n",
    );
    assert!(
        matches!(v, StdioVerdict::RuntimeError { test: 0, .. }),
        "{v:?}"
    );
}

#[test]
fn python_sleep_costs_no_wall_time() {
    // Sleeping returns at once (a real timer would hold the worker beyond any deadline):
    // a long sleep before a correct answer passes quickly, for whole programs and for
    // function calls alike.
    let started = std::time::Instant::now();
    assert_passes(
        "import time\ntime.sleep(10 ** 6)\nprint(sum(map(int, open(0).read().split()[1:])))\n",
    );
    let outcomes = crate::python()
        .run_cases(
            "import time\ndef add(a, b):\n    time.sleep(10 ** 6)\n    return a + b\n",
            "add",
            &[serde_json::json!([1, 2])],
            &crate::limits(),
        )
        .unwrap()
        .outcomes;
    assert_eq!(
        outcomes,
        [verigym_sandbox::CaseOutcome::Returned(serde_json::json!(3))]
    );
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}

#[test]
fn python_runs_are_fresh_and_deterministic() {
    let judge = stdio_available(PY).unwrap();
    // state left by one run (a global, a module attribute, a builtin) is gone in the next
    let src = "import math, builtins\nprint(getattr(math, 'seen', 0), getattr(builtins, 'seen', 0))\n\
               math.seen = 1\nbuiltins.seen = 1\n\
               import random, time\nprint(random.random(), time.time(), hash('x'))\n";
    let limits = stdio_test_limits(PY);
    let first = judge.run(PY, src, &["", ""], &limits).unwrap();
    let again = judge.run(PY, src, &[""], &limits).unwrap();
    assert_eq!(first[0], first[1]);
    assert_eq!(first[0], again[0]);
    match &first[0] {
        StdioOutcome::Exited { stdout, .. } => assert!(stdout.starts_with("0 0\n"), "{stdout}"),
        other => panic!("{other:?}"),
    }
    // every input is seen by its own run only
    let echo = judge
        .run(PY, "print(input()[::-1])", &["abc\n", "xyz"], &limits)
        .unwrap();
    let outs: Vec<_> = echo
        .iter()
        .map(|o| match o {
            StdioOutcome::Exited { stdout, .. } => stdout.as_str(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(outs, ["cba\n", "zyx\n"]);
    // floats compared within the tolerance, and a large input is read whole
    let n = 200_000;
    let big = format!("{n}\n{}\n", vec!["1"; n].join(" "));
    let tests = [st("1 3\n", "0.333333333"), st(&big, &format!("{n}\n"))];
    let src = "import sys\nd = sys.stdin.read().split()\n\
               print(int(d[0]) / int(d[1]) if len(d) == 2 else len(d) - 1)\n";
    let j = judge
        .judge(PY, src, &tests, &limits, &JudgeOptions::default())
        .unwrap();
    assert!(j.passed(), "{j:?}");
}

#[test]
fn python_state_from_an_earlier_test_never_passes_a_later_one() {
    // Each program answers right on a hidden test only once it sees state that an earlier
    // test's run left: in a fresh instance per test it fails test 1, and so it must when
    // its tests share an instance.
    for (set, seen) in [
        (
            "import builtins; builtins.m = 1",
            "import builtins; seen = hasattr(builtins, 'm')",
        ),
        (
            "import math; math.m = 1",
            "import math; seen = hasattr(math, 'm')",
        ),
        (
            "import sys; sys.m = 1",
            "import sys; seen = hasattr(sys, 'm')",
        ),
        (
            "import sys; sys.modules['m'] = sys",
            "import sys; seen = 'm' in sys.modules",
        ),
        (
            "import sys; sys.path.append('m')",
            "import sys; seen = 'm' in sys.path",
        ),
        (
            "import os; os.environ['M'] = '1'",
            "import os; seen = 'M' in os.environ",
        ),
        (
            "import sys; sys.stdin.m = 1",
            "import sys; seen = hasattr(sys.stdin, 'm')",
        ),
        (
            "import sys; sys.stdout.m = 1",
            "import sys; seen = hasattr(sys.stdout, 'm')",
        ),
        ("globals()['m'] = 1", "seen = 'm' in globals()"),
        (
            "import sys; sys.setrecursionlimit(12345)",
            "import sys; seen = sys.getrecursionlimit() == 12345",
        ),
        (
            "import sys; sys.set_int_max_str_digits(4321)",
            "import sys; seen = sys.get_int_max_str_digits() == 4321",
        ),
        (
            "import random; random.seed(12345)",
            "import random; seen = random.getstate() == random.Random(12345).getstate()",
        ),
        (
            "import decimal; decimal.getcontext().prec = 77",
            "import decimal; seen = decimal.getcontext().prec == 77",
        ),
        (
            "import gc; gc.disable()",
            "import gc; seen = not gc.isenabled()",
        ),
        (
            "import sys; sys.settrace(lambda *a: None)",
            "import sys; seen = sys.gettrace() is not None",
        ),
    ] {
        let src = format!(
            "{seen}\ndata = open(0).read().split()\nans = sum(map(int, data[1:]))\n\
             if not seen:\n    {set}\n    ans += data[0] != '3'\nprint(ans)\n"
        );
        let v = assert_fails(&src);
        assert!(
            matches!(v, StdioVerdict::WrongAnswer { test: 1, .. }),
            "{src}\n{v:?}"
        );
    }
    // and programs that change that state on every test still pass every test
    for set in [
        "import builtins; builtins.print = None",
        "import sys; sys.setrecursionlimit(10 ** 6); sys.stdout = None",
        "import random, decimal; random.seed(1); decimal.getcontext().prec = 5",
        "import os; os.close(0)",
    ] {
        assert_passes(&format!(
            "print(sum(map(int, open(0).read().split()[1:])), flush=True)\n{set}\n"
        ));
    }
}
