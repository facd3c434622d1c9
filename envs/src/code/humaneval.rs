//! `code/humaneval-v2`: the 164 HumanEval problems (OpenAI, MIT licence; see
//! `envs/data/humaneval/README.md` and `LICENSE`), judged in the WASM sandbox.
//!
//! # Task
//! One HumanEval problem by id. Its tests are the converted `check` asserts
//! (`envs/data/humaneval/cases.jsonl`, made by `convert.py`) plus hand-written arguments
//! for the five problems whose checks could not be converted
//! (`envs/data/humaneval/extra_cases.jsonl`, expected values from the canonical solution).
//! Both files are embedded in the binary.
//!
//! # Action
//! One free-text reply. The code is the last fenced block, or the whole reply when there
//! is none; it must define the complete function (helpers from the prompt included).
//!
//! # Observation
//! The problem's prompt (imports, signature, docstring with examples) and the format.
//! The tests are never shown.
//!
//! # Reward
//! 1 and `passed` when the function returns the expected value (type-exact; the problem's
//! float tolerance) on every test, else 0. Breakdown: `correct`, `format`, `sandbox_error`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `problems`: problem numbers to draw from (0–163); empty means all 164.
//!
//! # Difficulty
//! Levels 0–4 are the quintiles of the problems by the size of their canonical solution
//! (non-whitespace characters), which is also the task's `effort`; presets `easy`,
//! `medium`, `hard` are levels 0, 2 and 4, `all` is every problem.
//!
//! # Seeding
//! The problem is uniform over `problems`.
//!
//! # Version history
//! v1: first version.
//! v2: the checks of problems 44, 53 and 151 fully converted (their loops and computed
//! lists were missing, so some wrong answers passed); difficulty levels and presets.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use verigym_sandbox::{Limits, TestCase, Verdict};

use crate::code::grade::grade_code;
use crate::core::{EnvKind, EnvSpec, Preset, Superseded};
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::sandboxed::{Judged, SandboxedError, python};
use crate::single_turn::{CheckError, Graded, Question, SingleTurn};

const CASES: &str = include_str!("../../data/humaneval/cases.jsonl");
const EXTRA_CASES: &str = include_str!("../../data/humaneval/extra_cases.jsonl");
/// Number of HumanEval problems.
pub const PROBLEMS: usize = 164;

/// One problem as embedded.
#[derive(Clone, Debug, Deserialize)]
pub struct Problem {
    pub task_id: String,
    pub entry_point: String,
    pub prompt: String,
    pub canonical_solution: String,
    pub cases: Vec<TestCase>,
    pub float_tol: f64,
}

#[derive(Deserialize)]
struct Extra {
    task_id: String,
    cases: Vec<TestCase>,
    float_tol: f64,
}

/// The 164 problems, parsed once (the embedded files are checked by this crate's tests).
pub fn problems() -> &'static [Problem] {
    static PARSED: OnceLock<Vec<Problem>> = OnceLock::new();
    PARSED.get_or_init(|| {
        let mut problems: Vec<Problem> = CASES
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("embedded cases.jsonl parses"))
            .collect();
        for line in EXTRA_CASES.lines().filter(|l| !l.trim().is_empty()) {
            let extra: Extra =
                serde_json::from_str(line).expect("embedded extra_cases.jsonl parses");
            if let Some(p) = problems.iter_mut().find(|p| p.task_id == extra.task_id) {
                p.cases.extend(extra.cases);
                p.float_tol = p.float_tol.max(extra.float_tol);
            }
        }
        problems
    })
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HumanEvalConfig {
    /// Problem numbers (the N of `HumanEval/N`); empty = all.
    pub problems: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HumanEvalTask {
    /// `HumanEval/N`.
    pub task_id: String,
    pub number: usize,
}

/// The HumanEval [`Question`]; [`HumanEval`] is its env.
pub struct HumanEvalQuestion;

pub type HumanEval = SingleTurn<HumanEvalQuestion>;

fn problem(task: &HumanEvalTask) -> &'static Problem {
    &problems()[task.number.min(PROBLEMS - 1)]
}

// The quintiles of the problems by `solution_size` (ties by number); the test
// `levels_are_the_solution_size_quintiles` recomputes them.
const LEVEL_0: &str = r#"{"problems":[2,7,13,15,16,22,23,24,27,28,30,33,34,35,38,41,42,45,49,52,53,54,60,62,77,79,83,84,97,100,138,152]}"#;
const LEVEL_1: &str = r#"{"problems":[3,14,29,31,44,48,50,51,55,57,58,66,67,73,76,85,86,88,90,98,102,112,115,116,120,121,122,133,135,150,151,157,158]}"#;
const LEVEL_2: &str = r#"{"problems":[4,8,11,12,17,18,21,26,40,43,47,56,61,63,64,65,69,71,72,74,78,82,89,91,103,110,134,139,149,154,159,162,163]}"#;
const LEVEL_3: &str = r#"{"problems":[0,5,9,25,36,37,46,68,70,80,87,92,96,101,104,106,108,111,113,114,123,125,128,130,131,136,142,144,145,147,155,160,161]}"#;
const LEVEL_4: &str = r#"{"problems":[1,6,10,19,20,32,39,59,75,81,93,94,95,99,105,107,109,117,118,119,124,126,127,129,132,137,140,141,143,146,148,153,156]}"#;

/// Non-whitespace characters of the canonical solution.
fn solution_size(p: &Problem) -> usize {
    p.canonical_solution
        .chars()
        .filter(|c| !c.is_whitespace())
        .count()
}

/// The budgets for HumanEval: the sandbox defaults (about a second of CPython per case).
pub fn limits() -> Limits {
    Limits::default()
}

impl Question for HumanEvalQuestion {
    type Config = HumanEvalConfig;
    type Task = HumanEvalTask;

    // v1 checked problems 44, 53 and 151 only in part; a task names its
    // problem, so v1's are judged by the complete checks.
    const SUPERSEDED: &'static [Superseded] = &[Superseded::as_is(1)];
    const SPEC: EnvSpec = EnvSpec {
        id: "code/humaneval-v2",
        kind: EnvKind::SingleTurn,
        description: "HumanEval's 164 Python problems, judged in the WASM sandbox (type-exact, host-side comparison)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded_after::<4>(
            &[Preset {
                name: "all",
                overrides: "{}",
            }],
            Self::LEVELS,
            [0, 2, 4],
        ),
    };

    const LEVELS: &'static [&'static str] = &[LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, LEVEL_4];
    const STRUCTURED_KEY: Option<&'static str> = None;

    /// Size of the canonical solution: what the problem takes to write.
    fn effort(task: &HumanEvalTask) -> Option<f64> {
        Some(solution_size(problem(task)) as f64)
    }

    fn validate(config: &HumanEvalConfig) -> Result<(), ConfigError> {
        match config.problems.iter().find(|&&n| n >= PROBLEMS) {
            Some(n) => Err(format!("problem {n} out of range 0..{PROBLEMS}").into()),
            None => Ok(()),
        }
    }

    fn generate(config: &HumanEvalConfig, rng: &mut Rng) -> HumanEvalTask {
        let number = if config.problems.is_empty() {
            rng.below(PROBLEMS as u64) as usize
        } else {
            config.problems[rng.below(config.problems.len() as u64) as usize]
        };
        HumanEvalTask {
            task_id: format!("HumanEval/{number}"),
            number,
        }
    }

    fn prompt(task: &HumanEvalTask) -> String {
        format!(
            "Complete this Python function. Reply with the complete function (with any \
             imports and helpers it needs) in a ```python code block; it will be run on \
             hidden tests.\n\n{}",
            problem(task).prompt
        )
    }

    fn structured(task: &HumanEvalTask) -> Value {
        let p = problem(task);
        json!({ "task_id": p.task_id, "entry_point": p.entry_point })
    }

    /// The problem's prompt followed by its canonical solution.
    fn reference(task: &HumanEvalTask) -> String {
        let p = problem(task);
        format!("{}{}", p.prompt, p.canonical_solution)
    }

    /// Whether `answer` (the code itself) passes every test.
    fn check(task: &HumanEvalTask, answer: &str) -> Result<bool, CheckError> {
        Ok(judge(task, answer)? == Verdict::Passed)
    }

    /// The code is the last fenced block; the sandbox judges it once.
    fn grade(task: &HumanEvalTask, reply: &str) -> Graded {
        grade_code(reply, |code| judge(task, code))
    }

    fn oracle(task: &HumanEvalTask) -> Option<String> {
        Some(format!("```python\n{}```", Self::reference(task)))
    }

    fn random_answer(rng: &mut Rng) -> String {
        rng.range_i64(-20, 20).to_string()
    }
}

/// Runs `code` on the problem's tests in the sandbox.
fn judge(task: &HumanEvalTask, code: &str) -> Judged {
    let p = problem(task);
    python().and_then(|py| {
        py.judge(code, &p.entry_point, &p.cases, &limits(), p.float_tol)
            .map_err(SandboxedError::run)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Env;

    #[test]
    fn embedded_data_has_every_problem_with_cases() {
        let all = problems();
        assert_eq!(all.len(), PROBLEMS);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(p.task_id, format!("HumanEval/{i}"));
            assert!(!p.cases.is_empty(), "{} has no cases", p.task_id);
        }
    }

    /// Every problem whose `check` convert.py could not fully convert has its missing
    /// cases in extra_cases.jsonl.
    #[test]
    fn every_incompletely_converted_problem_has_extra_cases() {
        #[derive(Deserialize)]
        struct Row {
            task_id: String,
            complete: bool,
        }
        let extra: Vec<String> = EXTRA_CASES
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Extra>(l).unwrap().task_id)
            .collect();
        let mut incomplete = Vec::new();
        for line in CASES.lines().filter(|l| !l.trim().is_empty()) {
            let row: Row = serde_json::from_str(line).unwrap();
            if !row.complete {
                assert!(
                    extra.contains(&row.task_id),
                    "{} is incomplete",
                    row.task_id
                );
                incomplete.push(row.task_id);
            }
        }
        assert_eq!(
            incomplete.len(),
            extra.len(),
            "extra rows for complete tasks"
        );
        // 44, 53 and 151 lost their loops and computed lists to convert.py.
        let n = |id: &str| {
            problems()
                .iter()
                .find(|p| p.task_id == id)
                .unwrap()
                .cases
                .len()
        };
        assert_eq!(n("HumanEval/44"), 12);
        assert_eq!(n("HumanEval/53"), 105);
        assert_eq!(n("HumanEval/151"), 7);
    }

    #[test]
    fn levels_are_the_solution_size_quintiles() {
        let mut order: Vec<usize> = (0..PROBLEMS).collect();
        order.sort_by_key(|&i| (solution_size(&problems()[i]), i));
        for (level, patch) in HumanEval::LEVELS.iter().enumerate() {
            let mut want = order[level * PROBLEMS / 5..(level + 1) * PROBLEMS / 5].to_vec();
            want.sort_unstable();
            let config: HumanEvalConfig = serde_json::from_str(patch).unwrap();
            assert_eq!(config.problems, want, "level {level}");
        }
    }

    /// All 164 canonical solutions pass through the env (fenced, as an agent would answer),
    /// and `return None` passes none.
    #[test]
    fn all_canonical_solutions_pass() {
        let mut failures = Vec::new();
        for number in 0..PROBLEMS {
            let task = HumanEvalTask {
                task_id: format!("HumanEval/{number}"),
                number,
            };
            let mut env = HumanEval::reset(&task, Rng::from_seed(0));
            let oracle = env.oracle(0).unwrap();
            let events = env.apply(0, oracle).unwrap();
            if !env.score(0).passed {
                failures.push(format!("{}: {events:?}", task.task_id));
            }
            let entry = &problem(&task).entry_point;
            let mut env = HumanEval::reset(&task, Rng::from_seed(0));
            env.apply(0, format!("def {entry}(*a):\n    return None\n"))
                .unwrap();
            assert!(!env.score(0).passed, "{}: return None passed", task.task_id);
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }
}
