use super::*;
use crate::math::question::check;
use crate::math::testing;

#[test]
fn references_verify_and_do_not_transfer() {
    for preset in DiophantineFamily::SPEC.presets {
        let config: DiophantineConfig = serde_json::from_str(preset.overrides).unwrap();
        let tasks = testing::references_hold::<DiophantineFamily>(&config, 1000);
        for kind in [Form::Number, Form::Tuple, Form::Pairs] {
            let task = tasks.iter().find(|t| t.form == kind).unwrap();
            testing::attacks_fail::<DiophantineFamily>(task);
        }
    }
}

#[test]
fn the_solvers_agree_with_brute_force() {
    let mut rng = Rng::from_seed(3);
    for _ in 0..3000 {
        let a = i128::from(rng.range_i64(-9, 9));
        let b = i128::from(rng.range_i64(-9, 9));
        if a == 0 || b == 0 {
            continue;
        }
        let c = i128::from(rng.range_i64(-40, 40));
        let bx = [
            i128::from(rng.range_i64(-15, 0)),
            i128::from(rng.range_i64(0, 15)),
            i128::from(rng.range_i64(-15, 0)),
            i128::from(rng.range_i64(0, 15)),
        ];
        let brute: Vec<(i128, i128)> = (bx[0]..=bx[1])
            .flat_map(|x| (bx[2]..=bx[3]).map(move |y| (x, y)))
            .filter(|&(x, y)| a * x + b * y == c)
            .collect();
        assert_eq!(solutions_in(a, b, c, bx), brute, "{a} {b} {c} {bx:?}");
        assert_eq!(count_in(a, b, c, bx), brute.len() as i128);
        let least = (1..=200).find_map(|x| ((c - a * x) % b == 0).then(|| (x, (c - a * x) / b)));
        assert_eq!(least_positive_x(a, b, c), least, "{a} {b} {c}");
    }
}

fn pairs_task() -> MathTask {
    // 3x + 5y = 30: (0, 6), (5, 3), (10, 0)
    MathTask {
        question: "Consider $3x + 5y = 30$. Find all non-negative solutions.".into(),
        answer: "\\{(0, 6), (5, 3), (10, 0)\\}".into(),
        form: Form::Pairs,
    }
}

#[test]
fn a_set_of_pairs_is_checked_as_a_set() {
    let task = pairs_task();
    for good in [
        "\\boxed{\\{(0, 6), (5, 3), (10, 0)\\}}",
        "\\boxed{\\{(10,0),(0,6),(5,3)\\}}",
        "\\boxed{(5, 3), (0, 6), (10, 0)}",
    ] {
        assert!(check(&task, good).0, "{good}");
    }
    for bad in [
        // one missing, one extra, a repeated pair, a wrong pair, two boxes
        "\\boxed{\\{(0, 6), (5, 3)\\}}",
        "\\boxed{\\{(0, 6), (5, 3), (10, 0), (15, -3)\\}}",
        "\\boxed{\\{(0, 6), (5, 3), (10, 0), (5, 3)\\}}",
        "\\boxed{\\{(0, 6), (3, 5), (10, 0)\\}}",
        "\\boxed{\\{(0, 6), (5, 3), (10, 0)\\}} \\boxed{\\{(0, 6)\\}}",
        "\\boxed{\\{(0, 6), (5, 3), (10, 0)\\} \\text{ or } \\{(0,6)\\}}",
        "\\boxed{3x + 5y = 30}",
    ] {
        assert!(!check(&task, bad).0, "{bad}");
    }
}

#[test]
fn the_least_solution_is_the_only_pair_that_passes() {
    // 4x + 6y = 10: x = 1 + 3k, least positive x = 1, y = 1
    let task = MathTask {
        question: "Consider $4x + 6y = 10$. The least positive x.".into(),
        answer: "(1, 1)".into(),
        form: Form::Tuple,
    };
    assert_eq!(least_positive_x(4, 6, 10), Some((1, 1)));
    assert!(check(&task, "\\boxed{(1, 1)}").0);
    for bad in ["\\boxed{(4, -1)}", "\\boxed{(1, 1), (4, -1)}", "\\boxed{1}"] {
        assert!(!check(&task, bad).0, "{bad}");
    }
}
