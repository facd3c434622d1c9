//! `tools/vfs-shell-v2`: file chores in a virtual file system through
//! shell-like tools, verified by the final tree and the answer.
//!
//! # Task
//! A generated tree of invoices (`/invoices`, by year on `hard`), log files
//! (`/logs`) and notes (`/notes`), and one chore: archive the invoices over
//! an amount or the unpaid ones of a vendor and report their total; delete
//! the logs containing a word and report how many; write a sorted report of
//! a vendor's invoice ids; copy one invoice or note and report a figure. A
//! fixed share (`infeasible_share`) names an invoice or note that does not
//! exist: those pass only with an untouched tree and the answer
//! `infeasible: EVIDENCE`, the evidence only looking reveals: the closest
//! existing invoice id, or the names of the notes there are.
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`]: `ls`,
//! `cat`, `grep` (literal text), `find` (glob on names), `mv`, `cp`, `rm`,
//! `mkdir`, `write`, `answer`. Unparseable calls, unknown tools and bad
//! arguments are [`crate::InvalidAction`]s (the driver lets the agent
//! retry); a valid call that fails (missing file) is an error *result* in
//! the next observation and changes nothing.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//! A turn may make several calls where its format writes several (an OpenAI
//! list, several `<tool_call>` blocks, a Mistral or pythonic list): they run
//! in order, each with its own result, and each counts toward the step cap
//! (`crate::toolkit::tool_env::apply_calls`). A turn with two different
//! final calls, another call after its final call, or a call beside a
//! different one in another format is refused; calls after one that ends
//! the episode by its effect are not run.
//!
//! # Observation
//! The chore, the tool signatures, how to call them, and the latest calls
//! with their results. Structured: `task`, `tools` (OpenAI function
//! schemas), `history`, `answered`.
//!
//! # Reward
//! 1 and `passed` only when the final tree equals the expected tree exactly
//! (file texts compared up to trailing spaces and blank lines) and the
//! answer matches. Breakdown: `correct`, `state_correct`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call ends it (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `invoices` (4..=60), `logs` (4..=40), `notes` (1..=10), `by_year`,
//! `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! Contents, amounts, vendors and the chore are drawn from the task rng;
//! every candidate is screened (oracle through the agent's parse/step path
//! passes; answering at once, deleting everything, or the right answer on
//! an untouched tree do not) before it is accepted.
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts carry evidence (a bare `infeasible` passed every
//! infeasible task).

use std::sync::LazyLock;

use serde_json::{Value, json};

use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
    Upgrade,
};
use crate::error::ConfigError;
use crate::refusals::refuse_constant_verdict;
use crate::rng::Rng;
use crate::toolkit::calls::{Calls, ToolCall, call_text, random_format};
use crate::toolkit::final_answer::answers_match;
use crate::toolkit::parse::parse_calls;
use crate::toolkit::screen::{MAX_ATTEMPTS, screen, tool_effort};
use crate::toolkit::spec::{Param, ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CallCount, Log, ToolEnv, ToolError, answer_observation, apply_calls, turn_until,
};

pub mod fs;
mod generate;
mod task;

pub use task::{VfsShellConfig, VfsShellTask};

use fs::Tree;

/// The episode: the tree as the agent has left it.
#[derive(Clone, Debug)]
pub struct VfsShell {
    task: VfsShellTask,
    tree: Tree,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

pub static TOOLS: LazyLock<Vec<ToolSpec>> = LazyLock::new(|| {
    let path = |d: &str| Param::required("path", ParamType::String, d);
    vec![
        ToolSpec::new("ls", "list a directory", vec![path("directory path")]),
        ToolSpec::new("cat", "print a file", vec![path("file path")]),
        ToolSpec::new(
            "grep",
            "lines containing the literal text, in a file or under a directory, as path:line:text",
            vec![
                Param::required("pattern", ParamType::String, "literal text to find"),
                path("file or directory"),
            ],
        ),
        ToolSpec::new(
            "find",
            "paths under a directory whose name matches a glob (* and ?)",
            vec![
                path("directory to search"),
                Param::required("name", ParamType::String, "glob, e.g. *.txt"),
            ],
        ),
        ToolSpec::new(
            "mv",
            "move or rename; into the directory when the target is one",
            vec![
                Param::required("source", ParamType::String, "path to move"),
                Param::required("target", ParamType::String, "new path or directory"),
            ],
        ),
        ToolSpec::new(
            "cp",
            "copy a file or directory; into the directory when the target is one",
            vec![
                Param::required("source", ParamType::String, "path to copy"),
                Param::required("target", ParamType::String, "new path or directory"),
            ],
        ),
        ToolSpec::new(
            "rm",
            "remove a file, or a directory with recursive=true",
            vec![
                path("path to remove"),
                Param::optional(
                    "recursive",
                    ParamType::Boolean,
                    "remove a directory and its contents",
                ),
            ],
        ),
        ToolSpec::new(
            "mkdir",
            "make a directory and its parents",
            vec![path("directory path")],
        ),
        ToolSpec::new(
            "write",
            "create or overwrite a file",
            vec![
                path("file path"),
                Param::required("content", ParamType::String, "the whole file text"),
            ],
        ),
        answer_tool("finish the task with its answer"),
    ]
});

/// The tools in OpenAI function format.
pub fn tool_specs() -> Value {
    openai_specs(&TOOLS)
}

impl VfsShell {
    fn run(&mut self, call: &ToolCall) -> String {
        let t = &mut self.tree;
        let result = match call.name.as_str() {
            "ls" => fs::ls(t, call.str("path")),
            "cat" => fs::cat(t, call.str("path")),
            "grep" => fs::grep(t, call.str("pattern"), call.str("path")),
            "find" => fs::find(t, call.str("path"), call.str("name")),
            "mv" => fs::mv(t, call.str("source"), call.str("target")),
            "cp" => fs::cp(t, call.str("source"), call.str("target")),
            "rm" => {
                let recursive = call
                    .args
                    .get("recursive")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                fs::rm(t, call.str("path"), recursive)
            }
            "mkdir" => fs::mkdir(t, call.str("path")),
            "write" => fs::write(t, call.str("path"), call.str("content")),
            "answer" => {
                self.answered = Some(call.str("answer").to_string());
                Ok("answer recorded".into())
            }
            other => Err(format!("error: no tool {other}").into()),
        };
        result.unwrap_or_else(|e: ToolError| e.message)
    }

    fn state_correct(&self) -> bool {
        fs::canonical(&self.tree) == fs::canonical(&self.task.expected)
    }

    /// The next call that brings the tree closer to the expected one, or the
    /// answer once they agree (the reference solver; works from any state).
    fn next_fix(&self) -> String {
        let (now, want) = (&self.tree, &self.task.expected);
        // Directories first, shallowest first (the map is sorted).
        for (path, node) in want {
            if node.is_none() && now.get(path) != Some(&None) {
                if now.contains_key(path) {
                    return call_text("rm", json!({"path": path}));
                }
                return call_text("mkdir", json!({"path": path}));
            }
        }
        for (path, node) in want {
            let Some(content) = node else { continue };
            if now.get(path) == Some(node) {
                continue;
            }
            if now.contains_key(path) {
                return call_text("rm", json!({"path": path, "recursive": true}));
            }
            let source = now
                .iter()
                .find(|(p, n)| n.as_ref() == Some(content) && want.get(*p) != Some(n));
            return match source {
                Some((src, _)) => call_text("mv", json!({"source": src, "target": path})),
                None => call_text("write", json!({"path": path, "content": content})),
            };
        }
        if let Some(extra) = now.keys().find(|p| !want.contains_key(*p)) {
            return call_text("rm", json!({"path": extra, "recursive": true}));
        }
        call_text("answer", json!({"answer": self.task.answer}))
    }
}

impl ToolEnv for VfsShell {
    fn tools(&self) -> &[ToolSpec] {
        &TOOLS
    }

    fn feasible(task: &VfsShellTask) -> bool {
        task.feasible
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = self.run(&call);
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for VfsShell {
    type Config = VfsShellConfig;
    type Task = VfsShellTask;
    type Action = Calls;

    // v1's feasible tasks read as v2's (a task carries its expected answer);
    // its infeasible ones took a bare `infeasible`.
    const SUPERSEDED: &'static [Superseded] = &[Superseded {
        version: 1,
        upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["feasible"] == false)),
    }];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/vfs-shell-v2",
        kind: EnvKind::MultiTurn,
        description: "File chores in a virtual file system with shell-like tools, verified by the final tree and answer",
        players: 1,
        max_steps: 80,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"invoices":6,"logs":5,"notes":2}"#,
        r#"{"invoices":9,"logs":6,"notes":3}"#,
        r#"{}"#,
        r#"{"invoices":20,"logs":12,"notes":6}"#,
        r#"{"invoices":30,"logs":16,"notes":8,"by_year":true}"#,
    ];

    fn effort(task: &VfsShellTask) -> Option<f64> {
        tool_effort::<Self>(task.initial.values().filter(|n| n.is_some()).count(), task)
    }

    fn validate(config: &VfsShellConfig) -> Result<(), ConfigError> {
        let in_range = |v: usize, lo: usize, hi: usize, name: &str| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name} must be in {lo}..={hi}, got {v}"))
            }
        };
        in_range(config.invoices, 4, 60, "invoices")?;
        in_range(config.logs, 4, 40, "logs")?;
        in_range(config.notes, 1, 10, "notes")?;
        if !(0.0..=0.5).contains(&config.infeasible_share) {
            return Err("infeasible_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &VfsShellConfig, rng: &mut Rng) -> VfsShellTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let world = generate::draw_world(config, rng);
            // A chore that does not fit this world (no vendor with two unpaid
            // invoices) is redrawn on the same world before the world is.
            let chore = (0..8).find_map(|_| generate::draw_chore(&world, config, rng));
            let Some(chore) = chore else {
                continue;
            };
            let task = VfsShellTask {
                instruction: chore.instruction,
                expected: expected_tree(&world.tree, &chore.gold),
                initial: world.tree,
                answer: chore.answer,
                feasible: chore.feasible,
            };
            let answer = |a: &str| call_text("answer", json!({"answer": a}));
            let mut extra = vec![vec![
                call_text("rm", json!({"path": "/", "recursive": true})),
                answer(&task.answer),
            ]];
            if task.feasible {
                extra.push(vec![answer(&task.answer)]);
            }
            if screen::<VfsShell>(&task, &extra) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &VfsShellTask) -> Option<Value> {
        Some(json!(task.answer))
    }

    fn reset(task: &VfsShellTask, _rng: Rng) -> Self {
        VfsShell {
            task: task.clone(),
            tree: task.initial.clone(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        answer_observation(
            &format!(
                "You work in a virtual file system through tools.\nTask: {}\nChange nothing else in the file system. \
                 If the task cannot be done, change nothing and answer `infeasible: EVIDENCE` as the task says.",
                self.task.instruction
            ),
            &self.task.instruction,
            &TOOLS,
            &self.log,
            self.answered.as_deref(),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &TOOLS)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let state = self.state_correct();
        let answer = self
            .answered
            .as_deref()
            .is_some_and(|a| answers_match(a, &self.task.answer));
        let passed = state && answer;
        Score::binary(passed)
            .part("state_correct", f64::from(u8::from(state)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(self.next_fix())
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let mut paths: Vec<&str> = self.tree.keys().map(String::as_str).collect();
        paths.extend(["/", "/archive", "/reports", "/backup"]);
        let mut pick = || paths[rng.below(paths.len() as u64) as usize].to_string();
        let (a, b) = (pick(), pick());
        let word = ["ERROR", "amount", "unpaid"][rng.below(3) as usize];
        let call = match rng.below(12) {
            0 => ToolCall::new("ls", json!({"path": a})),
            1 => ToolCall::new("cat", json!({"path": a})),
            2 => ToolCall::new("grep", json!({"pattern": word, "path": a})),
            3 => ToolCall::new("find", json!({"path": a, "name": "*.txt"})),
            4 => ToolCall::new("mv", json!({"source": a, "target": b})),
            5 => ToolCall::new("cp", json!({"source": a, "target": b})),
            6 => ToolCall::new("rm", json!({"path": a, "recursive": rng.chance(0.5)})),
            7 => ToolCall::new("mkdir", json!({"path": a})),
            8 => ToolCall::new("write", json!({"path": a, "content": b})),
            9 => ToolCall::new("answer", json!({"answer": format!("infeasible: {b}")})),
            _ => ToolCall::new(
                "answer",
                json!({"answer": rng.range_i64(0, 5000).to_string()}),
            ),
        };
        random_format(&call, &TOOLS, rng)
    }

    fn render(&self) -> String {
        let files = self.tree.values().filter(|n| n.is_some()).count();
        format!(
            "entries={} files={} calls={} answered={:?} expected={:?} state_ok={}",
            self.tree.len(),
            files,
            self.log.entries.len(),
            self.answered,
            self.task.answer,
            self.state_correct()
        )
    }
}

/// Runs the gold calls through the agent's parse/apply path.
fn expected_tree(initial: &Tree, gold: &[String]) -> Tree {
    let task = VfsShellTask {
        instruction: String::new(),
        initial: initial.clone(),
        expected: Tree::new(),
        answer: String::new(),
        feasible: true,
    };
    let mut env = VfsShell::reset(&task, Rng::from_seed(0));
    for text in gold {
        let call = env.parse_action(0, text).expect("gold calls parse");
        env.apply(0, call).expect("tool calls always apply");
    }
    env.tree
}

#[cfg(test)]
mod tests;
