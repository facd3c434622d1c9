//! Helpers every area's tests share: the two binaries, their output, and
//! temporary files.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The `verigym` binary built with these tests, ready for arguments.
pub fn verigym_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verigym"))
}

/// The `gym-bench` binary built with these tests, ready for arguments.
pub fn gym_bench_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gym-bench"))
}

/// Runs `verigym ARGS` to the end.
pub fn verigym(args: &[&str]) -> Output {
    verigym_command().args(args).output().expect("run verigym")
}

/// Runs `gym-bench ARGS` to the end.
pub fn gym_bench(args: &[&str]) -> Output {
    gym_bench_command()
        .args(args)
        .output()
        .expect("run gym-bench")
}

/// A command's stderr, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A fresh, empty directory for one test (tests run in parallel: give each
/// its own `name`).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("verigym-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

/// A file with `contents` in a directory shared by the tests of this run
/// (never emptied while they run): give each file its own `name`.
pub fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("verigym-test-{}-files", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a temporary file");
    path
}

/// A `verigym serve` in this process on a free 127.0.0.1 port, with `options`.
pub fn start_server(
    options: verigym_cli::serve::ServeOptions,
) -> verigym_cli::serve::RunningServer {
    verigym_cli::serve::RunningServer::start(
        verigym_cli::serve::ServeOptions {
            addr: "127.0.0.1:0".parse().unwrap(),
            ..options
        },
        verigym_envs::Registry::builtin(),
    )
    .expect("start the server")
}

/// The JSON values of a JSON-lines file, one per line.
pub fn json_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
