#![doc = include_str!("../README.md")]

pub use verigym_envs as envs;
pub use verigym_verifiers as verifiers;

pub mod bench;
pub mod cli;
pub mod generate;
pub mod score;
