//! `verigym import` as a user runs it: the documented exit codes (0 every row kept, 1
//! some dropped with per-row reasons, 2 unusable input), Parquet input, and the cards it
//! writes scoring through `verigym score`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{json_lines, stderr, temp_dir, temp_file, verigym};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../datasets/samples")
        .join(name)
}

#[test]
fn a_clean_file_imports_with_exit_0_and_its_cards_score() {
    let dir = temp_dir("import-clean");
    let cards = dir.join("cards.jsonl");
    for file in ["gsm8k.jsonl", "gsm8k.parquet"] {
        let out = verigym(&[
            "import",
            sample(file).to_str().unwrap(),
            "--layout",
            "gsm8k",
            "-o",
            cards.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        assert!(stderr(&out).contains("0 dropped"), "{}", stderr(&out));
        let written = json_lines(&cards);
        assert_eq!(written.len(), 4, "{file}");
        assert_eq!(written[0]["env_id"], "math/dataset-v1");
        assert_eq!(written[2]["task"]["source"]["row"], 2);
    }
    // The third row's gold is `#### 1,050`: a model's answer after reasoning scores 1;
    // the first row's (`#### 14`) answered wrongly scores 0.
    let written = json_lines(&cards);
    let (third, first) = (&written[2], &written[0]);
    let answers = [
        (
            third,
            "<think>1200/4 = 300 sold, 900 left, plus 150.</think>She has \\boxed{1050} chickens.",
        ),
        (first, "She spends \\boxed{16} dollars."),
    ]
    .map(|(card, a)| serde_json::json!({"id": card["id"], "answer": a}).to_string());
    let tasks = temp_file("import-cards.jsonl", &format!("{third}\n{first}\n"));
    let answers = temp_file("import-answers.jsonl", &answers.join("\n"));
    let out = verigym(&[
        "score",
        "--tasks",
        tasks.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
    ]);
    let rewards: Vec<f64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["reward"]
                .as_f64()
                .unwrap()
        })
        .collect();
    assert_eq!(rewards, [1.0, 0.0], "{}", stderr(&out));
}

#[test]
fn dropped_rows_exit_1_with_a_reason_each_and_the_rest_kept() {
    let dir = temp_dir("import-drops");
    let input = temp_file(
        "import-drops.jsonl",
        concat!(
            "{\"question\": \"What is 2 + 3?\", \"answer\": \"2 + 3 = 5\\n#### 5\"}",
            "\n",
            "not json at all\n",
            "{\"question\": \"No gold here.\"}",
            "\n",
            "{\"question\": \"What is 2 + 3?\", \"answer\": \"#### 5\"}",
            "\n",
            "{\"question\": \"What is 4 + 4?\", \"answer\": \"#### 8\"}",
            "\n",
        ),
    );
    let cards = dir.join("cards.jsonl");
    let report = dir.join("report.json");
    let out = verigym(&[
        "import",
        input.to_str().unwrap(),
        "--layout",
        "gsm8k",
        "-o",
        cards.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("5 rows, 2 kept, 3 dropped"), "{text}");
    assert_eq!(json_lines(&cards).len(), 2);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let rows: Vec<(u64, String)> = report["drops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["row"].as_u64().unwrap(),
                d["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, "not_json".to_string()),
            (2, "missing_field".to_string()),
            (3, "duplicate".to_string())
        ]
    );
}

#[test]
fn unusable_input_exits_2_and_says_what_to_do() {
    let dir = temp_dir("import-unusable");
    let empty = temp_file("import-empty.jsonl", "\n\n");
    let truncated = dir.join("cut.parquet");
    let whole = std::fs::read(sample("verl.parquet")).unwrap();
    std::fs::write(&truncated, &whole[..whole.len() / 3]).unwrap();
    let gsm8k = sample("gsm8k.jsonl");
    let cases: [(Vec<&str>, &str); 5] = [
        (
            vec![gsm8k.to_str().unwrap(), "--layout", "gsm9k"],
            "unknown layout",
        ),
        (
            vec![
                gsm8k.to_str().unwrap(),
                "--layout",
                "gsm8k",
                "--map",
                "prompt",
            ],
            "OURS=THEIRS",
        ),
        (
            vec!["/no/such/file.jsonl", "--layout", "gsm8k"],
            "/no/such/file.jsonl",
        ),
        (
            vec![empty.to_str().unwrap(), "--layout", "gsm8k"],
            "no rows",
        ),
        (
            vec![truncated.to_str().unwrap(), "--layout", "verl"],
            "Parquet",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["import"];
        all.extend(args.iter().copied());
        let out = verigym(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{all:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{all:?} wrote cards");
    }
}
