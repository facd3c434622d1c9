use serde_json::json;

use super::calls::call_text;
use super::vfs_shell::fs::{self, Tree};
use super::vfs_shell::{VfsShell, VfsShellTask};
use super::{answers_match, screen};

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
    assert!(screen::<VfsShell>(&task(true, "17"), true, &[]));
    // Nothing to do and a constant answer: answering at once solves it.
    assert!(!screen::<VfsShell>(&task(false, "0"), true, &[]));
    assert!(!screen::<VfsShell>(&task(false, "done"), true, &[]));
    // Deleting everything solves a task whose expected tree is empty.
    let mut wipe = task(true, "17");
    wipe.expected.clear();
    let rm_all = vec![
        call_text("rm", json!({"path": "/", "recursive": true})),
        call_text("answer", json!({"answer": "17"})),
    ];
    assert!(!screen::<VfsShell>(&wipe, true, &[rm_all]));
    // An infeasible task may be solved by `infeasible`, and only by it.
    assert!(screen::<VfsShell>(&task(false, "infeasible"), false, &[]));
}

#[test]
fn answers_match_after_light_normalisation_only() {
    for (given, expected) in [
        ("1,234", "1234"),
        ("$1234", "1234"),
        ("1234.0", "1234"),
        (" Fenwy. ", "fenwy"),
        ("INFEASIBLE", "infeasible"),
    ] {
        assert!(answers_match(given, expected), "{given:?} vs {expected:?}");
    }
    for (given, expected) in [
        ("3 or 4", "3"),
        ("12345", "1234"),
        ("about 1234", "1234"),
        ("", "0"),
        ("1234, 1235", "1234"),
    ] {
        assert!(!answers_match(given, expected), "{given:?} vs {expected:?}");
    }
}
