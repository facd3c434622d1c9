//! `verigym import`'s test-adequacy flags as a user runs them: `--keep-weak` keeps rows a
//! trivial program passes (listed) instead of dropping them, `--max-tests` caps and
//! samples a row's tests deterministically, and an import without a working sandbox says
//! that the weak-tests check was skipped.

use serde_json::json;

use crate::util::{json_lines, stderr, temp_dir, temp_file, verigym, verigym_command};

/// MBPP rows: the first one's tests a constant `True` passes, the second's are real.
fn mbpp_rows() -> String {
    [
        json!({"text": "Is it fine?", "code": "def ok(n):\n    return True",
               "test_list": ["assert ok(1) == True", "assert ok(2) == True"]}),
        json!({"text": "Add.", "code": "def add(a, b):\n    return a + b",
               "test_list": ["assert add(1, 2) == 3", "assert add(0, 0) == 0",
                             "assert add(-1, 5) == 4"]}),
    ]
    .map(|r| r.to_string())
    .join("\n")
}

#[test]
fn keep_weak_keeps_rows_a_trivial_program_passes_and_lists_them() {
    let dir = temp_dir("import-keep-weak");
    let input = temp_file("import-weak.jsonl", &mbpp_rows());
    let cards = dir.join("cards.jsonl");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "import",
            input.to_str().unwrap(),
            "--layout",
            "mbpp",
            "-o",
            cards.to_str().unwrap(),
        ];
        args.extend(extra);
        verigym(&args)
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("2 rows, 1 kept, 1 dropped"), "{text}");
    assert!(text.contains("weak_tests"), "{text}");
    assert!(text.contains("returning True"), "{text}");
    assert_eq!(json_lines(&cards).len(), 1);

    let out = run(&["--keep-weak"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("2 rows, 2 kept, 0 dropped"), "{text}");
    assert!(
        text.contains("row 0: kept with --keep-weak, but returning True passes every test"),
        "{text}"
    );
    assert_eq!(json_lines(&cards).len(), 2);

    // Keeping weak rows needs the check, which needs validation.
    let out = run(&["--keep-weak", "--no-validate"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--no-validate"), "{}", stderr(&out));
}

#[test]
fn max_tests_keeps_a_recorded_deterministic_sample() {
    let dir = temp_dir("import-max-tests");
    let inputs: Vec<String> = (0..8).map(|n| format!("{n}\n")).collect();
    let outputs: Vec<String> = (0..8).map(|n| format!("{}\n", 2 * n + 1)).collect();
    let row = json!({"question": "Print 2n + 1.",
                     "input_output": {"inputs": inputs, "outputs": outputs},
                     "solutions": ["print(2 * int(input()) + 1)"]});
    let input = temp_file("import-many-tests.jsonl", &row.to_string());
    let import = |max: &str, name: &str| {
        let cards = dir.join(name);
        let out = verigym(&[
            "import",
            input.to_str().unwrap(),
            "--layout",
            "apps",
            "--max-tests",
            max,
            "-o",
            cards.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        (json_lines(&cards).remove(0), stderr(&out))
    };
    let (card, text) = import("3", "a.jsonl");
    let task = &card["task"];
    assert_eq!(
        task["tests"]["hidden"].as_array().unwrap().len(),
        3,
        "{card}"
    );
    assert_eq!(task["sampled"]["total"], 8, "{card}");
    let kept: Vec<u64> = task["sampled"]["kept"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_u64().unwrap())
        .collect();
    assert_eq!(kept.len(), 3);
    assert!(
        kept.windows(2).all(|w| w[0] < w[1]) && kept[2] < 8,
        "{kept:?}"
    );
    // The kept tests are the row's tests at those indices.
    for (test, k) in task["tests"]["hidden"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&kept)
    {
        assert_eq!(test["input"], format!("{k}\n"));
    }
    assert!(text.contains("more tests than the cap"), "{text}");
    // The same sample every time.
    let (again, _) = import("3", "b.jsonl");
    assert_eq!(again, card);
    // 0 keeps every test, and no sample is recorded.
    let (all, _) = import("0", "c.jsonl");
    assert_eq!(all["task"]["tests"]["hidden"].as_array().unwrap().len(), 8);
    assert!(all["task"].get("sampled").is_none(), "{all}");
}

#[test]
fn an_import_without_a_sandbox_says_the_weak_tests_check_was_skipped() {
    let dir = temp_dir("import-no-sandbox");
    let input = temp_file("import-no-sandbox.jsonl", &mbpp_rows());
    let cards = dir.join("cards.jsonl");
    // An empty cache and a builder that does not exist: the Python runtime cannot be
    // built, so nothing runs.
    let out = verigym_command()
        .args([
            "import",
            input.to_str().unwrap(),
            "--layout",
            "mbpp",
            "-o",
            cards.to_str().unwrap(),
        ])
        .env("VERIGYM_CACHE_DIR", dir.join("empty-cache"))
        .env("VERIGYM_COMPONENTIZE_PY", dir.join("no-such-builder"))
        .output()
        .expect("run verigym");
    let text = stderr(&out);
    assert!(
        text.contains("weak-tests check skipped for 2 rows"),
        "{text}"
    );
    // Nothing was refused for a check that did not run.
    assert_eq!(json_lines(&cards).len(), 2, "{text}");
}
