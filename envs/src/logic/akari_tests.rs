use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> AkariConfig {
    serde_json::from_str(Akari::LEVELS[level]).unwrap()
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 2, 4] {
        standard_answers::<Akari>(&config(level), 8);
    }
}

#[test]
fn the_solver_agrees_with_brute_force() {
    let mut rng = Rng::from_seed(21);
    let n = 4;
    for _ in 0..60 {
        let cells: Vec<u8> = (0..16)
            .map(|_| match rng.range_usize(0, 9) {
                0 => PLAIN,
                1 => rng.range_usize(0, 2) as u8,
                _ => WHITE,
            })
            .collect();
        let brute = (0u32..1 << 16)
            .filter(|mask| {
                let lights: Vec<bool> = (0..16).map(|c| mask >> c & 1 == 1).collect();
                follows_rules(n, &cells, &lights)
            })
            .count();
        assert_eq!(
            count_solutions(n, &cells, 100_000, &mut u64::MAX.clone()),
            Some(brute)
        );
    }
}

#[test]
fn rule_breaking_lights_fail_and_spellings_pass() {
    let task = Akari::generate(&config(2), &mut Rng::from_seed(5));
    let n = task.n;
    let reference = Akari::reference(&task);
    assert!(passes::<Akari>(&task, &reference.replace('L', "*")));
    assert!(passes::<Akari>(&task, &reference.replace('\n', ", ")));
    let spaced: Vec<String> = reference
        .lines()
        .map(|l| l.chars().map(String::from).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(passes::<Akari>(&task, &spaced.join("\n")));
    let render = |lights: &[bool]| {
        let t = AkariTask {
            lights: lights.to_vec(),
            ..task.clone()
        };
        Akari::reference(&t)
    };
    let dark = (0..n * n)
        .find(|&c| task.cells[c] == WHITE && !task.lights[c])
        .unwrap();
    let light = (0..n * n).find(|&c| task.lights[c]).unwrap();
    let mut more = task.lights.clone();
    more[dark] = true;
    let mut fewer = task.lights.clone();
    fewer[light] = false;
    for bad in [more, fewer, vec![false; n * n]] {
        assert!(!passes::<Akari>(&task, &render(&bad)));
    }
    // Every white cell lit and no light where it may not be.
    let all: Vec<bool> = task.cells.iter().map(|&c| c == WHITE).collect();
    assert!(!passes::<Akari>(&task, &render(&all)));
    // A moved black cell fails.
    let mut moved = reference.clone().into_bytes();
    let at = moved.iter().position(|&b| b == b'.').unwrap();
    moved[at] = b'#';
    assert!(!passes::<Akari>(&task, &String::from_utf8(moved).unwrap()));
    // Two lights beside a 1 fail; beside a 2 they pass.
    let lights = [true, false, true, false, false, false, false, true, false];
    let mut cells = [WHITE, 1, WHITE, PLAIN, PLAIN, PLAIN, WHITE, WHITE, WHITE];
    assert!(!follows_rules(3, &cells, &lights));
    cells[1] = 2;
    assert!(follows_rules(3, &cells, &lights));
    assert!(matches!(
        Akari::check(&task, "1 2 ?"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 2] {
        let rate = cross_reference_rate::<Akari>(&config(level), 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
