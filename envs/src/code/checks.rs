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
