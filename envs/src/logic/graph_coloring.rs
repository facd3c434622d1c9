//! `logic/graph-coloring-v1`: colour a graph's vertices with at most `k`
//! colours so that no edge joins two vertices of the same colour.
//!
//! # Task
//! A graph on `vertices` vertices with `round(edge_factor · vertices)`
//! edges, drawn between the classes of a hidden random `k`-colouring (so a
//! colouring exists), never within one.
//!
//! # Action
//! One colour `1..=k` per vertex, in vertex order (`1 2 3 1 …`), or
//! `vertex: colour` pairs for vertices 1..n in order. In `\boxed{…}` or as
//! the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The vertex count, `k` and the edge list. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any proper colouring with colours in `1..=k`; else 0.
//! Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `vertices` (4..=200), `colors` (2..=9), `edge_factor` (edges per vertex).
//!
//! # Seeding
//! The hidden colouring and the edges come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::digits::push_u64;
use crate::error::ConfigError;
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GraphColoringConfig {
    pub vertices: usize,
    pub colors: usize,
    pub edge_factor: f64,
}

impl Default for GraphColoringConfig {
    fn default() -> Self {
        GraphColoringConfig {
            vertices: 12,
            colors: 3,
            edge_factor: 2.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphColoringTask {
    pub vertices: usize,
    pub colors: usize,
    /// 1-based vertex pairs.
    pub edges: Vec<(usize, usize)>,
    /// The hidden colouring, `1..=colors` per vertex.
    pub coloring: Vec<u8>,
}

/// Reads one colour per vertex, or `vertex: colour` pairs in order.
fn parse_coloring(answer: &str, n: usize) -> Result<Vec<u8>, InvalidAction> {
    let mut numbers = Vec::new();
    let mut current: Option<u64> = None;
    for ch in answer.chars() {
        if let Some(d) = ch.to_digit(10) {
            current = Some(
                current
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(u64::from(d)),
            );
            continue;
        }
        numbers.extend(current.take());
        if !(ch.is_whitespace() || ",;:=-|()[]".contains(ch)) {
            return Err(format!("unexpected `{ch}`: give one colour number per vertex").into());
        }
        if numbers.len() > 2 * n {
            break;
        }
    }
    numbers.extend(current);
    let colors: Vec<u64> = if numbers.len() == n {
        numbers
    } else if numbers.len() == 2 * n && numbers.iter().step_by(2).copied().eq(1..=n as u64) {
        numbers.iter().skip(1).step_by(2).copied().collect()
    } else {
        return Err(format!("expected {n} colours, found {} numbers", numbers.len()).into());
    };
    colors
        .into_iter()
        .map(|c| u8::try_from(c).map_err(|_| format!("colour {c} too large").into()))
        .collect()
}

pub struct GraphColoring;

pub type GraphColoringEnv = SingleTurn<GraphColoring>;

impl Question for GraphColoring {
    type Config = GraphColoringConfig;
    type Task = GraphColoringTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/graph-coloring-v1",
        kind: EnvKind::SingleTurn,
        description: "Colour a graph with at most k colours so no edge is monochromatic; any proper colouring passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"vertices":8,"colors":3,"edge_factor":2.0}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"vertices":30,"colors":4,"edge_factor":3.5}"#,
            },
        ],
    };

    fn validate(config: &GraphColoringConfig) -> Result<(), ConfigError> {
        if !(4..=200).contains(&config.vertices)
            || !(2..=9).contains(&config.colors)
            || config.colors >= config.vertices
        {
            return Err("need 4 <= vertices <= 200 and 2 <= colors <= 9, colors < vertices".into());
        }
        let max_edges = config.vertices * (config.vertices - 1) / 2;
        let edges = (config.edge_factor * config.vertices as f64).round() as usize;
        // Stay below the complete k-partite graph so the classes can vary.
        if !(1.0..=10.0).contains(&config.edge_factor) || edges * 5 > max_edges * 3 {
            return Err(
                "edge_factor must be 1..=10 and give at most 60% of all vertex pairs".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &GraphColoringConfig, rng: &mut Rng) -> GraphColoringTask {
        let (n, k) = (config.vertices, config.colors);
        let target = (config.edge_factor * n as f64).round() as usize;
        // Candidate pairs in (a, b) order, held as indices into that order:
        // the partial shuffle then moves 4-byte indices, and sorting the
        // chosen indices sorts the chosen pairs (the order is lexicographic).
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(n * (n - 1) / 2);
        let mut chosen: Vec<u32> = Vec::with_capacity(n * (n - 1) / 2);
        loop {
            let coloring: Vec<u8> = (0..n).map(|_| 1 + rng.below(k as u64) as u8).collect();
            pairs.clear();
            for a in 0..n {
                for b in a + 1..n {
                    if coloring[a] != coloring[b] {
                        pairs.push((a as u32 + 1, b as u32 + 1));
                    }
                }
            }
            if pairs.len() < target {
                continue;
            }
            chosen.clear();
            chosen.extend(0..pairs.len() as u32);
            for i in 0..target {
                let j = i + rng.below((pairs.len() - i) as u64) as usize;
                chosen.swap(i, j);
            }
            let chosen = &mut chosen[..target];
            chosen.sort_unstable();
            let edges = chosen
                .iter()
                .map(|&c| {
                    let (a, b) = pairs[c as usize];
                    (a as usize, b as usize)
                })
                .collect();
            return GraphColoringTask {
                vertices: n,
                colors: k,
                edges,
                coloring,
            };
        }
    }

    fn prompt(task: &GraphColoringTask) -> String {
        // Written piece by piece (no `format!`): the edge list is most of a
        // card's generation time otherwise.
        let (n, k) = (task.vertices as u64, task.colors as u64);
        let mut text = String::with_capacity(320 + 8 * task.edges.len());
        text.push_str("Colour the vertices 1..");
        push_u64(&mut text, n);
        text.push_str(" of this graph with colours 1..");
        push_u64(&mut text, k);
        text.push_str(" so that the two ends of every edge get different colours.\nEdges: ");
        for (i, &(a, b)) in task.edges.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            push_u64(&mut text, a as u64);
            text.push('-');
            push_u64(&mut text, b as u64);
        }
        text.push_str("\n\nAnswer with ");
        push_u64(&mut text, n);
        text.push_str(
            " colours, the colour of vertex 1 first, separated by spaces, inside \\boxed{}.",
        );
        text
    }

    fn structured(task: &GraphColoringTask) -> Value {
        json!({ "vertices": task.vertices, "colors": task.colors, "edges": task.edges })
    }

    fn reference(task: &GraphColoringTask) -> String {
        let mut text = String::with_capacity(2 * task.coloring.len());
        for (i, &c) in task.coloring.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            push_u64(&mut text, u64::from(c));
        }
        text
    }

    fn check(task: &GraphColoringTask, answer: &str) -> Result<bool, CheckError> {
        let colors = parse_coloring(answer, task.vertices)?;
        let in_range = colors.iter().all(|&c| (1..=task.colors as u8).contains(&c));
        Ok(in_range
            && task
                .edges
                .iter()
                .all(|&(a, b)| colors[a - 1] != colors[b - 1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    fn triangle_plus() -> GraphColoringTask {
        GraphColoringTask {
            vertices: 4,
            colors: 3,
            edges: vec![(1, 2), (1, 3), (2, 3), (3, 4)],
            coloring: vec![1, 2, 3, 1],
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for config in [
            GraphColoringConfig::default(),
            GraphColoringConfig {
                vertices: 8,
                colors: 3,
                edge_factor: 2.0,
            },
        ] {
            standard_answers::<GraphColoring>(&config, 30);
        }
    }

    #[test]
    fn any_proper_coloring_passes_and_improper_ones_fail() {
        let task = triangle_plus();
        for good in ["1 2 3 1", "3 1 2 1", "2,1,3,2", "1: 1\n2: 2\n3: 3\n4: 2"] {
            assert!(passes::<GraphColoring>(&task, good), "{good:?}");
        }
        for bad in [
            "1 1 3 2",
            "1 2 3 3",
            "1 2 4 1",
            "0 1 2 0",
            "1 2 3",
            "1 2 3 1 2",
            "red green blue red",
            "1 2 3 1 or 1 2 3 2",
        ] {
            assert!(!passes::<GraphColoring>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn another_tasks_reference_rarely_passes() {
        for config in [
            GraphColoringConfig {
                vertices: 8,
                colors: 3,
                edge_factor: 2.0,
            },
            GraphColoringConfig::default(),
        ] {
            let rate = cross_reference_rate::<GraphColoring>(&config, 1000);
            assert!(rate < 0.01, "{config:?}: {rate}");
        }
    }
}
