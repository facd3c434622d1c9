//! `tools/fncall-v3`: BFCL-style function calling over generated APIs,
//! verified by executing the agent's calls and the gold calls on the same
//! fresh state and comparing the results.
//!
//! # Task
//! A small world (bank accounts, thermostats, lists, stock, contacts) and an
//! API over some of its modules whose function and argument names are drawn
//! per task from synonyms (`transfer_funds(source, target, amount)` or
//! `move_money(from_account, to_account, sum)`). A request of one to three
//! parts ("Move half of the money in savings to travel. Then: How many units
//! of SKU-4411 are in stock?"); some parts need a read first. A fixed share
//! (`infeasible_share`) adds a part that needs a module outside the API:
//! those pass only when every other part is done and the answer is
//! `infeasible: PART` quoting that part (a bare `infeasible` fails, and so
//! does the quote alone: it can be copied from the prompt without a call).
//!
//! # Action
//! Tool calls in any format of [`crate::toolkit::parse`], of a
//! generated function or `answer`. Unparseable calls, unknown functions and
//! mistyped arguments are [`crate::InvalidAction`]s; a call the API refuses
//! (unknown account, insufficient funds) is an error result and changes
//! nothing.
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
//! The request, the function signatures, how to call, and the latest calls
//! with their JSON results. Structured: `task`, `tools` (OpenAI function
//! schemas, also from [`tool_specs`]), `history`, `answered`.
//!
//! # Reward
//! 1 and `passed` only when the world after the agent's calls equals the
//! world after the gold calls on a fresh copy, and the answer matches: the
//! figure asked for, `done` when none was, `infeasible: PART` for
//! infeasible tasks (whose world must hold the other parts' changes). Breakdown: `correct`, `state_correct`, `answer_correct`.
//!
//! # Episode end
//! The `answer` call (terminated); the step cap truncates (score 0).
//!
//! # Parameters
//! `modules` in the API (1..=4), `parts` per request (1..=3),
//! `infeasible_share` (0..=0.5).
//!
//! # Seeding
//! World, API names, request and infeasibility come from the task rng; each
//! candidate is screened (the oracle passes through the agent's path;
//! constant answers, every answer copied from the prompt and the right
//! answer without calls do not).
//!
//! # Version history
//! v1: first version.
//! v2: infeasible verdicts quote the part no function can do (a bare
//! `infeasible` passed every infeasible task).
//! v3: infeasible tasks ask for the other parts to be done too (before,
//! answering at once `infeasible: ` plus the first or last part of the
//! request, copied from the prompt, passed 4–10% of tasks); the screen
//! rejects tasks any answer copied from the prompt solves at once.

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
use crate::toolkit::spec::{ParamType, ToolSpec, answer_tool, openai_specs};
use crate::toolkit::tool_env::{
    CALL_HELP, CallCount, Log, ToolEnv, apply_calls, tool_observation, tools_text, turn_until,
};

mod generate;
mod task;
pub mod world;

pub use task::{FncallConfig, FncallTask};

use world::{ApiFn, World, execute};

#[derive(Clone, Debug)]
pub struct Fncall {
    task: FncallTask,
    tools: Vec<ToolSpec>,
    world: World,
    log: Log,
    count: CallCount,
    answered: Option<String>,
}

fn task_tools(task: &FncallTask) -> Vec<ToolSpec> {
    let mut tools: Vec<ToolSpec> = task.apis.iter().map(ApiFn::spec).collect();
    tools.push(answer_tool(
        "finish: the figure asked for, `done` if none, or `infeasible: PART`",
    ));
    tools
}

/// The task's functions in OpenAI function format.
pub fn tool_specs(task: &FncallTask) -> Value {
    openai_specs(&task_tools(task))
}

impl ToolEnv for Fncall {
    fn tools(&self) -> &[ToolSpec] {
        &self.tools
    }

    fn feasible(task: &FncallTask) -> bool {
        task.feasible
    }

    fn run_call(&mut self, call: ToolCall) -> String {
        let result = if call.name == "answer" {
            self.answered = Some(call.str("answer").to_string());
            "answer recorded".to_string()
        } else {
            match self.task.apis.iter().find(|a| a.name == call.name) {
                Some(api) => execute(&mut self.world, api.op, &api.values(&call))
                    .unwrap_or_else(|e| e.message),
                None => format!("error: no function {}", call.name),
            }
        };
        self.log.record(&call, result)
    }

    fn call_count(&mut self) -> &mut CallCount {
        &mut self.count
    }
}

impl Env for Fncall {
    type Config = FncallConfig;
    type Task = FncallTask;
    type Action = Calls;

    // Feasible tasks of v1 and v2 read as v3's (a task carries its expected
    // world and answer); infeasible ones took a bare `infeasible` (v1) or a
    // request part copied from the prompt (v2).
    const SUPERSEDED: &'static [Superseded] = &[
        Superseded {
            version: 1,
            upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["feasible"] == false)),
        },
        Superseded {
            version: 2,
            upgrade: Upgrade::Map(|card| refuse_constant_verdict(card.task["feasible"] == false)),
        },
    ];
    const SPEC: EnvSpec = EnvSpec {
        id: "tools/fncall-v3",
        kind: EnvKind::MultiTurn,
        description: "BFCL-style function calling over generated APIs, verified by executing agent and gold calls",
        players: 1,
        max_steps: 30,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [0, 2, 4]),
    };

    /// Five levels; `easy`, `medium` and `hard` are among them.
    const LEVELS: &'static [&'static str] = &[
        r#"{"modules":2,"parts":1}"#,
        r#"{"modules":2,"parts":2}"#,
        r#"{}"#,
        r#"{"modules":3,"parts":3}"#,
        r#"{"modules":4,"parts":3}"#,
    ];

    fn effort(task: &FncallTask) -> Option<f64> {
        tool_effort::<Self>(task.apis.len(), task)
    }

    fn validate(config: &FncallConfig) -> Result<(), ConfigError> {
        if !(1..=4).contains(&config.modules) {
            return Err(format!("modules must be in 1..=4, got {}", config.modules).into());
        }
        if !(1..=3).contains(&config.parts) {
            return Err(format!("parts must be in 1..=3, got {}", config.parts).into());
        }
        if !(0.0..=0.5).contains(&config.infeasible_share) {
            return Err("infeasible_share must be in 0..=0.5".into());
        }
        Ok(())
    }

    fn generate(config: &FncallConfig, rng: &mut Rng) -> FncallTask {
        let mut fallback = None;
        for _ in 0..MAX_ATTEMPTS {
            let Some(mut task) = generate::draw(config, rng) else {
                continue;
            };
            task.expected = expected_world(&task);
            // Every task changes the world (infeasible ones through their
            // other parts), so no answer given at once can pass it.
            let answer = call_text("answer", json!({"answer": task.answer}));
            if task.expected != task.initial && screen::<Fncall>(&task, &[vec![answer]]) {
                return task;
            }
            fallback = Some(task);
        }
        fallback.expect("some candidate is drawn within the attempts")
    }

    fn reference(task: &FncallTask) -> Option<Value> {
        Some(json!({"calls": task.gold, "answer": task.answer}))
    }

    fn reset(task: &FncallTask, _rng: Rng) -> Self {
        Fncall {
            tools: task_tools(task),
            world: task.initial.clone(),
            task: task.clone(),
            log: Log::default(),
            count: CallCount::default(),
            answered: None,
        }
    }

    fn turn(&self) -> Turn {
        turn_until(self.answered.is_some() || self.count.spent(Self::SPEC.max_steps))
    }

    fn observe(&self, _player: Player) -> Observation {
        let text = format!(
            "Fulfil the user's request with the functions below.\nRequest: {}\n\
             When done, call answer with the figure the request asks for, or `done` if it asks for none. \
             If a part cannot be done with these functions, do every other part, then answer `infeasible: PART`, \
             quoting the part of the request that no function can do.\n\n\
             Functions:\n{}{CALL_HELP}\n\nHistory:\n{}",
            self.task.request,
            tools_text(&self.tools),
            self.log.history(),
        );
        tool_observation(
            text,
            openai_specs(&self.tools),
            &self.log,
            json!({"task": self.task.request, "answered": self.answered}),
        )
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Calls, InvalidAction> {
        parse_calls(text, &self.tools)
    }

    fn apply(&mut self, _player: Player, calls: Calls) -> Result<Vec<String>, InvalidAction> {
        Ok(apply_calls(self, calls))
    }

    fn score(&self, _player: Player) -> Score {
        let state = self.world == self.task.expected;
        let answer = self
            .answered
            .as_deref()
            .is_some_and(|a| answers_match(a, &self.task.answer));
        Score::binary(state && answer)
            .part("state_correct", f64::from(u8::from(state)))
            .part("answer_correct", f64::from(u8::from(answer)))
    }

    /// The gold calls in order, then the answer (assumes it made every
    /// earlier call of the episode itself).
    fn oracle(&self, _player: Player) -> Option<String> {
        let made = self.log.entries.len();
        Some(match self.task.gold.get(made) {
            Some(call) => call.clone(),
            None => call_text("answer", json!({"answer": self.task.answer})),
        })
    }

    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let names: Vec<String> = self
            .world
            .accounts
            .keys()
            .chain(self.world.rooms.keys())
            .chain(self.world.lists.keys())
            .chain(self.world.stock.keys())
            .chain(self.world.contacts.iter())
            .cloned()
            .collect();
        let tool = &self.tools[rng.below(self.tools.len() as u64) as usize];
        let mut args = serde_json::Map::new();
        for p in &tool.params {
            let value = match p.ty {
                ParamType::Integer => json!(rng.range_i64(-50, 5000)),
                _ if tool.name == "answer" => {
                    json!(
                        [
                            format!("infeasible: {}", self.task.request),
                            "done".to_string(),
                            rng.range_i64(0, 5000).to_string(),
                        ][rng.below(3) as usize]
                    )
                }
                _ if rng.chance(0.7) => json!(names[rng.below(names.len() as u64) as usize]),
                _ => json!(format!("x{}", rng.below(100))),
            };
            args.insert(p.name.clone(), value);
        }
        random_format(
            &ToolCall {
                name: tool.name.clone(),
                args,
            },
            &self.tools,
            rng,
        )
    }

    fn render(&self) -> String {
        format!(
            "calls={} answered={:?} expected={:?} state_ok={}",
            self.log.entries.len(),
            self.answered,
            self.task.answer,
            self.world == self.task.expected
        )
    }
}

/// Runs the gold calls through the agent's parse/apply path.
fn expected_world(task: &FncallTask) -> World {
    let mut env = Fncall::reset(task, Rng::from_seed(0));
    for text in &task.gold {
        let call = env.parse_action(0, text).expect("gold calls parse");
        env.apply(0, call).expect("tool calls always apply");
    }
    env.world
}

#[cfg(test)]
mod tests;
