//! Imported data sets you can trust: hostile rows are contained (each refused with its
//! row and reason while every other row imports), nothing is lost silently, and a row's
//! cost is bounded by a recorded, deterministic sample of its tests.

use std::io::Write;

use base64::Engine;
use serde_json::{Value, json};

use super::*;
use crate::read::lines_of_text;

/// LiveCodeBench's encoding of private tests: base64 of zlib of `pickle`.
fn lcb_private(pickle: &[u8]) -> String {
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(pickle).unwrap();
    base64::engine::general_purpose::STANDARD.encode(z.finish().unwrap())
}

fn lcb_row(question: &str, private: String) -> Value {
    json!({
        "question_content": question,
        "public_test_cases": "[{\"input\": \"1\\n\", \"output\": \"2\\n\", \"testtype\": \"stdin\"}]",
        "private_test_cases": private,
    })
}

#[test]
fn hostile_pickles_are_refused_per_row_and_the_other_rows_import() {
    // 10,000 nested lists (2.6 KB of pickle used to overflow the stack and abort).
    let mut deep = vec![0x80, 4];
    deep.extend(std::iter::repeat_n(b']', 10_000));
    deep.extend(std::iter::repeat_n(b'a', 9_999));
    deep.push(b'.');
    // A list memoised and held twice by the next one, 60 times over: 2^60 leaves in
    // under a kilobyte (a 550-byte one used to take 5.8 GB).
    let mut doubling = vec![0x80, 4, b']', 0x94];
    for i in 0u32..60 {
        doubling.extend([b']', b'(', b'j']);
        doubling.extend(i.to_le_bytes());
        doubling.push(b'j');
        doubling.extend(i.to_le_bytes());
        doubling.extend([b'e', 0x94]);
    }
    doubling.push(b'.');
    let good_private = "[{\"input\": \"2\\n\", \"output\": \"4\\n\", \"testtype\": \"stdin\"}]";
    let rows = vec![
        Ok(lcb_row("Double the number.", good_private.into())),
        Ok(lcb_row("Deep.", lcb_private(&deep))),
        Ok(lcb_row("Doubling.", lcb_private(&doubling))),
        Err("a line that is not JSON".to_string()),
        Ok(lcb_row("Double it again.", good_private.into())),
    ];
    let started = std::time::Instant::now();
    let out = import_rows(rows.into_iter(), &Layout::Livecodebench, &Options::new("h"));
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    assert_eq!(
        (out.summary.rows, out.summary.kept),
        (5, 2),
        "{}",
        out.summary
    );
    assert_eq!(out.cards.len(), 2);
    let drops: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(drops, [(1, "bad_field"), (2, "bad_field"), (3, "not_json")]);
    assert!(
        out.summary.drops[0].reason.contains("nesting depth"),
        "{}",
        out.summary
    );
    assert!(
        out.summary.drops[1].reason.contains("more than"),
        "{}",
        out.summary
    );
    // JSON nested past serde's limit is a row error too, not a crash.
    let deep_json = format!(
        "{{\"question\": {}1{}}}",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let text =
        format!("{deep_json}\n{{\"question\": \"What is 1 + 1?\", \"answer\": \"#### 2\"}}\n");
    let out = import_lines(
        lines_of_text(&text).into_iter(),
        &Layout::Gsm8k,
        &Options::new("d"),
    );
    assert_eq!(
        (out.summary.rows, out.summary.kept),
        (2, 1),
        "{}",
        out.summary
    );
    assert_eq!(out.summary.drops[0].kind, "not_json");
}

fn kinds(out: &Imported) -> Vec<(u64, Option<u64>, &'static str)> {
    out.summary
        .drops
        .iter()
        .map(|d| (d.row, d.line, d.kind))
        .collect()
}

#[test]
fn uneven_tests_non_string_asserts_and_bad_solutions_are_reported() {
    let options = Options {
        validate: false,
        ..Options::new("l")
    };
    let rows = vec![
        // Three inputs, one output: was zipped into one test.
        json!({"description": "Echo.", "public_tests": {"input": ["1\n", "2\n", "3\n"], "output": ["1\n"]}}),
        json!({"description": "Echo 2.", "public_tests": {"input": ["1\n"], "output": ["1\n"]},
               "solutions": {"language": [3, 3], "solution": ["print(input())"]}}),
        json!({"description": "Echo 3.", "public_tests": {"input": ["1\n"], "output": ["1\n"]}}),
    ];
    let out = import_rows(rows.into_iter().map(Ok), &Layout::Codecontests, &options);
    assert_eq!(
        kinds(&out),
        [(0, None, "bad_field"), (1, None, "bad_field")],
        "{}",
        out.summary
    );
    assert!(
        out.summary.drops[0]
            .reason
            .contains("3 inputs but 1 outputs")
    );
    assert!(
        out.summary.drops[1]
            .reason
            .contains("2 languages but 1 solutions")
    );
    // A non-string assert was skipped.
    let row = json!({"text": "Add.", "test_list": ["assert add(1, 2) == 3", 7]});
    let out = import_rows(vec![Ok(row)].into_iter(), &Layout::Mbpp, &options);
    assert_eq!(out.summary.kept, 0);
    assert!(
        out.summary.drops[0]
            .reason
            .contains("item 1 is not a string"),
        "{}",
        out.summary
    );
    // A malformed `solutions` silently skipped validation; an empty one means none.
    let io = json!({"inputs": ["1\n"], "outputs": ["1\n"]});
    let rows = vec![
        json!({"question": "A.", "input_output": io, "solutions": "[print(1)"}),
        json!({"question": "B.", "input_output": io, "solutions": "{\"a\": 1}"}),
        json!({"question": "C.", "input_output": io, "solutions": "[3]"}),
        json!({"question": "D.", "input_output": io, "solutions": ""}),
        json!({"question": "E.", "input_output": io, "solutions": "[]"}),
    ];
    let out = import_rows(rows.into_iter().map(Ok), &Layout::Apps, &options);
    assert_eq!(out.summary.kept, 2, "{}", out.summary);
    assert_eq!(out.summary.dropped.get("bad_field"), Some(&3));
    assert!(
        out.summary
            .drops
            .iter()
            .all(|d| d.reason.contains("solutions"))
    );
}

#[test]
fn lines_boms_and_duplicates_are_reported_and_every_row_is_counted() {
    let text = [
        "\u{feff}{\"question\": \"What is 6 times 7?\", \"answer\": \"#### 42\"}",
        "",
        "",
        "not json",
        "{\"question\": \"what is 6  times 7?\", \"answer\": \"6*7 = 42\\n#### 42\"}",
        "{\"question\": \"What is 6 times 7?\", \"answer\": \"#### 43\"}",
        "{\"question\": \"What is 5 times 7?\", \"answer\": \"#### 35\"}",
    ]
    .join("\n");
    let out = import_lines(
        lines_of_text(&text).into_iter(),
        &Layout::Gsm8k,
        &Options::new("b"),
    );
    // The BOM no longer costs row 0; blank lines are not rows but count as lines.
    assert_eq!(out.cards[0].task["source"]["row"], 0);
    assert_eq!(
        kinds(&out),
        [
            (1, Some(4), "not_json"),
            (2, Some(5), "duplicate"),
            (3, Some(6), "conflicting_duplicate")
        ]
    );
    let s = &out.summary;
    assert_eq!((s.rows, s.kept, s.dropped_count()), (5, 2, 3));
    let text = s.to_string();
    for says in [
        "5 rows, 2 kept, 3 dropped",
        "dropped      1  conflicting_duplicate",
        "row 1 (line 4): line is not JSON",
        "row 3 (line 6): same normalised prompt as row 0 but a different answer",
    ] {
        assert!(text.contains(says), "{says}\n{text}");
    }
    let report = serde_json::to_value(s).unwrap();
    assert_eq!(report["drops"][0]["line"], 4);
    assert_eq!(report["dropped"]["duplicate"], 1);
}

fn many_tests(n: usize) -> Value {
    let inputs: Vec<String> = (0..n).map(|i| format!("{i}\n")).collect();
    let outputs: Vec<String> = (0..n).map(|i| format!("{}\n", 2 * i)).collect();
    json!({"question": "Double the number.", "input_output": {"inputs": inputs, "outputs": outputs},
           "solutions": ["print(2 * int(input()))"]})
}

#[test]
fn rows_with_too_many_tests_keep_a_recorded_deterministic_sample() {
    let row = many_tests(20_000);
    let import =
        |options: &Options| import_rows(vec![Ok(row.clone())].into_iter(), &Layout::Apps, options);
    let started = std::time::Instant::now();
    let out = import(&Options::new("t"));
    eprintln!(
        "20,000 tests, reference run on the sample: {:?}",
        started.elapsed()
    );
    assert_eq!(out.summary.kept, 1, "{}", out.summary);
    assert_eq!(out.summary.sampled, [0]);
    assert!(
        out.summary
            .to_string()
            .contains("1 rows had more tests than the cap")
    );
    let card = &out.cards[0];
    assert_eq!(card.task["tests"]["hidden"].as_array().unwrap().len(), 100);
    let sampled = &card.task["sampled"];
    assert_eq!(sampled["total"], 20_000);
    assert_eq!(sampled["seed"], json!(card.seed));
    let kept: Vec<u64> = sampled["kept"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_u64().unwrap())
        .collect();
    assert_eq!(kept.len(), 100);
    assert!(kept.windows(2).all(|w| w[0] < w[1]));
    // The kept tests are the recorded ones, and importing again gives the same card.
    let first = kept[0];
    assert_eq!(
        card.task["tests"]["hidden"][0]["input"],
        format!("{first}\n")
    );
    assert_eq!(import(&Options::new("t")).cards[0], *card);
    // A cap of 0 keeps everything; a row under the cap records nothing.
    let all = import(&Options {
        max_tests: 0,
        validate: false,
        ..Options::new("t")
    });
    assert_eq!(
        all.cards[0].task["tests"]["hidden"]
            .as_array()
            .unwrap()
            .len(),
        20_000
    );
    assert!(all.cards[0].task.get("sampled").is_none());
    let small = import_rows(
        vec![Ok(many_tests(5))].into_iter(),
        &Layout::Apps,
        &Options::new("t"),
    );
    assert!(small.cards[0].task.get("sampled").is_none() && small.summary.sampled.is_empty());
}

/// The card's comparison policy is the data set's own: `==` as MBPP's asserts write it
/// (`1 == 1.0 == True`, a tuple is not a list), and for APPS' JSON outputs a returned
/// tuple read as a list, as its judge does.
#[test]
fn call_based_rows_compare_as_their_data_sets_own_tests_do() {
    let mbpp = json!({"text": "Halve and pair.", "code": "def half(n):\n    return (n // 2, n % 2)",
                      "test_list": ["assert half(4) == (2, 0)", "assert half(5) == (2, 1)",
                                    "assert half(9) == (4, 1)"]});
    let scale = json!({"text": "Scale.", "code": "def scale(n):\n    return n * 3",
                       "test_list": ["assert scale(1) == 3", "assert scale(2) == 6",
                                     "assert scale(-4) == -12"]});
    let out = import_rows(
        vec![Ok(mbpp), Ok(scale)].into_iter(),
        &Layout::Mbpp,
        &Options::new("m"),
    );
    assert_eq!(out.summary.kept, 2, "{}", out.summary);
    let apps = json!({"question": "Pair n with its square.",
                      "input_output": {"fn_name": "pair", "inputs": [[2], [3], [-1]],
                                       "outputs": [[[2, 4]], [[3, 9]], [[-1, 1]]]},
                      "solutions": ["def pair(n):\n    return [n, n * n]"]});
    let imported = import_rows(
        vec![Ok(apps)].into_iter(),
        &Layout::Apps,
        &Options::new("a"),
    );
    assert_eq!(imported.summary.kept, 1, "{}", imported.summary);
    let cards = [&out.cards[0], &out.cards[1], &imported.cards[0]];
    let passes = |card: &TaskCard, code: &str| {
        let task: CodeRow = card.task.read().unwrap();
        verigym_envs::code::dataset::judge(&task, code)
            .unwrap()
            .passed()
    };
    for (card, code, expected) in [
        // MBPP: numbers by value, tuples are not lists.
        (cards[1], "def scale(n):\n    return n * 3.0", true),
        (
            cards[1],
            "def scale(n):\n    return float(n * 3) + 0.5",
            false,
        ),
        (
            cards[0],
            "def half(n):\n    return (n // 2, n % 2 == 1)",
            true,
        ),
        (cards[0], "def half(n):\n    return [n // 2, n % 2]", false),
        // APPS: a tuple for the JSON list, as its judge reads it.
        (cards[2], "def pair(n):\n    return (n, n * n)", true),
        (cards[2], "def pair(n):\n    return (n, n * n * 1.0)", true),
        (cards[2], "def pair(n):\n    return (n, n)", false),
    ] {
        assert_eq!(passes(card, code), expected, "{code}");
    }
}
