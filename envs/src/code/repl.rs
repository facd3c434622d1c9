//! `code/repl-v2`: multi-turn coding (InterCode-style): run code in the sandbox, read its
//! output, then submit a function that is judged on hidden tests.
//!
//! # Task
//! A generated function task as in `code/functions-v2` (same families and config), plus
//! a budget of `max_runs` code runs.
//!
//! # Action
//! A reply whose first word is `run` or `submit` (case-insensitive, an optional colon),
//! followed by Python code (the last fenced block after the keyword, or the rest of the
//! text). Reasoning and prose before the keyword's line are skipped: the action starts
//! at the first line outside a code fence that begins with the keyword (after markdown
//! emphasis or an `Action:` marker). `run` executes the code once as a script in a fresh sandbox instance and shows
//! its captured output (capped); `submit` ends the episode. Any other first word, or a
//! `run` with no runs left, is an invalid action.
//!
//! # Observation
//! The task prompt, the runs left, and the last three runs' outputs (each capped at
//! 1,000 characters).
//!
//! # Reward
//! Only on submission: 1 and `passed` when the submitted function passes every hidden
//! test, else 0. Breakdown: `correct`, `format`, `sandbox_error`, `runs` (runs used).
//!
//! # Episode end
//! On `submit` (terminated), or at the step cap (truncated, reward 0).
//!
//! # Parameters
//! `task` (a `code/functions-v2` config), `max_runs` (0–15).
//!
//! # Seeding
//! As `code/functions-v2`. Runs are deterministic (fuel-limited, frozen clocks).
//!
//! # Version history
//! v1: first version.
//! v2: the tasks of `code/functions-v2` (boundary cases among the hidden tests).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::families::{self, FnTask};
use super::functions::{FunctionsConfig, generate_task, python_prompt, validate_config};
use crate::core::{
    Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Superseded, Turn,
};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{
    Judged, SandboxedError, default_limits, extract_code_visible, judged_event, judged_score,
    python,
};

/// Characters of one run's output shown to the agent.
const OUTPUT_CAP: usize = 1_000;
/// Runs kept in the observation.
const RUNS_SHOWN: usize = 3;
const MAX_RUNS: usize = 15;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReplConfig {
    pub task: FunctionsConfig,
    pub max_runs: usize,
}

impl Default for ReplConfig {
    fn default() -> Self {
        ReplConfig {
            task: FunctionsConfig::default(),
            max_runs: 5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplTask {
    pub function: FnTask,
    pub max_runs: usize,
}

/// A parsed reply.
pub enum ReplAction {
    Run(String),
    Submit(String, bool),
}

#[derive(Clone, Debug)]
pub struct Repl {
    task: ReplTask,
    /// The shown output of each run so far.
    runs: Vec<String>,
    submitted: Option<(Judged, bool)>,
}

/// Runs `code` as a script: its module-level code executes while the sandbox loads it.
fn run_script(code: &str) -> String {
    const PROBE: &str = "__verigym_repl_probe__";
    let src = format!("{code}\n\ndef {PROBE}():\n    return None\n");
    let report = python().and_then(|py| {
        py.run_cases(&src, PROBE, &[json!([])], &default_limits())
            .map_err(SandboxedError::run)
    });
    let mut shown = match report {
        Ok(report) => {
            let mut text = report.stdout;
            if !report.stderr.is_empty() {
                text.push_str(&report.stderr);
            }
            match report.outcomes.first() {
                Some(verigym_sandbox::CaseOutcome::Returned(_)) | None => {}
                Some(other) => text.push_str(&format!("[{}]\n", outcome_text(other))),
            }
            text
        }
        Err(why) => format!("[{why}]\n"),
    };
    if shown.len() > OUTPUT_CAP {
        let cut = shown.floor_char_boundary(OUTPUT_CAP);
        shown.truncate(cut);
        shown.push_str("\n[output truncated]\n");
    }
    shown
}

fn outcome_text(outcome: &verigym_sandbox::CaseOutcome) -> String {
    use verigym_sandbox::CaseOutcome as O;
    match outcome {
        O::Returned(_) => "ok".into(),
        O::RuntimeError(msg) => format!("error: {msg}"),
        O::CompileError(msg) => format!("syntax error: {msg}"),
        O::OutOfFuel => "time limit exceeded".into(),
        O::OutOfMemory => "memory limit exceeded".into(),
        O::OutputLimit => "output limit exceeded".into(),
        O::Timeout => "wall-clock limit exceeded".into(),
    }
}

/// The reply from the first line (outside code fences) that starts with `run` or
/// `submit`, after any markdown emphasis or an `Action:` marker: prose before the
/// keyword is not part of the action.
fn keyword_line(text: &str) -> Option<&str> {
    let mut in_fence = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let trimmed = line.trim_start().trim_start_matches(['*', '#', '>', ' ']);
        let trimmed = ["action:", "Action:"]
            .iter()
            .find_map(|m| trimmed.strip_prefix(m))
            .map_or(trimmed, |rest| {
                rest.trim_start().trim_start_matches('*').trim_start()
            });
        let word: String = trimmed
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_ascii_lowercase();
        if word == "run" || word == "submit" {
            return Some(&text[start + (line.len() - trimmed.len())..]);
        }
    }
    None
}

impl Env for Repl {
    type Config = ReplConfig;
    type Task = ReplTask;
    type Action = ReplAction;

    // v1 drew no boundary cases among the hidden tests; a task carries its
    // own tests, so v1's are judged by those.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "code/repl-v2",
        kind: EnvKind::MultiTurn,
        description: "Multi-turn coding: run Python in the sandbox and see its output, then submit a function judged on hidden tests",
        players: 1,
        max_steps: MAX_RUNS + 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"task":{"level":1,"hidden_tests":15},"max_runs":8}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"task":{"level":3,"examples":2,"hidden_tests":30},"max_runs":3}"#,
            },
        ],
    };

    fn validate(config: &ReplConfig) -> Result<(), ConfigError> {
        if config.max_runs > MAX_RUNS {
            return Err(format!("max_runs must be 0..={MAX_RUNS}").into());
        }
        validate_config(&config.task, false)
    }

    fn generate(config: &ReplConfig, rng: &mut Rng) -> ReplTask {
        ReplTask {
            function: generate_task(&config.task, false, rng),
            max_runs: config.max_runs,
        }
    }

    fn reference(task: &ReplTask) -> Option<Value> {
        Some(Value::String(task.function.reference.clone()))
    }

    fn effort(task: &ReplTask) -> Option<f64> {
        Some(families::effort(&task.function))
    }

    fn reset(task: &ReplTask, _rng: Rng) -> Self {
        Repl {
            task: task.clone(),
            runs: Vec::new(),
            submitted: None,
        }
    }

    fn turn(&self) -> Turn {
        if self.submitted.is_some() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let left = self.task.max_runs.saturating_sub(self.runs.len());
        let mut text = format!(
            "{}\n\nYou may test code before answering. Start your reply with `run` followed by \
             a ```python block to execute it as a script and see what it prints ({left} runs \
             left), or with `submit` followed by a ```python block holding the complete \
             function to be judged (this ends the episode).",
            python_prompt(&self.task.function)
        );
        let first = self.runs.len().saturating_sub(RUNS_SHOWN);
        for (i, output) in self.runs.iter().enumerate().skip(first) {
            text.push_str(&format!("\n\n--- run {} output ---\n{output}", i + 1));
        }
        Observation {
            text,
            structured: json!({
                "family": self.task.function.family,
                "entry": self.task.function.entry,
                "runs_left": left,
                "outputs": self.runs[first..],
                "submitted": self.submitted.is_some(),
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<ReplAction, InvalidAction> {
        let body = keyword_line(text).unwrap_or(text.trim_start());
        let word_end = body
            .find(|c: char| c.is_whitespace() || c == ':')
            .unwrap_or(body.len());
        let (word, rest) = body.split_at(word_end);
        let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
        let (code, fenced) = extract_code_visible(rest);
        match word.to_ascii_lowercase().as_str() {
            "run" if self.runs.len() >= self.task.max_runs => Err(InvalidAction::new(
                "no runs left: start your reply with `submit`",
            )),
            "run" => Ok(ReplAction::Run(code)),
            "submit" => Ok(ReplAction::Submit(code, fenced)),
            _ => Err(InvalidAction::new(
                "start your reply with `run` or `submit`, followed by a ```python block",
            )),
        }
    }

    fn apply(&mut self, _player: Player, action: ReplAction) -> Result<Vec<String>, InvalidAction> {
        match action {
            ReplAction::Run(code) => {
                self.runs.push(run_script(&code));
                Ok(vec![format!("run {}", self.runs.len())])
            }
            ReplAction::Submit(code, fenced) => {
                let f = &self.task.function;
                let judged = python().and_then(|py| {
                    py.judge(&code, &f.entry, &f.tests, &default_limits(), 1e-9)
                        .map_err(SandboxedError::run)
                });
                let event = judged_event(&judged);
                self.submitted = Some((judged, fenced));
                Ok(vec![event])
            }
        }
    }

    fn score(&self, _player: Player) -> Score {
        let score = match &self.submitted {
            Some((judged, fenced)) => judged_score(judged, *fenced),
            None => Score::default(),
        };
        score.part("runs", self.runs.len() as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        Some(format!(
            "submit\n```python\n{}```",
            self.task.function.reference
        ))
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let n = rng.range_i64(-20, 20);
        if rng.chance(0.6) && self.runs.len() < self.task.max_runs {
            format!("run\n```python\nprint({n})\n```")
        } else {
            format!(
                "submit\n```python\ndef {}(*args):\n    return {n}\n```",
                self.task.function.entry
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_env(seed: u64) -> Repl {
        let task = Repl::generate(&ReplConfig::default(), &mut Rng::from_seed(seed));
        Repl::reset(&task, Rng::from_seed(0))
    }

    fn act(env: &mut Repl, text: &str) -> Result<Vec<String>, InvalidAction> {
        let action = env.parse_action(0, text)?;
        env.apply(0, action)
    }

    #[test]
    fn runs_show_output_then_submission_is_judged() {
        let mut env = new_env(2);
        act(&mut env, "run\n```python\nprint(6 * 7)\n```").unwrap();
        assert!(
            env.observe(0).text.contains("--- run 1 output ---\n42\n"),
            "{}",
            env.observe(0).text
        );
        assert!(!env.score(0).passed);
        act(&mut env, "RUN: ```python\nprint('x' * 100000)\n```").unwrap();
        assert!(
            env.runs[1].len() < 1_200 + 40,
            "output not capped: {}",
            env.runs[1].len()
        );
        act(&mut env, "run ```python\nwhile True: pass\n```").unwrap();
        assert!(env.runs[2].contains("time limit"), "{}", env.runs[2]);
        assert!(act(&mut env, "hello").is_err());
        assert_eq!(env.turn(), Turn::Player(0));
        let oracle = env.oracle(0).unwrap();
        act(&mut env, &oracle).unwrap();
        assert_eq!(env.turn(), Turn::Over);
        let score = env.score(0);
        assert!(score.passed && score.breakdown["runs"] == 3.0, "{score:?}");
    }

    #[test]
    fn run_budget_and_wrong_submissions() {
        let mut env = new_env(4);
        for _ in 0..5 {
            act(&mut env, "run print(1)").unwrap();
        }
        assert!(
            act(&mut env, "run print(1)").is_err(),
            "a sixth run was accepted"
        );
        let entry = env.task.function.entry.clone();
        act(
            &mut env,
            &format!("submit\n```python\ndef {entry}(*a):\n    raise SystemExit(0)\n```"),
        )
        .unwrap();
        assert!(!env.score(0).passed);
        assert_eq!(env.score(0).reward, 0.0);
    }

    #[test]
    fn prose_before_the_keyword_is_skipped_but_code_lines_are_not_keywords() {
        let env = new_env(2);
        let oracle = env.oracle(0).unwrap();
        for reply in [
            format!("I have tested enough; submitting now.\n\n{oracle}"),
            format!("**Action:** {oracle}"),
            format!("## Plan\nCheck the edge cases first.\n\n{oracle}"),
        ] {
            assert!(
                matches!(env.parse_action(0, &reply), Ok(ReplAction::Submit(..))),
                "{reply}"
            );
        }
        let run = "Let me try it.\nrun\n```python\nprint(1)\n```";
        assert!(matches!(env.parse_action(0, run), Ok(ReplAction::Run(_))));
        // `run` as a name inside a fence is code, not the keyword.
        let fenced = "Here is the code:\n```python\nrun = 5\n```";
        assert!(env.parse_action(0, fenced).is_err());
    }
}
