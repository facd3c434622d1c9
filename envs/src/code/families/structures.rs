//! Simulation and graph families.

use std::collections::VecDeque;

use serde_json::{Value, json};

use super::family::{Family, Spec, int_arg, size, str_arg};
use crate::rng::Rng;

/// A robot on a grid follows letter commands; return its final position.
pub const ROBOT_WALK: Family = Family {
    name: "robot_walk",
    topic: "simulation",
    draw: robot_walk,
    has_c: false,
};

const HEADINGS: [(&str, i64, i64); 4] = [
    ("north", 0, 1),
    ("east", 1, 0),
    ("south", 0, -1),
    ("west", -1, 0),
];

fn robot_walk(level: u8, rng: &mut Rng) -> Spec {
    let mut letters: Vec<char> = "FGHLMRSTUW".chars().collect();
    rng.shuffle(&mut letters);
    let (fwd, left, right) = (letters[0], letters[1], letters[2]);
    let stride = rng.range_i64(1, 4);
    let start = rng.below(4) as usize;
    let n = size(level, [8, 30, 150]);
    let alphabet: Vec<char> = vec![fwd, fwd, left, right, letters[3], 'x'];
    Spec {
        entry: "walk",
        signature: "walk(commands: str) -> tuple[int, int]".into(),
        description: format!(
            "A robot starts at (0, 0) facing {}; north is +y and east is +x. It reads \
             `commands` one character at a time: {fwd:?} moves it {stride} unit(s) forward, \
             {left:?} turns it 90 degrees left (counter-clockwise), {right:?} turns it 90 \
             degrees right; every other character is ignored. Return its final position as a \
             tuple `(x, y)`.",
            HEADINGS[start].0
        ),
        reference: format!(
            "def walk(commands):\n    dirs = [(0, 1), (1, 0), (0, -1), (-1, 0)]\n    \
             h, x, y = {start}, 0, 0\n    for c in commands:\n        if c == {fwd:?}:\n            \
             x += dirs[h][0] * {stride}\n            y += dirs[h][1] * {stride}\n        \
             elif c == {left:?}:\n            h = (h + 3) % 4\n        elif c == {right:?}:\n            \
             h = (h + 1) % 4\n    return (x, y)\n"
        ),
        c: None,
        args: Box::new(move |rng| {
            let len = rng.range_usize(0, n);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            json!([text])
        }),
        // Each command alone, a walk facing every heading in turn (left, then right), and
        // one with ignored characters between moves.
        edges: {
            let walk_left: String = [fwd, left].iter().cycle().take(9).collect();
            let walk_right: String = [fwd, fwd, right].iter().cycle().take(13).collect();
            vec![
                json!([""]),
                json!([fwd.to_string()]),
                json!([format!("{left}{fwd}")]),
                json!([format!("{right}{fwd}")]),
                json!([walk_left]),
                json!([walk_right]),
                json!([format!("{fwd}x{}{fwd}{left}{left}{fwd}", letters[3])]),
            ]
        },
        solve: Box::new(move |args| {
            let (mut h, mut x, mut y) = (start, 0i64, 0i64);
            for c in str_arg(args, 0).chars() {
                if c == fwd {
                    x += HEADINGS[h].1 * stride;
                    y += HEADINGS[h].2 * stride;
                } else if c == left {
                    h = (h + 3) % 4;
                } else if c == right {
                    h = (h + 1) % 4;
                }
            }
            json!({ "$tuple": [x, y] })
        }),
    }
}

/// Count nodes reachable from `start` within `d` edges, avoiding nodes divisible by `k`.
pub const REACHABLE: Family = Family {
    name: "reachable",
    topic: "graph",
    draw: reachable,
    has_c: false,
};

fn reachable(level: u8, rng: &mut Rng) -> Spec {
    let depth = rng.range_i64(1, 8);
    let directed = rng.chance(0.5);
    let blocked = *rng.choose(&[0i64, 2, 3, 4, 5, 6, 7]).unwrap_or(&0);
    let n = size(level, [6, 15, 60]) as i64;
    let kind = if directed {
        "Edges are directed: `[u, v]` leads from u to v only."
    } else {
        "Edges are undirected: `[u, v]` connects u and v both ways."
    };
    let block_text = if blocked == 0 {
        String::new()
    } else {
        format!(
            " Nodes whose label is a multiple of {blocked} (other than `start`) cannot be entered."
        )
    };
    let block_py = if blocked == 0 {
        String::new()
    } else {
        format!(" or v % {blocked} == 0")
    };
    let back_edge = if directed {
        ""
    } else {
        "\n        adj[v].append(u)"
    };
    Spec {
        entry: "reachable",
        signature: "reachable(n: int, edges: list[list[int]], start: int) -> int".into(),
        description: format!(
            "A graph has nodes 0..n-1 and the given edges. {kind}{block_text} Return how many \
             nodes (counting `start` itself) can be reached from `start` by a path of at most \
             {depth} edges."
        ),
        reference: format!(
            "from collections import deque\n\ndef reachable(n, edges, start):\n    \
             adj = [[] for _ in range(n)]\n    for u, v in edges:\n        adj[u].append(v){back_edge}\n    \
             dist = {{start: 0}}\n    queue = deque([start])\n    while queue:\n        \
             u = queue.popleft()\n        if dist[u] == {depth}:\n            continue\n        \
             for v in adj[u]:\n            if v in dist{block_py}:\n                continue\n            \
             dist[v] = dist[u] + 1\n            queue.append(v)\n    return len(dist)\n"
        ),
        c: None,
        args: Box::new(move |rng| {
            let nodes = rng.range_i64(1, n);
            let edge_count = rng.range_usize(0, (nodes * 2) as usize);
            let edges: Vec<[i64; 2]> = (0..edge_count)
                .map(|_| [rng.range_i64(0, nodes - 1), rng.range_i64(0, nodes - 1)])
                .collect();
            json!([nodes, edges, rng.range_i64(0, nodes - 1)])
        }),
        edges: reachable_edges(depth),
        solve: Box::new(move |args: &Value| {
            let nodes = int_arg(args, 0).max(0) as usize;
            let start = int_arg(args, 2) as usize;
            let mut adj = vec![Vec::new(); nodes];
            for edge in args[1].as_array().into_iter().flatten() {
                let (u, v) = (
                    edge[0].as_i64().unwrap_or(0) as usize,
                    edge[1].as_i64().unwrap_or(0) as usize,
                );
                adj[u].push(v);
                if !directed {
                    adj[v].push(u);
                }
            }
            let mut dist = vec![None; nodes];
            dist[start] = Some(0i64);
            let mut queue = VecDeque::from([start]);
            let mut count = 1;
            while let Some(u) = queue.pop_front() {
                let du = dist[u].unwrap_or(0);
                if du == depth {
                    continue;
                }
                for &v in &adj[u] {
                    if dist[v].is_some() || (blocked != 0 && v as i64 % blocked == 0) {
                        continue;
                    }
                    dist[v] = Some(du + 1);
                    count += 1;
                    queue.push_back(v);
                }
            }
            json!(count)
        }),
    }
}

/// A path from 0 one edge longer than `depth` (and walked from its far end, against
/// directed edges), a lone node, a cycle with a self-loop, a star whose leaves include
/// multiples of every blocking factor, and the highest-numbered node used in edges.
fn reachable_edges(depth: i64) -> Vec<Value> {
    let len = depth + 2;
    let path: Vec<[i64; 2]> = (0..len).map(|i| [i, i + 1]).collect();
    let star: Vec<[i64; 2]> = (1..15).map(|v| [1, v]).collect();
    let cycle: Vec<[i64; 2]> = vec![[0, 1], [1, 2], [2, 3], [3, 0], [2, 2], [4, 3]];
    vec![
        json!([len + 1, path, 0]),
        json!([len + 1, path, len]),
        json!([len + 1, path, 1]),
        json!([1, [], 0]),
        json!([5, cycle, 2]),
        json!([15, star, 1]),
        json!([15, star, 14]),
    ]
}
