//! The mutation check of the families' hidden tests (run in CI by the env gate's
//! `mutation::…` trials): every mutant of a task's reference ([`crate::code::mutants`])
//! must fail the task's hidden tests, unless it is shown equivalent.
//!
//! A mutant that passes the hidden tests is run again on a stress set: the hidden tests
//! plus [`STRESS_CASES`] more inputs drawn from the same function's generator (boundary
//! cases included), expected outputs from the Rust mirror. Killed there, it is a **weak**
//! spot of the hidden tests: the check fails and names it. Passing even the stress set,
//! it is **equivalent** on the task's input domain as far as the stress set shows: the
//! hidden tests are then as strong as the generator itself, and the check passes. Such
//! mutants are listed in the trial's output; [`EQUIVALENT`] holds the reviewed ones with
//! the reason each changes nothing, and the rest are marked unreviewed.

use verigym_sandbox::{Language, Limits, Verdict};

use super::{Family, FnTask, TestCase, build_task_and_spec};
use crate::code::mutants::{Mutant, MutationReport, check_mutants};
use crate::rng::Rng;
use crate::sandboxed::{c_runtime, default_limits, python};

/// Extra inputs a surviving mutant is run on.
pub const STRESS_CASES: usize = 300;

/// Mutants reviewed as changing nothing on a family's inputs: (family, language, a
/// substring of the mutated line, why).
pub const EQUIVALENT: &[(&str, Language, &str, &str)] = &[
    (
        "rotate_letters",
        Language::Python,
        "(ord(c) + 65 +",
        "ord(c) + 65 ≡ ord(c) - 65 (mod 26): 130 = 5 × 26",
    ),
    (
        "word_counts",
        Language::Python,
        "if c >= 0}",
        "a counted word occurs at least once: c >= 0 keeps what c >= 1 keeps",
    ),
    (
        "word_counts",
        Language::Python,
        "if len(w) >= 0",
        "split() never yields an empty word",
    ),
    (
        "reachable",
        Language::Python,
        "range((n) + 1)",
        "one more adjacency list, never indexed",
    ),
    (
        "count_climbs",
        Language::Python,
        "ways = [1] + [1] * n",
        "every ways[i], i ≥ 1, is assigned before it is read",
    ),
    (
        "count_climbs",
        Language::Python,
        "range(2, n + 1)",
        "no step is 1, so ways[1] is 0 either way",
    ),
    (
        "count_climbs",
        Language::Python,
        "range((1) + 1, n + 1)",
        "no step is 1, so ways[1] is 0 either way",
    ),
    (
        "count_climbs",
        Language::C,
        "int64_t i = 2;",
        "no step is 1, so ways[1] is 0 either way",
    ),
    (
        "count_climbs",
        Language::C,
        "ways[100001]",
        "n stays far below the array size at every level",
    ),
    (
        "count_climbs",
        Language::C,
        "ways[99999]",
        "n stays far below the array size at every level",
    ),
    (
        "min_coins",
        Language::C,
        "best[100001]",
        "amount stays far below the array size at every level",
    ),
    (
        "min_coins",
        Language::C,
        "best[99999]",
        "amount stays far below the array size at every level",
    ),
    (
        "min_coins",
        Language::Python,
        "best[a - c] + 0 < best[a]",
        "integers: x < y updates exactly when x + 1 < y improves, or y = x + 1 (a no-op)",
    ),
    (
        "min_coins",
        Language::Python,
        "best[a - c] + 1 <= best[a]",
        "on equality the update writes the same value",
    ),
];

/// What the check found for one task.
#[derive(Debug)]
pub struct FamilyCheck {
    pub task: FnTask,
    pub language: Language,
    pub report: MutationReport,
    /// Survived the hidden tests, killed by the stress set: the hidden tests are too weak.
    pub weak: Vec<Mutant>,
    /// Survived the stress set too, with the [`EQUIVALENT`] reason when listed.
    pub equivalent: Vec<(Mutant, Option<&'static str>)>,
    /// Survivors the stress set could not judge (e.g. out of fuel), with the reason.
    pub undecided: Vec<(Mutant, String)>,
}

impl FamilyCheck {
    /// `Ok` when no mutant is weak or undecided; else a report naming them.
    pub fn verdict(&self) -> Result<(), String> {
        let mut problems = String::new();
        for m in &self.weak {
            problems.push_str(&format!("  survives the hidden tests: {m}\n"));
        }

        for (m, why) in &self.undecided {
            problems.push_str(&format!("  undecided ({why}): {m}\n"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} ({:?}), reference:\n{}\n{problems}",
                self.task.family,
                self.language,
                reference(&self.task, self.language)
            ))
        }
    }
}

impl FamilyCheck {
    /// The mutants that survived the stress set, one line each, with the reviewed reason
    /// or `unreviewed`.
    pub fn equivalents(&self) -> String {
        self.equivalent
            .iter()
            .map(|(m, why)| format!("  {m}: {}\n", why.unwrap_or("unreviewed")))
            .collect()
    }
}

fn reference(task: &FnTask, language: Language) -> &str {
    match language {
        Language::Python => &task.reference,
        Language::C | Language::Cpp => task.c.as_ref().map_or("", |c| c.reference.as_str()),
    }
}

/// Runs `src` on `tests` in the sandbox, as the env judges it (Python, or C when the task
/// has a C part).
fn judge(
    task: &FnTask,
    language: Language,
    src: &str,
    tests: &[TestCase],
    limits: &Limits,
) -> Result<Verdict, String> {
    match language {
        Language::Python => python()?
            .judge(src, &task.entry, tests, limits, 1e-9)
            .map_err(|e| e.to_string()),
        Language::C | Language::Cpp => {
            let c = task.c.as_ref().ok_or("the family has no C reference")?;
            c_runtime()?
                .judge(src, &c.signature, tests, limits, 0.0)
                .map_err(|e| e.to_string())
        }
    }
}

/// Draws a task of `family` at `level` from `seed` (with `hidden` random hidden tests, as
/// the env does) and checks its `language` reference's mutants against its hidden tests.
///
/// # Errors
/// The sandbox or the toolchain is unavailable, or the reference fails its own tests.
pub fn check_family(
    family: &Family,
    language: Language,
    level: u8,
    hidden: usize,
    seed: u64,
) -> Result<FamilyCheck, String> {
    let mut rng = Rng::from_seed(seed);
    let (task, spec) = build_task_and_spec(family, level, 3, hidden, &mut rng);
    let limits = default_limits();
    let report = check_mutants(language, reference(&task, language), |src| {
        judge(&task, language, src, &task.tests, &limits)
    })
    .map_err(|e| format!("{}: {e}", family.name))?;
    let mut stress = task.tests.clone();
    stress.extend((0..STRESS_CASES).map(|_| {
        let args = (spec.args)(&mut rng);
        let expected = (spec.solve)(&args);
        TestCase { args, expected }
    }));
    let stress_limits = Limits {
        fuel: limits.fuel * 50,
        wall_ms: limits.wall_ms * 6,
        ..limits
    };
    let mut check = FamilyCheck {
        task,
        language,
        report,
        weak: Vec::new(),
        equivalent: Vec::new(),
        undecided: Vec::new(),
    };
    for mutant in check.report.survivors.clone() {
        match judge(
            &check.task,
            language,
            &mutant.source,
            &stress,
            &stress_limits,
        ) {
            Ok(Verdict::Passed) => {
                let why = EQUIVALENT
                    .iter()
                    .find(|(f, l, line, _)| {
                        *f == family.name && *l == language && mutant.line_text().contains(line)
                    })
                    .map(|e| e.3);
                check.equivalent.push((mutant, why));
            }
            Ok(Verdict::OutOfFuel | Verdict::Timeout) | Err(_) => {
                check
                    .undecided
                    .push((mutant, "the stress set ran out of budget".into()));
            }
            Ok(_) => check.weak.push(mutant),
        }
    }
    Ok(check)
}
