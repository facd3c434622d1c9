//! `logic/shortest-path-v1`: find a shortest path between two named nodes
//! of a weighted graph (optimum proven by Dijkstra's algorithm).
//!
//! # Task
//! `nodes` nodes with distinct random three-letter names and about
//! `round(edge_factor · nodes)` edges with weights in `1..=max_weight`,
//! undirected (a random spanning tree plus random extra edges, so the graph
//! is connected) or directed (the same edges, each given a random
//! direction). A source and a target at least two edges apart on every
//! shortest path; about half the tasks get a direct source–target edge that
//! is heavier than the optimum (a trap), and about half a detour through a
//! node off the path that weighs what the step it bypasses weighs (a second
//! shortest path, unless it opens a shorter one). Names are drawn per task, so one task's path never
//! answers another.
//!
//! # Action
//! The path's node names in order, from the source to the target, separated
//! by spaces, commas or arrows (`->`, `→`, `-`, `\to`); case is ignored. In
//! `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The nodes, the edges with their weights (and directions), the source and
//! the target. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any path that starts at the source, ends at the
//! target, follows an edge (in its direction, when directed) at every step
//! and whose total weight is the optimum (every shortest path passes; the
//! check never compares with one reference path); else 0. Breakdown:
//! `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nodes` (5..=60), `edge_factor` (edges per node, 1..=4, at most 60% of
//! all node pairs), `max_weight` (1..=100), `directed` (bool).
//!
//! # Seeding
//! Names, edges, weights, directions, the source and the target come from
//! the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::edge_share::check_edge_share;
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config (a directed graph may strand its nodes).
const MAX_DRAWS: u64 = 200;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ShortestPathConfig {
    pub nodes: usize,
    pub edge_factor: f64,
    pub max_weight: u64,
    pub directed: bool,
}

impl Default for ShortestPathConfig {
    fn default() -> Self {
        ShortestPathConfig {
            nodes: 12,
            edge_factor: 1.8,
            max_weight: 20,
            directed: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShortestPathTask {
    pub names: Vec<String>,
    pub directed: bool,
    /// `(from, to, weight)`, as indices into `names`, in the listed order.
    pub edges: Vec<(usize, usize, u64)>,
    pub source: usize,
    pub target: usize,
    /// The optimum total weight.
    pub best: u64,
    /// One shortest path (Dijkstra's), as indices.
    pub path: Vec<usize>,
}

/// The weight of the edge from `a` to `b` in a matrix of `n` nodes.
fn weights(n: usize, edges: &[(usize, usize, u64)], directed: bool) -> Vec<Vec<Option<u64>>> {
    let mut w = vec![vec![None; n]; n];
    for &(a, b, weight) in edges {
        w[a][b] = Some(weight);
        if !directed {
            w[b][a] = Some(weight);
        }
    }
    w
}

/// Dijkstra from `source`: the distance to every node (`None`: unreachable)
/// and each node's predecessor on one shortest path.
fn dijkstra(w: &[Vec<Option<u64>>], source: usize) -> (Vec<Option<u64>>, Vec<usize>) {
    let n = w.len();
    let mut dist: Vec<Option<u64>> = vec![None; n];
    let mut previous = vec![usize::MAX; n];
    let mut done = vec![false; n];
    dist[source] = Some(0);
    while let Some(u) = (0..n)
        .filter(|&u| !done[u] && dist[u].is_some())
        .min_by_key(|&u| dist[u])
    {
        done[u] = true;
        let du = dist[u].unwrap_or(0);
        for v in 0..n {
            if let Some(weight) = w[u][v]
                && dist[v].is_none_or(|dv| du + weight < dv)
            {
                dist[v] = Some(du + weight);
                previous[v] = u;
            }
        }
    }
    (dist, previous)
}

/// The path to `target` along Dijkstra's predecessors.
fn path_to(previous: &[usize], source: usize, mut target: usize) -> Vec<usize> {
    let mut path = vec![target];
    while target != source {
        target = previous[target];
        path.push(target);
    }
    path.reverse();
    path
}

/// Reads a path's node names: arrows, dashes and commas separate them.
fn parse_path(answer: &str, task: &ShortestPathTask) -> Result<Vec<usize>, InvalidAction> {
    let cleaned = answer
        .replace("\\rightarrow", " ")
        .replace("\\to", " ")
        .replace("->", " ")
        .replace(['→', '-', '–', '—', ',', ';', '|', '$'], " ");
    read_names(cleaned.split_whitespace(), &task.names, "node")
}

pub struct ShortestPath;

impl ShortestPath {
    /// One draw: a graph, a source and a target, or `None` when the source
    /// reaches nothing two edges away.
    fn draw(config: &ShortestPathConfig, rng: &mut Rng) -> Option<ShortestPathTask> {
        let n = config.nodes;
        let names = draw_names(n, rng);
        let weight = |rng: &mut Rng| 1 + rng.below(config.max_weight);
        let mut has = vec![vec![false; n]; n];
        let mut edges = Vec::new();
        // A random spanning tree, then extra edges.
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        for i in 1..n {
            let (a, b) = (order[i], order[rng.below(i as u64) as usize]);
            has[a][b] = true;
            has[b][a] = true;
            edges.push((a, b, weight(rng)));
        }
        let target_edges = (config.edge_factor * n as f64).round() as usize;
        while edges.len() < target_edges {
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if a != b && !has[a][b] {
                has[a][b] = true;
                has[b][a] = true;
                edges.push((a, b, weight(rng)));
            }
        }
        if config.directed {
            for edge in &mut edges {
                if rng.chance(0.5) {
                    *edge = (edge.1, edge.0, edge.2);
                }
            }
        }
        let source = rng.below(n as u64) as usize;
        let w = weights(n, &edges, config.directed);
        let (dist, previous) = dijkstra(&w, source);
        // Targets at least two edges away, preferring far ones.
        let far: Vec<(usize, usize)> = (0..n)
            .filter(|&v| v != source && dist[v].is_some() && w[source][v] != dist[v])
            .map(|v| (v, path_to(&previous, source, v).len()))
            .filter(|&(_, len)| len >= 3)
            .collect();
        let longest = far.iter().map(|&(_, len)| len).max()?;
        let candidates: Vec<usize> = far
            .iter()
            .filter(|&&(_, len)| 2 * len >= longest)
            .map(|&(v, _)| v)
            .collect();
        let target = *rng.choose(&candidates)?;
        // A tie, often: a detour through a node off the path that weighs
        // what the step it bypasses weighs.
        let path = path_to(&previous, source, target);
        let k = rng.below(path.len() as u64 - 1) as usize;
        let (u, v) = (path[k], path[k + 1]);
        let step = w[u][v]?;
        let off: Vec<usize> = (0..n)
            .filter(|&x| {
                !path.contains(&x)
                    && [w[u][x], w[x][u], w[v][x], w[x][v]]
                        .iter()
                        .all(Option::is_none)
            })
            .collect();
        if step >= 2 && !off.is_empty() && rng.chance(0.5) {
            let x = *rng.choose(&off)?;
            let first = 1 + rng.below(step - 1);
            edges.push((u, x, first));
            edges.push((x, v, step - first));
        }
        let w = weights(n, &edges, config.directed);
        let (dist, previous) = dijkstra(&w, source);
        let best = dist[target]?;
        let path = path_to(&previous, source, target);
        rng.shuffle(&mut edges);
        // The trap: a direct edge heavier than the optimum.
        if w[source][target].is_none()
            && w[target][source].is_none()
            && best < config.max_weight
            && rng.chance(0.5)
        {
            let trap = best + 1 + rng.below((config.max_weight - best).min(3));
            let at = rng.below(edges.len() as u64 + 1) as usize;
            edges.insert(at, (source, target, trap));
        }
        Some(ShortestPathTask {
            names,
            directed: config.directed,
            edges,
            source,
            target,
            best,
            path,
        })
    }

    fn edge_text(task: &ShortestPathTask, &(a, b, weight): &(usize, usize, u64)) -> String {
        let arrow = if task.directed { "->" } else { "--" };
        format!("{} {arrow} {}: {weight}", task.names[a], task.names[b])
    }
}

pub type ShortestPathEnv = SingleTurn<ShortestPath>;

impl Question for ShortestPath {
    type Config = ShortestPathConfig;
    type Task = ShortestPathTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/shortest-path-v1",
        kind: EnvKind::SingleTurn,
        description: "Find a shortest path between two nodes of a weighted graph; any shortest path passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nodes":5,"edge_factor":1.2,"max_weight":9}"#,
        r#"{"nodes":7,"edge_factor":1.4,"max_weight":9}"#,
        r#"{"nodes":9,"edge_factor":1.6,"max_weight":15}"#,
        "{}",
        r#"{"nodes":16,"edge_factor":2.0,"max_weight":30,"directed":true}"#,
        r#"{"nodes":24,"edge_factor":2.4,"max_weight":50,"directed":true}"#,
        r#"{"nodes":36,"edge_factor":3.0,"max_weight":99,"directed":true}"#,
    ];

    fn effort(task: &ShortestPathTask) -> Option<f64> {
        Some((task.names.len() + task.edges.len()) as f64)
    }

    fn validate(config: &ShortestPathConfig) -> Result<(), ConfigError> {
        if !(5..=60).contains(&config.nodes)
            || !(1.0..=4.0).contains(&config.edge_factor)
            || !(1..=100).contains(&config.max_weight)
        {
            return Err(
                "need 5 <= nodes <= 60, 1 <= edge_factor <= 4 and 1 <= max_weight <= 100".into(),
            );
        }
        check_edge_share(config.nodes, config.edge_factor)
    }

    fn generate(config: &ShortestPathConfig, rng: &mut Rng) -> ShortestPathTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(
        config: &ShortestPathConfig,
        rng: &mut Rng,
    ) -> Result<ShortestPathTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no graph of {} nodes had a target two edges from its source in {MAX_DRAWS} draws: \
                     raise nodes or edge_factor",
                    config.nodes
                )
            },
        )
    }

    fn prompt(task: &ShortestPathTask) -> String {
        let edges: Vec<String> = task
            .edges
            .iter()
            .map(|e| Self::edge_text(task, e))
            .collect();
        let kind = if task.directed {
            "directed (an edge `A -> B` can only be followed from A to B)"
        } else {
            "undirected (an edge `A -- B` can be followed both ways)"
        };
        format!(
            "Find a path of the smallest total weight from {} to {} in this graph. The edges are {kind}; \
             each is followed by its weight.\nNodes: {}\nEdges:\n{}\n\nAnswer with the node names of the \
             path in order, from {} to {}, separated by spaces, inside \\boxed{{}}.",
            task.names[task.source],
            task.names[task.target],
            task.names.join(", "),
            edges.join("\n"),
            task.names[task.source],
            task.names[task.target],
        )
    }

    fn structured(task: &ShortestPathTask) -> Value {
        let edges: Vec<Value> = task
            .edges
            .iter()
            .map(|&(a, b, w)| json!({"from": task.names[a], "to": task.names[b], "weight": w}))
            .collect();
        json!({
            "nodes": task.names,
            "directed": task.directed,
            "edges": edges,
            "source": task.names[task.source],
            "target": task.names[task.target],
        })
    }

    fn reference(task: &ShortestPathTask) -> String {
        task.path
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &ShortestPathTask, answer: &str) -> Result<bool, CheckError> {
        let path = parse_path(answer, task)?;
        let w = weights(task.names.len(), &task.edges, task.directed);
        if path.first() != Some(&task.source) || path.last() != Some(&task.target) {
            return Ok(false);
        }
        let mut length = 0;
        for pair in path.windows(2) {
            match w[pair[0]][pair[1]] {
                Some(weight) => length += weight,
                None => return Ok(false),
            }
        }
        Ok(length == task.best)
    }
}

#[cfg(test)]
#[path = "shortest_path_tests.rs"]
mod tests;
