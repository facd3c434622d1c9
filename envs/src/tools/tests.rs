use serde_json::json;

use super::vfs_shell::fs::{self, Tree};
use super::vfs_shell::{VfsShell, VfsShellTask};
use crate::prompt_answers::PromptAnswers;
use crate::registry::Registry;
use crate::rng::mix_seed;
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

/// Every answer copied out of the first observation (quoted parts, named
/// entities, listed options, numbers, parts of the request, bare and as
/// `infeasible: …`), given at once as the `answer` call, fails every task
/// of every tool and web env at every preset: evidence that can be copied
/// from the prompt without any call is not evidence.
#[test]
fn no_answer_copied_from_the_prompt_passes_a_tool_or_web_task_at_once() {
    let registry = Registry::builtin();
    let ids = registry
        .preset_ids()
        .into_iter()
        .filter(|id| id.starts_with("tools/") || id.starts_with("web/"));
    for id in ids {
        let mut env = registry.make(&id, None).unwrap();
        for i in 0..30 {
            let card = env.generate(mix_seed(0x0c0b1e, i));
            env.reset(&card).unwrap();
            let first = env.observe(0).unwrap();
            let listed = first.legal_actions.as_deref().unwrap_or(&[]);
            let copied = PromptAnswers::read(&first.text, listed).all();
            assert!(copied.len() >= 5, "{id}: {copied:?}");
            for answer in copied {
                env.reset(&card).unwrap();
                let _ = env.step(0, &call_text("answer", json!({ "answer": answer })));
                assert!(
                    !env.score(0).passed,
                    "{id} {}: {answer:?} at once passed",
                    card.id
                );
            }
        }
    }
}
