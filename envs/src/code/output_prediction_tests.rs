use super::*;
use crate::code::hacks::assert_hacks_as_answers_score_zero;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> OutputPredictionConfig {
    serde_json::from_str(OutputPrediction::LEVELS[level]).unwrap()
}

/// Tasks of every level, from a fixed seed.
fn tasks(per_level: u64) -> Vec<OutputTask> {
    let mut rng = Rng::from_seed(5);
    (0..OutputPrediction::LEVELS.len())
        .flat_map(|level| {
            let config = config(level);
            OutputPrediction::validate(&config).unwrap();
            (0..per_level)
                .map(|_| OutputPrediction::generate(&config, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `value` as a Python literal in another spelling: no spaces after commas
/// and colons, double quotes, dict keys in reverse order, `1-tuples` with a
/// spaced trailing comma.
fn respell(value: &Value) -> String {
    let join = |items: &[Value]| items.iter().map(respell).collect::<Vec<_>>().join(",");
    match value {
        Value::String(s) => serde_json::to_string(s).unwrap(),
        Value::Array(items) => format!("[{}]", join(items)),
        Value::Object(map) if map.len() == 1 && map.contains_key("$tuple") => {
            let items = map["$tuple"].as_array().unwrap();
            match items.len() {
                1 => format!("( {} , )", respell(&items[0])),
                _ => format!("({})", join(items)),
            }
        }
        Value::Object(map) => {
            let pairs: Vec<String> = map
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", respell(&json!(k)), respell(v)))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
        other => to_python(other),
    }
}

/// The same digits in another type: lists as tuples and back, ints as floats.
fn retype(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_i64() => json!(n.as_i64().unwrap() as f64),
        Value::Array(items) => json!({ "$tuple": items }),
        Value::Object(map) if map.len() == 1 && map.contains_key("$tuple") => map["$tuple"].clone(),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), retype(v))).collect())
        }
        other => json!([other]),
    }
}

fn unreadable(task: &OutputTask, answer: &str) {
    match OutputPrediction::check(task, answer) {
        Err(CheckError::Unreadable(_)) => {}
        other => panic!("{answer:?} was read: {other:?}"),
    }
}

#[test]
fn references_pass_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<OutputPrediction>(&config(level), 12);
    }
}

#[test]
fn every_spelling_of_the_value_passes_and_other_types_fail() {
    for task in tasks(10) {
        let right = OutputPrediction::reference(&task);
        for good in [
            respell(&task.expected),
            format!("`{right}`"),
            format!("\\boxed{{{}}}", respell(&task.expected)),
            format!("The call returns:\n\n\\boxed{{\n```python\n{right}\n```\n}}"),
            format!("**Final Answer:** $\\boxed{{{}}}$", respell(&task.expected)),
        ] {
            assert!(
                passes::<OutputPrediction>(&task, &good),
                "{good:?} ({right})"
            );
        }
        let retyped = to_python(&retype(&task.expected));
        for bad in [
            retyped,
            format!("[{right}]"),
            format!("{right}, {right}"),
            format!("\\boxed{{{right}}} or \\boxed{{None}}"),
        ] {
            assert!(!passes::<OutputPrediction>(&task, &bad), "{bad:?} passed");
        }
    }
}

#[test]
fn floats_compare_by_value() {
    let task = OutputTask {
        family: "made_up".into(),
        entry: "f".into(),
        program: "def f():\n    return (1.5, [2.0])\n".into(),
        args: json!([]),
        expected: json!({"$tuple": [1.5, [2.0]]}),
    };
    for good in [
        "(1.5, [2.0])",
        "(1.50,[2.])",
        "(15e-1, [2.000])",
        "(+1.5, [2.0])",
    ] {
        assert!(OutputPrediction::check(&task, good).unwrap(), "{good}");
    }
    for bad in [
        "(1.5, [2])",
        "[1.5, [2.0]]",
        "(1.5, [2.0], 0)",
        "(1.6, [2.0])",
    ] {
        assert!(!OutputPrediction::check(&task, bad).unwrap(), "{bad}");
    } // A number as models dress it still reads as that number, of its type.
    let task = OutputTask {
        expected: json!(-1234),
        ..task
    };
    for good in [
        "-1234",
        "-1,234",
        "-1_234",
        "\\boxed{-1,234}",
        "\\boxed{-1234 \\text{ units}}",
    ] {
        assert!(passes::<OutputPrediction>(&task, good), "{good}");
    }
    for bad in ["-1234.0", "-1,234.0", "-1234 or 5", "1234", "-1,23,4"] {
        assert!(!passes::<OutputPrediction>(&task, bad), "{bad}");
    }
}

/// Code, calls, names and expressions are not values: never evaluated,
/// always unreadable.
#[test]
fn code_and_expressions_are_unreadable() {
    for task in tasks(2) {
        let right = OutputPrediction::reference(&task);
        for bad in [
            task.call(),
            format!("f({})", arguments(&task.args)),
            task.program.clone(),
            format!("```python\n{}```", task.program),
            format!("{right} + 0"),
            format!("({right})[0:]"),
            format!("[x for x in {right}]"),
            "__import__('os').system('true')".into(),
            "eval('1')".into(),
            "{1, 2}".into(),
            "x".into(),
            "lambda: 0".into(),
        ] {
            unreadable(&task, &bad);
        }
    }
}

#[test]
fn tasks_of_one_seed_rarely_share_answers() {
    for level in [0, 3, 6] {
        let rate = cross_reference_rate::<OutputPrediction>(&config(level), 200);
        assert!(rate < 0.01, "level {level}: {rate}");
    }
}

/// No drawn output is blind-guessable, echoes an argument or is spelled by
/// text copied out of the prompt; blind constants fail every task.
#[test]
fn blind_answers_fail() {
    let tasks = tasks(30);
    for task in &tasks {
        assert!(!guessable(&task.expected), "{task:?}");
        assert!(!echoes(&task.expected, &task.args), "{task:?}");
        let prompt = OutputPrediction::prompt(task);
        for candidate in PromptAnswers::read(&prompt, &[]).all() {
            assert!(
                !passes::<OutputPrediction>(task, &candidate),
                "{candidate:?} copied from the prompt passed"
            );
        }
    }
    for blind in [
        "0", "1", "-1", "2", "None", "True", "False", "[]", "()", "{}", "''", "(0, 0)", "(0, 1)",
        "(1, 0)", "[0]", "10", "12",
    ] {
        let passed = tasks
            .iter()
            .filter(|t| OutputPrediction::check(t, blind).unwrap())
            .count();
        assert!(passed * 100 <= tasks.len(), "{blind} passed {passed}");
    }
}

/// The host's expected values are what CPython returns in the sandbox.
#[test]
fn mirrors_agree_with_the_programs_in_the_sandbox() {
    use verigym_sandbox::CaseOutcome;
    let py = crate::sandboxed::python().expect("Python sandbox (run sandbox/setup.sh)");
    let mut rng = Rng::from_seed(9);
    for f in FAMILIES {
        let mut tasks = Vec::new();
        for level in 1..=3u8 {
            let config = OutputPredictionConfig {
                families: vec![f.name.into()],
                level,
                min_input: 1,
                max_input: 3000,
            };
            // Some families' outputs are single digits at small levels (redrawn).
            tasks.extend(
                (0..3).filter_map(|_| OutputPrediction::try_generate(&config, &mut rng).ok()),
            );
        }
        // search_window's counts are single digits at every level.
        assert!(tasks.len() >= 3 || f.name == "search_window", "{}", f.name);
        {
            // One program per run: each task has its own constants.
            for task in &tasks {
                let report = py
                    .run_cases(
                        &task.program,
                        &task.entry,
                        std::slice::from_ref(&task.args),
                        &crate::sandboxed::default_limits(),
                    )
                    .unwrap();
                match &report.outcomes[..] {
                    [CaseOutcome::Returned(got)] => assert!(
                        compare_outputs(&task.expected, got, 0.0),
                        "{}: {} returned {got}, mirror {}",
                        f.name,
                        task.call(),
                        task.expected
                    ),
                    other => panic!("{}: {other:?}", task.call()),
                }
            }
        }
    }
}

/// Every code hack (a program in place of a value) scores 0 and is unreadable.
#[test]
fn code_hacks_score_zero() {
    let task = tasks(1).remove(3);
    assert_hacks_as_answers_score_zero(&task.entry, |reply| {
        OutputPrediction::grade(&task, reply).score
    });
}

#[test]
fn bad_configs_are_refused_and_impossible_ones_say_what_to_relax() {
    for bad in [
        r#"{"level":0}"#,
        r#"{"level":4}"#,
        r#"{"min_input":0}"#,
        r#"{"max_input":3001}"#,
        r#"{"min_input":50,"max_input":40}"#,
        r#"{"families":["nope"]}"#,
    ] {
        let config: OutputPredictionConfig = serde_json::from_str(bad).unwrap();
        assert!(OutputPrediction::validate(&config).is_err(), "{bad}");
    }
    let config = OutputPredictionConfig {
        families: vec!["count_climbs".into()],
        min_input: 2000,
        max_input: 3000,
        ..OutputPredictionConfig::default()
    };
    let err = OutputPrediction::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
    assert!(err.to_string().contains("min_input"), "{err}");
}

/// Boxes and final-answer statements are compared as values: a statement
/// of the same value in another spelling (or whose sentence seems to end
/// inside a string) agrees, one of another value is a hedge.
#[test]
fn statements_and_boxes_agree_by_value() {
    let tasks = tasks(10);
    for pair in tasks.windows(2) {
        let (task, r, o) = (
            &pair[0],
            OutputPrediction::reference(&pair[0]),
            OutputPrediction::reference(&pair[1]),
        );
        let s = respell(&task.expected);
        for good in [
            format!("So the answer is {r}.\n\n\\boxed{{{s}}}"),
            format!("\\boxed{{{r}}}\n\n**Final answer: {s}**"),
            format!("\\boxed{{{r}.}}"),
            format!("The final answer is {s}."),
            format!("Answer: `{r}`"),
        ] {
            assert!(passes::<OutputPrediction>(task, &good), "{good:?}");
        }
        for bad in [
            format!("\\boxed{{{r}}}\n\nFinal answer:\n{o}"),
            format!("The final answer is:\n{o}\n\n\\boxed{{{r}}}"),
            format!("\\boxed{{{r}}}\n\nFinal answer: {r} or {o}"),
            format!("\\boxed{{{r}}}\n\nFinal answer: {r}, {o}"),
            format!("\\boxed{{{r}}} \\boxed{{{s}}} \\boxed{{{o}}}"),
            format!("\\boxed{{{r}}} \\boxed{{maybe}}"),
        ] {
            assert!(!passes::<OutputPrediction>(task, &bad), "{bad:?} passed");
        }
    }
}
