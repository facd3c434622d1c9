//! Function-synthesis families for `code/functions-v2` and `code/functions-c-v2`.
//!
//! A family draws a fully specified function (its parameters are random per task, so two
//! tasks of one family rarely ask for the same function), a Python reference, optionally
//! a C reference, an argument generator and a Rust mirror of the reference that computes
//! expected outputs on the host. Expected outputs never enter the sandbox: the references
//! are only run by the tests, which check that they agree with the mirrors.
//!
//! [`build_task`] draws the visible examples and the hidden tests from the same generator,
//! puts the family's boundary cases ([`Spec::edges`]) first among the hidden tests, and
//! redraws when the hidden outputs are degenerate (all equal, or all echo an argument), so
//! a constant or echoing function cannot pass. [`mutation`] checks in CI that the hidden
//! tests catch the simple mutants of every family's references.

#[cfg(test)]
mod coins_mirror;
mod family;
mod lists;
pub mod mutation;
mod numbers;
mod structures;
mod text;

pub use family::{CPart, Family, Spec};

use serde::{Deserialize, Serialize};
use verigym_sandbox::TestCase;

use crate::rng::Rng;

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

/// Draws a task of `family` with `examples` visible cases and, hidden, the family's
/// boundary cases followed by `hidden` random ones.
pub fn build_task(
    family: &Family,
    level: u8,
    examples: usize,
    hidden: usize,
    rng: &mut Rng,
) -> FnTask {
    build_task_and_spec(family, level, examples, hidden, rng).0
}

/// [`build_task`], also returning the drawn [`Spec`] (to draw more inputs of the same
/// function, as the mutation check's stress set does).
pub fn build_task_and_spec(
    family: &Family,
    level: u8,
    examples: usize,
    hidden: usize,
    rng: &mut Rng,
) -> (FnTask, Spec) {
    loop {
        let spec = (family.draw)(level, rng);
        let case = |args: serde_json::Value| {
            let expected = (spec.solve)(&args);
            TestCase { args, expected }
        };
        let draw = |rng: &mut Rng, n: usize| -> Vec<TestCase> {
            (0..n).map(|_| case((spec.args)(rng))).collect()
        };
        let shown = draw(rng, examples);
        let mut tests: Vec<TestCase> = spec.edges.iter().cloned().map(case).collect();
        tests.extend(draw(rng, hidden));
        if degenerate(&tests) {
            continue;
        }
        let task = FnTask {
            family: family.name.into(),
            entry: spec.entry.into(),
            signature: spec.signature.clone(),
            description: spec.description.clone(),
            examples: shown,
            tests,
            reference: spec.reference.clone(),
            c: spec.c.clone(),
        };
        return (task, spec);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandboxed::python;

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
                            &crate::sandboxed::default_limits(),
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
                        crate::sandboxed::py_literal(&task.tests[0].expected)
                    );
                    let verdict = py
                        .judge(
                            &constant,
                            &task.entry,
                            &task.tests,
                            &crate::sandboxed::default_limits(),
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
