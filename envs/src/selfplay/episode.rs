//! The episode every propose-then-solve env plays (see [`super`]), written once: the
//! proposer moves once, the solver `solver_samples` times, and a [`Ledger`] keeps the
//! verdicts and pays both seats.
//!
//! An env is its task type's [`ProposeSolve`] impl: what the proposer and the solver are
//! shown, how a proposal is read and validated, and how a solver answer is graded.
//! [`ProposeSolveEnv`] does the bookkeeping around it (turns, observations, events,
//! scores, the oracle's proposer move, the final render), so every env keeps the same
//! episode and reward contract.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::buffer::Proposal;
use super::{Ledger, MAX_SOLVER_SAMPLES, PROPOSER, Rejection, with_fields};
use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;

/// The [`EnvSpec`] every propose-then-solve env shares: two seats, one proposal then up
/// to [`MAX_SOLVER_SAMPLES`] attempts, rewards in -1..1 (the penalty at worst), not
/// zero-sum. An env's `SPEC` sets its `id`, `description` and `presets` over it.
pub const EPISODE_SPEC: EnvSpec = EnvSpec {
    id: "",
    kind: EnvKind::Game,
    description: "",
    players: 2,
    max_steps: 1 + MAX_SOLVER_SAMPLES,
    reward_range: (-1.0, 1.0),
    zero_sum: false,
    fixed_start: false,
    presets: &[],
};

/// The per-env parts of a propose-then-solve episode, implemented by the env's task (the
/// reference examples, the scripted proposal and whatever the checks run against).
pub trait ProposeSolve:
    Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static
{
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    /// A validated proposal, with what the solver's attempts are graded against.
    type Proposal: Clone + Debug + Send + Sync + 'static;

    /// The env's [`Env::SPEC`].
    const SPEC: EnvSpec;
    /// The env's [`Env::LEVELS`].
    const LEVELS: &'static [&'static str];

    /// [`Env::effort`] of this task.
    fn effort(&self) -> Option<f64>;
    /// [`Env::validate`] of a config.
    fn validate_config(config: &Self::Config) -> Result<(), ConfigError>;
    /// [`Env::generate`]: a task drawn from the seed.
    fn generate(config: &Self::Config, rng: &mut Rng) -> Self;

    /// Solver attempts per proposal.
    fn solver_samples(&self) -> usize;
    /// Subtracted from the proposer's reward for an invalid proposal.
    fn invalid_penalty(&self) -> f64;
    /// The env's name in the final render (`selfplay/math-propose`).
    fn render_name(&self) -> String;

    /// What the proposer sees.
    fn proposer_prompt(&self) -> String;
    /// What the solver sees for `proposal`; `head` is the line naming its attempt.
    fn solver_prompt(&self, proposal: &Self::Proposal, head: &str) -> String;
    /// The env's own structured-observation fields, merged with the ledger's.
    fn fields(&self, proposal: Option<&Self::Proposal>, player: Player) -> Value;

    /// Reads and validates the proposer's reply.
    ///
    /// # Errors
    /// The [`Rejection`] that ends the episode with the penalty.
    fn check_proposal(&self, text: &str) -> Result<Self::Proposal, Rejection>;
    /// The event of a valid proposal.
    fn valid_event(&self, _proposal: &Self::Proposal) -> String {
        "valid proposal".into()
    }
    /// Grades one solver reply: verified or not (`None`: the sandbox or the host could
    /// not judge it), with a note. `prompt` gives what the solver was shown.
    fn grade(
        &self,
        proposal: &Self::Proposal,
        answer: &str,
        prompt: impl FnOnce() -> String,
    ) -> (Option<bool>, String);

    /// The oracle proposer's move: the scripted proposal's text.
    fn scripted_proposal(&self) -> String;
    /// The oracle solver's answer to a validated proposal.
    fn solution(&self, proposal: &Self::Proposal) -> String;
    /// [`Env::random_action`] of `player`.
    fn random_action(
        &self,
        proposal: Option<&Self::Proposal>,
        player: Player,
        rng: &mut Rng,
    ) -> String;
}

/// `count` reference examples: drawn from `pool` (shuffled by the seed) when it has any,
/// else made by `draw`.
pub(crate) fn draw_references<E: Clone>(
    pool: &[E],
    count: usize,
    rng: &mut Rng,
    mut draw: impl FnMut(&mut Rng) -> E,
) -> Vec<E> {
    if pool.is_empty() {
        (0..count).map(|_| draw(rng)).collect()
    } else {
        let mut pool = pool.to_vec();
        rng.shuffle(&mut pool);
        pool.into_iter().take(count).collect()
    }
}

/// The first example `draw` makes that copies none of `references`.
pub(crate) fn draw_fresh<E: Proposal>(
    references: &[E],
    rng: &mut Rng,
    mut draw: impl FnMut(&mut Rng) -> E,
) -> E {
    loop {
        let example = draw(rng);
        if !references.iter().any(|r| r.key() == example.key()) {
            return example;
        }
    }
}

/// A propose-then-solve env: task `T`'s parts in the shared episode.
#[derive(Clone, Debug)]
pub struct ProposeSolveEnv<T: ProposeSolve> {
    task: T,
    ledger: Ledger,
    proposal: Option<T::Proposal>,
}

impl<T: ProposeSolve> ProposeSolveEnv<T> {
    /// The validated proposal, once there is one.
    pub fn proposal(&self) -> Option<&T::Proposal> {
        self.proposal.as_ref()
    }

    /// The line that opens the solver's prompt, naming its attempt.
    fn solver_head(&self) -> String {
        format!(
            "You are the solver (attempt {} of {}).",
            self.ledger.attempts.len() + 1,
            self.task.solver_samples()
        )
    }
}

impl<T: ProposeSolve> Env for ProposeSolveEnv<T> {
    type Config = T::Config;
    type Task = T;
    type Action = String;

    const SPEC: EnvSpec = T::SPEC;
    const LEVELS: &'static [&'static str] = T::LEVELS;

    fn effort(task: &T) -> Option<f64> {
        task.effort()
    }

    fn validate(config: &T::Config) -> Result<(), ConfigError> {
        T::validate_config(config)
    }

    fn generate(config: &T::Config, rng: &mut Rng) -> T {
        T::generate(config, rng)
    }

    fn reset(task: &T, _rng: Rng) -> Self {
        ProposeSolveEnv {
            task: task.clone(),
            ledger: Ledger::new(task.solver_samples(), task.invalid_penalty()),
            proposal: None,
        }
    }

    fn turn(&self) -> Turn {
        self.ledger.turn()
    }

    fn observe(&self, player: Player) -> Observation {
        let text = match (self.ledger.turn(), &self.proposal) {
            (Turn::Player(PROPOSER), _) => self.task.proposer_prompt(),
            (Turn::Over, _) => self.render(),
            (_, Some(p)) => self.task.solver_prompt(p, &self.solver_head()),
            (_, None) => "Waiting for the proposer.".into(),
        };
        let own = self.task.fields(self.proposal.as_ref(), player);
        Observation {
            text,
            structured: with_fields(self.ledger.structured(player), own),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<String, InvalidAction> {
        // Every reply is a move: an unreadable proposal is penalised, an unreadable attempt
        // fails; neither is refused (a refused move would forfeit the episode).
        Ok(text.to_string())
    }

    fn apply(&mut self, player: Player, action: String) -> Result<Vec<String>, InvalidAction> {
        if player == PROPOSER {
            let verdict = self.task.check_proposal(&action);
            let event = match &verdict {
                Ok(p) => self.task.valid_event(p),
                Err(_) => String::new(),
            };
            return Ok(self
                .ledger
                .record_proposal(&mut self.proposal, verdict, event));
        }
        let proposal = self
            .proposal
            .as_ref()
            .ok_or_else(|| InvalidAction::new("no proposal to solve yet"))?;
        let head = self.solver_head();
        let (verdict, note) = self.task.grade(proposal, &action, || {
            self.task.solver_prompt(proposal, &head)
        });
        Ok(self.ledger.record_attempt(verdict, &note))
    }

    fn score(&self, player: Player) -> Score {
        self.ledger.score(player)
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if player == PROPOSER {
            return Some(self.task.scripted_proposal());
        }
        Some(self.task.solution(self.proposal.as_ref()?))
    }

    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        self.task.random_action(self.proposal.as_ref(), player, rng)
    }

    fn render(&self) -> String {
        format!(
            "{}: proposal {}; solver attempts {:?}; proposer reward {:.3}",
            self.task.render_name(),
            match &self.ledger.proposal {
                None => "pending".to_string(),
                Some(Ok(())) => "valid".to_string(),
                Some(Err(r)) => format!("invalid ({}: {})", r.code, r.reason),
            },
            self.ledger.attempts,
            self.ledger.proposer_score().reward
        )
    }
}
