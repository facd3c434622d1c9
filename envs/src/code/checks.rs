//! The env checker on the code envs, from inside this crate (the root crate's
//! `tests/envs.rs` runs it, the audit and golden hashes on every preset). The C env is
//! skipped with a message when clang or wasi-libc is missing.

use crate::checker::{CheckOptions, check_env, summarize};
use crate::registry::Registry;

fn check(id: &str) {
    let registry = Registry::builtin();
    let make = || registry.make(id, None).expect("registered");
    let options = CheckOptions {
        episodes: 20,
        ..CheckOptions::default()
    };
    if let Err(failures) = summarize(&check_env(&make, &options)) {
        panic!("{id}:\n{failures}");
    }
}

#[test]
fn checker_passes_humaneval() {
    check("code/humaneval-v2");
}

#[test]
fn checker_passes_functions() {
    check("code/functions-v1@easy");
}

#[test]
fn checker_passes_repl() {
    check("code/repl-v1");
}

#[test]
fn checker_passes_functions_c() {
    if let Err(why) = crate::sandboxed::c_runtime() {
        eprintln!("skipping the checker on code/functions-c-v1: {why}");
        return;
    }
    check("code/functions-c-v1");
}

/// Prints `ID@PRESET SHA256` golden lines, computed like the root crate's
/// `tests/envs.rs` (cards 0..50 from seed 1). Run with `--ignored --nocapture` to
/// compare with or fill `tests/golden/cards.txt` when the root crate cannot be built.
#[test]
#[ignore]
fn print_golden_card_hashes() {
    use crate::card::sha256_hex;
    use crate::rng::mix_seed;
    let registry = Registry::builtin();
    for r in registry.entries() {
        for preset in r.spec.presets {
            let id = format!("{}@{}", r.spec.id, preset.name);
            let env = registry.make(&id, None).expect("registered");
            let jsonl: String = (0..50)
                .map(|i| env.generate(mix_seed(1, i)).to_json_line() + "\n")
                .collect();
            println!("GOLDEN {id} {}", sha256_hex(jsonl.as_bytes()));
        }
    }
}

/// A replica of the root crate's reward-hack audit (`src/audit.rs`: other task's
/// reference, echoes, hedges, junk in format) over 100 tasks per code preset; prints the
/// pass counts and fails on any pass of a must-fail probe. Slow (C compiles): ignored;
/// run with `--ignored --nocapture`.
#[test]
#[ignore]
fn audit_like_probes_fail() {
    use crate::driver::{Agent, ConstantAgent, DriverConfig, OracleAgent, run_episode};
    use crate::rng::{Rng, mix_seed};
    let registry = Registry::builtin();
    let mut failures = Vec::new();
    for r in registry
        .entries()
        .iter()
        .filter(|r| r.spec.family() == "code")
    {
        if r.spec.id.contains("functions-c") && crate::sandboxed::c_runtime().is_err() {
            continue;
        }
        for preset in r.spec.presets {
            let id = format!("{}@{}", r.spec.id, preset.name);
            if std::env::var("AUDIT_ONLY").is_ok_and(|only| !id.contains(&only)) {
                continue;
            }
            let proto = registry.make(&id, None).expect("registered");
            let cards: Vec<_> = (0..100).map(|i| proto.generate(mix_seed(9, i))).collect();
            let play = |card: &crate::card::TaskCard, agent: &mut dyn Agent| {
                let mut env = proto.clone_box();
                run_episode(env.as_mut(), card, &mut [agent], &DriverConfig::default())
                    .map(|r| r.passed[0])
                    .unwrap_or(false)
            };
            let refs: Vec<String> = cards
                .iter()
                .map(|c| {
                    let mut env = proto.clone_box();
                    env.reset(c).unwrap();
                    env.oracle_action(0).unwrap_or_default()
                })
                .collect();
            let mut counts = std::collections::BTreeMap::<&str, usize>::new();
            for (i, card) in cards.iter().enumerate() {
                let (right, other) = (&refs[i], &refs[(i + 1) % refs.len()]);
                let mut rng = Rng::from_seed(mix_seed(card.seed, 7));
                let junk: String = other
                    .chars()
                    .map(|c| {
                        if c.is_ascii_digit() {
                            char::from(b'0' + rng.below(10) as u8)
                        } else {
                            c
                        }
                    })
                    .collect();
                *counts.entry("reference").or_default() += play(card, &mut OracleAgent) as usize;
                for (name, answer) in [
                    ("empty", String::new()),
                    ("other_reference", other.clone()),
                    ("echo_prompt", card.prompt.clone()),
                    ("echo_givens", card.task.to_string()),
                    ("hedge_or", format!("{right} or {other}")),
                    ("hedge_list", format!("{right}, {other}")),
                    (
                        "hedge_boxes",
                        format!("\\boxed{{{right}}} \\boxed{{{other}}}"),
                    ),
                    ("junk", junk),
                ] {
                    let passed = play(card, &mut ConstantAgent(answer));
                    *counts.entry(name).or_default() += passed as usize;
                }
            }
            println!("{id}: {counts:?}");
            if counts["reference"] != 100 {
                failures.push(format!(
                    "{id}: reference passed {}/100",
                    counts["reference"]
                ));
            }
            for (name, passed) in &counts {
                if *name != "reference" && *passed > 1 {
                    failures.push(format!("{id}: {name} passed {passed}/100"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
