#![doc = include_str!("../README.md")]

pub use verigym_envs as envs;
pub use verigym_verifiers as verifiers;

pub mod audit;
pub mod bench;
pub mod check;
pub mod cli;
pub mod code_bench;
pub mod difficulty;
pub mod envbench;
pub mod exploit;
pub mod generate;
pub mod http_agent;
pub mod human_agent;
pub mod metrics;
pub mod report;
pub mod runlog;
pub mod score;
pub mod serve;
pub mod suite;
