use serde_json::json;

use super::calls::call_text;
use super::vfs_shell::fs::{self, Tree};
use super::vfs_shell::{VfsShell, VfsShellTask};
use super::{answers_match, infeasible_answer, infeasible_evidence, infeasible_matches, screen};

fn task(expected_changes: bool, answer: &str) -> VfsShellTask {
    let mut initial = Tree::new();
    fs::mkdir(&mut initial, "/a").unwrap();
    fs::write(&mut initial, "/a/x.txt", "x").unwrap();
    let mut expected = initial.clone();
    if expected_changes {
        fs::rm(&mut expected, "/a/x.txt", false).unwrap();
    }
    VfsShellTask {
        instruction: "t".into(),
        initial,
        expected,
        answer: answer.into(),
        feasible: true,
    }
}

#[test]
fn the_screen_rejects_tasks_that_degenerate_scripts_solve() {
    // A real chore with a non-constant answer passes the screen.
    assert!(screen::<VfsShell>(&task(true, "17"), &[]));
    // Nothing to do and a constant answer: answering at once solves it.
    assert!(!screen::<VfsShell>(&task(false, "0"), &[]));
    assert!(!screen::<VfsShell>(&task(false, "done"), &[]));
    // Deleting everything solves a task whose expected tree is empty.
    let mut wipe = task(true, "17");
    wipe.expected.clear();
    let rm_all = vec![
        call_text("rm", json!({"path": "/", "recursive": true})),
        call_text("answer", json!({"answer": "17"})),
    ];
    assert!(!screen::<VfsShell>(&wipe, &[rm_all]));
    // An infeasible task passes with its evidence; a bare `infeasible`
    // verdict would pass any infeasible task, so such a task is rejected.
    assert!(screen::<VfsShell>(
        &task(false, &infeasible_answer("INV-4790")),
        &[]
    ));
    assert!(!screen::<VfsShell>(&task(false, "infeasible"), &[]));
}

#[test]
fn answers_match_after_light_normalisation_only() {
    for (given, expected) in [
        ("1,234", "1234"),
        ("$1234", "1234"),
        ("1234.0", "1234"),
        (" Fenwy. ", "fenwy"),
        ("INFEASIBLE: inv-4790.", "infeasible: INV-4790"),
        ("infeasible : INV 4790", "infeasible: INV-4790"),
        ("Infeasible: Budget, Pricing", "infeasible: budget, pricing"),
    ] {
        assert!(answers_match(given, expected), "{given:?} vs {expected:?}");
    }
    for (given, expected) in [
        ("3 or 4", "3"),
        ("12345", "1234"),
        ("about 1234", "1234"),
        ("", "0"),
        ("1234, 1235", "1234"),
        // Infeasible verdicts need the task's exact evidence.
        ("infeasible", "infeasible: INV-4790"),
        ("infeasible:", "infeasible: INV-4790"),
        ("infeasible INV-4790", "infeasible: INV-4790"),
        ("infeasible: INV-4791", "infeasible: INV-4790"),
        ("infeasible: INV-4790 or INV-4791", "infeasible: INV-4790"),
        ("infeasible: INV-4790, INV-4791", "infeasible: INV-4790"),
        (
            "infeasible: INV-4790 or infeasible: INV-4791",
            "infeasible: INV-4790",
        ),
        ("infeasible: budget", "infeasible: budget, pricing"),
        ("INV-4790", "infeasible: INV-4790"),
        ("infeasible: INV-4790", "4790"),
    ] {
        assert!(!answers_match(given, expected), "{given:?} vs {expected:?}");
    }
}

#[test]
fn infeasible_verdicts_carry_evidence() {
    assert_eq!(infeasible_evidence(" Infeasible : x y "), Some("x y"));
    assert_eq!(infeasible_evidence("infeasible"), None);
    assert_eq!(infeasible_evidence("feasible: x"), None);
    assert!(infeasible_matches("infeasible: X-Y", "x y"));
    assert!(!infeasible_matches("infeasible: ", "x"));
    assert!(!infeasible_matches("infeasible: x", ""));
}

#[test]
#[should_panic(expected = "infeasible evidence needs a word")]
fn infeasible_answers_refuse_empty_evidence() {
    infeasible_answer(" - ");
}
