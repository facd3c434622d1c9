//! Which envs of a suite can run on this machine: the code and self-play
//! envs need a sandbox runtime (CPython in WASM, or clang for WASI) that a
//! fresh clone may lack. An env whose runtime is missing is *skipped*: it
//! never runs and never enters a score, and every output lists it with the
//! reason and the command that fixes it, instead of showing the oracle at 0%.
//!
//! The probe is explicit: [`runtimes_of`] names the runtimes each env needs
//! and [`check`] asks the sandbox for each runtime once. The C toolchain
//! honours `VERIGYM_CLANG` (a path to clang): a file that does not exist
//! makes the C runtime unavailable. The Python component is built once into
//! `VERIGYM_CACHE_DIR` by `VERIGYM_COMPONENTIZE_PY`: an empty cache and a
//! missing builder make it unavailable. The tests exercise both skip paths
//! that way.

use serde::{Deserialize, Serialize};

/// A sandbox runtime an env needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Runtime {
    /// CPython compiled to WASM (built once by componentize-py).
    Python,
    /// clang targeting WASI, with wasi-libc.
    C,
}

impl Runtime {
    /// The command that installs this runtime.
    pub fn fix(self) -> &'static str {
        match self {
            Runtime::Python => "sandbox/setup.sh python",
            Runtime::C => "sandbox/setup.sh c",
        }
    }
}

/// Env ids (without preset) and the runtimes they need. The CLI tests check
/// that every one-player env whose score has a `sandbox_error` part is here.
const NEEDS: &[(&str, &[Runtime])] = &[
    // The shipped pool is Python; imported C or C++ rows also need the C
    // toolchain, which their episodes report as no verdict when missing.
    ("code/dataset-v2", &[Runtime::Python]),
    ("code/functions-v2", &[Runtime::Python]),
    ("code/functions-c-v2", &[Runtime::C]),
    ("code/functions-cpp-v1", &[Runtime::C]),
    ("code/humaneval-v2", &[Runtime::Python]),
    ("code/input-prediction-v1", &[Runtime::Python]),
    ("code/repair-v1", &[Runtime::Python]),
    ("code/repl-v2", &[Runtime::Python]),
    ("selfplay/code-io-v1", &[Runtime::Python]),
];

/// The runtimes `env` (`family/name-vN[@preset]`) needs; empty for most.
pub fn runtimes_of(env: &str) -> &'static [Runtime] {
    let base = env.split('@').next().unwrap_or(env);
    NEEDS
        .iter()
        .find(|(id, _)| *id == base)
        .map_or(&[], |(_, needs)| needs)
}

/// Why `runtime` cannot be used here, if it cannot.
pub fn check(runtime: Runtime) -> Result<(), String> {
    match runtime {
        Runtime::Python => verigym_envs::sandboxed::python().map(|_| ()),
        Runtime::C => verigym_envs::sandboxed::c_runtime().map(|_| ()),
    }
    .map_err(|e| e.to_string())
}

/// An env of the suite that did not run here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The suite entry (`family/name-vN[@preset]`).
    pub env: String,
    pub reason: String,
    /// The command that makes it runnable.
    pub fix: String,
}

/// The envs among `envs` that cannot run here, in the given order. Each
/// runtime is probed once (its result is cached by the sandbox for the
/// process anyway).
pub fn unavailable(envs: &[&str]) -> Vec<Skipped> {
    let mut probed: Vec<(Runtime, Result<(), String>)> = Vec::new();
    let mut skipped = Vec::new();
    for env in envs {
        for &runtime in runtimes_of(env) {
            let verdict = match probed.iter().find(|(r, _)| *r == runtime) {
                Some((_, verdict)) => verdict.clone(),
                None => {
                    let verdict = check(runtime);
                    probed.push((runtime, verdict.clone()));
                    verdict
                }
            };
            if let Err(reason) = verdict {
                skipped.push(Skipped {
                    env: env.to_string(),
                    reason,
                    fix: runtime.fix().to_string(),
                });
                break;
            }
        }
    }
    skipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_envs::{EnvKind, Registry, mix_seed};

    /// The table is complete: a one-player env whose oracle score reports
    /// a `sandbox_error` part runs code in the sandbox, so it must name a
    /// runtime; and every listed id exists.
    #[test]
    fn every_sandboxed_one_player_env_names_its_runtime() {
        let registry = Registry::builtin();
        for (id, _) in NEEDS {
            assert!(registry.get(id).is_ok(), "{id} is not registered");
        }
        for registration in registry.entries() {
            let spec = registration.spec;
            if spec.kind == EnvKind::Game {
                continue;
            }
            let mut env = registry.make(spec.id, None).unwrap();
            let card = env.generate(mix_seed(1, 0));
            env.reset(&card).unwrap();
            let Some(answer) = env.oracle_action(0) else {
                continue;
            };
            let _ = env.step(0, &answer);
            let sandboxed = env.score(0).breakdown.contains_key("sandbox_error");
            assert_eq!(
                sandboxed,
                !runtimes_of(spec.id).is_empty(),
                "{}: sandbox_error part {sandboxed}, runtimes {:?}",
                spec.id,
                runtimes_of(spec.id)
            );
        }
    }

    #[test]
    fn presets_share_their_env_runtimes_and_others_need_none() {
        assert_eq!(runtimes_of("code/functions-c-v2@hard"), &[Runtime::C]);
        assert!(runtimes_of("math/arithmetic-v1@easy").is_empty());
        assert!(unavailable(&["math/arithmetic-v1", "logic/guess-number-v2@easy"]).is_empty());
    }
}
