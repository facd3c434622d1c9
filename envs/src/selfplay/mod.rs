//! Propose-and-solve self-play (issue #12): one model proposes a task, the env checks the
//! proposal is a real, verifiable task, then the solver attempts it `solver_samples`
//! times within the same episode.
//!
//! - [`code_io`]: `selfplay/code-io-v1` (feature `sandbox`): the proposer writes a Python
//!   function `f` and inputs; the solver deduces an output, abduces an input, or induces
//!   the program from input/output pairs. Everything runs in the WASM sandbox.
//! - [`math_propose`]: `selfplay/math-propose-v1`: the proposer writes a problem, its
//!   answer and an arithmetic witness that the env evaluates exactly with its own parser.
//! - [`puzzle_propose`]: `selfplay/puzzle-propose-v1`: the proposer writes a sudoku, a SAT
//!   formula or a KenKen with exactly one solution (proven by the logic envs' solvers
//!   under a node cap); the solver's answer is checked by the logic env's own check.
//! - [`sql_propose`]: `selfplay/sql-propose-v1`: the proposer writes a question about a
//!   generated database and its SQL; the solver answers with SQL; both are run by
//!   `tools/sql-db`'s engine on the shown database and two hidden ones.
//! - [`episode`]: the episode below, written once: [`episode::ProposeSolveEnv`] around
//!   each env's [`episode::ProposeSolve`] parts (prompts, proposal check, grading).
//! - [`buffer`]: a deduplicated buffer of validated proposals, served back as reference
//!   examples (through the configs' `reference_pool`) and as a fixed dataset.
//!
//! # Episode
//! Player 0 (proposer) moves once; an invalid proposal ends the episode at once with the
//! penalty. Otherwise player 1 (solver) moves `solver_samples` times; each attempt sees the
//! same task (with its attempt index) and nothing of the other attempts, so the attempts
//! are independent samples.
//!
//! # Rewards
//! - Solver: the share of its attempts that verified (each attempt pays `1/N` when it is
//!   verified, so a trainer that wants per-sample 0/1 rewards multiplies by `N` or reads
//!   `attempt_i` from the breakdown). `passed` only when every attempt verified.
//! - Proposer: the learnability `1 - solve_rate` when `0 < solve_rate < 1`, else 0
//!   (a task every sample solves, or none does, teaches nothing); `passed` when it is
//!   positive. An invalid proposal scores `-invalid_penalty` (default 0.5) with
//!   `rejected_<reason>` = 1 in the breakdown and the reason in the step's events.
//! - For grouping across episodes (e.g. one proposal, solver samples from a batched
//!   sampler), [`learnability`] is the same function the env uses.

pub mod buffer;
#[cfg(feature = "sandbox")]
pub mod code_io;
pub mod episode;
pub mod math_propose;
#[cfg(feature = "sandbox")]
pub(crate) mod programs;
pub mod puzzle_propose;
#[cfg(feature = "sandbox")]
pub mod pyliteral;
pub mod sql_propose;
#[cfg(feature = "sandbox")]
pub(crate) mod validate;
pub(crate) mod witness;

#[cfg(all(test, feature = "sandbox"))]
mod hacks;
#[cfg(test)]
mod math_propose_tests;
#[cfg(test)]
mod puzzle_propose_tests;
#[cfg(test)]
mod sql_propose_tests;
#[cfg(test)]
mod testkit;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{NO_VERDICT, Player, Score, Turn};

/// The proposer's seat.
pub const PROPOSER: Player = 0;
/// The solver's seat.
pub const SOLVER: Player = 1;

/// Largest `solver_samples`; `max_steps` is one more.
pub const MAX_SOLVER_SAMPLES: usize = 16;

/// The learnability reward of a proposal from its solver results: `1 - solve_rate` when
/// some but not all attempts succeeded, else 0.
pub fn learnability(results: &[bool]) -> f64 {
    let solved = results.iter().filter(|r| **r).count();
    if solved == 0 || solved == results.len() {
        return 0.0;
    }
    1.0 - solved as f64 / results.len() as f64
}

/// Why a proposal was refused: a short code (the breakdown key `rejected_<code>`) and a
/// message saying what was wrong and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rejection {
    pub code: String,
    pub reason: String,
}

/// The [`Rejection`] code of a proposal that could not be checked because the sandbox or
/// the host failed, not the proposal: the episode then has no verdict.
pub const UNJUDGED: &str = "unjudged";

impl Rejection {
    pub fn new(code: &str, reason: impl Into<String>) -> Self {
        Rejection {
            code: code.to_string(),
            reason: reason.into(),
        }
    }

    /// The sandbox or the host failed while checking the proposal (see [`UNJUDGED`]).
    pub fn unjudged(reason: impl std::fmt::Display) -> Self {
        Rejection::new(UNJUDGED, reason.to_string())
    }
}

/// Where an episode stands, shared by both envs: the proposal's verdict and the solver's
/// attempts so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Ledger {
    pub samples: usize,
    pub penalty: f64,
    /// `None` before the proposal; then valid (`Ok`) or refused.
    pub proposal: Option<Result<(), Rejection>>,
    pub attempts: Vec<bool>,
    /// Attempts the sandbox or the host could not judge (counted in `attempts` as not
    /// verified, and making the whole episode verdict-less: see [`Ledger::judged`]).
    pub unjudged: usize,
}

impl Ledger {
    pub fn new(samples: usize, penalty: f64) -> Self {
        Ledger {
            samples,
            penalty,
            ..Ledger::default()
        }
    }

    pub fn turn(&self) -> Turn {
        match &self.proposal {
            None => Turn::Player(PROPOSER),
            Some(Err(_)) => Turn::Over,
            Some(Ok(())) if self.attempts.len() < self.samples => Turn::Player(SOLVER),
            Some(Ok(())) => Turn::Over,
        }
    }

    pub fn role(player: Player) -> &'static str {
        if player == PROPOSER {
            "proposer"
        } else {
            "solver"
        }
    }

    /// The proposer's score: pending (0) until every attempt is in.
    pub fn proposer_score(&self) -> Score {
        match &self.proposal {
            None => Score::default(),
            Some(Err(rejection)) => Score::default()
                .with(-self.penalty, false)
                .part("valid", 0.0)
                .part(&format!("rejected_{}", rejection.code), 1.0),
            Some(Ok(())) => {
                let done = self.attempts.len() == self.samples;
                let reward = if done {
                    learnability(&self.attempts)
                } else {
                    0.0
                };
                Score::default()
                    .with(reward, reward > 0.0)
                    .part("valid", 1.0)
                    .part("solve_rate", self.solve_rate())
                    .part("learnability", reward)
            }
        }
    }

    /// The solver's score: the share of its attempts that verified.
    pub fn solver_score(&self) -> Score {
        let rate = self.solve_rate();
        let all = !self.attempts.is_empty()
            && self.attempts.len() == self.samples
            && self.attempts.iter().all(|a| *a);
        let mut score = Score::default()
            .with(
                self.attempts.iter().filter(|a| **a).count() as f64 / self.samples.max(1) as f64,
                all,
            )
            .part("correct", rate)
            .part("attempts", self.attempts.len() as f64);
        for (i, ok) in self.attempts.iter().enumerate() {
            score = score.part(&format!("attempt_{i}"), *ok as u8 as f64);
        }
        score
    }

    pub fn solve_rate(&self) -> f64 {
        if self.attempts.is_empty() {
            return 0.0;
        }
        self.attempts.iter().filter(|a| **a).count() as f64 / self.attempts.len() as f64
    }

    /// The structured-observation fields every selfplay env shares.
    pub fn structured(&self, player: Player) -> Value {
        json!({
            "role": Ledger::role(player),
            "phase": match self.turn() {
                Turn::Player(PROPOSER) => "propose",
                Turn::Over => "over",
                _ => "solve",
            },
            "attempt": self.attempts.len(),
            "solver_samples": self.samples,
            "rejection": self.proposal.as_ref().and_then(|p| p.as_ref().err()),
        })
    }

    /// Records the proposer's move: a validated proposal goes into `slot`,
    /// a refused one ends the episode. Returns the step's events.
    pub fn record_proposal<P>(
        &mut self,
        slot: &mut Option<P>,
        verdict: Result<P, Rejection>,
        valid_event: String,
    ) -> Vec<String> {
        match verdict {
            Ok(proposal) => {
                *slot = Some(proposal);
                self.proposal = Some(Ok(()));
                vec![valid_event]
            }
            Err(rejection) => {
                let event = format!(
                    "invalid proposal ({}): {}",
                    rejection.code, rejection.reason
                );
                self.proposal = Some(Err(rejection));
                vec![event]
            }
        }
    }

    /// Records one solver attempt (`None`: the sandbox or the host could not judge it)
    /// and returns the step's events.
    pub fn record_attempt(&mut self, verdict: Option<bool>, note: &str) -> Vec<String> {
        self.attempts.push(verdict == Some(true));
        self.unjudged += usize::from(verdict.is_none());
        vec![self.attempt_event(verdict, note)]
    }

    /// `player`'s score in either role; without a verdict (see [`Ledger::judged`]) when the
    /// sandbox or the host failed on the proposal or on any attempt, since the
    /// proposer's learnability depends on every attempt.
    pub fn score(&self, player: Player) -> Score {
        let score = if player == PROPOSER {
            self.proposer_score()
        } else {
            self.solver_score()
        };
        if self.judged() {
            score
        } else {
            score.part(NO_VERDICT, 1.0)
        }
    }

    /// Whether everything so far was judged: no attempt and no proposal check failed for
    /// a reason other than the answer.
    pub fn judged(&self) -> bool {
        let proposal_unjudged =
            matches!(&self.proposal, Some(Err(rejection)) if rejection.code == UNJUDGED);
        self.unjudged == 0 && !proposal_unjudged
    }

    /// The event of one solver attempt.
    pub fn attempt_event(&self, verdict: Option<bool>, note: &str) -> String {
        format!(
            "attempt {}/{}: {} ({note})",
            self.attempts.len(),
            self.samples,
            match verdict {
                Some(true) => "verified",
                Some(false) => "not verified",
                None => "no verdict",
            }
        )
    }
}

/// Merges the shared structured fields into an env's own.
pub(crate) fn with_fields(mut shared: Value, own: Value) -> Value {
    if let (Some(map), Value::Object(extra)) = (shared.as_object_mut(), own) {
        map.extend(extra);
    }
    shared
}

/// The value after `KEY:` on the first line that starts with it (case-insensitive), with
/// the rest of that line.
pub(crate) fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    fields(text, key).into_iter().next()
}

/// Every `KEY:` line's value, in order.
pub(crate) fn fields<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let head = line.get(..key.len())?;
            if !head.eq_ignore_ascii_case(key) {
                return None;
            }
            line[key.len()..]
                .trim_start()
                .strip_prefix(':')
                .map(str::trim)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learnability_is_zero_at_the_extremes() {
        assert_eq!(learnability(&[]), 0.0);
        assert_eq!(learnability(&[true; 4]), 0.0);
        assert_eq!(learnability(&[false; 4]), 0.0);
        assert_eq!(learnability(&[true, false, true, false]), 0.5);
        assert_eq!(learnability(&[true, false, false, false]), 0.75);
    }

    #[test]
    fn an_attempt_or_proposal_the_sandbox_could_not_judge_leaves_the_episode_without_a_verdict() {
        let mut ledger = Ledger::new(2, 0.5);
        ledger.proposal = Some(Ok(()));
        ledger.record_attempt(Some(true), "ok");
        assert!(ledger.score(PROPOSER).has_verdict() && ledger.score(SOLVER).has_verdict());
        let events = ledger.record_attempt(None, "sandbox error: engine");
        assert!(events[0].contains("no verdict"), "{events:?}");
        assert_eq!(ledger.turn(), Turn::Over);
        // Not a failed solve: neither seat's reward may be learned from.
        assert!(!ledger.score(PROPOSER).has_verdict());
        assert!(!ledger.score(SOLVER).has_verdict());

        let mut refused = Ledger::new(2, 0.5);
        refused.proposal = Some(Err(Rejection::unjudged("the sandbox is unavailable")));
        assert!(!refused.score(PROPOSER).has_verdict());
        // A proposal refused for itself keeps its penalty as a verdict.
        refused.proposal = Some(Err(Rejection::new("syntax", "bad")));
        let score = refused.score(PROPOSER);
        assert!(score.has_verdict());
        assert_eq!(score.reward, -0.5);
    }

    #[test]
    fn ledger_scores_both_seats() {
        let mut ledger = Ledger::new(2, 0.5);
        assert_eq!(ledger.turn(), Turn::Player(PROPOSER));
        ledger.proposal = Some(Ok(()));
        ledger.attempts.push(true);
        assert_eq!(ledger.turn(), Turn::Player(SOLVER));
        assert_eq!(
            ledger.proposer_score().reward,
            0.0,
            "pending until all attempts"
        );
        ledger.attempts.push(false);
        assert_eq!(ledger.turn(), Turn::Over);
        assert_eq!(ledger.proposer_score().reward, 0.5);
        assert!(ledger.proposer_score().passed);
        let solver = ledger.solver_score();
        assert_eq!((solver.reward, solver.passed), (0.5, false));
        assert_eq!(solver.breakdown["attempt_1"], 0.0);
        let mut refused = Ledger::new(2, 0.5);
        refused.proposal = Some(Err(Rejection::new("syntax", "bad")));
        assert_eq!(refused.turn(), Turn::Over);
        let score = refused.proposer_score();
        assert_eq!(
            (score.reward, score.breakdown["rejected_syntax"]),
            (-0.5, 1.0)
        );
    }

    #[test]
    fn fields_are_read_case_insensitively() {
        let text = "INPUT: f([1])\n  input : [2]\nMessage: hi\nINPUTS are below";
        assert_eq!(fields(text, "input"), ["f([1])", "[2]"]);
        assert_eq!(field(text, "message"), Some("hi"));
        assert_eq!(field(text, "answer"), None);
    }
}
