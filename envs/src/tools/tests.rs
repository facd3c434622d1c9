use serde_json::json;

use super::vfs_shell::fs::{self, Tree};
use super::vfs_shell::{VfsShell, VfsShellTask};
use crate::toolkit::calls::call_text;
use crate::toolkit::final_answer::infeasible_answer;
use crate::toolkit::screen::screen;

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
