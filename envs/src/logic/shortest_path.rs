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
/// The weight matrix, row-major (`n * n`): `w[a * n + b]` is the weight of
/// the edge from `a` to `b`. One flat allocation, as generation makes two
/// per task.
struct Weights {
    n: usize,
    w: Vec<Option<u64>>,
}

impl Weights {
    fn new(n: usize, edges: &[(usize, usize, u64)], directed: bool) -> Weights {
        let mut w = vec![None; n * n];
        for &(a, b, weight) in edges {
            w[a * n + b] = Some(weight);
            if !directed {
                w[b * n + a] = Some(weight);
            }
        }
        Weights { n, w }
    }

    fn get(&self, a: usize, b: usize) -> Option<u64> {
        self.w[a * self.n + b]
    }

    /// Dijkstra from `source` (dense, O(n²): graphs have at most 60 nodes):
    /// each node's distance and its predecessor on one shortest path.
    fn dijkstra(&self, source: usize) -> (Vec<Option<u64>>, Vec<usize>) {
        let n = self.n;
        // u64::MAX marks unreached and settled nodes leave `open`: plain
        // scans, as generation runs this on every draw.
        let mut dist = vec![u64::MAX; n];
        let mut previous = vec![usize::MAX; n];
        let mut open = vec![true; n];
        dist[source] = 0;
        loop {
            let mut u = usize::MAX;
            let mut du = u64::MAX;
            for v in 0..n {
                if open[v] && dist[v] < du {
                    (u, du) = (v, dist[v]);
                }
            }
            if u == usize::MAX {
                break;
            }
            open[u] = false;
            for (v, weight) in self.w[u * n..(u + 1) * n].iter().enumerate() {
                if let Some(weight) = weight
                    && du + weight < dist[v]
                {
                    dist[v] = du + weight;
                    previous[v] = u;
                }
            }
        }
        let dist = dist
            .into_iter()
            .map(|d| (d != u64::MAX).then_some(d))
            .collect();
        (dist, previous)
    }
}

/// `value` in decimal, appended without the formatting machinery.
fn push_decimal(text: &mut String, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    text.extend(digits[start..].iter().map(|&d| d as char));
}

fn path_to(previous: &[usize], source: usize, mut target: usize) -> Vec<usize> {
    let mut path = vec![target];
    while target != source {
        target = previous[target];
        path.push(target);
    }
    path.reverse();
    path
}

/// The number of nodes on the path [`path_to`] would return, without making it.
fn path_len(previous: &[usize], source: usize, mut target: usize) -> usize {
    let mut len = 1;
    while target != source {
        target = previous[target];
        len += 1;
    }
    len
}

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
        let mut has = vec![false; n * n];
        let mut edges = Vec::new();
        // A random spanning tree, then extra edges.
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        for i in 1..n {
            let (a, b) = (order[i], order[rng.below(i as u64) as usize]);
            has[a * n + b] = true;
            has[b * n + a] = true;
            edges.push((a, b, weight(rng)));
        }
        let target_edges = (config.edge_factor * n as f64).round() as usize;
        while edges.len() < target_edges {
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if a != b && !has[a * n + b] {
                has[a * n + b] = true;
                has[b * n + a] = true;
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
        let w = Weights::new(n, &edges, config.directed);
        let (dist, previous) = w.dijkstra(source);
        // Targets at least two edges away, preferring far ones.
        let far: Vec<(usize, usize)> = (0..n)
            .filter(|&v| v != source && dist[v].is_some() && w.get(source, v) != dist[v])
            .map(|v| (v, path_len(&previous, source, v)))
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
        let step = w.get(u, v)?;
        let off: Vec<usize> = (0..n)
            .filter(|&x| {
                !path.contains(&x)
                    && [w.get(u, x), w.get(x, u), w.get(v, x), w.get(x, v)]
                        .iter()
                        .all(Option::is_none)
            })
            .collect();
        let (w, dist, previous) = if step >= 2 && !off.is_empty() && rng.chance(0.5) {
            let x = *rng.choose(&off)?;
            let first = 1 + rng.below(step - 1);
            edges.push((u, x, first));
            edges.push((x, v, step - first));
            let w = Weights::new(n, &edges, config.directed);
            let (dist, previous) = w.dijkstra(source);
            (w, dist, previous)
        } else {
            (w, dist, previous)
        };
        let best = dist[target]?;
        let path = path_to(&previous, source, target);
        rng.shuffle(&mut edges);
        // The trap: a direct edge heavier than the optimum.
        if w.get(source, target).is_none()
            && w.get(target, source).is_none()
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
        use std::fmt::Write;
        let kind = if task.directed {
            "directed (an edge `A -> B` can only be followed from A to B)"
        } else {
            "undirected (an edge `A -- B` can be followed both ways)"
        };
        let arrow = if task.directed { "->" } else { "--" };
        let (source, target) = (&task.names[task.source], &task.names[task.target]);
        // One buffer written in place: the prompt is most of a card's cost.
        let mut text = String::with_capacity(400 + 16 * task.edges.len());
        let _ = write!(
            text,
            "Find a path of the smallest total weight from {source} to {target} in this graph. \
             The edges are {kind}; each is followed by its weight.\nNodes: "
        );
        for (i, name) in task.names.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(name);
        }
        text.push_str("\nEdges:");
        // Pushed piece by piece: `write!` per edge costs more than the rest
        // of the prompt.
        for &(a, b, weight) in &task.edges {
            for piece in ["\n", &task.names[a], " ", arrow, " ", &task.names[b], ": "] {
                text.push_str(piece);
            }
            push_decimal(&mut text, weight);
        }
        let _ = write!(
            text,
            "\n\nAnswer with the node names of the path in order, from {source} to {target}, \
             separated by spaces, inside \\boxed{{}}."
        );
        text
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
        let w = Weights::new(task.names.len(), &task.edges, task.directed);
        if path.first() != Some(&task.source) || path.last() != Some(&task.target) {
            return Ok(false);
        }
        let mut length = 0;
        for pair in path.windows(2) {
            match w.get(pair[0], pair[1]) {
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
