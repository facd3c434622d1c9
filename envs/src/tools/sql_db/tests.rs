use super::*;
use crate::toolkit::calls::call_text;
use crate::toolkit::screen::run_script;
use crate::toolkit::testkit;

fn easy() -> SqlDbConfig {
    SqlDbConfig {
        departments: 3,
        employees: 10,
        projects: 6,
        ..SqlDbConfig::default()
    }
}

fn first_task_of(kind_prefix: &str) -> SqlDbTask {
    let mut rng = Rng::from_seed(21);
    loop {
        let task = SqlDbEnv::generate(&SqlDbConfig::default(), &mut rng);
        if task.instruction.starts_with(kind_prefix) && task.feasible {
            return task;
        }
    }
}

#[test]
fn tools_read_and_edit_exactly() {
    let task = first_task_of("Delete every cancelled");
    let mut env = SqlDbEnv::reset(&task, Rng::from_seed(0));
    let call = env.parse_action(0, "list_tables").unwrap();
    env.apply(0, call).unwrap();
    assert_eq!(
        env.log.last_result().unwrap(),
        "departments(id, name, city) 5 rows\nemployees(id, name, dept_id, salary, hired) 30 rows\nprojects(id, name, dept_id, status, budget) 15 rows"
    );
    for (text, want) in [
        (
            r#"query "SELECT COUNT(*) AS n FROM projects WHERE status = 'cancelled' AND budget < 0""#,
            "n\n0\n(1 rows)",
        ),
        (
            r#"delete_rows projects "nonsense""#,
            "error: expected a comparison near the end",
        ),
        (
            r#"update_rows employees salary "lots" "id = 1""#,
            "error: \"lots\" is not an integer",
        ),
        (
            r#"insert_row projects "[1, 2]""#,
            "error: projects has 5 columns: id, name, dept_id, status, budget",
        ),
    ] {
        let call = env.parse_action(0, text).unwrap();
        env.apply(0, call).unwrap();
        assert_eq!(env.log.last_result().unwrap(), want, "{text}");
    }
    assert_eq!(env.db, task.initial, "errors changed nothing");
}

#[test]
fn answers_compare_as_typed_values() {
    assert!(answer_matches(
        r#"["Ann Ames", "Bo Cole"]"#,
        r#"["Ann Ames","Bo Cole"]"#
    ));
    assert!(answer_matches(
        r#"["ann ames","bo cole"]"#,
        r#"["Ann Ames","Bo Cole"]"#
    ));
    assert!(
        !answer_matches(r#"["Bo Cole", "Ann Ames"]"#, r#"["Ann Ames","Bo Cole"]"#),
        "order is asked for"
    );
    assert!(!answer_matches(
        r#"["Ann Ames"]"#,
        r#"["Ann Ames","Bo Cole"]"#
    ));
    assert!(!answer_matches(
        "Ann Ames, Bo Cole",
        r#"["Ann Ames","Bo Cole"]"#
    ));
    assert!(answer_matches("4,200", "4200"));
}

#[test]
fn edits_are_checked_on_the_whole_database() {
    let task = first_task_of("Set the salary");
    let gold = task.gold.clone();
    assert!(run_script::<SqlDbEnv>(&task, gold.clone()).0.passed);
    let answer = gold.last().unwrap().clone();
    // Right count, but one extra row touched.
    let extra = call_text(
        "update_rows",
        json!({"table": "departments", "column": "city", "value": "Oslo", "where": "id = 1"}),
    );
    let mut spoiled = gold[..gold.len() - 1].to_vec();
    spoiled.extend([extra, answer.clone()]);
    let (score, _) = run_script::<SqlDbEnv>(&task, spoiled);
    assert!(!score.passed);
    assert_eq!(score.breakdown["answer_correct"], 1.0);
    assert!(!run_script::<SqlDbEnv>(&task, [answer]).0.passed);
}

#[test]
fn acceptance_easy_and_hard() {
    testkit::assert_acceptance::<SqlDbEnv>(easy(), true);
    testkit::assert_acceptance::<SqlDbEnv>(
        SqlDbConfig {
            departments: 8,
            employees: 120,
            projects: 60,
            ..SqlDbConfig::default()
        },
        true,
    );
}

testkit::format_tests!(SqlDbEnv, SqlDbConfig::default());

#[test]
fn replaying_logged_actions_rescores_the_same() {
    testkit::assert_replay_rescores::<SqlDbEnv>(SqlDbConfig::default());
}

#[test]
fn infeasible_verdicts_need_their_evidence() {
    testkit::assert_infeasible_needs_evidence::<SqlDbEnv>(SqlDbConfig {
        infeasible_share: 0.5,
        ..SqlDbConfig::default()
    });
}
