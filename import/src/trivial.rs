//! Test adequacy at import (design rule 9): a row whose tests a trivial program passes
//! is not a task. Each code row's tests are run on programs that know nothing of the
//! problem: the empty program, constants (`0`, `1`, `-1`, `YES`, `NO`; for call-based
//! rows `None`, `True`, `False`, `0`, `1`, `[]`, `""`), echoing the input (or the first
//! argument), printing the first example's output, and a lookup table of the examples
//! the prompt shows (the public tests, and tests whose input and output the statement
//! quotes)
//! answering nothing else. A row any of them passes is dropped (`weak_tests`), or with
//! [`Options::keep_weak`](crate::Options::keep_weak) kept and listed in the summary.

use serde_json::Value;
use verigym_envs::code::dataset::{CodeRow, Tests, judge};
use verigym_envs::selfplay::pyliteral::to_python;
use verigym_sandbox::{StdioTest, TestCase};

fn py_str(text: &str) -> String {
    to_python(&Value::String(text.to_string()))
}

/// Whether the statement quotes a hidden test: both its input and its output appear.
fn quoted(task: &CodeRow, input: &str, output: &str) -> bool {
    let (input, output) = (input.trim(), output.trim());
    !input.is_empty() && task.statement.contains(input) && task.statement.contains(output)
}

fn stdio_programs(
    task: &CodeRow,
    public: &[StdioTest],
    hidden: &[StdioTest],
) -> Vec<(String, String)> {
    let write = |text: &str| format!("import sys\nsys.stdout.write({})\n", py_str(text));
    let mut programs = vec![
        ("the empty program".to_string(), String::new()),
        (
            "echoing the input".into(),
            "import sys\nsys.stdout.write(sys.stdin.read())\n".into(),
        ),
    ];
    for constant in ["0", "1", "-1", "YES", "NO"] {
        programs.push((
            format!("printing {constant}"),
            format!("print({})\n", py_str(constant)),
        ));
    }
    if let Some(first) = public.first().or(hidden.first()) {
        programs.push((
            "printing the first example's output".into(),
            write(&first.expected),
        ));
    }
    let shown: Vec<String> = public
        .iter()
        .chain(
            hidden
                .iter()
                .filter(|t| quoted(task, &t.input, &t.expected)),
        )
        .map(|t| format!("    {}: {},\n", py_str(t.input.trim()), py_str(&t.expected)))
        .collect();
    if !shown.is_empty() {
        programs.push((
            "a lookup table of the shown examples".into(),
            format!(
                "import sys\nTABLE = {{\n{}}}\nsys.stdout.write(TABLE.get(sys.stdin.read().strip(), ''))\n",
                shown.concat()
            ),
        ));
    }
    programs
}

fn call_programs(
    task: &CodeRow,
    fn_name: &str,
    class_name: Option<&str>,
    public: &[TestCase],
    hidden: &[TestCase],
) -> Vec<(String, String)> {
    let define = |body: &str| match class_name {
        Some(class) => format!("class {class}:\n    def {fn_name}(self, *args):\n{body}"),
        None => format!("def {fn_name}(*args):\n{body}"),
    };
    let indent = |line: &str| format!("        {line}\n");
    let ret = |value: &str| define(&indent(&format!("return {value}")));
    let mut programs: Vec<(String, String)> = ["None", "True", "False", "0", "1", "[]", "''"]
        .iter()
        .map(|c| (format!("returning {c}"), ret(c)))
        .collect();
    programs.push((
        "returning the first argument".into(),
        ret("args[0] if args else None"),
    ));
    if let Some(first) = public.first().or(hidden.first()) {
        programs.push((
            "returning the first example's value".into(),
            ret(&to_python(&first.expected)),
        ));
    }
    let shown: Vec<String> = public
        .iter()
        .chain(
            hidden
                .iter()
                .filter(|t| quoted(task, &args_text(&t.args), &to_python(&t.expected))),
        )
        .map(|t| format!("({}, {})", to_python(&t.args), to_python(&t.expected)))
        .collect();
    if !shown.is_empty() {
        let body = format!(
            "{}{}{}{}",
            indent(&format!("for a, e in [{}]:", shown.join(", "))),
            indent("    if list(args) == list(a):"),
            indent("        return e"),
            indent("return None")
        );
        programs.push(("a lookup table of the shown examples".into(), define(&body)));
    }
    programs
}

/// A call's arguments as the statement would quote them (`1, [2, 3]`).
fn args_text(args: &Value) -> String {
    match args {
        Value::Array(items) => items.iter().map(to_python).collect::<Vec<_>>().join(", "),
        other => to_python(other),
    }
}

/// The trivial programs for `task`'s tests, in Python: (what it does, the code).
/// [`passing_trivial`] runs them on a C or C++ row's tests too: whether a program that
/// knows nothing of the problem passes is a property of the tests, not of the language.
pub fn programs(task: &CodeRow) -> Vec<(String, String)> {
    match &task.tests {
        Tests::Stdio { public, hidden } => stdio_programs(task, public, hidden),
        Tests::Call {
            fn_name,
            public,
            hidden,
            class_name,
            ..
        } => call_programs(task, fn_name, class_name.as_deref(), public, hidden),
    }
}

/// The first trivial program that passes every test of `task`, if any.
///
/// # Errors
/// No verdict: the sandbox could not run them.
pub fn passing_trivial(task: &CodeRow) -> Result<Option<String>, String> {
    let as_python;
    let task = if task.language == "python" {
        task
    } else {
        // The row's tests and limits, run on the Python programs.
        as_python = CodeRow {
            language: "python".into(),
            ..task.clone()
        };
        &as_python
    };
    for (name, code) in programs(task) {
        if judge(task, &code).map_err(|e| e.to_string())?.passed() {
            return Ok(Some(name));
        }
    }
    Ok(None)
}

#[cfg(test)]
#[path = "trivial_tests.rs"]
mod tests;
