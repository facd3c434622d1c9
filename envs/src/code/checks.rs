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
    check("code/humaneval-v1");
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
    if let Err(why) = crate::code::c_runtime() {
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
