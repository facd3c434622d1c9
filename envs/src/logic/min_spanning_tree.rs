//! `logic/min-spanning-tree-v1`: choose edges that connect every node of a
//! weighted graph at the least total weight (a minimum spanning tree, its
//! weight proven by Kruskal's algorithm).
//!
//! # Task
//! `nodes` nodes with distinct random three-letter names and
//! `round(edge_factor · nodes)` undirected edges with weights in
//! `1..=max_weight` (a random spanning tree plus random extra edges, so the
//! graph is connected), listed in a random order; small weights make several
//! minimum spanning trees common. Draws where the first `nodes - 1` listed
//! edges already form a minimum spanning tree are redrawn. Names are drawn
//! per task, so one task's tree never answers another.
//!
//! # Action
//! The tree's edges, each as its two node names (`ABC-DEF`, `ABC DEF`,
//! `(ABC, DEF)`), the edges separated by commas, semicolons or new lines;
//! case is ignored. In `\boxed{…}` or as the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The nodes and the edges with their weights. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any `nodes - 1` distinct edges of the graph that
//! connect every node and whose total weight is the minimum (every minimum
//! spanning tree passes; the check never compares with one reference tree);
//! else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nodes` (5..=40), `edge_factor` (edges per node, 1.2..=4, at most 60% of
//! all node pairs), `max_weight` (1..=100).
//!
//! # Seeding
//! Names, edges and weights come from the task rng.
//!
//! # Version history
//! v1: first version.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::ConfigError;
use crate::logic::edge_share::check_edge_share;
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MinSpanningTreeConfig {
    pub nodes: usize,
    pub edge_factor: f64,
    pub max_weight: u64,
}

impl Default for MinSpanningTreeConfig {
    fn default() -> Self {
        MinSpanningTreeConfig {
            nodes: 10,
            edge_factor: 1.8,
            max_weight: 20,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinSpanningTreeTask {
    pub names: Vec<String>,
    /// `(a, b, weight)`, as indices into `names`, in the listed order.
    pub edges: Vec<(usize, usize, u64)>,
    /// The minimum total weight.
    pub best: u64,
    /// One minimum spanning tree (Kruskal's), as indices into `edges`.
    pub tree: Vec<usize>,
}

/// Union-find with path halving.
struct Components(Vec<usize>);

impl Components {
    fn new(n: usize) -> Self {
        Components((0..n).collect())
    }

    fn root(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }

    /// Joins the components of `a` and `b`; false when they were one.
    fn join(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.root(a), self.root(b));
        self.0[ra] = rb;
        ra != rb
    }
}

/// Kruskal: the weight of a minimum spanning forest and its edges (indices).
fn kruskal(n: usize, edges: &[(usize, usize, u64)]) -> (u64, Vec<usize>) {
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.sort_by_key(|&i| (edges[i].2, i));
    let mut components = Components::new(n);
    let mut tree = Vec::new();
    let mut weight = 0;
    for i in order {
        let (a, b, w) = edges[i];
        if components.join(a, b) {
            tree.push(i);
            weight += w;
        }
    }
    tree.sort_unstable();
    (weight, tree)
}

/// Whether `chosen` (edge indices) is a spanning tree of `n` nodes of this
/// weight.
fn is_spanning_tree(n: usize, edges: &[(usize, usize, u64)], chosen: &[usize], best: u64) -> bool {
    let mut components = Components::new(n);
    chosen.len() + 1 == n
        && chosen
            .iter()
            .all(|&i| components.join(edges[i].0, edges[i].1))
        && chosen.iter().map(|&i| edges[i].2).sum::<u64>() == best
}

/// Reads edges as pairs of node names, each the edge between them.
fn parse_edges(answer: &str, task: &MinSpanningTreeTask) -> Result<Vec<usize>, InvalidAction> {
    let cleaned = answer.replace("--", " ").replace(
        ['-', '–', '—', ',', ';', '(', ')', '{', '}', '[', ']', '$'],
        " ",
    );
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    // Names capped at twice the edges: the readable answer is no longer.
    let limit = 2 * task.edges.len();
    if tokens.len() > limit {
        return Err(format!("more than the {limit} names of all the edges").into());
    }
    let mut names = task.names.clone();
    names.extend(task.names.iter().cloned());
    let nodes = read_names(tokens.into_iter(), &names, "node")?;
    if nodes.len() % 2 == 1 {
        return Err("an odd number of node names: every edge names two".into());
    }
    let n = task.names.len();
    nodes
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0] % n, pair[1] % n);
            task.edges
                .iter()
                .position(|&(x, y, _)| (x, y) == (a, b) || (y, x) == (a, b))
                .ok_or_else(|| {
                    InvalidAction::new(format!(
                        "{} and {} are not joined by an edge",
                        task.names[a], task.names[b]
                    ))
                })
        })
        .collect()
}

pub struct MinSpanningTree;

pub type MinSpanningTreeEnv = SingleTurn<MinSpanningTree>;

impl Question for MinSpanningTree {
    type Config = MinSpanningTreeConfig;
    type Task = MinSpanningTreeTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/min-spanning-tree-v1",
        kind: EnvKind::SingleTurn,
        description: "Choose edges connecting every node at the least total weight; any minimum spanning tree passes (optimum proven)",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nodes":5,"edge_factor":1.2,"max_weight":9}"#,
        r#"{"nodes":6,"edge_factor":1.5,"max_weight":9}"#,
        r#"{"nodes":8,"edge_factor":1.6,"max_weight":15}"#,
        "{}",
        r#"{"nodes":14,"edge_factor":2.0,"max_weight":30}"#,
        r#"{"nodes":20,"edge_factor":2.5,"max_weight":50}"#,
        r#"{"nodes":30,"edge_factor":3.0,"max_weight":99}"#,
    ];

    fn effort(task: &MinSpanningTreeTask) -> Option<f64> {
        Some((task.names.len() + task.edges.len()) as f64)
    }

    fn validate(config: &MinSpanningTreeConfig) -> Result<(), ConfigError> {
        if !(5..=40).contains(&config.nodes)
            || !(1.2..=4.0).contains(&config.edge_factor)
            || !(1..=100).contains(&config.max_weight)
        {
            return Err(
                "need 5 <= nodes <= 40, 1.2 <= edge_factor <= 4 and 1 <= max_weight <= 100".into(),
            );
        }
        check_edge_share(config.nodes, config.edge_factor)
    }

    fn generate(config: &MinSpanningTreeConfig, rng: &mut Rng) -> MinSpanningTreeTask {
        let n = config.nodes;
        loop {
            let names = draw_names(n, rng);
            let weight = |rng: &mut Rng| 1 + rng.below(config.max_weight);
            // Joined pairs, the smaller node first.
            let mut has = BTreeSet::new();
            let mut edges = Vec::new();
            for i in 1..n {
                let j = rng.below(i as u64) as usize;
                has.insert((j, i));
                edges.push((i, j, weight(rng)));
            }
            let target = (config.edge_factor * n as f64).round() as usize;
            while edges.len() < target {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if a != b && has.insert((a.min(b), a.max(b))) {
                    edges.push((a, b, weight(rng)));
                }
            }
            rng.shuffle(&mut edges);
            let (best, tree) = kruskal(n, &edges);
            let first: Vec<usize> = (0..n - 1).collect();
            if !is_spanning_tree(n, &edges, &first, best) {
                return MinSpanningTreeTask {
                    names,
                    edges,
                    best,
                    tree,
                };
            }
        }
    }

    fn prompt(task: &MinSpanningTreeTask) -> String {
        let edges: Vec<String> = task
            .edges
            .iter()
            .map(|&(a, b, w)| format!("{} -- {}: {w}", task.names[a], task.names[b]))
            .collect();
        format!(
            "Choose edges of this undirected graph that connect all {} nodes with the smallest possible \
             total weight (a minimum spanning tree). Each edge is followed by its weight.\nNodes: {}\n\
             Edges:\n{}\n\nAnswer with the chosen edges, each written as its two node names joined by a \
             dash (like `{}-{}`), separated by commas, inside \\boxed{{}}.",
            task.names.len(),
            task.names.join(", "),
            edges.join("\n"),
            task.names[task.edges[0].0],
            task.names[task.edges[0].1],
        )
    }

    fn structured(task: &MinSpanningTreeTask) -> Value {
        let edges: Vec<Value> = task
            .edges
            .iter()
            .map(|&(a, b, w)| json!({"a": task.names[a], "b": task.names[b], "weight": w}))
            .collect();
        json!({ "nodes": task.names, "edges": edges })
    }

    fn reference(task: &MinSpanningTreeTask) -> String {
        task.tree
            .iter()
            .map(|&i| {
                let (a, b, _) = task.edges[i];
                format!("{}-{}", task.names[a], task.names[b])
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn check(task: &MinSpanningTreeTask, answer: &str) -> Result<bool, CheckError> {
        let chosen = parse_edges(answer, task)?;
        Ok(is_spanning_tree(
            task.names.len(),
            &task.edges,
            &chosen,
            task.best,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// A square AAA-BBB-CCC-DDD of weights 1, 2, 1, 2 and a diagonal
    /// AAA-CCC of 5: dropping either 2 leaves a tree of weight 4.
    fn square() -> MinSpanningTreeTask {
        let names = ["AAA", "BBB", "CCC", "DDD"].map(String::from).to_vec();
        let edges = vec![(0, 1, 1), (1, 2, 2), (2, 3, 1), (3, 0, 2), (0, 2, 5)];
        let (best, tree) = kruskal(4, &edges);
        MinSpanningTreeTask {
            names,
            edges,
            best,
            tree,
        }
    }

    #[test]
    fn kruskal_finds_the_lightest_tree_a_brute_force_finds() {
        let mut rng = Rng::from_seed(11);
        for _ in 0..200 {
            let n = 3 + rng.below(4) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.chance(0.7) {
                        edges.push((a, b, 1 + rng.below(6)));
                    }
                }
            }
            let m = edges.len();
            let brute = (0u32..1 << m)
                .filter(|mask| mask.count_ones() as usize == n - 1)
                .filter_map(|mask| {
                    let chosen: Vec<usize> = (0..m).filter(|i| mask >> i & 1 == 1).collect();
                    let weight = chosen.iter().map(|&i| edges[i].2).sum();
                    is_spanning_tree(n, &edges, &chosen, weight).then_some(weight)
                })
                .min();
            let (weight, tree) = kruskal(n, &edges);
            if let Some(brute) = brute {
                assert_eq!(weight, brute);
                assert!(is_spanning_tree(n, &edges, &tree, weight));
            } else {
                assert!(tree.len() + 1 < n, "a forest, not a tree");
            }
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for level in [0, 3, 6] {
            let config = serde_json::from_str(MinSpanningTree::LEVELS[level]).unwrap();
            standard_answers::<MinSpanningTree>(&config, 30);
        }
    }

    #[test]
    fn every_minimum_tree_passes_and_others_fail() {
        let task = square();
        assert_eq!(task.best, 4);
        for good in [
            "AAA-BBB, BBB-CCC, CCC-DDD",
            "AAA-BBB, CCC-DDD, DDD-AAA",
            "ddd-ccc; aaa-ddd; bbb-aaa",
            "(AAA, BBB), (BBB, CCC), (CCC, DDD)",
            "AAA BBB\nBBB CCC\nCCC DDD",
            "The tree: \\boxed{AAA-BBB, BBB-CCC, CCC-DDD}.",
        ] {
            assert!(passes::<MinSpanningTree>(&task, good), "{good:?}");
        }
        for bad in [
            "AAA-BBB, BBB-CCC, DDD-AAA",
            "AAA-BBB, CCC-DDD, AAA-CCC",
            "AAA-BBB, CCC-DDD",
            "AAA-BBB, BBB-CCC, CCC-DDD, DDD-AAA",
            "AAA-BBB, BBB-CCC, CCC-DDD, AAA-BBB",
            "AAA-BBB, AAA-BBB, CCC-DDD",
            "AAA-BBB, BBB-DDD, CCC-DDD",
            "AAA-BBB, BBB-CCC, CCC",
            "AAA-BBB, BBB-CCC, CCC-DDD or AAA-BBB, CCC-DDD, DDD-AAA",
            "\\boxed{AAA-BBB, BBB-CCC, CCC-DDD} \\boxed{AAA-CCC}",
            "AAA-BBB, BBB-XYZ, CCC-DDD",
            "4",
            "",
        ] {
            assert!(!passes::<MinSpanningTree>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn the_listed_edges_are_no_answer() {
        let mut rng = Rng::from_seed(5);
        for level in MinSpanningTree::LEVELS {
            let config: MinSpanningTreeConfig = serde_json::from_str(level).unwrap();
            MinSpanningTree::validate(&config).unwrap();
            for _ in 0..20 {
                let task = MinSpanningTree::generate(&config, &mut rng);
                let n = task.names.len();
                let listed = |count: usize| {
                    task.edges[..count]
                        .iter()
                        .map(|&(a, b, _)| format!("{}-{}", task.names[a], task.names[b]))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                assert!(!MinSpanningTree::check(&task, &listed(n - 1)).unwrap());
                assert!(!matches!(
                    MinSpanningTree::check(&task, &listed(task.edges.len())),
                    Ok(true)
                ));
            }
        }
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for level in [0, 3] {
            let config = serde_json::from_str(MinSpanningTree::LEVELS[level]).unwrap();
            let rate = cross_reference_rate::<MinSpanningTree>(&config, 1000);
            assert!(rate < 0.01, "{level}: {rate}");
        }
    }
}
