//! The sandbox adapter of the code and self-play envs: one process-wide
//! [`Sandbox`] with its Python and C runtimes ([`sandbox`], [`python`],
//! [`c_runtime`]: created lazily on first use; when they cannot be created,
//! callers get the reason as an error, never a panic), and, for the envs,
//! the default budgets, reading the code out of a reply, the events and
//! score of a judged answer, and Python literals for prompts.
//!
//! Verification follows the sandbox's trust model: expected outputs stay on
//! the host, the guest only reports plain returned values, the host compares
//! them type-exactly, and every candidate gets a fresh instance.

use std::sync::{Arc, OnceLock};

use verigym_sandbox::{
    CRuntime, Limits, PythonRuntime, Sandbox, SandboxConfig, SandboxError, Verdict,
};

use crate::core::{NO_VERDICT, Score};

/// Why an answer could not be run at all: the sandbox, a runtime or a toolchain
/// failed, never the answer itself (the code envs score it [`NO_VERDICT`] and put
/// this in the step's events). The sandbox's own [`SandboxError`] is kept as the
/// source (shared, so a failure to set up, cached for the process, can be returned
/// to every caller).
#[derive(Clone, Debug, thiserror::Error)]
pub enum SandboxedError {
    /// The engine could not be created.
    #[error("sandbox unavailable: {0}")]
    SandboxUnavailable(#[source] Arc<SandboxError>),
    /// The Python component could not be built or loaded (e.g. componentize-py
    /// missing).
    #[error("Python runtime unavailable: {0} (run sandbox/setup.sh)")]
    PythonUnavailable(#[source] Arc<SandboxError>),
    /// clang or wasi-libc is absent or does not work.
    #[error("C toolchain missing: run sandbox/setup.sh ({0})")]
    CToolchainMissing(#[source] Arc<SandboxError>),
    /// The sandbox failed while running the answer.
    #[error("sandbox error: {0}")]
    Run(#[source] Arc<SandboxError>),
    /// The task cannot be run (it names a language the sandbox does not run, or
    /// lacks what its language needs): the sandbox's refusal of its input.
    #[error("{0}")]
    BadTask(#[source] Arc<SandboxError>),
}

impl SandboxedError {
    /// [`SandboxedError::Run`]: the sandbox failed while running the answer.
    pub fn run(error: SandboxError) -> Self {
        SandboxedError::Run(Arc::new(error))
    }

    /// [`SandboxedError::BadTask`]: the task cannot be run, because of `why`.
    pub fn bad_task(why: impl Into<String>) -> Self {
        SandboxedError::BadTask(Arc::new(SandboxError::InvalidInput(why.into())))
    }
}

static SANDBOX: OnceLock<Result<Sandbox, SandboxedError>> = OnceLock::new();
static PYTHON: OnceLock<Result<PythonRuntime, SandboxedError>> = OnceLock::new();
static C_RUNTIME: OnceLock<Result<CRuntime, SandboxedError>> = OnceLock::new();
static CPP_RUNTIME: OnceLock<Result<CRuntime, SandboxedError>> = OnceLock::new();

/// The process-wide sandbox, created on first use.
///
/// # Errors
/// [`SandboxedError::SandboxUnavailable`]: why the engine could not be created.
pub fn sandbox() -> Result<&'static Sandbox, SandboxedError> {
    SANDBOX
        .get_or_init(|| {
            Sandbox::new(SandboxConfig::default())
                .map_err(|e| SandboxedError::SandboxUnavailable(Arc::new(e)))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The shared Python runtime (the precompiled CPython component, loaded once).
///
/// # Errors
/// Why the sandbox or the component is unavailable (e.g. componentize-py missing):
/// [`SandboxedError::SandboxUnavailable`] or [`SandboxedError::PythonUnavailable`].
pub fn python() -> Result<&'static PythonRuntime, SandboxedError> {
    PYTHON
        .get_or_init(|| {
            sandbox()?
                .python()
                .map_err(|e| SandboxedError::PythonUnavailable(Arc::new(e)))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The shared C runtime.
///
/// # Errors
/// [`SandboxedError::CToolchainMissing`] ("C toolchain missing: run sandbox/setup.sh"
/// with the detail) when clang or wasi-libc is absent, or
/// [`SandboxedError::SandboxUnavailable`].
pub fn c_runtime() -> Result<&'static CRuntime, SandboxedError> {
    C_RUNTIME
        .get_or_init(|| {
            sandbox()?
                .c()
                .map_err(|e| SandboxedError::CToolchainMissing(Arc::new(e)))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The shared C++ runtime (function candidates in C++; the same toolchain plus libc++).
///
/// # Errors
/// As [`c_runtime`].
pub fn cpp_runtime() -> Result<&'static CRuntime, SandboxedError> {
    CPP_RUNTIME
        .get_or_init(|| {
            sandbox()?
                .cpp()
                .map_err(|e| SandboxedError::CToolchainMissing(Arc::new(e)))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Budgets for one candidate: about 0.3 s of CPython work per case, 128 MiB, 16 KiB of
/// output, a 10 s wall-clock backstop.
pub(crate) fn default_limits() -> Limits {
    Limits {
        fuel: 600_000_000,
        memory_bytes: 128 << 20,
        output_bytes: 16 << 10,
        wall_ms: 10_000,
    }
}

/// The code in a reply: the last fenced block, else the whole visible reply (the
/// reasoning removed by the shared rule, `verigym_verifiers::answer::strip_reasoning`;
/// a reply cut off inside its reasoning has no code). The bool says whether a fenced
/// block was found.
///
/// Every ```` ``` ```` toggles a block, wherever it stands on its line, so malformed
/// replies like ```` ```A``` or ```B``` ```` yield `B`: a hedge always ends in the block
/// that is judged. An unterminated last block runs to the end. A one-word first line
/// (`python`, `c`) is the language tag and is dropped.
pub(crate) fn extract_code(reply: &str) -> (String, bool) {
    let visible = verigym_verifiers::answer::strip_reasoning(reply).unwrap_or_default();
    extract_code_visible(&visible)
}

/// [`extract_code`] of text whose reasoning is already removed (a multi-turn env's
/// action, read once by `crate::reply`): a tag it mentions is code, never reasoning.
pub(crate) fn extract_code_visible(reply: &str) -> (String, bool) {
    let parts: Vec<&str> = reply.split("```").collect();
    if parts.len() < 2 {
        return (reply.to_string(), false);
    }
    // Blocks are the odd-numbered parts; the last one is at the largest odd index.
    let last = if parts.len().is_multiple_of(2) {
        parts.len() - 1
    } else {
        parts.len() - 2
    };
    let block = parts[last];
    let code = match block.split_once('\n') {
        Some((tag, rest)) if is_language_tag(tag) => rest,
        _ => block,
    };
    let mut code = code.to_string();
    if !code.ends_with('\n') {
        code.push('\n');
    }
    (code, true)
}

/// `python`, `c`, `py3`, `c++`, or nothing: a fence's info string.
fn is_language_tag(tag: &str) -> bool {
    tag.trim()
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "+-_.#".contains(c))
}

/// The outcome of running one answer: the verdict, or why it could not run.
pub(crate) type Judged = Result<Verdict, SandboxedError>;

/// A short note for the step's events.
pub(crate) fn judged_event(judged: &Judged) -> String {
    match judged {
        Ok(Verdict::Passed) => "passed all hidden tests".into(),
        Ok(Verdict::WrongAnswer { case, .. }) => format!("wrong answer on hidden test {case}"),
        // Every test of these envs is hidden: the index and the kind, never the message.
        Ok(Verdict::RuntimeError { msg }) => match failing_case(msg) {
            Some(case) => format!("runtime error on hidden test {case} ({})", error_kind(msg)),
            None => format!("runtime error ({})", error_kind(msg)),
        },
        Ok(Verdict::CompileError { msg }) => format!("does not compile: {}", last_line(msg)),
        Ok(Verdict::OutOfFuel) => "time limit (fuel) exceeded".into(),
        Ok(Verdict::OutOfMemory) => "memory limit exceeded".into(),
        Ok(Verdict::OutputLimit) => "output limit exceeded".into(),
        Ok(Verdict::Timeout) => "wall-clock limit exceeded".into(),
        Err(reason) => reason.to_string(),
    }
}

/// Python's built-in exception names: the only words of a runtime error that are shown
/// for a hidden test.
const BUILTIN_ERRORS: &[&str] = &[
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BufferError",
    "EOFError",
    "Exception",
    "FloatingPointError",
    "ImportError",
    "IndentationError",
    "IndexError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "SyntaxError",
    "SystemError",
    "TabError",
    "TypeError",
    "UnboundLocalError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "UnicodeError",
    "ValueError",
    "ZeroDivisionError",
];

/// The kind of a runtime error, safe to report for a hidden test: the built-in
/// exception named on the message's last line (`ValueError`), `nonzero exit`, `trap`,
/// else `error`. Never the message itself: a program's message can carry its input
/// (`invalid literal for int() with base 10: '<hidden input>'`), and a class of its own
/// could be named after it.
pub(crate) fn error_kind(msg: &str) -> &'static str {
    let line = msg
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let line = line.trim();
    let line = line
        .strip_prefix("case ")
        .and_then(|rest| rest.split_once(": "))
        .map_or(line, |(_, rest)| rest);
    let name_end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(line.len());
    let name = line[..name_end].rsplit('.').next().unwrap_or("");
    if let Some(known) = BUILTIN_ERRORS.iter().find(|k| **k == name) {
        return known;
    }
    if line.starts_with("exit status") || line.starts_with("candidate exited with code") {
        "nonzero exit"
    } else if msg.contains("wasm trap") || msg.contains("wasm backtrace") {
        "trap"
    } else {
        "error"
    }
}

/// The 0-based case a call-based runtime error names (`case 3: …`, as the sandbox
/// writes it).
pub(crate) fn failing_case(msg: &str) -> Option<usize> {
    msg.strip_prefix("case ")?.split_once(':')?.0.parse().ok()
}

fn last_line(text: &str) -> &str {
    let line = text.lines().last().unwrap_or("");
    &line[..line.floor_char_boundary(200)]
}

/// The score of a judged answer: binary `correct`, `format` (a fenced block was found),
/// and `sandbox_error` (1 when the answer could not be run at all).
pub(crate) fn judged_score(judged: &Judged, fenced: bool) -> Score {
    let passed = matches!(judged, Ok(Verdict::Passed));
    Score::binary(passed)
        .part("format", fenced as u8 as f64)
        .part(NO_VERDICT, judged.is_err() as u8 as f64)
}

/// Renders a tagged JSON value as a Python literal (for examples in prompts).
pub(crate) fn py_literal(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Number(n) => {
            let text = n.to_string();
            if n.is_f64() && !text.contains(['.', 'e', 'E']) {
                text + ".0"
            } else {
                text
            }
        }
        Value::String(s) => python_string(s),
        Value::Array(items) => format!("[{}]", join(items)),
        Value::Object(map) => {
            if let Some(Value::Array(items)) = map.get("$tuple").filter(|_| map.len() == 1) {
                return match items.len() {
                    1 => format!("({},)", py_literal(&items[0])),
                    _ => format!("({})", join(items)),
                };
            }
            let pairs: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", python_string(k), py_literal(v)))
                .collect();
            format!("{{{}}}", pairs.join(", "))
        }
    }
}

fn join(items: &[serde_json::Value]) -> String {
    items.iter().map(py_literal).collect::<Vec<_>>().join(", ")
}

fn python_string(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn last_fenced_block_wins() {
        let reply = "Try:\n```python\ndef f(): return 1\n```\nBetter:\n```\ndef f():\n    return 2\n```\nDone.";
        assert_eq!(
            extract_code(reply),
            ("def f():\n    return 2\n".into(), true)
        );
        assert_eq!(
            extract_code("```python\ndef g(): pass"),
            ("def g(): pass\n".into(), true)
        );
        assert_eq!(
            extract_code("def h(): pass"),
            ("def h(): pass".into(), false)
        );
        assert_eq!(
            extract_code("<think>```python\nx\n```</think>y = 1"),
            ("y = 1".into(), false)
        );
        // Hedges: the judged block is always the last one.
        let hedge = "```python\ndef f(): return 1\n``` or ```python\ndef f(): return 2\n```";
        assert_eq!(extract_code(hedge).0, "def f(): return 2\n");
        let boxes = "\\boxed{```c\nint a;\n```} \\boxed{```c\nint b;\n```}";
        assert_eq!(extract_code(boxes).0, "int b;\n");
        assert_eq!(extract_code("```x = 1```").0, "x = 1\n");
        // Every reasoning convention and the end of the turn, as the answer reader has them.
        let program = "```python\ndef f(): return 1\n```";
        let draft = "```python\ndef f(): return 2\n```";
        for reply in [
            format!("◁think▷{draft}◁/think▷\n{program}"),
            format!("[THINK]{draft}[/THINK]\n{program}"),
            format!(
                "<|channel|>analysis<|message|>{draft}<|end|><|start|>assistant<|channel|>final<|message|>{program}<|return|>"
            ),
            format!("{program}<|im_end|>\n{draft}"),
        ] {
            assert_eq!(extract_code(&reply).0, "def f(): return 1\n", "{reply:?}");
        }
        assert_eq!(extract_code(&format!("<think>{program}")).0, "");
        assert_eq!(extract_code("```x=1\ny=2\n```").0, "x=1\ny=2\n");
    }

    #[test]
    fn runtime_errors_of_hidden_tests_show_their_kind_only() {
        let msg = "case 2: Traceback (most recent call last):\n  File \"<candidate>\", line 2, in f\nValueError: invalid literal for int() with base 10: 'SECRET-INPUT'";
        assert_eq!(error_kind(msg), "ValueError");
        assert_eq!(failing_case(msg), Some(2));
        let event = judged_event(&Ok(Verdict::RuntimeError { msg: msg.into() }));
        assert_eq!(event, "runtime error on hidden test 2 (ValueError)");
        assert!(!event.contains("SECRET"));
        for (msg, kind) in [
            ("SECRET_INPUT: boom", "error"),
            ("builtins.KeyError: 'SECRET'", "KeyError"),
            ("exit status 3", "nonzero exit"),
            ("", "error"),
        ] {
            assert_eq!(error_kind(msg), kind, "{msg}");
        }
    }

    #[test]
    fn python_literals() {
        assert_eq!(
            py_literal(&json!([1, 2.5, "a'b", null, true, {"$tuple": [1]}, {"k": [3.0]}])),
            "[1, 2.5, 'a\\'b', None, True, (1,), {'k': [3.0]}]"
        );
    }
}
