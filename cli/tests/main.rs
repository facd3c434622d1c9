//! The CLI crate's one integration test target: the `verigym` and
//! `gym-bench` binaries and the HTTP server, run as a user runs them, one
//! module per area (`cargo test -p verigym-cli --test cli AREA::`).

mod util;

mod commands;
mod gym_bench;
mod http_agent;
mod import;
mod import_flags;
mod openenv;
mod serve;
mod serve_conn;
mod serve_limits;
mod serve_rules;
mod serve_shared;
mod summary;
