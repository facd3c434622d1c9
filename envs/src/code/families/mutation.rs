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
//! the reason each changes nothing, and the rest are marked unreviewed. Each entry was
//! reviewed by reasoning about the mutated line and, where the reason depends on the task
//! (its residue class, coins, modulus), by comparing a host mirror of the mutated
//! algorithm with the family's Rust mirror on every input the trial's task can draw.

use verigym_sandbox::{Language, Limits, Verdict};

use super::{Family, FnTask, TestCase, build_task_and_spec};
use crate::code::mutants::{Mutant, MutationError, MutationReport, check_mutants};
use crate::rng::Rng;
use crate::sandboxed::{SandboxedError, c_runtime, default_limits, python};

/// Extra inputs a surviving mutant is run on.
pub const STRESS_CASES: usize = 300;

/// The `mutation::…` trials' levels with the hidden-test count of the matching preset
/// (`easy`, `medium`, `hard`); level `l` draws its task from seed [`TRIAL_SEED`] + `l`.
pub const TRIAL_LEVELS: [(u8, usize); 3] = [(1, 15), (2, 20), (3, 30)];
pub const TRIAL_SEED: u64 = 17;

// Reasons shared by several entries of [`EQUIVALENT`]. "The trial's tasks" are the ones the
// `mutation::…` trials draw ([`TRIAL_LEVELS`], [`TRIAL_SEED`]); a reason that depends on
// the task says which property of those tasks makes the mutant equivalent.
const PRIME_TWO: &str = "2 no longer counts, which matters only when 2 is in the class, i.e. \
    r = 2 (k >= 3); the trial's tasks have r = 5 (level 1) and r = 4 (level 2); with r = 2 \
    (level 3) the edge [-5, 2] kills it";
const PRIME_ONE: &str = "1 is now counted as a prime (nothing below it is), which matters \
    only when 1 is in the class, i.e. r = 1; the trial's tasks have r = 5, 4, 2; with r = 1 \
    the edge [1, 1] kills it";
const PRIME_ODD_DIVISORS: &str = "no even divisor is tried, so only even composites change; \
    with k even, r (coprime to k) is odd and the class holds no even number: the trial's \
    level-1 task has k = 8 (with k odd the edge [-5, 140] holds an even composite of the \
    class and kills it)";
const PRIME_SQUARES: &str = "only squares of primes change (any other composite n has a \
    divisor d with d * d < n); the class holds no prime square when r is not a square \
    modulo k: the trial's tasks at levels 1 and 3 have (k, r) = (8, 5) (odd squares are 1 \
    mod 8, and 2 * 2 = 4) and (3, 2) (squares are 0 or 1 mod 3); otherwise the edges hold \
    [q * q, q * q] for a prime q with q * q in the class and kill it";
const PRIME_SAME_START: &str = "lo = 2 starts the loop at 2 either way";
const CLIMBS_SMALL: &str = "the counts stay below 1008 on the task's inputs (the trial's \
    level-1 task: steps [3, 6, 8], n <= 25, at most 38 ways), so reducing modulo 1008, 1009 \
    or 1010 changes nothing";
const COINS_NOT_ONE: &str = "coins are at least 2, so no coin fits amount 1 and best[1] stays \
    unreachable either way";
const COINS_NOT_ZERO: &str = "coins are at least 2, so no coin fits amount 0 (c <= 0 fails) \
    and best[0] stays 0";
const COINS_TIES: &str = "also updates when best[a - c] equals best[a] (to a worse count) or \
    best[a] - 1 (a no-op); the first needs a later, larger coin whose remainder takes as many \
    coins as the best so far, which no amount of the trial's tasks has (coins [5, 19, 20] to \
    30, [2, 3, 11] to 120, [8, 21] to 2000; every amount checked against the mirror)";
const COINS_BY_TWO: &str = "misses an update only where a later coin improves the count by \
    exactly one, which no amount of the trial's level-1 and level-3 tasks has (coins \
    [5, 19, 20] to 30, [8, 21] to 2000; every amount checked against the mirror); at level 2 \
    ([2, 3, 11]) the hidden tests kill it";
const COINS_NO_OP: &str =
    "integers: x < y updates exactly when x + 1 < y improves, or y = x + 1 (a no-op)";
const COINS_EQUAL: &str = "on equality the update writes the same value";
const ARRAY_SIZE: &str = "amount stays far below the array size at every level";

/// Mutants reviewed as changing nothing on a family's inputs: (family, language, a
/// substring of the mutated line, why).
pub const EQUIVALENT: &[(&str, Language, &str, &str)] = &[
    ("count_primes", Language::Python, "if n <= 2:", PRIME_TWO),
    ("count_primes", Language::Python, "if n < 3:", PRIME_TWO),
    ("count_primes", Language::Python, "if n < 1:", PRIME_ONE),
    (
        "count_primes",
        Language::Python,
        "d = 3",
        PRIME_ODD_DIVISORS,
    ),
    (
        "count_primes",
        Language::Python,
        "while d * d < n:",
        PRIME_SQUARES,
    ),
    (
        "count_primes",
        Language::C,
        "p = lo <= 2 ? 2 : lo;",
        PRIME_SAME_START,
    ),
    (
        "count_primes",
        Language::C,
        "p = lo < 3 ? 2 : lo;",
        PRIME_SAME_START,
    ),
    (
        "count_primes",
        Language::C,
        "p = lo < 1 ? 2 : lo;",
        PRIME_ONE,
    ),
    (
        "count_primes",
        Language::C,
        "p = lo < 2 ? 1 : lo;",
        PRIME_ONE,
    ),
    (
        "count_primes",
        Language::C,
        "p = lo < 2 ? 3 : lo;",
        PRIME_TWO,
    ),
    (
        "count_primes",
        Language::C,
        "int64_t d = 3; d * d <= p;",
        PRIME_ODD_DIVISORS,
    ),
    (
        "count_primes",
        Language::C,
        "int64_t d = 2; d * d < p;",
        PRIME_SQUARES,
    ),
    (
        "count_climbs",
        Language::Python,
        "if s <= i) % 1010",
        CLIMBS_SMALL,
    ),
    (
        "count_climbs",
        Language::Python,
        "if s <= i) % 1008",
        CLIMBS_SMALL,
    ),
    (
        "count_climbs",
        Language::C,
        "ways[i - steps[j]]) % 1010;",
        CLIMBS_SMALL,
    ),
    (
        "count_climbs",
        Language::C,
        "ways[i - steps[j]]) % 1008;",
        CLIMBS_SMALL,
    ),
    (
        "min_coins",
        Language::Python,
        "for a in range(2, amount + 1):",
        COINS_NOT_ONE,
    ),
    (
        "min_coins",
        Language::Python,
        "for a in range((1) + 1, amount + 1):",
        COINS_NOT_ONE,
    ),
    (
        "min_coins",
        Language::Python,
        "for a in range(0, amount + 1):",
        COINS_NOT_ZERO,
    ),
    (
        "min_coins",
        Language::Python,
        "for a in range((1) - 1, amount + 1):",
        COINS_NOT_ZERO,
    ),
    (
        "min_coins",
        Language::Python,
        "best[a - c] - 1 < best[a]",
        COINS_TIES,
    ),
    (
        "min_coins",
        Language::Python,
        "best[a - c] + 2 < best[a]",
        COINS_BY_TWO,
    ),
    (
        "min_coins",
        Language::C,
        "best[a - c] - 1 < best[a]",
        COINS_TIES,
    ),
    (
        "min_coins",
        Language::C,
        "best[a - c] + 2 < best[a]",
        COINS_BY_TWO,
    ),
    (
        "min_coins",
        Language::C,
        "best[a - c] + 0 < best[a]",
        COINS_NO_OP,
    ),
    (
        "min_coins",
        Language::C,
        "best[a - c] + 1 <= best[a]",
        COINS_EQUAL,
    ),
    (
        "min_coins",
        Language::C,
        "best[1] = 0;",
        "best is a static array, zeroed in each case's fresh instance and never written at 0 \
         again, so best[0] is 0 anyway; best[1] is set to -1 (no coin is 1) before it is \
         read, and amount 0 returns best[0]",
    ),
    (
        "min_coins",
        Language::C,
        "(best[a] <= 0 ||",
        "for a >= 1, best[a] is -1 or a count of at least 1, never 0",
    ),
    (
        "min_coins",
        Language::C,
        "(best[a] < 1 ||",
        "for a >= 1, best[a] is -1 or a count of at least 1, never 0",
    ),
    (
        "min_coins",
        Language::C,
        "best[a + c] + 1 < best[a]",
        "reads a cell above a, not yet written in this case's fresh instance, so 0: best[a] \
         then takes the last (largest) coin whose remainder is reachable, unless a is itself \
         a coin; on the trial's coin lists that choice is optimal at every amount ([5, 19, 20] \
         to 30, [2, 3, 11] to 120, [8, 21] to 2000; every amount checked against the mirror)",
    ),
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
    ("min_coins", Language::C, "best[100001]", ARRAY_SIZE),
    ("min_coins", Language::C, "best[99999]", ARRAY_SIZE),
    (
        "min_coins",
        Language::Python,
        "best[a - c] + 0 < best[a]",
        COINS_NO_OP,
    ),
    (
        "min_coins",
        Language::Python,
        "best[a - c] + 1 <= best[a]",
        COINS_EQUAL,
    ),
];

/// Why a family could not be checked: its reference fails its own tests, or the sandbox
/// gave no verdict on it.
#[derive(Debug, thiserror::Error)]
#[error("{family}: {source}")]
pub struct FamilyCheckError {
    pub family: &'static str,
    #[source]
    pub source: MutationError,
}

/// The hidden tests of a family that the mutation check found weak: the reference, then
/// one line per weak or undecided mutant.
#[derive(Debug, thiserror::Error)]
#[error("{family} ({language:?}), reference:\n{reference}\n{problems}")]
pub struct WeakTests {
    pub family: String,
    pub language: Language,
    pub reference: String,
    pub problems: String,
}

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
    ///
    /// # Errors
    /// [`WeakTests`] naming each weak or undecided mutant.
    pub fn verdict(&self) -> Result<(), WeakTests> {
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
            Err(WeakTests {
                family: self.task.family.clone(),
                language: self.language,
                reference: reference(&self.task, self.language).to_string(),
                problems,
            })
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
) -> Result<Verdict, SandboxedError> {
    match language {
        Language::Python => python()?
            .judge(src, &task.entry, tests, limits, 1e-9)
            .map_err(SandboxedError::run),
        Language::C | Language::Cpp => {
            let c = task
                .c
                .as_ref()
                .ok_or_else(|| SandboxedError::bad_task("the family has no C reference"))?;
            c_runtime()?
                .judge(src, &c.signature, tests, limits, 0.0)
                .map_err(SandboxedError::run)
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
) -> Result<FamilyCheck, FamilyCheckError> {
    let mut rng = Rng::from_seed(seed);
    let (task, spec) = build_task_and_spec(family, level, 3, hidden, &mut rng);
    let limits = default_limits();
    let report = check_mutants(language, reference(&task, language), |src| {
        judge(&task, language, src, &task.tests, &limits)
    })
    .map_err(|source| FamilyCheckError {
        family: family.name,
        source,
    })?;
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
