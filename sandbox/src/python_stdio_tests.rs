//! One instance per program, test after test, must give what a fresh instance per test
//! gives: checked run by run against fresh instances, for programs that read and write in
//! every style, exit in every way, and change interpreter state on purpose.

use std::sync::OnceLock;

use crate::limits::Limits;
use crate::python::PythonRuntime;
use crate::stdio_outcome::StdioOutcome;
use crate::{Sandbox, SandboxConfig, stdio_limits};

pub(super) fn runtime() -> &'static PythonRuntime {
    static RT: OnceLock<PythonRuntime> = OnceLock::new();
    RT.get_or_init(|| {
        let sandbox = Sandbox::new(SandboxConfig::default()).expect("engine");
        sandbox.python().expect("python runtime")
    })
}

pub(super) fn limits() -> Limits {
    Limits {
        memory_bytes: 128 << 20,
        output_bytes: 1 << 16,
        ..stdio_limits(crate::Language::Python, 0.25)
    }
}

/// The third input has a line that programs reading two lines leave unread: nothing of
/// it may reach the fourth run (where it would be read as the count).
const INPUTS: [&str; 4] = ["3\n1 2 3\n", "2\n-5 5\n", "1\n7\n8 9\n", "4\n7 7 7 7"];

/// What must agree between a reused and a fresh instance (fuel may differ by warm caches).
pub(super) fn seen(outcome: &StdioOutcome) -> String {
    match outcome {
        StdioOutcome::Exited { stdout, stderr, .. } => format!("exited {stdout:?} {stderr:?}"),
        other => format!("{other:?}"),
    }
}

/// [`agrees_with_fresh_on`] these tests' inputs.
#[track_caller]
fn agrees_with_fresh(src: &str) -> usize {
    agrees_with_fresh_on(src, &INPUTS)
}

/// Runs `src` on every input in one program session and in a fresh instance each (the
/// outputs must agree test by test), and returns how many instances the session used.
#[track_caller]
pub(super) fn agrees_with_fresh_on(src: &str, inputs: &[&str]) -> usize {
    let rt = runtime();
    let mut program = rt.program(src);
    for (k, input) in inputs.iter().enumerate() {
        let (shared, _) = program.run(input.as_bytes(), &limits()).expect("run");
        let fresh = rt
            .run_program(src, input.as_bytes(), &limits())
            .expect("run");
        assert_eq!(seen(&shared), seen(&fresh), "test {k} of:\n{src}");
    }
    program.instances()
}

const SUM: &str = "sum(map(int, data.split()[1:]))";

#[test]
fn well_behaved_programs_run_every_test_in_one_instance() {
    for src in [
        "n = int(input())\nprint(sum(map(int, input().split())))\n".to_string(),
        format!("data = open(0).read()\nprint({SUM})\n"),
        format!("import sys\ndata = sys.stdin.read()\nprint({SUM})\n"),
        format!("import sys\ndata = sys.stdin.buffer.read().decode()\nprint({SUM})\n"),
        format!("import os\ndata = os.read(0, 1 << 16).decode()\nprint({SUM})\n"),
        // reads one line: the rest stays in this run's buffers
        "import sys\nprint(sys.stdin.readline().strip())\n".into(),
        // no newline, no flush; stderr too
        "import sys\nsys.stdout.write(input())\nprint('note', file=sys.stderr)\n".into(),
        format!("import sys\nsys.stdout = open(1, 'w')\ndata = open(0).read()\nprint({SUM})\n"),
        "import sys\ninput = sys.stdin.readline\nn = int(input())\nprint(n * 2)\n".into(),
        // globals and caches live in the run's own namespace
        "import functools\ncalls = 0\n@functools.lru_cache(None)\ndef f(n):\n    \
         global calls\n    calls += 1\n    return n if n < 2 else f(n - 1) + f(n - 2)\n\
         print(f(int(input()) + 20), calls)\n"
            .into(),
        "print(globals().get('seen', 'fresh'))\nseen = 1\n".into(),
        // state the harness puts back
        "import sys\nprint(sys.getrecursionlimit())\nsys.setrecursionlimit(10 ** 5)\n\
         def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(3000))\n"
            .into(),
        "import random\nprint(random.random(), random.randint(1, 10 ** 9))\nrandom.seed(5)\n"
            .into(),
        "import decimal\nprint(decimal.getcontext().prec, decimal.Decimal(1) / 7)\n\
         decimal.getcontext().prec = 50\n"
            .into(),
        "import gc\nprint(gc.isenabled(), gc.get_threshold())\ngc.disable()\n\
         gc.set_threshold(5)\n"
            .into(),
        "import sys\nprint(sys.get_int_max_str_digits())\nsys.set_int_max_str_digits(5000)\n"
            .into(),
        // every way to end with status 0
        "print(input())\nimport sys\nsys.exit(0)\n".into(),
        "print(input())\nexit()\n".into(),
        "print(input())\nraise SystemExit\n".into(),
        "import threading\ndef main():\n    print(input())\nthreading.Thread(target=main).start()\n"
            .into(),
    ] {
        assert_eq!(agrees_with_fresh(&src), 1, "{src}");
    }
}

#[test]
fn programs_that_change_what_cannot_be_put_back_get_a_fresh_instance_each_test() {
    for src in [
        "import builtins\nprint(hasattr(builtins, 'm'))\nbuiltins.m = 1\n",
        "import builtins\nprint(input())\nbuiltins.print = lambda *a, **k: None\n",
        "import math\nprint(hasattr(math, 'm'))\nmath.m = 1\n",
        "import math\nprint(math.sqrt(16))\nmath.sqrt = lambda x: -1\n",
        "import sys\nprint('m' in sys.modules)\nsys.modules['m'] = sys\n",
        "import sys\nprint(len(sys.path))\nsys.path.append('x')\n",
        "import os\nprint(os.environ.get('M'))\nos.environ['M'] = '1'\n",
        "import sys\nprint(sys.gettrace() is None)\nsys.settrace(lambda *a: None)\n",
        "import os\nprint(input())\nos.close(0)\n",
        "import os\nprint(input(), flush=True)\nos.close(1)\n",
        "import sys\nprint(sys.argv)\nsys.argv.append('x')\n",
    ] {
        assert_eq!(agrees_with_fresh(src), INPUTS.len(), "{src}");
    }
}

/// A fresh instance must start exactly as the interpreter-state record taken at build time
/// says (arguments and environment included): where it does not, every fresh instance
/// records the whole state again, which cost about half of its start-up.
#[test]
fn a_fresh_instance_starts_as_the_build_time_record_says() {
    let rt = runtime();
    for src in [
        "print(input())\n",
        "import sys, os\nprint(sys.argv, dict(os.environ))\n",
    ] {
        let mut program = rt.program(src);
        let (outcome, _) = program.run(b"1\n", &limits()).expect("run");
        assert!(
            matches!(outcome, StdioOutcome::Exited { .. }),
            "{outcome:?}"
        );
        assert_eq!(program.records_retaken(), 0, "{src}");
    }
    let seen = rt
        .run_program(
            "import sys, os\nprint(sys.argv, dict(os.environ))\n",
            b"",
            &limits(),
        )
        .expect("run");
    assert_eq!(seen_stdout(&seen), "[''] {}\n");
}

fn seen_stdout(outcome: &StdioOutcome) -> &str {
    match outcome {
        StdioOutcome::Exited { stdout, .. } => stdout,
        other => panic!("{other:?}"),
    }
}

#[test]
fn runs_that_fail_end_the_instance_and_still_agree_with_fresh_ones() {
    for src in [
        "n = int(input())\nif n == 2:\n    raise ValueError('two')\nprint(n)\n",
        "n = int(input())\nimport sys\nif n == 2:\n    sys.exit(3)\nprint(n)\n",
        "import os\nprint(input(), flush=True)\nos._exit(0)\n",
        "n = int(input())\nwhile n == 2:\n    pass\nprint(n)\n",
        "n = int(input())\nx = [0] * (10 ** 9 if n == 2 else 1)\nprint(n)\n",
        "n = int(input())\nprint('x' * (10 ** 6 if n == 2 else 1))\n",
        "def f(:\n",
    ] {
        let instances = agrees_with_fresh(src);
        assert!(
            instances <= INPUTS.len(),
            "{instances} instances for:\n{src}"
        );
    }
    // The failing test is the second: the first two share an instance, the third needs
    // a fresh one, and the fourth reuses that.
    assert_eq!(
        agrees_with_fresh("n = int(input())\nassert n != 2\nprint(n)\n"),
        2
    );
}

fn fuel_used(outcome: &StdioOutcome) -> u64 {
    match outcome {
        StdioOutcome::Exited { fuel_used, .. } => *fuel_used,
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_run_has_the_fuel_of_a_fresh_instance() {
    let src = "k = int(input())\nn = 0\nfor i in range(k):\n    n += i\nprint(n % 7)\n";
    let rt = runtime();
    let budget = limits().fuel;
    // Loops sized to burn about 60% of a budget per run: four runs need 2.4 budgets.
    let probe = fuel_used(&rt.run_program(src, b"100000\n", &limits()).expect("run"));
    let k = (100_000.0 * 0.6 * budget as f64 / probe as f64) as u64;
    let input = format!("{k}\n");
    let fresh = fuel_used(
        &rt.run_program(src, input.as_bytes(), &limits())
            .expect("run"),
    );
    assert!(fresh > budget / 2 && fresh < budget, "{fresh} of {budget}");
    let mut program = rt.program(src);
    for _ in 0..4 {
        let (outcome, _) = program.run(input.as_bytes(), &limits()).expect("run");
        let used = fuel_used(&outcome);
        // The same work, charged the compile as a fresh instance is; warm caches may
        // save a little.
        assert!(used.abs_diff(fresh) < fresh / 20, "{used} vs {fresh} fresh");
    }
    assert_eq!(program.instances(), 1);
    // Three times the loop needs more than a budget, in every run.
    let slow = format!("{}\n", 3 * k);
    let mut program = rt.program(src);
    for _ in 0..3 {
        let (outcome, _) = program.run(slow.as_bytes(), &limits()).expect("run");
        assert_eq!(outcome, StdioOutcome::TimeLimit);
    }
}

/// Where a program's time goes, run by run (not a check; timings vary with the machine):
/// `cargo test -p verigym-sandbox --lib python_stdio::tests::time_breakdown -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn time_breakdown() {
    let rt = runtime();
    let n = 200;
    let input = format!("{n}\n{}\n", vec!["12345"; n].join(" "));
    let per_run = |src: &str, reuse: bool| {
        let reps = 200;
        let mut program = rt.program(src);
        program.run(input.as_bytes(), &limits()).expect("warm-up");
        let started = std::time::Instant::now();
        for _ in 0..reps {
            let outcome = if reuse {
                program.run(input.as_bytes(), &limits()).expect("run").0
            } else {
                program.run_fresh(input.as_bytes(), &limits()).expect("run")
            };
            assert!(
                matches!(outcome, StdioOutcome::Exited { .. }),
                "{outcome:?}"
            );
        }
        started.elapsed().as_secs_f64() * 1e3 / reps as f64
    };
    let trivial = "pass\n";
    let sum = "n = int(input())\nprint(sum(map(int, input().split())))\n";
    let fresh_trivial = per_run(trivial, false);
    let reused_trivial = per_run(trivial, true);
    let fresh_sum = per_run(sum, false);
    let reused_sum = per_run(sum, true);
    println!(
        "ms per run: fresh instance (instantiate + prepare + compile + run): trivial \
         {fresh_trivial:.3}, sum of {n} {fresh_sum:.3}; reused (reset + run): trivial \
         {reused_trivial:.3}, sum {reused_sum:.3}"
    );
}
