//! The episode driver: runs agents through one episode.
//!
//! The policies on refused actions and the turn cap are the episode
//! session's ([`crate::session`]); the driver shows each refusal back to the
//! agent (`last_error`) so it can try again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::TaskCard;
use crate::core::{Observation, Player, Status};
use crate::dynenv::DynEnv;
use crate::error::EnvError;
use crate::rng::{Rng, mix_seed, splitmix64};
use crate::session::{Attempt, Rules, Session};

/// What an agent is given when it must act.
pub struct AgentTurn<'a> {
    pub player: Player,
    pub observation: &'a Observation,
    /// The env's reason for refusing this player's previous attempt.
    pub last_error: Option<&'a str>,
    /// The env itself, for built-in agents that consult the reference solver
    /// or the legal moves. Model-backed agents should use only the observation.
    pub env: &'a dyn DynEnv,
}

/// Which parts of an observation an agent reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Text, structured JSON and the legal actions.
    Everything,
    /// The text alone: the driver renders only that
    /// ([`DynEnv::observe_text`]) and hands over `structured: null` and no
    /// legal-action list. The structured part and the list were most of a
    /// small game's step, paid for agents that never looked at them.
    Text,
}

/// Anything that turns observations into action text.
pub trait Agent: Send {
    fn name(&self) -> String;
    /// Called before each episode with a seed for the agent's own randomness.
    fn start_episode(&mut self, _seed: u64) {}
    fn act(&mut self, turn: &AgentTurn<'_>) -> String;
    /// The parts of the observation `act` reads; everything unless the
    /// agent says otherwise.
    fn reads(&self) -> Reads {
        Reads::Everything
    }
    /// A failure outside the agent's play (a model endpoint that stopped
    /// answering). Benchmarks drop such episodes instead of scoring them.
    fn error(&self) -> Option<String> {
        None
    }
}

/// Plays a uniformly random legal move (or a small random number).
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: Rng::from_seed(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }
    fn start_episode(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        turn.env.random_action(turn.player, &mut self.rng)
    }
    /// It asks the env for its move; the text stands for what a model
    /// would be shown.
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// Plays the env's simple scripted strategy ([`crate::Env::heuristic`]):
/// win or block, greedy capture, bet the strong hands; random where the env
/// has none. The middle rung of a game's ladder, between random and oracle.
pub struct HeuristicAgent {
    rng: Rng,
}

impl HeuristicAgent {
    pub fn new(seed: u64) -> Self {
        HeuristicAgent {
            rng: Rng::from_seed(seed),
        }
    }
}

impl Agent for HeuristicAgent {
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn start_episode(&mut self, seed: u64) {
        self.rng = Rng::from_seed(seed);
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        turn.env.heuristic_action(turn.player, &mut self.rng)
    }
    /// It asks the env for its move; the text stands for what a model
    /// would be shown.
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// Answers with the same text every time: `""` is the `noop` agent.
pub struct ConstantAgent(pub String);

impl Agent for ConstantAgent {
    fn name(&self) -> String {
        if self.0.is_empty() {
            "noop".into()
        } else {
            format!("constant:{}", self.0)
        }
    }
    fn act(&mut self, _turn: &AgentTurn<'_>) -> String {
        self.0.clone()
    }
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// Answers with the observation text it was shown (the echo hack).
pub struct EchoAgent;

impl Agent for EchoAgent {
    fn name(&self) -> String {
        "echo".into()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        turn.observation.text.clone()
    }
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// Plays the env's reference solver or perfect player; an empty answer where
/// the env has none.
pub struct OracleAgent;

impl Agent for OracleAgent {
    fn name(&self) -> String {
        "oracle".into()
    }
    fn act(&mut self, turn: &AgentTurn<'_>) -> String {
        turn.env.oracle_action(turn.player).unwrap_or_default()
    }
    /// It asks the env for its move; the text stands for what a model
    /// would be shown.
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// Replays recorded actions in order (then answers with empty text): how
/// logged episodes are re-scored without calling the agent again.
pub struct ScriptedAgent {
    name: String,
    actions: std::collections::VecDeque<String>,
}

impl ScriptedAgent {
    pub fn new(name: impl Into<String>, actions: impl IntoIterator<Item = String>) -> Self {
        ScriptedAgent {
            name: name.into(),
            actions: actions.into_iter().collect(),
        }
    }

    /// One scripted agent per seat from a transcript.
    pub fn from_transcript(names: &[String], transcript: &[Move]) -> Vec<ScriptedAgent> {
        (0..names.len())
            .map(|seat| {
                let actions = transcript
                    .iter()
                    .filter(|m| m.player == seat)
                    .map(|m| m.action.clone());
                ScriptedAgent::new(names[seat].clone(), actions)
            })
            .collect()
    }
}

impl Agent for ScriptedAgent {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn act(&mut self, _turn: &AgentTurn<'_>) -> String {
        self.actions.pop_front().unwrap_or_default()
    }
    fn reads(&self) -> Reads {
        Reads::Text
    }
}

/// A name that is not a built-in agent's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown agent `{0}`; built-in agents: random, heuristic, noop, oracle, echo, constant:TEXT"
)]
pub struct UnknownAgent(pub String);

/// Makes a built-in agent from its name: `random`, `noop`, `oracle`, `echo`
/// or `constant:TEXT`.
///
/// # Errors
/// [`UnknownAgent`], whose message lists the known names.
pub fn builtin_agent(name: &str, seed: u64) -> Result<Box<dyn Agent>, UnknownAgent> {
    Ok(match name {
        "random" => Box::new(RandomAgent::new(seed)),
        "heuristic" => Box::new(HeuristicAgent::new(seed)),
        "noop" => Box::new(ConstantAgent(String::new())),
        "oracle" => Box::new(OracleAgent),
        "echo" => Box::new(EchoAgent),
        other => match other.strip_prefix("constant:") {
            Some(text) => Box::new(ConstantAgent(text.to_string())),
            None => return Err(UnknownAgent(other.to_string())),
        },
    })
}

/// Driver policies.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DriverConfig {
    /// Extra attempts after a refused action, per turn.
    pub max_retries: u32,
    /// Turn cap below the spec's `max_steps`, if any.
    pub max_turns: Option<usize>,
    /// Keep every action in the result.
    pub record_transcript: bool,
    /// Mixed into the agents' seeds, so repeated samples of one task (for
    /// pass@k) differ while each stays reproducible.
    pub agent_salt: u64,
}

impl Default for DriverConfig {
    fn default() -> Self {
        DriverConfig {
            max_retries: 2,
            max_turns: None,
            record_transcript: false,
            agent_salt: 0,
        }
    }
}

impl DriverConfig {
    /// The episode rules these settings ask for.
    pub fn rules(&self) -> Rules {
        Rules {
            max_retries: self.max_retries,
            max_turns: self.max_turns,
        }
    }
}

/// One attempted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move {
    pub player: Player,
    pub action: String,
    /// The env's refusal, if it refused.
    pub error: Option<String>,
}

/// How an episode went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpisodeResult {
    pub card_id: String,
    pub status: Status,
    /// Accepted steps.
    pub steps: usize,
    /// Final return per player.
    pub returns: Vec<f64>,
    pub passed: Vec<bool>,
    pub breakdown: Vec<BTreeMap<String, f64>>,
    /// Refused actions per player.
    pub invalid_actions: Vec<u32>,
    pub forfeited_by: Option<Player>,
    pub transcript: Vec<Move>,
}

/// Runs the card's episode with one agent per player (`agents[p]` plays
/// seat `p`). Agents are told a seed derived from the card seed and seat.
///
/// # Errors
/// A card the env cannot reset to, or a wrong number of agents.
pub fn run_episode(
    env: &mut dyn DynEnv,
    card: &TaskCard,
    agents: &mut [&mut dyn Agent],
    config: &DriverConfig,
) -> Result<EpisodeResult, EnvError> {
    let spec = env.spec();
    if agents.len() != spec.players {
        return Err(EnvError::BadConfig {
            env: spec.id.to_string(),
            message: format!("{} players but {} agents", spec.players, agents.len()),
        });
    }
    env.reset(card)?;
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.start_episode(mix_seed(
            card.seed ^ splitmix64(config.agent_salt),
            1 + seat as u64,
        ));
    }
    let mut session = Session::start(&*env, config.rules());
    let mut transcript = Vec::new();
    loop {
        let movers = session.movers(&*env);
        if movers.is_empty() {
            break;
        }
        for player in movers {
            let observation = match agents[player].reads() {
                Reads::Everything => env.observe(player)?,
                Reads::Text => Observation {
                    text: env.observe_text(player)?,
                    structured: serde_json::Value::Null,
                    legal_actions: None,
                },
            };
            let mut last_error: Option<String> = None;
            while !session.over() {
                let action = agents[player].act(&AgentTurn {
                    player,
                    observation: &observation,
                    last_error: last_error.as_deref(),
                    env: &*env,
                });
                let attempt = session.attempt(env, player, &action)?;
                let error = match attempt {
                    Attempt::Accepted(_) => None,
                    Attempt::Refused(reason) => Some(reason),
                };
                if config.record_transcript {
                    transcript.push(Move {
                        player,
                        action,
                        error: error.clone(),
                    });
                }
                let Some(error) = error else { break };
                last_error = Some(error);
            }
            if session.over() {
                break;
            }
        }
    }

    let scores = session.scores(&*env);
    Ok(EpisodeResult {
        card_id: card.id.clone(),
        status: session.status(),
        steps: env.steps(),
        returns: scores.iter().map(|s| s.reward).collect(),
        passed: scores.iter().map(|s| s.passed).collect(),
        breakdown: scores.into_iter().map(|s| s.breakdown).collect(),
        invalid_actions: session.invalid_actions().to_vec(),
        forfeited_by: session.forfeited_by(),
        transcript,
    })
}

/// Runs one episode of a fresh card for `seed` with built-in agents named
/// per seat; a convenience for tests and examples.
///
/// # Errors
/// Unknown agent names (as `BadConfig`) or env errors.
pub fn play_builtin(
    env: &mut dyn DynEnv,
    seed: u64,
    agent_names: &[&str],
    config: &DriverConfig,
) -> Result<EpisodeResult, EnvError> {
    let card = env.generate(seed);
    let mut agents: Vec<Box<dyn Agent>> = agent_names
        .iter()
        .enumerate()
        .map(|(seat, name)| builtin_agent(name, mix_seed(seed, seat as u64)))
        .collect::<Result<_, _>>()
        .map_err(|e| EnvError::BadConfig {
            env: env.spec().id.to_string(),
            message: e.to_string(),
        })?;
    let mut refs: Vec<&mut dyn Agent> = agents
        .iter_mut()
        .map(|a| a.as_mut() as &mut dyn Agent)
        .collect();
    run_episode(env, &card, &mut refs, config)
}
