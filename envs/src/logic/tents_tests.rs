use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> TentsConfig {
    serde_json::from_str(Tents::LEVELS[level]).unwrap()
}

fn counts(n: usize, grid: &[u8]) -> (Vec<usize>, Vec<usize>) {
    let rows = (0..n)
        .map(|r| (0..n).filter(|&c| grid[r * n + c] == TENT).count())
        .collect();
    let cols = (0..n)
        .map(|c| (0..n).filter(|&r| grid[r * n + c] == TENT).count())
        .collect();
    (rows, cols)
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<Tents>(&config(level), 10);
    }
}

#[test]
fn the_solver_agrees_with_brute_force_on_small_grids() {
    let mut rng = Rng::from_seed(9);
    let n = 4;
    for _ in 0..40 {
        let mut trees = vec![EMPTY; n * n];
        for _ in 0..rng.range_usize(2, 4) {
            trees[rng.below(16) as usize] = TREE;
        }
        let free: Vec<usize> = (0..16).filter(|&c| trees[c] != TREE).collect();
        let rows: Vec<usize> = (0..n).map(|_| rng.range_usize(0, 2)).collect();
        let cols: Vec<usize> = (0..n).map(|_| rng.range_usize(0, 2)).collect();
        let mut brute = 0;
        let mut any = None;
        for mask in 0u32..1 << free.len() {
            let mut grid = trees.clone();
            for (i, &c) in free.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    grid[c] = TENT;
                }
            }
            if follows_rules(n, &grid, &rows, &cols) {
                brute += 1;
            }
            if any.is_none() && pairs_up(n, &grid) && grid.contains(&TENT) {
                any = Some(grid);
            }
        }
        assert_eq!(
            count_solutions(n, &trees, &rows, &cols, 100, u64::MAX),
            Some(brute)
        );
        // And on clues that some grid meets.
        if let Some(grid) = any {
            let (rows, cols) = counts(n, &grid);
            let brute = (0u32..1 << free.len())
                .filter(|mask| {
                    let mut g = trees.clone();
                    for (i, &c) in free.iter().enumerate() {
                        if mask >> i & 1 == 1 {
                            g[c] = TENT;
                        }
                    }
                    follows_rules(n, &g, &rows, &cols)
                })
                .count();
            assert_eq!(
                count_solutions(n, &trees, &rows, &cols, 100, u64::MAX),
                Some(brute)
            );
        }
    }
}

#[test]
fn rule_breaking_grids_fail_and_spellings_pass() {
    let task = Tents::generate(&config(3), &mut Rng::from_seed(2));
    let n = task.n;
    let reference = Tents::reference(&task);
    let spaced: String = reference
        .lines()
        .map(|l| {
            l.chars()
                .map(|c| {
                    if c == 'A' {
                        "^ "
                    } else if c == '0' {
                        "0 "
                    } else {
                        "T "
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(passes::<Tents>(&task, &spaced));
    let dotted = reference.replace('0', ".");
    assert!(passes::<Tents>(&task, &format!("\\boxed{{{dotted}}}.")));
    assert!(passes::<Tents>(&task, &reference.replace('\n', ", ")));
    // Move one tent to another empty cell, drop one, add one, move a tree.
    let tent = task.solution.iter().position(|&v| v == TENT).unwrap();
    let empty = task.solution.iter().position(|&v| v == EMPTY).unwrap();
    let tree = task.solution.iter().position(|&v| v == TREE).unwrap();
    let render = |g: &[u8]| {
        g.chunks(n)
            .map(|r| {
                r.iter()
                    .map(|&v| ['0', 'A', 'T'][v as usize])
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut moved = task.solution.clone();
    moved.swap(tent, empty);
    let mut dropped = task.solution.clone();
    dropped[tent] = EMPTY;
    let mut added = task.solution.clone();
    added[empty] = TENT;
    let mut tree_gone = task.solution.clone();
    tree_gone[tree] = EMPTY;
    for bad in [moved, dropped, added, tree_gone] {
        assert!(!passes::<Tents>(&task, &render(&bad)));
    }
    // Tents that touch diagonally, and a tree with two tents and one with
    // none, fail even where counts hold.
    let trees = [EMPTY, TREE, EMPTY, TREE, TENT, EMPTY, EMPTY, EMPTY, TENT];
    let grid = [EMPTY, TREE, TENT, TREE, TENT, EMPTY, EMPTY, EMPTY, EMPTY];
    let _ = trees;
    let (rows, cols) = counts(3, &grid);
    assert!(!follows_rules(3, &grid, &rows, &cols), "diagonal touch");
    let grid = [TENT, TREE, TENT, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, TREE];
    let (rows, cols) = counts(3, &grid);
    assert!(
        !follows_rules(3, &grid, &rows, &cols),
        "a tree without a tent"
    );
    let grid = [TENT, TREE, EMPTY, EMPTY, EMPTY, EMPTY, TREE, TENT, EMPTY];
    let (rows, cols) = counts(3, &grid);
    assert!(follows_rules(3, &grid, &rows, &cols));
    assert!(matches!(
        Tents::check(&task, "T?"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<Tents>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
