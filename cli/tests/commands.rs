//! The `verigym` commands (and `gym-bench`'s basics), run as a user runs them.

use std::io::Write;
use std::process::Stdio;

use serde_json::Value;
use verigym_envs::card::sha256_hex;

use crate::util::{gym_bench, stderr, temp_dir, temp_file, verigym, verigym_command};

#[test]
fn generate_is_byte_identical_matches_its_golden_hash_and_depends_on_the_seed() {
    let args = [
        "generate",
        "math/arithmetic-v1",
        "--n",
        "1000",
        "--seed",
        "7",
    ];
    let first = verigym(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, verigym(&args).stdout, "two runs differ");
    assert_eq!(String::from_utf8_lossy(&first.stdout).lines().count(), 1000);
    // Changing this hash changes every arithmetic task: bump the env version.
    assert_eq!(
        sha256_hex(&first.stdout),
        "ced41768a1585bea92110dad6fbe66bd6622164cfc0edf5d3b66a831859a83c9"
    );
    let other = verigym(&[
        "generate",
        "math/arithmetic-v1",
        "--n",
        "1000",
        "--seed",
        "8",
    ]);
    assert_ne!(first.stdout, other.stdout);
}

#[test]
fn generate_writes_files_and_honours_presets_and_overrides() {
    let dir = temp_dir("generate");
    let path = dir.join("cards.jsonl");
    let out = verigym(&[
        "generate",
        "logic/guess-number-v2",
        "--preset",
        "easy",
        "--config",
        r#"{"high": 64}"#,
        "-n",
        "3",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        let card: Value = serde_json::from_str(line).unwrap();
        assert_eq!(card["config"]["high"], 64);
        assert_eq!(
            card["config"]["extra_guesses"], 2,
            "the easy preset applies under the override"
        );
        assert!(card["task"]["secret"].as_i64().unwrap() <= 64);
    }
}

#[test]
fn bad_input_gives_a_clear_message_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["generate", "math/arithmatic-v1"],
            "did you mean `math/arithmetic-v1`",
        ),
        (
            &["generate", "math/arithmetic-v7"],
            "newest is `math/arithmetic-v1`",
        ),
        (
            &["generate", "logic/guess-number-v1"],
            "superseded by `logic/guess-number-v2`",
        ),
        (
            &["generate", "math/arithmetic-v1@extreme"],
            "presets: easy, medium, hard",
        ),
        (
            &["generate", "math/arithmetic-v1", "--config", "{digits: 3"],
            "not valid JSON",
        ),
        (
            &["generate", "math/arithmetic-v1", "--config", "[1]"],
            "must be a JSON object",
        ),
        (
            &[
                "generate",
                "math/arithmetic-v1",
                "--config",
                r#"{"digitz": 3}"#,
            ],
            "unknown field `digitz`",
        ),
        (
            &[
                "generate",
                "math/arithmetic-v1",
                "--config",
                r#"{"digits": 40}"#,
            ],
            "digits must be",
        ),
        (
            &[
                "generate",
                "logic/river-crossing-v1",
                "--config",
                r#"{"min_crossings": 40}"#,
            ],
            "no task within budget",
        ),
        (
            &[
                "score",
                "--tasks",
                "/nonexistent/tasks.jsonl",
                "--answers",
                "-",
            ],
            "cannot read `/nonexistent/tasks.jsonl`",
        ),
    ];
    for (args, expected) in cases {
        let out = verigym(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: stderr was {}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{args:?} panicked");
    }
    let out = gym_bench(&["run", "--env", "games/tictactoe-v1", "--agents", "genius"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown agent `genius`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn score_reports_bad_lines_by_number_and_scores_the_rest() {
    let cards = verigym(&["generate", "math/arithmetic-v1", "-n", "4", "--seed", "3"]);
    let cards_text = String::from_utf8(cards.stdout).unwrap();
    let parsed: Vec<Value> = cards_text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answer = |i: usize, text: &str| {
        serde_json::json!({"id": parsed[i]["id"], "answer": text}).to_string()
    };
    let reference = |i: usize| format!("\\boxed{{{}}}", parsed[i]["reference"].as_str().unwrap());
    let answers = [
        answer(0, &reference(0)),
        "{not json".to_string(),
        answer(1, "\\boxed{0} or \\boxed{1}"),
        r#"{"id": "no-such-task", "answer": "1"}"#.to_string(),
        answer(2, &reference(2)),
        answer(2, &reference(2)),
    ]
    .join("\n");
    let tasks = temp_file("tasks.jsonl", &cards_text);
    let answers = temp_file("answers.jsonl", &answers);
    let out = verigym(&[
        "score",
        "--tasks",
        tasks.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("answers line 2:"), "{err}");
    assert!(
        err.contains("answers line 4: no task with id `no-such-task`"),
        "{err}"
    );
    assert!(err.contains("answers line 6: a second answer"), "{err}");
    assert!(err.contains("scored 3 answers: 2 passed (66.7%)"), "{err}");
    assert!(err.contains("1 tasks without an answer"), "{err}");
    let scored: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(scored.len(), 3);
    assert_eq!(scored[0]["passed"], true);
    assert_eq!(scored[1]["passed"], false);
    assert_eq!(scored[1]["reward"], 0.0);
    assert!(scored[0]["breakdown"]["correct"].is_number());
}

/// With the C toolchain missing, a C answer is not judged: its reward is
/// null with the reason, never a zero a trainer would learn from.
#[test]
fn an_answer_the_sandbox_cannot_judge_gets_no_reward() {
    let cards = verigym(&["generate", "code/functions-c-v2", "-n", "2", "--seed", "5"]);
    assert!(cards.status.success(), "{}", stderr(&cards));
    let cards_text = String::from_utf8(cards.stdout).unwrap();
    let answers: Vec<String> = cards_text
        .lines()
        .map(|line| {
            let card: Value = serde_json::from_str(line).unwrap();
            let reference = card["reference"].as_str().unwrap();
            let answer = format!("Here is my solution.\n```c\n{reference}```");
            serde_json::json!({"id": card["id"], "answer": answer}).to_string()
        })
        .collect();
    let tasks = temp_file("c-tasks.jsonl", &cards_text);
    let answers = temp_file("c-answers.jsonl", &answers.join("\n"));
    let dir = temp_dir("no-verdict");
    let out = verigym_command()
        .args(["score", "--tasks", tasks.to_str().unwrap()])
        .args(["--answers", answers.to_str().unwrap()])
        .env("VERIGYM_CLANG", dir.join("no-such-clang"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("2 answers got no verdict"),
        "{}",
        stderr(&out)
    );
    let scored: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(scored.len(), 2);
    for answer in &scored {
        assert!(answer["reward"].is_null(), "{answer}");
        assert_eq!(answer["passed"], false, "{answer}");
        let reason = answer["no_verdict"].as_str().unwrap_or_default();
        assert!(reason.contains("C toolchain missing"), "{answer}");
    }
}

#[test]
fn score_replays_multi_turn_answers() {
    let cards = verigym(&[
        "generate",
        "logic/guess-number-v2@easy",
        "-n",
        "1",
        "--seed",
        "5",
    ]);
    let card: Value = serde_json::from_slice(&cards.stdout).unwrap();
    let secret = card["reference"].as_i64().unwrap();
    let answers = format!(
        "{}\n{}\n",
        serde_json::json!({"id": card["id"], "answer": ["not a number", (secret % 100) + 1, secret]}),
        serde_json::json!({"id": card["id"], "answer": "7"}),
    );
    let mut child = verigym_command()
        .args([
            "score",
            "--tasks",
            "-",
            "--answers",
            temp_file("mt.jsonl", &answers).to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&cards.stdout)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let first: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["passed"], true, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("answers line 2: a second answer"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn play_runs_an_episode_from_stdin() {
    let cards = verigym(&["generate", "math/arithmetic-v1", "-n", "1", "--seed", "9"]);
    let card: Value = serde_json::from_slice(&cards.stdout).unwrap();
    let mut child = verigym_command()
        .args([
            "play",
            "math/arithmetic-v1",
            "--seed",
            &card["seed"].to_string(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(
        child.stdin.take().unwrap(),
        "\\boxed{{{}}}",
        card["reference"].as_str().unwrap()
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(card["prompt"].as_str().unwrap()), "{text}");
    assert!(
        text.contains("player 0 (you): reward +1 passed true"),
        "{text}"
    );

    let mut child = verigym_command()
        .args(["play", "games/tictactoe-v1", "--opponent", "oracle"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(
        child.stdin.take().unwrap(),
        "taken?\n5\n5\n1\n2\n3\n4\n6\n7\n8\n9"
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("invalid: name one cell"), "{text}");
    assert!(text.contains("invalid: cell 5 is taken"), "{text}");
    assert!(text.contains("player 1 (oracle): reward"), "{text}");
}

#[test]
fn list_shows_every_env_with_its_facts() {
    let out = verigym(&["list", "--json"]);
    assert!(out.status.success());
    let envs: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        envs.len(),
        verigym_envs::Registry::builtin().entries().len()
    );
    let ttt = envs
        .iter()
        .find(|e| e["id"] == "games/tictactoe-v1")
        .unwrap();
    assert_eq!(ttt["players"], 2);
    assert_eq!(ttt["kind"], "game");
    assert_eq!(ttt["family"], "games");
    assert!(envs.iter().all(|e| e["id"] != "logic/guess-number-v1"));
    // `--all` adds the superseded versions, each naming its newest.
    let all = verigym(&["list", "--all"]);
    let text = String::from_utf8_lossy(&all.stdout);
    assert!(
        text.contains("superseded by logic/guess-number-v2"),
        "{text}"
    );
    let help = verigym(&["--help"]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit codes"));
}

#[test]
fn the_readme_lists_every_registered_env() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    for registration in verigym_envs::Registry::builtin().entries() {
        let row = format!("| `{}` |", registration.spec.id);
        assert!(
            readme.contains(&row),
            "README's env table lacks {}",
            registration.spec.id
        );
    }
}

#[test]
fn chat_rows_round_trip_through_score_with_whole_completions() {
    let out = verigym(&[
        "generate",
        "math/arithmetic-v1",
        "-n",
        "3",
        "--seed",
        "5",
        "--format",
        "chat",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["messages"][0]["role"], "system");
    assert_eq!(rows[0]["messages"][1]["content"], rows[0]["card"]["prompt"]);
    let reference = |i: usize| rows[i]["card"]["reference"].as_str().unwrap().to_string();
    let answers = [
        serde_json::json!({"id": rows[0]["id"], "response": {"choices": [{"message": {"role": "assistant", "content": format!("\\boxed{{{}}}", reference(0))}}]}}),
        serde_json::json!({"id": rows[1]["id"], "response": {"role": "assistant", "content": format!("\\boxed{{{}}}", reference(1))}}),
        serde_json::json!({"id": rows[2]["id"], "answer": "1", "response": {"content": "1"}}),
    ]
    .map(|v| v.to_string())
    .join("\n");
    let tasks = temp_file("chat.jsonl", &text);
    let answers = temp_file("chat-answers.jsonl", &answers);
    let out = verigym(&[
        "score",
        "--tasks",
        tasks.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("answers line 3: give exactly one of"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("scored 2 answers: 2 passed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mixtures_generate_deterministically_in_proportion() {
    let mix = temp_file(
        "mix.toml",
        "[[source]]\nenv = \"math/arithmetic-v1@easy\"\nweight = 3\n[[source]]\nenv = \"logic/guess-number-v2\"\nweight = 1\nconfig = { high = 64 }\n",
    );
    let args = [
        "generate",
        "--mix",
        mix.to_str().unwrap(),
        "-n",
        "2000",
        "--seed",
        "2",
    ];
    let first = verigym(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(first.stdout, verigym(&args).stdout);
    let text = String::from_utf8(first.stdout).unwrap();
    let math = text
        .lines()
        .filter(|l| l.contains("\"env_id\":\"math/arithmetic-v1\""))
        .count();
    assert!(
        (1400..1600).contains(&math),
        "{math} of 2000 from a 3:1 mixture"
    );
    assert!(text.contains("\"high\":64"));
    let bad = temp_file(
        "bad-mix.toml",
        "[[source]]\nenv = \"math/nope-v1\"\nweight = 1\n",
    );
    let out = verigym(&["generate", "--mix", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown env `math/nope-v1`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn shaping_adds_declared_pieces_but_never_changes_passed() {
    let cards = verigym(&["generate", "math/arithmetic-v1", "-n", "2", "--seed", "11"]);
    let text = String::from_utf8(cards.stdout).unwrap();
    let parsed: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answers = format!(
        "{}\n{}\n",
        serde_json::json!({"id": parsed[0]["id"], "answer": format!("<think>ok</think>\\boxed{{{}}}", parsed[0]["reference"].as_str().unwrap())}),
        serde_json::json!({"id": parsed[1]["id"], "answer": "<think>guess</think>\\boxed{123456789}"}),
    );
    let tasks = temp_file("shape-tasks.jsonl", &text);
    let answers = temp_file("shape-answers.jsonl", &answers);
    let shaping = r#"{"format_boxed": 0.1, "format_think": 0.1}"#;
    let out = verigym(&[
        "score",
        "--tasks",
        tasks.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
        "--shaping",
        shaping,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let scored: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        (scored[0]["reward"].as_f64().unwrap() - 1.2).abs() < 1e-9,
        "{}",
        scored[0]
    );
    assert_eq!(scored[0]["breakdown"]["shaping.format_think"], 0.1);
    assert_eq!(scored[1]["passed"], false);
    assert!(
        (scored[1]["reward"].as_f64().unwrap() - 0.2).abs() < 1e-9,
        "{}",
        scored[1]
    );
    let bad = verigym(&[
        "score",
        "--tasks",
        tasks.to_str().unwrap(),
        "--answers",
        answers.to_str().unwrap(),
        "--shaping",
        r#"{"bonus": 1}"#,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown field `bonus`"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn levels_shows_the_scale_and_numbered_levels_name_configs() {
    let out = verigym(&["levels", "math/arithmetic-v1", "--n", "5", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels = report["levels"].as_array().unwrap();
    assert!(levels.len() >= 3, "{report}");
    assert_eq!(report["harder_is_harder"], true);
    let easy_level = levels
        .iter()
        .position(|l| l["presets"].as_array().unwrap().iter().any(|p| p == "easy"))
        .unwrap();
    // `ID@LEVEL` makes the same tasks as the preset on that level.
    let by_level = verigym(&[
        "generate",
        &format!("math/arithmetic-v1@{easy_level}"),
        "--n",
        "5",
    ]);
    let by_name = verigym(&["generate", "math/arithmetic-v1@easy", "--n", "5"]);
    assert!(by_level.status.success(), "{}", stderr(&by_level));
    assert_eq!(by_level.stdout, by_name.stdout);
    let past_end = verigym(&["generate", "math/arithmetic-v1@99", "--n", "1"]);
    assert_eq!(past_end.status.code(), Some(2));
    assert!(
        stderr(&past_end).contains("levels 0-"),
        "{}",
        stderr(&past_end)
    );
    let with_preset = verigym(&["levels", "math/arithmetic-v1@easy"]);
    assert!(!with_preset.status.success());
    assert!(stderr(&with_preset).contains("without a preset"));
}

#[test]
fn bench_envs_reports_rates_per_env() {
    let out = verigym(&[
        "bench",
        "envs",
        "math/arithmetic-v1@easy",
        "games/tictactoe-v1",
        "--n",
        "5",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["verified_per_cpu_s"].as_f64().unwrap() > 0.0);
    assert!(rows[1]["verified_per_cpu_s"].is_null());
    assert!(rows[1]["random_steps_per_cpu_s"].as_f64().unwrap() > 0.0);
    let bad = verigym(&["bench", "envs", "math/nope-v1"]);
    assert!(!bad.status.success());
}
