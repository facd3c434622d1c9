//! Acceptance per layout: the shipped samples import; the cards score correct answers
//! written as models write them, and fail wrong and public-tests-only ones; malformed
//! rows are dropped with their reasons; HumanEval goes through the same path.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use verigym_envs::{Registry, TaskCard};

use super::*;
use crate::read::{read_rows, rows_of_text};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Imports `datasets/samples/NAME.jsonl` with `layout`.
fn sample(name: &str, layout: &str) -> Imported {
    let rel = format!("datasets/samples/{name}.jsonl");
    let rows = read_rows(&repo().join(&rel)).unwrap();
    import_rows(
        rows.into_iter(),
        &layout.parse().unwrap(),
        &Options::new(&rel),
    )
}

/// The embedded pools are what importing the samples gives (`VERIGYM_BLESS=1` rewrites
/// them).
#[test]
fn the_embedded_pools_are_the_imported_samples() {
    let pools: [(&str, &[(&str, &str)]); 2] = [
        (
            "math",
            &[
                ("gsm8k", "gsm8k"),
                ("math", "math"),
                ("deepmath", "deepmath"),
                ("verl", "verl"),
                ("generic", "generic"),
                ("multiple_choice", "multiple-choice"),
            ],
        ),
        (
            "code",
            &[
                ("apps", "apps"),
                ("taco", "taco"),
                ("codecontests", "codecontests"),
                ("mbpp", "mbpp"),
            ],
        ),
    ];
    for (pool, files) in pools {
        let mut text = String::new();
        for (file, layout) in files {
            let imported = sample(file, layout);
            assert!(
                imported.summary.unverified.is_empty(),
                "{}",
                imported.summary
            );
            for card in &imported.cards {
                text.push_str(&card.to_json_line());
                text.push('\n');
            }
        }
        let path = repo().join(format!("envs/data/cards/{pool}.jsonl"));
        if std::env::var_os("VERIGYM_BLESS").is_some() {
            std::fs::write(&path, &text).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "{} is stale: VERIGYM_BLESS=1 cargo test -p verigym-import",
            path.display()
        );
    }
}

fn play(card: &TaskCard, reply: &str) -> (bool, Value) {
    let registry = Registry::builtin();
    let mut env = registry.make_for_card(card).unwrap();
    env.reset(card).unwrap();
    env.step(0, reply).unwrap();
    let score = env.score(0);
    (
        score.passed,
        serde_json::to_value(&score.breakdown).unwrap(),
    )
}

#[test]
fn math_layouts_import_and_score_as_models_write() {
    let expected = [
        ("gsm8k", "gsm8k", 4, vec!["14", "380", "1050", "7"]),
        (
            "math",
            "math",
            5,
            vec!["5", "\\frac{19}{24}", "25\\pi", "24", "9"],
        ),
        ("deepmath", "deepmath", 3, vec!["\\dfrac{3}{2}", "16", "12"]),
        ("verl", "verl", 2, vec!["61", "924"]),
        ("generic", "generic", 2, vec!["90", "0.375"]),
        ("multiple_choice", "multiple-choice", 3, vec!["B", "C", "D"]),
    ];
    for (file, layout, n, answers) in expected {
        let imported = sample(file, layout);
        assert_eq!(imported.summary.kept, n, "{}", imported.summary);
        assert_eq!(imported.summary.rows, n);
        for (i, (card, answer)) in imported.cards.iter().zip(&answers).enumerate() {
            assert_eq!(card.reference, Some(json!(answer)), "{file} row {i}");
            assert_eq!(card.task["source"]["row"], json!(i));
            assert_eq!(card.task["source"]["layout"], json!(layout));
            assert_eq!(card.task["source"]["row_hash"].as_str().unwrap().len(), 64);
            for good in [
                format!("\\boxed{{{answer}}}"),
                format!(
                    "<think>\nLet me work through it. {}\n</think>\nWorking it out step by step, the answer is $\\boxed{{{answer}}}$.",
                    "hmm, ".repeat(2000)
                ),
                format!("## Final answer\n\n**\\boxed{{{answer}}}**"),
            ] {
                assert!(play(card, &good).0, "{file} row {i}: {good:.80}");
            }
            for bad in [
                answer.to_string(),
                format!("\\boxed{{{answer}}} or \\boxed{{17}}"),
                "\\boxed{-3}".to_string(),
                card.prompt.clone(),
                String::new(),
            ] {
                assert!(!play(card, &bad).0, "{file} row {i}: {bad:.80}");
            }
        }
    }
}

/// A program that prints the public tests' outputs for their inputs, else nothing.
fn public_only(card: &TaskCard) -> Option<String> {
    let tests = &card.task["tests"];
    let public = tests["public"].as_array()?.first()?;
    Some(match tests["kind"].as_str()? {
        "stdio" => format!(
            "```python\nimport sys\ns = sys.stdin.read()\nprint({:?} if s == {:?} else '')\n```",
            public["expected"].as_str()?.trim_end(),
            public["input"].as_str()?
        ),
        _ => {
            let name = tests["fn_name"].as_str()?;
            let expected = verigym_envs::selfplay::pyliteral::to_python(&public["expected"]);
            format!("```python\ndef {name}(*args):\n    return {expected}\n```")
        }
    })
}

#[test]
fn code_layouts_import_and_judge_as_models_write() {
    for (file, layout, n) in [
        ("apps", "apps", 2),
        ("taco", "taco", 1),
        ("codecontests", "codecontests", 2),
        ("mbpp", "mbpp", 2),
    ] {
        let imported = sample(file, layout);
        assert_eq!(imported.summary.kept, n, "{}", imported.summary);
        assert_eq!(
            imported.summary.references_checked, n,
            "{}",
            imported.summary
        );
        for card in &imported.cards {
            let code = card.reference.as_ref().and_then(Value::as_str).unwrap();
            for good in [
                format!("```python\n{code}\n```"),
                format!(
                    "<think>\nPlan: {}\n</think>\nHere is a solution.\n\n```python\n{code}\n```\nIt runs in linear time.",
                    "think, ".repeat(2000)
                ),
            ] {
                let (passed, breakdown) = play(card, &good);
                assert!(passed, "{file}: {breakdown}");
            }
            let (passed, breakdown) = play(card, "```python\nprint(42)\n```");
            assert!(
                !passed && breakdown["tests_passed"].as_f64() < Some(1.0),
                "{file}: {breakdown}"
            );
            if let Some(hardcoded) = public_only(card) {
                let (passed, breakdown) = play(card, &hardcoded);
                assert!(!passed, "{file}: public-only passed {breakdown}");
                assert!(
                    breakdown["failed_test"].as_f64() >= Some(2.0),
                    "{file}: {breakdown}"
                );
            }
        }
    }
    // MBPP's third sample asserts with math.isclose: dropped, with that reason.
    let mbpp = sample("mbpp", "mbpp");
    assert_eq!(mbpp.summary.dropped.get("non_plain_assert"), Some(&1));
    assert_eq!(mbpp.summary.drops[0].row, 2);
    assert!(
        mbpp.summary.drops[0].reason.contains("math.isclose"),
        "{}",
        mbpp.summary
    );
}

#[test]
fn livecodebench_private_tests_are_unpickled_safely_and_judged() {
    let imported = sample("livecodebench", "livecodebench");
    assert_eq!(imported.summary.kept, 2, "{}", imported.summary);
    let functional = &imported.cards[0];
    assert_eq!(
        functional.task["tests"]["hidden"].as_array().unwrap().len(),
        2
    );
    assert!(
        !functional.prompt.contains("[-2, 2, 10]"),
        "hidden test in the prompt"
    );
    let good = "```python\nclass Solution:\n    def sumEven(self, nums: List[int]) -> int:\n        return sum(x for x in nums if x % 2 == 0)\n```";
    assert!(play(functional, good).0);
    let odd = good.replace("x % 2 == 0", "x % 2 == 1");
    assert!(!play(functional, &odd).0);
    assert!(
        !play(
            functional,
            "```python\nclass Solution:\n    def sumEven(self, nums):\n        return 6\n```"
        )
        .0
    );
    let stdin = &imported.cards[1];
    assert!(play(stdin, "```python\nprint(input().count('1'))\n```").0);
    assert!(!play(stdin, "```python\nprint(3)\n```").0);
    // A pickle that would import a module is refused, and the row dropped with why.
    let evil = json!({"question_content": "q", "public_test_cases": "[]", "private_test_cases": "eJxLzi/mKq4sLknN5dIIVs9MUecqCdIDAE8TBpM="});
    let out = import_rows(
        vec![Ok(evil)].into_iter(),
        &Layout::Livecodebench,
        &Options::new("x"),
    );
    assert_eq!(out.summary.kept, 0);
    assert!(
        out.summary.drops[0].reason.contains("refused"),
        "{}",
        out.summary
    );
    // A field whose JSON would be a value of gigabytes (here 2^22 + 1 zeros, plain and
    // pickled) is that row's drop, naming the cap; the other rows import as before.
    let mut zeros = vec!["0"; (1 << 22) + 1].join(",");
    zeros = format!("[{zeros}]");
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut pickle = vec![0x80, 4, b'X'];
    pickle.extend((zeros.len() as u32).to_le_bytes());
    pickle.extend(zeros.as_bytes());
    pickle.push(b'.');
    std::io::Write::write_all(&mut z, &pickle).unwrap();
    let pickled = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        z.finish().unwrap(),
    );
    let mut rows = read_rows(&repo().join("datasets/samples/livecodebench.jsonl")).unwrap();
    for private in [zeros, pickled] {
        rows.push(Ok(
            json!({"question_content": "q", "public_test_cases": "[]",
            "private_test_cases": private}),
        ));
    }
    let out = import_rows(
        rows.into_iter(),
        &Layout::Livecodebench,
        &Options::new("datasets/samples/livecodebench.jsonl"),
    );
    assert_eq!(out.cards, imported.cards);
    assert_eq!(out.summary.drops.len(), 2, "{}", out.summary);
    for drop in &out.summary.drops {
        assert!(
            drop.reason
                .contains("values and keys exceeds the cap of 4194304"),
            "{}",
            drop.reason
        );
    }
}

#[test]
fn malformed_rows_are_dropped_with_reasons_and_nothing_is_lost() {
    let text = [
        "{\"question\": \"What is 6 times 7?\", \"answer\": \"6 * 7 = 42\\n#### 42\"}",
        "not json at all",
        r#"{"question": "No answer here"}"#,
        r#"{"question": "A question without a marker", "answer": "42"}"#,
        "{\"question\": \"what is 6   times 7?\", \"answer\": \"#### 42\"}",
        "{\"question\": \"Weird gold\", \"answer\": \"#### \\\\frac{\"}",
        "[1, 2]",
    ]
    .join("\n");
    let text = text.as_str();
    let out = import_rows(
        rows_of_text(text).into_iter(),
        &Layout::Gsm8k,
        &Options::new("bad.jsonl"),
    );
    assert_eq!(
        (out.summary.rows, out.summary.kept),
        (7, 1),
        "{}",
        out.summary
    );
    let kinds: Vec<(u64, &str)> = out.summary.drops.iter().map(|d| (d.row, d.kind)).collect();
    assert_eq!(
        kinds,
        [
            (1, "not_json"),
            (2, "missing_field"),
            (3, "bad_field"),
            (4, "duplicate"),
            (5, "unreadable_answer"),
            (6, "not_json")
        ]
    );
    assert!(
        out.summary
            .to_string()
            .contains("row 4: duplicate of row 0"),
        "{}",
        out.summary
    );
    // --map reads other field names.
    let rows = vec![Ok(json!({"q": "What is 3 cubed?", "a": "27"}))];
    let options = Options {
        map: parse_map("prompt=q,answer=a").unwrap(),
        ..Options::new("m")
    };
    let out = import_rows(rows.into_iter(), &Layout::Generic, &options);
    assert_eq!(out.cards[0].reference, Some(json!("27")));
    assert!(parse_map("prompt").is_err() && "nope".parse::<Layout>().is_err());
    // A reference solution that fails its tests drops its row.
    let row = json!({"text": "Add.", "code": "def add(a, b): return a - b", "test_list": ["assert add(1, 2) == 3"]});
    let out = import_rows(vec![Ok(row)].into_iter(), &Layout::Mbpp, &Options::new("m"));
    assert_eq!(
        out.summary.dropped.get("reference_failed"),
        Some(&1),
        "{}",
        out.summary
    );
    let row = json!({"question": "q", "input_output": {"inputs": ["1\n"], "outputs": ["1\n"]}, "solutions": "[\"while True: pass\"]"});
    let out = import_rows(vec![Ok(row)].into_iter(), &Layout::Apps, &Options::new("m"));
    assert_eq!(
        out.summary.dropped.get("reference_timeout"),
        Some(&1),
        "{}",
        out.summary
    );
}

/// `--mutants`: a row whose tests miss the boundary lets mutants of its reference
/// through and is listed as weak; the same function with boundary tests is not.
#[test]
fn mutants_find_the_rows_with_weak_tests() {
    let reference = "def positive(n):\n    return n > 0";
    let weak = json!({"text": "Is n positive?", "code": reference,
        "test_list": ["assert positive(5) == True", "assert positive(-7) == False"]});
    let strong = json!({"text": "Is n above zero?", "code": reference,
        "test_list": ["assert positive(1) == True", "assert positive(0) == False",
                      "assert positive(-1) == False", "assert positive(9) == True"]});
    let options = Options {
        mutants: true,
        ..Options::new("m")
    };
    let out = import_rows(
        vec![Ok(weak), Ok(strong)].into_iter(),
        &Layout::Mbpp,
        &options,
    );
    assert_eq!(out.cards.len(), 2, "{}", out.summary);
    let [weak, strong] = &out.summary.mutants[..] else {
        panic!("two rows checked: {:?}", out.summary.mutants);
    };
    assert_eq!((weak.row, strong.row), (0, 1));
    // `n >= 0` and `n > 1` (the operator and the constant mutated) both pass 5 → True
    // and -7 → False.
    assert!(weak.survived >= 2, "{weak:?}");
    assert!(weak.example.is_some());
    assert_eq!(strong.survived, 0, "{strong:?}");
    assert!(strong.ran >= 2, "{strong:?}");
    let text = out.summary.to_string();
    assert!(
        text.contains("rows with weak tests: 1") && text.contains("row 0:"),
        "{text}"
    );
    // Without the option nothing runs.
    let out = import_rows(
        vec![Ok(
            json!({"text": "t", "code": reference, "test_list": ["assert positive(2) == True"]}),
        )]
        .into_iter(),
        &Layout::Mbpp,
        &Options::new("m"),
    );
    assert!(out.summary.mutants.is_empty());
}

#[test]
fn unusable_files_are_errors() {
    let dir = std::env::temp_dir().join(format!("verigym-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "\n\n").unwrap();
    assert!(matches!(read_rows(&empty), Err(ImportError::Empty(_))));
    assert!(matches!(
        read_rows(&dir.join("missing.jsonl")),
        Err(ImportError::Io { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// HumanEval through the same import path: every row whose `check` is plain asserts
/// imports and its canonical solution passes in the sandbox (validation runs it).
#[test]
fn humaneval_imports_through_the_same_path() {
    let path = repo().join("envs/data/humaneval/HumanEval.jsonl.gz");
    let rows = read_rows(&path).unwrap();
    let out = import_rows(
        rows.into_iter(),
        &Layout::Humaneval,
        &Options::new("envs/data/humaneval/HumanEval.jsonl.gz"),
    );
    assert_eq!(out.summary.rows, 164);
    assert!(out.summary.unverified.is_empty(), "{}", out.summary);
    assert_eq!(out.summary.references_checked, out.summary.kept);
    let other: Vec<&Dropped> = out
        .summary
        .drops
        .iter()
        .filter(|d| d.kind != "non_plain_assert" && d.kind != "weak_tests")
        .collect();
    assert!(other.is_empty(), "{other:#?}");
    // HumanEval/34 (`unique`) has one assert, the docstring's own example: returning
    // that example's value passes it, so the row is no task.
    let weak: Vec<u64> = out
        .summary
        .drops
        .iter()
        .filter(|d| d.kind == "weak_tests")
        .map(|d| d.row)
        .collect();
    assert_eq!(weak, [34], "{}", out.summary);
    // Measured: 95 of 164 rows are plain asserts, 94 of them with tests no trivial
    // program passes; the other 69 (float tolerances, loops, messages, expressions) are
    // dropped with their reasons.
    assert!(out.summary.kept >= 90, "{}", out.summary);
    eprintln!("{}", out.summary);
}

/// A data set saved as Parquet (how `datasets` and verl's preprocessing save it) reads
/// as the same rows as its JSONL twin, nested lists and structs included, and imports
/// to the same cards. The `.parquet` samples are the `.jsonl` ones written by pyarrow
/// (`pyarrow.parquet.write_table(pyarrow.Table.from_pylist(rows), PATH)`, snappy).
#[cfg(feature = "parquet")]
#[test]
fn parquet_files_read_as_their_jsonl_twins() {
    for (name, layout) in [("verl", "verl"), ("gsm8k", "gsm8k")] {
        let samples = repo().join("datasets/samples");
        let parquet = read_rows(&samples.join(format!("{name}.parquet"))).unwrap();
        let jsonl = read_rows(&samples.join(format!("{name}.jsonl"))).unwrap();
        assert_eq!(parquet, jsonl, "{name}");
        let layout: Layout = layout.parse().unwrap();
        let cards = |rows: Vec<Result<Value, String>>| {
            import_rows(rows.into_iter(), &layout, &Options::new("same-name")).cards
        };
        let from_parquet = cards(parquet);
        assert!(!from_parquet.is_empty());
        assert_eq!(from_parquet, cards(jsonl), "{name}");
    }
    // A file that starts like Parquet but is cut short is an error naming the file.
    let dir = std::env::temp_dir().join(format!("verigym-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = std::fs::read(repo().join("datasets/samples/verl.parquet")).unwrap();
    let cut = dir.join("cut.parquet");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let err = read_rows(&cut).unwrap_err().to_string();
    assert!(
        err.contains("cut.parquet") && err.contains("Parquet"),
        "{err}"
    );
    // A codec this build lacks (the verl sample written with zstd) is refused with what
    // to do, before any page is read.
    let zstd = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/verl-zstd.parquet");
    let err = read_rows(&zstd).unwrap_err().to_string();
    assert!(err.contains("ZSTD") && err.contains("write_table"), "{err}");
}
