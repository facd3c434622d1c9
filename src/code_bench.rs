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
use verigym_envs::code::{humaneval, python};

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
}

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

    /// One line for people.
    pub fn summary(&self) -> String {
        format!(
            "{} x {} ({} candidates, {} cases, {} failed): {:.0} candidates/s, {:.0} cases/s wall; \
             {:.0} candidates/CPU-s, {:.0} cases/CPU-s ({:.2} s wall, {:.2} CPU-s)",
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
            self.cpu_s
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

/// Judges problems `shard.0, shard.0 + shard.1, …` of the 164, `passes` times, on
/// `threads` threads; returns (candidates, cases, failed).
fn judge_share(
    shard: (usize, usize),
    passes: usize,
    threads: usize,
) -> Result<(usize, usize, usize), String> {
    let py = python()?;
    let problems = humaneval::problems();
    let limits = humaneval::limits();
    let mine: Vec<&humaneval::Problem> = problems.iter().skip(shard.0).step_by(shard.1).collect();
    let jobs: Vec<&humaneval::Problem> = (0..passes).flat_map(|_| mine.iter().copied()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Result<(usize, usize, usize), String> {
        let (mut candidates, mut cases, mut failed) = (0, 0, 0);
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(p) = jobs.get(i) else { break };
            let src = format!("{}{}", p.prompt, p.canonical_solution);
            let verdict = py
                .judge(&src, &p.entry_point, &p.cases, &limits, p.float_tol)
                .map_err(|e| format!("{}: sandbox error: {e}", p.task_id))?;
            candidates += 1;
            cases += p.cases.len();
            failed += usize::from(!verdict.passed());
        }
        Ok((candidates, cases, failed))
    };
    if threads <= 1 {
        return work();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
        let mut total = (0, 0, 0);
        for h in handles {
            let (a, b, c) = h
                .join()
                .map_err(|_| "a bench thread panicked".to_string())??;
            total = (total.0 + a, total.1 + b, total.2 + c);
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
    python()?; // load (or build) the runtime outside the timed part
    let (cpu0, t0) = (process_cpu_seconds(), Instant::now());
    let (candidates, cases, failed) = judge_share(shard, passes, threads)?;
    Ok(CodeBenchReport {
        mode: (if threads <= 1 { "thread" } else { "threads" }).to_string(),
        workers: threads.max(1),
        passes,
        candidates,
        cases,
        failed,
        wall_s: t0.elapsed().as_secs_f64(),
        cpu_s: process_cpu_seconds() - cpu0,
    })
}

/// Child side of `--processes`: load, say `ready`, wait for a line on stdin, run the shard,
/// print the report as JSON.
pub fn bench_worker(shard: (usize, usize), passes: usize) -> Result<(), String> {
    python()?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")
        .and_then(|()| out.flush())
        .map_err(|e| e.to_string())?;
    let mut go = String::new();
    std::io::stdin()
        .read_line(&mut go)
        .map_err(|e| e.to_string())?;
    let report = bench_in_process(1, passes, shard)?;
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
        let status = child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("bench worker exited with {status}"));
        }
    }
    total.wall_s = t0.elapsed().as_secs_f64();
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
