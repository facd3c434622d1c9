use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

/// AAA to EEE: AAA-BBB-EEE and AAA-CCC-EEE both weigh 4; the direct edge
/// weighs 5; AAA-DDD-EEE weighs 6.
fn two_shortest() -> ShortestPathTask {
    let names = ["AAA", "BBB", "CCC", "DDD", "EEE"]
        .map(String::from)
        .to_vec();
    let edges = vec![
        (0, 4, 5),
        (0, 1, 1),
        (1, 4, 3),
        (0, 2, 2),
        (2, 4, 2),
        (0, 3, 3),
        (3, 4, 3),
    ];
    let best = Weights::new(5, &edges, false).dijkstra(0).dist(4).unwrap();
    ShortestPathTask {
        names,
        directed: false,
        edges,
        source: 0,
        target: 4,
        best,
        path: vec![0, 1, 4],
    }
}

#[test]
fn dijkstra_agrees_with_floyd_warshall() {
    let mut rng = Rng::from_seed(11);
    // Small graphs, graphs over several lanes of 16 nodes up to the largest
    // allowed, and the heaviest path there is (59 edges of weight 100, the
    // top of the `i16` distances).
    type Graph = (usize, bool, Vec<(usize, usize, u64)>);
    let mut graphs: Vec<Graph> = (0..300)
        .map(|i| {
            let n = if i % 2 == 0 {
                3 + rng.below(7)
            } else {
                10 + rng.below(51)
            } as usize;
            let directed = rng.chance(0.5);
            let (density, max_weight) = if n < 10 {
                (0.3, 9)
            } else {
                (2.5 / n as f64, 100)
            };
            let mut edges = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if a != b && rng.chance(density) {
                        edges.push((a, b, 1 + rng.below(max_weight)));
                    }
                }
            }
            (n, directed, edges)
        })
        .collect();
    graphs.push((60, false, (1..60).map(|b| (b - 1, b, 100)).collect()));
    for (n, directed, edges) in graphs {
        let w = Weights::new(n, &edges, directed);
        let mut fw: Vec<Vec<Option<u64>>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| if a == b { Some(0) } else { w.get(a, b) })
                    .collect()
            })
            .collect();
        for k in 0..n {
            for a in 0..n {
                for b in 0..n {
                    if let (Some(x), Some(y)) = (fw[a][k], fw[k][b])
                        && fw[a][b].is_none_or(|d| x + y < d)
                    {
                        fw[a][b] = Some(x + y);
                    }
                }
            }
        }
        for (s, row) in fw.iter().enumerate() {
            let tree = w.dijkstra(s);
            let dist: Vec<Option<u64>> = (0..n).map(|v| tree.dist(v)).collect();
            assert_eq!(&dist, row);
            // Each recorded path is made of edges and weighs the distance.
            for (v, d) in dist.iter().enumerate() {
                if let Some(d) = d {
                    let path = tree.path_to(s, v);
                    let weight: u64 = path.windows(2).map(|p| w.get(p[0], p[1]).unwrap()).sum();
                    assert_eq!(weight, *d);
                }
            }
        }
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(ShortestPath::LEVELS[level]).unwrap();
        standard_answers::<ShortestPath>(&config, 30);
    }
}

#[test]
fn every_shortest_path_passes_and_others_fail() {
    let task = two_shortest();
    assert_eq!(task.best, 4);
    for good in [
        "AAA BBB EEE",
        "AAA CCC EEE",
        "aaa, ccc, eee",
        "AAA -> CCC -> EEE",
        "AAA → BBB → EEE",
        "AAA-CCC-EEE",
        "$AAA \\to CCC \\to EEE$",
        "The path is \\boxed{AAA CCC EEE}.",
    ] {
        assert!(passes::<ShortestPath>(&task, good), "{good:?}");
    }
    for bad in [
        "AAA EEE",
        "AAA DDD EEE",
        "AAA BBB",
        "BBB EEE",
        "EEE CCC AAA",
        "AAA BBB EEE EEE",
        "AAA BBB EEE CCC EEE",
        "AAA BBB EEE or AAA CCC EEE",
        "\\boxed{AAA BBB EEE} \\boxed{AAA EEE}",
        "AAA BBB XYZ EEE",
        "4",
        "",
    ] {
        assert!(!passes::<ShortestPath>(&task, bad), "{bad:?}");
    }
}

#[test]
fn a_directed_edge_is_followed_one_way_only() {
    let mut task = two_shortest();
    task.directed = true;
    task.edges = vec![(0, 1, 1), (4, 1, 1), (0, 2, 3), (2, 4, 3)];
    task.best = 6;
    assert!(ShortestPath::check(&task, "AAA CCC EEE").unwrap());
    assert!(!ShortestPath::check(&task, "AAA BBB EEE").unwrap());
}

#[test]
fn generated_tasks_need_two_edges_and_have_traps_and_ties() {
    let (mut traps, mut ties) = (0, 0);
    let mut rng = Rng::from_seed(5);
    for level in ShortestPath::LEVELS {
        let config: ShortestPathConfig = serde_json::from_str(level).unwrap();
        ShortestPath::validate(&config).unwrap();
        for _ in 0..20 {
            let task = ShortestPath::generate(&config, &mut rng);
            assert!(task.path.len() >= 3);
            let w = Weights::new(task.names.len(), &task.edges, task.directed);
            if w.get(task.source, task.target).is_some() {
                traps += 1;
            }
            // Shortest paths counted over the shortest-path graph.
            let tree = w.dijkstra(task.source);
            let dist: Vec<Option<u64>> = (0..task.names.len()).map(|v| tree.dist(v)).collect();
            let mut order: Vec<usize> = (0..task.names.len())
                .filter(|&v| dist[v].is_some())
                .collect();
            order.sort_by_key(|&v| dist[v]);
            let mut ways = vec![0u64; task.names.len()];
            ways[task.source] = 1;
            for &v in &order {
                for u in 0..task.names.len() {
                    if let (Some(du), Some(wt)) = (dist[u], w.get(u, v))
                        && Some(du + wt) == dist[v]
                    {
                        ways[v] += ways[u];
                    }
                }
            }
            if ways[task.target] > 1 {
                ties += 1;
            }
            assert!(ShortestPath::check(&task, &ShortestPath::reference(&task)).unwrap());
            let named: Vec<&str> = task.names.iter().map(String::as_str).collect();
            assert!(!ShortestPath::check(&task, &named.join(" ")).unwrap());
        }
    }
    assert!(traps > 20, "{traps} traps");
    assert!(ties > 10, "{ties} tasks with several shortest paths");
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(ShortestPath::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<ShortestPath>(&config, 1000);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}

#[test]
fn the_listed_weight_is_the_last_listing_either_way_when_undirected() {
    let mut task = two_shortest();
    assert_eq!(listed_weight(&task, 4, 0), Some(5));
    assert_eq!(listed_weight(&task, 1, 3), None);
    task.edges.push((4, 0, 9));
    assert_eq!(listed_weight(&task, 0, 4), Some(9));
    task.directed = true;
    assert_eq!(listed_weight(&task, 0, 4), Some(5));
    assert_eq!(listed_weight(&task, 4, 0), Some(9));
    assert_eq!(listed_weight(&task, 1, 0), None);
}
