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
use crate::digits::push_u64;
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

/// Fields in the order of their JSON keys: the card's writer
/// ([`crate::canonical`]) then has nothing to sort.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShortestPathTask {
    /// The optimum total weight.
    pub best: u64,
    pub directed: bool,
    /// `(from, to, weight)`, as indices into `names`, in the listed order.
    pub edges: Vec<(usize, usize, u64)>,
    pub names: Vec<String>,
    /// One shortest path (Dijkstra's), as indices.
    pub path: Vec<usize>,
    pub source: usize,
    pub target: usize,
}

/// Most nodes a graph may have (`validate`): per-node scratch of a draw
/// lives on the stack.
const MAX_NODES: usize = 60;

/// Dijkstra works on lanes of this many nodes at a time: rows and scratch
/// are padded to a multiple of it, so its scans are whole vectors.
const LANES: usize = 16;

/// Room for `MAX_NODES` padded to whole lanes.
const PADDED: usize = MAX_NODES.div_ceil(LANES) * LANES;

/// Weights and distances are `i16`: a path weighs at most 59 edges of
/// weight 100 (`validate`), and the baseline x86-64 target compares and
/// takes minima of 16-bit lanes in one instruction (32-bit unsigned minima
/// need SSE4.1), so the scans below become vector code.
type Dist = i16;

/// An unreached node's distance, and a settled node's entry in `open`.
const UNREACHED: Dist = Dist::MAX;

/// The weight matrix, row-major with rows padded to whole lanes
/// (`n * stride`): `w[a * stride + b]` is the weight of the edge from `a` to
/// `b`, 0 where there is none (generated weights are at least 1). One flat
/// allocation, as generation makes one or two per task.
struct Weights {
    stride: usize,
    w: Vec<Dist>,
}

impl Weights {
    fn new(n: usize, edges: &[(usize, usize, u64)], directed: bool) -> Weights {
        let stride = n.div_ceil(LANES) * LANES;
        let mut weights = Weights {
            stride,
            w: vec![0; n * stride],
        };
        for &(a, b, weight) in edges {
            weights.set(a, b, weight, directed);
        }
        weights
    }

    /// Sets the edge `a -> b` (and `b -> a` when undirected).
    fn set(&mut self, a: usize, b: usize, weight: u64, directed: bool) {
        let weight = Dist::try_from(weight).expect("generated weights are at most 100");
        self.w[a * self.stride + b] = weight;
        if !directed {
            self.w[b * self.stride + a] = weight;
        }
    }

    fn get(&self, a: usize, b: usize) -> Option<u64> {
        let weight = self.w[a * self.stride + b];
        (weight != 0).then_some(weight as u64)
    }

    /// Dijkstra from `source` (dense, O(n²): graphs have at most 60 nodes;
    /// ties go to the lower index).
    fn dijkstra(&self, source: usize) -> Tree {
        let lanes = self.stride;
        // Whole-lane scans over small stack arrays, as generation runs this
        // once or twice per draw and it was a fifth of a draw's cost;
        // padding nodes have no edges and stay unreached.
        let mut tree = Tree {
            dist: [UNREACHED; PADDED],
            previous: [0; PADDED],
        };
        // The open nodes' distances; `UNREACHED` for a settled or unreached
        // node. The nearest open node is the first that holds the minimum.
        let mut open = [UNREACHED; PADDED];
        tree.dist[source] = 0;
        open[source] = 0;
        loop {
            let du = open[..lanes].iter().fold(UNREACHED, |a, &b| a.min(b));
            if du == UNREACHED {
                break;
            }
            let u = open[..lanes]
                .iter()
                .position(|&d| d == du)
                .expect("the minimum is in the scan");
            open[u] = UNREACHED;
            // Branch-free relaxation in masks (which edges improve a
            // distance is random, so a branch per edge mispredicts, and
            // masks are what vector code computes): a missing edge offers
            // `UNREACHED`, which improves nothing, and a settled node is
            // never improved (weights are at least 1).
            let row = &self.w[u * lanes..(u + 1) * lanes];
            let lanes_of = row
                .iter()
                .zip(&mut tree.dist[..lanes])
                .zip(&mut open[..lanes])
                .zip(&mut tree.previous[..lanes]);
            for (((&weight, dist), open), previous) in lanes_of {
                let missing = -Dist::from(weight == 0);
                let through = (du + weight) | (missing & UNREACHED);
                let better = -Dist::from(through < *dist);
                *dist = (*dist).min(through);
                *open = (through & better) | (*open & !better);
                *previous = (u as Dist & better) | (*previous & !better);
            }
        }
        tree
    }
}

/// Shortest distances from one source and each node's predecessor on one
/// shortest path (of `Dist` width, as the distances: the relaxation runs
/// in lanes of one width).
struct Tree {
    dist: [Dist; PADDED],
    previous: [Dist; PADDED],
}

impl Tree {
    fn dist(&self, v: usize) -> Option<u64> {
        (self.dist[v] != UNREACHED).then_some(self.dist[v] as u64)
    }

    /// The number of nodes on the path from `source` to `target`.
    fn path_len(&self, source: usize, mut target: usize) -> usize {
        let mut len = 1;
        while target != source {
            target = self.previous[target] as usize;
            len += 1;
        }
        len
    }

    /// The path from `source` to `target` written into `out`; its length.
    fn path_into(&self, source: usize, mut target: usize, out: &mut [usize]) -> usize {
        let len = self.path_len(source, target);
        let mut i = len - 1;
        out[i] = target;
        while target != source {
            target = self.previous[target] as usize;
            i -= 1;
            out[i] = target;
        }
        len
    }

    fn path_to(&self, source: usize, mut target: usize) -> Vec<usize> {
        // One walk back from the target, then reversed.
        let mut path = vec![target];
        while target != source {
            target = self.previous[target] as usize;
            path.push(target);
        }
        path.reverse();
        path
    }
}

/// The weight of the edge `a -> b` as the task lists it (the last listing
/// wins, as in a weight matrix filled in order).
fn listed_weight(task: &ShortestPathTask, a: usize, b: usize) -> Option<u64> {
    task.edges
        .iter()
        .rev()
        .find(|&&(x, y, _)| (x, y) == (a, b) || (!task.directed && (y, x) == (a, b)))
        .map(|&(_, _, weight)| weight)
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
        // Filled both ways while drawing, so it also tells which pairs are
        // joined; a directed graph's matrix is refilled after the flips.
        let mut w = Weights::new(n, &[], false);
        let target_edges = (config.edge_factor * n as f64).round() as usize;
        let mut edges = Vec::with_capacity(target_edges.max(n) + 3);
        // A random spanning tree, then extra edges.
        let mut order = [0usize; MAX_NODES];
        for (i, slot) in order[..n].iter_mut().enumerate() {
            *slot = i;
        }
        rng.shuffle(&mut order[..n]);
        for i in 1..n {
            let (a, b) = (order[i], order[rng.below(i as u64) as usize]);
            let weight = weight(rng);
            w.set(a, b, weight, false);
            edges.push((a, b, weight));
        }
        while edges.len() < target_edges {
            let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
            if a != b && w.get(a, b).is_none() {
                let weight = weight(rng);
                w.set(a, b, weight, false);
                edges.push((a, b, weight));
            }
        }
        if config.directed {
            for edge in &mut edges {
                if rng.chance(0.5) {
                    *edge = (edge.1, edge.0, edge.2);
                }
            }
            w = Weights::new(n, &edges, true);
        }
        let source = rng.below(n as u64) as usize;
        let tree = w.dijkstra(source);
        // Targets at least two edges away, preferring far ones.
        let mut lens = [0usize; MAX_NODES];
        for (v, len) in lens[..n].iter_mut().enumerate() {
            if v != source && tree.dist(v).is_some() && w.get(source, v) != tree.dist(v) {
                let path_len = tree.path_len(source, v);
                if path_len >= 3 {
                    *len = path_len;
                }
            }
        }
        let longest = *lens[..n].iter().max()?;
        if longest == 0 {
            return None;
        }
        let mut candidates = [0usize; MAX_NODES];
        let mut count = 0;
        for (v, &len) in lens[..n].iter().enumerate() {
            if len != 0 && 2 * len >= longest {
                candidates[count] = v;
                count += 1;
            }
        }
        let target = *rng.choose(&candidates[..count])?;
        // A tie, often: a detour through a node off the path that weighs
        // what the step it bypasses weighs.
        let mut path = [0usize; MAX_NODES];
        let len = tree.path_into(source, target, &mut path);
        let path = &path[..len];
        let k = rng.below(len as u64 - 1) as usize;
        let (u, v) = (path[k], path[k + 1]);
        let step = w.get(u, v)?;
        let mut off = [0usize; MAX_NODES];
        let mut off_count = 0;
        for x in 0..n {
            if !path.contains(&x)
                && [w.get(u, x), w.get(x, u), w.get(v, x), w.get(x, v)]
                    .iter()
                    .all(Option::is_none)
            {
                off[off_count] = x;
                off_count += 1;
            }
        }
        let tree = if step >= 2 && off_count > 0 && rng.chance(0.5) {
            let x = *rng.choose(&off[..off_count])?;
            let first = 1 + rng.below(step - 1);
            edges.push((u, x, first));
            edges.push((x, v, step - first));
            // x had no edge to or from u and v: setting the two new ones is
            // the matrix of the longer edge list.
            w.set(u, x, first, config.directed);
            w.set(x, v, step - first, config.directed);
            w.dijkstra(source)
        } else {
            tree
        };
        let best = tree.dist(target)?;
        let path = tree.path_to(source, target);
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
        let kind = if task.directed {
            "directed (an edge `A -> B` can only be followed from A to B)"
        } else {
            "undirected (an edge `A -- B` can be followed both ways)"
        };
        let arrow = if task.directed { " -> " } else { " -- " };
        let (source, target) = (&task.names[task.source], &task.names[task.target]);
        // One buffer written piece by piece: the prompt is most of a card's
        // cost, and `write!` costs more per call than the pieces it writes.
        let mut text = String::with_capacity(400 + 16 * task.edges.len());
        for piece in [
            "Find a path of the smallest total weight from ",
            source,
            " to ",
            target,
            " in this graph. The edges are ",
            kind,
            "; each is followed by its weight.\nNodes: ",
        ] {
            text.push_str(piece);
        }
        for (i, name) in task.names.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(name);
        }
        text.push_str("\nEdges:");
        for &(a, b, weight) in &task.edges {
            for piece in ["\n", &task.names[a], arrow, &task.names[b], ": "] {
                text.push_str(piece);
            }
            push_u64(&mut text, weight);
        }
        for piece in [
            "\n\nAnswer with the node names of the path in order, from ",
            source,
            " to ",
            target,
            ", separated by spaces, inside \\boxed{}.",
        ] {
            text.push_str(piece);
        }
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
        let mut path = String::with_capacity(4 * task.path.len());
        for (i, &node) in task.path.iter().enumerate() {
            if i > 0 {
                path.push(' ');
            }
            path.push_str(&task.names[node]);
        }
        path
    }

    fn check(task: &ShortestPathTask, answer: &str) -> Result<bool, CheckError> {
        let path = parse_path(answer, task)?;
        if path.first() != Some(&task.source) || path.last() != Some(&task.target) {
            return Ok(false);
        }
        // Edges looked up in the list: a path has a few steps, and a card's
        // weights are read as they are (no matrix, no width limit).
        let mut length: u64 = 0;
        for pair in path.windows(2) {
            match listed_weight(task, pair[0], pair[1]) {
                Some(weight) => length = length.saturating_add(weight),
                None => return Ok(false),
            }
        }
        Ok(length == task.best)
    }
}

#[cfg(test)]
#[path = "shortest_path_tests.rs"]
mod tests;
