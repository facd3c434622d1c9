//! Table-driven checks every math env's tests call (on the single-turn test
//! kit), and a sample printer.

use super::question::{Family, MathQuestion, MathTask, acceptable, acceptable_for, prompt_of};
use crate::single_turn::boxed;
use crate::single_turn::testing::{passes, references_pass_and_degenerate_fail, task};

/// Generates `n` tasks of `F` with `config`: each reference passes, the
/// reference of task i fails on task i+1 (below 1%), and returns the tasks.
pub fn references_hold<F: Family>(config: &F::Config, n: usize) -> Vec<MathTask> {
    let tasks: Vec<MathTask> = (0..n as u64)
        .map(|i| task::<MathQuestion<F>>(config, 77, i))
        .collect();
    let mut crossed = 0;
    for (i, task) in tasks.iter().enumerate() {
        let own = boxed(&task.answer);
        assert!(
            passes::<MathQuestion<F>>(task, &own),
            "reference fails: {task:?}"
        );
        let next = &tasks[(i + 1) % n];
        crossed += usize::from(passes::<MathQuestion<F>>(next, &own));
    }
    assert!(
        crossed * 100 < n,
        "{crossed} of {n} tasks pass another task's reference"
    );
    tasks
}

/// Answers every generic attack must fail on `task`: the kit's degenerate
/// answers and prompt (the reference must pass boxed, after reasoning and in
/// prose), plus the math ones: the bare answer (a box is required), the
/// boxed question, hedges with a second box, the task's JSON.
pub fn attacks_fail<F: Family>(task: &MathTask) {
    references_pass_and_degenerate_fail::<MathQuestion<F>>(task, false);
    let right = boxed(&task.answer);
    for bad in [
        "   ".into(),
        task.answer.clone(),
        prompt_of(task),
        boxed(&task.question),
        format!("{right} or \\boxed{{12345}}"),
        format!("{right} \\boxed{{12345}}"),
        serde_json::to_string(task).unwrap(),
    ] {
        assert!(
            !passes::<MathQuestion<F>>(task, &bad),
            "{bad:?} passed on {task:?}"
        );
    }
}

/// For a family with [`Family::CANONICAL_ANSWERS`]: over `draws` draws at
/// each of its levels, the text rule refuses exactly the draws the full check
/// (the reference read through the whole verifier) refuses, so skipping the
/// full check at generation changes no task.
pub fn canonical_answers_agree<F: Family>(draws: u64) {
    assert!(F::CANONICAL_ANSWERS, "{} reads its answers", F::SPEC.id);
    for level in F::LEVELS {
        let config: F::Config = serde_json::from_str(level).unwrap();
        let mut rng = crate::rng::Rng::from_seed(91);
        for _ in 0..draws {
            let Some(task) = F::draw(&config, &mut rng) else {
                continue;
            };
            assert_eq!(
                acceptable_for::<F>(&task),
                acceptable(&task),
                "{level}: the text rule and the full check disagree on {task:?}"
            );
        }
    }
}

/// `cargo test -p verigym-envs print_math_samples -- --ignored --nocapture`
/// prints one card per math preset, to read.
#[test]
#[ignore]
fn print_math_samples() {
    let registry = crate::registry::Registry::builtin();
    for entry in registry
        .entries()
        .iter()
        .filter(|e| e.spec.family() == "math")
    {
        for preset in entry.spec.presets {
            let id = format!("{}@{}", entry.spec.id, preset.name);
            let card = registry.make(&id, None).unwrap().generate(3);
            println!("== {id}\n{}\n-> {}\n", card.prompt, card.reference.unwrap());
        }
    }
}
