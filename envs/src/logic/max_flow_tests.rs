use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

/// SSS to TTT through AAA (3 in, 2 out) and BBB (2 in, 3 out), and AAA ->
/// BBB of 1: the maximum is 5, with three minimum cuts: {SSS} (3 + 2),
/// {SSS, AAA} (2 + 1 + 2) and {SSS, AAA, BBB} (2 + 3); {SSS, BBB} is 6.
fn diamond() -> MaxFlowTask {
    let names = ["SSS", "AAA", "BBB", "TTT"].map(String::from).to_vec();
    let edges = vec![(0, 1, 3), (0, 2, 2), (1, 3, 2), (2, 3, 3), (1, 2, 1)];
    let (value, cut) = max_flow(4, &edges, 0, 3);
    MaxFlowTask {
        names,
        source: 0,
        sink: 3,
        edges,
        value,
        cut,
    }
}

#[test]
fn edmonds_karp_finds_the_minimum_cut_a_brute_force_finds() {
    let mut rng = Rng::from_seed(11);
    for _ in 0..200 {
        let n = 3 + rng.below(5) as usize;
        let mut edges = Vec::new();
        for a in 0..n {
            for b in 0..n {
                if a != b && rng.chance(0.35) {
                    edges.push((a, b, 1 + rng.below(9)));
                }
            }
        }
        let (s, t) = (0, n - 1);
        let brute = (0u32..1 << n)
            .filter(|mask| mask & 1 == 1 && mask >> t & 1 == 0)
            .map(|mask| {
                let side: Vec<usize> = (0..n).filter(|v| mask >> v & 1 == 1).collect();
                cut_capacity(n, &edges, &side)
            })
            .min()
            .unwrap();
        let (value, cut) = max_flow(n, &edges, s, t);
        assert_eq!(value, brute);
        assert_eq!(cut_capacity(n, &edges, &cut), value);
        assert!(cut.contains(&s) && !cut.contains(&t));
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(MaxFlow::LEVELS[level]).unwrap();
        standard_answers::<MaxFlow>(&config, 30);
    }
}

#[test]
fn every_minimum_cut_passes_and_others_fail() {
    let task = diamond();
    assert_eq!(task.value, 5);
    for good in [
        "5: SSS AAA BBB",
        "5: SSS AAA",
        "5: SSS",
        "5: sss, bbb, aaa",
        "5; SSS, AAA",
        "5 SSS AAA",
        "5: \\{SSS, AAA\\}",
        "The flow is \\boxed{5: SSS AAA BBB}.",
    ] {
        assert!(passes::<MaxFlow>(&task, good), "{good:?}");
    }
    for bad in [
        "5: SSS BBB",
        "5: AAA BBB",
        "5: SSS AAA BBB TTT",
        "5: SSS AAA AAA",
        "6: SSS AAA BBB",
        "4: SSS AAA",
        "5: SSS AAA or 5: SSS AAA BBB",
        "\\boxed{5: SSS AAA} \\boxed{5: SSS}",
        "5: SSS AAA XYZ",
        "5",
        "SSS AAA",
        "",
    ] {
        assert!(!passes::<MaxFlow>(&task, bad), "{bad:?}");
    }
}

#[test]
fn generated_cuts_are_never_the_source_or_sink_alone() {
    let mut rng = Rng::from_seed(5);
    for level in MaxFlow::LEVELS {
        let config: MaxFlowConfig = serde_json::from_str(level).unwrap();
        MaxFlow::validate(&config).unwrap();
        for _ in 0..20 {
            let task = MaxFlow::generate(&config, &mut rng);
            let (s, t) = (&task.names[task.source], &task.names[task.sink]);
            assert!(!MaxFlow::check(&task, &format!("{}: {s}", task.value)).unwrap());
            let but_sink: Vec<&str> = task
                .names
                .iter()
                .filter(|name| *name != t)
                .map(String::as_str)
                .collect();
            let answer = format!("{}: {}", task.value, but_sink.join(" "));
            assert!(!MaxFlow::check(&task, &answer).unwrap());
            assert!(MaxFlow::check(&task, &MaxFlow::reference(&task)).unwrap());
        }
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(MaxFlow::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<MaxFlow>(&config, 1000);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
