//! `logic/job-shop-v1`: schedule named jobs on machines so that all of them
//! finish as early as possible (job-shop scheduling, optimum proven by
//! branch and bound).
//!
//! # Task
//! `jobs` jobs with distinct random three-letter names on `machines`
//! machines `M1`, `M2`, …; each job visits every machine once, in a random
//! order, with durations in `1..=max_duration`. Operations of a job run in
//! order, a machine runs one operation at a time, nothing is interrupted.
//! Draws where the jobs never compete for a machine (each job run back to
//! back from time 0 is already optimal) are redrawn, as are draws whose
//! search would exceed its node budget.
//!
//! # Action
//! For every job, its name and then the start times of its operations in
//! order: one job per line (or separated by `;`), e.g. `ABC: 0 3 8`;
//! colons, commas, brackets and a leading word `Job` are optional, case is
//! ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The jobs, each a list of (machine, duration) operations. Structured: the
//! same.
//!
//! # Reward
//! 1 and `passed` for a schedule that gives every job exactly its start
//! times, keeps each job's order, never overlaps two operations on one
//! machine, and whose makespan (the last end time) is the optimum; every
//! optimal schedule passes (the check never compares with one reference
//! schedule); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `jobs` (2..=6), `machines` (2..=6), `max_duration` (2..=99).
//!
//! # Seeding
//! Names, machine orders and durations come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::iter::once;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before a config is reported as making no task.
const MAX_DRAWS: u64 = 1_000;
/// Search nodes one draw's branch and bound may use.
const MAX_NODES: u64 = 200_000;
/// The largest start time read (keeps sums far from overflow).
const MAX_TIME: u64 = 1_000_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JobShopConfig {
    pub jobs: usize,
    pub machines: usize,
    pub max_duration: u64,
}

impl Default for JobShopConfig {
    fn default() -> Self {
        JobShopConfig {
            jobs: 4,
            machines: 3,
            max_duration: 9,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobShopTask {
    pub names: Vec<String>,
    pub machine_count: usize,
    /// `ops[j][k]` = (machine index, duration) of job `j`'s `k`-th operation.
    pub ops: Vec<Vec<(usize, u64)>>,
    /// The optimal makespan.
    pub makespan: u64,
    /// One optimal schedule: `starts[j][k]`.
    pub starts: Vec<Vec<u64>>,
}

/// Branch and bound over active schedules (Giffler and Thompson): every
/// job shop has an optimal active schedule, so the search is exact.
struct Search<'a> {
    ops: &'a [Vec<(usize, u64)>],
    /// `tails[j][k]`: the total duration of job `j`'s operations `k..`.
    tails: Vec<Vec<u64>>,
    next: Vec<usize>,
    job_ready: Vec<u64>,
    machine_ready: Vec<u64>,
    starts: Vec<Vec<u64>>,
    best: u64,
    best_starts: Vec<Vec<u64>>,
    nodes: u64,
    max_nodes: u64,
}

impl Search<'_> {
    /// A bound no completion of the partial schedule beats: the longest
    /// remaining job, and per machine the one-machine bound with heads and
    /// tails (its operations cannot start before their heads, run one at a
    /// time, and leave at least the shortest tail after the last).
    fn lower_bound(&self, machines: usize) -> u64 {
        let mut bound = 0;
        // (head, duration, tail) of the remaining operations per machine.
        let mut remaining: Vec<Vec<(u64, u64, u64)>> = vec![Vec::new(); machines];
        for (j, job) in self.ops.iter().enumerate() {
            let first = self.next[j];
            let done = self.tails[j][first];
            bound = bound.max(self.job_ready[j] + done);
            for (k, &(m, p)) in job.iter().enumerate().skip(first) {
                let head = self.job_ready[j] + done - self.tails[j][k];
                remaining[m].push((head.max(self.machine_ready[m]), p, self.tails[j][k + 1]));
            }
        }
        for ops in &mut remaining {
            ops.sort_unstable();
            // Every suffix by head: they start no earlier than its first
            // head and all run before the last of them finishes.
            let (mut work, mut tail) = (0, u64::MAX);
            for &(head, p, q) in ops.iter().rev() {
                work += p;
                tail = tail.min(q);
                bound = bound.max(head + work + tail);
            }
        }
        bound
    }

    fn search(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        let machines = self.machine_ready.len();
        let open: Vec<usize> = (0..self.ops.len())
            .filter(|&j| self.next[j] < self.ops[j].len())
            .collect();
        if open.is_empty() {
            let makespan = self.job_ready.iter().copied().max().unwrap_or(0);
            if makespan < self.best {
                self.best = makespan;
                self.best_starts = self.starts.clone();
            }
            return true;
        }
        if self.lower_bound(machines) >= self.best {
            return true;
        }
        let start = |s: &Self, j: usize| {
            let (m, _) = s.ops[j][s.next[j]];
            s.job_ready[j].max(s.machine_ready[m])
        };
        // The operation that could finish first fixes the machine; any
        // operation there that could start before that end may go first.
        let first = *open
            .iter()
            .min_by_key(|&&j| start(self, j) + self.ops[j][self.next[j]].1)
            .expect("open is not empty");
        let (machine, p) = self.ops[first][self.next[first]];
        let end = start(self, first) + p;
        let mut conflict: Vec<usize> = open
            .into_iter()
            .filter(|&j| self.ops[j][self.next[j]].0 == machine && start(self, j) < end)
            .collect();
        conflict.sort_by_key(|&j| (start(self, j), u64::MAX - self.tails[j][self.next[j]]));
        for j in conflict {
            let k = self.next[j];
            let s = start(self, j);
            let (saved_job, saved_machine) = (self.job_ready[j], self.machine_ready[machine]);
            self.starts[j][k] = s;
            self.next[j] += 1;
            self.job_ready[j] = s + self.ops[j][k].1;
            self.machine_ready[machine] = s + self.ops[j][k].1;
            let finished = self.search();
            self.next[j] -= 1;
            self.job_ready[j] = saved_job;
            self.machine_ready[machine] = saved_machine;
            if !finished {
                return false;
            }
        }
        true
    }
}

/// The optimal makespan and one optimal schedule, or `None` when the search
/// needs more than `max_nodes` nodes.
fn solve(
    ops: &[Vec<(usize, u64)>],
    machines: usize,
    max_nodes: u64,
) -> Option<(u64, Vec<Vec<u64>>)> {
    let tails: Vec<Vec<u64>> = ops
        .iter()
        .map(|job| {
            let mut tail = vec![0; job.len() + 1];
            for k in (0..job.len()).rev() {
                tail[k] = tail[k + 1] + job[k].1;
            }
            tail
        })
        .collect();
    // Start from the jobs run one after another: a valid schedule.
    let mut sequential = Vec::new();
    let mut clock = 0;
    for job in ops {
        sequential.push(
            job.iter()
                .map(|&(_, p)| {
                    clock += p;
                    clock - p
                })
                .collect::<Vec<u64>>(),
        );
    }
    let mut search = Search {
        ops,
        tails,
        next: vec![0; ops.len()],
        job_ready: vec![0; ops.len()],
        machine_ready: vec![0; machines],
        starts: ops.iter().map(|job| vec![0; job.len()]).collect(),
        best: clock,
        best_starts: sequential,
        nodes: 0,
        max_nodes,
    };
    search.search().then_some((search.best, search.best_starts))
}

/// Whether `starts` is a valid schedule of `ops` (job order kept, no two
/// operations overlapping on a machine); its makespan if so.
fn makespan_of(ops: &[Vec<(usize, u64)>], machines: usize, starts: &[Vec<u64>]) -> Option<u64> {
    let mut busy: Vec<Vec<(u64, u64)>> = vec![Vec::new(); machines];
    let mut makespan = 0;
    for (job, times) in ops.iter().zip(starts) {
        if job.len() != times.len() {
            return None;
        }
        let mut ready = 0;
        for (&(m, p), &s) in job.iter().zip(times) {
            if s < ready {
                return None;
            }
            ready = s + p;
            busy[m].push((s, ready));
        }
        makespan = makespan.max(ready);
    }
    for intervals in &mut busy {
        intervals.sort_unstable();
        if intervals.windows(2).any(|w| w[1].0 < w[0].1) {
            return None;
        }
    }
    Some(makespan)
}

/// Reads `NAME t t t` groups: each non-number starts a job, numbers are its
/// start times. Unreadable: an unknown name, a number before any name, a
/// time too large, no job at all.
fn parse_schedule(
    answer: &str,
    task: &JobShopTask,
) -> Result<Vec<(usize, Vec<u64>)>, InvalidAction> {
    let cleaned = answer
        .replace("\\\\", "\n")
        .replace([',', ';', ':', '|', '[', ']', '(', ')', '{', '}', '='], " ");
    let mut groups: Vec<(usize, Vec<u64>)> = Vec::new();
    for token in cleaned.split_whitespace() {
        if token.bytes().all(|b| b.is_ascii_digit()) {
            let time: u64 = token
                .parse()
                .ok()
                .filter(|&t| t <= MAX_TIME)
                .ok_or_else(|| InvalidAction::new(format!("start time `{token}` is too large")))?;
            match groups.last_mut() {
                Some((_, times)) => times.push(time),
                None => return Err("start times before any job name".into()),
            }
            continue;
        }
        let known = task.names.iter().any(|n| n.eq_ignore_ascii_case(token));
        if token.eq_ignore_ascii_case("job") && !known {
            continue;
        }
        let job = read_names(once(token), &task.names, "job")?[0];
        groups.push((job, Vec::new()));
    }
    if groups.is_empty() {
        return Err("no job names given".into());
    }
    Ok(groups)
}

pub struct JobShop;

pub type JobShopEnv = SingleTurn<JobShop>;

impl Question for JobShop {
    type Config = JobShopConfig;
    type Task = JobShopTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/job-shop-v1",
        kind: EnvKind::SingleTurn,
        description: "Schedule jobs on machines with the smallest makespan; any optimal schedule passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"jobs":2,"machines":2,"max_duration":5}"#,
        r#"{"jobs":3,"machines":2,"max_duration":6}"#,
        r#"{"jobs":3,"machines":3,"max_duration":8}"#,
        "{}",
        r#"{"jobs":4,"machines":4,"max_duration":9}"#,
        r#"{"jobs":5,"machines":4,"max_duration":9}"#,
        r#"{"jobs":5,"machines":5,"max_duration":9}"#,
    ];

    fn effort(task: &JobShopTask) -> Option<f64> {
        Some(task.ops.iter().map(Vec::len).sum::<usize>() as f64)
    }

    fn validate(config: &JobShopConfig) -> Result<(), ConfigError> {
        if !(2..=6).contains(&config.jobs)
            || !(2..=6).contains(&config.machines)
            || !(2..=99).contains(&config.max_duration)
        {
            return Err("need 2 <= jobs <= 6, 2 <= machines <= 6, 2 <= max_duration <= 99".into());
        }
        Ok(())
    }

    fn generate(config: &JobShopConfig, rng: &mut Rng) -> JobShopTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &JobShopConfig, rng: &mut Rng) -> Result<JobShopTask, NoTask> {
        let draw = || {
            let names = draw_names(config.jobs, rng);
            let ops: Vec<Vec<(usize, u64)>> = (0..config.jobs)
                .map(|_| {
                    let mut order: Vec<usize> = (0..config.machines).collect();
                    rng.shuffle(&mut order);
                    order
                        .into_iter()
                        .map(|m| (m, 1 + rng.below(config.max_duration)))
                        .collect()
                })
                .collect();
            // Each job back to back from 0: optimal whenever it is valid.
            let eager: Vec<Vec<u64>> = ops
                .iter()
                .map(|job| {
                    let mut clock = 0;
                    job.iter()
                        .map(|&(_, p)| {
                            clock += p;
                            clock - p
                        })
                        .collect()
                })
                .collect();
            if makespan_of(&ops, config.machines, &eager).is_some() {
                return None;
            }
            let (makespan, starts) = solve(&ops, config.machines, MAX_NODES)?;
            Some(JobShopTask {
                names,
                machine_count: config.machines,
                ops,
                makespan,
                starts,
            })
        };
        crate::budget::draw_until(MAX_DRAWS, draw, || {
            format!(
                "no {} jobs on {} machines both competed for a machine and were solved within \
                 {MAX_NODES} search nodes in {MAX_DRAWS} draws: lower jobs or machines",
                config.jobs, config.machines
            )
        })
    }

    fn prompt(task: &JobShopTask) -> String {
        let jobs: Vec<String> = task
            .names
            .iter()
            .zip(&task.ops)
            .map(|(name, job)| {
                let steps: Vec<String> = job
                    .iter()
                    .map(|&(m, p)| format!("M{} for {p}", m + 1))
                    .collect();
                format!("{name}: {}", steps.join(", then "))
            })
            .collect();
        format!(
            "Schedule {} jobs on {} machines (M1 to M{}). Each job is a sequence of operations that must run \
             in the listed order: an operation may start only when the job's previous operation has finished, \
             and it occupies its machine for its whole duration without interruption. A machine runs one \
             operation at a time. Time starts at 0.\nJobs:\n{}\n\nFind a schedule whose makespan (the time the \
             last operation finishes) is as small as possible; only an optimal schedule counts. Answer with one \
             line per job: the job's name, a colon, then the start times of its operations in order, separated \
             by spaces (like `NAME: t1 t2 t3`), inside \\boxed{{}}.",
            task.names.len(),
            task.machine_count,
            task.machine_count,
            jobs.join("\n")
        )
    }

    fn structured(task: &JobShopTask) -> Value {
        let jobs: Vec<Value> = task
            .names
            .iter()
            .zip(&task.ops)
            .map(|(name, job)| {
                let ops: Vec<Value> = job
                    .iter()
                    .map(|&(m, p)| json!({"machine": format!("M{}", m + 1), "duration": p}))
                    .collect();
                json!({"name": name, "operations": ops})
            })
            .collect();
        json!({ "machines": task.machine_count, "jobs": jobs })
    }

    fn reference(task: &JobShopTask) -> String {
        task.names
            .iter()
            .zip(&task.starts)
            .map(|(name, times)| {
                let times: Vec<String> = times.iter().map(u64::to_string).collect();
                format!("{name}: {}", times.join(" "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn check(task: &JobShopTask, answer: &str) -> Result<bool, CheckError> {
        let groups = parse_schedule(answer, task)?;
        let mut starts: Vec<Option<Vec<u64>>> = vec![None; task.names.len()];
        for (job, times) in groups {
            if starts[job].replace(times).is_some() {
                return Ok(false);
            }
        }
        let Some(starts) = starts.into_iter().collect::<Option<Vec<_>>>() else {
            return Ok(false);
        };
        Ok(makespan_of(&task.ops, task.machine_count, &starts) == Some(task.makespan))
    }
}

#[cfg(test)]
#[path = "job_shop_tests.rs"]
mod tests;
