//! verigym's command-line tools, as a library the two binaries share.
//!
//! - `verigym` (`src/bin/verigym/`): list envs, generate task sets, score
//!   answers, audit and measure envs, play in a terminal, serve over HTTP,
//!   benchmark, train the reference agent;
//! - `gym-bench` (`src/bin/gym-bench.rs`): run agents on suites of envs,
//!   rank them, write and compare reports.
//!
//! Modules by job:
//! - [`agents`]: every agent by name (built-in, `http:`, `burn:`, `human`);
//! - [`suite`], [`availability`], [`bench`], [`runlog`], [`metrics`],
//!   [`summary`], [`report`]: suites, which of their envs can run here,
//!   running them, run directories, leaderboard statistics, the per-agent
//!   summary, and the markdown, HTML and plain-text reports;
//! - [`serve`]: the HTTP server (`verigym serve`) and its load generator;
//! - [`check`], [`envbench`], [`code_bench`], [`exploit`]: the math-check
//!   command and the env, sandbox and poker-exploitability benchmarks;
//! - [`bin_support`]: exit codes, argument parsing and input/output helpers.
//!
//! Card generation, scoring and the env audit live in `verigym-envs`
//! (`generate`, `score`, `testing`), so the Python package shares them
//! without this crate's dependencies (tokio, hyper, plotters, burn).

pub mod agents;
pub mod availability;
pub mod bench;
pub mod bin_support;
pub mod check;
pub mod code_bench;
pub mod envbench;
pub mod exploit;
pub mod metrics;
pub mod report;
pub mod runlog;
pub mod serve;
pub mod suite;
pub mod summary;
