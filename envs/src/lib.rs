//! verigym's environments behind one trait.
//!
//! - [`core`]: the contract every env implements ([`Env`]) and its
//!   vocabulary: [`Turn`], [`Status`], [`Score`], [`Observation`],
//!   [`EnvSpec`]. Read it first; it is short.
//! - [`registry`]: every built-in env by id (`family/name-vN[@preset]`).
//! - [`card`]: task cards, the JSON form of one generated task.
//! - [`driver`]: runs agents through an episode (invalid-action policy,
//!   turn cap) and the built-in agents `random`, `noop`, `oracle`.
//! - [`seat`]: one seat of an env against built-in opponents, the
//!   one-agent episode that trainers and per-seat views use.
//! - [`seat_view`]: what a seat sees (and the trainer view): the one view
//!   the server and the Python package answer with.
//! - [`single_turn`]: the base of every single-turn env (one answer, then
//!   over): implement [`single_turn::Question`] and register
//!   `SingleTurn<YourQuestion>`.
//! - [`completion`]: the reply cut out of a whole chat completion.
//! - [`reply`]: the action read out of a whole reply (reasoning, prose,
//!   fences, markers), for every env but the single-turn ones.
//! - [`generate`]: batches of task cards (card `i` of a batch from a seed),
//!   chat rows, mixtures of envs.
//! - [`score`]: offline scoring of answers (or chat completions) against
//!   task cards, in parallel.
//! - [`testing`] (feature `testing`, on by default): the env gate: the
//!   checker, the reward-hack audit, difficulty scales and golden files.
//! - [`answers`]: the one list of degenerate answers (constant replies that
//!   must never pass) and where each is screened; [`prompt_answers`]: the
//!   answers a policy can copy out of a task's prompt without acting.
//! - [`stats`]: 95% intervals of pass rates and means.
//! - [`rng`]: the one portable seeded generator and seed mixing.
//! - `math`, `logic`, `games`, `tools`, `web`, `code` (feature `sandbox`, on
//!   by default), `selfplay` (propose-and-solve; its code env needs `sandbox`):
//!   the env families, one module per env.
//! - [`toolkit`]: the tool-call formats, tool specs, observations, generation
//!   screen and test kit shared by the `tools` and `web` families.
//! - `sandboxed` (feature `sandbox`): the sandbox adapter shared by the `code`
//!   and `selfplay` families (runtimes, budgets, code extraction, verdicts).
//!
//! Make an env, generate a task, play it:
//!
//! ```
//! use verigym_envs::{Registry, Status};
//!
//! let registry = Registry::builtin();
//! let mut env = registry.make("math/arithmetic-v1@easy", None).unwrap();
//! let card = env.generate(42);
//! env.reset(&card).unwrap();
//! println!("{}", card.prompt);
//! let answer = format!("\\boxed{{{}}}", card.reference.as_ref().unwrap().as_str().unwrap());
//! let step = env.step(0, &answer).unwrap();
//! assert_eq!(step.status, Status::Terminated);
//! assert!(env.score(0).passed);
//! ```

pub mod answers;
pub mod budget;
pub mod cancel;
pub mod canonical;
pub mod card;
pub mod completion;
pub mod core;
pub mod curriculum;
pub mod dataset;
pub mod digits;
pub mod driver;
pub mod dynenv;
pub mod error;
pub mod generate;
pub mod labels;
pub mod prompt_answers;
pub mod refusals;
pub mod registry;
pub mod registry_cards;
pub mod reply;
pub mod rng;
#[cfg(feature = "sandbox")]
pub mod sandboxed;
pub mod score;
pub mod seat;
pub mod seat_view;
pub mod session;
pub mod shaping;
pub mod single_turn;
pub mod stats;
pub mod task_json;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod toolkit;
pub mod upgrade;

#[cfg(feature = "sandbox")]
pub mod code;
pub mod games;
pub mod logic;
pub mod math;
pub mod selfplay;
pub mod tools;
pub mod web;

pub use crate::card::TaskCard;
pub use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, NO_VERDICT, Observation, Player, Preset, Score, Status,
    Superseded, Transition, Turn, Upgrade,
};
pub use crate::driver::{Agent, AgentTurn, DriverConfig, EpisodeResult, Reads, run_episode};
pub use crate::dynenv::{DynEnv, Grader, Instance};
pub use crate::error::{CardProblem, ConfigError, EnvError, NoTask, Refusal};
pub use crate::registry::{Registration, Registry};
pub use crate::rng::{Rng, mix_seed};
