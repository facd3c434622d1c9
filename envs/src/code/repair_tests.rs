use super::*;
use crate::answers::{Role, degenerate_answers};
use crate::single_turn::testing::passes;

fn config(level: usize) -> RepairConfig {
    serde_json::from_str(RepairQuestion::LEVELS[level]).unwrap()
}

/// Tasks of the easiest, default and hardest levels, from a fixed seed.
fn tasks(per_level: u64) -> Vec<RepairTask> {
    let mut rng = Rng::from_seed(5);
    [0, 3, 6]
        .into_iter()
        .flat_map(|level| {
            let config = config(level);
            RepairQuestion::validate(&config).unwrap();
            (0..per_level)
                .map(|_| RepairQuestion::generate(&config, &mut rng))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn fenced(code: &str) -> String {
    format!("Here is the fix:\n```python\n{code}```\n")
}

/// The buggy program on the hidden tests: how many it fails.
fn failures(task: &RepairTask, code: &str) -> usize {
    let f = &task.function;
    let cases: Vec<Value> = f.tests.iter().map(|t| t.args.clone()).collect();
    let report = python()
        .unwrap()
        .run_cases(code, &f.entry, &cases, &default_limits())
        .unwrap();
    report
        .outcomes
        .iter()
        .zip(&f.tests)
        .filter(|(o, t)| !matches!(o, CaseOutcome::Returned(v) if compare_outputs(&t.expected, v, 1e-9)))
        .count()
}

#[test]
fn the_fix_passes_and_the_bug_fails_with_the_shown_test_among_the_hidden_ones() {
    for task in tasks(4) {
        assert!(passes::<RepairQuestion>(
            &task,
            &fenced(&task.function.reference)
        ));
        assert!(task.function.examples.is_empty());
        assert!(task.function.tests.contains(&task.failing));
        assert!(failures(&task, &task.buggy) >= MIN_FAILED, "{}", task.buggy);
        assert_ne!(task.buggy, task.function.reference);
        let prompt = RepairQuestion::prompt(&task);
        assert!(prompt.contains(&task.buggy), "{prompt}");
        assert!(!prompt.contains(&task.function.reference), "{prompt}");
        assert!(prompt.contains(&task.buggy_does), "{prompt}");
    }
}

/// Reward hacks: the buggy program unchanged (bare or fenced), the buggy
/// program with the shown failing input special-cased, degenerate answers,
/// the prompt, another task's fix and the harness hacks all score 0.
#[test]
fn the_bug_patched_on_the_shown_test_and_other_hacks_fail() {
    let all = tasks(3);
    for (i, task) in all.iter().enumerate() {
        let entry = &task.function.entry;
        let fails = |reply: &str| assert!(!passes::<RepairQuestion>(task, reply), "{reply} passed");
        fails(&task.buggy);
        fails(&fenced(&task.buggy));
        let patched = format!(
            "{}\n_buggy = {entry}\n\ndef {entry}(*args):\n    if list(args) == {}:\n        \
             return {}\n    return _buggy(*args)\n",
            task.buggy,
            py_literal(&task.failing.args),
            py_literal(&task.failing.expected)
        );
        assert!(failures(task, &patched) < failures(task, &task.buggy));
        fails(&fenced(&patched));
        degenerate_answers(Role::Checker).for_each(&fails);
        fails(&RepairQuestion::prompt(task));
        let other = &all[(i + 1) % all.len()];
        if other.function.reference != task.function.reference {
            fails(&fenced(&other.function.reference));
        }
    }
    let task = &all[0];
    for (name, src) in crate::code::hacks::HACKS {
        let reply = fenced(&src.replace("ENTRY", &task.function.entry));
        assert!(!passes::<RepairQuestion>(task, &reply), "{name} passed");
    }
}

/// Any correct fix passes, whatever its text: the reference renamed and
/// wrapped, with comments and blank lines added.
#[test]
fn a_differently_written_fix_passes() {
    for task in tasks(2) {
        let entry = &task.function.entry;
        let inner = task
            .function
            .reference
            .replacen(&format!("def {entry}("), "def _fixed(", 1);
        let other = format!("# fixed\n{inner}\n\ndef {entry}(*args):\n    return _fixed(*args)\n");
        assert_ne!(other, task.function.reference);
        assert!(passes::<RepairQuestion>(&task, &fenced(&other)), "{other}");
    }
}

#[test]
fn tasks_differ_and_references_rarely_cross() {
    let all = tasks(6);
    let mut crossed = 0;
    for pair in all.windows(2) {
        if pair[0].function.reference != pair[1].function.reference
            && passes::<RepairQuestion>(&pair[0], &fenced(&pair[1].function.reference))
        {
            crossed += 1;
        }
    }
    assert_eq!(crossed, 0);
    let bugs: std::collections::BTreeSet<&str> = all.iter().map(|t| t.buggy.as_str()).collect();
    assert_eq!(bugs.len(), all.len());
}

#[test]
fn validate_names_the_field() {
    for (bad, field) in [
        (r#"{"level":0}"#, "level"),
        (r#"{"level":4}"#, "level"),
        (r#"{"hidden_tests":4}"#, "hidden_tests"),
        (r#"{"hidden_tests":101}"#, "hidden_tests"),
        (r#"{"families":["nope"]}"#, "families"),
    ] {
        let config: RepairConfig = serde_json::from_str(bad).unwrap();
        let err = RepairQuestion::validate(&config).unwrap_err().to_string();
        assert!(err.contains(field), "{bad}: {err}");
    }
}
