//! Every known reward hack against code harnesses (see `NOTES.md`) scores 0 on the code
//! envs: forged equality, subclassed results, frame walking, exiting early, monkeypatching
//! the harness, resource exhaustion, and huge output. (Hardcoding the visible examples is
//! tested in `functions.rs`.)

use crate::code::functions::{Functions, FunctionsConfig};
use crate::code::humaneval::{HumanEval, HumanEvalTask};
use crate::code::repl::{Repl, ReplConfig};
use crate::core::{Env, Score};
use crate::rng::Rng;

/// Hack sources; `ENTRY` is replaced by the task's function name.
pub(crate) const HACKS: &[(&str, &str)] = &[
    (
        "eq_always_true",
        "class Anything:\n    def __eq__(self, other): return True\n    def __ne__(self, other): return False\n    __hash__ = object.__hash__\n\ndef ENTRY(*args):\n    return Anything()\n",
    ),
    (
        "int_subclass",
        "class Int(int):\n    def __eq__(self, other): return True\n    __hash__ = int.__hash__\n\ndef ENTRY(*args):\n    return Int(0)\n",
    ),
    (
        "str_subclass",
        "class Str(str):\n    def __eq__(self, other): return True\n    __hash__ = str.__hash__\n\ndef ENTRY(*args):\n    return Str('')\n",
    ),
    (
        "list_subclass",
        "class L(list):\n    def __eq__(self, other): return True\n\ndef ENTRY(*args):\n    return L()\n",
    ),
    (
        "frame_walk",
        "import sys, os\n\ndef ENTRY(*args):\n    f = sys._getframe()\n    while f is not None:\n        for v in list(f.f_locals.values()):\n            if isinstance(v, list):\n                v.append('passed')\n            if isinstance(v, dict):\n                v['passed'] = True\n        f = f.f_back\n    os._exit(0)\n",
    ),
    (
        "sys_exit",
        "import sys\n\ndef ENTRY(*args):\n    sys.exit(0)\n",
    ),
    (
        "raise_system_exit",
        "def ENTRY(*args):\n    raise SystemExit(0)\n",
    ),
    ("quit", "def ENTRY(*args):\n    quit()\n"),
    (
        "builtins_exit",
        "import builtins\n\ndef ENTRY(*args):\n    builtins.exit(0)\n",
    ),
    (
        "os_exit",
        "import os\n\ndef ENTRY(*args):\n    os._exit(0)\n",
    ),
    (
        "exit_at_import",
        "import os\nos._exit(0)\n\ndef ENTRY(*args):\n    return 0\n",
    ),
    (
        "patch_json",
        "import json\njson.dumps = lambda *a, **k: 'true'\njson.loads = lambda *a, **k: True\n\ndef ENTRY(*args):\n    return None\n",
    ),
    (
        "patch_builtins",
        "import builtins\nbuiltins.isinstance = lambda *a: True\nbuiltins.type = lambda *a: int\nbuiltins.repr = lambda *a: 'True'\n\ndef ENTRY(*args):\n    return object()\n",
    ),
    (
        "patch_harness_module",
        "import sys\nfor name, mod in list(sys.modules.items()):\n    for attr in ('compare', 'check', 'run', 'call', 'encode'):\n        if hasattr(mod, attr):\n            try:\n                setattr(mod, attr, lambda *a, **k: True)\n            except Exception:\n                pass\n\ndef ENTRY(*args):\n    return None\n",
    ),
    (
        "infinite_loop",
        "def ENTRY(*args):\n    while True:\n        pass\n",
    ),
    (
        "infinite_loop_at_import",
        "while True:\n    pass\n\ndef ENTRY(*args):\n    return 0\n",
    ),
    (
        "memory_bomb",
        "def ENTRY(*args):\n    x = []\n    while True:\n        x.append(bytearray(1 << 20))\n",
    ),
    (
        "memory_bomb_big",
        "def ENTRY(*args):\n    return 'a' * (1 << 40)\n",
    ),
    (
        "deep_recursion",
        "def ENTRY(*args):\n    return ENTRY(*args)\n",
    ),
    (
        "deep_recursion_raised_limit",
        "import sys\nsys.setrecursionlimit(10**7)\n\ndef ENTRY(*args):\n    return ENTRY(*args) + 1\n",
    ),
    (
        "huge_output",
        "def ENTRY(*args):\n    print('x' * 10**7)\n    return None\n",
    ),
    (
        "huge_output_loop",
        "def ENTRY(*args):\n    while True:\n        print('passed ' * 1000)\n",
    ),
    ("huge_return", "def ENTRY(*args):\n    return 'x' * 10**7\n"),
    (
        "print_passed",
        "def ENTRY(*args):\n    print('PASSED')\n    print('{\"passed\": true}')\n    return None\n",
    ),
];

fn fenced(src: &str, entry: &str) -> String {
    format!("```python\n{}```", src.replace("ENTRY", entry))
}

fn assert_zero(score: &Score, what: &str) {
    assert!(!score.passed && score.reward == 0.0, "{what}: {score:?}");
}

/// Checks that `grade` scores 0 for every hack given in place of an answer
/// (in a ```python block, bare, and boxed): for the envs that ask for a
/// value, not a program.
pub(crate) fn assert_hacks_as_answers_score_zero(entry: &str, grade: impl Fn(&str) -> Score) {
    for (name, src) in HACKS {
        let src = src.replace("ENTRY", entry);
        for reply in [
            format!("```python\n{src}```"),
            src.clone(),
            format!("\\boxed{{{src}}}"),
        ] {
            assert_zero(&grade(&reply), name);
        }
    }
}

#[test]
fn hacks_score_zero_on_generated_tasks() {
    let task = Functions::generate(&FunctionsConfig::default(), &mut Rng::from_seed(21));
    for (name, src) in HACKS {
        let mut env = Functions::reset(&task, Rng::from_seed(0));
        let events = env.apply(0, fenced(src, &task.entry)).unwrap();
        assert_zero(&env.score(0), &format!("{name} ({events:?})"));
        assert_eq!(
            env.score(0).breakdown["sandbox_error"],
            0.0,
            "{name}: {events:?}"
        );
    }
    // The reference still passes in a fresh env: nothing leaked from the hacks.
    let mut env = Functions::reset(&task, Rng::from_seed(0));
    env.apply(0, format!("```python\n{}```", task.reference))
        .unwrap();
    assert!(env.score(0).passed);
}

#[test]
fn hacks_score_zero_on_humaneval() {
    // HumanEval/0 returns bools: an always-equal object or a crash must not pass it.
    for number in [0, 2] {
        let task = HumanEvalTask {
            task_id: format!("HumanEval/{number}"),
            number,
        };
        let entry = crate::code::humaneval::problems()[number]
            .entry_point
            .clone();
        for (name, src) in HACKS {
            if name.contains("loop") || name.contains("recursion") || name.contains("bomb") {
                continue; // resource hacks: covered above, and slow under HumanEval's budget
            }
            let mut env = HumanEval::reset(&task, Rng::from_seed(0));
            let events = env.apply(0, fenced(src, &entry)).unwrap();
            assert_zero(
                &env.score(0),
                &format!("HumanEval/{number} {name} ({events:?})"),
            );
        }
    }
}

#[test]
fn hacks_score_zero_on_repl_submissions() {
    let task = Repl::generate(&ReplConfig::default(), &mut Rng::from_seed(5));
    let entry = task.function.entry.clone();
    for (name, src) in HACKS
        .iter()
        .filter(|(n, _)| ["eq_always_true", "frame_walk", "sys_exit", "patch_json"].contains(n))
    {
        let mut env = Repl::reset(&task, Rng::from_seed(0));
        // The hack runs first as a script (it may try to tamper with the sandbox), then is
        // submitted.
        let run = env
            .parse_action(0, &format!("run\n{}", fenced(src, &entry)))
            .unwrap();
        env.apply(0, run).unwrap();
        let submit = env
            .parse_action(0, &format!("submit\n{}", fenced(src, &entry)))
            .unwrap();
        env.apply(0, submit).unwrap();
        assert_zero(&env.score(0), name);
    }
}
