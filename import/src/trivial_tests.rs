//! Rows whose tests a trivial program passes are refused (or kept and listed with
//! `keep_weak`); rows with real tests are kept.

use serde_json::json;

use crate::{Layout, Options, import_rows};

#[test]
fn rows_a_trivial_program_passes_are_refused_with_the_program_named() {
    let rows = vec![
        // Every expected value is True.
        json!({"text": "Is it fine?", "code": "def ok(n):\n    return True",
               "test_list": ["assert ok(1) == True", "assert ok(2) == True"]}),
        // The output is the first argument.
        json!({"text": "Identity.", "code": "def same(x):\n    return x",
               "test_list": ["assert same(3) == 3", "assert same([1]) == [1]"]}),
        // Real tests.
        json!({"text": "Add.", "code": "def add(a, b):\n    return a + b",
               "test_list": ["assert add(1, 2) == 3", "assert add(0, 0) == 0", "assert add(-1, 5) == 4"]}),
    ];
    let out = import_rows(
        rows.clone().into_iter().map(Ok),
        &Layout::Mbpp,
        &Options::new("w"),
    );
    assert_eq!(out.summary.kept, 1, "{}", out.summary);
    let drops: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(drops, [(0, "weak_tests"), (1, "weak_tests")]);
    assert!(
        out.summary.drops[0].reason.contains("returning True"),
        "{}",
        out.summary
    );
    assert!(
        out.summary.drops[1]
            .reason
            .contains("returning the first argument"),
        "{}",
        out.summary
    );
    // --keep-weak keeps them, listed.
    let keep = Options {
        keep_weak: true,
        ..Options::new("w")
    };
    let out = import_rows(rows.into_iter().map(Ok), &Layout::Mbpp, &keep);
    assert_eq!(out.summary.kept, 3, "{}", out.summary);
    let weak: Vec<u64> = out.summary.weak.iter().map(|w| w.row).collect();
    assert_eq!(weak, [0, 1]);
    assert!(
        out.summary.to_string().contains("kept with --keep-weak"),
        "{}",
        out.summary
    );
}

#[test]
fn stdio_rows_passed_by_echo_a_constant_or_the_shown_examples_are_refused() {
    let io = |inputs: &[&str], outputs: &[&str]| json!({"inputs": inputs, "outputs": outputs});
    let rows = vec![
        // Echo passes.
        json!({"question": "Print the input.", "input_output": io(&["1\n", "2\n"], &["1\n", "2\n"]),
               "solutions": ["import sys\nsys.stdout.write(sys.stdin.read())"]}),
        // Always YES.
        json!({"question": "Is n positive?", "input_output": io(&["1\n", "2\n"], &["YES\n", "YES\n"]),
               "solutions": ["input()\nprint('YES')"]}),
        // Every test is quoted in the statement: a lookup table passes.
        json!({"question": "Double it. Input 4 gives 8; input 6 gives 12.", "input_output": io(&["4\n", "6\n"], &["8\n", "12\n"]),
               "solutions": ["print(2 * int(input()))"]}),
        // One shown example, a hidden test: kept.
        json!({"question": "Double it. Input 4 gives 8.", "input_output": io(&["4\n", "7\n", "0\n"], &["8\n", "14\n", "0\n"]),
               "solutions": ["print(2 * int(input()))"]}),
    ];
    let out = import_rows(rows.into_iter().map(Ok), &Layout::Apps, &Options::new("w"));
    let drops: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(
        drops,
        [(0, "weak_tests"), (1, "weak_tests"), (2, "weak_tests")],
        "{}",
        out.summary
    );
    for (drop, program) in
        out.summary
            .drops
            .iter()
            .zip(["echoing the input", "printing YES", "a lookup table"])
    {
        assert!(drop.reason.contains(program), "{}", drop.reason);
    }
    assert_eq!(out.summary.kept, 1);
    // Without validation nothing runs, nothing is refused for it.
    let out = import_rows(
        vec![Ok(
            json!({"question": "Print the input.", "input_output": io(&["1\n"], &["1\n"])}),
        )]
        .into_iter(),
        &Layout::Apps,
        &Options {
            validate: false,
            ..Options::new("w")
        },
    );
    assert_eq!(out.summary.kept, 1);
}

/// Rows whose expected outputs are empty or only whitespace, and rows whose only tests
/// are the examples the prompt shows, used to import silently.
#[test]
fn empty_outputs_and_rows_with_only_shown_examples_are_refused() {
    let io = |inputs: &[&str], outputs: &[&str]| json!({"inputs": inputs, "outputs": outputs});
    let rows = vec![
        json!({"question": "Print nothing.", "input_output": io(&["1\n", "2\n"], &["", ""])}),
        json!({"question": "Print blanks.", "input_output": io(&["1\n", "2\n"], &["\n", "  \n\n"])}),
        json!({"question": "Double it.", "input_output": io(&["4\n", "7\n"], &["8\n", "14\n"])}),
    ];
    let out = import_rows(rows.into_iter().map(Ok), &Layout::Apps, &Options::new("e"));
    let drops: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(
        drops,
        [(0, "weak_tests"), (1, "weak_tests")],
        "{}",
        out.summary
    );
    for drop in &out.summary.drops {
        assert!(drop.reason.contains("the empty program"), "{}", drop.reason);
    }
    assert_eq!(out.summary.kept, 1);
    // CodeContests rows with public tests only: a lookup table of them passes.
    let tests = json!({"input": ["4\n", "7\n"], "output": ["8\n", "14\n"]});
    let solutions = json!({"language": [3], "solution": ["print(2 * int(input()))"]});
    let rows = vec![
        json!({"description": "Double it.", "public_tests": tests, "solutions": solutions}),
        json!({"description": "Double the number.", "public_tests": {"input": ["4\n"], "output": ["8\n"]},
               "private_tests": {"input": ["7\n", "0\n"], "output": ["14\n", "0\n"]},
               "solutions": solutions}),
    ];
    let out = import_rows(
        rows.into_iter().map(Ok),
        &Layout::Codecontests,
        &Options::new("p"),
    );
    let drops: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(drops, [(0, "weak_tests")], "{}", out.summary);
    assert!(
        out.summary.drops[0].reason.contains("a lookup table"),
        "{}",
        out.summary
    );
    assert_eq!(out.summary.dropped.get("weak_tests"), Some(&1));
}

#[test]
fn c_and_cpp_rows_get_the_same_adequacy_check() {
    use verigym_envs::code::dataset::{CodeRow, Tests};
    use verigym_sandbox::StdioTest;

    use crate::trivial::passing_trivial;

    let test = |input: &str, expected: &str| StdioTest {
        input: input.into(),
        expected: expected.into(),
    };
    let row = |language: &str, hidden: Vec<StdioTest>| CodeRow {
        statement: "Is n positive?".into(),
        language: language.into(),
        tests: Tests::Stdio {
            public: Vec::new(),
            hidden,
        },
        starter_code: None,
        solution: None,
        time_limit: None,
        difficulty: None,
        metadata: serde_json::Value::Null,
        source: None,
        sampled: None,
    };
    let always_yes = vec![test("1\n", "YES\n"), test("5\n", "YES\n")];
    let real = vec![
        test("1\n", "YES\n"),
        test("-5\n", "NO\n"),
        test("3\n", "YES\n"),
    ];
    for language in ["c", "cpp"] {
        assert_eq!(
            passing_trivial(&row(language, always_yes.clone())),
            Ok(Some("printing YES".into())),
            "{language}"
        );
        assert_eq!(
            passing_trivial(&row(language, real.clone())),
            Ok(None),
            "{language}"
        );
    }
}
