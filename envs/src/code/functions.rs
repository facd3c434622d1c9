//! `code/functions-v2`: write a Python function from a generated specification; it is
//! run in the WASM sandbox on hidden random tests.
//!
//! # Task
//! A function drawn from one of the [`families`](super::families) (list, sorting,
//! searching, string, parsing, dict, number theory, dynamic programming, simulation,
//! graph). Its constants are random per task, so tasks of one family ask for different
//! functions. The task holds the visible examples and the hidden tests: the family's
//! boundary cases for this function (empty inputs, values on and next to each constant
//! and window edge, exact thresholds) followed by `hidden_tests` inputs drawn from the
//! same generator as the examples; expected outputs are computed on the host by a Rust
//! mirror of the reference solution. The env gate checks by mutation that the hidden
//! tests catch near-miss programs (`mutation::python/FAMILY` trials).
//!
//! # Action
//! One free-text reply. The code is the last fenced block (```` ```python ````), or the
//! whole reply when there is none.
//!
//! # Observation
//! The signature, the specification, 2–3 examples, and the answer format.
//!
//! # Reward
//! 1 and `passed` when the function returns the expected value (type-exact; floats within
//! 1e-9) on every hidden test, else 0. Breakdown: `correct`, `format` (a fenced block was
//! found), `sandbox_error` (the sandbox could not run it; the reason is in the events).
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `families` (names; empty = all), `level` (1–3: input sizes and ranges), `examples`
//! (shown, 1–5), `hidden_tests` (5–100, random ones added to the boundary cases).
//!
//! # Seeding
//! The family is uniform over `families`; hidden outputs that are all equal or all echo an
//! argument are redrawn, so constant and echo functions fail.
//!
//! # Version history
//! v1: first version.
//! v2: boundary cases among the hidden tests; `search_window` lists hold values on and
//! next to the window edges; `digit_power_sum` bases from 3 (in base 2 the power never
//! mattered); references write `target` for `target - 0`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::Verdict;

use super::families::{self, FAMILIES, FnTask, build_task, family};
use crate::code::grade::grade_code;
use crate::core::{EnvKind, EnvSpec, Preset, Superseded};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{Judged, SandboxedError, default_limits, py_literal, python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FunctionsConfig {
    /// Family names to draw from; empty means all.
    pub families: Vec<String>,
    pub level: u8,
    pub examples: usize,
    pub hidden_tests: usize,
}

impl Default for FunctionsConfig {
    fn default() -> Self {
        FunctionsConfig {
            families: Vec::new(),
            level: 2,
            examples: 3,
            hidden_tests: 20,
        }
    }
}

/// The difficulty scale of the function families (shared by `code/functions-c-v2`):
/// larger inputs and ranges, more hidden tests, fewer examples.
pub(crate) const PRESETS: &[Preset] = &[
    Preset {
        name: "easy",
        overrides: r#"{"level":1,"hidden_tests":15}"#,
    },
    Preset {
        name: "medium",
        overrides: "{}",
    },
    Preset {
        name: "hard",
        overrides: r#"{"level":3,"examples":2,"hidden_tests":30}"#,
    },
];

/// Checks a config against the families available (`c_only`: those with a C reference).
pub(crate) fn validate_config(config: &FunctionsConfig, c_only: bool) -> Result<(), ConfigError> {
    if !(1..=3).contains(&config.level) {
        return Err("level must be 1..=3".into());
    }
    if !(1..=5).contains(&config.examples) {
        return Err("examples must be 1..=5".into());
    }
    if !(5..=100).contains(&config.hidden_tests) {
        return Err("hidden_tests must be 5..=100".into());
    }
    for name in &config.families {
        match family(name) {
            Some(f) if f.has_c || !c_only => {}
            _ => {
                let known: Vec<&str> = FAMILIES
                    .iter()
                    .filter(|f| f.has_c || !c_only)
                    .map(|f| f.name)
                    .collect();
                return Err(format!("unknown family {name:?}; known: {}", known.join(", ")).into());
            }
        }
    }
    Ok(())
}

/// Draws a task from the configured families.
pub(crate) fn generate_task(config: &FunctionsConfig, c_only: bool, rng: &mut Rng) -> FnTask {
    let pool: Vec<_> = FAMILIES
        .iter()
        .filter(|f| f.has_c || !c_only)
        .filter(|f| config.families.is_empty() || config.families.iter().any(|n| n == f.name))
        .collect();
    let chosen = pool[rng.below(pool.len() as u64) as usize];
    build_task(
        chosen,
        config.level,
        config.examples,
        config.hidden_tests,
        rng,
    )
}

/// The examples as `f(args) == expected` lines (Python literals).
pub(crate) fn examples_text(task: &FnTask) -> String {
    task.examples
        .iter()
        .map(|case| {
            let args: Vec<String> = case
                .args
                .as_array()
                .map(|a| a.iter().map(py_literal).collect())
                .unwrap_or_default();
            format!(
                "    {}({}) == {}\n",
                task.entry,
                args.join(", "),
                py_literal(&case.expected)
            )
        })
        .collect()
}

/// The Python prompt for a task (shared with `code/repl-v2`).
pub(crate) fn python_prompt(task: &FnTask) -> String {
    format!(
        "Write a Python function with this signature:\n\n    def {}\n\n{}\n\nExamples:\n{}\n\
         Your function will be run on hidden tests (Python 3 standard library only; it must \
         return its result, not print it).",
        task.signature,
        task.description,
        examples_text(task)
    )
}

/// The Python function-synthesis [`Question`]; [`Functions`] is its env.
pub struct FunctionsQuestion;

pub type Functions = SingleTurn<FunctionsQuestion>;

/// Runs `code` on the task's hidden tests in the sandbox.
fn judge(task: &FnTask, code: &str) -> Judged {
    python().and_then(|py| {
        py.judge(code, &task.entry, &task.tests, &default_limits(), 1e-9)
            .map_err(SandboxedError::run)
    })
}

impl Question for FunctionsQuestion {
    type Config = FunctionsConfig;
    type Task = FnTask;

    // v1 drew no boundary cases among the hidden tests; a task carries its
    // own tests, so v1's are judged by those.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "code/functions-v2",
        kind: EnvKind::SingleTurn,
        description: "Write a Python function from a generated spec; judged in the WASM sandbox on hidden random tests",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: PRESETS,
    };
    const STRUCTURED_KEY: Option<&'static str> = None;

    fn effort(task: &FnTask) -> Option<f64> {
        Some(families::effort(task))
    }

    fn validate(config: &FunctionsConfig) -> Result<(), ConfigError> {
        validate_config(config, false)
    }

    fn generate(config: &FunctionsConfig, rng: &mut Rng) -> FnTask {
        generate_task(config, false, rng)
    }

    fn prompt(task: &FnTask) -> String {
        format!(
            "{}\n\nReply with the complete function in a ```python code block.",
            python_prompt(task)
        )
    }

    fn structured(task: &FnTask) -> Value {
        json!({
            "family": task.family,
            "entry": task.entry,
            "signature": task.signature,
            "examples": task.examples,
        })
    }

    fn reference(task: &FnTask) -> String {
        task.reference.clone()
    }

    /// Whether `answer` (the code itself) passes every hidden test.
    fn check(task: &FnTask, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)? == Verdict::Passed)
    }

    /// The code is the last fenced block; the sandbox judges it once.
    fn grade(task: &FnTask, reply: &str) -> Graded {
        grade_code(reply, |code| judge(task, code))
    }

    fn oracle(task: &FnTask) -> Option<String> {
        Some(format!("```python\n{}```", task.reference))
    }

    fn random_answer(rng: &mut Rng) -> String {
        rng.range_i64(-20, 20).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Env, Score};

    fn task(seed: u64) -> FnTask {
        Functions::generate(&FunctionsConfig::default(), &mut Rng::from_seed(seed))
    }

    fn episode(task: &FnTask, answer: &str) -> Score {
        let mut env = Functions::reset(task, Rng::from_seed(0));
        env.apply(0, answer.to_string()).unwrap();
        env.score(0)
    }

    #[test]
    fn prompt_shows_signature_and_examples_but_no_hidden_test() {
        let task = task(5);
        let text = Functions::reset(&task, Rng::from_seed(0)).observe(0).text;
        assert!(text.contains(&format!("def {}", task.signature)), "{text}");
        let calls = text.matches(&format!("    {}(", task.entry)).count();
        assert_eq!(calls, task.examples.len(), "{text}");
        let obs = Functions::reset(&task, Rng::from_seed(0)).observe(0);
        assert!(obs.structured.get("tests").is_none());
        assert!(!text.contains(&task.reference));
    }

    /// Hardcoding the visible examples (a lookup table, else a constant) fails the hidden tests.
    #[test]
    fn hardcoded_examples_fail() {
        for seed in 0..6 {
            let task = task(seed);
            let mut src = format!("def {}(*args):\n", task.entry);
            for case in &task.examples {
                let args = py_literal(&case.args);
                src.push_str(&format!(
                    "    if list(args) == {args}:\n        return {}\n",
                    py_literal(&case.expected)
                ));
            }
            src.push_str(&format!(
                "    return {}\n",
                py_literal(&task.examples[0].expected)
            ));
            let examples_pass = python()
                .unwrap()
                .judge(&src, &task.entry, &task.examples, &default_limits(), 1e-9)
                .unwrap();
            assert!(
                examples_pass.passed(),
                "the lookup table itself is wrong: {examples_pass:?}"
            );
            let score = episode(&task, &format!("```python\n{src}```"));
            assert!(
                !score.passed && score.reward == 0.0,
                "seed {seed}: hardcoding passed"
            );
        }
    }

    #[test]
    fn reference_passes_and_wrong_empty_echo_fail() {
        let task = task(11);
        let prompt = Functions::reset(&task, Rng::from_seed(0)).observe(0).text;
        let good = episode(&task, &format!("Here:\n```python\n{}```", task.reference));
        assert!(good.passed && good.breakdown["format"] == 1.0, "{good:?}");
        for bad in [
            "",
            "0",
            prompt.as_str(),
            &task.reference.replace("return", "return 1 +"),
        ] {
            let score = episode(&task, bad);
            assert!(!score.passed && score.reward == 0.0, "{bad:?} passed");
        }
    }
}
