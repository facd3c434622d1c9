//! verigym: verifiable-reward environments for training and evaluating
//! language-model agents with reinforcement learning.
//!
//! This crate is the front door: it re-exports the two library crates under
//! short names and adds nothing of its own, so depending on it costs no more
//! than depending on them.
//!
//! - [`envs`] (`verigym-envs`): the one env trait ([`envs::Env`], type-erased
//!   as [`envs::DynEnv`]), the [`envs::Registry`] of every built-in env by id
//!   (`family/name-vN`, with `@preset`s), task cards, the episode driver and
//!   its built-in agents, batch generation and offline scoring, and the env
//!   families: math, logic, games, tools, web, code (feature `sandbox`) and
//!   self-play.
//! - [`verifiers`] (`verigym-verifiers`): the pure checking functions the
//!   envs use (answer extraction, math equivalence, SAT and puzzle checks),
//!   usable on their own.
//!
//! The command-line tools (`verigym`, `gym-bench`, the HTTP server) live in
//! the `verigym-cli` crate, the trained reference agent in `verigym-agent`,
//! the Python package in `python/`.
//!
//! # Make an env, reset it to a task, step it
//!
//! ```
//! use verigym::envs::{Registry, Status, Turn};
//!
//! let registry = Registry::builtin();
//! // An id, optionally with a preset; JSON overrides go in the second argument.
//! let mut env = registry.make("math/arithmetic-v1@easy", None).unwrap();
//!
//! // A task card is a pure function of the env's config and the seed.
//! let card = env.generate(42);
//! env.reset(&card).unwrap();
//! assert_eq!(env.turn(), Turn::Player(0));
//! let prompt = env.observe(0).unwrap().text;
//! assert_eq!(prompt, card.prompt);
//!
//! // Actions are text, as a model writes them; the env parses and checks them.
//! let answer = card.reference.as_ref().unwrap().as_str().unwrap();
//! let step = env.step(0, &format!("Let me add it up. \\boxed{{{answer}}}")).unwrap();
//! assert_eq!(step.status, Status::Terminated);
//! assert!(env.score(0).passed);
//!
//! // A hedged answer scores nothing.
//! env.reset(&card).unwrap();
//! env.step(0, &format!("\\boxed{{{answer}}} or \\boxed{{0}}")).unwrap();
//! assert!(!env.score(0).passed);
//! ```
//!
//! Games take one action per seat in turn ([`envs::Env::turn`] says whose);
//! [`envs::run_episode`] drives agents through a whole episode with the
//! invalid-action policy and the turn cap.
//!
//! # Generate and score in bulk
//!
//! ```
//! use verigym::envs::Registry;
//! use verigym::envs::generate::generate_cards;
//! use verigym::envs::score::score_cards;
//! use verigym::envs::shaping::Shaping;
//!
//! let registry = Registry::builtin();
//! let env = registry.make("math/arithmetic-v1@medium", None).unwrap();
//! let cards = generate_cards(&*env, 7, 3); // cards 0..3 of the batch from seed 7
//! // One list of actions per card: here each card's reference, boxed.
//! let answers: Vec<Vec<String>> = cards
//!     .iter()
//!     .map(|c| vec![format!("\\boxed{{{}}}", c.reference.as_ref().unwrap().as_str().unwrap())])
//!     .collect();
//! let scored = score_cards(&registry, &cards, &answers, &Shaping::default());
//! assert!(scored.iter().all(|s| s.as_ref().unwrap().passed));
//! ```

pub use verigym_envs as envs;
pub use verigym_verifiers as verifiers;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
