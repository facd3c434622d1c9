//! Tests of rush hour: hand-made lots, the reference, optimality, hacks.

use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};
use proptest::prelude::{ProptestConfig, any, prop_assert_eq, proptest};

fn presets() -> Vec<RushHourConfig> {
    vec![
        RushHourConfig {
            cars: 6,
            min_moves: 3,
            ..Default::default()
        },
        RushHourConfig::default(),
        RushHourConfig {
            cars: 12,
            min_moves: 14,
            ..Default::default()
        },
    ]
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for config in presets() {
        standard_answers::<RushHour>(&config, 8);
    }
}

/// A lot by hand: X in row 2 at column 0; a vertical truck A at column 3
/// rows 0-2 blocks it; A can only go down (3 cells free below).
fn hand_task() -> RushHourTask {
    let vehicles = vec![
        Vehicle {
            letter: 'X',
            horizontal: true,
            length: 2,
            line: 2,
        },
        Vehicle {
            letter: 'A',
            horizontal: false,
            length: 3,
            line: 3,
        },
    ];
    RushHourTask {
        size: 6,
        vehicles,
        start: vec![0, 0],
        optimal_moves: 2,
        solution: vec![
            Move {
                vehicle: 1,
                delta: 3,
            },
            Move {
                vehicle: 0,
                delta: 4,
            },
        ],
    }
}

#[test]
fn moves_are_simulated_and_must_be_shortest() {
    let task = hand_task();
    assert_eq!(RushHour::reference(&task), "A D 3\nX R 4");
    for good in ["A D 3\nX R 4", "a down 3, x right 4", "AD3; XR4"] {
        assert!(passes::<RushHour>(&task, good), "{good:?}");
    }
    for bad in [
        "X R 4",               // through A
        "A D 2\nX R 4",        // A still blocks row 2
        "A D 4\nX R 4",        // off the lot
        "A D 3\nX R 3",        // not at the exit
        "A D 3\nX R 2\nX R 2", // legal but not shortest
        "A R 3\nX R 4",        // A is vertical
        "B D 1\nX R 4",        // no such vehicle
        "A D 3\nX R 4\nX L 1",
        "A D 3 X R 4",
    ] {
        assert!(!passes::<RushHour>(&task, bad), "{bad:?}");
    }
}

#[test]
fn another_tasks_reference_rarely_passes() {
    for config in presets() {
        let rate = cross_reference_rate::<RushHour>(&config, 300);
        assert!(rate < 0.01, "{config:?}: {rate}");
    }
}

/// Plain breadth-first search from the start over packed positions, one
/// cell per step counted by moves: independent of the generator's
/// two-search construction.
fn shortest_by_plain_search(task: &RushHourTask) -> usize {
    let mut frontier = vec![task.start.clone()];
    let mut seen = std::collections::HashSet::from([task.start.clone()]);
    for depth in 0.. {
        if frontier.iter().any(|p| is_goal(task.size, p)) {
            return depth;
        }
        let mut next_frontier = Vec::new();
        for p in &frontier {
            for vehicle in 0..task.vehicles.len() {
                for delta in (-6i8..=6).filter(|&d| d != 0) {
                    let mut q = p.clone();
                    if try_move(task.size, &task.vehicles, &mut q, Move { vehicle, delta })
                        && seen.insert(q.clone())
                    {
                        next_frontier.push(q);
                    }
                }
            }
        }
        assert!(!next_frontier.is_empty(), "goal unreachable");
        frontier = next_frontier;
    }
    unreachable!()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn the_stated_optimum_is_the_shortest_solution(seed in any::<u64>(), cars in 3usize..=10) {
        let config = RushHourConfig { cars, min_moves: 2, ..Default::default() };
        let task = RushHour::generate(&config, &mut Rng::from_seed(seed));
        prop_assert_eq!(shortest_by_plain_search(&task), task.optimal_moves);
        prop_assert_eq!(task.solution.len(), task.optimal_moves);
    }
}

/// Every level finds each seed's task within a tenth of the budget (the
/// task an unbounded search finds), and a config whose tasks are very rare,
/// `min_moves: 30` (seed 0 has none within the budget; seed 1 finds one),
/// gives up within the whole budget with a message naming the field (it
/// used to search for half a minute).
#[test]
fn every_level_finds_its_tasks_within_a_tenth_of_the_budget_and_an_infeasible_config_gives_up() {
    use super::generate::{MAX_WORK, generate_within};
    for level in RushHour::LEVELS {
        let mut config = serde_json::to_value(RushHourConfig::default()).unwrap();
        let patch: serde_json::Value = serde_json::from_str(level).unwrap();
        for (k, v) in patch.as_object().unwrap() {
            config[k] = v.clone();
        }
        let config: RushHourConfig = serde_json::from_value(config).unwrap();
        for seed in 0..10 {
            let budgeted = generate_within(&config, &mut Rng::from_seed(seed), MAX_WORK / 10)
                .unwrap_or_else(|e| panic!("{level} seed {seed}: {e}"));
            let unbounded =
                generate_within(&config, &mut Rng::from_seed(seed), usize::MAX).unwrap();
            assert_eq!(
                serde_json::to_value(&budgeted).unwrap(),
                serde_json::to_value(&unbounded).unwrap()
            );
        }
    }
    let infeasible = RushHourConfig {
        min_moves: 30,
        ..Default::default()
    };
    let error = RushHour::try_generate(&infeasible, &mut Rng::from_seed(0)).unwrap_err();
    assert!(error.to_string().contains("min_moves"), "{error}");
}
