//! The core contract: one trait that every verigym environment implements.
//!
//! An episode is a turn-based game with N players. A single-turn task (a
//! math question) is a one-player episode of length one; a tool or puzzle
//! env is a one-player episode of several turns; a game has several players,
//! possibly moving simultaneously and seeing different things.
//!
//! The life of an episode:
//!
//! 1. [`Env::generate`] makes a fully specified [`Env::Task`] from a config
//!    and a seeded [`Rng`]: a pure function, so a task card can replay it.
//! 2. [`Env::reset`] builds the episode state from the task.
//! 3. While [`Env::turn`] is not [`Turn::Over`], each player to move sees
//!    [`Env::observe`], answers with text, the env parses it with
//!    [`Env::parse_action`] and applies it with [`Env::apply`].
//! 4. [`Env::score`] gives each player's [`Score`]: a reward, a named
//!    breakdown, and a separate `passed` that partial credit never sets.
//!
//! Envs never count steps, enforce turn caps or seed themselves: the
//! type-erased wrapper ([`crate::DynEnv`], made by the registry) does that
//! bookkeeping once for all of them, and the episode driver owns the
//! invalid-action policy.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusals::{ConfigError, NoTask};
use crate::rng::Rng;

/// A player's index, `0..spec.players`.
pub type Player = usize;

/// Who moves next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Turn {
    /// One player moves.
    Player(Player),
    /// These players each submit a move; the env resolves them together once
    /// all have arrived (in the listed order).
    Simultaneous(Vec<Player>),
    /// The episode has ended inside the env (goal reached, game decided).
    Over,
}

/// Where an episode stands. Exactly one holds: an episode that ran into the
/// step cap is `Truncated`, never also `Terminated`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Running,
    /// Ended by the env's own rules.
    Terminated,
    /// Cut off from outside (the step cap, or a forfeit by the driver).
    Truncated,
}

/// A player's result so far. `passed` is a separate verdict: partial credit
/// may raise `reward` and appear in `breakdown`, but never sets `passed`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub reward: f64,
    pub passed: bool,
    pub breakdown: BTreeMap<String, f64>,
}

impl Score {
    /// A pass/fail score: reward 1 or 0, with the verdict as `correct`.
    pub fn binary(passed: bool) -> Self {
        Score::default()
            .with(passed as u8 as f64, passed)
            .part("correct", passed as u8 as f64)
    }

    /// Sets the reward and verdict.
    pub fn with(mut self, reward: f64, passed: bool) -> Self {
        self.reward = reward;
        self.passed = passed;
        self
    }

    /// Adds a named component to the breakdown.
    pub fn part(mut self, name: &str, value: f64) -> Self {
        self.breakdown.insert(name.to_string(), value);
        self
    }

    /// Whether the answer was judged at all: false when the [`NO_VERDICT`]
    /// part is set, i.e. the sandbox, a toolchain or the host failed, not
    /// the answer. Such a reward is no evidence either way: scoring reports
    /// it as missing (`null`, `None`) so a trainer drops the sample.
    pub fn has_verdict(&self) -> bool {
        self.breakdown.get(NO_VERDICT).is_none_or(|v| *v == 0.0)
    }
}

/// The breakdown part an env sets to 1 when it could not judge the answer
/// (see [`Score::has_verdict`]); the step's events say why.
pub const NO_VERDICT: &str = "sandbox_error";

/// What one player sees before acting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The text an LLM agent reads.
    pub text: String,
    /// The same information as JSON, for programmatic agents.
    pub structured: Value,
    /// The complete list of legal moves where it is small and known; `None`
    /// for open-ended text actions. Empty once the episode is over.
    pub legal_actions: Option<Vec<String>>,
}

/// What one accepted action did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    /// Change of each player's reward caused by this step.
    pub rewards: Vec<f64>,
    pub status: Status,
    /// Short human-readable notes ("X wins", "too low", "b3 hit"). Public
    /// facts only: every seat is shown them mid-game
    /// ([`crate::seat_view`]), so an event never names what a seat may not
    /// know (another seat's hidden cards, dice, fleet or values, a hidden
    /// test's expected output); news that only one seat is owed belongs in
    /// that seat's observation.
    pub events: Vec<String>,
}

/// Why an action text was refused. The episode is unchanged; the driver
/// shows `reason` to the agent and decides whether it may retry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct InvalidAction {
    pub reason: String,
    /// The text holds two different actions (a hedge): no part of it may be
    /// read on its own either, so `crate::reply` refuses the whole turn
    /// instead of falling back to a marker line, a fence or the last line.
    pub ambiguous: bool,
}

impl InvalidAction {
    pub fn new(reason: impl Into<String>) -> Self {
        InvalidAction {
            reason: reason.into(),
            ambiguous: false,
        }
    }

    /// A refusal because the text holds two different actions.
    pub fn ambiguous(reason: impl Into<String>) -> Self {
        InvalidAction {
            ambiguous: true,
            ..InvalidAction::new(reason)
        }
    }
}

/// A refusal with this reason (not ambiguous): what the action parsers
/// return with `?` and `.into()`.
impl From<String> for InvalidAction {
    fn from(reason: String) -> Self {
        InvalidAction::new(reason)
    }
}

impl From<&str> for InvalidAction {
    fn from(reason: &str) -> Self {
        InvalidAction::new(reason)
    }
}

/// The shape of interaction an env offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvKind {
    /// One player, one answer.
    SingleTurn,
    /// One player, several turns with feedback.
    MultiTurn,
    /// Several players.
    Game,
}

/// A named difficulty preset: a JSON object merged over the default config.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub overrides: &'static str,
}

impl Preset {
    /// `easy`, `medium` and `hard` as three of an env's difficulty levels
    /// (indices into `levels`, easiest first): a preset names a level
    /// instead of copying it, so the two cannot drift apart. An index past
    /// the last level is a compile error.
    pub const fn graded(
        levels: &'static [&'static str],
        [easy, medium, hard]: [usize; 3],
    ) -> [Preset; 3] {
        [
            Preset {
                name: "easy",
                overrides: levels[easy],
            },
            Preset {
                name: "medium",
                overrides: levels[medium],
            },
            Preset {
                name: "hard",
                overrides: levels[hard],
            },
        ]
    }

    /// `first`, then [`Preset::graded`]: for envs with presets besides the
    /// three levels (`standard`, `match`). `M` is `first.len() + 3`.
    pub const fn graded_after<const M: usize>(
        first: &[Preset],
        levels: &'static [&'static str],
        indices: [usize; 3],
    ) -> [Preset; M] {
        assert!(M == first.len() + 3, "M must be first.len() + 3");
        let graded = Preset::graded(levels, indices);
        let mut presets = [graded[0]; M];
        let mut i = 0;
        while i < M {
            presets[i] = if i < first.len() {
                first[i]
            } else {
                graded[i - first.len()]
            };
            i += 1;
        }
        presets
    }
}

/// Static facts about an env, readable without making one.
#[derive(Clone, Copy, Debug)]
pub struct EnvSpec {
    /// `family/name-vN`. Any change to generated tasks, observations or
    /// rewards bumps N.
    pub id: &'static str,
    pub kind: EnvKind,
    /// One line for `verigym list`.
    pub description: &'static str,
    pub players: usize,
    /// Hard cap on accepted steps in one episode (truncation beyond).
    pub max_steps: usize,
    /// Every reward and return lies in this closed range.
    pub reward_range: (f64, f64),
    /// Players' returns always sum to zero.
    pub zero_sum: bool,
    /// Every seed gives the same start (a game with no chance at setup), so
    /// the checker does not demand that different seeds differ.
    pub fixed_start: bool,
    pub presets: &'static [Preset],
}

impl EnvSpec {
    /// The family, the part of the id before `/`.
    pub fn family(&self) -> &'static str {
        self.id
            .split_once('/')
            .map_or(self.id, |(family, _)| family)
    }

    /// The version number N of `…-vN`.
    pub const fn version(&self) -> u32 {
        // The digits after the last `-v`, read from the end by hand: a
        // `const fn` (every card asks) and the same answer as splitting at
        // the last `-v` and parsing the rest, 0 where that fails.
        let id = self.id.as_bytes();
        let mut start = id.len();
        while start > 0 && id[start - 1].is_ascii_digit() {
            start -= 1;
        }
        if start == id.len() || start < 2 || id[start - 2] != b'-' || id[start - 1] != b'v' {
            return 0;
        }
        let mut version: u32 = 0;
        let mut i = start;
        while i < id.len() {
            version = match version.checked_mul(10) {
                Some(v) => match v.checked_add((id[i] - b'0') as u32) {
                    Some(v) => v,
                    None => return 0,
                },
                None => return 0,
            };
            i += 1;
        }
        version
    }

    /// The id without its `-vN` suffix.
    pub fn unversioned(&self) -> &'static str {
        self.id.rsplit_once("-v").map_or(self.id, |(base, _)| base)
    }
}

/// A version of an env that a newer one replaced, and how its task cards
/// still score: cards outlive upgrades (README "Determinism"), so a stored
/// card file keeps working after its env is bumped.
#[derive(Clone, Copy, Debug)]
pub struct Superseded {
    /// The N of the old `…-vN`.
    pub version: u32,
    pub upgrade: Upgrade,
}

impl Superseded {
    /// Version `version`, whose cards read as the newest's unchanged.
    pub const fn as_is(version: u32) -> Self {
        Superseded {
            version,
            upgrade: Upgrade::AsIs,
        }
    }
}

/// How a card of a superseded version becomes a card of the newest one. The
/// card's env id, version, id and config hash always follow; this says what
/// happens to its config, task and reference.
#[derive(Clone, Copy, Debug)]
pub enum Upgrade {
    /// They read as the newest version's unchanged: only generation changed
    /// (defaults, presets, which tasks are drawn), never the task's shape or
    /// what a correct answer to it is.
    AsIs,
    /// A pure function rewrites the old card's `config`, `task` and
    /// `reference` in place, or says why this card cannot be scored the way
    /// its prompt promised (that card alone is then refused).
    Map(fn(&mut crate::card::TaskCard) -> Result<(), crate::refusals::Refusal>),
    /// No card of this version can be scored faithfully: why.
    Refused(&'static str),
}

/// An environment: its task generator and its episode state.
///
/// Implementors are the episode state (`Self`); the associated functions
/// without `self` are the static side. Everything must be deterministic given
/// the task and the [`Rng`] passed to `reset`.
pub trait Env: Clone + Send + Sync + 'static {
    /// Generation parameters. `Default` is the medium difficulty; presets are
    /// JSON patches over it. Use `#[serde(deny_unknown_fields)]` so typos in
    /// user overrides are errors.
    type Config: Serialize + DeserializeOwned + Default + Clone + Send + Sync;
    /// One fully specified instance: everything needed to replay it.
    type Task: Serialize + DeserializeOwned + Clone + Send + Sync;
    /// A parsed move.
    type Action;

    const SPEC: EnvSpec;

    /// The difficulty scale, easiest first: level `i` is the JSON patch
    /// `LEVELS[i]` merged over the default config (`ID@i` names it). The
    /// presets `easy`, `medium` and `hard` must each equal a level, in that
    /// order: write them as `presets: &Preset::graded(Self::LEVELS, [i, j, k])`
    /// (or [`Preset::graded_after`]) rather than repeat the JSON. Empty means the scale is exactly those three presets.
    const LEVELS: &'static [&'static str] = &[];

    /// The versions this env replaced, oldest first, and how their cards
    /// still score (through [`Upgrade`]); generation of them is refused with
    /// a pointer to this one. Declare every earlier `-vN` here when bumping.
    const SUPERSEDED: &'static [Superseded] = &[];

    /// The work `task` takes the oracle or a simple solver (cells to fill,
    /// search nodes, moves to play): what "harder" means for this env, and
    /// what the harder-is-harder test compares across levels. `None` lets
    /// that test measure the oracle's episode instead (characters of all its
    /// actions), which suits envs whose harder tasks need longer answers.
    fn effort(_task: &Self::Task) -> Option<f64> {
        None
    }

    /// Rejects configs that would make generation fail or loop.
    ///
    /// # Errors
    /// A [`ConfigError`] naming the bad field and its allowed range
    /// (reported as [`crate::EnvError::BadConfig`]).
    fn validate(_config: &Self::Config) -> Result<(), ConfigError> {
        Ok(())
    }

    /// How many distinct tasks `config` can make, where that is a small finite number
    /// (the rows of a data set); `None` for generated tasks. The env checker asks
    /// seeds for that many distinct tasks at most.
    fn task_count(_config: &Self::Config) -> Option<usize> {
        None
    }

    /// Makes one task. Must be a pure function of `config` and `rng`, and
    /// should reject (regenerate) tasks that a constant, empty or echoed
    /// answer would already solve.
    fn generate(config: &Self::Config, rng: &mut Rng) -> Self::Task;

    /// [`Env::generate`] for envs whose search can come up empty: a config
    /// that passes `validate` may still have no (or very rare) tasks, and a
    /// shared server must answer that at once rather than search without
    /// end or panic. Such envs bound their search by work counted in steps
    /// (never time, so the outcome stays a pure function of config and rng)
    /// and override this; `generate` then panics with the same message.
    ///
    /// # Errors
    /// [`NoTask::Exhausted`] saying which requirement no task met within the
    /// budget and which config field to relax, or [`NoTask::Cancelled`]
    /// (reported as [`crate::EnvError::NoTaskWithinBudget`]).
    fn try_generate(config: &Self::Config, rng: &mut Rng) -> Result<Self::Task, NoTask> {
        Ok(Self::generate(config, rng))
    }

    /// A reference answer or solution for the task card, if there is one.
    fn reference(_task: &Self::Task) -> Option<Value> {
        None
    }

    /// Starts an episode. `rng` is for chance events during play; envs
    /// without chance ignore it.
    fn reset(task: &Self::Task, rng: Rng) -> Self;

    fn turn(&self) -> Turn;

    /// What `player` may see now; nothing hidden from them.
    fn observe(&self, player: Player) -> Observation;

    /// The text of [`Env::observe`] alone: what a task card's prompt needs,
    /// and all that text-reading agents are shown ([`crate::Reads::Text`]).
    /// Envs whose structured observation or legal-action list costs more
    /// than their text answer it without building the rest; the checker's
    /// `text_view_matches` holds it to `observe(player).text`.
    fn observe_text(&self, player: Player) -> String {
        self.observe(player).text
    }

    /// A card's prompt (the first mover's first observation) when it is a
    /// function of the task alone. `None`, the default, makes the card
    /// start an episode and render it; single-turn envs answer here and
    /// spare generation the episode and its copy of the task.
    fn first_prompt(_task: &Self::Task) -> Option<String> {
        None
    }

    /// Reads an action from model text.
    ///
    /// # Errors
    /// [`InvalidAction`] with a reason the agent can act on. Envs whose every
    /// text is a valid answer (single-turn tasks) never fail here and score
    /// a malformed answer as zero instead.
    fn parse_action(&self, player: Player, text: &str) -> Result<Self::Action, InvalidAction>;

    /// Applies a parsed action of the player to move; returns event notes.
    ///
    /// # Errors
    /// [`InvalidAction`] when the move is illegal in this state.
    fn apply(&mut self, player: Player, action: Self::Action)
    -> Result<Vec<String>, InvalidAction>;

    /// The player's score so far (the final score once the turn is `Over`).
    fn score(&self, player: Player) -> Score;

    /// The score of one whole reply to `task`, without an episode: what a
    /// reward function does with a group of samples for one prompt. Only
    /// single-turn envs can (their answer is the episode), and theirs is the
    /// same function [`Env::apply`] scores with; `None` (the default) for
    /// envs played over turns.
    fn grade(_task: &Self::Task, _reply: &str) -> Option<Score> {
        None
    }

    /// The reference solver's or perfect player's move as text, if the env
    /// has one.
    fn oracle(&self, _player: Player) -> Option<String> {
        None
    }

    /// A simple scripted player's move for the `heuristic` baseline: the
    /// rung of a game's ladder between random play and the oracle (win or
    /// block, greedy capture, bet the strong hands). `rng` breaks ties, so
    /// its games against a deterministic oracle differ. `None` (the
    /// default) means the env has none and the agent plays randomly.
    fn heuristic(&self, _player: Player, _rng: &mut Rng) -> Option<String> {
        None
    }

    /// A uniformly random move for the `random` baseline: a random legal
    /// action when they are listed, else a small random integer.
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        match self.observe(player).legal_actions {
            Some(legal) if !legal.is_empty() => {
                legal[rng.below(legal.len() as u64) as usize].clone()
            }
            _ => rng.range_i64(-20, 20).to_string(),
        }
    }

    /// A compact dump of the whole state, for logs and golden tests.
    fn render(&self) -> String {
        self.observe(0).text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(id: &'static str) -> EnvSpec {
        EnvSpec {
            id,
            kind: EnvKind::SingleTurn,
            description: "",
            players: 1,
            max_steps: 1,
            reward_range: (0.0, 1.0),
            zero_sum: false,
            fixed_start: false,
            presets: &[],
        }
    }

    #[test]
    fn the_version_is_the_number_after_the_last_v() {
        for (id, version) in [
            ("logic/sat-v2", 2),
            ("games/go-9x9-v1", 1),
            ("a/b-v12", 12),
            ("a/b-v1-v3", 3),
            ("a/b-v", 0),
            ("a/b-v1x", 0),
            ("a/b-vv2", 0),
            ("a/b", 0),
            ("a/b-v99999999999", 0),
        ] {
            assert_eq!(spec(id).version(), version, "{id}");
        }
    }
}
