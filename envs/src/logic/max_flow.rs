//! `logic/max-flow-v1`: the maximum flow through a capacitated network,
//! certified by a minimum cut (the value proven by Edmonds–Karp).
//!
//! # Task
//! `nodes` nodes with distinct random three-letter names, a source and a
//! sink among them, and `round(edge_factor · nodes)` directed edges with
//! capacities in `1..=max_capacity`: every node lies on some path from the
//! source to the sink, and about one edge in five points backwards along
//! the hidden order. Draws where the source's own edges, or the sink's, form
//! a minimum cut are redrawn, so neither the source alone nor every node but
//! the sink passes. Names are drawn per task, so one task's cut never
//! answers another.
//!
//! # Action
//! The maximum flow value, a colon, then the nodes on the source side of a
//! minimum cut (the source among them, the sink not), separated by spaces or
//! commas: `\boxed{17: AAA, BBB, CCC}`; case is ignored. In `\boxed{…}` or as
//! the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The nodes, the source, the sink and the edges with their capacities.
//! Structured: the same.
//!
//! # Reward
//! 1 and `passed` when the value is the maximum flow and the named nodes,
//! each once, hold the source and not the sink and the capacities of the
//! edges leaving them add up to that value (a cut that small proves no flow
//! is larger; every minimum cut passes, the check never compares with one
//! reference cut); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nodes` (5..=30), `edge_factor` (edges per node, 1.2..=4, at most 60%
//! of all node pairs), `max_capacity` (1..=100).
//!
//! # Seeding
//! Names, edges, capacities, the source and the sink come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::edge_share::check_edge_share;
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MaxFlowConfig {
    pub nodes: usize,
    pub edge_factor: f64,
    pub max_capacity: u64,
}

impl Default for MaxFlowConfig {
    fn default() -> Self {
        MaxFlowConfig {
            nodes: 8,
            edge_factor: 2.0,
            max_capacity: 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaxFlowTask {
    pub names: Vec<String>,
    pub source: usize,
    pub sink: usize,
    /// `(from, to, capacity)`, as indices into `names`, in the listed order.
    pub edges: Vec<(usize, usize, u64)>,
    /// The maximum flow value.
    pub value: u64,
    /// The source side of one minimum cut (the residual graph's reach).
    pub cut: Vec<usize>,
}

/// Edmonds–Karp: the maximum flow value and the nodes the source still
/// reaches in the residual graph (the source side of a minimum cut).
fn max_flow(n: usize, edges: &[(usize, usize, u64)], s: usize, t: usize) -> (u64, Vec<usize>) {
    let mut residual = vec![vec![0u64; n]; n];
    for &(a, b, c) in edges {
        residual[a][b] += c;
    }
    let mut value = 0;
    loop {
        let mut previous = vec![usize::MAX; n];
        previous[s] = s;
        let mut queue = VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for v in 0..n {
                if previous[v] == usize::MAX && residual[u][v] > 0 {
                    previous[v] = u;
                    queue.push_back(v);
                }
            }
        }
        if previous[t] == usize::MAX {
            let reach = (0..n).filter(|&v| previous[v] != usize::MAX).collect();
            return (value, reach);
        }
        let mut push = u64::MAX;
        let mut v = t;
        while v != s {
            push = push.min(residual[previous[v]][v]);
            v = previous[v];
        }
        let mut v = t;
        while v != s {
            residual[previous[v]][v] -= push;
            residual[v][previous[v]] += push;
            v = previous[v];
        }
        value += push;
    }
}

/// The capacity of the edges leaving `side`.
fn cut_capacity(n: usize, edges: &[(usize, usize, u64)], side: &[usize]) -> u64 {
    let mut inside = vec![false; n];
    for &v in side {
        inside[v] = true;
    }
    edges
        .iter()
        .filter(|&&(a, b, _)| inside[a] && !inside[b])
        .map(|&(_, _, c)| c)
        .sum()
}

/// Reads `VALUE: NAMES`: the value, then the source side's node names.
fn parse_answer(answer: &str, task: &MaxFlowTask) -> Result<(u64, Vec<usize>), InvalidAction> {
    let answer = answer.trim();
    let (value, rest) = match answer.find([':', ';', '|']) {
        Some(at) => (&answer[..at], &answer[at + 1..]),
        None => answer
            .split_once(char::is_whitespace)
            .unwrap_or((answer, "")),
    };
    let value: u64 = value.trim().parse().map_err(|_| {
        InvalidAction::new(format!(
            "`{}` is not a flow value: answer VALUE: NODE NODE …",
            value.trim()
        ))
    })?;
    let cleaned = rest.replace(['\\', '{', '}', '(', ')', '[', ']', ',', ';', '$'], " ");
    let side = read_names(cleaned.split_whitespace(), &task.names, "node")?;
    Ok((value, side))
}

pub struct MaxFlow;

impl MaxFlow {
    fn draw(config: &MaxFlowConfig, rng: &mut Rng) -> Option<MaxFlowTask> {
        let n = config.nodes;
        let names = draw_names(n, rng);
        // The hidden order: source first, sink last.
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        let (source, sink) = (order[0], order[n - 1]);
        let capacity = |rng: &mut Rng| 1 + rng.below(config.max_capacity);
        let mut joined = vec![vec![false; n]; n];
        let mut edges = Vec::new();
        let mut add = |a: usize, b: usize, rng: &mut Rng, edges: &mut Vec<(usize, usize, u64)>| {
            if a != b && !joined[a][b] {
                joined[a][b] = true;
                joined[b][a] = true;
                edges.push((a, b, capacity(rng)));
            }
        };
        for p in 1..n - 1 {
            let before = order[rng.below(p as u64) as usize];
            add(before, order[p], rng, &mut edges);
            let after = order[p + 1 + rng.below((n - 1 - p) as u64) as usize];
            add(order[p], after, rng, &mut edges);
        }
        let target = (config.edge_factor * n as f64).round() as usize;
        let mut tries = 0;
        while edges.len() < target && tries < 100 * n * n {
            tries += 1;
            let (p, q) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            // Forward along the order, or (one in five) backward between inner nodes.
            if (p < q && (p, q) != (0, n - 1)) || (q < p && q > 0 && p < n - 1 && rng.chance(0.25))
            {
                add(order[p], order[q], rng, &mut edges);
            }
        }
        rng.shuffle(&mut edges);
        let (value, mut cut) = max_flow(n, &edges, source, sink);
        cut.sort_unstable();
        let all_but_sink: Vec<usize> = (0..n).filter(|&v| v != sink).collect();
        let trivial = cut_capacity(n, &edges, &[source]) == value
            || cut_capacity(n, &edges, &all_but_sink) == value;
        (!trivial && value > 0).then_some(MaxFlowTask {
            names,
            source,
            sink,
            edges,
            value,
            cut,
        })
    }
}

pub type MaxFlowEnv = SingleTurn<MaxFlow>;

impl Question for MaxFlow {
    type Config = MaxFlowConfig;
    type Task = MaxFlowTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/max-flow-v1",
        kind: EnvKind::SingleTurn,
        description: "Give the maximum flow through a network and a minimum cut that certifies it; any minimum cut passes (value proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nodes":5,"edge_factor":1.2,"max_capacity":9}"#,
        r#"{"nodes":6,"edge_factor":1.5,"max_capacity":9}"#,
        r#"{"nodes":7,"edge_factor":1.7,"max_capacity":15}"#,
        "{}",
        r#"{"nodes":10,"edge_factor":2.2,"max_capacity":30}"#,
        r#"{"nodes":14,"edge_factor":2.6,"max_capacity":50}"#,
        r#"{"nodes":20,"edge_factor":3.0,"max_capacity":99}"#,
    ];

    fn effort(task: &MaxFlowTask) -> Option<f64> {
        Some((task.names.len() + task.edges.len()) as f64)
    }

    fn validate(config: &MaxFlowConfig) -> Result<(), ConfigError> {
        if !(5..=30).contains(&config.nodes)
            || !(1.2..=4.0).contains(&config.edge_factor)
            || !(1..=100).contains(&config.max_capacity)
        {
            return Err(
                "need 5 <= nodes <= 30, 1.2 <= edge_factor <= 4 and 1 <= max_capacity <= 100"
                    .into(),
            );
        }
        check_edge_share(config.nodes, config.edge_factor)
    }

    fn generate(config: &MaxFlowConfig, rng: &mut Rng) -> MaxFlowTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &MaxFlowConfig, rng: &mut Rng) -> Result<MaxFlowTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "in {MAX_DRAWS} draws every network's minimum cut was the source's or the sink's own \
                     edges: raise nodes or edge_factor (now {} and {})",
                    config.nodes, config.edge_factor
                )
            },
        )
    }

    fn prompt(task: &MaxFlowTask) -> String {
        let edges: Vec<String> = task
            .edges
            .iter()
            .map(|&(a, b, c)| format!("{} -> {}: {c}", task.names[a], task.names[b]))
            .collect();
        let (s, t) = (&task.names[task.source], &task.names[task.sink]);
        format!(
            "Find the maximum flow from the source {s} to the sink {t} in this network. Each directed edge \
             is followed by its capacity.\nNodes: {}\nEdges:\n{}\n\nProve the value with a minimum cut: a set \
             of nodes that contains {s} but not {t}, such that the capacities of the edges leading out of \
             the set add up to the flow value. Answer with the value, a colon, then the names of the nodes \
             in the set, separated by spaces, inside \\boxed{{}} (like \\boxed{{12: {s} ...}}).",
            task.names.join(", "),
            edges.join("\n"),
        )
    }

    fn structured(task: &MaxFlowTask) -> Value {
        let edges: Vec<Value> = task
            .edges
            .iter()
            .map(|&(a, b, c)| json!({"from": task.names[a], "to": task.names[b], "capacity": c}))
            .collect();
        json!({
            "nodes": task.names,
            "source": task.names[task.source],
            "sink": task.names[task.sink],
            "edges": edges,
        })
    }

    fn reference(task: &MaxFlowTask) -> String {
        let side: Vec<&str> = task.cut.iter().map(|&i| task.names[i].as_str()).collect();
        format!("{}: {}", task.value, side.join(" "))
    }

    fn check(task: &MaxFlowTask, answer: &str) -> Result<bool, CheckError> {
        let (value, side) = parse_answer(answer, task)?;
        let mut distinct = side.clone();
        distinct.sort_unstable();
        distinct.dedup();
        Ok(value == task.value
            && distinct.len() == side.len()
            && side.contains(&task.source)
            && !side.contains(&task.sink)
            && cut_capacity(task.names.len(), &task.edges, &side) == value)
    }
}

#[cfg(test)]
#[path = "max_flow_tests.rs"]
mod tests;
