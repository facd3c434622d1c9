//! [`DynEnv`]: the object-safe face of every env, and [`Instance`], the one
//! wrapper that does the bookkeeping envs never write themselves.
//!
//! `Instance` owns the config, builds task cards, refuses steps before reset
//! or after the end, checks whose turn it is, counts accepted steps and
//! truncates at the spec's `max_steps`, and turns cumulative scores into
//! per-step rewards.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::card::{TaskCard, TaskJson, config_hash};
use crate::core::{Env, EnvKind, EnvSpec, Observation, Player, Score, Status, Transition, Turn};
use crate::error::{CardProblem, EnvError};
use crate::reply::parse_reply;
use crate::rng::{Rng, splitmix64};
use crate::upgrade::upgrade_card;

/// The stream that chance events during play draw from, apart from the
/// generator's stream, so a change in generation never shifts play.
const PLAY_STREAM: u64 = 0x706c_6179;

/// An env behind a trait object: text in, text and JSON out.
pub trait DynEnv: Send + Sync {
    fn spec(&self) -> &'static EnvSpec;
    /// The complete config (defaults filled in).
    fn config(&self) -> &Value;
    fn config_hash(&self) -> &str;
    /// Generates the task card for `seed` (does not touch the episode).
    ///
    /// # Panics
    /// Where [`DynEnv::try_generate`] fails; callers that take configs from
    /// untrusted clients (the server) use that instead.
    fn generate(&self, seed: u64) -> TaskCard {
        self.try_generate(seed)
            .unwrap_or_else(|error| panic!("{error}"))
    }
    /// Generates the task card for `seed`, or says that this config found no
    /// task within the env's search budget.
    ///
    /// # Errors
    /// [`EnvError::NoTaskWithinBudget`].
    fn try_generate(&self, seed: u64) -> Result<TaskCard, EnvError>;
    /// The card of a task made elsewhere (an imported data set row, as this
    /// env's task JSON) under this env's config: the card [`DynEnv::try_generate`]
    /// would make had the generator drawn that task for `seed`.
    ///
    /// # Errors
    /// [`EnvError::BadCard`] when `task` is not a task of this env.
    fn card_for_task(&self, task: &Value, seed: u64) -> Result<TaskCard, EnvError>;
    /// Starts the card's episode, dropping any previous one.
    ///
    /// # Errors
    /// [`EnvError::BadCard`] when the card is for another env, version or
    /// config, or its task does not deserialise.
    fn reset(&mut self, card: &TaskCard) -> Result<(), EnvError>;
    /// Reads the card once for grading any number of whole replies to it
    /// without an episode (a group of samples for one prompt): each reply
    /// gets the score that reset and one step would give it.
    ///
    /// # Errors
    /// [`EnvError::BadCard`] as for [`DynEnv::reset`];
    /// [`EnvError::NotSingleTurn`] for envs played over turns.
    fn grader(&self, card: &TaskCard) -> Result<Box<dyn Grader>, EnvError>;
    /// `Turn::Over` also before the first reset and after truncation.
    fn turn(&self) -> Turn;
    fn status(&self) -> Status;
    /// Accepted steps so far in this episode.
    fn steps(&self) -> usize;
    /// # Errors
    /// [`EnvError::ResetNeeded`] before the first reset.
    fn observe(&self, player: Player) -> Result<Observation, EnvError>;
    /// The text of [`DynEnv::observe`] alone ([`Env::observe_text`]), for
    /// agents that read nothing else.
    fn observe_text(&self, player: Player) -> Result<String, EnvError>;
    /// Parses and applies one action text of `player`.
    ///
    /// # Errors
    /// `ResetNeeded`, `EpisodeOver`, `NotYourTurn`, or `InvalidAction` (the
    /// episode is then unchanged).
    fn step(&mut self, player: Player, action: &str) -> Result<Transition, EnvError>;
    /// The player's score so far (default before the first reset).
    fn score(&self, player: Player) -> Score;
    fn oracle_action(&self, player: Player) -> Option<String>;
    fn random_action(&self, player: Player, rng: &mut Rng) -> String;
    /// The env's scripted heuristic move ([`Env::heuristic`]), else a
    /// random one.
    fn heuristic_action(&self, player: Player, rng: &mut Rng) -> String;
    /// Compact dump of the state.
    fn render(&self) -> String;
    /// The env's own measure of a task's difficulty ([`Env::effort`]);
    /// `None` when it has none or `task` is not this env's task JSON.
    fn effort(&self, task: &Value) -> Option<f64>;
    /// [`Env::task_count`] of this config.
    fn task_count(&self) -> Option<usize>;
    fn clone_box(&self) -> Box<dyn DynEnv>;
}

impl Clone for Box<dyn DynEnv> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A running episode of `E`, with its bookkeeping.
#[derive(Clone)]
struct Episode<E: Env> {
    state: E,
    steps: usize,
    truncated: bool,
    scores: Vec<Score>,
}

/// A task card read once ([`DynEnv::grader`]), grading whole single-turn replies.
pub trait Grader: Send + Sync {
    fn grade(&self, reply: &str) -> Score;
}

struct TaskGrader<E: Env> {
    task: E::Task,
}

impl<E: Env> Grader for TaskGrader<E> {
    fn grade(&self, reply: &str) -> Score {
        E::grade(&self.task, reply).expect("made for single-turn envs only")
    }
}

/// An env of type `E` with a resolved config.
#[derive(Clone)]
pub struct Instance<E: Env> {
    config: E::Config,
    /// Shared with every card made here.
    config_json: Arc<Value>,
    config_hash: String,
    episode: Option<Episode<E>>,
}

impl<E: Env> Instance<E> {
    /// # Errors
    /// [`EnvError::BadConfig`] when `E::validate` refuses the config.
    pub fn new(config: E::Config) -> Result<Self, EnvError> {
        E::validate(&config).map_err(|e| EnvError::BadConfig {
            env: E::SPEC.id.to_string(),
            message: e.message,
        })?;
        let config_json = serde_json::to_value(&config).map_err(|e| EnvError::BadConfig {
            env: E::SPEC.id.to_string(),
            message: e.to_string(),
        })?;
        let config_hash = config_hash(&config_json);
        Ok(Instance {
            config,
            config_json: Arc::new(config_json),
            config_hash,
            episode: None,
        })
    }

    /// The typed episode state, for tests and typed callers.
    pub fn state(&self) -> Option<&E> {
        self.episode.as_ref().map(|e| &e.state)
    }

    fn start(&self, task: &E::Task, seed: u64) -> Episode<E> {
        let state = E::reset(task, Rng::from_seed(splitmix64(seed) ^ PLAY_STREAM));
        let scores = (0..E::SPEC.players).map(|p| state.score(p)).collect();
        Episode {
            state,
            steps: 0,
            truncated: false,
            scores,
        }
    }

    /// The card of `task` for `seed`: its prompt is the first mover's first
    /// observation.
    fn card_of(&self, task: &E::Task, seed: u64) -> TaskCard {
        let prompt = E::first_prompt(task).unwrap_or_else(|| {
            let first = self.start(task, seed);
            let first_mover = match first.state.turn() {
                Turn::Player(p) => p,
                Turn::Simultaneous(ps) => ps.first().copied().unwrap_or(0),
                Turn::Over => 0,
            };
            first.state.observe_text(first_mover)
        });
        TaskCard {
            id: TaskCard::make_id(E::SPEC.id, &self.config_hash, seed),
            env_id: E::SPEC.id.to_string(),
            env_version: E::SPEC.version(),
            config: self.config_json.clone(),
            config_hash: self.config_hash.clone(),
            seed,
            prompt,
            task: TaskJson::of(task).expect("tasks always serialise"),
            reference: E::reference(task),
        }
    }

    /// The card's task, when the card is for this env and config; a card
    /// of a version this env superseded reads through its upgrade.
    fn card_task(&self, card: &TaskCard) -> Result<E::Task, EnvError> {
        let card = &*upgrade_card::<E>(card)?;
        if card.config_hash != self.config_hash {
            return Err(EnvError::bad_card(
                &card.id,
                &card.env_id,
                CardProblem::OtherConfig {
                    card_config: card.config_hash.clone(),
                    env_config: self.config_hash.clone(),
                },
            ));
        }
        card.task.read::<E::Task>().map_err(|e| {
            EnvError::bad_card(
                &card.id,
                &card.env_id,
                CardProblem::BadTask {
                    error: e.to_string(),
                },
            )
        })
    }

    fn live_episode(&self) -> Result<&Episode<E>, EnvError> {
        self.episode.as_ref().ok_or(EnvError::ResetNeeded)
    }
}

fn status_of<E: Env>(episode: &Episode<E>) -> Status {
    if episode.state.turn() == Turn::Over {
        Status::Terminated
    } else if episode.truncated {
        Status::Truncated
    } else {
        Status::Running
    }
}

impl<E: Env> DynEnv for Instance<E> {
    fn spec(&self) -> &'static EnvSpec {
        &E::SPEC
    }

    fn config(&self) -> &Value {
        &self.config_json
    }

    fn config_hash(&self) -> &str {
        &self.config_hash
    }

    fn try_generate(&self, seed: u64) -> Result<TaskCard, EnvError> {
        let task = E::try_generate(&self.config, &mut Rng::from_seed(seed)).map_err(|reason| {
            EnvError::NoTaskWithinBudget {
                env: E::SPEC.id.to_string(),
                reason,
            }
        })?;
        Ok(self.card_of(&task, seed))
    }

    fn card_for_task(&self, task: &Value, seed: u64) -> Result<TaskCard, EnvError> {
        let task = E::Task::deserialize(task).map_err(|e| EnvError::BadCard {
            card: None,
            env: E::SPEC.id.to_string(),
            problem: Box::new(CardProblem::BadTask {
                error: e.to_string(),
            }),
        })?;
        Ok(self.card_of(&task, seed))
    }

    fn reset(&mut self, card: &TaskCard) -> Result<(), EnvError> {
        let task = self.card_task(card)?;
        self.episode = Some(self.start(&task, card.seed));
        Ok(())
    }

    fn grader(&self, card: &TaskCard) -> Result<Box<dyn Grader>, EnvError> {
        if E::SPEC.kind != EnvKind::SingleTurn {
            return Err(EnvError::NotSingleTurn(E::SPEC.id.to_string()));
        }
        Ok(Box::new(TaskGrader::<E> {
            task: self.card_task(card)?,
        }))
    }

    fn turn(&self) -> Turn {
        match &self.episode {
            Some(episode) if !episode.truncated => episode.state.turn(),
            _ => Turn::Over,
        }
    }

    fn status(&self) -> Status {
        self.episode.as_ref().map_or(Status::Running, status_of)
    }

    fn steps(&self) -> usize {
        self.episode.as_ref().map_or(0, |e| e.steps)
    }

    fn observe(&self, player: Player) -> Result<Observation, EnvError> {
        let episode = self.live_episode()?;
        let mut observation = episode.state.observe(player);
        if status_of(episode) != Status::Running {
            observation.legal_actions = observation.legal_actions.map(|_| Vec::new());
        }
        Ok(observation)
    }

    fn observe_text(&self, player: Player) -> Result<String, EnvError> {
        Ok(self.live_episode()?.state.observe_text(player))
    }

    fn step(&mut self, player: Player, action: &str) -> Result<Transition, EnvError> {
        let episode = self.episode.as_mut().ok_or(EnvError::ResetNeeded)?;
        let status = status_of(episode);
        if status != Status::Running {
            return Err(EnvError::EpisodeOver(status));
        }
        let turn = episode.state.turn();
        let may_move = match &turn {
            Turn::Player(p) => *p == player,
            Turn::Simultaneous(ps) => ps.contains(&player),
            Turn::Over => false,
        };
        if !may_move {
            return Err(EnvError::NotYourTurn { player, turn });
        }
        // Single-turn envs read their answer with the verifiers' own rule; every
        // other env reads its action out of the whole reply (reasoning, prose, fences).
        let parsed = if E::SPEC.kind == EnvKind::SingleTurn {
            episode.state.parse_action(player, action)?
        } else {
            let state = &episode.state;
            parse_reply(
                action,
                |text| state.parse_action(player, text),
                || state.observe(player).text,
            )?
        };
        let events = episode.state.apply(player, parsed)?;
        episode.steps += 1;
        if episode.steps >= E::SPEC.max_steps && episode.state.turn() != Turn::Over {
            episode.truncated = true;
        }
        let scores: Vec<Score> = (0..E::SPEC.players)
            .map(|p| episode.state.score(p))
            .collect();
        let rewards = scores
            .iter()
            .zip(&episode.scores)
            .map(|(now, before)| now.reward - before.reward)
            .collect();
        episode.scores = scores;
        Ok(Transition {
            rewards,
            status: status_of(episode),
            events,
        })
    }

    fn score(&self, player: Player) -> Score {
        self.episode
            .as_ref()
            .and_then(|e| e.scores.get(player).cloned())
            .unwrap_or_default()
    }

    fn oracle_action(&self, player: Player) -> Option<String> {
        self.episode.as_ref()?.state.oracle(player)
    }

    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        match &self.episode {
            Some(episode) => episode.state.random_action(player, rng),
            None => String::new(),
        }
    }

    fn heuristic_action(&self, player: Player, rng: &mut Rng) -> String {
        match &self.episode {
            Some(episode) => episode
                .state
                .heuristic(player, rng)
                .unwrap_or_else(|| episode.state.random_action(player, rng)),
            None => String::new(),
        }
    }

    fn render(&self) -> String {
        self.episode
            .as_ref()
            .map_or_else(String::new, |e| e.state.render())
    }

    fn effort(&self, task: &Value) -> Option<f64> {
        E::effort(&E::Task::deserialize(task).ok()?)
    }

    fn task_count(&self) -> Option<usize> {
        E::task_count(&self.config)
    }

    fn clone_box(&self) -> Box<dyn DynEnv> {
        Box::new(self.clone())
    }
}
