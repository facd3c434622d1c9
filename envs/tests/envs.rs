//! The env gate: one trial per registered env and preset for the env
//! checker, the reward-hack audit and the golden file; one per env for its
//! difficulty scale (`verigym levels ID` shows the measurements), for the
//! `//!` headings its file opens with, and for its action parser under
//! fuzzed input (`gate/parsers.rs`).
//!
//! ```text
//! cargo test -p verigym-envs --test envs                  # every trial
//! cargo test -p verigym-envs --test envs logic/sudoku     # one env's trials
//! cargo test -p verigym-envs --test envs golden           # the golden files only
//! ```
//!
//! Golden files live in `tests/golden/FAMILY/NAME-vN.txt`, one per env
//! (format: `verigym_envs::testing::golden`). A changed file means generated
//! tasks or the reference play changed: bump the env's version with a
//! CHANGELOG line, then regenerate the files the filter selects with
//! `VERIGYM_BLESS=1 cargo test -p verigym-envs --test envs golden[::ID]`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use rayon::prelude::*;
use verigym_envs::Registry;
use verigym_envs::testing::checker::{CheckOptions, check_env, summarize};
use verigym_envs::testing::golden::{self, BLESS_COMMAND};
use verigym_envs::testing::{audit, difficulty};

#[path = "gate/parsers.rs"]
mod parsers;

/// Audit flags known and accepted for now, by env (any preset) and probe,
/// with the reason. Anything flagged that is not listed fails the test.
const KNOWN_FLAGS: &[(&str, &str)] = &[];

/// Tasks per preset in the audit, and their seed.
const AUDIT_TASKS: usize = 60;
const AUDIT_SEED: u64 = 9;

/// Tasks measured per level in the harder-is-harder test, and their seed.
const DIFFICULTY_TASKS: usize = 24;
const DIFFICULTY_SEED: u64 = 3;

/// Lines of diff shown when a golden section changed.
const DIFF_LINES: usize = 60;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Why a C or C++ code env (`id`) cannot run here, if it cannot: its reference answer's
/// score says.
fn toolchain_missing(registry: &Registry, id: &str) -> Option<String> {
    let mut env = registry.make(id, None).ok()?;
    let card = env.generate(golden::GOLDEN_SEED);
    env.reset(&card).ok()?;
    let answer = env.oracle_action(0)?;
    let step = env.step(0, &answer).ok()?;
    let score = env.score(0);
    (score.breakdown.get("sandbox_error") == Some(&1.0)).then(|| step.events.join("; "))
}

/// Whether libtest's name filter selects a trial name (substring match, as
/// libtest does without `--exact`).
fn selected(args: &Arguments, name: &str) -> bool {
    match &args.filter {
        None => true,
        Some(filter) if args.exact => name == filter,
        Some(filter) => name.contains(filter.as_str()),
    }
}

/// Rewrites the golden file of every env with a selected golden trial.
fn bless(registry: &Registry, args: &Arguments) {
    let written: Vec<String> = registry
        .entries()
        .par_iter()
        .filter(|r| {
            r.spec
                .presets
                .iter()
                .any(|p| selected(args, &format!("golden::{}@{}", r.spec.id, p.name)))
        })
        .map(|r| {
            let path = golden_dir().join(golden::file_name(r.spec.id));
            let text = golden::env_file(registry, r)
                .unwrap_or_else(|e| panic!("cannot render the golden file of {}: {e}", r.spec.id));
            std::fs::create_dir_all(path.parent().expect("a family folder"))
                .expect("create the golden folder");
            std::fs::write(&path, text).expect("write a golden file");
            r.spec.id.to_string()
        })
        .collect();
    eprintln!("rewrote {} golden files", written.len());
}

/// Every golden file under `dir`, by env id.
fn golden_files(dir: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let Ok(families) = std::fs::read_dir(dir) else {
        return files;
    };
    for family in families.flatten() {
        for file in std::fs::read_dir(family.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let path = file.path();
            if let (Some(stem), Ok(text)) = (
                path.file_stem().and_then(|s| s.to_str()),
                std::fs::read_to_string(&path),
            ) {
                let id = format!("{}/{stem}", family.file_name().to_string_lossy());
                files.insert(id, text);
            }
        }
    }
    files
}

/// The golden trial of one `ID@PRESET`: its section of the env's file must
/// equal what the env produces now (without the oracle episode when
/// `cards_only`), and a difference is shown as a diff.
fn check_golden(
    registry: &Registry,
    id: &str,
    expected: Option<&str>,
    cards_only: bool,
) -> Result<(), Failed> {
    let Some(expected) = expected else {
        return Err(format!("no golden section for {id}: run {BLESS_COMMAND}").into());
    };
    let actual = golden::preset_section(registry, id, !cards_only)?;
    let expected = if cards_only {
        golden::without_episode(expected)
    } else {
        expected
    };
    if actual == expected {
        return Ok(());
    }
    let hash = |section| golden::hash_line(section).and_then(|l| l.split(' ').nth(1));
    let what = match (hash(expected), hash(&actual)) {
        (Some(old), Some(new)) if old != new => format!(
            "the generated cards of {id} changed ({old} -> {new}). If this is deliberate, bump the env version, add a CHANGELOG line and run {BLESS_COMMAND}"
        ),
        _ => format!(
            "card 0 or the oracle episode of {id} changed (the card hash did not). If this is deliberate, run {BLESS_COMMAND}"
        ),
    };
    Err(format!(
        "{what}\n--- expected (its section of the golden file)\n+++ actual\n{}",
        golden::line_diff(expected, &actual, DIFF_LINES)
    )
    .into())
}

/// The `//!` headings every env file opens with, in this order (CONTRIBUTING.md).
const HEADINGS: &[&str] = &[
    "Task",
    "Action",
    "Observation",
    "Reward",
    "Episode end",
    "Parameters",
    "Seeding",
    "Version history",
];

/// The source file that declares env `id` (`id: "ID"` in its `SPEC`), searched
/// under the env's family folder.
fn env_source(id: &str) -> Option<PathBuf> {
    let family = id.split('/').next()?;
    let needle = format!("id: \"{id}\"");
    let mut stack = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join(family),
    ];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| text.contains(&needle))
            {
                return Some(path);
            }
        }
    }
    None
}

/// The env file's opening `//!` block holds every heading of [`HEADINGS`], in order.
fn check_headings(id: &str) -> Result<(), Failed> {
    let path =
        env_source(id).ok_or_else(|| format!("no file under envs/src declares `id: \"{id}\"`"))?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let found: Vec<&str> = text
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .filter_map(|line| line.strip_prefix("//! # "))
        .map(str::trim)
        .filter(|heading| HEADINGS.contains(heading))
        .collect();
    if found == HEADINGS {
        check_reading_rule(&path, &text)
    } else {
        Err(format!(
            "{} opens with the `//! # ` headings {found:?}; an env file opens with {HEADINGS:?}, in this order (see CONTRIBUTING.md)",
            path.display()
        )
        .into())
    }
}

/// Phrases by which an env's `# Action` section names the rule that reads the
/// answer or action out of a whole reply.
const READING_RULES: &[&str] = &[
    "crate::single_turn",
    "crate::reply",
    "last `\\boxed",
    "last fenced block",
];

/// The `# Action` section says how the answer is read out of a reply.
fn check_reading_rule(path: &std::path::Path, text: &str) -> Result<(), Failed> {
    let action: String = text
        .lines()
        .take_while(|line| line.starts_with("//!"))
        .skip_while(|line| !line.starts_with("//! # Action"))
        .skip(1)
        .take_while(|line| !line.starts_with("//! # "))
        .collect::<Vec<_>>()
        .join(" ");
    if READING_RULES.iter().any(|rule| action.contains(rule)) {
        Ok(())
    } else {
        Err(format!(
            "{}: its `//! # Action` section does not say how the answer is read out of a reply (none of {READING_RULES:?}); name the rule, e.g. `crate::single_turn` or `crate::reply`",
            path.display()
        )
        .into())
    }
}

/// One mutation trial per code family and language (`mutation::python/NAME`,
/// `mutation::c/NAME`): at each level, with the hidden-test count of the matching preset
/// (`easy`, `medium`, `hard`), every mutant of a task's reference that passes its hidden
/// tests also passes a stress set of 300 more generated inputs (it is equivalent on the
/// task's inputs: `verigym_envs::code::families::mutation`). `--nocapture` lists those.
#[cfg(feature = "sandbox")]
fn mutation_trials(trials: &mut Vec<Trial>, c_missing: bool) {
    use verigym_envs::code::families::{FAMILIES, mutation};
    use verigym_sandbox::Language;
    for family in FAMILIES {
        let languages: &[Language] = if family.has_c {
            &[Language::Python, Language::C]
        } else {
            &[Language::Python]
        };
        for &language in languages {
            let name = format!("mutation::{}/{}", language.name(), family.name);
            let skip = language == Language::C && c_missing;
            trials.push(
                Trial::test(name, move || {
                    let mut failures = String::new();
                    for (level, hidden) in mutation::TRIAL_LEVELS {
                        let check = mutation::check_family(
                            family,
                            language,
                            level,
                            hidden,
                            mutation::TRIAL_SEED + u64::from(level),
                        )?;
                        if let Err(why) = check.verdict() {
                            failures.push_str(&format!("level {level}: {why}\n"));
                        }
                        let equivalents = check.equivalents();
                        if !equivalents.is_empty() {
                            println!(
                                "{} level {level}: survived the stress set too:\n{equivalents}",
                                family.name
                            );
                        }
                    }
                    if failures.is_empty() {
                        Ok(())
                    } else {
                        Err(failures.into())
                    }
                })
                .with_ignored_flag(skip),
            );
        }
    }
}

#[cfg(not(feature = "sandbox"))]
fn mutation_trials(_: &mut Vec<Trial>, _: bool) {}

fn main() {
    let args = Arguments::from_args();
    let registry = Registry::builtin();
    if std::env::var_os("VERIGYM_BLESS").is_some() {
        bless(&registry, &args);
    }
    let files = golden_files(&golden_dir());
    let sections: BTreeMap<String, String> =
        files.values().flat_map(|f| golden::sections(f)).collect();

    // Without clang + wasi-libc (and libc++) the C and C++ code envs cannot run
    // their references: skip their checker and audit (ignored, with the reason),
    // and compare their golden cards but not their oracle episodes, instead of failing.
    let missing: Vec<&str> = [
        ("code/functions-c-", "code/functions-c-v2"),
        ("code/functions-cpp-", "code/functions-cpp-v1"),
    ]
    .into_iter()
    .filter_map(|(prefix, id)| {
        let why = toolchain_missing(&registry, id)?;
        eprintln!("skipping checker/audit and the golden oracle episode of {prefix}*: {why}");
        Some(prefix)
    })
    .collect();
    let needs_c = |id: &str| missing.iter().any(|prefix| id.starts_with(prefix));
    let mut trials = Vec::new();
    for id in registry.preset_ids() {
        let skip = needs_c(&id);
        let (registry_for_check, check_id) = (registry.clone(), id.clone());
        trials.push(
            Trial::test(format!("checker::{id}"), move || {
                let make = || {
                    registry_for_check
                        .make(&check_id, None)
                        .expect("registered presets make envs")
                };
                summarize(&check_env(&make, &CheckOptions::default())).map_err(Failed::from)
            })
            .with_ignored_flag(skip),
        );
        let (registry_for_audit, audit_id) = (registry.clone(), id.clone());
        trials.push(
            Trial::test(format!("audit::{id}"), move || {
                let audit =
                    audit::audit_env(&registry_for_audit, &audit_id, AUDIT_TASKS, AUDIT_SEED)?;
                let env = audit_id.split('@').next().unwrap_or_default();
                let unknown = audit
                    .probes
                    .iter()
                    .filter(|p| p.flagged && !KNOWN_FLAGS.contains(&(env, p.probe.as_str())))
                    .count();
                if unknown == 0 {
                    Ok(())
                } else {
                    Err(audit.to_string().into())
                }
            })
            .with_ignored_flag(skip),
        );
        let registry_for_golden = registry.clone();
        let expected = sections.get(&id).cloned();
        trials.push(Trial::test(format!("golden::{id}"), move || {
            check_golden(&registry_for_golden, &id, expected.as_deref(), skip)
        }));
    }
    // One difficulty trial per env: its scale is real and higher levels are harder.
    // One headings trial per env: its file documents the contract in the recipe's order.
    for registration in registry.entries() {
        let id = registration.spec.id;
        trials.push(Trial::test(format!("headings::{id}"), move || {
            check_headings(id)
        }));
        let registry_for_fuzz = registry.clone();
        trials.push(
            Trial::test(format!("parsers::{id}"), move || {
                parsers::fuzz_env(&registry_for_fuzz, id).map_err(Failed::from)
            })
            .with_ignored_flag(needs_c(id)),
        );
        let registry_for_scale = registry.clone();
        trials.push(
            Trial::test(format!("difficulty::{id}"), move || {
                let report = difficulty::measure_scale(
                    &registry_for_scale,
                    id,
                    DIFFICULTY_TASKS,
                    DIFFICULTY_SEED,
                )?;
                difficulty::check_harder(&report).map_err(Failed::from)
            })
            .with_ignored_flag(needs_c(id)),
        );
    }
    mutation_trials(&mut trials, missing.contains(&"code/functions-c-"));
    // Every golden file and section belongs to a registered env and preset.
    // Without the `sandbox` feature the code envs are not registered, so
    // their files cannot be told from stale ones.
    let known = registry.preset_ids();
    trials.push(
        Trial::test("golden::no_stale_files", move || {
            let stale: Vec<&String> = sections.keys().filter(|k| !known.contains(k)).collect();
            let empty: Vec<&String> = files
                .iter()
                .filter(|(_, text)| golden::sections(text).is_empty())
                .map(|(id, _)| id)
                .collect();
            if stale.is_empty() && empty.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "golden sections of unregistered envs or presets {stale:?} and files without sections {empty:?} under {}: delete them",
                    golden_dir().display()
                )
                .into())
            }
        })
        .with_ignored_flag(!cfg!(feature = "sandbox")),
    );
    libtest_mimic::run(&args, trials).exit();
}
