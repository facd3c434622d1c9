use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

/// AAA [0,4), BBB [4,8), CCC [0,3), DDD [3,8), EEE [2,6): the most is two,
/// as AAA+BBB, CCC+DDD or CCC+BBB (AAA and DDD share 3..4).
fn small(weighted: bool) -> IntervalSchedulingTask {
    let names = ["AAA", "BBB", "CCC", "DDD", "EEE"]
        .map(String::from)
        .to_vec();
    let spans = vec![(0, 4), (4, 8), (0, 3), (3, 8), (2, 6)];
    let values = if weighted {
        vec![2, 2, 1, 4, 5]
    } else {
        vec![1; 5]
    };
    let (best, chosen) = solve(&spans, &values);
    IntervalSchedulingTask {
        names,
        spans,
        values,
        weighted,
        best,
        chosen,
    }
}

#[test]
fn the_solver_finds_the_optimum_a_brute_force_finds() {
    let mut rng = Rng::from_seed(11);
    for _ in 0..300 {
        let n = 2 + rng.below(9) as usize;
        let spans: Vec<(u64, u64)> = (0..n)
            .map(|_| {
                let start = rng.below(15);
                (start, start + 1 + rng.below(6))
            })
            .collect();
        let values: Vec<u64> = (0..n).map(|_| 1 + rng.below(9)).collect();
        let brute = (0u32..1 << n)
            .map(|mask| (0..n).filter(|i| mask >> i & 1 == 1).collect::<Vec<_>>())
            .filter(|set| disjoint(&spans, set))
            .map(|set| set.iter().map(|&i| values[i]).sum::<u64>())
            .max()
            .unwrap();
        let (best, chosen) = solve(&spans, &values);
        assert_eq!(best, brute);
        assert!(disjoint(&spans, &chosen));
        assert_eq!(chosen.iter().map(|&i| values[i]).sum::<u64>(), best);
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(IntervalScheduling::LEVELS[level]).unwrap();
        standard_answers::<IntervalScheduling>(&config, 30);
    }
}

#[test]
fn every_optimal_set_passes_and_others_fail() {
    let task = small(false);
    assert_eq!(task.best, 2);
    for good in [
        "AAA BBB",
        "CCC DDD",
        "CCC, BBB",
        "bbb + aaa",
        "\\boxed{CCC DDD}",
    ] {
        assert!(passes::<IntervalScheduling>(&task, good), "{good:?}");
    }
    for bad in [
        "AAA",
        "AAA DDD",
        "AAA EEE",
        "AAA BBB CCC",
        "AAA AAA",
        "AAA BBB BBB",
        "AAA BBB or CCC DDD",
        "\\boxed{AAA BBB} \\boxed{EEE}",
        "AAA XYZ",
        "2",
        "",
    ] {
        assert!(!passes::<IntervalScheduling>(&task, bad), "{bad:?}");
    }
}

#[test]
fn weighted_tasks_count_value_not_intervals() {
    let task = small(true);
    // CCC+DDD = 5 and EEE = 5 beat AAA+BBB = 4.
    assert_eq!(task.best, 5);
    assert!(IntervalScheduling::check(&task, "CCC DDD").unwrap());
    assert!(IntervalScheduling::check(&task, "EEE").unwrap());
    assert!(!IntervalScheduling::check(&task, "AAA BBB").unwrap());
}

#[test]
fn generated_tasks_beat_first_come_first_served() {
    let mut rng = Rng::from_seed(5);
    for level in IntervalScheduling::LEVELS {
        let config: IntervalSchedulingConfig = serde_json::from_str(level).unwrap();
        IntervalScheduling::validate(&config).unwrap();
        for _ in 0..20 {
            let task = IntervalScheduling::generate(&config, &mut rng);
            for name in &task.names {
                assert!(!IntervalScheduling::check(&task, name).unwrap());
            }
            assert!(!IntervalScheduling::check(&task, &task.names.join(" ")).unwrap());
            assert!(
                IntervalScheduling::check(&task, &IntervalScheduling::reference(&task)).unwrap()
            );
        }
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(IntervalScheduling::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<IntervalScheduling>(&config, 1000);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
