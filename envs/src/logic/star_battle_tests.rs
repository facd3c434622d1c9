use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> StarBattleConfig {
    serde_json::from_str(StarBattle::LEVELS[level]).unwrap()
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<StarBattle>(&config(level), 6);
    }
}

#[test]
fn the_solver_agrees_with_brute_force() {
    let mut rng = Rng::from_seed(12);
    let n = 6;
    let perms = permutations(n);
    for _ in 0..30 {
        // Random regions: every cell a random region, each region used.
        let mut regions: Vec<usize> = (0..n * n).map(|_| rng.below(n as u64) as usize).collect();
        for g in 0..n {
            regions[g * n + rng.below(n as u64) as usize] = g;
        }
        let brute = perms
            .iter()
            .filter(|p| {
                let grid: Vec<u8> = (0..n * n)
                    .map(|cell| u8::from(p[cell / n] == cell % n))
                    .collect();
                follows_rules(n, &regions, &grid)
            })
            .count();
        assert_eq!(
            count_solutions(n, &regions, &vec![None; n], 1000, u64::MAX),
            Some(brute)
        );
    }
}

#[test]
fn rule_breaking_grids_fail() {
    let task = StarBattle::generate(&config(3), &mut Rng::from_seed(4));
    let n = task.n;
    let render = |stars: &[usize]| {
        stars
            .iter()
            .map(|&c| {
                (0..n)
                    .map(|x| if x == c { '1' } else { '0' })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(passes::<StarBattle>(&task, &render(&task.stars)));
    // Swapping two rows' stars keeps rows and columns but breaks a region
    // or adjacency (the solution is unique).
    let mut swapped = task.stars.clone();
    swapped.swap(0, n - 1);
    assert!(!passes::<StarBattle>(&task, &render(&swapped)));
    let mut two = task.stars.clone();
    two[1] = two[0];
    assert!(!passes::<StarBattle>(&task, &render(&two)));
    assert!(!passes::<StarBattle>(&task, &"0".repeat(n * n)));
    // Adjacent stars fail even where rows, columns and regions hold.
    let regions: Vec<usize> = (0..49).map(|c| c % 7).collect();
    let mut grid = vec![0u8; 49];
    for (r, c) in [0usize, 1, 3, 5, 2, 4, 6].iter().enumerate() {
        grid[r * 7 + c] = 1;
    }
    assert!(!follows_rules(7, &regions, &grid));
    assert!(matches!(
        StarBattle::check(&task, "0 1 x"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn givens_are_kept() {
    let task = StarBattle::generate(&config(0), &mut Rng::from_seed(1));
    assert_eq!(task.given_rows.len(), 3);
    assert!(StarBattle::prompt(&task).contains("hold stars already"));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<StarBattle>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
