use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> HitoriConfig {
    serde_json::from_str(Hitori::LEVELS[level]).unwrap()
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 2, 4] {
        standard_answers::<Hitori>(&config(level), 8);
    }
}

#[test]
fn the_solver_agrees_with_brute_force() {
    let mut rng = Rng::from_seed(21);
    let n = 4;
    for _ in 0..40 {
        let numbers: Vec<u8> = (0..16).map(|_| rng.range_usize(1, 4) as u8).collect();
        let brute = (0u32..1 << 16)
            .filter(|mask| {
                let shaded: Vec<bool> = (0..16).map(|c| mask >> c & 1 == 1).collect();
                follows_rules(n, &numbers, &shaded)
            })
            .count();
        assert_eq!(
            count_solutions(n, &numbers, 100_000, &mut u64::MAX.clone()),
            Some(brute)
        );
    }
}

#[test]
fn rule_breaking_shadings_fail_and_spellings_pass() {
    let task = Hitori::generate(&config(2), &mut Rng::from_seed(5));
    let n = task.n;
    let reference = Hitori::reference(&task);
    assert!(passes::<Hitori>(
        &task,
        &reference.replace('X', "#").replace(' ', "")
    ));
    assert!(passes::<Hitori>(&task, &reference.replace('\n', ", ")));
    let render = |shaded: &[bool], numbers: &[u8]| {
        (0..n)
            .map(|r| {
                (r * n..r * n + n)
                    .map(|c| {
                        if shaded[c] {
                            "X".to_string()
                        } else {
                            numbers[c].to_string()
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let open = (0..n * n).find(|&c| !task.shaded[c]).unwrap();
    let dark = (0..n * n).find(|&c| task.shaded[c]).unwrap();
    let mut more = task.shaded.clone();
    more[open] = true;
    let mut fewer = task.shaded.clone();
    fewer[dark] = false;
    for bad in [more, fewer, vec![false; n * n]] {
        assert!(!passes::<Hitori>(&task, &render(&bad, &task.numbers)));
    }
    // A changed number on an open cell fails.
    let mut numbers = task.numbers.clone();
    numbers[open] = numbers[open] % n as u8 + 1;
    assert!(!passes::<Hitori>(&task, &render(&task.shaded, &numbers)));
    // Adjacent shading and a cut-off corner fail.
    let nums = [1, 1, 2, 3, 2, 3, 1, 4, 3, 4, 4, 1, 4, 2, 3, 2];
    let mut shaded = vec![false; 16];
    shaded[0] = true;
    shaded[1] = true;
    assert!(!follows_rules(4, &nums, &shaded));
    let mut corner = vec![false; 16];
    corner[1] = true;
    corner[4] = true;
    assert!(!follows_rules(4, &nums, &corner));
    assert!(matches!(
        Hitori::check(&task, "1 2 ?"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 2] {
        let rate = cross_reference_rate::<Hitori>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
