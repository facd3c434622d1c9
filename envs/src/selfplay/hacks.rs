//! Scripted proposers and solvers on `selfplay/code-io-v1`: the learnability reward, every
//! invalid-proposal class (with its stated reason and the penalty), and every known code
//! reward hack (see `NOTES.md`) failing as a solver answer in each task type.

use super::code_io::{CodeIo, CodeIoConfig, CodeIoTask, TaskType, call_text, proposal_text};
use super::pyliteral::to_python as py_literal;
use super::testkit::{assert_refused, play_applied};
use super::{PROPOSER, SOLVER};
use crate::core::{Env, Score};
use crate::rng::Rng;

fn task(task_type: TaskType, seed: u64) -> CodeIoTask {
    let config = CodeIoConfig {
        task_types: vec![task_type],
        ..CodeIoConfig::default()
    };
    CodeIo::generate(&config, &mut Rng::from_seed(seed))
}

/// Plays a proposal and solver answers; returns the proposer's and solver's scores and
/// the events.
fn play(task: &CodeIoTask, proposal: &str, answers: &[String]) -> (Score, Score, Vec<String>) {
    play_applied(task, proposal, answers)
}

/// The right answer to the scripted proposal, from the env's own oracle.
fn right_answer(task: &CodeIoTask) -> String {
    let mut env = CodeIo::reset(task, Rng::from_seed(0));
    env.apply(PROPOSER, proposal_text(&task.scripted)).unwrap();
    env.oracle(SOLVER)
        .expect("a valid proposal has an oracle answer")
}

/// A wrong answer for any proposal of the pool: `f(None)` fails in every generated program
/// (each starts by iterating its list), and no generated output is `[-987654]`.
fn wrong_answer(task_type: TaskType) -> String {
    match task_type {
        TaskType::Abduction => "```python\nf(None)\n```".into(),
        _ => "```python\n[-987654]\n```".into(),
    }
}

const TYPES: [TaskType; 3] = [
    TaskType::Deduction,
    TaskType::Abduction,
    TaskType::Induction,
];

#[test]
fn always_right_gives_zero_and_half_right_gives_half() {
    for (i, task_type) in TYPES.into_iter().enumerate() {
        let t = task(task_type, 40 + i as u64);
        let proposal = proposal_text(&t.scripted);
        let right = right_answer(&t);
        let wrong = wrong_answer(task_type);
        let (p, s, events) = play(&t, &proposal, &vec![right.clone(); 4]);
        assert_eq!(
            (p.reward, p.passed),
            (0.0, false),
            "{task_type:?}: {events:?}"
        );
        assert_eq!(
            (s.reward, s.passed),
            (1.0, true),
            "{task_type:?}: {events:?}"
        );
        let half = [right.clone(), wrong.clone(), wrong.clone(), right.clone()];
        let (p, s, events) = play(&t, &proposal, &half);
        assert_eq!(
            (p.reward, p.passed),
            (0.5, true),
            "{task_type:?}: {events:?}"
        );
        assert_eq!(p.breakdown["solve_rate"], 0.5);
        assert_eq!((s.reward, s.passed), (0.5, false));
        assert_eq!(s.breakdown["attempt_1"], 0.0);
        let (p, _, _) = play(&t, &proposal, &vec![wrong; 4]);
        assert_eq!(p.reward, 0.0, "{task_type:?}: nobody solved it");
    }
}

#[test]
fn invalid_proposals_are_rejected_with_a_reason_and_the_penalty() {
    let t = task(TaskType::Deduction, 7);
    let input = call_text(&t.scripted.inputs[0]);
    let with = |program: &str| format!("```python\n{program}```\nINPUT: {input}\n");
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "format"),
        ("def f(xs): return xs".into(), "format"),
        (format!("```python\n{}```\n", t.scripted.program), "format"),
        (
            format!("```python\n{}```\nINPUT: f(nope)\n", t.scripted.program),
            "format",
        ),
        (with(&t.references[0].program), "copy"),
        (with("def f(xs)\n    return xs\n"), "syntax"),
        (with("def g(xs):\n    return xs\n"), "entry"),
        (
            with("state = [0]\n\ndef f(xs):\n    state[0] += 1\n    return state[0]\n"),
            "nondeterministic",
        ),
        (with("def f(xs):\n    while True:\n        pass\n"), "fuel"),
        (with("def f(xs):\n    return f(xs)\n"), "crash"),
        (with("def f(xs):\n    return 1 // 0\n"), "crash"),
        (
            with("class Box:\n    pass\n\ndef f(xs):\n    return Box()\n"),
            "not_plain",
        ),
        (with("def f(xs):\n    return {1, 2}\n"), "not_plain"),
        (
            with("def f(xs):\n    return 'x' * 5000\n"),
            "output_too_large",
        ),
        (
            with("def f(xs):\n    x = []\n    while True:\n        x.append(bytearray(1 << 20))\n"),
            "memory",
        ),
    ];
    let banned_imports = [
        "import os\n",
        "import sys\n",
        "import subprocess\n",
        "import random\n",
        "import time\n",
        "import socket\n",
        "import importlib\n",
        "from os import path\n",
        "import os.path as p\n",
        "from . import x\n",
    ];
    let banned_builtins = [
        "__import__('os')",
        "eval('1')",
        "exec('x = 1')",
        "open('/etc/passwd')",
        "xs.__class__",
        "getattr(xs, 'copy')",
        "globals()",
    ];
    let mut all = cases;
    for import in banned_imports {
        all.push((
            with(&format!("{import}\ndef f(xs):\n    return xs\n")),
            "import",
        ));
    }
    for expr in banned_builtins {
        all.push((
            with(&format!("def f(xs):\n    y = {expr}\n    return xs\n")),
            "builtin",
        ));
    }
    for (proposal, code) in all {
        assert_refused(&play(&t, &proposal, &[]), &proposal, code);
    }
}

#[test]
fn allowed_imports_pass_and_the_penalty_is_configurable() {
    let t = task(TaskType::Deduction, 8);
    let input = call_text(&t.scripted.inputs[0]);
    let ok = format!(
        "```python\nimport math\nfrom collections import Counter\n\ndef f(xs):\n    \
         return (math.gcd(*xs), Counter(xs).most_common(1)[0][1])\n```\nINPUT: {input}\n"
    );
    let (p, _, events) = play(&t, &ok, &[]);
    assert_eq!(p.breakdown["valid"], 1.0, "{events:?}");
    let strict = CodeIo::generate(
        &CodeIoConfig {
            invalid_penalty: 1.0,
            ..CodeIoConfig::default()
        },
        &mut Rng::from_seed(8),
    );
    assert_eq!(play(&strict, "nothing", &[]).0.reward, -1.0);
}

/// Python hack sources; each defines `f`.
const PROGRAM_HACKS: &[(&str, &str)] = &[
    (
        "eq_always_true",
        "class A:\n    def __eq__(self, o): return True\n    def __ne__(self, o): return False\n    __hash__ = object.__hash__\n\ndef f(*args):\n    return A()\n",
    ),
    (
        "int_subclass",
        "class I(int):\n    def __eq__(self, o): return True\n    __hash__ = int.__hash__\n\ndef f(*args):\n    return I(0)\n",
    ),
    (
        "str_subclass",
        "class S(str):\n    def __eq__(self, o): return True\n    __hash__ = str.__hash__\n\ndef f(*args):\n    return S('')\n",
    ),
    (
        "list_subclass",
        "class L(list):\n    def __eq__(self, o): return True\n\ndef f(*args):\n    return L()\n",
    ),
    ("sys_exit", "import sys\n\ndef f(*args):\n    sys.exit(0)\n"),
    (
        "raise_system_exit",
        "def f(*args):\n    raise SystemExit(0)\n",
    ),
    ("os_exit", "import os\n\ndef f(*args):\n    os._exit(0)\n"),
    (
        "exit_at_import",
        "import os\nos._exit(0)\n\ndef f(*args):\n    return 0\n",
    ),
    ("quit", "def f(*args):\n    quit()\n"),
    (
        "patch_builtins",
        "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.type = lambda *a: int\n\ndef f(*args):\n    return object()\n",
    ),
    (
        "patch_json",
        "import json\njson.dumps = lambda *a, **k: 'true'\njson.loads = lambda *a, **k: True\n\ndef f(*args):\n    return None\n",
    ),
    (
        "frame_walk",
        "import sys, os\n\ndef f(*args):\n    fr = sys._getframe()\n    while fr is not None:\n        for v in list(fr.f_locals.values()):\n            if isinstance(v, list):\n                v.append('passed')\n        fr = fr.f_back\n    os._exit(0)\n",
    ),
    (
        "infinite_loop",
        "def f(*args):\n    while True:\n        pass\n",
    ),
    ("deep_recursion", "def f(*args):\n    return f(*args)\n"),
    (
        "huge_output",
        "def f(*args):\n    print('x' * 10**7)\n    return None\n",
    ),
    ("huge_return", "def f(*args):\n    return 'x' * 10**7\n"),
    (
        "print_passed",
        "def f(*args):\n    print('PASSED')\n    return None\n",
    ),
];

/// The hardcoded visible pairs (a lookup table with a constant fallback).
fn lookup_table(t: &CodeIoTask) -> String {
    let mut src = String::from("def f(*args):\n");
    for (i, o) in t
        .scripted
        .inputs
        .iter()
        .zip(&t.scripted.outputs)
        .take(t.visible_pairs)
    {
        src.push_str(&format!(
            "    if list(args) == {}:\n        return {}\n",
            py_literal(i),
            py_literal(o)
        ));
    }
    src.push_str(&format!(
        "    return {}\n",
        py_literal(&t.scripted.outputs[0])
    ));
    src
}

#[test]
fn code_hacks_fail_as_solver_answers_in_every_task_type() {
    for (i, task_type) in TYPES.into_iter().enumerate() {
        let t = task(task_type, 60 + i as u64);
        let proposal = proposal_text(&t.scripted);
        let mut answers: Vec<(String, String)> = PROGRAM_HACKS
            .iter()
            .map(|(name, src)| (name.to_string(), format!("```python\n{src}```")))
            .collect();
        answers.push(("empty".into(), String::new()));
        answers.push(("echo_prompt".into(), {
            let mut env = CodeIo::reset(&t, Rng::from_seed(0));
            env.apply(PROPOSER, proposal.clone()).unwrap();
            env.observe(SOLVER).text
        }));
        answers.push(("constant".into(), "```python\n-987654\n```".into()));
        if task_type == TaskType::Induction {
            answers.push((
                "hardcoded_visible_pairs".into(),
                format!("```python\n{}```", lookup_table(&t)),
            ));
        }
        let right = right_answer(&t);
        let wrong = wrong_answer(task_type);
        answers.push(("hedge_two_blocks".into(), format!("{right}\nor\n{wrong}")));
        answers.push((
            "padded_wrong".into(),
            format!("{}\n\n{wrong}", "filler ".repeat(500)),
        ));
        for (name, answer) in answers {
            let (_, s, events) = play(&t, &proposal, &[answer]);
            assert!(
                s.breakdown["attempt_0"] == 0.0 && s.reward == 0.0,
                "{task_type:?} {name} verified: {events:?}"
            );
        }
        // Padding around a right answer (prose before the block) is still right.
        let (_, s, _) = play(&t, &proposal, &[format!("Let me think.\n\n{right}")]);
        assert_eq!(
            s.breakdown["attempt_0"], 1.0,
            "{task_type:?}: padded right answer"
        );
    }
}

/// Validated proposals from a buffer become the proposer's reference examples; copying one
/// (even reformatted and commented) is refused, and the cards stay deterministic.
#[test]
fn buffer_proposals_become_reference_examples() {
    use super::buffer::TaskBuffer;
    let mut buffer = TaskBuffer::new(8);
    for seed in 0..4 {
        let t = task(TaskType::Deduction, 80 + seed);
        let valid = super::code_io::validate_proposal(&t, &proposal_text(&t.scripted)).unwrap();
        assert_eq!(
            valid.outputs, t.scripted.outputs,
            "sandbox agrees with the Rust mirror"
        );
        assert!(buffer.insert(valid));
    }
    let config = CodeIoConfig {
        task_types: vec![TaskType::Deduction],
        reference_pool: buffer.items(),
        ..CodeIoConfig::default()
    };
    let t = CodeIo::generate(&config, &mut Rng::from_seed(3));
    assert_eq!(t, CodeIo::generate(&config, &mut Rng::from_seed(3)));
    assert!(t.references.iter().all(|r| buffer.contains(r)));
    let reformatted = t.references[0]
        .program
        .replace("def f(xs):", "# a copy\ndef f( xs ):  # entry")
        .replace("    ", "  ");
    let copy = format!(
        "```python\n{reformatted}```\nINPUT: {}\n",
        call_text(&t.scripted.inputs[0])
    );
    let (p, _, events) = play(&t, &copy, &[]);
    assert_eq!(p.breakdown.get("rejected_copy"), Some(&1.0), "{events:?}");
}
