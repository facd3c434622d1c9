//! One seat of an env as a one-agent episode: the agent plays `seat`, every
//! other seat is a built-in opponent that moves inside [`SeatEpisode::reset`]
//! and [`SeatEpisode::step`], so the caller only ever sees the agent's turns.
//!
//! This is the shape trainers need (verl agent loops, TRL environments,
//! OpenRLHF agents, reward replays) and the per-seat play a server offers
//! (OpenEnv sessions). What the seat is shown is [`SeatEpisode::view`]: the
//! seat view of [`crate::seat_view`], the one place that says who may see
//! what.
//!
//! The episode rules apply ([`crate::session`]): a refused action may be
//! retried `max_retries` times on one turn and one more forfeits;
//! `max_turns` (at most the spec's `max_steps`) truncates. Opponents are seeded from the card as the driver
//! seeds them, so a seat faces the same games as in `gym-bench`. A one-player
//! env is the same with no opponent.

use crate::card::TaskCard;
use crate::core::{Observation, Player, Score, Status};
use crate::driver::{Agent, AgentTurn, builtin_agent};
use crate::dynenv::DynEnv;
use crate::error::{CardProblem, EnvError};
use crate::rng::{mix_seed, splitmix64};
pub use crate::seat_view::StepOutcome;
use crate::seat_view::{SeatView, ViewMode, score_changes};
pub use crate::session::Ending;
use crate::session::{Attempt, Rules, Session};

/// The opponents a seat may face.
pub const OPPONENTS: &[&str] = &["random", "heuristic", "oracle"];

/// Settings of a seat episode.
#[derive(Clone, Debug)]
pub struct SeatOptions {
    /// `random`, `heuristic` or `oracle`.
    pub opponent: String,
    /// Extra attempts after a refused action, per turn.
    pub max_retries: u32,
    /// Cap on accepted steps (all seats) below the spec's `max_steps`.
    pub max_turns: Option<usize>,
}

impl Default for SeatOptions {
    fn default() -> Self {
        SeatOptions {
            opponent: "heuristic".into(),
            max_retries: 2,
            max_turns: None,
        }
    }
}

/// One seat of an env against built-in opponents; see the module docs.
pub struct SeatEpisode {
    env: Box<dyn DynEnv>,
    options: SeatOptions,
    seat: Player,
    /// One agent per seat (the agent's own seat holds an unused one).
    opponents: Vec<Box<dyn Agent>>,
    /// `None` before the first reset.
    session: Option<Session>,
    /// The card of the episode (`None` before the first reset).
    card: Option<TaskCard>,
}

impl SeatEpisode {
    /// # Errors
    /// An unknown opponent name (`BadConfig`).
    pub fn new(env: Box<dyn DynEnv>, options: SeatOptions) -> Result<Self, EnvError> {
        let spec = env.spec();
        if !OPPONENTS.contains(&options.opponent.as_str()) {
            return Err(EnvError::BadConfig {
                env: spec.id.to_string(),
                message: format!(
                    "unknown opponent `{}`; use one of: {}",
                    options.opponent,
                    OPPONENTS.join(", ")
                ),
            });
        }
        let opponents = (0..spec.players)
            .map(|_| builtin_agent(&options.opponent, 0))
            .collect::<Result<_, _>>()
            .map_err(|e| EnvError::BadConfig {
                env: spec.id.to_string(),
                message: e.to_string(),
            })?;
        Ok(SeatEpisode {
            env,
            options,
            seat: 0,
            opponents,
            session: None,
            card: None,
        })
    }

    /// The env, for its spec and config.
    pub fn env(&self) -> &dyn DynEnv {
        &*self.env
    }

    pub fn options(&self) -> &SeatOptions {
        &self.options
    }

    pub fn seat(&self) -> Player {
        self.seat
    }

    pub fn ending(&self) -> Ending {
        self.session
            .as_ref()
            .map_or(Ending::Running, Session::ending)
    }

    /// Whether the episode has ended (or none has started).
    pub fn done(&self) -> bool {
        self.session.as_ref().is_none_or(Session::over)
    }

    /// The episode rules' state (`None` before the first reset).
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// Refused actions of the seat in this episode.
    pub fn invalid_actions(&self) -> u32 {
        self.session
            .as_ref()
            .map_or(0, |s| s.invalid_actions()[self.seat])
    }

    /// Refusals the seat may still make on this turn before it forfeits.
    pub fn retries_left(&self) -> u32 {
        self.session
            .as_ref()
            .map_or(self.options.max_retries, |s| s.retries_left(self.seat))
    }

    fn rules(&self) -> Rules {
        Rules {
            max_retries: self.options.max_retries,
            max_turns: self.options.max_turns,
        }
    }

    /// Starts the card's episode with the agent in `seat`; the opponents
    /// move until the seat must. A card of the same env with another config
    /// remakes the env from `make` (the registry's `make_for_card`).
    ///
    /// # Errors
    /// A seat that does not exist, a card for another env, or a bad card.
    pub fn reset(
        &mut self,
        card: &TaskCard,
        seat: Player,
        make: impl FnOnce(&TaskCard) -> Result<Box<dyn DynEnv>, EnvError>,
    ) -> Result<(), EnvError> {
        let spec = self.env.spec();
        if seat >= spec.players {
            return Err(EnvError::BadConfig {
                env: spec.id.to_string(),
                message: format!(
                    "seat {seat} does not exist: `{}` has {} player(s), seats 0..{}",
                    spec.id,
                    spec.players,
                    spec.players - 1
                ),
            });
        }
        // A card of an older version of this env replays through its
        // upgrade (`DynEnv::reset` upgrades or refuses it).
        let base = crate::upgrade::split_version(&card.env_id).map(|(base, _)| base);
        if card.env_id != spec.id && base != Some(spec.unversioned()) {
            return Err(EnvError::bad_card(
                &card.id,
                &card.env_id,
                CardProblem::OtherEpisode {
                    plays: spec.id.to_string(),
                },
            ));
        }
        if card.config_hash != self.env.config_hash() {
            self.env = make(card)?;
        }
        self.env.reset(card)?;
        for (index, agent) in self.opponents.iter_mut().enumerate() {
            // As the episode driver seeds them (salt 0).
            agent.start_episode(mix_seed(card.seed ^ splitmix64(0), 1 + index as u64));
        }
        self.seat = seat;
        self.session = Some(Session::start(&*self.env, self.rules()));
        self.card = Some(card.clone());
        self.advance()?;
        Ok(())
    }

    /// Applies the seat's action, then lets the opponents move. The
    /// outcome's rewards are every seat's change over both, and its events
    /// theirs too.
    ///
    /// # Errors
    /// `ResetNeeded`, `EpisodeOver`, `NotYourTurn`, or an env failure. A
    /// refused action is not an error: see [`StepOutcome::invalid`].
    pub fn step(&mut self, action: &str) -> Result<StepOutcome, EnvError> {
        let Some(session) = self.session.as_mut() else {
            return Err(EnvError::ResetNeeded);
        };
        if session.over() {
            return Err(EnvError::EpisodeOver(session.status()));
        }
        if !session.movers(&*self.env).contains(&self.seat) {
            return Err(EnvError::NotYourTurn {
                player: self.seat,
                turn: self.env.turn(),
            });
        }
        let before = session.scores(&*self.env);
        let (events, invalid) = match session.attempt(&mut *self.env, self.seat, action)? {
            Attempt::Accepted(transition) => {
                let mut events = transition.events;
                events.extend(self.advance()?);
                (events, None)
            }
            Attempt::Refused(reason) => (Vec::new(), Some(reason)),
        };
        let after = self.session().map(|s| s.scores(&*self.env));
        Ok(StepOutcome {
            player: self.seat,
            rewards: score_changes(&before, &after.unwrap_or_default()),
            events,
            invalid,
        })
    }

    /// What the seat is shown now: its seat view ([`crate::seat_view`]),
    /// with what `step` (the outcome of its last action) did.
    ///
    /// # Errors
    /// `ResetNeeded` before the first reset.
    pub fn view(&self, step: Option<&StepOutcome>) -> Result<SeatView, EnvError> {
        let (Some(session), Some(card)) = (&self.session, &self.card) else {
            return Err(EnvError::ResetNeeded);
        };
        Ok(SeatView::new(
            &*self.env,
            session,
            card,
            ViewMode::Seat,
            self.seat,
            step,
        ))
    }

    /// The seat's observation now.
    ///
    /// # Errors
    /// `ResetNeeded` before the first reset.
    pub fn observe(&self) -> Result<Observation, EnvError> {
        self.env.observe(self.seat)
    }

    /// The seat's score so far (final once done), with the forfeit rule.
    pub fn score(&self) -> Score {
        match &self.session {
            Some(session) => session.scores(&*self.env).swap_remove(self.seat),
            None => self.env.score(self.seat),
        }
    }

    /// `Running`, or how it ended (a forfeit is `Truncated`).
    pub fn status(&self) -> Status {
        self.session
            .as_ref()
            .map_or(Status::Running, Session::status)
    }

    /// The reference solver's next action for the seat. For tests and data;
    /// never part of what an agent is shown.
    pub fn oracle_action(&self) -> Option<String> {
        self.env.oracle_action(self.seat)
    }

    /// Plays the opponents until the seat must move or the episode ends;
    /// returns their steps' events. Opponents pending in a simultaneous
    /// turn move first, so no scripted player ever sees the seat's pending
    /// move.
    fn advance(&mut self) -> Result<Vec<String>, EnvError> {
        let Some(session) = self.session.as_mut() else {
            return Err(EnvError::ResetNeeded);
        };
        let mut events = Vec::new();
        loop {
            let movers = session.movers(&*self.env);
            let Some(player) = movers.into_iter().find(|&p| p != self.seat) else {
                return Ok(events);
            };
            // An opponent is shown its refusals and retries as any agent.
            let observation = self.env.observe(player)?;
            let mut last_error: Option<String> = None;
            while !session.over() {
                let action = self.opponents[player].act(&AgentTurn {
                    player,
                    observation: &observation,
                    last_error: last_error.as_deref(),
                    env: &*self.env,
                });
                match session.attempt(&mut *self.env, player, &action)? {
                    Attempt::Accepted(transition) => {
                        events.extend(transition.events);
                        break;
                    }
                    Attempt::Refused(reason) => last_error = Some(reason),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Registry;

    fn episode(id: &str, opponent: &str) -> (Registry, SeatEpisode) {
        let registry = Registry::builtin();
        let env = registry.make(id, None).unwrap();
        let options = SeatOptions {
            opponent: opponent.into(),
            ..SeatOptions::default()
        };
        (registry, SeatEpisode::new(env, options).unwrap())
    }

    #[test]
    fn oracle_seat_beats_or_draws_every_opponent_at_tictactoe_from_both_seats() {
        for opponent in OPPONENTS {
            let (registry, mut seat) = episode("games/tictactoe-v1", opponent);
            for (seed, player) in [(0, 0), (1, 1), (2, 0), (3, 1)] {
                let card = registry
                    .make("games/tictactoe-v1", None)
                    .unwrap()
                    .generate(seed);
                seat.reset(&card, player, |c| registry.make_for_card(c))
                    .unwrap();
                while !seat.done() {
                    let action = seat.oracle_action().expect("tictactoe has an oracle");
                    assert_eq!(seat.step(&action).unwrap().invalid, None);
                }
                assert_eq!(seat.status(), Status::Terminated);
                assert!(
                    seat.score().reward >= 0.0,
                    "{opponent} beat the oracle in seat {player}"
                );
            }
        }
    }

    #[test]
    fn refusals_past_the_retries_forfeit_with_the_floor_reward() {
        let (registry, mut seat) = episode("games/tictactoe-v1", "random");
        let card = registry
            .make("games/tictactoe-v1", None)
            .unwrap()
            .generate(5);
        seat.reset(&card, 1, |c| registry.make_for_card(c)).unwrap();
        for attempt in 0..3 {
            let step = seat.step("not a move").unwrap();
            assert!(step.invalid.is_some());
            assert_eq!(seat.done(), attempt == 2);
        }
        assert_eq!(seat.score().reward, -1.0);
        assert!(!seat.score().passed);
        assert!(matches!(seat.step("1"), Err(EnvError::EpisodeOver(_))));
    }

    #[test]
    fn cards_for_other_envs_and_missing_seats_are_refused() {
        let (registry, mut seat) = episode("games/tictactoe-v1", "heuristic");
        let card = registry
            .make("math/arithmetic-v1", None)
            .unwrap()
            .generate(0);
        let error = seat
            .reset(&card, 0, |c| registry.make_for_card(c))
            .unwrap_err();
        assert!(
            error.to_string().contains("is for `math/arithmetic-v1`"),
            "{error}"
        );
        let card = registry
            .make("games/tictactoe-v1", None)
            .unwrap()
            .generate(0);
        let error = seat
            .reset(&card, 2, |c| registry.make_for_card(c))
            .unwrap_err();
        assert!(
            error.to_string().contains("seat 2 does not exist"),
            "{error}"
        );
        assert!(
            SeatEpisode::new(
                registry.make("games/tictactoe-v1", None).unwrap(),
                SeatOptions {
                    opponent: "human".into(),
                    ..SeatOptions::default()
                }
            )
            .is_err()
        );
    }
}
