//! `logic/bipartite-matching-v1`: assign workers to jobs they can do, one
//! job per worker and one worker per job, as many pairs as possible (a
//! maximum bipartite matching, its size proven by augmenting paths).
//!
//! # Task
//! `workers` workers and `jobs` jobs with distinct random three-letter names,
//! and the allowed worker–job pairs (each drawn with probability `density`,
//! every worker and job in at least one), listed in a random order. Draws
//! where taking the listed pairs greedily, first come first served, already
//! gives a maximum matching, or where the maximum is below two, are redrawn,
//! so neither the listed order nor one pair passes. Names are drawn per
//! task, so one task's matching never answers another.
//!
//! # Action
//! The chosen pairs, each as a worker name and a job name (`ABC-DEF`,
//! `ABC DEF`, `(ABC, DEF)`, either order), separated by commas, semicolons
//! or new lines; case is ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The workers, the jobs and the allowed pairs. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any set of allowed pairs in which no worker and no job
//! appears twice and whose size is the maximum (every maximum matching
//! passes; the check never compares with one reference matching); else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `workers` (3..=30), `jobs` (3..=30), `density` (0.1..=0.8).
//!
//! # Seeding
//! Names and pairs come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BipartiteMatchingConfig {
    pub workers: usize,
    pub jobs: usize,
    pub density: f64,
}

impl Default for BipartiteMatchingConfig {
    fn default() -> Self {
        BipartiteMatchingConfig {
            workers: 8,
            jobs: 8,
            density: 0.25,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BipartiteMatchingTask {
    pub workers: Vec<String>,
    pub jobs: Vec<String>,
    /// Allowed `(worker, job)` pairs, as indices, in the listed order.
    pub pairs: Vec<(usize, usize)>,
    /// One maximum matching, as indices into `pairs`.
    pub matching: Vec<usize>,
}

/// A maximum matching (Kuhn's augmenting paths), as indices into `pairs`.
fn max_matching(workers: usize, jobs: usize, pairs: &[(usize, usize)]) -> Vec<usize> {
    let mut adjacent = vec![Vec::new(); workers];
    for (i, &(w, _)) in pairs.iter().enumerate() {
        adjacent[w].push(i);
    }
    // The pair that holds each job.
    let mut holder: Vec<Option<usize>> = vec![None; jobs];
    fn augment(
        w: usize,
        adjacent: &[Vec<usize>],
        pairs: &[(usize, usize)],
        holder: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for &i in &adjacent[w] {
            let job = pairs[i].1;
            if seen[job] {
                continue;
            }
            seen[job] = true;
            let free = match holder[job] {
                None => true,
                Some(held) => augment(pairs[held].0, adjacent, pairs, holder, seen),
            };
            if free {
                holder[job] = Some(i);
                return true;
            }
        }
        false
    }
    for w in 0..workers {
        augment(w, &adjacent, pairs, &mut holder, &mut vec![false; jobs]);
    }
    let mut matching: Vec<usize> = holder.into_iter().flatten().collect();
    matching.sort_unstable();
    matching
}

/// Whether `chosen` (pair indices) is a matching: no worker or job twice.
fn is_matching(task: &BipartiteMatchingTask, chosen: &[usize]) -> bool {
    let mut worker_used = vec![false; task.workers.len()];
    let mut job_used = vec![false; task.jobs.len()];
    chosen.iter().all(|&i| {
        let (w, j) = task.pairs[i];
        !std::mem::replace(&mut worker_used[w], true) && !std::mem::replace(&mut job_used[j], true)
    })
}

/// Reads pairs of names, a worker and a job in either order.
fn parse_pairs(answer: &str, task: &BipartiteMatchingTask) -> Result<Vec<usize>, InvalidAction> {
    let cleaned = answer.replace("->", " ").replace(
        [
            '-', '–', '—', '→', ':', ',', ';', '(', ')', '{', '}', '[', ']', '$',
        ],
        " ",
    );
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    let limit = 2 * task.pairs.len();
    if tokens.len() > limit {
        return Err(format!("more than the {limit} names of all the pairs").into());
    }
    let mut names = task.workers.clone();
    names.extend(task.jobs.iter().cloned());
    // Every name may appear in many pairs: read against a long enough list.
    let reps = tokens.len().div_ceil(names.len()).max(1);
    let all: Vec<String> = names
        .iter()
        .cloned()
        .cycle()
        .take(reps * names.len())
        .collect();
    let read = read_names(tokens.into_iter(), &all, "worker or job")?;
    if read.len() % 2 == 1 {
        return Err("an odd number of names: every pair names a worker and a job".into());
    }
    let (nw, n) = (task.workers.len(), names.len());
    read.chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0] % n, pair[1] % n);
            let (w, j) = match (a < nw, b < nw) {
                (true, false) => (a, b - nw),
                (false, true) => (b, a - nw),
                _ => {
                    return Err(InvalidAction::new(format!(
                        "{} and {} are not a worker and a job",
                        names[a], names[b]
                    )));
                }
            };
            task.pairs.iter().position(|&p| p == (w, j)).ok_or_else(|| {
                InvalidAction::new(format!("{} cannot do {}", task.workers[w], task.jobs[j]))
            })
        })
        .collect()
}

pub struct BipartiteMatching;

impl BipartiteMatching {
    fn draw(config: &BipartiteMatchingConfig, rng: &mut Rng) -> Option<BipartiteMatchingTask> {
        let (nw, nj) = (config.workers, config.jobs);
        let names = draw_names(nw + nj, rng);
        let mut pairs = Vec::new();
        for w in 0..nw {
            for j in 0..nj {
                if rng.chance(config.density) {
                    pairs.push((w, j));
                }
            }
        }
        let covered = (0..nw).all(|w| pairs.iter().any(|p| p.0 == w))
            && (0..nj).all(|j| pairs.iter().any(|p| p.1 == j));
        if !covered {
            return None;
        }
        rng.shuffle(&mut pairs);
        let matching = max_matching(nw, nj, &pairs);
        let task = BipartiteMatchingTask {
            workers: names[..nw].to_vec(),
            jobs: names[nw..].to_vec(),
            pairs,
            matching,
        };
        // First come, first served over the listed pairs.
        let mut greedy = Vec::new();
        for i in 0..task.pairs.len() {
            greedy.push(i);
            if !is_matching(&task, &greedy) {
                greedy.pop();
            }
        }
        (task.matching.len() >= 2 && greedy.len() < task.matching.len()).then_some(task)
    }
}

pub type BipartiteMatchingEnv = SingleTurn<BipartiteMatching>;

impl Question for BipartiteMatching {
    type Config = BipartiteMatchingConfig;
    type Task = BipartiteMatchingTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/bipartite-matching-v1",
        kind: EnvKind::SingleTurn,
        description: "Pair workers with jobs they can do, as many pairs as possible; any maximum matching passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"workers":3,"jobs":3,"density":0.5}"#,
        r#"{"workers":4,"jobs":4,"density":0.4}"#,
        r#"{"workers":6,"jobs":6,"density":0.3}"#,
        "{}",
        r#"{"workers":12,"jobs":10,"density":0.22}"#,
        r#"{"workers":16,"jobs":16,"density":0.18}"#,
        r#"{"workers":24,"jobs":22,"density":0.14}"#,
    ];

    fn effort(task: &BipartiteMatchingTask) -> Option<f64> {
        Some((task.workers.len() + task.jobs.len() + task.pairs.len()) as f64)
    }

    fn validate(config: &BipartiteMatchingConfig) -> Result<(), ConfigError> {
        if !(3..=30).contains(&config.workers)
            || !(3..=30).contains(&config.jobs)
            || !(0.1..=0.8).contains(&config.density)
        {
            return Err(
                "need 3 <= workers <= 30, 3 <= jobs <= 30 and 0.1 <= density <= 0.8".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &BipartiteMatchingConfig, rng: &mut Rng) -> BipartiteMatchingTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &BipartiteMatchingConfig,
        rng: &mut Rng,
    ) -> Result<BipartiteMatchingTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no draw in {MAX_DRAWS} gave every worker and job a pair and a greedy matching \
                     short of the maximum: change density (now {})",
                    config.density
                )
            },
        )
    }

    fn prompt(task: &BipartiteMatchingTask) -> String {
        let pairs: Vec<String> = task
            .pairs
            .iter()
            .map(|&(w, j)| format!("{} can do {}", task.workers[w], task.jobs[j]))
            .collect();
        format!(
            "Assign workers to jobs so that as many jobs as possible are done. Each worker does at most \
             one job, each job is done by at most one worker, and a worker can only do a job listed for \
             them.\nWorkers: {}\nJobs: {}\nAllowed:\n{}\n\nAnswer with the assigned pairs, each written as \
             worker-job (like `{}-{}`), separated by commas, inside \\boxed{{}}.",
            task.workers.join(", "),
            task.jobs.join(", "),
            pairs.join("\n"),
            task.workers[task.pairs[0].0],
            task.jobs[task.pairs[0].1],
        )
    }

    fn structured(task: &BipartiteMatchingTask) -> Value {
        let pairs: Vec<[&str; 2]> = task
            .pairs
            .iter()
            .map(|&(w, j)| [task.workers[w].as_str(), task.jobs[j].as_str()])
            .collect();
        json!({ "workers": task.workers, "jobs": task.jobs, "allowed": pairs })
    }

    fn reference(task: &BipartiteMatchingTask) -> String {
        task.matching
            .iter()
            .map(|&i| {
                let (w, j) = task.pairs[i];
                format!("{}-{}", task.workers[w], task.jobs[j])
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check(task: &BipartiteMatchingTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_pairs(answer, task)?;
        Ok(is_matching(task, &chosen) && chosen.len() == task.matching.len())
    }
}

#[cfg(test)]
#[path = "bipartite_matching_tests.rs"]
mod tests;
