//! `verigym bench code`: sandbox throughput on HumanEval's 164 canonical solutions.
//!
//! One candidate = one problem's prompt + canonical solution, judged on all its cases in
//! the WASM sandbox with a fresh instance (exactly what `code/humaneval-v1` does for an
//! answer). Three ways to run it:
//! - one thread (`--workers 1`, the default): the per-core figure;
//! - thread per core (`--workers N`): N threads sharing one engine and compiled component;
//! - process per core (`--workers N --processes`): N copies of this binary, each with its
//!   own engine, started together once all of them have loaded the runtime.
//!
//! Rates are given per wall second and per CPU second (`getrusage`: all threads of the
//! measuring processes, precise on a busy machine too), so a figure taken next to other
//! jobs still says what one core does. Loading the runtime is excluded (it is done once
//! per process and cached on disk).

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use verigym_envs::code::humaneval;
use verigym_envs::sandboxed::python;

/// What one run measured.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct CodeBenchReport {
    /// `thread`, `threads` or `processes`.
    pub mode: String,
    pub workers: usize,
    pub passes: usize,
    pub candidates: usize,
    /// Test cases run (every case of every candidate: all canonical solutions pass).
    pub cases: usize,
    /// Candidates that did not pass (0 unless the sandbox or the data is broken).
    pub failed: usize,
    pub wall_s: f64,
    /// CPU seconds of the measuring process(es), all threads.
    pub cpu_s: f64,
    /// The slowest problems (fastest of their passes, wall ms on one worker), slowest first.
    #[serde(default)]
    pub slowest: Vec<ProblemTime>,
    /// Median over the problems of their fastest pass, in ms.
    #[serde(default)]
    pub median_problem_ms: f64,
    /// Share of the summed per-problem times taken by `slowest`.
    #[serde(default)]
    pub slowest_share: f64,
    /// Every problem's time in every pass (what workers send back; emptied by `finish`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problem_ms: Vec<ProblemTime>,
}

/// How long judging one problem's canonical solution took (one pass, wall ms).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProblemTime {
    pub task_id: String,
    pub ms: f64,
}

/// How many of the slowest problems a report names.
const SLOWEST_SHOWN: usize = 3;

impl CodeBenchReport {
    pub fn candidates_per_s(&self) -> f64 {
        self.candidates as f64 / self.wall_s.max(1e-9)
    }
    pub fn cases_per_s(&self) -> f64 {
        self.cases as f64 / self.wall_s.max(1e-9)
    }
    pub fn candidates_per_cpu_s(&self) -> f64 {
        self.candidates as f64 / self.cpu_s.max(1e-9)
    }
    pub fn cases_per_cpu_s(&self) -> f64 {
        self.cases as f64 / self.cpu_s.max(1e-9)
    }

    /// Reduces `problem_ms` (all passes) to the per-problem figures: each problem's fastest
    /// pass, the slowest few, their share of the total, and the median.
    fn finish(&mut self) {
        let mut best: std::collections::BTreeMap<&str, f64> = Default::default();
        for p in &self.problem_ms {
            let b = best.entry(p.task_id.as_str()).or_insert(f64::INFINITY);
            *b = b.min(p.ms);
        }
        let mut times: Vec<ProblemTime> = best
            .into_iter()
            .map(|(task_id, ms)| ProblemTime {
                task_id: task_id.to_string(),
                ms,
            })
            .collect();
        times.sort_by(|a, b| b.ms.total_cmp(&a.ms));
        let total: f64 = times.iter().map(|p| p.ms).sum();
        self.median_problem_ms = times.get(times.len() / 2).map_or(0.0, |p| p.ms);
        times.truncate(SLOWEST_SHOWN);
        self.slowest_share = times.iter().map(|p| p.ms).sum::<f64>() / total.max(1e-9);
        self.slowest = times;
        self.problem_ms.clear();
    }

    /// Two lines for people: the rates, then the per-problem figures.
    pub fn summary(&self) -> String {
        let slowest: Vec<String> = self
            .slowest
            .iter()
            .map(|p| format!("{} {:.0} ms", p.task_id, p.ms))
            .collect();
        format!(
            "{} x {} ({} candidates, {} cases, {} failed): {:.0} candidates/s, {:.0} cases/s wall; \
             {:.0} candidates/CPU-s, {:.0} cases/CPU-s ({:.2} s wall, {:.2} CPU-s)\n\
             per problem: median {:.2} ms; slowest {} ({:.0}% of the time)",
            self.mode,
            self.workers,
            self.candidates,
            self.cases,
            self.failed,
            self.candidates_per_s(),
            self.cases_per_s(),
            self.candidates_per_cpu_s(),
            self.cases_per_cpu_s(),
            self.wall_s,
            self.cpu_s,
            self.median_problem_ms,
            slowest.join(", "),
            100.0 * self.slowest_share,
        )
    }
}

/// CPU seconds used so far by this process (all threads, live and finished).
pub fn process_cpu_seconds() -> f64 {
    rusage_seconds(libc::RUSAGE_SELF)
}

fn rusage_seconds(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct we pass; zeroed is a valid rusage.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(who, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// What a share of the work counted.
#[derive(Default)]
struct Tally {
    candidates: usize,
    cases: usize,
    failed: usize,
    problem_ms: Vec<ProblemTime>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.candidates += other.candidates;
        self.cases += other.cases;
        self.failed += other.failed;
        self.problem_ms.extend(other.problem_ms);
    }
}

/// Judges problems `shard.0, shard.0 + shard.1, …` of the 164, `passes` times, on
/// `threads` threads.
fn judge_share(shard: (usize, usize), passes: usize, threads: usize) -> Result<Tally, String> {
    let py = python().map_err(|e| e.to_string())?;
    let problems = humaneval::problems();
    let limits = humaneval::limits();
    let mine: Vec<&humaneval::Problem> = problems.iter().skip(shard.0).step_by(shard.1).collect();
    let jobs: Vec<&humaneval::Problem> = (0..passes).flat_map(|_| mine.iter().copied()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Result<Tally, String> {
        let mut tally = Tally::default();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(p) = jobs.get(i) else { break };
            let src = format!("{}{}", p.prompt, p.canonical_solution);
            let started = Instant::now();
            let verdict = py
                .judge(&src, &p.entry_point, &p.cases, &limits, p.float_tol)
                .map_err(|e| format!("{}: sandbox error: {e}", p.task_id))?;
            tally.problem_ms.push(ProblemTime {
                task_id: p.task_id.clone(),
                ms: started.elapsed().as_secs_f64() * 1e3,
            });
            tally.candidates += 1;
            tally.cases += p.cases.len();
            tally.failed += usize::from(!verdict.passed());
        }
        Ok(tally)
    };
    if threads <= 1 {
        return work();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        let mut total = Tally::default();
        for h in handles {
            total.add(
                h.join()
                    .map_err(|_| "a bench thread panicked".to_string())??,
            );
        }
        Ok(total)
    })
}

/// In-process run on `threads` threads (1 = the calling thread).
pub fn bench_in_process(
    threads: usize,
    passes: usize,
    shard: (usize, usize),
) -> Result<CodeBenchReport, String> {
    let mut report = measure(threads, passes, shard)?;
    report.finish();
    Ok(report)
}

/// The timed run, with every problem's time still listed (workers send them all).
fn measure(
    threads: usize,
    passes: usize,
    shard: (usize, usize),
) -> Result<CodeBenchReport, String> {
    python().map_err(|e| e.to_string())?; // load (or build) the runtime outside the timed part
    let (cpu0, t0) = (process_cpu_seconds(), Instant::now());
    let tally = judge_share(shard, passes, threads)?;
    Ok(CodeBenchReport {
        mode: (if threads <= 1 { "thread" } else { "threads" }).to_string(),
        workers: threads.max(1),
        passes,
        candidates: tally.candidates,
        cases: tally.cases,
        failed: tally.failed,
        wall_s: t0.elapsed().as_secs_f64(),
        cpu_s: process_cpu_seconds() - cpu0,
        problem_ms: tally.problem_ms,
        ..CodeBenchReport::default()
    })
}

/// Child side of `--processes`: load, say `ready`, wait for a line on stdin, run the shard,
/// print the report as JSON.
pub fn bench_worker(shard: (usize, usize), passes: usize) -> Result<(), String> {
    python().map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())?;
    let mut go = String::new();
    std::io::stdin()
        .read_line(&mut go)
        .map_err(|e| e.to_string())?;
    let report = measure(1, passes, shard)?;
    writeln!(
        out,
        "{}",
        serde_json::to_string(&report).map_err(|e| e.to_string())?
    )
    .map_err(|e| e.to_string())
}

/// Process per core: `workers` copies of this binary (`exe`, run as
/// `exe bench code --worker K/N --passes P`), started together once all are loaded.
pub fn bench_processes(
    exe: &std::path::Path,
    workers: usize,
    passes: usize,
) -> Result<CodeBenchReport, String> {
    let workers = workers.max(1);
    let mut children = Vec::new();
    for k in 0..workers {
        let mut child = Command::new(exe)
            .args([
                "bench",
                "code",
                "--worker",
                &format!("{k}/{workers}"),
                "--passes",
                &passes.to_string(),
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting bench worker {}: {e}", exe.display()))?;
        let stdout = BufReader::new(child.stdout.take().ok_or("worker without stdout")?);
        children.push((child, stdout));
    }
    let read_line = |r: &mut BufReader<std::process::ChildStdout>| -> Result<String, String> {
        let mut line = String::new();
        r.read_line(&mut line).map_err(|e| e.to_string())?;
        Ok(line.trim().to_string())
    };
    for (_, stdout) in &mut children {
        let line = read_line(stdout)?;
        if line != "ready" {
            return Err(format!("bench worker failed to start (said {line:?})"));
        }
    }
    let t0 = Instant::now();
    for (child, _) in &mut children {
        let stdin = child.stdin.as_mut().ok_or("worker without stdin")?;
        stdin
            .write_all(b"go\n")
            .and_then(|()| stdin.flush())
            .map_err(|e| e.to_string())?;
    }
    let mut total = CodeBenchReport {
        mode: "processes".into(),
        workers,
        passes,
        ..CodeBenchReport::default()
    };
    for (child, stdout) in &mut children {
        let line = read_line(stdout)?;
        let part: CodeBenchReport = serde_json::from_str(&line)
            .map_err(|e| format!("bench worker report {line:?}: {e}"))?;
        total.candidates += part.candidates;
        total.cases += part.cases;
        total.failed += part.failed;
        total.cpu_s += part.cpu_s;
        total.problem_ms.extend(part.problem_ms);
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("bench worker exited with {status}"));
        }
    }
    total.wall_s = t0.elapsed().as_secs_f64();
    total.finish();
    Ok(total)
}

/// Parses `K/N` (shard K of N).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--worker takes K/N with K < N, got {s:?}");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn time(task_id: &str, ms: f64) -> ProblemTime {
        ProblemTime {
            task_id: task_id.into(),
            ms,
        }
    }

    #[test]
    fn finish_keeps_each_problems_fastest_pass_and_names_the_slowest() {
        let mut report = CodeBenchReport {
            problem_ms: vec![
                time("a", 9.0),
                time("b", 1.0),
                time("c", 2.0),
                time("d", 3.0),
                time("e", 5.0),
                // second pass: a got faster, b slower (its first pass counts)
                time("a", 4.0),
                time("b", 7.0),
            ],
            ..CodeBenchReport::default()
        };
        report.finish();
        let names: Vec<&str> = report.slowest.iter().map(|p| p.task_id.as_str()).collect();
        assert_eq!(names, ["e", "a", "d"]);
        assert_eq!(report.slowest[1].ms, 4.0);
        // fastest passes 4, 1, 2, 3, 5: median 3, slowest three 12 of 15
        assert_eq!(report.median_problem_ms, 3.0);
        assert!((report.slowest_share - 0.8).abs() < 1e-12);
        assert!(report.problem_ms.is_empty());
        assert!(
            report
                .summary()
                .contains("slowest e 5 ms, a 4 ms, d 3 ms (80% of the time)")
        );
    }

    #[test]
    fn shards_must_be_k_of_n() {
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        for bad in ["4/4", "1/0", "x/2", "3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
