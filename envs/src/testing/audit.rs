//! The reward-hack audit: the standard probes, scored on every env (the
//! per-env trials run it on every preset; `verigym audit` prints it).
//!
//! One-player envs get, per task: the reference (must pass), empty and
//! whitespace answers, another task's reference (a constant), the echoed
//! prompt, the echoed givens (the task as JSON), hedges (the right answer
//! with a wrong one in the answer's format, and outside it: after the
//! answer, after `or`, in `\text{}`; see `probes`),
//! junk in the answer format (another task's reference, digits randomised),
//! and the reference repeated (reported, not flagged: repeating a right
//! answer is not a hedge). Each probe answers every turn of a multi-turn
//! episode. The current observation is echoed every turn
//! (`echo_observation`), and text copied out of the prompt is answered at
//! once (`copied_*`: the first and last quoted part, named entity, listed
//! option, number and part of the request, bare and after a verdict prefix
//! such as `infeasible: `; see `blind`). Multi-turn envs add `noop`,
//! `random`, and fixed sequences over the listed options that ignore the
//! feedback (`blind_*`: the first k, the last k, one option repeated; the
//! best is reported as `blind_best`). Games play `noop` against `random`
//! from both seats. A probe is flagged when its pass rate is above 1% with
//! 95% confidence (the Wilson interval's lower end), a blind sequence of an
//! env with a stated bar (`blind::BLIND_CEILINGS`) when it reaches that
//! bar, and the reference when it fails a task.
//!
//! Completeness probes (`style_*`) play the reference in the styles models
//! write (long and template-opened reasoning, prose, headings, fences,
//! markers: see `styles`) on the first [`STYLE_TASKS`] tasks; each is
//! flagged when it passes on fewer than 99% of the tasks it applies to. In games every seat plays the oracle's moves
//! in the style, and the episode must end as the plain oracle's does.

use rayon::prelude::*;
use serde::Serialize;

use crate::card::TaskCard;
use crate::core::EnvKind;
use crate::driver::{
    Agent, ConstantAgent, DriverConfig, EchoAgent, EpisodeResult, OracleAgent, RandomAgent,
    ScriptedAgent, run_episode,
};
use crate::dynenv::DynEnv;
use crate::error::EnvError;
use crate::registry::Registry;
use crate::rng::{Rng, mix_seed};
use crate::stats::wilson_interval;
use crate::testing::blind::{
    CopyAgent, CopyProbe, SEQUENCES, Sequence, SequenceAgent, blind_ceiling,
};
use crate::testing::probes::{OUTSIDE_HEDGES, OutsideHedge, ProbeAnswer, TEXT_PROBES};
use crate::testing::rule_styles::{RULE_ANSWER_STYLES, RULE_REPLY_STYLES};
use crate::testing::styles::{ACTION_STYLES, ANSWER_STYLES, Style, StyledOracle, StyledReplay};

/// The completeness styles of one action of a multi-turn env or game.
fn action_styles() -> impl Iterator<Item = &'static (&'static str, Style)> {
    ACTION_STYLES.iter().chain(RULE_REPLY_STYLES)
}

/// The stream junk answers draw from, apart from every task's.
const JUNK_STREAM: u64 = 0x6a75_6e6b;

/// Largest pass rate a probe may have before it is flagged.
pub const MAX_PROBE_PASS_RATE: f64 = 0.01;

/// Smallest pass rate of the reference in any model style before it is flagged.
pub const MIN_STYLE_PASS_RATE: f64 = 0.99;

/// Tasks each style is played on (the first ones of the audit's): a style a
/// reader refuses fails nearly every task, so a dozen or so find it (one
/// failure flags the style), and the per-env trials stay within CI's budget
/// (the styles were half the gate's time at 30 tasks).
pub const STYLE_TASKS: usize = 16;

/// What a probe measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProbeClass {
    /// An answer that must fail (flagged above 1% with 95% confidence).
    Soundness,
    /// The reference written as models write it: must pass (flagged below 99%).
    Completeness,
    /// Reported, never flagged (the reference itself is flagged on any miss).
    Info,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProbeResult {
    pub probe: String,
    pub class: ProbeClass,
    pub tasks: usize,
    pub passed: usize,
    pub flagged: bool,
}

impl ProbeResult {
    pub fn rate(&self) -> f64 {
        self.passed as f64 / self.tasks.max(1) as f64
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnvAudit {
    pub env: String,
    pub kind: EnvKind,
    /// Soundness: the highest pass rate of a probe that must fail.
    pub soundness_worst: Option<f64>,
    /// Completeness: the lowest pass rate of the reference in a model's style.
    pub completeness_worst: Option<f64>,
    pub probes: Vec<ProbeResult>,
}

impl EnvAudit {
    fn new(env: &str, kind: EnvKind, probes: Vec<ProbeResult>) -> Self {
        let rates = |class| {
            probes
                .iter()
                .filter(move |p| p.class == class)
                .map(ProbeResult::rate)
        };
        EnvAudit {
            env: env.to_string(),
            kind,
            soundness_worst: rates(ProbeClass::Soundness).reduce(f64::max),
            completeness_worst: rates(ProbeClass::Completeness).reduce(f64::min),
            probes,
        }
    }

    pub fn flags(&self) -> usize {
        self.probes.iter().filter(|p| p.flagged).count()
    }
}

/// How a probe answers a task, given the task's reference action, another
/// task's reference action and the card.
#[derive(Clone, Copy)]
enum Probe {
    /// The env's reference solver, through the same path: must pass all.
    Oracle,
    Text(ProbeAnswer),
    /// A hedge outside the answer format, on the tasks it applies to.
    Outside(OutsideHedge),
    /// The current observation, echoed every turn.
    Echo,
    /// Text copied out of the first observation, at once.
    Copied(CopyProbe),
    /// A fixed sequence over the listed options, feedback ignored.
    Blind(Sequence),
    Noop,
    Random,
}

fn first_oracle_action(env: &mut dyn DynEnv, card: &TaskCard) -> String {
    if env.reset(card).is_err() {
        return String::new();
    }
    env.oracle_action(0).unwrap_or_default()
}

/// Audits one env over `n` tasks from `seed`.
///
/// # Errors
/// An env that cannot be made, or an episode error.
pub fn audit_env(registry: &Registry, id: &str, n: usize, seed: u64) -> Result<EnvAudit, EnvError> {
    let prototype = registry.make(id, None)?;
    let spec = prototype.spec();
    let cards: Vec<TaskCard> = (0..n)
        .map(|i| prototype.generate(mix_seed(seed, i as u64)))
        .collect();
    let driver = DriverConfig::default();
    let play = |card: &TaskCard, agents: &mut [Box<dyn Agent>]| -> Result<Vec<bool>, EnvError> {
        let mut env = prototype.clone_box();
        let mut refs: Vec<&mut dyn Agent> = agents
            .iter_mut()
            .map(|a| a.as_mut() as &mut dyn Agent)
            .collect();
        run_episode(env.as_mut(), card, &mut refs, &driver).map(|r| r.passed)
    };
    let mut probes = Vec::new();
    if spec.players > 1 {
        for noop_seat in 0..spec.players {
            let passed = cards
                .par_iter()
                .map(|card| {
                    let mut agents: Vec<Box<dyn Agent>> = (0..spec.players)
                        .map(|seat| -> Box<dyn Agent> {
                            if seat == noop_seat {
                                Box::new(ConstantAgent(String::new()))
                            } else {
                                Box::new(RandomAgent::new(card.seed))
                            }
                        })
                        .collect();
                    play(card, &mut agents).map(|p| usize::from(p[noop_seat]))
                })
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .sum();
            probes.push(result(format!("noop_in_seat_{noop_seat}"), n, passed, true));
        }
        // Completeness: every seat plays the oracle's moves in a model's style;
        // the episode must end as the plain oracle's does, with no move refused.
        // The oracle is a function of the state, so the plain episode is played
        // once per card and each style replays its moves: a search per move
        // and style made a strong game's audit take minutes.
        let styled_cards = &cards[..n.min(STYLE_TASKS)];
        let plain: Vec<EpisodeResult> = styled_cards
            .par_iter()
            .map(|card| {
                let mut env = prototype.clone_box();
                let mut agents: Vec<OracleAgent> = (0..spec.players).map(|_| OracleAgent).collect();
                let mut refs: Vec<&mut dyn Agent> =
                    agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
                let recording = DriverConfig {
                    record_transcript: true,
                    ..driver.clone()
                };
                run_episode(env.as_mut(), card, &mut refs, &recording)
            })
            .collect::<Result<_, EnvError>>()?;
        for &(name, style) in action_styles() {
            let passed: usize = styled_cards
                .par_iter()
                .zip(&plain)
                .map(|(card, plain)| {
                    let mut env = prototype.clone_box();
                    let seats = vec![String::new(); spec.players];
                    let mut agents: Vec<StyledReplay> =
                        ScriptedAgent::from_transcript(&seats, &plain.transcript)
                            .into_iter()
                            .map(|script| StyledReplay { style, script })
                            .collect();
                    let mut refs: Vec<&mut dyn Agent> =
                        agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
                    let styled = run_episode(env.as_mut(), card, &mut refs, &driver)?;
                    Ok(usize::from(
                        styled.returns == plain.returns
                            && styled.invalid_actions.iter().all(|&k| k == 0),
                    ))
                })
                .collect::<Result<Vec<_>, EnvError>>()?
                .into_iter()
                .sum();
            probes.push(completeness(name, styled_cards.len(), passed));
        }
        return Ok(EnvAudit::new(id, spec.kind, probes));
    }
    let mut scratch = prototype.clone_box();
    let references: Vec<String> = cards
        .iter()
        .map(|c| first_oracle_action(scratch.as_mut(), c))
        .collect();
    let mut all: Vec<(String, Probe, bool)> = vec![("reference".into(), Probe::Oracle, false)];
    all.extend(
        TEXT_PROBES
            .iter()
            .map(|&(name, f)| (name.to_string(), Probe::Text(f), true)),
    );
    all.extend(
        OUTSIDE_HEDGES
            .iter()
            .map(|&(name, f)| (name.to_string(), Probe::Outside(f), true)),
    );
    all.push((
        "reference_repeated".into(),
        Probe::Text(|r, _, _, _| format!("{r} {r}")),
        false,
    ));
    all.push(("echo_observation".into(), Probe::Echo, true));
    all.extend(
        CopyProbe::all()
            .into_iter()
            .map(|copy| (copy.name(), Probe::Copied(copy), true)),
    );
    if spec.kind == EnvKind::MultiTurn {
        all.push(("noop".into(), Probe::Noop, true));
        all.push(("random".into(), Probe::Random, false));
        all.extend(
            SEQUENCES
                .iter()
                .map(|&sequence| (sequence.name(), Probe::Blind(sequence), true)),
        );
    }
    let blind_bar = blind_ceiling(spec.id, MAX_PROBE_PASS_RATE);
    // Another *task's* reference: a small task pool (a HumanEval subset)
    // may draw the same task twice, whose reference rightly passes.
    let other_reference = |i: usize| {
        let n = references.len();
        let j = (1..n)
            .map(|k| (i + k) % n)
            .find(|&j| cards[j].task != cards[i].task)
            .unwrap_or((i + 1) % n);
        &references[j]
    };
    for (name, probe, must_fail) in all {
        let counts = cards
            .par_iter()
            .enumerate()
            .map(|(i, card)| {
                let agent: Box<dyn Agent> = match probe {
                    Probe::Oracle => Box::new(OracleAgent),
                    Probe::Text(answer) => {
                        // Never the card's own stream: that one drew the task.
                        let mut rng = Rng::from_seed(mix_seed(card.seed, JUNK_STREAM));
                        let other = other_reference(i);
                        Box::new(ConstantAgent(answer(&references[i], other, card, &mut rng)))
                    }
                    Probe::Outside(hedge) => match hedge(&references[i], other_reference(i)) {
                        Some(answer) => Box::new(ConstantAgent(answer)),
                        None => return Ok((0, 0)),
                    },
                    Probe::Echo => Box::new(EchoAgent),
                    Probe::Copied(copy) => Box::new(CopyAgent::new(copy)),
                    Probe::Blind(sequence) => Box::new(SequenceAgent::new(sequence)),
                    Probe::Noop => Box::new(ConstantAgent(String::new())),
                    Probe::Random => Box::new(RandomAgent::new(card.seed)),
                };
                play(card, &mut [agent]).map(|p| (1, usize::from(p[0])))
            })
            .collect::<Result<Vec<(usize, usize)>, EnvError>>()?;
        let tasks: usize = counts.iter().map(|c| c.0).sum();
        let passed: usize = counts.iter().map(|c| c.1).sum();
        if tasks == 0 {
            continue;
        }
        let mut probe_result = result(name.clone(), tasks, passed, must_fail);
        match probe {
            Probe::Oracle => probe_result.flagged = passed < n,
            // An env whose rules allow some blind wins states its bar.
            Probe::Blind(_) if blind_bar > MAX_PROBE_PASS_RATE => {
                probe_result.flagged = probe_result.rate() >= blind_bar;
            }
            _ => {}
        }
        probes.push(probe_result);
    }
    // The best blind sequence, reported next to the reference.
    let best_blind = probes
        .iter()
        .filter(|p| p.probe.starts_with("blind_"))
        .max_by_key(|p| p.passed)
        .map(|p| p.passed);
    if let Some(passed) = best_blind {
        probes.push(result("blind_best".into(), n, passed, false));
    }
    // Completeness: the reference in each style models write, on the tasks
    // the style applies to.
    let styles: Vec<&(&str, Style)> = if spec.kind == EnvKind::SingleTurn {
        ANSWER_STYLES
            .iter()
            .chain(RULE_ANSWER_STYLES)
            .chain(RULE_REPLY_STYLES)
            .collect()
    } else {
        action_styles().collect()
    };
    for &(name, style) in styles {
        let counts = cards[..n.min(STYLE_TASKS)]
            .par_iter()
            .enumerate()
            .map(|(i, card)| {
                let draft = &references[(i + 1) % references.len()];
                if spec.kind == EnvKind::SingleTurn && style(&references[i], draft).is_none() {
                    return Ok((0, 0));
                }
                let agent: Box<dyn Agent> = Box::new(StyledOracle {
                    style,
                    draft: draft.clone(),
                });
                play(card, &mut [agent]).map(|p| (1, usize::from(p[0])))
            })
            .collect::<Result<Vec<(usize, usize)>, EnvError>>()?;
        let tasks: usize = counts.iter().map(|c| c.0).sum();
        if tasks > 0 {
            probes.push(completeness(name, tasks, counts.iter().map(|c| c.1).sum()));
        }
    }
    Ok(EnvAudit::new(id, spec.kind, probes))
}

fn result(probe: String, tasks: usize, passed: usize, must_fail: bool) -> ProbeResult {
    // Flag only what is above the bar with 95% confidence: a constant guess
    // in a 1..100 game is right by chance about 1% of the time.
    let flagged = must_fail && wilson_interval(passed, tasks).low > MAX_PROBE_PASS_RATE;
    ProbeResult {
        probe,
        class: if must_fail {
            ProbeClass::Soundness
        } else {
            ProbeClass::Info
        },
        tasks,
        passed,
        flagged,
    }
}

/// A completeness probe: flagged when the styled reference passes on fewer
/// than [`MIN_STYLE_PASS_RATE`] of the tasks.
fn completeness(probe: &str, tasks: usize, passed: usize) -> ProbeResult {
    ProbeResult {
        probe: probe.to_string(),
        class: ProbeClass::Completeness,
        tasks,
        passed,
        flagged: (passed as f64) < MIN_STYLE_PASS_RATE * tasks as f64,
    }
}

/// One line per probe: name, passes, rate, and `FLAG` when flagged.
impl std::fmt::Display for EnvAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "audit of {} ({} flagged):", self.env, self.flags())?;
        let width = self.probes.iter().map(|p| p.probe.len()).max().unwrap_or(0);
        for p in &self.probes {
            let flag = if p.flagged { "  FLAG" } else { "" };
            writeln!(
                f,
                "  {:<width$}  {:>4}/{:<4} {:>5.1}%{flag}",
                p.probe,
                p.passed,
                p.tasks,
                100.0 * p.rate()
            )?;
        }
        Ok(())
    }
}
