//! A run directory: `manifest.json`, `episodes.jsonl` (one record per
//! finished episode, appended and flushed as each ends), and the reports.
//!
//! Interrupting a run loses at most the episodes in flight: resuming reads
//! the complete records back (dropping a half-written last line) and plays
//! only the missing jobs.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use verigym_envs::Registry;

use crate::availability::Skipped;
use crate::bench::{EpisodeRecord, JobKey};
use crate::suite::Suite;

pub const MANIFEST: &str = "manifest.json";
pub const EPISODES: &str = "episodes.jsonl";

/// What was run, with enough to reproduce it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub verigym_version: String,
    pub git_commit: String,
    pub suite: Suite,
    pub suite_hash: String,
    /// Per env entry: id, version, complete config and its hash.
    pub envs: Vec<Value>,
    pub agents: Vec<String>,
    /// Envs of the suite that did not run here (a runtime is missing).
    #[serde(default)]
    pub skipped: Vec<Skipped>,
}

impl Manifest {
    /// Probes which envs can run here ([`crate::availability`]).
    ///
    /// # Errors
    /// An env of the suite that cannot be made.
    pub fn new(registry: &Registry, suite: &Suite) -> Result<Manifest> {
        let mut envs = Vec::new();
        let mut agents = BTreeSet::new();
        for entry in &suite.envs {
            let env = registry.make(&entry.id, entry.config.as_ref())?;
            envs.push(serde_json::json!({
                "id": entry.id, "env_version": env.spec().version(),
                "config": env.config(), "config_hash": env.config_hash(),
            }));
            agents.extend(suite.agents_of(entry).iter().cloned());
        }
        Ok(Manifest {
            verigym_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: git_commit(),
            suite: suite.clone(),
            suite_hash: suite.hash(),
            envs,
            agents: agents.into_iter().collect(),
            skipped: crate::availability::unavailable(
                &suite.envs.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ),
        })
    }
}

/// The commit of the working tree, if this runs inside a git checkout.
fn git_commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// An open run directory.
pub struct RunDir {
    pub path: PathBuf,
    log: Mutex<std::fs::File>,
}

impl RunDir {
    /// Starts a fresh run in `path` (emptying an old run there), or resumes
    /// the run there when `resume` is set and its suite hash matches.
    /// Returns the directory and the records already complete.
    ///
    /// # Errors
    /// I/O errors, or resuming a run of a different suite.
    pub fn open(
        path: &Path,
        manifest: &Manifest,
        resume: bool,
    ) -> Result<(RunDir, Vec<EpisodeRecord>)> {
        std::fs::create_dir_all(path)
            .with_context(|| format!("cannot create `{}`", path.display()))?;
        let manifest_path = path.join(MANIFEST);
        let mut records = Vec::new();
        if resume && manifest_path.exists() {
            let old: Manifest = serde_json::from_str(&std::fs::read_to_string(&manifest_path)?)
                .with_context(|| {
                    format!("`{}` is not a gym-bench manifest", manifest_path.display())
                })?;
            if old.suite_hash != manifest.suite_hash {
                bail!(
                    "`{}` holds a run of another suite (hash {}); use a new --out directory or drop --resume",
                    path.display(),
                    old.suite_hash
                );
            }
            records = read_records(path)?;
        }
        std::fs::write(
            &manifest_path,
            serde_json::to_string_pretty(manifest)? + "\n",
        )?;
        // Rewrite the log with only complete records, so appends never land
        // on a half-written line.
        let mut file = std::fs::File::create(path.join(EPISODES))?;
        for record in &records {
            writeln!(file, "{}", serde_json::to_string(record)?)?;
        }
        file.flush()?;
        Ok((
            RunDir {
                path: path.to_path_buf(),
                log: Mutex::new(file),
            },
            records,
        ))
    }

    /// Appends one record and flushes it to the OS.
    ///
    /// # Errors
    /// I/O errors.
    pub fn append(&self, record: &EpisodeRecord) -> Result<()> {
        let line = serde_json::to_string(record)? + "\n";
        let mut file = self.log.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())?;
        file.flush()?;
        Ok(())
    }
}

/// The complete records of a run directory, skipping a torn last line.
///
/// # Errors
/// A missing log, or a bad line that is not the last.
pub fn read_records(path: &Path) -> Result<Vec<EpisodeRecord>> {
    let text = std::fs::read_to_string(path.join(EPISODES))
        .with_context(|| format!("cannot read `{}`", path.join(EPISODES).display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut records = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<EpisodeRecord>(line) {
            Ok(record) => records.push(record),
            Err(_) if i + 1 == lines.len() => {} // interrupted mid-write
            Err(e) => bail!("{} line {}: {e}", EPISODES, i + 1),
        }
    }
    Ok(records)
}

/// Reads a run directory's manifest.
///
/// # Errors
/// Missing or malformed manifest.
pub fn read_manifest(path: &Path) -> Result<Manifest> {
    let text = std::fs::read_to_string(path.join(MANIFEST)).with_context(|| {
        format!(
            "`{}` has no {MANIFEST}: is it a gym-bench run directory?",
            path.display()
        )
    })?;
    Ok(serde_json::from_str(&text)?)
}

/// Jobs not yet in `done`.
pub fn missing_jobs(jobs: Vec<JobKey>, done: &[EpisodeRecord]) -> Vec<JobKey> {
    let finished: BTreeSet<&JobKey> = done.iter().map(|r| &r.key).collect();
    jobs.into_iter().filter(|j| !finished.contains(j)).collect()
}
