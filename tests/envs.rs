//! One test per registered env and preset: the env checker, the reward-hack
//! audit, and the golden hash of its first generated cards; and one per env:
//! its difficulty scale rises (`verigym levels ID` shows the measurements).
//!
//! Golden hashes live in `tests/golden/cards.txt`, one `ID@PRESET SHA256`
//! line each. A changed hash means generated tasks changed: bump the env's
//! version, then regenerate the file with
//! `VERIGYM_BLESS=1 cargo test --test envs`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use libtest_mimic::{Arguments, Failed, Trial};
use verigym::difficulty;
use verigym::envs::Registry;
use verigym::envs::card::sha256_hex;
use verigym::envs::checker::{CheckOptions, check_env, summarize};
use verigym::generate::generate_cards;

/// Audit flags known and accepted for now, by env (any preset) and probe,
/// with the reason. Anything flagged that is not listed fails the test.
/// Empty: the tool and web envs' infeasible verdicts carry evidence now.
const KNOWN_FLAGS: &[(&str, &str)] = &[];

/// Tasks measured per level in the harder-is-harder test.
const DIFFICULTY_TASKS: usize = 24;

/// Cards per preset in the golden hash.
const GOLDEN_CARDS: usize = 50;
const GOLDEN_SEED: u64 = 1;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/cards.txt")
}

fn cards_hash(registry: &Registry, id: &str) -> String {
    let env = registry
        .make(id, None)
        .expect("registered presets make envs");
    let jsonl: String = generate_cards(&*env, GOLDEN_SEED, GOLDEN_CARDS)
        .iter()
        .map(|c| c.to_json_line() + "\n")
        .collect();
    sha256_hex(jsonl.as_bytes())
}

/// Why the C code env cannot run here, if it cannot: its reference answer's score says.
fn c_toolchain_missing(registry: &Registry) -> Option<String> {
    let id = "code/functions-c-v1";
    let mut env = registry.make(id, None).ok()?;
    let card = env.generate(GOLDEN_SEED);
    env.reset(&card).ok()?;
    let answer = env.oracle_action(0)?;
    let step = env.step(0, &answer).ok()?;
    let score = env.score(0);
    (score.breakdown.get("sandbox_error") == Some(&1.0)).then(|| step.events.join("; "))
}

fn main() {
    let args = Arguments::from_args();
    let registry = Registry::builtin();
    if std::env::var_os("VERIGYM_BLESS").is_some() {
        let lines: String = registry
            .preset_ids()
            .iter()
            .map(|id| format!("{id} {}\n", cards_hash(&registry, id)))
            .collect();
        std::fs::write(golden_path(), lines).expect("write golden file");
        eprintln!("wrote {}", golden_path().display());
    }
    let golden: BTreeMap<String, String> = std::fs::read_to_string(golden_path())
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            l.split_once(' ')
                .map(|(id, h)| (id.to_string(), h.to_string()))
        })
        .collect();

    // Without clang + wasi-libc the C code env cannot run its reference: skip its
    // checker and audit (ignored, with the reason) instead of failing.
    let c_missing = c_toolchain_missing(&registry);
    if let Some(why) = &c_missing {
        eprintln!("skipping checker/audit of code/functions-c-*: {why}");
    }
    let mut trials = Vec::new();
    for id in registry.preset_ids() {
        let skip = c_missing.is_some() && id.starts_with("code/functions-c-");
        let registry_for_check = registry.clone();
        let check_id = id.clone();
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
        let registry_for_audit = registry.clone();
        let audit_id = id.clone();
        trials.push(
            Trial::test(format!("audit::{id}"), move || {
                let audit = verigym::audit::audit_env(&registry_for_audit, &audit_id, 100, 9)?;
                let env = audit_id.split('@').next().unwrap_or_default();
                let unknown = audit
                    .probes
                    .iter()
                    .filter(|p| p.flagged && !KNOWN_FLAGS.contains(&(env, p.probe.as_str())))
                    .count();
                if unknown == 0 {
                    Ok(())
                } else {
                    Err(verigym::audit::render(&[audit]).into())
                }
            })
            .with_ignored_flag(skip),
        );
        let registry_for_golden = registry.clone();
        let expected = golden.get(&id).cloned();
        trials.push(Trial::test(format!("golden::{id}"), move || {
            let actual = cards_hash(&registry_for_golden, &id);
            match expected {
                None => Err(format!("no golden hash for {id}: run VERIGYM_BLESS=1 cargo test --test envs").into()),
                Some(expected) if expected != actual => Err(format!(
                    "generated cards of {id} changed ({expected} -> {actual}). If this is deliberate, bump the env version and re-bless"
                )
                .into()),
                Some(_) => Ok(()),
            }
        }));
    }
    // One difficulty trial per env: its scale is real and higher levels are harder.
    for registration in registry.entries() {
        let id = registration.spec.id;
        let skip = c_missing.is_some() && id.starts_with("code/functions-c-");
        let registry_for_scale = registry.clone();
        trials.push(
            Trial::test(format!("difficulty::{id}"), move || {
                let report =
                    difficulty::measure_scale(&registry_for_scale, id, DIFFICULTY_TASKS, 3)?;
                difficulty::check_harder(&report).map_err(Failed::from)
            })
            .with_ignored_flag(skip),
        );
    }
    let known = registry.preset_ids();
    trials.push(Trial::test("golden::no_stale_entries", move || {
        let stale: Vec<&String> = golden.keys().filter(|k| !known.contains(k)).collect();
        if stale.is_empty() {
            Ok(())
        } else {
            Err(format!("golden entries for unregistered envs: {stale:?}").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}
