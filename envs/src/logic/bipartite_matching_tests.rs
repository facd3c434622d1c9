use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

/// Workers AAA, BBB, CCC; jobs XXX, YYY, ZZZ. AAA can do XXX and YYY, BBB
/// XXX, CCC YYY and ZZZ: the maximum is 3, only as AAA-YYY, BBB-XXX,
/// CCC-ZZZ; without CCC-ZZZ two matchings of size 2 and 3 exist.
fn chain() -> BipartiteMatchingTask {
    let mut task = BipartiteMatchingTask {
        workers: ["AAA", "BBB", "CCC"].map(String::from).to_vec(),
        jobs: ["XXX", "YYY", "ZZZ"].map(String::from).to_vec(),
        pairs: vec![(0, 0), (0, 1), (1, 0), (2, 1), (2, 2)],
        matching: Vec::new(),
    };
    task.matching = max_matching(3, 3, &task.pairs);
    task
}

/// The largest matching by trying every subset of pairs.
fn brute_force(task: &BipartiteMatchingTask) -> usize {
    let m = task.pairs.len();
    (0u32..1 << m)
        .map(|mask| (0..m).filter(|i| mask >> i & 1 == 1).collect::<Vec<_>>())
        .filter(|chosen| is_matching(task, chosen))
        .map(|chosen| chosen.len())
        .max()
        .unwrap_or(0)
}

#[test]
fn augmenting_paths_find_the_maximum_a_brute_force_finds() {
    let mut rng = Rng::from_seed(11);
    for _ in 0..200 {
        let (nw, nj) = (1 + rng.below(5) as usize, 1 + rng.below(5) as usize);
        let pairs: Vec<(usize, usize)> = (0..nw)
            .flat_map(|w| (0..nj).map(move |j| (w, j)))
            .filter(|_| rng.chance(0.35))
            .collect();
        if pairs.len() > 14 {
            continue;
        }
        let mut task = BipartiteMatchingTask {
            workers: draw_names(nw, &mut rng),
            jobs: draw_names(nj, &mut rng),
            pairs,
            matching: Vec::new(),
        };
        task.matching = max_matching(nw, nj, &task.pairs);
        assert!(is_matching(&task, &task.matching));
        assert_eq!(task.matching.len(), brute_force(&task));
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(BipartiteMatching::LEVELS[level]).unwrap();
        standard_answers::<BipartiteMatching>(&config, 30);
    }
}

#[test]
fn every_maximum_matching_passes_and_others_fail() {
    let task = chain();
    assert_eq!(task.matching.len(), 3);
    for good in [
        "AAA-YYY, BBB-XXX, CCC-ZZZ",
        "ccc-zzz; xxx-bbb; aaa-yyy",
        "(AAA, YYY), (BBB, XXX), (CCC, ZZZ)",
        "AAA: YYY\nBBB: XXX\nCCC: ZZZ",
        "AAA -> YYY, BBB -> XXX, CCC -> ZZZ",
        "So \\boxed{AAA-YYY, BBB-XXX, CCC-ZZZ}.",
    ] {
        assert!(passes::<BipartiteMatching>(&task, good), "{good:?}");
    }
    for bad in [
        "AAA-XXX, CCC-ZZZ",
        "AAA-YYY, BBB-XXX",
        "AAA-XXX, BBB-XXX, CCC-ZZZ",
        "AAA-YYY, BBB-XXX, CCC-ZZZ, AAA-YYY",
        "AAA-YYY, BBB-XXX, CCC-YYY",
        "AAA-ZZZ, BBB-XXX, CCC-YYY",
        "AAA-BBB, CCC-ZZZ",
        "AAA-YYY, BBB-XXX, CCC",
        "AAA-YYY, BBB-XXX, CCC-QQQ",
        "AAA-YYY, BBB-XXX, CCC-ZZZ or AAA-XXX, CCC-ZZZ",
        "\\boxed{AAA-YYY, BBB-XXX, CCC-ZZZ} \\boxed{AAA-XXX}",
        "3",
        "",
    ] {
        assert!(!passes::<BipartiteMatching>(&task, bad), "{bad:?}");
    }
}

#[test]
fn a_non_reference_maximum_matching_passes() {
    let mut task = chain();
    task.pairs.push((1, 2));
    task.matching = max_matching(3, 3, &task.pairs);
    assert_eq!(task.matching.len(), 3);
    for good in ["AAA-YYY, BBB-XXX, CCC-ZZZ", "AAA-XXX, BBB-ZZZ, CCC-YYY"] {
        assert!(BipartiteMatching::check(&task, good).unwrap(), "{good}");
    }
}

#[test]
fn generated_tasks_beat_the_greedy_and_one_pair() {
    let mut rng = Rng::from_seed(5);
    for level in BipartiteMatching::LEVELS {
        let config: BipartiteMatchingConfig = serde_json::from_str(level).unwrap();
        BipartiteMatching::validate(&config).unwrap();
        for _ in 0..10 {
            let task = BipartiteMatching::generate(&config, &mut rng);
            let (w, j) = task.pairs[0];
            let first = format!("{}-{}", task.workers[w], task.jobs[j]);
            assert!(!BipartiteMatching::check(&task, &first).unwrap());
            assert!(BipartiteMatching::check(&task, &BipartiteMatching::reference(&task)).unwrap());
        }
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(BipartiteMatching::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<BipartiteMatching>(&config, 1000);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
