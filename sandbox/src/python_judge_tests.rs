//! Programs must run here as under a real judge's `python3 prog.py < input > output`
//! (stdin a regular file, every writer flushed at exit), and a program session that
//! reuses one instance must give every test the verdict a fresh process gives it, also
//! for programs that keep state in the interpreter's own modules and classes.

use crate::limits::Limits;
use crate::stdio_outcome::StdioOutcome;

// The shared runtime and limits of the stdio tests.
use super::tests::{agrees_with_fresh_on, limits, runtime};

fn stdout_of(outcome: &StdioOutcome) -> String {
    match outcome {
        StdioOutcome::Exited { stdout, .. } => stdout.clone(),
        other => format!("{other:?}"),
    }
}

/// Each program with its input and what CPython prints for it when stdin is a file and
/// stdout a pipe (checked against `python3 prog.py < input | cat`).
const AS_A_JUDGE_RUNS_THEM: &[(&str, &str, &str)] = &[
    // stdin is a regular file whose size is its length
    (
        "import os\ndata = os.read(0, os.fstat(0).st_size).decode()\n\
         print(sum(map(int, data.split())))\n",
        "1 2 3\n4\n",
        "10\n",
    ),
    (
        "import os, sys, stat\nst = os.fstat(sys.stdin.fileno())\n\
         print(st.st_size, stat.S_ISREG(st.st_mode))\n",
        "abc\n",
        "4 True\n",
    ),
    (
        "import sys\nprint(len(sys.stdin.buffer.read()))\n",
        "x y\n",
        "4\n",
    ),
    // writers that are not sys.stdout are flushed at exit, after sys.stdout
    ("import sys\nsys.__stdout__.write('a\\n')\n", "", "a\n"),
    (
        "import sys, io\nsys.stdout = io.StringIO()\nsys.__stdout__.write('b\\n')\n",
        "",
        "b\n",
    ),
    (
        "out = open(1, 'w')\nout.write('late\\n')\nprint('early')\n",
        "",
        "early\nlate\n",
    ),
    (
        "import os\nout = os.fdopen(1, 'w')\nout.write('d\\n')\n",
        "",
        "d\n",
    ),
    (
        "import io\nout = io.BufferedWriter(io.FileIO(1, 'w'))\nout.write(b'e\\n')\n\
         print('p')\n",
        "",
        "p\ne\n",
    ),
    (
        "import sys\nw = sys.stdout.buffer.write\nw(b'f\\n')\nraise SystemExit(0)\n",
        "",
        "f\n",
    ),
];

#[test]
fn programs_read_stdin_and_flush_output_as_under_a_real_judge() {
    let rt = runtime();
    for (src, input, expected) in AS_A_JUDGE_RUNS_THEM {
        let fresh = rt
            .run_program(src, input.as_bytes(), &limits())
            .expect("run");
        assert_eq!(stdout_of(&fresh), *expected, "fresh run of:\n{src}");
        // And in a session, test after test.
        let mut program = rt.program(src);
        for k in 0..3 {
            let (outcome, _) = program.run(input.as_bytes(), &limits()).expect("run");
            assert_eq!(stdout_of(&outcome), *expected, "run {k} of:\n{src}");
        }
    }
}

#[test]
fn a_large_input_is_read_whole_by_one_sized_read() {
    let rt = runtime();
    let line = "123456789\n";
    let input = line.repeat(300_000); // 3 MB, more than any pipe chunk
    let src =
        "import os\ndata = os.read(0, os.fstat(0).st_size)\nprint(len(data), data.count(b'\\n'))\n";
    let limits = Limits {
        memory_bytes: 256 << 20,
        ..limits()
    };
    let outcome = rt.run_program(src, input.as_bytes(), &limits).expect("run");
    assert_eq!(stdout_of(&outcome), format!("{} 300000\n", input.len()));
}

/// Inputs of one session: the program prints what it finds and leaves state behind.
const INPUTS: [&str; 4] = ["1\n", "2\n", "3\n", "4\n"];

/// [`agrees_with_fresh_on`] these tests' inputs.
#[track_caller]
fn agrees_with_fresh(src: &str) -> usize {
    agrees_with_fresh_on(src, &INPUTS)
}

#[test]
fn state_kept_in_the_interpreters_modules_and_classes_never_reaches_the_next_test() {
    for src in [
        // class attributes of stdlib types
        "import fractions\nprint(hasattr(fractions.Fraction, 'memo'))\nfractions.Fraction.memo = {}\n",
        "import collections\nn = getattr(collections.Counter, 'seen', 0)\nprint(n)\n\
         collections.Counter.seen = n + 1\n",
        "import random\nprint(random.Random.__dict__.get('cache'))\nrandom.Random.cache = [1]\n",
        "import json\nprint(json.JSONEncoder.item_separator)\njson.JSONEncoder.item_separator = ';'\n",
        "import fractions\nc = fractions.Fraction.__dict__.get('c')\nprint(c)\n\
         fractions.Fraction.c = c or []\nfractions.Fraction.c.append(1)\n",
        // in-place changes to module-level containers
        "import heapq\nprint(len(heapq.__all__))\nheapq.__all__.append('memo')\n",
        "import os\nprint(len(os.supports_fd))\nos.supports_fd.add(12345)\n",
        "import json.decoder as d\nprint(len(d.BACKSLASH))\nd.BACKSLASH['memo'] = 'x'\n",
        "import string\nprint(len(string.__all__))\nstring.__all__[:] = []\n",
        // sys.modules and builtins
        "import sys\nm = sys.modules.get('memo')\nprint(m is None)\n\
         sys.modules['memo'] = type(sys)('memo')\n",
        "import builtins\nprint(getattr(builtins, 'memo', 0))\nbuiltins.memo = 5\n",
    ] {
        assert_eq!(agrees_with_fresh(src), INPUTS.len(), "{src}");
    }
}

#[test]
fn caches_that_ordinary_programs_fill_are_put_back_and_the_instance_is_reused() {
    for src in [
        "import re\nn = int(input())\nprint(re.findall('[0-9]' * n, '12345'))\n",
        "n = int(input())\nprint(('x' * n).encode('ascii'), 'é'.encode('latin-1'))\n",
    ] {
        assert_eq!(agrees_with_fresh(src), 1, "{src}");
    }
}

/// A program that spreads its work across tests (each test extends a prefix sum kept in
/// a stdlib class) would pass the last test in a reused instance; fresh, it runs out of
/// time there, and so must it in a session.
#[test]
fn work_spread_across_tests_meets_the_time_limit_of_a_fresh_process() {
    let src = "import fractions\nC = fractions.Fraction\ni, acc = C.__dict__.get('st', (0, 0))\n\
               n = int(input())\nif i > n:\n    i, acc = 0, 0\nwhile i < n:\n    \
               acc += i * i % 7\n    i += 1\nC.st = (i, acc)\nprint(acc)\n";
    let rt = runtime();
    let budget = limits().fuel;
    let probe = rt.run_program(src, b"100000\n", &limits()).expect("run");
    let StdioOutcome::Exited { fuel_used, .. } = probe else {
        panic!("{probe:?}")
    };
    // n that takes about 40% of a budget: fresh, 3n and 4n need more than a budget;
    // each test extends the last one's sum by n.
    let k = (100_000.0 * 0.4 * budget as f64 / fuel_used as f64) as u64;
    let inputs = [k, 2 * k, 3 * k, 4 * k];
    let last = format!("{}\n", inputs[3]);
    assert_eq!(
        rt.run_program(src, last.as_bytes(), &limits())
            .expect("run"),
        StdioOutcome::TimeLimit
    );
    let mut program = rt.program(src);
    let mut outcomes = Vec::new();
    for n in inputs {
        let (outcome, _) = program
            .run(format!("{n}\n").as_bytes(), &limits())
            .expect("run");
        outcomes.push(outcome);
    }
    assert!(
        matches!(outcomes[1], StdioOutcome::Exited { .. }),
        "{outcomes:?}"
    );
    assert_eq!(
        outcomes[2..],
        [StdioOutcome::TimeLimit, StdioOutcome::TimeLimit]
    );
}
