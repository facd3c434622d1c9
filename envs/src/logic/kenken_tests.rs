use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> KenKenConfig {
    serde_json::from_str(KenKen::LEVELS[level]).unwrap()
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<KenKen>(&config(level), 6);
    }
}

/// Every latin square of order `n`, row by row, plainly.
fn all_latin(n: usize, grid: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    let cell = grid.len();
    if cell == n * n {
        out.push(grid.clone());
        return;
    }
    for v in 1..=n as u8 {
        let (r, c) = (cell / n, cell % n);
        if (0..c).any(|i| grid[r * n + i] == v) || (0..r).any(|i| grid[i * n + c] == v) {
            continue;
        }
        grid.push(v);
        all_latin(n, grid, out);
        grid.pop();
    }
}

#[test]
fn the_solver_agrees_with_brute_force() {
    let n = 4;
    let mut squares = Vec::new();
    all_latin(n, &mut Vec::new(), &mut squares);
    assert_eq!(squares.len(), 576);
    let mut rng = Rng::from_seed(8);
    let mut unique = 0;
    for _ in 0..40 {
        let max_cage = rng.range_usize(2, 4);
        let solution = squares[rng.range_usize(0, 575)].clone();
        let cages: Vec<Cage> = KenKen::carve(n, max_cage, &mut rng)
            .into_iter()
            .map(|cells| {
                let values: Vec<u8> = cells.iter().map(|&c| solution[c]).collect();
                let (op, target) = KenKen::operation(&values, &mut rng);
                Cage { cells, op, target }
            })
            .collect();
        let brute = squares
            .iter()
            .filter(|g| follows_rules(n, &cages, g))
            .count();
        assert!(brute >= 1);
        unique += usize::from(brute == 1);
        assert_eq!(
            count_solutions(n, &cages, 1000, &mut u64::MAX.clone()),
            Some(brute)
        );
    }
    assert!(unique > 0);
}

#[test]
fn other_latin_squares_and_broken_grids_fail_and_spellings_pass() {
    let task = KenKen::generate(&config(3), &mut Rng::from_seed(5));
    let n = task.n;
    let reference = KenKen::reference(&task);
    assert!(passes::<KenKen>(&task, &reference.replace(' ', "")));
    assert!(passes::<KenKen>(&task, &reference.replace('\n', ", ")));
    assert!(passes::<KenKen>(
        &task,
        &format!("\\boxed{{{}}}", reference.replace('\n', " | "))
    ));
    // Swapped rows: still a latin square, and another one fails (unique).
    let mut swapped = task.solution.clone();
    for c in 0..n {
        swapped.swap(c, n + c);
    }
    let render = |g: &[u8]| {
        KenKen::reference(&KenKenTask {
            solution: g.to_vec(),
            ..task.clone()
        })
    };
    assert!(is_latin_square(&swapped, n));
    assert!(!passes::<KenKen>(&task, &render(&swapped)));
    let mut relabelled = task.solution.clone();
    relabelled.iter_mut().for_each(|v| *v = *v % n as u8 + 1);
    assert!(!passes::<KenKen>(&task, &render(&relabelled)));
    let mut broken = task.solution.clone();
    broken[0] = broken[1];
    assert!(!passes::<KenKen>(&task, &render(&broken)));
    for bad in ["1 2 ?", "1 2 3", &format!("{reference} 9")] {
        assert!(matches!(
            KenKen::check(&task, bad),
            Err(CheckError::Unreadable(_))
        ));
    }
    // The operations read as stated.
    assert!(meets(Op::Sub, 2, &[1, 3]) && meets(Op::Sub, 2, &[3, 1]));
    assert!(meets(Op::Div, 3, &[6, 2]) && !meets(Op::Div, 2, &[3, 2]));
    assert!(meets(Op::Mul, 24, &[2, 3, 4]) && !meets(Op::Add, 8, &[2, 3, 4]));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<KenKen>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
