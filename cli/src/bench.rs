//! Running a suite: jobs, per-episode records, and their aggregation.
//!
//! A job is one episode: an env entry of the suite, a line-up, a task index
//! and a sample index. Task `i` of an env is the card for seed
//! `mix_seed(suite.seed, i)`, the same for every line-up (paired
//! comparisons); sample `s` changes only the agents' seeds. Jobs run in
//! parallel and every record names its job, so aggregates are identical for
//! any thread count and for a run resumed after an interruption.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use verigym_envs::stats::{Estimate, mean_interval, wilson_interval};
use verigym_envs::{
    Agent, AgentTurn, DriverConfig, DynEnv, EnvKind, EpisodeResult, Reads, Registry, Status,
};
use verigym_envs::{mix_seed, run_episode};

use crate::agents::{check_fits, make_agent};
use crate::metrics::{Game, Rating, bradley_terry, pass_at_k};
use crate::suite::{Suite, lineups};

/// One episode to play.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct JobKey {
    /// The suite's env entry (`family/name-vN[@preset]`).
    pub env: String,
    pub lineup: Vec<String>,
    pub task: usize,
    pub sample: usize,
}

/// What one episode produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeRecord {
    pub key: JobKey,
    pub card_id: String,
    pub seed: u64,
    pub result: EpisodeResult,
    /// Seconds spent inside agents (model time) and in the env and driver.
    pub agent_seconds: f64,
    pub env_seconds: f64,
}

/// Every job of a suite, in a fixed order.
///
/// # Errors
/// Unknown env or agent names, or line-ups that do not fit a game.
pub fn plan_jobs(registry: &Registry, suite: &Suite) -> Result<Vec<JobKey>, String> {
    let mut jobs = Vec::new();
    let mut seen = BTreeSet::new();
    for entry in &suite.envs {
        if !seen.insert(&entry.id) {
            return Err(format!("`{}` appears twice in the suite", entry.id));
        }
        let env = registry
            .make(&entry.id, entry.config.as_ref())
            .map_err(|e| e.to_string())?;
        for name in suite.agents_of(entry) {
            make_agent(name, 0)?;
            check_fits(name, &entry.id)?;
        }
        for lineup in lineups(suite.agents_of(entry), env.spec().players)? {
            for task in 0..suite.episodes_of(entry) {
                for sample in 0..suite.samples_of(entry) {
                    jobs.push(JobKey {
                        env: entry.id.clone(),
                        lineup: lineup.clone(),
                        task,
                        sample,
                    });
                }
            }
        }
    }
    Ok(jobs)
}

/// Times an agent's `act` calls.
struct Timed {
    inner: Box<dyn Agent>,
    seconds: f64,
}

impl Agent for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn start_episode(&mut self, seed: u64) {
        self.inner.start_episode(seed);
    }
    fn reads(&self) -> Reads {
        self.inner.reads()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        let start = Instant::now();
        let action = self.inner.act(turn);
        self.seconds += start.elapsed().as_secs_f64();
        action
    }
}

/// Plays the jobs in parallel; `on_record` sees each record as it finishes
/// (to save it), and the results come back in job order.
///
/// # Errors
/// Per job: an env error, reported with the card id.
pub fn run_jobs(
    registry: &Registry,
    suite: &Suite,
    jobs: &[JobKey],
    on_record: &(dyn Fn(&EpisodeRecord) + Sync),
) -> Vec<Result<EpisodeRecord, String>> {
    let prototypes: BTreeMap<&str, Box<dyn DynEnv>> = suite
        .envs
        .iter()
        .filter_map(|e| {
            registry
                .make(&e.id, e.config.as_ref())
                .ok()
                .map(|env| (e.id.as_str(), env))
        })
        .collect();
    let driver = DriverConfig {
        max_retries: suite.retries,
        max_turns: suite.max_turns,
        record_transcript: true,
        agent_salt: 0,
    };
    let play = |job: &JobKey| {
        let prototype = prototypes
            .get(job.env.as_str())
            .ok_or_else(|| format!("unknown env `{}`", job.env))?;
        let record = play_job(&**prototype, job, suite.seed, &driver)?;
        on_record(&record);
        Ok(record)
    };
    // A person plays one episode at a time, in order.
    if jobs
        .iter()
        .any(|j| j.lineup.iter().any(|a| crate::agents::human::is_human(a)))
    {
        jobs.iter().map(play).collect()
    } else {
        jobs.par_iter().map(play).collect()
    }
}

fn play_job(
    prototype: &dyn DynEnv,
    job: &JobKey,
    suite_seed: u64,
    driver: &DriverConfig,
) -> Result<EpisodeRecord, String> {
    let started = Instant::now();
    let mut env = prototype.clone_box();
    let seed = mix_seed(suite_seed, job.task as u64);
    let card = env.generate(seed);
    let mut agents: Vec<Timed> = job
        .lineup
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            make_agent(name, mix_seed(seed, seat as u64)).map(|inner| Timed {
                inner,
                seconds: 0.0,
            })
        })
        .collect::<Result<_, _>>()?;
    let mut refs: Vec<&mut dyn Agent> = agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
    let driver = DriverConfig {
        agent_salt: job.sample as u64,
        ..driver.clone()
    };
    let result = run_episode(env.as_mut(), &card, &mut refs, &driver)
        .map_err(|e| format!("card {}: {e}", card.id))?;
    if let Some(error) = agents.iter().find_map(|a| a.inner.error()) {
        return Err(format!("card {}: agent failed: {error}", card.id));
    }
    let agent_seconds: f64 = agents.iter().map(|a| a.seconds).sum();
    let env_seconds = (started.elapsed().as_secs_f64() - agent_seconds).max(0.0);
    Ok(EpisodeRecord {
        key: job.clone(),
        card_id: card.id,
        seed,
        result,
        agent_seconds,
        env_seconds,
    })
}

/// One agent in one seat of one line-up on one env.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub env: String,
    pub family: String,
    /// The preset part of the id, `default` when none.
    pub preset: String,
    pub kind: EnvKind,
    pub lineup: Vec<String>,
    pub seat: usize,
    pub agent: String,
    pub tasks: usize,
    pub samples: usize,
    /// Episodes played in this seat, and how many of them passed.
    pub episodes: usize,
    pub passes: usize,
    pub pass_rate: Estimate,
    /// `pass_at_k[k-1]` is the unbiased pass@k, k = 1..=samples.
    pub pass_at_k: Vec<f64>,
    pub mean_return: Estimate,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Refused actions per attempted action.
    pub invalid_rate: f64,
    pub forfeits: usize,
    pub truncated: usize,
    pub mean_steps: f64,
    pub mean_answer_chars: f64,
    pub agent_seconds: f64,
    pub env_seconds: f64,
    /// Accepted env steps per second of env time (all seats together).
    pub env_steps_per_second: f64,
}

/// Bradley–Terry ratings of the agents on one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRatings {
    pub env: String,
    pub agents: Vec<String>,
    pub ratings: Vec<Rating>,
}

/// Everything a report shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaderboard {
    pub rows: Vec<Row>,
    /// Per two-player game.
    pub ratings: Vec<GameRatings>,
    /// One fit over the results of every two-player game of the games
    /// family together (`env` is [`ALL_GAMES`]); `None` when no such game
    /// was played between two agents.
    pub all_games: Option<GameRatings>,
}

/// The `env` of the ratings fitted over every game.
pub const ALL_GAMES: &str = "all games";

/// Env position in the suite, agents' positions in the suite, line-up.
type GroupKey = (usize, Vec<usize>, Vec<String>);

/// Aggregates records (in any order) into rows sorted by env order in the
/// suite, line-up and seat.
pub fn aggregate(registry: &Registry, suite: &Suite, records: &[EpisodeRecord]) -> Leaderboard {
    // Line-ups sort by the agents' order in the suite, not alphabetically.
    let agent_rank = |name: &String| {
        suite
            .agents
            .iter()
            .position(|a| a == name)
            .unwrap_or(usize::MAX)
    };
    let mut groups: BTreeMap<GroupKey, Vec<&EpisodeRecord>> = BTreeMap::new();
    let env_order: BTreeMap<&str, usize> = suite
        .envs
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), i))
        .collect();
    for record in records {
        if let Some(&order) = env_order.get(record.key.env.as_str()) {
            let ranks = record.key.lineup.iter().map(agent_rank).collect();
            groups
                .entry((order, ranks, record.key.lineup.clone()))
                .or_default()
                .push(record);
        }
    }
    let mut rows = Vec::new();
    for ((order, _, lineup), mut group) in groups {
        group.sort_by(|a, b| a.key.cmp(&b.key));
        let entry = &suite.envs[order];
        let Ok((registration, _)) = registry.resolve(&entry.id, None) else {
            continue;
        };
        let spec = registration.spec;
        for (seat, agent) in lineup.iter().enumerate() {
            rows.push(seat_row(
                &entry.id,
                spec.family(),
                spec.kind,
                &lineup,
                seat,
                agent,
                &group,
            ));
        }
    }
    let ratings = suite
        .envs
        .iter()
        .filter_map(|entry| {
            game_ratings(registry, &[entry.id.as_str()], entry.id.as_str(), records)
        })
        .collect();
    // The all-games rating joins the games family only: self-play envs are
    // two-player too, but their seats play different roles.
    let games: Vec<&str> = suite
        .envs
        .iter()
        .map(|e| e.id.as_str())
        .filter(|id| {
            registry
                .resolve(id, None)
                .is_ok_and(|(r, _)| r.spec.family() == "games")
        })
        .collect();
    let all_games = game_ratings(registry, &games, ALL_GAMES, records);
    Leaderboard {
        rows,
        ratings,
        all_games,
    }
}

fn seat_row(
    env: &str,
    family: &str,
    kind: EnvKind,
    lineup: &[String],
    seat: usize,
    agent: &str,
    group: &[&EpisodeRecord],
) -> Row {
    let returns: Vec<f64> = group.iter().map(|r| r.result.returns[seat]).collect();
    let passes = group.iter().filter(|r| r.result.passed[seat]).count();
    let mut by_task: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for r in group {
        let slot = by_task.entry(r.key.task).or_default();
        slot.0 += 1;
        slot.1 += usize::from(r.result.passed[seat]);
    }
    let samples = by_task.values().map(|(n, _)| *n).min().unwrap_or(0);
    let pass_at = (1..=samples)
        .map(|k| {
            by_task
                .values()
                .map(|&(n, c)| pass_at_k(n, c, k))
                .sum::<f64>()
                / by_task.len().max(1) as f64
        })
        .collect();
    let count = |f: fn(f64) -> bool| returns.iter().filter(|r| f(**r)).count();
    let (mut attempts, mut invalid, mut chars, mut answers) = (0usize, 0usize, 0usize, 0usize);
    for r in group {
        for m in r.result.transcript.iter().filter(|m| m.player == seat) {
            attempts += 1;
            invalid += usize::from(m.error.is_some());
            chars += m.action.chars().count();
            answers += 1;
        }
    }
    let env_seconds: f64 = group.iter().map(|r| r.env_seconds).sum();
    let steps: usize = group.iter().map(|r| r.result.steps).sum();
    Row {
        env: env.to_string(),
        family: family.to_string(),
        preset: env
            .split_once('@')
            .map_or("default", |(_, p)| p)
            .to_string(),
        kind,
        lineup: lineup.to_vec(),
        seat,
        agent: agent.to_string(),
        tasks: by_task.len(),
        samples,
        episodes: group.len(),
        passes,
        pass_rate: wilson_interval(passes, group.len()),
        pass_at_k: pass_at,
        mean_return: mean_interval(&returns),
        wins: count(|r| r > 0.0),
        draws: count(|r| r == 0.0),
        losses: count(|r| r < 0.0),
        invalid_rate: invalid as f64 / attempts.max(1) as f64,
        forfeits: group
            .iter()
            .filter(|r| r.result.forfeited_by == Some(seat))
            .count(),
        truncated: group
            .iter()
            .filter(|r| r.result.status == Status::Truncated)
            .count(),
        mean_steps: steps as f64 / group.len().max(1) as f64,
        mean_answer_chars: chars as f64 / answers.max(1) as f64,
        agent_seconds: group.iter().map(|r| r.agent_seconds).sum(),
        env_seconds,
        env_steps_per_second: if env_seconds > 0.0 {
            steps as f64 / env_seconds
        } else {
            0.0
        },
    }
}

/// Ratings from every two-player episode between different agents of the
/// two-player games among `envs` (one Bradley–Terry fit), labelled `label`.
fn game_ratings(
    registry: &Registry,
    envs: &[&str],
    label: &str,
    records: &[EpisodeRecord],
) -> Option<GameRatings> {
    let two_player: BTreeSet<&str> = envs
        .iter()
        .copied()
        .filter(|env| {
            registry
                .resolve(env, None)
                .is_ok_and(|(registration, _)| registration.spec.players == 2)
        })
        .collect();
    let mut agents: Vec<String> = Vec::new();
    let index = |name: &str, agents: &mut Vec<String>| match agents.iter().position(|a| a == name) {
        Some(i) => i,
        None => {
            agents.push(name.to_string());
            agents.len() - 1
        }
    };
    let mut sorted: Vec<&EpisodeRecord> = records
        .iter()
        .filter(|r| two_player.contains(r.key.env.as_str()) && r.key.lineup[0] != r.key.lineup[1])
        .collect();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let games: Vec<Game> = sorted
        .iter()
        .map(|r| {
            let a = index(&r.key.lineup[0], &mut agents);
            let b = index(&r.key.lineup[1], &mut agents);
            let score = match r.result.returns[0].partial_cmp(&r.result.returns[1]) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            };
            Game { a, b, score }
        })
        .collect();
    if games.is_empty() {
        return None;
    }
    let ratings = bradley_terry(agents.len(), &games);
    Some(GameRatings {
        env: label.to_string(),
        agents,
        ratings,
    })
}

/// The suite for `gym-bench run --env …`: the given envs and agents.
pub fn adhoc_suite(
    envs: &[String],
    config: Option<serde_json::Value>,
    agents: &[String],
    episodes: usize,
    seed: u64,
) -> Suite {
    Suite {
        name: "adhoc".into(),
        seed,
        episodes,
        samples: 1,
        max_turns: None,
        retries: 2,
        agents: agents.to_vec(),
        game_agents: None,
        all_envs: false,
        all_envs_episodes: 0,
        envs: envs
            .iter()
            .map(|id| crate::suite::SuiteEnv {
                id: id.clone(),
                config: config.clone(),
                episodes: None,
                samples: None,
                agents: None,
            })
            .collect(),
    }
}

/// Re-scores logged episodes without calling agents: each record's card is
/// regenerated from its seed and its transcript replayed through the same
/// driver. Returns the jobs whose replay differs, with the reason.
pub fn replay(
    registry: &Registry,
    suite: &Suite,
    records: &[EpisodeRecord],
) -> Vec<(JobKey, String)> {
    let driver = DriverConfig {
        max_retries: suite.retries,
        max_turns: suite.max_turns,
        record_transcript: true,
        agent_salt: 0,
    };
    records
        .par_iter()
        .filter_map(|record| {
            let failure = |reason: String| Some((record.key.clone(), reason));
            let Some(entry) = suite.envs.iter().find(|e| e.id == record.key.env) else {
                return failure("env not in the suite".into());
            };
            let mut env = match registry.make(&entry.id, entry.config.as_ref()) {
                Ok(env) => env,
                Err(e) => return failure(e.to_string()),
            };
            let card = env.generate(record.seed);
            if card.id != record.card_id {
                return failure(format!(
                    "card {} regenerates as {}",
                    record.card_id, card.id
                ));
            }
            let mut agents = verigym_envs::driver::ScriptedAgent::from_transcript(
                &record.key.lineup,
                &record.result.transcript,
            );
            let mut refs: Vec<&mut dyn Agent> =
                agents.iter_mut().map(|a| a as &mut dyn Agent).collect();
            match run_episode(env.as_mut(), &card, &mut refs, &driver) {
                Ok(result) if result == record.result => None,
                Ok(result) => failure(format!(
                    "returns {:?} on replay, {:?} in the log",
                    result.returns, record.result.returns
                )),
                Err(e) => failure(e.to_string()),
            }
        })
        .collect()
}
