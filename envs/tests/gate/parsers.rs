//! Fuzzed action parsers: every env's `step` takes arbitrary text, and
//! structure-aware mutations of the oracle's own action, at the start of an
//! episode and part-way through it, without a panic, with a bounded
//! refusal, with the episode unchanged after a refusal, and in bounded time
//! on inputs up to 1 MB.
//!
//! ```text
//! cargo test -p verigym-envs --test envs parsers::             # the CI run
//! VERIGYM_FUZZ_CASES=5000 cargo test --release -p verigym-envs --test envs parsers::
//! ```
//!
//! The second line is the long local run: cases per env instead of the CI
//! count. Each trial prints its slowest step per MB of input; a step that
//! takes over [`HANG_SECONDS`] on one input is reported as a hang (a
//! superlinear parser), not timed as a benchmark.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use verigym_envs::{DynEnv, EnvError, Registry, Turn};

/// Random cases per env in CI; `VERIGYM_FUZZ_CASES` overrides it.
const CI_CASES: u32 = 48;
/// Fewer for envs whose every step runs a program in the sandbox.
const CI_CASES_SANDBOXED: u32 = 8;
/// A refusal's reason longer than this is itself a flood.
const MAX_REASON_BYTES: usize = 4 << 10;
/// A step's observation may grow by at most this over the one before it.
const MAX_OBSERVATION_GROWTH: usize = 64 << 10;
/// Over this on one input is a hang, whatever the machine's load.
const HANG_SECONDS: f64 = 20.0;
/// The size of the large inputs.
const MB: usize = 1 << 20;

fn cases(sandboxed: bool) -> u32 {
    std::env::var("VERIGYM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if sandboxed {
            CI_CASES_SANDBOXED
        } else {
            CI_CASES
        })
}

/// An episode to step: the card of `preset_id` for `seed`, after `prefix`
/// oracle moves (fewer when the episode ends first). `None` once it is over.
fn episode(
    registry: &Registry,
    preset_id: &str,
    seed: u64,
    prefix: usize,
) -> Option<Box<dyn DynEnv>> {
    let mut env = registry.make(preset_id, None).ok()?;
    let card = env.generate(seed);
    env.reset(&card).ok()?;
    for _ in 0..prefix {
        let player = mover(&*env)?;
        let Some(action) = env.oracle_action(player) else {
            break;
        };
        if env.step(player, &action).is_err() {
            break;
        }
    }
    mover(&*env).map(|_| env)
}

fn mover(env: &dyn DynEnv) -> Option<usize> {
    match env.turn() {
        Turn::Player(p) => Some(p),
        Turn::Simultaneous(players) => players.first().copied(),
        Turn::Over => None,
    }
}

/// Steps `input` once and checks the contract; returns the seconds it took.
fn step_checked(mut env: Box<dyn DynEnv>, input: &str) -> Result<f64, String> {
    let player = mover(&*env).ok_or("episode over before the step")?;
    let before_render = env.render();
    let before_len = env.observe(player).map(|o| o.text.len()).unwrap_or(0);
    let started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| env.step(player, input)));
    let seconds = started.elapsed().as_secs_f64();
    let result = outcome.map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("panicked: {message}")
    })?;
    if seconds > HANG_SECONDS {
        return Err(format!(
            "took {seconds:.1} s on {} bytes: a parser is superlinear",
            input.len()
        ));
    }
    match result {
        Ok(_) => {
            let after = match mover(&*env) {
                Some(p) => env.observe(p).map(|o| o.text.len()).unwrap_or(0),
                None => env.observe(player).map(|o| o.text.len()).unwrap_or(0),
            };
            if after > before_len + MAX_OBSERVATION_GROWTH {
                return Err(format!(
                    "the observation grew from {before_len} to {after} bytes on one step"
                ));
            }
        }
        Err(EnvError::InvalidAction(refusal)) => {
            if refusal.reason.len() > MAX_REASON_BYTES {
                return Err(format!(
                    "a refusal of {} bytes (over {MAX_REASON_BYTES})",
                    refusal.reason.len()
                ));
            }
            if env.render() != before_render {
                return Err(format!(
                    "a refused action changed the episode (refusal: {})",
                    refusal.reason
                ));
            }
        }
        Err(other) => return Err(format!("step failed with `{other}`, not a refusal")),
    }
    Ok(seconds)
}

/// Structure-aware mutations of a well-formed action.
fn mutate(seed_action: String) -> impl Strategy<Value = String> {
    let len = seed_action.chars().count().max(1);
    let a = seed_action.clone();
    let b = seed_action.clone();
    let c = seed_action.clone();
    let d = seed_action.clone();
    let e = seed_action.clone();
    let f = seed_action;
    prop_oneof![
        // A prefix: the reply cut off anywhere.
        (0..=len).prop_map(move |n| a.chars().take(n).collect::<String>()),
        // One character replaced, inserted or deleted.
        (0..len, any::<char>(), 0..3u8).prop_map(move |(i, ch, op)| {
            let mut chars: Vec<char> = b.chars().collect();
            match op {
                0 if i < chars.len() => chars[i] = ch,
                1 => chars.insert(i.min(chars.len()), ch),
                _ if i < chars.len() => {
                    chars.remove(i);
                }
                _ => chars.push(ch),
            }
            chars.into_iter().collect()
        }),
        // Numbers made huge, negative or fractional.
        prop::sample::select(vec![
            "99999999999999999999999999",
            "-1",
            "0.5",
            "1e308",
            "NaN",
            "18446744073709551616"
        ])
        .prop_map(move |n| replace_numbers(&c, n)),
        // The action repeated, or wrapped in reasoning, fences, markers.
        (1..64usize).prop_map(move |n| d.repeat(n)),
        prop::sample::select(vec![
            ("<think>", "</think>"),
            ("```\n", "\n```"),
            ("Action: ", ""),
            ("\\boxed{", "}"),
            ("{\"name\": ", "}"),
            ("[", "]"),
            ("", "\u{0}"),
            ("\u{202e}", ""),
        ])
        .prop_map(move |(open, close)| format!("{open}{e}{close}")),
        // Brackets nested deeply around it.
        (1..2000usize, prop::sample::select(vec!['(', '[', '{'])).prop_map(move |(n, open)| {
            let close = match open {
                '(' => ')',
                '[' => ']',
                _ => '}',
            };
            format!(
                "{}{f}{}",
                open.to_string().repeat(n),
                close.to_string().repeat(n)
            )
        }),
    ]
}

fn replace_numbers(text: &str, number: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push_str(number);
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}

/// Inputs of about 1 MB that break parsers with superlinear or recursive
/// paths: floods of one character, nesting, repeated markers, and the
/// oracle's action after and inside a flood.
fn large_inputs(action: &str) -> Vec<(String, String)> {
    let mut inputs = vec![
        ("1 MB of `a`".to_string(), "a".repeat(MB)),
        ("1 MB of digits".to_string(), "7".repeat(MB)),
        ("1 MB of spaces".to_string(), " ".repeat(MB)),
        ("1 MB of newlines".to_string(), "\n".repeat(MB)),
        ("1 MB of `(`".to_string(), "(".repeat(MB)),
        ("1 MB of `[`".to_string(), "[".repeat(MB)),
        ("1 MB of `{`".to_string(), "{".repeat(MB)),
        ("1 MB of `\\boxed{`".to_string(), "\\boxed{".repeat(MB / 7)),
        ("1 MB of fences".to_string(), "```\n".repeat(MB / 4)),
        ("1 MB of `<think>`".to_string(), "<think>".repeat(MB / 7)),
        (
            "1 MB of `Action: `".to_string(),
            "Action: x\n".repeat(MB / 10),
        ),
    ];
    if !action.is_empty() {
        let copies = (MB / action.len().max(1)).clamp(1, MB);
        inputs.push((
            "the oracle's action repeated to 1 MB".into(),
            format!("{action}\n").repeat(copies),
        ));
        inputs.push((
            "1 MB of reasoning, then the oracle's action".into(),
            format!("<think>{}</think>\n{action}", "think ".repeat(MB / 6)),
        ));
    }
    inputs
}

/// The trial of one env: arbitrary text and mutations of the oracle's
/// action at random points of random episodes of every preset, then the
/// large inputs. Prints the slowest step per MB.
pub fn fuzz_env(registry: &Registry, id: &str) -> Result<(), String> {
    let presets: Vec<String> = registry
        .preset_ids()
        .into_iter()
        .filter(|p| p.split('@').next() == Some(id))
        .collect();
    let sandboxed = {
        let env = registry.make(id, None).map_err(|e| e.to_string())?;
        env.score(0)
            .breakdown
            .contains_key(verigym_envs::NO_VERDICT)
    };
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: cases(sandboxed),
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let n_presets = presets.len().max(1);
    let strategy = (0..n_presets, 0..64u64, 0..6usize).prop_flat_map({
        let registry = registry.clone();
        let presets = presets.clone();
        move |(preset, seed, prefix)| {
            let action = episode(&registry, &presets[preset], seed, prefix)
                .and_then(|env| mover(&*env).and_then(|p| env.oracle_action(p)))
                .unwrap_or_default();
            let input = prop_oneof![
                any::<String>(),
                prop::collection::vec(any::<u8>(), 0..512)
                    .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
                mutate(action),
            ];
            (Just(preset), Just(seed), Just(prefix), input)
        }
    });
    let mut slowest = (0.0f64, String::new());
    runner
        .run(&strategy, |(preset, seed, prefix, input)| {
            let Some(env) = episode(registry, &presets[preset], seed, prefix) else {
                return Ok(());
            };
            step_checked(env, &input).map(|_| ()).map_err(|why| {
                TestCaseError::fail(format!(
                    "{} seed {seed} after {prefix} oracle moves: {why}",
                    presets[preset]
                ))
            })
        })
        .map_err(|e| format!("{id}: {e}"))?;
    for preset in &presets {
        let Some(env) = episode(registry, preset, 0, 0) else {
            continue;
        };
        let action = mover(&*env)
            .and_then(|p| env.oracle_action(p))
            .unwrap_or_default();
        let inputs = if sandboxed {
            // Each step compiles and runs a program: the floods that reach a
            // parser before the sandbox are enough.
            large_inputs(&action).into_iter().take(3).collect()
        } else {
            large_inputs(&action)
        };
        for (what, input) in inputs {
            let env = episode(registry, preset, 0, 0).ok_or("episode over at the start")?;
            let seconds =
                step_checked(env, &input).map_err(|why| format!("{preset}, {what}: {why}"))?;
            let per_mb = seconds * MB as f64 / input.len().max(1) as f64;
            if per_mb > slowest.0 {
                slowest = (per_mb, format!("{preset}, {what}"));
            }
        }
    }
    eprintln!(
        "parsers::{id}: slowest step {:.1} ms per MB ({})",
        slowest.0 * 1e3,
        slowest.1
    );
    Ok(())
}
