//! The tool-call toolkit shared by the tool envs ([`crate::tools`]) and the
//! web envs ([`crate::web`]):
//!
//! - [`calls`]: the one internal call type and writing a call in each action
//!   format; [`parse`]: reading a turn's calls in any format (the formats are
//!   found by `sites`, pythonic lists read by `pythonic`) and checking each
//!   against the tool's schema (`check`); [`spec`]: tool specs and their
//!   OpenAI schemas.
//! - [`tool_env`]: the [`ToolEnv`](tool_env::ToolEnv) trait, running a
//!   turn's calls in order with each call counted toward the episode's cap
//!   ([`apply_calls`](tool_env::apply_calls)), and (in the crate) the log of
//!   calls and results and the observation text.
//! - [`screen`]: runs the reference solver through the agent's own
//!   parse/step path: the generation-time check that rejects tasks
//!   degenerate scripts already solve, and the effort of a tool task.
//!
//! Crate-internal: `final_answer` (matching final answers
//! and `infeasible: EVIDENCE` verdicts), `bm25` (ranked text search over a
//! small corpus), and, in tests, `testkit` (the acceptance tests every tool
//! and web env runs).

pub(crate) mod bm25;
pub mod calls;
mod check;
pub(crate) mod final_answer;
pub mod parse;
mod pythonic;
pub mod screen;
mod sites;
pub mod spec;
pub mod tool_env;

#[cfg(test)]
mod calls_tests;
#[cfg(test)]
mod conflicts_tests;
#[cfg(test)]
mod formats_tests;
#[cfg(test)]
pub(crate) mod testkit;
