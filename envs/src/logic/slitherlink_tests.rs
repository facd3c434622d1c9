use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> SlitherlinkConfig {
    serde_json::from_str(Slitherlink::LEVELS[level]).unwrap()
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<Slitherlink>(&config(level), 5);
    }
}

/// Loops by brute force: every set of inside cells whose outline is one
/// loop meeting the numbers.
fn brute_force(lattice: &Lattice, clues: &[u8]) -> usize {
    let cells = lattice.n * lattice.n;
    (1u32..1 << cells)
        .filter(|mask| {
            let inside: Vec<bool> = (0..cells).map(|c| mask >> c & 1 == 1).collect();
            let on = lattice.outline(&inside);
            lattice.single_loop(&on) && lattice.clues_hold(clues, &on)
        })
        .count()
}

#[test]
fn the_solver_agrees_with_brute_force() {
    let mut rng = Rng::from_seed(3);
    for (n, rounds) in [(3, 60), (4, 3)] {
        let lattice = Lattice::new(n);
        for _ in 0..rounds {
            let clues: Vec<u8> = (0..n * n)
                .map(|_| match rng.range_usize(0, 5) {
                    0..=2 => NO_CLUE,
                    k => rng.range_usize(0, k) as u8,
                })
                .collect();
            assert_eq!(
                count_solutions(&lattice, &clues, 100_000, &mut u64::MAX.clone()),
                Some(brute_force(&lattice, &clues)),
                "{clues:?}"
            );
        }
        // And on the numbers of a grown loop, some hidden.
        for _ in 0..rounds {
            let inside = Slitherlink::grow(&lattice, &mut rng);
            let on = lattice.outline(&inside);
            let clues: Vec<u8> = lattice
                .of_cell
                .iter()
                .map(|sides| {
                    if rng.chance(0.5) {
                        NO_CLUE
                    } else {
                        sides.iter().filter(|&&e| on[e]).count() as u8
                    }
                })
                .collect();
            let brute = brute_force(&lattice, &clues);
            assert!(brute >= 1);
            assert_eq!(
                count_solutions(&lattice, &clues, 100_000, &mut u64::MAX.clone()),
                Some(brute)
            );
            // Hiding a number loses nothing exactly when no loop of the
            // fewer numbers has another count there.
            if let Some(cell) = (0..n * n).find(|&c| clues[c] != NO_CLUE) {
                let mut fewer = clues.clone();
                fewer[cell] = NO_CLUE;
                let hidden = hides(&lattice, &fewer, cell, clues[cell], &mut u64::MAX.clone());
                assert_eq!(hidden, Some(brute_force(&lattice, &fewer) == brute));
            }
        }
    }
}

#[test]
fn broken_loops_fail_and_spellings_pass() {
    let task = Slitherlink::generate(&config(3), &mut Rng::from_seed(5));
    let n = task.n;
    let reference = Slitherlink::reference(&task);
    assert!(passes::<Slitherlink>(&task, &reference.replace('\n', ", ")));
    let spaced: Vec<String> = reference
        .lines()
        .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(passes::<Slitherlink>(&task, &spaced.join("\n")));
    assert!(passes::<Slitherlink>(&task, &format!("{reference}.")));
    let render = |inside: &[bool]| {
        Slitherlink::reference(&SlitherlinkTask {
            inside: inside.to_vec(),
            ..task.clone()
        })
    };
    // The outside instead of the inside, and every single flipped cell.
    let complement: Vec<bool> = task.inside.iter().map(|&x| !x).collect();
    assert!(!passes::<Slitherlink>(&task, &render(&complement)));
    for cell in 0..n * n {
        let mut flipped = task.inside.clone();
        flipped[cell] = !flipped[cell];
        assert!(!passes::<Slitherlink>(&task, &render(&flipped)));
    }
    for bad in ["1 2", "0110", &format!("{reference}\n0")] {
        assert!(matches!(
            Slitherlink::check(&task, bad),
            Err(CheckError::Unreadable(_))
        ));
    }
    // Two separate regions are two loops; a ring is two loops too.
    let lattice = Lattice::new(3);
    let two = [true, false, true, false, false, false, false, false, false];
    let ring = [true, true, true, true, false, true, true, true, true];
    let one = [true, true, false, true, false, false, false, false, false];
    for (inside, single) in [(two, false), (ring, false), (one, true)] {
        assert_eq!(lattice.single_loop(&lattice.outline(&inside)), single);
    }
    // Cells touching at a corner only: the loop would touch itself.
    let corner = [true, false, false, false, true, false, false, false, false];
    assert!(!lattice.single_loop(&lattice.outline(&corner)));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<Slitherlink>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
