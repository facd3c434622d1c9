//! The rules of an episode that no env decides for itself, in one place:
//! every runner (the episode driver, the seat episode trainers and OpenEnv
//! play, offline scoring and the server's episodes) keeps a [`Session`]
//! beside its env and sends each action through it.
//!
//! - **Refused actions.** An action the env refuses changes nothing; the
//!   player may try again `max_retries` times on that turn. One more refusal
//!   forfeits the episode (the forfeit rule of [`apply_forfeit`]): the
//!   forfeiting player gets the bottom of the reward range and fails. In a
//!   zero-sum game the others share the opposite amount, so returns still
//!   sum to zero; otherwise they get the top of the range and pass, so a
//!   forfeit never lowers an honest player's reward.
//! - **The turn cap.** After `max_turns` accepted steps (at most the spec's
//!   `max_steps`) the episode is truncated with the scores as they stand.
//! - **The end.** Once the env ends the episode, or either rule does, no
//!   further action is taken.

use crate::core::{Player, Score, Status, Transition, Turn};
use crate::dynenv::DynEnv;
use crate::error::EnvError;

/// `max_retries` of a runner that sets no limit: a refusal never
/// forfeits (`verigym.Env`, whose caller owns its retry policy).
pub const NO_RETRY_LIMIT: u32 = u32::MAX;

/// Settings of the episode rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Extra attempts after a refused action, per player and turn
    /// ([`NO_RETRY_LIMIT`]: any number).
    pub max_retries: u32,
    /// Cap on accepted steps (all players) below the spec's `max_steps`.
    pub max_turns: Option<usize>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_retries: 2,
            max_turns: None,
        }
    }
}

/// How an episode stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Running,
    /// Ended by the env's rules.
    Terminated,
    /// Cut off by the turn cap or the env's step cap.
    Truncated,
    /// This player forfeited by refused actions.
    Forfeit(Player),
}

/// What one attempted action did.
#[derive(Clone, Debug, PartialEq)]
pub enum Attempt {
    Accepted(Transition),
    /// The env's reason; the episode is as it was, unless this refusal
    /// forfeited it (see [`Session::ending`]).
    Refused(String),
}

/// The rules' state for one episode of one env (reset the env, then
/// [`Session::start`]).
#[derive(Clone, Debug)]
pub struct Session {
    rules: Rules,
    cap: usize,
    /// Refusals of each player on its current turn.
    refused_this_turn: Vec<u32>,
    invalid_actions: Vec<u32>,
    ending: Ending,
}

impl Session {
    /// The session of the episode `env` was just reset to.
    pub fn start(env: &dyn DynEnv, rules: Rules) -> Session {
        let spec = env.spec();
        let mut session = Session {
            rules,
            cap: rules
                .max_turns
                .map_or(spec.max_steps, |t| t.min(spec.max_steps)),
            refused_this_turn: vec![0; spec.players],
            invalid_actions: vec![0; spec.players],
            ending: Ending::Running,
        };
        session.update_ending(env);
        session
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The turn cap: `max_turns`, at most the spec's `max_steps`.
    pub fn max_steps(&self) -> usize {
        self.cap
    }

    pub fn ending(&self) -> Ending {
        self.ending
    }

    /// Whether no further action is taken.
    pub fn over(&self) -> bool {
        self.ending != Ending::Running
    }

    /// `Running`, or how the episode ended (a forfeit is `Truncated`).
    pub fn status(&self) -> Status {
        match self.ending {
            Ending::Running => Status::Running,
            Ending::Terminated => Status::Terminated,
            Ending::Truncated | Ending::Forfeit(_) => Status::Truncated,
        }
    }

    pub fn forfeited_by(&self) -> Option<Player> {
        match self.ending {
            Ending::Forfeit(player) => Some(player),
            _ => None,
        }
    }

    /// Refused actions of each player in this episode.
    pub fn invalid_actions(&self) -> &[u32] {
        &self.invalid_actions
    }

    /// Refusals `player` may still make on this turn before it forfeits.
    pub fn retries_left(&self, player: Player) -> u32 {
        let refused = self.refused_this_turn.get(player).copied().unwrap_or(0);
        self.rules.max_retries.saturating_sub(refused)
    }

    /// The players who must act now (none once the episode is over).
    pub fn movers(&self, env: &dyn DynEnv) -> Vec<Player> {
        if self.over() {
            return Vec::new();
        }
        match env.turn() {
            Turn::Player(p) => vec![p],
            Turn::Simultaneous(players) => players,
            Turn::Over => Vec::new(),
        }
    }

    /// Plays `action` for `player` under the rules.
    ///
    /// # Errors
    /// `EpisodeOver` once the episode has ended (by the env or a rule), and
    /// whatever else the env returns besides a refusal (not its turn, a
    /// reset needed, a host failure). A refusal is an [`Attempt`], not an
    /// error.
    pub fn attempt(
        &mut self,
        env: &mut dyn DynEnv,
        player: Player,
        action: &str,
    ) -> Result<Attempt, EnvError> {
        if self.over() {
            return Err(EnvError::EpisodeOver(self.status()));
        }
        match env.step(player, action) {
            Ok(transition) => {
                self.refused_this_turn[player] = 0;
                self.update_ending(env);
                Ok(Attempt::Accepted(transition))
            }
            Err(EnvError::InvalidAction(reason)) => {
                self.invalid_actions[player] = self.invalid_actions[player].saturating_add(1);
                self.refused_this_turn[player] = self.refused_this_turn[player].saturating_add(1);
                if self.refused_this_turn[player] > self.rules.max_retries {
                    self.ending = Ending::Forfeit(player);
                }
                Ok(Attempt::Refused(reason.reason))
            }
            Err(other) => Err(other),
        }
    }

    /// Every player's score so far (final once over), with the forfeit rule.
    pub fn scores(&self, env: &dyn DynEnv) -> Vec<Score> {
        let spec = env.spec();
        let mut scores: Vec<Score> = (0..spec.players).map(|p| env.score(p)).collect();
        if let Ending::Forfeit(loser) = self.ending {
            apply_forfeit(&mut scores, loser, spec.reward_range, spec.zero_sum);
        }
        scores
    }

    fn update_ending(&mut self, env: &dyn DynEnv) {
        if self.over() {
            return;
        }
        match env.status() {
            Status::Terminated => self.ending = Ending::Terminated,
            Status::Truncated => self.ending = Ending::Truncated,
            Status::Running if env.steps() >= self.cap => self.ending = Ending::Truncated,
            Status::Running => {}
        }
    }
}

/// The forfeit rule of the module docs.
pub fn apply_forfeit(scores: &mut [Score], loser: Player, range: (f64, f64), zero_sum: bool) {
    let (floor, top) = range;
    let others = scores.len().saturating_sub(1).max(1) as f64;
    for (player, score) in scores.iter_mut().enumerate() {
        if player == loser {
            *score = Score::default().with(floor, false).part("forfeit", 1.0);
        } else {
            let reward = if zero_sum { -floor / others } else { top };
            *score = Score::default()
                .with(reward, !zero_sum || reward > 0.0)
                .part("opponent_forfeit", 1.0);
        }
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
