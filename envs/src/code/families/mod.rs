//! Function-synthesis families for `code/functions-v1` and `code/functions-c-v1`.
//!
//! A family draws a fully specified function (its parameters are random per task, so two
//! tasks of one family rarely ask for the same function), a Python reference, optionally
//! a C reference, an argument generator and a Rust mirror of the reference that computes
//! expected outputs on the host. Expected outputs never enter the sandbox: the references
//! are only run by the tests, which check that they agree with the mirrors.
//!
//! [`build_task`] draws the visible examples and the hidden tests from the same generator,
//! and redraws when the hidden outputs are degenerate (all equal, or all echo an argument),
//! so a constant or echoing function cannot pass.

mod lists;
mod numbers;
mod structures;
mod text;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use verigym_sandbox::{CSignature, TestCase};

use crate::rng::Rng;

/// The C side of a family that has one: the signature and a reference solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CPart {
    pub signature: CSignature,
    /// The C prototype shown to the agent, e.g. `int64_t f(int64_t n)`.
    pub prototype: String,
    pub reference: String,
}

/// One drawn function: what the prompt states and how to test it.
pub struct Spec {
    pub entry: &'static str,
    /// The Python signature without `def` and colon, e.g. `f(xs: list[int]) -> int`.
    pub signature: String,
    /// What the function must do, one paragraph.
    pub description: String,
    pub reference: String,
    pub c: Option<CPart>,
    /// Draws one argument list (a JSON array).
    pub args: Box<dyn Fn(&mut Rng) -> Value>,
    /// The Rust mirror of the reference: expected output for an argument list.
    pub solve: Box<dyn Fn(&Value) -> Value>,
}

/// A family: its name, topic, and how to draw a [`Spec`] at a difficulty level 1..=3.
#[derive(Clone, Copy)]
pub struct Family {
    pub name: &'static str,
    pub topic: &'static str,
    pub draw: fn(u8, &mut Rng) -> Spec,
    /// Whether it has a C reference (usable by `code/functions-c-v1`).
    pub has_c: bool,
}

/// Every family, in a fixed order (generation depends on it: append only).
pub const FAMILIES: &[Family] = &[
    lists::AFFINE_FILTER,
    lists::SORT_BY_KEY,
    lists::SEARCH_WINDOW,
    text::ROTATE_LETTERS,
    text::PARSE_RECORDS,
    text::WORD_COUNTS,
    numbers::DIGIT_POWER_SUM,
    numbers::COUNT_PRIMES,
    numbers::COUNT_CLIMBS,
    numbers::MIN_COINS,
    structures::ROBOT_WALK,
    structures::REACHABLE,
];

/// The family named `name`.
pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name)
}

/// A generated task: everything needed to prompt, verify and replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FnTask {
    pub family: String,
    pub entry: String,
    pub signature: String,
    pub description: String,
    /// Shown in the prompt.
    pub examples: Vec<TestCase>,
    /// Never shown; the verdict uses only these.
    pub tests: Vec<TestCase>,
    pub reference: String,
    pub c: Option<CPart>,
}

/// The difficulty measure of a task: characters of its hidden tests' arguments, i.e. how
/// many inputs, and how large, the function must get right. It rises with `level` (input
/// sizes and ranges) and `hidden_tests`.
pub fn effort(task: &FnTask) -> f64 {
    task.tests
        .iter()
        .map(|t| t.args.to_string().len())
        .sum::<usize>() as f64
}

/// Draws a task of `family` with `examples` visible and `hidden` hidden cases.
pub fn build_task(
    family: &Family,
    level: u8,
    examples: usize,
    hidden: usize,
    rng: &mut Rng,
) -> FnTask {
    loop {
        let spec = (family.draw)(level, rng);
        let draw = |rng: &mut Rng, n: usize| -> Vec<TestCase> {
            (0..n)
                .map(|_| {
                    let args = (spec.args)(rng);
                    let expected = (spec.solve)(&args);
                    TestCase { args, expected }
                })
                .collect()
        };
        let shown = draw(rng, examples);
        let tests = draw(rng, hidden);
        if degenerate(&tests) {
            continue;
        }
        return FnTask {
            family: family.name.into(),
            entry: spec.entry.into(),
            signature: spec.signature,
            description: spec.description,
            examples: shown,
            tests,
            reference: spec.reference,
            c: spec.c,
        };
    }
}

/// Hidden outputs that a constant or an echo of one argument would match.
fn degenerate(tests: &[TestCase]) -> bool {
    let Some(first) = tests.first() else {
        return true;
    };
    let constant = tests.iter().all(|t| t.expected == first.expected);
    let arity = first.args.as_array().map_or(0, Vec::len);
    let echo = (0..arity).any(|i| tests.iter().all(|t| t.args[i] == t.expected));
    constant || echo
}

/// A list of `lo..=hi` integers of length `0..=max_len`.
pub(crate) fn int_list(rng: &mut Rng, max_len: usize, lo: i64, hi: i64) -> Vec<i64> {
    let n = rng.range_usize(0, max_len);
    (0..n).map(|_| rng.range_i64(lo, hi)).collect()
}

/// Argument `i` as i64 (mirrors only see arguments they generated).
pub(crate) fn int_arg(args: &Value, i: usize) -> i64 {
    args[i].as_i64().unwrap_or_default()
}

pub(crate) fn list_arg(args: &Value, i: usize) -> Vec<i64> {
    args[i]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

pub(crate) fn str_arg(args: &Value, i: usize) -> &str {
    args[i].as_str().unwrap_or_default()
}

/// Input size for a level: small, medium, large.
pub(crate) fn size(level: u8, sizes: [usize; 3]) -> usize {
    sizes[usize::from(level.clamp(1, 3)) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::python;

    /// Every family's Python reference agrees with its Rust mirror on its own hidden tests,
    /// at every level, in the sandbox; a constant function fails them.
    #[test]
    fn python_references_match_the_mirrors() {
        let py = python().expect("Python runtime (run sandbox/setup.sh)");
        let mut rng = Rng::from_seed(7);
        for family in FAMILIES {
            for level in 1..=3 {
                for _ in 0..2 {
                    let task = build_task(family, level, 3, 12, &mut rng);
                    let verdict = py
                        .judge(
                            &task.reference,
                            &task.entry,
                            &task.tests,
                            &crate::code::default_limits(),
                            1e-9,
                        )
                        .unwrap();
                    assert!(
                        verdict.passed(),
                        "{} level {level}: {verdict:?}\n{}",
                        family.name,
                        task.reference
                    );
                    let constant = format!(
                        "def {}(*args):\n    return {}\n",
                        task.entry,
                        crate::code::py_literal(&task.tests[0].expected)
                    );
                    let verdict = py
                        .judge(
                            &constant,
                            &task.entry,
                            &task.tests,
                            &crate::code::default_limits(),
                            1e-9,
                        )
                        .unwrap();
                    assert!(!verdict.passed(), "{}: a constant passed", family.name);
                }
            }
        }
    }

    #[test]
    fn tasks_of_one_family_differ() {
        let mut rng = Rng::from_seed(3);
        for family in FAMILIES {
            let refs: std::collections::BTreeSet<String> = (0..40)
                .map(|_| build_task(family, 2, 3, 10, &mut rng).reference)
                .collect();
            assert!(
                refs.len() >= 28,
                "{}: only {} distinct functions in 40",
                family.name,
                refs.len()
            );
        }
    }
}
