//! `logic/water-jugs-v1`: measure an amount of water with unmarked jugs in
//! the fewest steps.
//!
//! # Task
//! `jugs` empty jugs (A, B, C) with random capacities in `3..=max_capacity`
//! and a goal: a target amount in one named jug, every other jug empty. A step fills a jug from the tap, empties it, or
//! pours one jug into another until the source is empty or the other full.
//! The generator finds the shortest step count by breadth-first search over
//! jug states and keeps goals needing at least `min_steps`.
//!
//! # Action
//! The steps, one per part (newline, comma or `;`): `fill A`, `empty B`,
//! `pour A B` (also `pour A into B`, `A->B`). In `\boxed{…}` or as the whole
//! reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! Capacities and target. Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the steps end in exactly the goal state and their
//! number equals the optimum; else 0. Breakdown: `correct`,
//! `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `jugs` (2..=3), `max_capacity` (5..=30), `min_steps` (2..=12).
//!
//! # Seeding
//! Capacities and target come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

const NAMES: [char; 3] = ['A', 'B', 'C'];

/// Jug sets drawn at most for one task ([`WaterJugs::try_generate`]).
const MAX_JUG_SETS: usize = 2_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WaterJugsConfig {
    pub jugs: usize,
    pub max_capacity: u32,
    pub min_steps: usize,
}

impl Default for WaterJugsConfig {
    fn default() -> Self {
        WaterJugsConfig {
            jugs: 3,
            max_capacity: 30,
            min_steps: 9,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaterJugsTask {
    pub capacities: Vec<u32>,
    pub target: u32,
    /// The jug that must end holding `target`; every other jug ends empty.
    pub jug: usize,
    pub optimal_steps: usize,
    /// One shortest solution.
    pub solution: Vec<Step>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Fill(usize),
    Empty(usize),
    Pour(usize, usize),
}

fn apply(capacities: &[u32], state: &mut [u32], step: Step) {
    match step {
        Step::Fill(j) => state[j] = capacities[j],
        Step::Empty(j) => state[j] = 0,
        Step::Pour(a, b) => {
            let moved = state[a].min(capacities[b] - state[b]);
            state[a] -= moved;
            state[b] += moved;
        }
    }
}

fn all_steps(jugs: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = (0..jugs)
        .flat_map(|j| [Step::Fill(j), Step::Empty(j)])
        .collect();
    steps.extend((0..jugs).flat_map(|a| {
        (0..jugs)
            .filter(move |&b| b != a)
            .map(move |b| Step::Pour(a, b))
    }));
    steps
}

/// Breadth-first search over jug states from all-empty. States are
/// encoded as mixed-radix integers; returns each state's distance (or
/// `u32::MAX`) and the step that first reached it with its predecessor.
struct Search {
    radix: Vec<usize>,
    distance: Vec<u32>,
    came_from: Vec<(usize, Step)>,
}

impl Search {
    fn run(capacities: &[u32]) -> Search {
        let radix: Vec<usize> = capacities.iter().map(|&c| c as usize + 1).collect();
        let total: usize = radix.iter().product();
        let mut search = Search {
            radix,
            distance: vec![u32::MAX; total],
            came_from: vec![(0, Step::Fill(0)); total],
        };
        search.distance[0] = 0;
        let mut queue = VecDeque::from([0usize]);
        let steps = all_steps(capacities.len());
        let mut state = vec![0u32; capacities.len()];
        while let Some(code) = queue.pop_front() {
            for &step in &steps {
                search.decode(code, &mut state);
                apply(capacities, &mut state, step);
                let next = search.encode(&state);
                if search.distance[next] == u32::MAX {
                    search.distance[next] = search.distance[code] + 1;
                    search.came_from[next] = (code, step);
                    queue.push_back(next);
                }
            }
        }
        search
    }

    fn encode(&self, state: &[u32]) -> usize {
        state
            .iter()
            .zip(&self.radix)
            .rev()
            .fold(0, |acc, (&a, &r)| acc * r + a as usize)
    }

    fn decode(&self, mut code: usize, state: &mut [u32]) {
        for (a, &r) in state.iter_mut().zip(&self.radix) {
            *a = (code % r) as u32;
            code /= r;
        }
    }

    fn path_to(&self, mut code: usize) -> Vec<Step> {
        let mut path = Vec::new();
        while code != 0 {
            let (prev, step) = self.came_from[code];
            path.push(step);
            code = prev;
        }
        path.reverse();
        path
    }
}

fn parse_steps(answer: &str, jugs: usize) -> Result<Vec<Step>, InvalidAction> {
    let mut steps = Vec::new();
    let normalized = answer.replace("->", " ").replace('→', " ");
    for part in normalized.split(['\n', ',', ';']) {
        let words: Vec<String> = part
            .split(|c: char| c.is_whitespace() || ":.()".contains(c))
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        if words.is_empty() {
            continue;
        }
        let mut verb = None;
        let mut named = Vec::new();
        for word in &words {
            match word.as_str() {
                "fill" | "empty" | "pour" => {
                    if verb.replace(word.clone()).is_some() {
                        return Err(format!("two actions in `{part}`").into());
                    }
                }
                "into" | "to" | "jug" | "the" => {}
                w => match NAMES[..jugs]
                    .iter()
                    .position(|n| n.to_ascii_lowercase().to_string() == w)
                {
                    Some(j) => named.push(j),
                    None => return Err(format!("unexpected `{w}` in `{part}`").into()),
                },
            }
        }
        let step = match (verb.as_deref(), named.as_slice()) {
            (Some("fill"), &[j]) => Step::Fill(j),
            (Some("empty"), &[j]) => Step::Empty(j),
            (Some("pour") | None, &[a, b]) if a != b => Step::Pour(a, b),
            _ => return Err(format!("cannot read `{part}` as a step").into()),
        };
        steps.push(step);
        if steps.len() > 1000 {
            return Err("too many steps".into());
        }
    }
    Ok(steps)
}

fn step_text(step: Step) -> String {
    match step {
        Step::Fill(j) => format!("fill {}", NAMES[j]),
        Step::Empty(j) => format!("empty {}", NAMES[j]),
        Step::Pour(a, b) => format!("pour {} {}", NAMES[a], NAMES[b]),
    }
}

pub struct WaterJugs;

pub type WaterJugsEnv = SingleTurn<WaterJugs>;

impl Question for WaterJugs {
    type Config = WaterJugsConfig;
    type Task = WaterJugsTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/water-jugs-v1",
        kind: EnvKind::SingleTurn,
        description: "Measure a target amount with unmarked jugs in the fewest fill/empty/pour steps",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"jugs":3,"max_capacity":24,"min_steps":8}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"jugs":3,"max_capacity":30,"min_steps":11}"#,
            },
        ],
    };

    fn validate(config: &WaterJugsConfig) -> Result<(), ConfigError> {
        if !(2..=3).contains(&config.jugs)
            || !(5..=30).contains(&config.max_capacity)
            || !(2..=12).contains(&config.min_steps)
        {
            return Err("need jugs 2..=3, max_capacity 5..=30, min_steps 2..=12".into());
        }
        Ok(())
    }

    fn generate(config: &WaterJugsConfig, rng: &mut Rng) -> WaterJugsTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    /// Draws jug sets until one has a goal `min_steps` away; small jugs may have none
    /// (`max_capacity: 5, min_steps: 12`), so it gives up after [`MAX_JUG_SETS`] draws.
    fn try_generate(config: &WaterJugsConfig, rng: &mut Rng) -> Result<WaterJugsTask, NoTask> {
        for _ in 0..MAX_JUG_SETS {
            if crate::cancel::cancelled() {
                return Err(NoTask::Cancelled);
            }
            let capacities: Vec<u32> = (0..config.jugs)
                .map(|_| 3 + rng.below(u64::from(config.max_capacity) - 2) as u32)
                .collect();
            let search = Search::run(&capacities);
            // Goals: one jug holds some amount, the others are empty.
            let mut state = vec![0; capacities.len()];
            let goals: Vec<(usize, u32)> = (0..capacities.len())
                .flat_map(|j| (1..=capacities[j]).map(move |a| (j, a)))
                .filter(|&(j, a)| {
                    state.iter_mut().for_each(|x| *x = 0);
                    state[j] = a;
                    let d = search.distance[search.encode(&state)];
                    d != u32::MAX && d as usize >= config.min_steps
                })
                .collect();
            if let Some(&(jug, target)) = rng.choose(&goals) {
                let mut goal = vec![0; capacities.len()];
                goal[jug] = target;
                let solution = search.path_to(search.encode(&goal));
                return Ok(WaterJugsTask {
                    capacities,
                    target,
                    jug,
                    optimal_steps: solution.len(),
                    solution,
                });
            }
        }
        Err(format!(
            "no set of {} jugs of at most {} litres in {MAX_JUG_SETS} draws has a goal {} steps away: \
             lower min_steps or raise max_capacity",
            config.jugs, config.max_capacity, config.min_steps
        ).into())
    }

    fn prompt(task: &WaterJugsTask) -> String {
        let jugs: Vec<String> = task
            .capacities
            .iter()
            .enumerate()
            .map(|(j, c)| format!("{} holds {c} litres", NAMES[j]))
            .collect();
        format!(
            "You have {} empty jugs without markings: {}. Each step is one of: fill a jug from the tap (fill A), \
             empty a jug (empty A), or pour one jug into another until the first is empty or the second is full \
             (pour A B). End with exactly {} litres in jug {} and every other jug empty, using as few steps as \
             possible; only a shortest solution counts. Answer with the steps in order, one per line, inside \\boxed{{}}.",
            task.capacities.len(),
            jugs.join(", "),
            task.target,
            NAMES[task.jug]
        )
    }

    fn structured(task: &WaterJugsTask) -> Value {
        json!({ "capacities": task.capacities, "target": task.target, "jug": NAMES[task.jug].to_string() })
    }

    fn reference(task: &WaterJugsTask) -> String {
        task.solution
            .iter()
            .map(|&s| step_text(s))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn check(task: &WaterJugsTask, answer: &str) -> Result<bool, CheckError> {
        let steps = parse_steps(answer, task.capacities.len())?;
        let mut state = vec![0; task.capacities.len()];
        for &step in &steps {
            apply(&task.capacities, &mut state, step);
        }
        let goal_reached = state
            .iter()
            .enumerate()
            .all(|(j, &a)| a == if j == task.jug { task.target } else { 0 });
        Ok(steps.len() == task.optimal_steps && goal_reached)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            WaterJugsConfig::default(),
            WaterJugsConfig {
                jugs: 3,
                max_capacity: 24,
                min_steps: 8,
            },
            WaterJugsConfig {
                jugs: 3,
                max_capacity: 30,
                min_steps: 11,
            },
        ] {
            standard_answers::<WaterJugs>(&config, 20);
        }
    }

    #[test]
    fn the_die_hard_puzzle() {
        // 3 and 5 litres, 4 in B with A empty: the classic six steps, then empty A.
        let search = Search::run(&[3, 5]);
        let goal = search.encode(&[0, 4]);
        assert_eq!(search.distance[goal], 7);
        let task = WaterJugsTask {
            capacities: vec![3, 5],
            target: 4,
            jug: 1,
            optimal_steps: 7,
            solution: search.path_to(goal),
        };
        let classic = "fill B\npour B A\nempty A\npour B A\nfill B\npour B A\nempty A";
        assert!(passes::<WaterJugs>(&task, classic));
        assert!(passes::<WaterJugs>(
            &task,
            "fill B, pour B into A, empty A, B->A, fill B, pour the B to A, empty A"
        ));
        for bad in [
            "fill B\npour B A\nempty A\npour B A\nfill B\npour B A",
            "fill B\npour B A\nempty A\npour B A\nfill B\npour B A\nempty A\nempty A",
            "fill A\nfill B\npour B A\nempty A\npour B A\nfill B\npour B A",
            "fill C\npour B A\nempty A\npour B A\nfill B\npour B A",
            "fill B and A\npour B A\nempty A\npour B A\nfill B\npour B A",
        ] {
            assert!(!passes::<WaterJugs>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        let rates: Vec<f64> = [
            WaterJugsConfig {
                jugs: 3,
                max_capacity: 24,
                min_steps: 8,
            },
            WaterJugsConfig::default(),
            WaterJugsConfig {
                jugs: 3,
                max_capacity: 30,
                min_steps: 11,
            },
        ]
        .iter()
        .map(|config| cross_reference_rate::<WaterJugs>(config, 1000))
        .collect();
        assert!(rates.iter().all(|&r| r < 0.01), "{rates:?}");
    }

    #[test]
    fn jugs_too_small_for_the_steps_give_up_naming_the_fields() {
        let config = WaterJugsConfig {
            jugs: 2,
            max_capacity: 5,
            min_steps: 12,
        };
        let error = WaterJugs::try_generate(&config, &mut Rng::from_seed(1)).unwrap_err();
        assert!(
            error.to_string().contains("min_steps") && error.to_string().contains("max_capacity"),
            "{error}"
        );
    }
}
