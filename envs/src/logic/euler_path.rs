//! `logic/euler-path-v1`: walk through an undirected (multi)graph using
//! every edge exactly once (an Euler path or circuit).
//!
//! # Task
//! `nodes` nodes with distinct random three-letter names and `edges`
//! undirected edges, drawn as a hidden random walk that visits every node
//! (so an Euler path exists; about half the walks close into a circuit).
//! With `multi`, a pair of nodes may be joined by several edges, each listed
//! separately. The edges are listed in a random order. Names are drawn per
//! task, so one task's walk never answers another.
//!
//! # Action
//! The nodes of the walk in order, `edges + 1` names separated by spaces,
//! commas or arrows (`->`, `→`, `-`); case is ignored. In `\boxed{…}` or as
//! the whole reply.
//! Read by the single-turn rule (`crate::single_turn`): reasoning is dropped,
//! then the last `\boxed{…}` counts (boxes that disagree are a hedge and
//! score 0), else the whole reply; prose around the box is ignored.
//!
//! # Observation
//! The nodes and the edges. Structured: the same.
//!
//! # Reward
//! 1 and `passed` for any walk, from any start, in which consecutive nodes
//! are joined by an edge not used before and which uses every edge (every
//! Euler path passes, either way round; the check never compares with one
//! reference walk); else 0. Breakdown: `correct`, `format`.
//!
//! # Episode end
//! After the one answer.
//!
//! # Parameters
//! `nodes` (4..=30), `edges` (`nodes..=120`; without `multi` at most 60% of
//! all node pairs), `multi` (bool).
//!
//! # Seeding
//! Names and the hidden walk come from the task rng.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::core::{EnvKind, EnvSpec, InvalidAction, Preset};
use crate::error::{ConfigError, NoTask};
use crate::logic::names::{draw_names, read_names};
use crate::rng::Rng;
use crate::single_turn::{CheckError, Question, SingleTurn};

/// Draws before giving up on a config.
const MAX_DRAWS: u64 = 2_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EulerPathConfig {
    pub nodes: usize,
    pub edges: usize,
    pub multi: bool,
}

impl Default for EulerPathConfig {
    fn default() -> Self {
        EulerPathConfig {
            nodes: 8,
            edges: 13,
            multi: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EulerPathTask {
    pub names: Vec<String>,
    /// `(a, b)`, as indices into `names`, in the listed order.
    pub edges: Vec<(usize, usize)>,
    /// The hidden walk, as indices into `names`.
    pub walk: Vec<usize>,
}

/// Reads a walk's node names (any number of them, each many times).
fn parse_walk(answer: &str, task: &EulerPathTask) -> Result<Vec<usize>, InvalidAction> {
    let cleaned = answer
        .replace("\\rightarrow", " ")
        .replace("\\to", " ")
        .replace("->", " ")
        .replace(['→', '-', '–', '—', ',', ';', '|', '$'], " ");
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    let limit = 2 * task.edges.len() + 2;
    if tokens.len() > limit {
        return Err(format!(
            "{} names; a walk over every edge has {}",
            tokens.len(),
            task.edges.len() + 1
        )
        .into());
    }
    let n = task.names.len();
    let all: Vec<String> = task
        .names
        .iter()
        .cloned()
        .cycle()
        .take(n * limit.div_ceil(n))
        .collect();
    Ok(read_names(tokens.into_iter(), &all, "node")?
        .into_iter()
        .map(|i| i % n)
        .collect())
}

/// Whether `walk` uses every edge exactly once.
fn is_euler_walk(n: usize, edges: &[(usize, usize)], walk: &[usize]) -> bool {
    let mut left = vec![vec![0usize; n]; n];
    for &(a, b) in edges {
        left[a][b] += 1;
        left[b][a] += 1;
    }
    walk.len() == edges.len() + 1
        && walk.windows(2).all(|step| {
            let (a, b) = (step[0], step[1]);
            if left[a][b] == 0 {
                return false;
            }
            left[a][b] -= 1;
            left[b][a] -= 1;
            true
        })
}

pub struct EulerPath;

impl EulerPath {
    /// One hidden walk, or `None` when it got stuck or missed a node.
    fn draw(config: &EulerPathConfig, rng: &mut Rng) -> Option<EulerPathTask> {
        let n = config.nodes;
        let names = draw_names(n, rng);
        let mut used = vec![vec![false; n]; n];
        let mut visited = vec![false; n];
        let start = rng.below(n as u64) as usize;
        let mut walk = vec![start];
        visited[start] = true;
        let close = rng.chance(0.5);
        for step in 0..config.edges {
            let here = walk[step];
            let free: Vec<usize> = (0..n)
                .filter(|&v| v != here && (config.multi || !used[here][v]))
                .collect();
            let fresh: Vec<usize> = free.iter().copied().filter(|&v| !visited[v]).collect();
            let next = if close && step + 1 == config.edges && free.contains(&start) {
                start
            } else if !fresh.is_empty() && rng.chance(0.5) {
                *rng.choose(&fresh)?
            } else {
                *rng.choose(&free)?
            };
            used[here][next] = true;
            used[next][here] = true;
            visited[next] = true;
            walk.push(next);
        }
        if !visited.iter().all(|&v| v) {
            return None;
        }
        let mut edges: Vec<(usize, usize)> = walk
            .windows(2)
            .map(|s| {
                if rng.chance(0.5) {
                    (s[0], s[1])
                } else {
                    (s[1], s[0])
                }
            })
            .collect();
        rng.shuffle(&mut edges);
        Some(EulerPathTask { names, edges, walk })
    }
}

pub type EulerPathEnv = SingleTurn<EulerPath>;

impl Question for EulerPath {
    type Config = EulerPathConfig;
    type Task = EulerPathTask;
    const SPEC: EnvSpec = EnvSpec {
        id: "logic/euler-path-v1",
        kind: EnvKind::SingleTurn,
        description: "Walk through a graph using every edge exactly once; any Euler path passes",
        players: 1,
        max_steps: 1,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 3, 5]),
    };
    const LEVELS: &'static [&'static str] = &[
        r#"{"nodes":5,"edges":6}"#,
        r#"{"nodes":6,"edges":8}"#,
        r#"{"nodes":7,"edges":10}"#,
        "{}",
        r#"{"nodes":10,"edges":18,"multi":true}"#,
        r#"{"nodes":14,"edges":26,"multi":true}"#,
        r#"{"nodes":20,"edges":40,"multi":true}"#,
    ];

    fn effort(task: &EulerPathTask) -> Option<f64> {
        Some(task.edges.len() as f64)
    }

    fn validate(config: &EulerPathConfig) -> Result<(), ConfigError> {
        if !(4..=30).contains(&config.nodes) || !(config.nodes..=120).contains(&config.edges) {
            return Err("need 4 <= nodes <= 30 and nodes <= edges <= 120".into());
        }
        let pairs = config.nodes * (config.nodes - 1) / 2;
        if !config.multi && config.edges * 5 > pairs * 3 {
            return Err(
                "edges over 60% of all node pairs: lower edges, add nodes or set multi".into(),
            );
        }
        Ok(())
    }

    fn generate(config: &EulerPathConfig, rng: &mut Rng) -> EulerPathTask {
        Self::try_generate(config, rng).unwrap_or_else(|message| panic!("{message}"))
    }

    fn try_generate(config: &EulerPathConfig, rng: &mut Rng) -> Result<EulerPathTask, NoTask> {
        crate::budget::draw_until(
            MAX_DRAWS,
            || Self::draw(config, rng),
            || {
                format!(
                    "no random walk of {} edges visited all {} nodes without getting stuck in {MAX_DRAWS} \
                     draws: raise edges or set multi",
                    config.edges, config.nodes
                )
            },
        )
    }

    fn prompt(task: &EulerPathTask) -> String {
        let edges: Vec<String> = task
            .edges
            .iter()
            .map(|&(a, b)| format!("{} -- {}", task.names[a], task.names[b]))
            .collect();
        format!(
            "Find a walk through this undirected graph that uses every edge exactly once (it may visit a \
             node several times and may start anywhere). A pair of nodes listed twice is joined by two \
             separate edges.\nNodes: {}\nEdges:\n{}\n\nAnswer with the {} nodes of the walk in order, \
             separated by spaces, inside \\boxed{{}}.",
            task.names.join(", "),
            edges.join("\n"),
            task.edges.len() + 1,
        )
    }

    fn structured(task: &EulerPathTask) -> Value {
        let edges: Vec<[&str; 2]> = task
            .edges
            .iter()
            .map(|&(a, b)| [task.names[a].as_str(), task.names[b].as_str()])
            .collect();
        json!({ "nodes": task.names, "edges": edges })
    }

    fn reference(task: &EulerPathTask) -> String {
        task.walk
            .iter()
            .map(|&i| task.names[i].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn check(task: &EulerPathTask, answer: &str) -> Result<bool, CheckError> {
        let walk = parse_walk(answer, task)?;
        Ok(is_euler_walk(task.names.len(), &task.edges, &walk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

    /// Two triangles sharing AAA (a bowtie): every node even, so circuits
    /// from anywhere pass.
    fn bowtie() -> EulerPathTask {
        EulerPathTask {
            names: ["AAA", "BBB", "CCC", "DDD", "EEE"]
                .map(String::from)
                .to_vec(),
            edges: vec![(0, 1), (1, 2), (2, 0), (0, 3), (3, 4), (4, 0)],
            walk: vec![0, 1, 2, 0, 3, 4, 0],
        }
    }

    #[test]
    fn reference_passes_and_degenerate_answers_fail() {
        for level in [0, 3, 6] {
            let config = serde_json::from_str(EulerPath::LEVELS[level]).unwrap();
            standard_answers::<EulerPath>(&config, 30);
        }
    }

    #[test]
    fn every_euler_walk_passes_and_others_fail() {
        let task = bowtie();
        for good in [
            "AAA BBB CCC AAA DDD EEE AAA",
            "AAA EEE DDD AAA CCC BBB AAA",
            "BBB CCC AAA DDD EEE AAA BBB",
            "ddd, eee, aaa, bbb, ccc, aaa, ddd",
            "CCC -> BBB -> AAA -> EEE -> DDD -> AAA -> CCC",
            "The walk is \\boxed{AAA-BBB-CCC-AAA-DDD-EEE-AAA}.",
        ] {
            assert!(passes::<EulerPath>(&task, good), "{good:?}");
        }
        for bad in [
            "AAA BBB CCC AAA DDD EEE",
            "AAA BBB CCC AAA BBB CCC AAA",
            "AAA BBB CCC AAA DDD EEE AAA BBB",
            "AAA BBB CCC DDD EEE AAA AAA",
            "AAA BBB CCC AAA DDD EEE XYZ",
            "AAA BBB CCC AAA DDD EEE AAA or AAA CCC BBB AAA",
            "\\boxed{AAA BBB CCC AAA DDD EEE AAA} \\boxed{AAA}",
            "7",
            "",
        ] {
            assert!(!passes::<EulerPath>(&task, bad), "{bad:?}");
        }
    }

    #[test]
    fn parallel_edges_are_each_used_once() {
        // AAA=BBB twice and BBB-CCC: the only walks are CCC BBB AAA BBB and back.
        let task = EulerPathTask {
            names: ["AAA", "BBB", "CCC"].map(String::from).to_vec(),
            edges: vec![(0, 1), (1, 2), (1, 0)],
            walk: vec![2, 1, 0, 1],
        };
        assert!(EulerPath::check(&task, "CCC BBB AAA BBB").unwrap());
        assert!(EulerPath::check(&task, "BBB AAA BBB CCC").unwrap());
        assert!(!EulerPath::check(&task, "AAA BBB CCC BBB").unwrap());
        assert!(!EulerPath::check(&task, "CCC BBB AAA BBB AAA").unwrap());
    }

    #[test]
    fn generated_walks_use_every_edge_and_node() {
        let mut rng = Rng::from_seed(5);
        let mut circuits = 0;
        for level in EulerPath::LEVELS {
            let config: EulerPathConfig = serde_json::from_str(level).unwrap();
            EulerPath::validate(&config).unwrap();
            for _ in 0..20 {
                let task = EulerPath::generate(&config, &mut rng);
                assert_eq!(task.edges.len(), config.edges);
                assert!(is_euler_walk(config.nodes, &task.edges, &task.walk));
                let mut seen = task.walk.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), config.nodes);
                circuits += usize::from(task.walk.first() == task.walk.last());
                let listed: Vec<String> = task
                    .edges
                    .iter()
                    .map(|&(a, b)| format!("{} {}", task.names[a], task.names[b]))
                    .collect();
                assert!(!EulerPath::check(&task, &listed.join(" ")).unwrap());
            }
        }
        assert!(circuits > 20, "{circuits} circuits");
    }

    #[test]
    fn another_tasks_reference_never_passes() {
        for level in [0, 3] {
            let config = serde_json::from_str(EulerPath::LEVELS[level]).unwrap();
            let rate = cross_reference_rate::<EulerPath>(&config, 1000);
            assert!(rate < 0.01, "{level}: {rate}");
        }
    }
}
