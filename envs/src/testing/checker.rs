//! The env checker: small named checks that every registered env must pass.
//!
//! [`check_env`] runs them all on a factory that makes fresh env objects and
//! returns one [`CheckResult`] per check; the test suite runs it on every
//! registry entry, and tests for the checker itself show that it fails on
//! deliberately broken envs.

use std::collections::BTreeSet;

use crate::answers::{Role, degenerate_answers};
use crate::card::TaskCard;
use crate::core::{EnvKind, Status};
use crate::driver::{
    Agent, AgentTurn, ConstantAgent, DriverConfig, EchoAgent, EpisodeResult, OracleAgent,
    RandomAgent, run_episode,
};
use crate::dynenv::DynEnv;
use crate::error::EnvError;
use crate::rng::mix_seed;
use crate::testing::CheckFailure;

/// How hard to check.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Episodes for each statistical check.
    pub episodes: usize,
    pub seed: u64,
    /// Largest share of tasks a degenerate answer may pass: 1% by default,
    /// i.e. at most 1 of the default 100 episodes.
    pub max_degenerate_pass_rate: f64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            episodes: 100,
            seed: 0x5eed,
            max_degenerate_pass_rate: 0.01,
        }
    }
}

/// The outcome of one named check.
#[derive(Clone, Debug)]
pub struct CheckResult {
    pub name: &'static str,
    pub outcome: Result<(), CheckFailure>,
}

/// The failed checks of one env ([`summarize`]): `name: reason` per line.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{}", .0.iter().map(|(name, why)| format!("{name}: {why}")).collect::<Vec<_>>().join("\n"))]
pub struct FailedChecks(pub Vec<(&'static str, CheckFailure)>);

type Factory<'a> = &'a dyn Fn() -> Box<dyn DynEnv>;
type Check = fn(Factory<'_>, &CheckOptions) -> Result<(), CheckFailure>;

const CHECKS: &[(&str, Check)] = &[
    ("determinism", check_determinism),
    ("seeds_differ", check_seeds_differ),
    ("card_round_trip", check_card_round_trip),
    ("bookkeeping", check_bookkeeping),
    ("random_play_ends", check_random_play_ends),
    ("text_view_matches", check_text_view),
    ("zero_sum", check_zero_sum),
    ("reuse_leaks_nothing", check_reuse),
    ("reference_passes", check_reference_passes),
    ("degenerate_answers_fail", check_degenerate_answers),
    ("prompt_states_answer_form", check_prompt_states_answer_form),
];

/// What a prompt names when it says how to answer: where the answer is read
/// from (a box, a fence, a tool call), the form of a reply, or the legal
/// moves themselves (lower case).
pub const ANSWER_FORM_MARKERS: &[&str] = &[
    "\\boxed{",
    "```",
    "tool",
    "reply",
    "answer with",
    "your move. legal",
    "like `",
];

/// Runs every check on envs from `make`.
pub fn check_env(make: Factory<'_>, options: &CheckOptions) -> Vec<CheckResult> {
    CHECKS
        .iter()
        .map(|(name, check)| {
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(make, options)))
                    .unwrap_or_else(|panic| {
                        let message = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        Err(CheckFailure::Panicked(message))
                    });
            CheckResult { name, outcome }
        })
        .collect()
}

/// The failed checks, or `Ok` when all passed.
///
/// # Errors
/// [`FailedChecks`]: each failure with its check's name.
pub fn summarize(results: &[CheckResult]) -> Result<(), FailedChecks> {
    let failures: Vec<(&'static str, CheckFailure)> = results
        .iter()
        .filter_map(|r| r.outcome.as_ref().err().map(|e| (r.name, e.clone())))
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(FailedChecks(failures))
    }
}

fn seeds(options: &CheckOptions) -> impl Iterator<Item = u64> + '_ {
    (0..options.episodes as u64).map(|i| mix_seed(options.seed, i))
}

fn play(
    env: &mut dyn DynEnv,
    card: &TaskCard,
    agents: &mut [Box<dyn Agent>],
) -> Result<EpisodeResult, CheckFailure> {
    let mut refs: Vec<&mut dyn Agent> = agents
        .iter_mut()
        .map(|a| a.as_mut() as &mut dyn Agent)
        .collect();
    let config = DriverConfig {
        record_transcript: true,
        ..DriverConfig::default()
    };
    Ok(run_episode(env, card, &mut refs, &config)?)
}

/// Plays the card with a random agent in every seat.
fn play_random(
    env: &mut dyn DynEnv,
    card: &TaskCard,
    seed: u64,
) -> Result<EpisodeResult, CheckFailure> {
    let mut agents: Vec<Box<dyn Agent>> = (0..env.spec().players)
        .map(|p| Box::new(RandomAgent::new(mix_seed(seed, p as u64))) as Box<dyn Agent>)
        .collect();
    play(env, card, &mut agents)
}

fn check_determinism(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let (a, b) = (make(), make());
    for seed in seeds(options).take(20) {
        let (ca, cb) = (
            a.generate(seed).to_json_line(),
            b.generate(seed).to_json_line(),
        );
        if ca != cb {
            return Err(format!("seed {seed} gave two different cards:\n{ca}\n{cb}").into());
        }
        let card = a.generate(seed);
        let (mut ea, mut eb) = (make(), make());
        let ra = play_random(ea.as_mut(), &card, seed)?;
        let rb = play_random(eb.as_mut(), &card, seed)?;
        if ra != rb {
            return Err(
                format!("seed {seed}: the same card and agents gave different episodes").into(),
            );
        }
    }
    Ok(())
}

fn check_seeds_differ(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let env = make();
    if env.spec().fixed_start {
        return Ok(());
    }
    let tasks: BTreeSet<String> = seeds(options)
        .take(32)
        .map(|s| env.generate(s).task.to_string())
        .collect();
    // A data set's rows are all the tasks there are: ask for each of them then.
    let wanted = env.task_count().map_or(16, |rows| rows.min(16));
    if tasks.len() < wanted {
        return Err(format!(
            "32 seeds gave only {} distinct tasks (want {wanted})",
            tasks.len()
        )
        .into());
    }
    Ok(())
}

fn check_card_round_trip(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let env = make();
    for seed in seeds(options).take(20) {
        let card = env.generate(seed);
        let line = card.to_json_line();
        let back: TaskCard =
            serde_json::from_str(&line).map_err(|e| format!("card does not parse: {e}"))?;
        if back.to_json_line() != line {
            return Err(format!("card changed in a JSON round trip:\n{line}").into());
        }
        let mut fresh = make();
        fresh.reset(&back)?;
        let first = match fresh.turn() {
            crate::core::Turn::Player(p) => p,
            crate::core::Turn::Simultaneous(ps) => ps[0],
            crate::core::Turn::Over => return Err("episode is over at reset".into()),
        };
        if fresh.observe(first)?.text != card.prompt {
            return Err("replaying the card does not reproduce its prompt".into());
        }
    }
    Ok(())
}

fn check_bookkeeping(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    if !matches!(env.step(0, "1"), Err(EnvError::ResetNeeded)) {
        return Err("step before reset was not refused with ResetNeeded".into());
    }
    let card = env.generate(options.seed);
    let result = play_random(env.as_mut(), &card, options.seed)?;
    if result.forfeited_by.is_none() && !matches!(env.step(0, "1"), Err(EnvError::EpisodeOver(_))) {
        return Err("step after the end was not refused with EpisodeOver".into());
    }
    if let Some(legal) = env.observe(0)?.legal_actions
        && result.forfeited_by.is_none()
        && !legal.is_empty()
    {
        return Err(format!("legal actions not empty after the end: {legal:?}").into());
    }
    Ok(())
}

fn check_random_play_ends(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    let spec = env.spec();
    let (lo, hi) = spec.reward_range;
    for seed in seeds(options) {
        let card = env.generate(seed);
        env.reset(&card)?;
        for player in 0..spec.players {
            let legal = env.observe(player)?.legal_actions.unwrap_or_default();
            let mut seen = BTreeSet::new();
            if !legal.iter().all(|a| seen.insert(a)) {
                return Err(format!("seed {seed}: duplicate legal actions {legal:?}").into());
            }
        }
        let result = play_random(env.as_mut(), &card, seed)?;
        if result.status == Status::Running {
            return Err(format!("seed {seed}: random play did not end").into());
        }
        if result.steps > spec.max_steps {
            return Err(format!(
                "seed {seed}: {} steps over max_steps {}",
                result.steps, spec.max_steps
            )
            .into());
        }
        if let Some(r) = result.returns.iter().find(|r| !(lo..=hi).contains(*r)) {
            return Err(format!("seed {seed}: return {r} outside {lo}..={hi}").into());
        }
    }
    Ok(())
}

/// Plays like the random agent while reading everything, and notes the
/// first turn where the text-only view (what text-reading agents are shown,
/// [`DynEnv::observe_text`]) differs from the full observation's text.
struct TextViewProbe {
    random: RandomAgent,
    mismatch: Option<String>,
}

impl Agent for TextViewProbe {
    fn name(&self) -> String {
        "text-view-probe".into()
    }
    fn start_episode(&mut self, seed: u64) {
        self.random.start_episode(seed);
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        if self.mismatch.is_none() {
            match turn.env.observe_text(turn.player) {
                Ok(text) if text == turn.observation.text => {}
                Ok(text) => {
                    self.mismatch = Some(format!(
                        "player {}: observe_text gave {text:?}, observe's text is {:?}",
                        turn.player, turn.observation.text
                    ));
                }
                Err(e) => self.mismatch = Some(format!("observe_text failed: {e}")),
            }
        }
        self.random.act(turn)
    }
}

fn check_text_view(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    for seed in seeds(options) {
        let card = env.generate(seed);
        let mut probes: Vec<TextViewProbe> = (0..env.spec().players)
            .map(|p| TextViewProbe {
                random: RandomAgent::new(mix_seed(seed, p as u64)),
                mismatch: None,
            })
            .collect();
        let mut refs: Vec<&mut dyn Agent> =
            probes.iter_mut().map(|a| a as &mut dyn Agent).collect();
        run_episode(env.as_mut(), &card, &mut refs, &DriverConfig::default())?;
        if let Some(mismatch) = probes.iter().find_map(|p| p.mismatch.clone()) {
            return Err(format!("seed {seed}: {mismatch}").into());
        }
    }
    Ok(())
}

fn check_zero_sum(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    if !env.spec().zero_sum {
        return Ok(());
    }
    for seed in seeds(options) {
        let card = env.generate(seed);
        let result = play_random(env.as_mut(), &card, seed)?;
        let sum: f64 = result.returns.iter().sum();
        if sum.abs() > 1e-9 {
            return Err(format!("seed {seed}: returns {:?} sum to {sum}", result.returns).into());
        }
    }
    Ok(())
}

fn check_reuse(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut reused = make();
    for seed in seeds(options).take(10) {
        let card = reused.generate(seed);
        let again = play_random(reused.as_mut(), &card, seed)?;
        let mut fresh = make();
        let first = play_random(fresh.as_mut(), &card, seed)?;
        if again != first {
            return Err(format!(
                "seed {seed}: a reused env object played differently from a fresh one"
            )
            .into());
        }
    }
    Ok(())
}

fn single_agent(env: &dyn DynEnv) -> bool {
    env.spec().players == 1 && env.spec().kind != EnvKind::Game
}

fn check_reference_passes(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    if !single_agent(&*env) {
        return Ok(());
    }
    for seed in seeds(options) {
        let card = env.generate(seed);
        let result = play(
            env.as_mut(),
            &card,
            &mut [Box::new(OracleAgent) as Box<dyn Agent>],
        )?;
        if !result.passed[0] {
            return Err(format!("seed {seed}: the oracle did not pass (card {})", card.id).into());
        }
    }
    Ok(())
}

fn check_degenerate_answers(make: Factory<'_>, options: &CheckOptions) -> Result<(), CheckFailure> {
    let mut env = make();
    if !single_agent(&*env) {
        return Ok(());
    }
    let allowed = (options.episodes as f64 * options.max_degenerate_pass_rate).floor() as usize;
    let mut agents: Vec<Box<dyn Agent>> = degenerate_answers(Role::Checker)
        .map(|a| Box::new(ConstantAgent(a.to_string())) as Box<dyn Agent>)
        .collect();
    agents.push(Box::new(EchoAgent));
    // Generated once for every agent: a puzzle generator that proves
    // uniqueness costs far more than an episode.
    let cards: Vec<TaskCard> = seeds(options).map(|s| env.generate(s)).collect();
    for agent in agents.iter_mut() {
        let mut passes = 0;
        for card in &cards {
            let result = play(env.as_mut(), card, std::slice::from_mut(agent))?;
            passes += usize::from(result.passed[0]);
        }
        if passes > allowed {
            return Err(format!(
                "agent `{}` passed {passes} of {} tasks (allowed {allowed})",
                agent.name(),
                options.episodes
            )
            .into());
        }
    }
    Ok(())
}

/// A model learns the answer's form from the prompt alone (the extraction
/// rule itself is in the env's `//! # Action` header): every prompt names it.
fn check_prompt_states_answer_form(
    make: Factory<'_>,
    options: &CheckOptions,
) -> Result<(), CheckFailure> {
    let env = make();
    for seed in seeds(options).take(3) {
        let prompt = env.generate(seed).prompt.to_lowercase();
        if !ANSWER_FORM_MARKERS.iter().any(|m| prompt.contains(m)) {
            return Err(format!(
                "seed {seed}: the prompt does not say how to answer (it names none of {ANSWER_FORM_MARKERS:?}); say it, e.g. `Put the final answer inside \\boxed{{}}.` or `Reply with one move.`"
            ).into());
        }
    }
    Ok(())
}
