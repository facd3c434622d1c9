//! `logic/topological-sort-v1`: order named tasks so that every stated
//! precedence holds.
//!
//! # Task
//! `tasks` tasks with distinct random three-letter names, and
//! `round(edge_factor · tasks)` precedences "X before Y", each drawn forward
//! along a hidden random order (so a valid order exists), never repeated.
//! Names are drawn per task, so one task's order never answers another,
//! and the order the names are listed in is never a valid one.
//!
//! # Action
//! Every task name once, in order, separated by spaces, commas, arrows
//! (`->`, `→`) or `<`; list numbering (`1.`, `2)`) is skipped and case is
//! ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The task names and the precedences. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any order that lists every task exactly once and puts
//! each precedence's first task before its second (many orders pass; the
//! check never compares with one reference order); else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `tasks` (4..=80), `edge_factor` (precedences per task, 0.5..=4, at most
//! 60% of all pairs).
//!
//! # Seeding
//! Names, the hidden order and the precedences come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TopologicalSortConfig {
    pub tasks: usize,
    pub edge_factor: f64,
}

impl Default for TopologicalSortConfig {
    fn default() -> Self {
        TopologicalSortConfig {
            tasks: 12,
            edge_factor: 1.5,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopologicalSortTask {
    /// The task names, in the (shuffled) order the prompt lists them.
    pub names: Vec<String>,
    /// Precedences as indices into `names`: `(a, b)` = `a` before `b`.
    pub before: Vec<(usize, usize)>,
    /// One valid order (the hidden one), as indices into `names`.
    pub order: Vec<usize>,
}

/// Reads the names of an order: separators and list numbering skipped.
fn parse_order(answer: &str, task: &TopologicalSortTask) -> Result<Vec<usize>, InvalidAction> {
    let cleaned = answer
        .replace("->", " ")
        .replace(['→', '<', ',', ';', '|'], " ");
    let tokens = cleaned.split_whitespace().filter(|token| {
        let numbering = token.trim_end_matches(['.', ')']);
        numbering.len() == token.len() || !numbering.bytes().all(|b| b.is_ascii_digit())
    });
    read_names(tokens, &task.names, "task")
}

pub struct TopologicalSort;

impl TopologicalSort {
    /// One draw: names, a hidden order and precedences along it.
    fn draw(config: &TopologicalSortConfig, rng: &mut Rng) -> TopologicalSortTask {
        let n = config.tasks;
        let names = draw_names(n, rng);
        // The hidden order: position p holds task order[p].
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|p| (p + 1..n).map(move |q| (p, q)))
            .collect();
        let target = (config.edge_factor * n as f64).round() as usize;
        for i in 0..target {
            let j = i + rng.below((pairs.len() - i) as u64) as usize;
            pairs.swap(i, j);
        }
        let mut before: Vec<(usize, usize)> = pairs[..target]
            .iter()
            .map(|&(p, q)| (order[p], order[q]))
            .collect();
        rng.shuffle(&mut before);
        TopologicalSortTask {
            names,
            before,
            order,
        }
    }
}

pub type TopologicalSortEnv = SingleTurn<TopologicalSort>;

impl Question for TopologicalSort {
    type Config = TopologicalSortConfig;
    type Task = TopologicalSortTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/topological-sort-v1",
        kind: EnvKind::SingleTurn,
        description: "Order named tasks so every precedence holds; any valid order passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"tasks":5,"edge_factor":1.0}"#,
        r#"{"tasks":7,"edge_factor":1.2}"#,
        r#"{"tasks":9,"edge_factor":1.4}"#,
        "{}",
        r#"{"tasks":20,"edge_factor":2.0}"#,
        r#"{"tasks":32,"edge_factor":2.5}"#,
        r#"{"tasks":50,"edge_factor":3.0}"#,
    ];

    fn effort(task: &TopologicalSortTask) -> Option<f64> {
        Some((task.names.len() + task.before.len()) as f64)
    }

    fn validate(config: &TopologicalSortConfig) -> Result<(), ConfigError> {
        if !(4..=80).contains(&config.tasks) || !(0.5..=4.0).contains(&config.edge_factor) {
            return Err("need 4 <= tasks <= 80 and 0.5 <= edge_factor <= 4".into());
        }
        let pairs = config.tasks * (config.tasks - 1) / 2;
        let edges = (config.edge_factor * config.tasks as f64).round() as usize;
        if edges * 5 > pairs * 3 {
            return Err(
                "edge_factor gives more than 60% of all pairs; lower it or add tasks".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &TopologicalSortConfig, rng: &mut Rng) -> TopologicalSortTask {
        loop {
            let task = Self::draw(config, rng);
            // The listed order must not be an answer: copying the task list
            // would pass otherwise.
            if !task.before.iter().all(|&(a, b)| a < b) {
                return task;
            }
        }
    }

    fn prompt(task: &TopologicalSortTask) -> String {
        let rules: Vec<String> = task
            .before
            .iter()
            .map(|&(a, b)| format!("{} before {}", task.names[a], task.names[b]))
            .collect();
        format!(
            "Put these {} tasks in an order in which each task comes after every task it must follow.\n\
             Tasks: {}\nRules:\n{}\n\nAnswer with every task name once, in order, separated by spaces, \
             inside \\boxed{{}}.",
            task.names.len(),
            task.names.join(", "),
            rules.join("\n")
        )
    }

    fn structured(task: &TopologicalSortTask) -> Value {
        let before: Vec<[&str; 2]> = task
            .before
            .iter()
            .map(|&(a, b)| [task.names[a].as_str(), task.names[b].as_str()])
            .collect();
        json!({ "tasks": task.names, "before": before })
    }

    fn reference(task: &TopologicalSortTask) -> String {
        task.order
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &TopologicalSortTask, answer: &str) -> Result<bool, CheckError> {
        let order = parse_order(answer, task)?;
        let mut position = vec![usize::MAX; task.names.len()];
        for (p, &i) in order.iter().enumerate() {
            if position[i] != usize::MAX {
                return Ok(false);
            }
            position[i] = p;
        }
        Ok(order.len() == task.names.len()
            && task.before.iter().all(|&(a, b)| position[a] < position[b]))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// A, B, C, D with A before B, A before C, C before D: three orders pass.
    fn diamond() -> TopologicalSortTask {
        TopologicalSortTask {
            names: ["QAX", "BRT", "CLM", "DZE"].map(String::from).to_vec(),
            before: vec![(0, 1), (0, 2), (2, 3)],
            order: vec![0, 1, 2, 3],
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for level in [0, 3, 6] {
            let config = serde_json::from_str(TopologicalSort::LEVELS[level]).unwrap();
            standard_answers::<TopologicalSort>(&config, 30);
        }
    }

    #[test]
    fn every_valid_order_passes_and_invalid_ones_fail() {
        let task = diamond();
        for good in [
            "QAX BRT CLM DZE",
            "QAX CLM BRT DZE",
            "QAX CLM DZE BRT",
            "qax, clm, dze, brt",
            "QAX -> CLM -> BRT -> DZE",
            "QAX → CLM → DZE → BRT",
            "1. QAX\n2. CLM\n3. DZE\n4. BRT",
            "The order is \\boxed{QAX CLM DZE BRT}.",
        ] {
            assert!(passes::<TopologicalSort>(&task, good), "{good:?}");
        }
        for bad in [
            "BRT QAX CLM DZE",
            "QAX DZE CLM BRT",
            "QAX CLM DZE",
            "QAX CLM DZE BRT BRT",
            "QAX CLM CLM BRT",
            "QAX CLM DZE BRT XYZ",
            "QAX CLM DZE BRT or QAX BRT CLM DZE",
            "\\boxed{QAX CLM DZE BRT} \\boxed{BRT QAX CLM DZE}",
            "1 2 3 4",
            "",
        ] {
            assert!(!passes::<TopologicalSort>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn generated_orders_hold_every_precedence_and_names_differ() {
        let mut rng = Rng::from_seed(5);
        for level in TopologicalSort::LEVELS {
            let config: TopologicalSortConfig = serde_json::from_str(level).unwrap();
            TopologicalSort::validate(&config).unwrap();
            let task = TopologicalSort::generate(&config, &mut rng);
            let names: BTreeSet<&String> = task.names.iter().collect();
            assert_eq!(names.len(), config.tasks);
            let edges: BTreeSet<&(usize, usize)> = task.before.iter().collect();
            assert_eq!(edges.len(), task.before.len(), "a precedence repeated");
            assert!(TopologicalSort::check(&task, &TopologicalSort::reference(&task)).unwrap());
            let listed = task.names.join(" ");
            assert!(
                !TopologicalSort::check(&task, &listed).unwrap(),
                "the list is an answer"
            );
        }
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for level in [0, 3] {
            let config = serde_json::from_str(TopologicalSort::LEVELS[level]).unwrap();
            let rate = cross_reference_rate::<TopologicalSort>(&config, 1000);
            assert!(rate < 0.01, "{level}: {rate}");
        }
    }
}
