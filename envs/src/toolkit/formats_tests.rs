//! Completeness on every tool and web env of the registry: the oracle's
//! episode, with each call re-rendered in each call format (alone, and
//! several to a turn where the format writes several), dressed as models
//! dress a turn (reasoning before it, prose before or after it, an
//! end-of-turn marker and junk after that), scores through the agent's own
//! path (`DynEnv::step`, which reads the reply by `crate::reply`) exactly
//! what the plain episode scores.

use std::collections::BTreeSet;

use super::calls::{CallFormat, ToolCall, render_call, render_calls};
use super::parse::{END_MARKERS, parse_call};
use super::tool_env::ToolEnv;
use crate::card::TaskCard;
use crate::core::{Score, Turn};
use crate::dynenv::{DynEnv, Instance};
use crate::registry::Registry;
use crate::rng::mix_seed;
use crate::tools::{
    airline, api_chain, bank, calendar, email, fncall, retail, search_qa, service_desk,
    spreadsheet, sql_db, travel, vfs_shell,
};
use crate::web::{forms, shop, site_nav};

/// Tasks per env (default config).
const TASKS: u64 = 3;

/// Calls per turn in the parallel replays.
const CHUNKS: [usize; 3] = [2, 3, 16];

/// A call after an end-of-turn marker: never read.
const AFTER_MARKER: &str = "\n<|im_start|>user\nNow answer 7.<|im_end|>\n<|im_start|>assistant\n<tool_call>{\"name\": \"answer\", \"arguments\": {\"answer\": \"7\"}}</tool_call>";

/// How models dress a turn: reasoning before it, prose before or after it
/// (restating the turn's answer, if it gives one), an end-of-turn marker
/// with a different call after it.
const DRESSINGS: [&str; 4 + END_MARKERS.len()] = [
    "plain",
    "reasoning",
    "prose before",
    "restatement",
    END_MARKERS[0],
    END_MARKERS[1],
    END_MARKERS[2],
    END_MARKERS[3],
    END_MARKERS[4],
    END_MARKERS[5],
];

/// `text` (the calls `calls`) dressed as `dressing` says.
fn dress(dressing: &str, text: &str, calls: &[ToolCall]) -> String {
    match dressing {
        "plain" => text.to_string(),
        "reasoning" => {
            format!("<think>Maybe the answer is 7, or I should list / first.</think>\n{text}")
        }
        "prose before" => format!("I'll do that now.\n{text}"),
        "restatement" => match calls.iter().find(|c| c.name == "answer") {
            Some(a) => format!(
                "{text}\n\nThe answer is {}. Check: that is what the records show.",
                a.str("answer")
            ),
            None => format!("{text}\n\nI will wait for the result before going on."),
        },
        marker => format!("{text}{marker}{AFTER_MARKER}"),
    }
}

/// The oracle's plain episode: its calls in order and its score.
fn plain<E: ToolEnv>(env: &mut Instance<E>, card: &TaskCard) -> (Vec<ToolCall>, Score) {
    env.reset(card).unwrap();
    let mut calls = Vec::new();
    while env.turn() != Turn::Over {
        let text = env.oracle_action(0).unwrap();
        let tools = env.state().unwrap().tools();
        calls.push(parse_call(&text, tools).unwrap());
        env.step(0, &text).unwrap();
    }
    (calls, env.score(0))
}

/// Plays `turns` (texts) from the card's start; every one must be accepted.
fn replay<E: ToolEnv>(env: &mut Instance<E>, card: &TaskCard, turns: &[String]) -> Score {
    env.reset(card).unwrap();
    for text in turns {
        if let Err(e) = env.step(0, text) {
            panic!("{}: refused {text:?}: {e}", E::SPEC.id);
        }
    }
    env.score(0)
}

fn same(a: &Score, b: &Score) -> bool {
    a.passed == b.passed && a.reward == b.reward
}

/// Every format and dressing, then every parallel format in chunks, on
/// `TASKS` tasks of `E`; returns the combinations tried.
fn check_formats<E: ToolEnv>() -> usize {
    let mut env = Instance::<E>::new(E::Config::default()).unwrap();
    let mut tried = 0;
    for i in 0..TASKS {
        let card = env.generate(mix_seed(0xf0_7a75, i));
        let (calls, want) = plain(&mut env, &card);
        assert!(want.passed, "{}: the oracle fails {}", E::SPEC.id, card.id);
        let tools = env.state().unwrap().tools().to_vec();
        for format in CallFormat::ALL {
            let rendered: Option<Vec<String>> = calls
                .iter()
                .map(|c| render_call(c, format, &tools))
                .collect();
            // The command syntax cannot write every call (an optional
            // argument skipped before a given one); the per-env format tests
            // bound how often.
            let Some(rendered) = rendered else { continue };
            for dressing in DRESSINGS {
                let turns: Vec<String> = rendered
                    .iter()
                    .zip(&calls)
                    .map(|(text, call)| dress(dressing, text, std::slice::from_ref(call)))
                    .collect();
                let got = replay(&mut env, &card, &turns);
                assert!(
                    same(&got, &want),
                    "{} {}: {format:?} dressed {dressing:?} scores {got:?}, plainly {want:?}; first turn {:?}",
                    E::SPEC.id,
                    card.id,
                    turns[0]
                );
                tried += 1;
            }
        }
        for format in CallFormat::ALL.into_iter().filter(|f| f.parallel()) {
            for chunk in CHUNKS {
                for dressing in ["plain", "restatement", "<|im_end|>"] {
                    let turns: Vec<String> = calls
                        .chunks(chunk)
                        .map(|c| dress(dressing, &render_calls(c, format).unwrap(), c))
                        .collect();
                    let got = replay(&mut env, &card, &turns);
                    assert!(
                        same(&got, &want),
                        "{} {}: {format:?} {chunk} calls a turn scores {got:?}, plainly {want:?}; first turn {:?}",
                        E::SPEC.id,
                        card.id,
                        turns[0]
                    );
                    tried += 1;
                }
            }
        }
    }
    tried
}

/// The envs below are every tool and web env the registry holds.
#[test]
fn every_tool_and_web_env_is_covered() {
    let registered: BTreeSet<&str> = Registry::builtin()
        .entries()
        .iter()
        .map(|r| r.spec.id)
        .filter(|id| id.starts_with("tools/") || id.starts_with("web/"))
        .collect();
    let covered: BTreeSet<&str> = [
        <vfs_shell::VfsShell as crate::core::Env>::SPEC.id,
        <fncall::Fncall as crate::core::Env>::SPEC.id,
        <service_desk::ServiceDesk as crate::core::Env>::SPEC.id,
        <search_qa::SearchQa as crate::core::Env>::SPEC.id,
        <sql_db::SqlDbEnv as crate::core::Env>::SPEC.id,
        <calendar::Calendar as crate::core::Env>::SPEC.id,
        <bank::BankEnv as crate::core::Env>::SPEC.id,
        <email::Email as crate::core::Env>::SPEC.id,
        <retail::Retail as crate::core::Env>::SPEC.id,
        <airline::AirlineEnv as crate::core::Env>::SPEC.id,
        <spreadsheet::Spreadsheet as crate::core::Env>::SPEC.id,
        <travel::Travel as crate::core::Env>::SPEC.id,
        <api_chain::ApiChainEnv as crate::core::Env>::SPEC.id,
        <shop::Shop as crate::core::Env>::SPEC.id,
        <site_nav::SiteNav as crate::core::Env>::SPEC.id,
        <forms::Forms as crate::core::Env>::SPEC.id,
    ]
    .into_iter()
    .collect();
    assert_eq!(registered, covered, "add the new env to formats_tests.rs");
}

macro_rules! formats_test {
    ($name:ident, $env:ty) => {
        #[test]
        fn $name() {
            let tried = check_formats::<$env>();
            assert!(tried >= 3 * 8 * 10, "{tried}");
        }
    };
}

formats_test!(vfs_shell_reads_every_format, vfs_shell::VfsShell);
formats_test!(fncall_reads_every_format, fncall::Fncall);
formats_test!(service_desk_reads_every_format, service_desk::ServiceDesk);
formats_test!(search_qa_reads_every_format, search_qa::SearchQa);
formats_test!(sql_db_reads_every_format, sql_db::SqlDbEnv);
formats_test!(calendar_reads_every_format, calendar::Calendar);
formats_test!(bank_reads_every_format, bank::BankEnv);
formats_test!(email_reads_every_format, email::Email);
formats_test!(retail_reads_every_format, retail::Retail);
formats_test!(airline_reads_every_format, airline::AirlineEnv);
formats_test!(spreadsheet_reads_every_format, spreadsheet::Spreadsheet);
formats_test!(travel_reads_every_format, travel::Travel);
formats_test!(api_chain_reads_every_format, api_chain::ApiChainEnv);
formats_test!(shop_reads_every_format, shop::Shop);
formats_test!(site_nav_reads_every_format, site_nav::SiteNav);
formats_test!(forms_reads_every_format, forms::Forms);
