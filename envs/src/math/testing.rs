//! Table-driven checks every math env's tests call, and a sample printer.

use super::common::{Family, MathTask, check, generate_with, prompt_of};
use crate::rng::{Rng, mix_seed};

/// Generates `n` tasks of `F` with `config`: each reference passes, the
/// reference of task i fails on task i+1 (below 1%), and returns the tasks.
pub fn references_hold<F: Family>(config: &F::Config, n: usize) -> Vec<MathTask> {
    let tasks: Vec<MathTask> = (0..n as u64)
        .map(|i| generate_with::<F>(config, &mut Rng::from_seed(mix_seed(77, i))))
        .collect();
    let mut crossed = 0;
    for (i, task) in tasks.iter().enumerate() {
        let own = format!("\\boxed{{{}}}", task.answer);
        assert!(check(task, &own).0, "reference fails: {task:?}");
        let next = &tasks[(i + 1) % n];
        crossed += usize::from(check(next, &own).0);
    }
    assert!(
        crossed * 100 < n,
        "{crossed} of {n} tasks pass another task's reference"
    );
    tasks
}

/// Answers every generic attack must fail on `task`.
pub fn attacks_fail(task: &MathTask) {
    let right = format!("\\boxed{{{}}}", task.answer);
    for bad in [
        String::new(),
        "   ".into(),
        task.answer.clone(),
        "\\boxed{}".into(),
        "\\boxed{0}".into(),
        prompt_of(task),
        format!("\\boxed{{{}}}", task.question),
        format!("{right} or \\boxed{{12345}}"),
        format!("{right} \\boxed{{12345}}"),
        serde_json::to_string(task).unwrap(),
    ] {
        assert!(!check(task, &bad).0, "{bad:?} passed on {task:?}");
    }
    assert!(check(task, &format!("Thinking... so {right}.")).0);
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
