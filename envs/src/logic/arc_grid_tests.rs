use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn grid(rows: &[&str]) -> Grid {
    rows.iter()
        .map(|r| r.bytes().map(|b| b - b'0').collect())
        .collect()
}

#[test]
fn each_step_does_what_it_says() {
    let g = grid(&["120", "003"]);
    let cases = [
        (Transform::Rotate(1), vec!["01", "02", "30"]),
        (Transform::Rotate(2), vec!["300", "021"]),
        (Transform::Reflect(0), vec!["021", "300"]),
        (Transform::Reflect(1), vec!["003", "120"]),
        (Transform::Reflect(2), vec!["10", "20", "03"]),
        (Transform::Recolour(1, 3), vec!["320", "001"]),
        (Transform::Gravity(0), vec!["000", "123"]),
        (Transform::Gravity(3), vec!["012", "003"]),
        (Transform::Copy(1, 1), vec!["120", "013"]),
        (Transform::Symmetry(0), vec!["121", "303"]),
    ];
    for (t, want) in cases {
        assert_eq!(apply(&t, &g), grid(&want), "{t:?}");
    }
    let boxed = grid(&["11110", "10010", "11110", "00000"]);
    assert_eq!(
        apply(&Transform::FloodFill(7), &boxed),
        grid(&["11110", "17710", "11110", "00000"])
    );
    // Four quarter turns and two reflections are the identity.
    let r3 = apply(&Transform::Rotate(3), &apply(&Transform::Rotate(1), &g));
    assert_eq!(r3, g);
}

#[test]
fn generated_tasks_need_every_step_and_echoes_fail() {
    for (level, patch) in ArcGrid::LEVELS.iter().enumerate() {
        let config: ArcGridConfig = serde_json::from_str(patch).unwrap();
        ArcGrid::validate(&config).unwrap();
        let mut rng = Rng::from_seed(level as u64);
        for _ in 0..20 {
            let task = ArcGrid::generate(&config, &mut rng);
            assert_eq!(task.rule.len(), config.transforms);
            assert_eq!(apply_rule(&task.rule, &task.test_input), task.test_output);
            assert!(!ArcGrid::check(&task, &grid_text(&task.test_input)).unwrap());
            for (input, output) in &task.examples {
                assert_eq!(&apply_rule(&task.rule, input), output);
                assert!(!ArcGrid::check(&task, &grid_text(output)).unwrap());
            }
        }
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(ArcGrid::LEVELS[level]).unwrap();
        standard_answers::<ArcGrid>(&config, 20);
    }
}

#[test]
fn grids_are_read_in_every_common_layout() {
    let task = ArcGridTask {
        examples: vec![],
        test_input: grid(&["120", "003"]),
        test_output: grid(&["021", "300"]),
        rule: vec![Transform::Reflect(0)],
    };
    for good in [
        "021\n300",
        "0 2 1\n3 0 0",
        "021/300",
        "021, 300",
        "0,2,1\n3,0,0",
        "[[0,2,1],[3,0,0]]",
        "\\begin{bmatrix} 0 & 2 & 1 \\\\ 3 & 0 & 0 \\end{bmatrix}",
        "Row 1: 021\nRow 2: 300",
        "1. 021\n2. 300",
        "- 021\n- 300",
        "```\n021\n300\n```",
        "021\n300.",
    ] {
        assert!(ArcGrid::check(&task, good).unwrap(), "{good:?}");
        assert!(
            passes::<ArcGrid>(&task, &format!("\\boxed{{{good}}}")),
            "{good:?}"
        );
    }
    for wrong in ["021\n301", "120\n003", "021", "0210\n3000", "021\n300\n000"] {
        assert!(!ArcGrid::check(&task, wrong).unwrap(), "{wrong:?}");
    }
    for unreadable in ["", "021\n30", "abc", "021 or 120\n300", "0.2.1\n300"] {
        assert!(ArcGrid::check(&task, unreadable).is_err(), "{unreadable:?}");
    }
    for bad in ["\\boxed{021\n300} \\boxed{120\n003}", "021\n300\n021\n300"] {
        assert!(!passes::<ArcGrid>(&task, bad), "{bad:?}");
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(ArcGrid::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<ArcGrid>(&config, 500);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}

#[test]
fn out_of_range_configs_are_refused() {
    for patch in [
        r#"{"min_size":2}"#,
        r#"{"min_size":7,"max_size":6}"#,
        r#"{"transforms":4}"#,
        r#"{"colours":1}"#,
        r#"{"examples":1}"#,
    ] {
        let config: ArcGridConfig = serde_json::from_str(patch).unwrap();
        assert!(ArcGrid::validate(&config).is_err(), "{patch}");
    }
}
