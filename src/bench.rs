//! `gym-bench run`: episodes of envs with agents, aggregated per seat.
//!
//! Episode `i` of a run plays the card for seed `mix_seed(seed, i)`. In a
//! game with two different agents, both seatings play the same cards
//! (paired), so a seat advantage cannot masquerade as skill. Episodes run in
//! parallel, and results are reduced in episode order, so every number is
//! the same for any thread count.

use rayon::prelude::*;
use serde::Serialize;
use verigym_envs::driver::builtin_agent;
use verigym_envs::{
    Agent, DriverConfig, DynEnv, EnvKind, EpisodeResult, Registry, Status, mix_seed, run_episode,
};

/// What to run for one env.
#[derive(Clone, Debug)]
pub struct RunPlan {
    /// `family/name-vN[@preset]`.
    pub env: String,
    pub overrides: Option<serde_json::Value>,
    /// Agent names. A single-player env evaluates each separately; a game
    /// seats them in order (one name plays every seat).
    pub agents: Vec<String>,
    pub episodes: usize,
    pub seed: u64,
    pub driver: DriverConfig,
}

/// One agent's results in one seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatStats {
    pub agent: String,
    pub seat: usize,
    pub episodes: usize,
    pub mean_return: f64,
    pub pass_rate: f64,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub invalid_actions: u64,
    pub forfeits: usize,
    pub truncated: usize,
    pub mean_steps: f64,
}

impl SeatStats {
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.episodes.max(1) as f64
    }
    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.episodes.max(1) as f64
    }
    pub fn loss_rate(&self) -> f64 {
        self.losses as f64 / self.episodes.max(1) as f64
    }
}

/// One line-up (agents in seat order) and how each seat did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Matchup {
    pub lineup: Vec<String>,
    pub seats: Vec<SeatStats>,
}

/// Everything a run of one env produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EnvReport {
    pub env: String,
    pub kind: EnvKind,
    pub episodes: usize,
    pub seed: u64,
    pub matchups: Vec<Matchup>,
}

/// Runs a plan.
///
/// # Errors
/// Unknown env or agent, bad config, or an env error in an episode (a bug
/// in the env: reported with the card id).
pub fn run_plan(
    registry: &Registry,
    plan: &RunPlan,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<EnvReport, String> {
    let env = registry
        .make(&plan.env, plan.overrides.as_ref())
        .map_err(|e| e.to_string())?;
    if plan.agents.is_empty() {
        return Err("no agents given".into());
    }
    for name in &plan.agents {
        builtin_agent(name, 0)?;
    }
    let spec = env.spec();
    let lineups = lineups(&plan.agents, spec.players)?;
    let mut matchups = Vec::new();
    for lineup in lineups {
        let results: Vec<Result<EpisodeResult, String>> = (0..plan.episodes)
            .into_par_iter()
            .map(|i| {
                let result = play_one(&*env, &lineup, mix_seed(plan.seed, i as u64), &plan.driver);
                progress(1);
                result
            })
            .collect();
        let results: Vec<EpisodeResult> = results.into_iter().collect::<Result<_, _>>()?;
        let seats = (0..spec.players)
            .map(|seat| seat_stats(&lineup[seat], seat, &results))
            .collect();
        matchups.push(Matchup { lineup, seats });
    }
    Ok(EnvReport {
        env: plan.env.clone(),
        kind: spec.kind,
        episodes: plan.episodes,
        seed: plan.seed,
        matchups,
    })
}

/// The line-ups a plan plays: each agent alone for one-player envs; for
/// games the agents in seat order, plus the reversed seating when it differs.
fn lineups(agents: &[String], players: usize) -> Result<Vec<Vec<String>>, String> {
    if players == 1 {
        return Ok(agents.iter().map(|a| vec![a.clone()]).collect());
    }
    let lineup: Vec<String> = match agents.len() {
        1 => vec![agents[0].clone(); players],
        n if n == players => agents.to_vec(),
        n => {
            return Err(format!(
                "this game has {players} seats but {n} agents were given"
            ));
        }
    };
    let mut reversed = lineup.clone();
    reversed.reverse();
    Ok(if reversed == lineup {
        vec![lineup]
    } else {
        vec![lineup, reversed]
    })
}

fn play_one(
    prototype: &dyn DynEnv,
    lineup: &[String],
    seed: u64,
    driver: &DriverConfig,
) -> Result<EpisodeResult, String> {
    let mut env = prototype.clone_box();
    let card = env.generate(seed);
    let mut agents: Vec<Box<dyn Agent>> = lineup
        .iter()
        .enumerate()
        .map(|(seat, name)| builtin_agent(name, mix_seed(seed, seat as u64)))
        .collect::<Result<_, _>>()?;
    let mut refs: Vec<&mut dyn Agent> = agents
        .iter_mut()
        .map(|a| a.as_mut() as &mut dyn Agent)
        .collect();
    run_episode(env.as_mut(), &card, &mut refs, driver)
        .map_err(|e| format!("card {}: {e}", card.id))
}

fn seat_stats(agent: &str, seat: usize, results: &[EpisodeResult]) -> SeatStats {
    let n = results.len();
    let mut stats = SeatStats {
        agent: agent.to_string(),
        seat,
        episodes: n,
        mean_return: 0.0,
        pass_rate: 0.0,
        wins: 0,
        draws: 0,
        losses: 0,
        invalid_actions: 0,
        forfeits: 0,
        truncated: 0,
        mean_steps: 0.0,
    };
    let (mut total, mut passed, mut steps) = (0.0, 0usize, 0usize);
    for r in results {
        let ret = r.returns[seat];
        total += ret;
        passed += usize::from(r.passed[seat]);
        steps += r.steps;
        match ret.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => stats.wins += 1,
            Some(std::cmp::Ordering::Less) => stats.losses += 1,
            _ => stats.draws += 1,
        }
        stats.invalid_actions += u64::from(r.invalid_actions[seat]);
        stats.forfeits += usize::from(r.forfeited_by == Some(seat));
        stats.truncated += usize::from(r.status == Status::Truncated);
    }
    let denominator = n.max(1) as f64;
    stats.mean_return = total / denominator;
    stats.pass_rate = passed as f64 / denominator;
    stats.mean_steps = steps as f64 / denominator;
    stats
}

/// The default suite: every registered env at its default config; oracle,
/// random and noop on one-player envs; oracle against random (both seats)
/// and random against random on games.
pub fn default_suite(registry: &Registry, episodes: usize, seed: u64) -> Vec<RunPlan> {
    registry
        .entries()
        .iter()
        .flat_map(|r| {
            let agent_sets: Vec<Vec<&str>> = if r.spec.players == 1 {
                vec![vec!["oracle", "random", "noop"]]
            } else {
                vec![vec!["oracle", "random"], vec!["random"]]
            };
            agent_sets.into_iter().map(move |agents| RunPlan {
                env: r.spec.id.to_string(),
                overrides: None,
                agents: agents.into_iter().map(String::from).collect(),
                episodes,
                seed,
                driver: DriverConfig::default(),
            })
        })
        .collect()
}

/// Plain-text table of reports: one row per agent and seat.
pub fn render_table(reports: &[EnvReport]) -> String {
    let mut rows = vec![[
        "env".to_string(),
        "line-up".into(),
        "seat".into(),
        "agent".into(),
        "episodes".into(),
        "pass %".into(),
        "mean return".into(),
        "win/draw/loss %".into(),
        "invalid".into(),
    ]];
    for report in reports {
        for matchup in &report.matchups {
            for seat in &matchup.seats {
                let game = report.kind == EnvKind::Game;
                rows.push([
                    report.env.clone(),
                    matchup.lineup.join(" vs "),
                    if game {
                        seat.seat.to_string()
                    } else {
                        "-".into()
                    },
                    seat.agent.clone(),
                    seat.episodes.to_string(),
                    format!("{:.1}", 100.0 * seat.pass_rate),
                    format!("{:+.3}", seat.mean_return),
                    if game {
                        format!(
                            "{:.1}/{:.1}/{:.1}",
                            100.0 * seat.win_rate(),
                            100.0 * seat.draw_rate(),
                            100.0 * seat.loss_rate()
                        )
                    } else {
                        "-".into()
                    },
                    seat.invalid_actions.to_string(),
                ]);
            }
        }
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
        if i == 0 {
            out.push_str(
                &widths
                    .iter()
                    .map(|w| "-".repeat(*w))
                    .collect::<Vec<_>>()
                    .join("  "),
            );
            out.push('\n');
        }
    }
    out
}
