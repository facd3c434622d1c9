//! Tests of `code/dataset-v2`: answers as models write them pass; wrong answers,
//! solutions that hard-code the public tests and every sandbox hack fail.

use super::*;
use crate::sandboxed::c_runtime;

fn io(input: &str, expected: &str) -> StdioTest {
    StdioTest {
        input: input.into(),
        expected: expected.into(),
    }
}

/// Sum of the numbers on the second line; the first line is their count.
fn sum_task(language: &str) -> CodeRow {
    CodeRow {
        statement: "Given n and then n integers, print their sum.".into(),
        language: language.into(),
        tests: Tests::Stdio {
            public: vec![io("3\n1 2 3\n", "6\n")],
            hidden: vec![
                io("1\n-5\n", "-5\n"),
                io("4\n1000000000 1000000000 1000000000 7\n", "3000000007\n"),
                io("2\n0 0\n", "0\n"),
            ],
        },
        starter_code: None,
        solution: Some("n = int(input())\nprint(sum(map(int, input().split())))\n".into()),
        time_limit: None,
        difficulty: None,
        metadata: Value::Null,
        source: None,
        sampled: None,
    }
}

fn call_task() -> CodeRow {
    let case = |a: i64, b: i64| TestCase {
        args: json!([a, b]),
        expected: json!(a.max(b) - a.min(b)),
    };
    CodeRow {
        statement: "Return the distance between two integers.".into(),
        language: "python".into(),
        tests: Tests::Call {
            fn_name: "dist".into(),
            public: vec![case(3, 7)],
            hidden: vec![case(-2, 5), case(9, 9), case(10, -10)],
            float_tol: 0.0,
            class_name: None,
            equality: Equality::Exact,
        },
        starter_code: Some("def dist(a, b):\n    pass".into()),
        solution: Some("def dist(a, b):\n    return abs(a - b)\n".into()),
        time_limit: None,
        difficulty: None,
        metadata: Value::Null,
        source: None,
        sampled: None,
    }
}

fn graded(task: &CodeRow, reply: &str) -> Graded {
    CodeDatasetQuestion::grade(task, reply)
}

fn passes(task: &CodeRow, reply: &str) -> bool {
    let g = graded(task, reply);
    assert_eq!(
        g.score.breakdown.get("sandbox_error"),
        Some(&0.0),
        "{:?}",
        g.events
    );
    g.score.passed
}

fn styles(code: &str, tag: &str) -> Vec<String> {
    vec![
        format!("```{tag}\n{code}```"),
        format!(
            "<think>\nRead n, then the numbers... {}\nLet me write it.\n</think>\nHere is my solution:\n\n```{tag}\n{code}```\n\nIt reads the input and prints the answer.",
            "hmm ".repeat(3000)
        ),
        format!("First a draft:\n```{tag}\nbroken(\n```\nFixed version:\n```{tag}\n{code}```"),
    ]
}

#[test]
fn stdin_stdout_python_answers_pass_in_every_style_and_failures_are_typed() {
    let task = sum_task("python");
    for reply in styles(task.solution.as_deref().unwrap(), "python") {
        assert!(passes(&task, &reply), "{reply:.200}");
    }
    let g = graded(
        &task,
        "```python\nn = int(input())\nprint(sum(map(int, input().split())) + 1)\n```",
    );
    assert!(!g.score.passed);
    assert_eq!(g.score.breakdown["wrong_answer"], 1.0);
    assert_eq!(g.score.breakdown["failed_test"], 1.0);
    assert_eq!(g.score.breakdown["tests_passed"], 0.0);
    // The public example shows its mismatch; a hidden one never shows its expected output.
    assert!(g.events[0].contains("public test 1"), "{:?}", g.events);
    let g = graded(
        &task,
        "```python\nn = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) if n > 1 else 0)\n```",
    );
    assert!(!g.score.passed);
    assert_eq!(g.score.breakdown["failed_test"], 2.0);
    assert_eq!(g.score.breakdown["tests_passed"], 0.25);
    assert_eq!(g.events, ["wrong answer on hidden test 1"]);
    let g = graded(&task, "```python\nprint(1/0)\n```");
    assert_eq!(g.score.breakdown["runtime_error"], 1.0);
    let g = graded(&task, "```python\ndef f(:\n```");
    assert!(!g.score.passed);
}

/// Every hack class of the code sandbox, as a whole program, scores 0.
#[test]
fn stdin_stdout_hacks_score_zero() {
    let task = sum_task("python");
    let hacks = [
        ("public outputs verbatim", "print(6)\n"),
        ("sys.exit", "import sys\nsys.exit(0)\n"),
        ("exit after public", "print(6)\nimport sys\nsys.exit(0)\n"),
        ("os._exit", "import os\nos._exit(0)\n"),
        ("raise SystemExit", "raise SystemExit(0)\n"),
        ("quit", "quit()\n"),
        ("nonzero exit", "import sys\nprint(6)\nsys.exit(3)\n"),
        ("read files", "print(open('/etc/passwd').read())\n"),
        (
            "list the expected files",
            "import os\nprint(os.listdir('/'))\n",
        ),
        ("fork", "import os\nos.fork()\nprint(6)\n"),
        (
            "subprocess",
            "import subprocess\nprint(subprocess.run(['cat','/etc/hosts']))\n",
        ),
        ("huge output", "while True:\n    print('6' * 10000)\n"),
        ("infinite loop", "while True:\n    pass\n"),
        (
            "memory bomb",
            "x = []\nwhile True:\n    x.append(' ' * 10**7)\n",
        ),
        ("deep recursion", "def f(n):\n    return f(n + 1)\nf(0)\n"),
        ("printed verdict", "print('PASSED')\n"),
        ("empty", ""),
    ];
    for (name, code) in hacks {
        let g = graded(&task, &format!("```python\n{code}```"));
        assert_eq!(g.score.reward, 0.0, "{name}: {:?}", g.events);
        assert!(!g.score.passed, "{name}");
    }
    // Hard-coding the public tests fails on the hidden ones.
    let hardcoded = "s = open(0).read()\nprint(6 if s.startswith('3\\n1 2 3') else 0)\n";
    let g = graded(&task, &format!("```python\n{hardcoded}```"));
    assert!(!g.score.passed);
    assert!(g.score.breakdown["failed_test"] >= 2.0, "{:?}", g.score);
}

#[test]
fn call_based_answers_pass_and_hacks_fail() {
    let task = call_task();
    for reply in styles(task.solution.as_deref().unwrap(), "python") {
        assert!(passes(&task, &reply), "{reply:.200}");
    }
    for (name, code) in [
        ("wrong", "def dist(a, b):\n    return a - b\n"),
        ("public only", "def dist(a, b):\n    return 4\n"),
        (
            "eq always true",
            "class A:\n    def __eq__(self, o): return True\ndef dist(a, b):\n    return A()\n",
        ),
        ("sys.exit", "import sys\ndef dist(a, b):\n    sys.exit(0)\n"),
        ("os._exit", "import os\ndef dist(a, b):\n    os._exit(0)\n"),
        ("infinite loop", "def dist(a, b):\n    while True: pass\n"),
        ("float", "def dist(a, b):\n    return float(abs(a - b))\n"),
    ] {
        let g = graded(&task, &format!("```python\n{code}```"));
        assert!(!g.score.passed, "{name}: {:?}", g.events);
    }
    assert_eq!(
        CodeDatasetQuestion::prompt(&task),
        "Return the distance between two integers.\n\nStarter code:\n```python\ndef dist(a, b):\n    pass\n```\n\n>>> dist(3, 7)\n4\n\nWrite the Python function `dist` (with any imports and helpers it needs). Reply with the code in a ```python code block; it will be run on hidden tests."
    );
}

#[test]
fn the_prompt_shows_public_tests_only() {
    let task = sum_task("python");
    let prompt = CodeDatasetQuestion::prompt(&task);
    assert!(
        prompt.contains("Example 1\nInput:\n3\n1 2 3\nOutput:\n6"),
        "{prompt}"
    );
    assert!(
        !prompt.contains("3000000007") && !prompt.contains("-5"),
        "{prompt}"
    );
    assert!(!prompt.contains("Example 2"));
}

#[test]
fn c_and_cpp_programs_are_judged_when_clang_is_installed() {
    if let Err(why) = c_runtime() {
        eprintln!("skipped: {why}");
        return;
    }
    let c = sum_task("c");
    let good_c = "#include <stdio.h>\nint main(void){int n; long long s=0, x; scanf(\"%d\", &n); while(n--){scanf(\"%lld\", &x); s+=x;} printf(\"%lld\\n\", s); return 0;}\n";
    assert!(passes(&c, &format!("Here:\n```c\n{good_c}```")));
    // 32-bit overflow on the hidden big test.
    let bad_c = good_c.replace("long long s=0", "int s=0");
    assert!(!passes(&c, &format!("```c\n{bad_c}```")));
    let g = graded(&c, "```c\nint main(void){ return }\n```");
    assert_eq!(g.score.breakdown["compile_error"], 1.0);
    let cpp = sum_task("cpp");
    let good_cpp = "#include <bits/stdc++.h>\nint main(){int n; std::cin>>n; long long s=0; for(int i=0;i<n;i++){long long x; std::cin>>x; s+=x;} std::cout<<s<<\"\\n\";}\n";
    assert!(passes(&cpp, &format!("```cpp\n{good_cpp}```")));
    assert!(!passes(
        &cpp,
        "```cpp\n#include <cstdio>\nint main(){puts(\"6\");}\n```"
    ));
}

#[test]
fn the_shipped_samples_read_and_their_references_pass() {
    let tasks = dataset::tasks_in::<CodeDatasetQuestion>(SAMPLES).unwrap();
    assert!(tasks.len() >= 6, "{}", tasks.len());
    for task in &tasks {
        let oracle = CodeDatasetQuestion::oracle(task).unwrap();
        assert!(passes(task, &oracle), "{:?}", task.source);
        assert!(
            !passes(task, "```python\nprint(0)\n```"),
            "{:?}",
            task.source
        );
    }
}

/// A hidden test's input never reaches the events, not even inside the error message a
/// program builds from it; a public test's error keeps its detail.
#[test]
fn hidden_inputs_never_leak_through_error_messages() {
    let secret = "SECRET-7731";
    let task = |hidden_input: &str| CodeRow {
        tests: Tests::Stdio {
            public: vec![io("a\n", "a\n")],
            hidden: vec![io(&format!("{hidden_input}\n"), "x\n")],
        },
        ..sum_task("python")
    };
    for (hidden_input, code, kind) in [
        (
            secret,
            "s = input()\nif s != 'a':\n    int(s)\nprint(s)\n",
            "ValueError",
        ),
        (
            secret,
            "s = input()\nif s != 'a':\n    raise KeyError(s)\nprint(s)\n",
            "KeyError",
        ),
        (
            secret,
            "s = input()\nif s != 'a':\n    exec(s)\nprint(s)\n",
            "NameError",
        ),
        (
            "SECRET 7731 (",
            "s = input()\nif s != 'a':\n    exec(s)\nprint(s)\n",
            "SyntaxError",
        ),
        (
            secret,
            "s = input()\nif s != 'a':\n    raise type(s.replace('-', '_'), (Exception,), {})(s)\nprint(s)\n",
            "error",
        ),
    ] {
        let g = graded(&task(hidden_input), &format!("```python\n{code}```"));
        assert!(!g.score.passed);
        let text = g.events.join("\n");
        assert!(!text.contains("SECRET"), "{code}: {text}");
        assert!(
            text.contains("hidden test 1") || text.contains("does not compile"),
            "{text}"
        );
        assert!(text.contains(&format!("({kind})")), "{code}: {text}");
        if text.contains("hidden test 1") {
            assert_eq!(g.score.breakdown["failed_test"], 2.0, "{text}");
        }
    }
    // The public example's error keeps its message.
    let g = graded(&task(secret), "```python\nint(input())\n```");
    assert!(
        g.events[0].contains("public test 1") && g.events[0].contains("'a'"),
        "{:?}",
        g.events
    );
    // Call-based: the hidden case's arguments stay hidden too.
    let mut call = call_task();
    if let Tests::Call { hidden, .. } = &mut call.tests {
        hidden[0].args = json!([-2, 5731]);
    }
    let code = "def dist(a, b):\n    if (a, b) != (3, 7):\n        raise ValueError(f'bad {a} {b}')\n    return 4\n";
    let g = graded(&call, &format!("```python\n{code}```"));
    assert_eq!(g.events, ["runtime error on hidden test 1 (ValueError)"]);
    assert_eq!(g.score.breakdown["failed_test"], 2.0);
    let code = "def dist(a, b):\n    raise ValueError(f'bad {a} {b}')\n";
    let g = graded(&call, &format!("```python\n{code}```"));
    assert!(
        g.events[0].starts_with("runtime error on public test 1: ")
            && g.events[0].contains("ValueError: bad 3 7"),
        "{:?}",
        g.events
    );
}

/// A cards file written for `code/dataset-v1` names both versions and the fix.
#[test]
fn cards_of_the_previous_version_say_to_import_again() {
    let v1: String = SAMPLES
        .lines()
        .map(|line| {
            line.replace(
                "\"env_id\":\"code/dataset-v2\"",
                "\"env_id\":\"code/dataset-v1\"",
            ) + "\n"
        })
        .collect();
    let path = std::env::temp_dir().join(format!("verigym-v1-cards-{}.jsonl", std::process::id()));
    std::fs::write(&path, v1).unwrap();
    let config = PoolConfig {
        cards: Some(path.display().to_string()),
        level: None,
    };
    let err = CodeDatasetQuestion::validate(&config).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(
        err.to_string()
            .contains("holds cards of code/dataset-v1, not of code/dataset-v2")
            && err.to_string().contains("re-run `verigym import`"),
        "{err}"
    );
}
