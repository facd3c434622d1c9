//! Shared acceptance tests for tool and web envs: pass rates of the built-in
//! agents, driving the oracle through every action format, and re-scoring
//! by replay.

use serde_json::json;

use super::calls::{CallFormat, call_text, render_call};
use super::final_answer::{evidence_words, infeasible_evidence};
use super::parse::parse_call;
use super::screen::{oracle_passes, run_script};
use super::tool_env::ToolEnv;
use crate::card::TaskCard;
use crate::core::{Score, Turn};
use crate::driver::ConstantAgent;
use crate::driver::{Agent, DriverConfig, OracleAgent, RandomAgent, run_episode};
use crate::dynenv::{DynEnv, Instance};
use crate::rng::{Rng, mix_seed};
use crate::tools::user_desk::Outcome;

/// Built-in agents' pass rates over generated tasks.
#[derive(Debug)]
pub struct Rates {
    pub tasks: usize,
    pub infeasible: usize,
    pub oracle: f64,
    /// On feasible tasks only.
    pub noop_feasible: f64,
    pub random_feasible: f64,
}

fn pass(env: &mut dyn DynEnv, card: &TaskCard, agent: &mut dyn Agent) -> bool {
    let result = run_episode(env, card, &mut [agent], &DriverConfig::default()).unwrap();
    result.passed[0]
}

/// Plays `n` tasks with the oracle, noop and random agents.
pub fn pass_rates<E: ToolEnv>(config: E::Config, n: usize) -> Rates {
    let mut env = Instance::<E>::new(config).unwrap();
    let (mut oracle, mut noop, mut random, mut feasible_count) = (0, 0, 0, 0);
    for i in 0..n as u64 {
        let seed = mix_seed(0xacce97, i);
        let card = env.generate(seed);
        let task: E::Task = card.task.read().unwrap();
        let feasible = E::feasible(&task);
        oracle += usize::from(pass(&mut env, &card, &mut OracleAgent));
        if feasible {
            feasible_count += 1;
            noop += usize::from(pass(&mut env, &card, &mut ConstantAgent(String::new())));
            random += usize::from(pass(&mut env, &card, &mut RandomAgent::new(seed)));
        }
    }
    let share = |k: usize, of: usize| k as f64 / of.max(1) as f64;
    Rates {
        tasks: n,
        infeasible: n - feasible_count,
        oracle: share(oracle, n),
        noop_feasible: share(noop, feasible_count),
        random_feasible: share(random, feasible_count),
    }
}

/// The acceptance bar over 200 tasks; also demands some infeasible
/// tasks when `infeasible_share` is expected.
pub fn assert_acceptance<E: ToolEnv>(config: E::Config, expect_infeasible: bool) -> Rates {
    let rates = pass_rates::<E>(config, 200);
    assert!(rates.oracle >= 0.99, "{}: {rates:?}", E::SPEC.id);
    assert_eq!(rates.noop_feasible, 0.0, "{}: {rates:?}", E::SPEC.id);
    assert_eq!(rates.random_feasible, 0.0, "{}: {rates:?}", E::SPEC.id);
    if expect_infeasible {
        assert!(
            (20..=80).contains(&rates.infeasible),
            "{}: {rates:?}",
            E::SPEC.id
        );
    }
    rates
}

/// The acceptance bar ([`assert_acceptance`]) at two of the env's levels
/// (indices into `E::LEVELS`): an easy one and a hard one.
pub fn assert_acceptance_at_levels<E: ToolEnv>(levels: [usize; 2], expect_infeasible: bool) {
    for level in levels {
        let config: E::Config = serde_json::from_str(E::LEVELS[level]).unwrap();
        assert_acceptance::<E>(config, expect_infeasible);
    }
}

/// Each config (JSON over the defaults) fails `validate` with an error
/// that names `field`.
pub fn assert_validate_names_field<E: ToolEnv>(cases: &[(&str, &str)]) {
    for (config, field) in cases {
        let config: E::Config = serde_json::from_str(config).unwrap();
        let err = E::validate(&config).unwrap_err();
        assert!(err.to_string().contains(field), "{err}");
    }
}

/// Whether the calls of `script` (one a turn) pass the task.
pub fn script_passes<E: ToolEnv>(task: &E::Task, script: &[&str]) -> bool {
    run_script::<E>(task, script.iter().map(|s| s.to_string()))
        .0
        .passed
}

/// At a desk closed by `complete_request`, `refuse` or `transfer_to_human`
/// naming the user (see `tools::policy_desk`), whose policy refuses the
/// task's request with `reason` (one of `reasons`), for a caller `U-1`
/// found by the call `find`: the request carried out as asked (`doing`)
/// fails, closed as complete or with the right refusal, even though the
/// user asked for it; the right refusal alone passes, and a wrong reason,
/// another user's id or a hand-over fail; the oracle passes.
pub fn assert_user_desk_refuses<E: ToolEnv>(
    task: &E::Task,
    find: &str,
    doing: &str,
    reason: &str,
    reasons: &[&str],
) {
    let passes = |script: &[&str]| script_passes::<E>(task, script);
    let refusal = format!("refuse {reason} U-1");
    assert!(passes(&[find, &refusal]));
    assert!(!passes(&[find, doing, "complete_request U-1"]), "{doing}");
    assert!(!passes(&[find, doing, &refusal]), "{doing}");
    assert!(!passes(&[find, "complete_request U-1"]));
    assert!(!passes(&[find, "transfer_to_human U-1"]));
    assert!(!passes(&[&format!("refuse {reason} U-2")]));
    for other in reasons.iter().filter(|r| **r != reason) {
        assert!(!passes(&[&format!("refuse {other} U-1")]), "{other}");
    }
    let (score, _) = run_script::<E>(task, [find.to_string(), doing.into(), refusal]);
    assert_eq!(score.breakdown["closing_correct"], 1.0);
    assert_eq!(score.breakdown["state_correct"], 0.0);
    assert_eq!(score.reward, 0.0);
    assert!(oracle_passes::<E>(task));
}

/// At a user desk (see [`assert_user_desk_refuses`]) whose policy allows
/// the task's request, carried out by `doing`: doing it after `find` and
/// completing passes; completing without doing it, naming another user,
/// handing it over, doing it before `find`, or refusing with any of
/// `reasons` fails; the oracle passes.
pub fn assert_user_desk_allows<E: ToolEnv>(
    task: &E::Task,
    find: &str,
    doing: &str,
    reasons: &[&str],
) {
    let passes = |script: &[&str]| script_passes::<E>(task, script);
    assert!(passes(&[find, doing, "complete_request U-1"]), "{doing}");
    assert!(!passes(&[find, "complete_request U-1"]));
    assert!(!passes(&[find, doing, "complete_request U-2"]));
    assert!(!passes(&[find, doing, "transfer_to_human U-1"]));
    assert!(!passes(&[doing, find, "complete_request U-1"]));
    for reason in reasons {
        assert!(!passes(&[&format!("refuse {reason} U-1")]));
    }
    assert!(oracle_passes::<E>(task));
}

/// The tag of a value of an externally tagged enum (its serialized
/// object's one key), to count the kinds a generator draws.
pub fn variant_tag(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone()
}

/// Over 300 tasks of the default config of a user desk
/// (`tools::user_desk`), whose task's outcome is `outcome`: every refusal
/// reason and the hand-over come up at least 3 times, and every kind of
/// change (`ops`, the change's tag) at least 20 times.
pub fn assert_user_desk_outcome_shares<E: ToolEnv, Op: serde::Serialize>(
    outcome: impl Fn(&E::Task) -> &Outcome<Op>,
    reasons: &[&str],
    ops: &[&str],
) {
    let mut rng = Rng::from_seed(4);
    let mut counts = std::collections::BTreeMap::new();
    for _ in 0..300 {
        let task = E::generate(&E::Config::default(), &mut rng);
        let key = match outcome(&task) {
            Outcome::Do(op) => variant_tag(op),
            Outcome::Refuse(r) => r.clone(),
            Outcome::Transfer => "transfer".into(),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    for reason in reasons.iter().chain(&["transfer"]) {
        assert!(counts.get(*reason).is_some_and(|&n| n >= 3), "{counts:?}");
    }
    for op in ops {
        assert!(counts.get(*op).is_some_and(|&n| n >= 20), "{counts:?}");
    }
}

/// Plays the oracle's episode with every action rewritten into `format`;
/// `None` when some call cannot be written in it.
pub fn drive_in_format<E: ToolEnv>(task: &E::Task, format: CallFormat) -> Option<Score> {
    let mut env = E::reset(task, Rng::from_seed(0));
    for _ in 0..E::SPEC.max_steps {
        if env.turn() == Turn::Over {
            break;
        }
        let text = env.oracle(0).unwrap();
        let call = parse_call(&text, env.tools()).unwrap();
        let rewritten = render_call(&call, format, env.tools())?;
        let action = env
            .parse_action(0, &rewritten)
            .unwrap_or_else(|e| panic!("{format:?} {rewritten}: {}", e.reason));
        env.apply(0, action).unwrap();
    }
    Some(env.score(0))
}

/// The format carries the oracle's episodes to a pass (the command syntax
/// where the calls fit it, which must be most of them).
pub fn assert_format_passes<E: ToolEnv>(config: E::Config, format: CallFormat) {
    let mut rng = Rng::from_seed(11);
    let mut carried = 0;
    for _ in 0..20 {
        let task = E::generate(&config, &mut rng);
        if let Some(score) = drive_in_format::<E>(&task, format) {
            assert!(score.passed, "{} via {format:?}", E::SPEC.id);
            carried += 1;
        }
    }
    assert!(carried >= 10, "{} via {format:?}: {carried}/20", E::SPEC.id);
}

/// One test per action format, each driving the oracle's episodes through
/// that format only: `format_tests!(EnvType, config_expression);`.
macro_rules! format_tests {
    ($env:ty, $config:expr) => {
        mod formats {
            use super::*;
            use crate::toolkit::calls::CallFormat;
            use crate::toolkit::testkit::assert_format_passes;

            #[test]
            fn oracle_via_openai_tool_calls() {
                assert_format_passes::<$env>($config, CallFormat::OpenAi);
            }

            #[test]
            fn oracle_via_hermes_tool_call_tags() {
                assert_format_passes::<$env>($config, CallFormat::Hermes);
            }

            #[test]
            fn oracle_via_name_parameters_json() {
                assert_format_passes::<$env>($config, CallFormat::NameParameters);
            }

            #[test]
            fn oracle_via_react_action_lines() {
                assert_format_passes::<$env>($config, CallFormat::React);
            }

            #[test]
            fn oracle_via_commands() {
                assert_format_passes::<$env>($config, CallFormat::Command);
            }
        }
    };
}
pub(crate) use format_tests;

/// Plays the oracle's episode through the agent's path, with its `answer`
/// call's text replaced by `answer` (kept when `None`). Returns the score
/// and the oracle's own answer text (empty if it gave none).
pub fn oracle_with_answer<E: ToolEnv>(task: &E::Task, answer: Option<&str>) -> (Score, String) {
    let mut env = E::reset(task, Rng::from_seed(0));
    let mut own = String::new();
    for _ in 0..E::SPEC.max_steps {
        if env.turn() == Turn::Over {
            break;
        }
        let mut text = env.oracle(0).unwrap();
        let call = parse_call(&text, env.tools()).unwrap();
        if call.name == "answer" {
            own = call.str("answer").to_string();
            if let Some(answer) = answer {
                text = call_text("answer", json!({ "answer": answer }));
            }
        }
        let action = env.parse_action(0, &text).unwrap();
        env.apply(0, action).unwrap();
    }
    (env.score(0), own)
}

/// Infeasible tasks pass only with the oracle's `infeasible: EVIDENCE`
/// verdict, after the oracle's own exploration: a bare verdict, another
/// task's evidence, altered evidence, hedges and the echoed prompt fail,
/// and no verdict passes a feasible task.
pub fn assert_infeasible_needs_evidence<E: ToolEnv>(config: E::Config) {
    let mut rng = Rng::from_seed(23);
    let (mut verdicts, mut feasible) = (Vec::new(), Vec::new());
    for _ in 0..400 {
        if verdicts.len() >= 8 && feasible.len() >= 8 {
            break;
        }
        let task = E::generate(&config, &mut rng);
        if E::feasible(&task) {
            feasible.push(task);
            continue;
        }
        let (score, own) = oracle_with_answer::<E>(&task, None);
        assert!(score.passed, "{}: the oracle fails", E::SPEC.id);
        assert!(
            infeasible_evidence(&own).is_some(),
            "{}: the oracle's verdict {own:?} has no evidence",
            E::SPEC.id
        );
        verdicts.push((task, own));
    }
    assert!(
        verdicts.len() >= 4,
        "{}: too few infeasible tasks",
        E::SPEC.id
    );
    for (i, (task, right)) in verdicts.iter().enumerate() {
        let other = &verdicts[(i + 1) % verdicts.len()].1;
        let evidence = infeasible_evidence(right).unwrap();
        let other_evidence = infeasible_evidence(other).unwrap();
        let prompt: String = E::reset(task, Rng::from_seed(0))
            .observe(0)
            .text
            .chars()
            .take(400)
            .collect();
        let mut wrong = vec![
            "infeasible".to_string(),
            "Infeasible.".to_string(),
            "infeasible:".to_string(),
            format!("infeasible {evidence}"),
            format!("{right} 7"),
            format!("infeasible: {prompt}"),
            prompt,
            evidence.to_string(),
        ];
        if evidence_words(evidence) != evidence_words(other_evidence) {
            wrong.extend([
                other.clone(),
                format!("{right} or {other}"),
                format!("{right}, {other}"),
                format!("{right} or {other_evidence}"),
                format!("{other_evidence}, {evidence}"),
            ]);
        }
        for answer in &wrong {
            let (score, _) = oracle_with_answer::<E>(task, Some(answer));
            assert!(!score.passed, "{}: {answer:?} passed", E::SPEC.id);
        }
        assert!(oracle_with_answer::<E>(task, Some(right)).0.passed);
    }
    for task in &feasible {
        for (_, verdict) in &verdicts {
            let script = [call_text("answer", json!({ "answer": verdict }))];
            assert!(
                !run_script::<E>(task, script).0.passed,
                "{}: {verdict:?} passed a feasible task",
                E::SPEC.id
            );
        }
    }
}

/// Replaying the accepted actions of random and oracle episodes on a fresh
/// env gives the same score.
pub fn assert_replay_rescores<E: ToolEnv>(config: E::Config) {
    let mut env = Instance::<E>::new(config.clone()).unwrap();
    let transcript = DriverConfig {
        record_transcript: true,
        max_retries: 5,
        ..DriverConfig::default()
    };
    for i in 0..20u64 {
        let seed = mix_seed(0x7e91a7, i);
        let card = env.generate(seed);
        let mut random = RandomAgent::new(seed);
        let agents: [&mut dyn Agent; 2] = [&mut OracleAgent, &mut random];
        for agent in agents {
            let result = run_episode(&mut env, &card, &mut [agent], &transcript).unwrap();
            let mut fresh = Instance::<E>::new(config.clone()).unwrap();
            fresh.reset(&card).unwrap();
            for m in result.transcript.iter().filter(|m| m.error.is_none()) {
                fresh.step(0, &m.action).unwrap();
            }
            if result.forfeited_by.is_none() {
                assert_eq!(fresh.score(0).reward, result.returns[0], "{}", card.id);
                assert_eq!(fresh.score(0).passed, result.passed[0], "{}", card.id);
            }
            assert_eq!(fresh.score(0), env.score(0), "{}", card.id);
        }
    }
}

fn preset_config<E: ToolEnv>(name: &str) -> E::Config {
    let preset = E::SPEC
        .presets
        .iter()
        .find(|p| p.name == name)
        .expect("preset exists");
    let mut config = serde_json::to_value(E::Config::default()).unwrap();
    crate::card::merge_json(
        &mut config,
        &serde_json::from_str(preset.overrides).unwrap(),
    );
    serde_json::from_value(config).unwrap()
}

fn print_rates<E: ToolEnv>() {
    for preset in ["easy", "medium", "hard"] {
        let r = pass_rates::<E>(preset_config::<E>(preset), 200);
        println!(
            "RATES {}@{preset}: oracle {:.1}% | noop {:.1}% | random {:.1}% (feasible tasks) | {} of {} infeasible",
            E::SPEC.id,
            100.0 * r.oracle,
            100.0 * r.noop_feasible,
            100.0 * r.random_feasible,
            r.infeasible,
            r.tasks
        );
    }
}

/// Prints the built-in agents' pass rates for every tool and web env and
/// preset over 200 tasks:
/// `cargo test -p verigym-envs --lib print_pass_rates -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_pass_rates() {
    use crate::tools::{
        airline, bank, calendar, email, fncall, retail, search_qa, service_desk, spreadsheet,
        sql_db, travel, vfs_shell,
    };
    use crate::web::{forms, shop, site_nav};
    print_rates::<vfs_shell::VfsShell>();
    print_rates::<fncall::Fncall>();
    print_rates::<service_desk::ServiceDesk>();
    print_rates::<search_qa::SearchQa>();
    print_rates::<sql_db::SqlDbEnv>();
    print_rates::<calendar::Calendar>();
    print_rates::<bank::BankEnv>();
    print_rates::<email::Email>();
    print_rates::<retail::Retail>();
    print_rates::<airline::AirlineEnv>();
    print_rates::<spreadsheet::Spreadsheet>();
    print_rates::<travel::Travel>();
    print_rates::<shop::Shop>();
    print_rates::<site_nav::SiteNav>();
    print_rates::<forms::Forms>();
}
