//! The code layouts: programming problems with tests, read with each data set's own
//! field names and conventions.
//!
//! | layout | statement | tests (public / hidden) | reference |
//! |---|---|---|---|
//! | `apps`, `taco` | `question` | `input_output` (a JSON string): `inputs`/`outputs` lists, stdin/stdout; with `fn_name`, call-based (each input an argument list, each output `[value]`). The statement holds its own examples, so every test is hidden | first of `solutions` (a JSON string) |
//! | `codecontests` | `description` | `public_tests` / `private_tests` + `generated_tests` (`{input: [...], output: [...]}`) | first Python 3 solution (`solutions.language` 3) |
//! | `livecodebench` | `question_content` | `public_test_cases` (JSON) / `private_test_cases` (JSON, or base64 + zlib + pickle read by the restricted reader); `testtype` `stdin` or `functional` (a `Solution` method named by `metadata.func_name`, arguments one JSON per line) | none |
//! | `mbpp` | `text` (or `prompt`) | `test_list` asserts: the first public, the rest and `challenge_test_list` hidden | `code` |
//! | `humaneval` | `prompt` | the `assert candidate(…) == …` lines of `test`, all hidden | `prompt` + `canonical_solution` |
//!
//! Call-based results compare as each data set's own tests do (`equality` in the card,
//! see `verigym_sandbox::Equality`): `mbpp` and `humaneval` by Python `==` (`1 == 1.0 ==
//! True`, a tuple never equals a list), as their `assert f(x) == y` lines do; `apps`,
//! `taco` and `livecodebench` by Python `==` with a returned tuple read as a list, as
//! their judges do (their expected values are JSON, which has no tuples). Floats within
//! 10⁻⁶ in every layout.
//!
//! Difficulty: APPS `introductory`/`interview`/`competition` = 1/2/3, TACO `EASY` … `VERY_HARD`
//! = 1–5, CodeContests' integer, LiveCodeBench `easy`/`medium`/`hard` = 1/2/3.

use serde_json::{Value, json};
use verigym_envs::code::dataset::{CodeRow, Tests};
use verigym_sandbox::{Equality, StdioTest, TestCase};

use crate::asserts::parse_assert;
use crate::pickle::{check_json, decode_lcb_private};
use crate::report::DropReason;
use crate::row::{field, opt_str, req_str};

/// Float tolerance for call-based tests whose data set states none.
const CALL_FLOAT_TOL: f64 = 1e-6;

fn code_row(statement: String, tests: Tests) -> CodeRow {
    CodeRow {
        statement,
        language: "python".into(),
        tests,
        starter_code: None,
        solution: None,
        time_limit: None,
        difficulty: None,
        metadata: Value::Null,
        source: None,
        sampled: None,
    }
}

/// A stdin or stdout text: a string, or a list of lines.
fn io_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(lines) => {
            let lines: Option<Vec<&str>> = lines.iter().map(Value::as_str).collect();
            Some(lines?.join("\n") + "\n")
        }
        _ => None,
    }
}

/// A field that is JSON, or a string holding JSON.
fn json_field(r: &Value, name: &str) -> Result<Value, DropReason> {
    match field(r, name) {
        Some(Value::String(s)) => {
            check_json(s).map_err(|e| DropReason::BadField(name.into(), e.to_string()))?;
            serde_json::from_str(s)
                .map_err(|e| DropReason::BadField(name.into(), format!("not JSON: {e}")))
        }
        Some(v) => Ok(v.clone()),
        None => Err(DropReason::MissingField(name.into())),
    }
}

fn difficulty_word(word: &str) -> Option<f64> {
    Some(match word.to_ascii_lowercase().as_str() {
        "introductory" | "easy" => 1.0,
        "interview" | "medium" => 2.0,
        "competition" | "medium_hard" | "hard" => 3.0,
        "very_hard" => 4.0,
        _ => return None,
    })
}

/// `"2 seconds"`, `"1.5"`, or a number → seconds.
fn seconds(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.split_whitespace().next()?.parse().ok(),
        Value::Object(o) => {
            let secs = o.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
            let nanos = o.get("nanos").and_then(Value::as_f64).unwrap_or(0.0);
            Some(secs + nanos / 1e9).filter(|&t| t > 0.0)
        }
        _ => None,
    }
}

pub fn apps(r: &Value) -> Result<CodeRow, DropReason> {
    let statement = req_str(r, "question")?;
    let io = json_field(r, "input_output")?;
    let (Some(inputs), Some(outputs)) = (
        io.get("inputs").and_then(Value::as_array),
        io.get("outputs").and_then(Value::as_array),
    ) else {
        return Err(DropReason::BadField(
            "input_output".into(),
            "no inputs/outputs lists".into(),
        ));
    };
    if inputs.len() != outputs.len() {
        return Err(DropReason::BadField(
            "input_output".into(),
            format!("{} inputs but {} outputs", inputs.len(), outputs.len()),
        ));
    }
    let tests = match io.get("fn_name").and_then(Value::as_str) {
        Some(fn_name) => {
            let mut cases = Vec::new();
            for (input, output) in inputs.iter().zip(outputs) {
                let Value::Array(_) = input else {
                    return Err(DropReason::BadField(
                        "input_output".into(),
                        "a call input is not an argument list".into(),
                    ));
                };
                // APPS wraps each expected value in a one-element list.
                let expected = match output {
                    Value::Array(items) if items.len() == 1 => items[0].clone(),
                    other => other.clone(),
                };
                cases.push(TestCase {
                    args: input.clone(),
                    expected,
                });
            }
            Tests::Call {
                fn_name: fn_name.into(),
                public: Vec::new(),
                hidden: cases,
                float_tol: CALL_FLOAT_TOL,
                class_name: None,
                equality: Equality::PythonJson,
            }
        }
        None => {
            let mut hidden = Vec::new();
            for (input, output) in inputs.iter().zip(outputs) {
                let (Some(input), Some(expected)) = (io_text(input), io_text(output)) else {
                    return Err(DropReason::BadField(
                        "input_output".into(),
                        "a test is not text".into(),
                    ));
                };
                hidden.push(StdioTest { input, expected });
            }
            Tests::Stdio {
                public: Vec::new(),
                hidden,
            }
        }
    };
    let mut row = code_row(statement, tests);
    row.starter_code = opt_str(r, "starter_code").filter(|s| !s.trim().is_empty());
    row.solution = apps_solution(r)?;
    row.difficulty = opt_str(r, "difficulty").and_then(|d| difficulty_word(&d));
    row.time_limit = field(r, "time_limit").and_then(seconds);
    row.metadata = json!({ "problem_id": field(r, "problem_id"), "url": field(r, "url") });
    Ok(row)
}

/// APPS/TACO's first solution. No field, an empty one (rows without solutions) or an
/// empty list: none. A field that is there but not a JSON list of strings is reported:
/// read as "no solution" it would silently skip validation.
fn apps_solution(r: &Value) -> Result<Option<String>, DropReason> {
    let bad = |why: String| {
        DropReason::BadField(
            "solutions".into(),
            format!(
                "{why}; write a JSON list of programs, or remove the field to import the row without validation"
            ),
        )
    };
    let solutions = match field(r, "solutions") {
        None => return Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
        Some(Value::String(s)) => {
            check_json(s).map_err(|e| bad(e.to_string()))?;
            serde_json::from_str(s).map_err(|e| bad(format!("not JSON ({e})")))?
        }
        Some(v) => v.clone(),
    };
    let Value::Array(items) = solutions else {
        return Err(bad("not a list".into()));
    };
    match items.first() {
        None => Ok(None),
        Some(Value::String(code)) => Ok(Some(code.clone())),
        Some(_) => Err(bad("its first item is not a string".into())),
    }
}

fn pairs(name: &str, v: Option<&Value>) -> Result<Vec<StdioTest>, DropReason> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Vec::new());
    };
    let bad = || DropReason::BadField(name.into(), "not {input: [...], output: [...]}".into());
    let inputs = v.get("input").and_then(Value::as_array).ok_or_else(bad)?;
    let outputs = v.get("output").and_then(Value::as_array).ok_or_else(bad)?;
    if inputs.len() != outputs.len() {
        return Err(DropReason::BadField(
            name.into(),
            format!(
                "{} inputs but {} outputs: pairing them would lose or invent tests",
                inputs.len(),
                outputs.len()
            ),
        ));
    }
    inputs
        .iter()
        .zip(outputs)
        .map(|(i, o)| match (i.as_str(), o.as_str()) {
            (Some(input), Some(expected)) => Ok(StdioTest {
                input: input.into(),
                expected: expected.into(),
            }),
            _ => Err(bad()),
        })
        .collect()
}

pub fn codecontests(r: &Value) -> Result<CodeRow, DropReason> {
    let public = pairs("public_tests", field(r, "public_tests"))?;
    let mut hidden = pairs("private_tests", field(r, "private_tests"))?;
    hidden.extend(pairs("generated_tests", field(r, "generated_tests"))?);
    let mut row = code_row(req_str(r, "description")?, Tests::Stdio { public, hidden });
    if let Some(solutions) = field(r, "solutions") {
        let languages = solutions.get("language").and_then(Value::as_array);
        let codes = solutions.get("solution").and_then(Value::as_array);
        let (Some(languages), Some(codes)) = (languages, codes) else {
            return Err(DropReason::BadField(
                "solutions".into(),
                "not {language: [...], solution: [...]}; fix it, or remove the field to import the row without validation".into(),
            ));
        };
        if languages.len() != codes.len() {
            return Err(DropReason::BadField(
                "solutions".into(),
                format!(
                    "{} languages but {} solutions",
                    languages.len(),
                    codes.len()
                ),
            ));
        }
        // 3 is PYTHON3 in the data set's Language enum.
        row.solution = languages
            .iter()
            .zip(codes)
            .find(|(l, _)| l.as_u64() == Some(3))
            .and_then(|(_, c)| c.as_str().map(str::to_string));
    }
    row.difficulty = field(r, "difficulty")
        .and_then(Value::as_f64)
        .filter(|&d| d > 0.0);
    row.time_limit = field(r, "time_limit").and_then(seconds);
    row.metadata = json!({ "name": field(r, "name") });
    Ok(row)
}

/// LiveCodeBench tests of one kind; `functional` inputs are one JSON value per line.
fn lcb_tests(
    list: &Value,
    functional: bool,
) -> Result<(Vec<StdioTest>, Vec<TestCase>), DropReason> {
    let bad = |why: &str| DropReason::BadField("test_cases".into(), why.into());
    let items = list.as_array().ok_or_else(|| bad("not a list"))?;
    let (mut stdio, mut calls) = (Vec::new(), Vec::new());
    for t in items {
        let input = t
            .get("input")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no input"))?;
        let output = t
            .get("output")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no output"))?;
        let kind = t.get("testtype").and_then(Value::as_str).unwrap_or("stdin");
        if (kind == "functional") != functional {
            return Err(bad("stdin and functional tests mixed"));
        }
        if functional {
            // A string's JSON can be many times its size: scan before parsing.
            let args: Result<Vec<Value>, String> = input
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    check_json(l).map_err(|e| e.to_string())?;
                    serde_json::from_str(l).map_err(|e| e.to_string())
                })
                .collect();
            let args = args.map_err(|e| bad(&format!("functional input not JSON: {e}")))?;
            check_json(output).map_err(|e| bad(&format!("functional output: {e}")))?;
            let expected = serde_json::from_str(output)
                .map_err(|e| bad(&format!("functional output not JSON: {e}")))?;
            calls.push(TestCase {
                args: Value::Array(args),
                expected,
            });
        } else {
            stdio.push(StdioTest {
                input: input.into(),
                expected: output.into(),
            });
        }
    }
    Ok((stdio, calls))
}

pub fn livecodebench(r: &Value) -> Result<CodeRow, DropReason> {
    let public = json_field(r, "public_test_cases")?;
    let private = match field(r, "private_test_cases") {
        Some(Value::String(s)) => decode_lcb_private(s)
            .map_err(|e| DropReason::BadField("private_test_cases".into(), e))?,
        Some(v) => v.clone(),
        None => Value::Array(Vec::new()),
    };
    let functional = public
        .get(0)
        .and_then(|t| t.get("testtype"))
        .and_then(Value::as_str)
        == Some("functional");
    let (pub_io, pub_calls) = lcb_tests(&public, functional)?;
    let (hid_io, hid_calls) = lcb_tests(&private, functional)?;
    let tests = if functional {
        let metadata = json_field(r, "metadata").unwrap_or(Value::Null);
        let fn_name = metadata
            .get("func_name")
            .and_then(Value::as_str)
            .ok_or_else(|| DropReason::MissingField("metadata.func_name".into()))?;
        Tests::Call {
            fn_name: fn_name.into(),
            public: pub_calls,
            hidden: hid_calls,
            float_tol: CALL_FLOAT_TOL,
            class_name: Some("Solution".into()),
            equality: Equality::PythonJson,
        }
    } else {
        Tests::Stdio {
            public: pub_io,
            hidden: hid_io,
        }
    };
    let mut row = code_row(req_str(r, "question_content")?, tests);
    row.starter_code = opt_str(r, "starter_code").filter(|s| !s.trim().is_empty());
    row.difficulty = opt_str(r, "difficulty").and_then(|d| difficulty_word(&d));
    row.metadata = json!({ "question_id": field(r, "question_id"), "platform": field(r, "platform"), "contest_date": field(r, "contest_date") });
    Ok(row)
}

/// Plain asserts of one function: the cases, or why the row cannot be used.
fn assert_cases<'a>(
    lines: impl Iterator<Item = &'a str>,
    name: Option<&str>,
) -> Result<(String, Vec<TestCase>), DropReason> {
    let mut function: Option<String> = name.map(str::to_string);
    let mut cases = Vec::new();
    for line in lines {
        let a = parse_assert(line).map_err(DropReason::NonPlainAssert)?;
        match &function {
            Some(f) if *f != a.function => {
                return Err(DropReason::NonPlainAssert(format!(
                    "asserts call both {f} and {}",
                    a.function
                )));
            }
            _ => function = Some(a.function.clone()),
        }
        cases.push(a.case);
    }
    let function = function.ok_or(DropReason::NoTests)?;
    Ok((function, cases))
}

/// A list of strings (absent: empty). Any other item is reported, never skipped: a
/// skipped assert is a test lost silently.
fn str_list(r: &Value, name: &str) -> Result<Vec<String>, DropReason> {
    let Some(v) = field(r, name) else {
        return Ok(Vec::new());
    };
    let bad = |why: String| DropReason::BadField(name.into(), why);
    let items = v.as_array().ok_or_else(|| bad("not a list".into()))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_str().map(str::to_string).ok_or_else(|| {
                bad(format!(
                    "item {i} is not a string but {}: write each assert as a string",
                    &item.to_string()[..item.to_string().floor_char_boundary(60)]
                ))
            })
        })
        .collect()
}

pub fn mbpp(r: &Value) -> Result<CodeRow, DropReason> {
    let statement = req_str(r, "text").or_else(|_| req_str(r, "prompt"))?;
    if opt_str(r, "test_setup_code").is_some_and(|s| !s.trim().is_empty()) {
        return Err(DropReason::NonPlainAssert("needs test_setup_code".into()));
    }
    let tests = str_list(r, "test_list")?;
    let challenge = str_list(r, "challenge_test_list")?;
    let (function, cases) = assert_cases(tests.iter().chain(&challenge).map(String::as_str), None)?;
    let mut cases = cases.into_iter();
    let public: Vec<TestCase> = cases.next().into_iter().collect();
    let tests = Tests::Call {
        fn_name: function,
        public,
        hidden: cases.collect(),
        float_tol: CALL_FLOAT_TOL,
        class_name: None,
        equality: Equality::Python,
    };
    let mut row = code_row(statement, tests);
    row.solution = opt_str(r, "code");
    row.metadata = json!({ "task_id": field(r, "task_id") });
    Ok(row)
}

pub fn humaneval(r: &Value) -> Result<CodeRow, DropReason> {
    let prompt = req_str(r, "prompt")?;
    let entry = req_str(r, "entry_point")?;
    let test = req_str(r, "test")?;
    let lines = test
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("assert") && !l.starts_with("assert True"))
        .map(|l| l.replacen("candidate(", &format!("{entry}("), 1));
    let lines: Vec<String> = lines.collect();
    // Anything but asserts, comments, blank lines and the `check` header is logic the
    // asserts depend on (loops, helpers): not plain.
    if let Some(other) = test.lines().map(str::trim).find(|l| {
        !(l.is_empty()
            || l.starts_with('#')
            || l.starts_with("assert")
            || l.starts_with("def check(")
            || l.starts_with("METADATA")
            || l.starts_with('}')
            || l.starts_with('\'')
            || l.starts_with('"')
            || l.starts_with("import ")
            || l.starts_with("from "))
    }) {
        return Err(DropReason::NonPlainAssert(format!(
            "check() has logic besides asserts: {}",
            &other[..other.floor_char_boundary(80)]
        )));
    }
    let (fn_name, cases) = assert_cases(lines.iter().map(String::as_str), Some(entry.as_str()))?;
    let tests = Tests::Call {
        fn_name,
        public: Vec::new(),
        hidden: cases,
        float_tol: CALL_FLOAT_TOL,
        class_name: None,
        equality: Equality::Python,
    };
    let mut row = code_row(
        format!(
            "Complete this Python function.\n\n```python\n{}\n```",
            prompt.trim_end()
        ),
        tests,
    );
    row.solution = opt_str(r, "canonical_solution").map(|s| format!("{prompt}{s}"));
    row.metadata = json!({ "task_id": field(r, "task_id") });
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apps_stdio_and_call_rows_read() {
        let row = apps(&json!({"question": "q", "input_output": "{\"inputs\": [\"1\\n\", [\"2\", \"3\"]], \"outputs\": [\"1\\n\", \"5\\n\"]}", "solutions": "[\"print(1)\"]", "difficulty": "interview"})).unwrap();
        let Tests::Stdio { public, hidden } = &row.tests else {
            panic!()
        };
        assert!(public.is_empty());
        assert_eq!(hidden[1].input, "2\n3\n");
        assert_eq!(
            (row.solution.as_deref(), row.difficulty),
            (Some("print(1)"), Some(2.0))
        );
        let row = apps(&json!({"question": "q", "input_output": {"fn_name": "f", "inputs": [[1, 2]], "outputs": [[3]]}})).unwrap();
        let Tests::Call { hidden, .. } = &row.tests else {
            panic!()
        };
        assert_eq!(hidden[0].expected, json!(3));
        assert!(
            apps(
                &json!({"question": "q", "input_output": "{\"inputs\": [\"1\"], \"outputs\": []}"})
            )
            .is_err()
        );
    }

    #[test]
    fn mbpp_asserts_split_public_and_hidden_and_non_plain_rows_drop() {
        let row = mbpp(&json!({"text": "Add.", "code": "def add(a, b): return a + b", "test_list": ["assert add(1, 2) == 3", "assert add(0, 0) == 0"], "challenge_test_list": []})).unwrap();
        let Tests::Call {
            fn_name,
            public,
            hidden,
            ..
        } = &row.tests
        else {
            panic!()
        };
        assert_eq!(
            (fn_name.as_str(), public.len(), hidden.len()),
            ("add", 1, 1)
        );
        let err = mbpp(&json!({"text": "t", "test_list": ["assert math.isclose(f(1), 2.0)"]}))
            .unwrap_err();
        assert!(matches!(err, DropReason::NonPlainAssert(_)), "{err}");
        assert!(matches!(
            mbpp(&json!({"text": "t", "test_list": []})).unwrap_err(),
            DropReason::NoTests
        ));
    }
}
