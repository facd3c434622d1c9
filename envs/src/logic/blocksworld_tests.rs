use super::*;
use crate::logic::solvers::plan::breadth_first_plan;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers, task};

/// Start: QAX BRT / CLM DZE (bottom to top); goal: every block on the table.
/// BRT and DZE go down in either order: two shortest plans of two moves.
fn two_towers() -> BlocksworldTask {
    BlocksworldTask {
        names: ["QAX", "BRT", "CLM", "DZE"].map(String::from).to_vec(),
        start: vec![0, 1, 0, 3],
        goal: vec![0, 0, 0, 0],
        plan: vec![(1, 0), (3, 0)],
    }
}

fn level(i: usize) -> BlocksworldConfig {
    serde_json::from_str(Blocksworld::LEVELS[i]).unwrap()
}

fn simulate(task: &BlocksworldTask, plan: &[(usize, usize)]) -> Option<u64> {
    plan.iter()
        .try_fold(pack(&task.start), |state, &(block, to)| {
            apply_move(state, task.names.len(), block, to)
        })
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for i in [0, 3, 6] {
        standard_answers::<Blocksworld>(&level(i), 8);
    }
}

#[test]
fn every_shortest_plan_passes_in_any_spelling() {
    let task = two_towers();
    for good in [
        "move(BRT, table)\nmove(DZE, table)",
        "move(DZE, table)\nmove(BRT, table)",
        "move dze to the table; move brt onto the table",
        "1. move(DZE, table) 2. move(BRT, table)",
        "move BRT from QAX to table, move DZE from CLM to table",
        "The plan: \\boxed{move(DZE, TABLE), move(BRT, TABLE)}",
    ] {
        assert!(passes::<Blocksworld>(&task, good), "{good:?}");
    }
}

#[test]
fn illegal_long_short_hedged_and_unknown_plans_fail() {
    let task = two_towers();
    for bad in [
        // Not clear: DZE stands on CLM.
        "move(CLM, table)\nmove(DZE, table)",
        // Legal but one block short of the goal.
        "move(BRT, table)",
        // Legal and reaching the goal, but longer than the optimum.
        "move(BRT, table)\nmove(DZE, BRT)\nmove(DZE, table)\nmove(BRT, table)",
        "move(BRT, DZE)\nmove(BRT, table)\nmove(DZE, table)",
        // Already on the table; onto itself; a wrong source.
        "move(QAX, table)\nmove(DZE, table)",
        "move(BRT, BRT)\nmove(DZE, table)",
        "move BRT from CLM to table, move DZE from CLM to table",
        "move(table, BRT)\nmove(DZE, table)",
        // Duplicated, unknown names, hedged, two boxes, no verb.
        "move(BRT, table)\nmove(BRT, table)\nmove(DZE, table)",
        "move(BRT, table)\nmove(XYZ, table)",
        "move(BRT, table) or move(DZE, table)",
        "\\boxed{move(BRT, table), move(DZE, table)} \\boxed{move(DZE, table), move(BRT, table)}",
        "BRT table DZE table",
        "move(BRT)\nmove(DZE, table)",
        "",
    ] {
        assert!(!passes::<Blocksworld>(&task, bad), "{bad:?}");
    }
    assert!(matches!(
        Blocksworld::check(&task, "move(BRT, table)\nmove(XYZ, table)"),
        Err(CheckError::Unreadable(_))
    ));
    assert!(!Blocksworld::check(&task, "move(CLM, table)\nmove(DZE, table)").unwrap());
}

#[test]
fn a_reordered_shortest_plan_of_a_generated_task_passes() {
    // Swapping two neighbouring moves that do not touch each other's blocks
    // gives another legal plan of the same length: it must pass too.
    let mut other_plans = 0;
    for i in 0..40 {
        let task = task::<Blocksworld>(&level(4), 5, i);
        for k in 0..task.plan.len() - 1 {
            let mut plan = task.plan.clone();
            plan.swap(k, k + 1);
            if plan == task.plan || simulate(&task, &plan) != Some(pack(&task.goal)) {
                continue;
            }
            let text: Vec<String> = plan
                .iter()
                .map(|&(b, to)| format!("move {} to {}", task.names[b], place_name(&task, to)))
                .collect();
            assert!(passes::<Blocksworld>(&task, &text.join("\n")), "{text:?}");
            other_plans += 1;
        }
    }
    assert!(other_plans > 20, "only {other_plans} reordered plans");
}

#[test]
fn a_star_agrees_with_breadth_first_search() {
    let mut rng = Rng::from_seed(11);
    for round in 0..60 {
        let n = 3 + round % 5;
        let start = arrangement(n, &mut rng);
        let goal = arrangement(n, &mut rng);
        let domain = Restack { goal: &goal };
        let (Found::Plan(best), Found::Plan(blind)) = (
            shortest_plan(&domain, pack(&start), 1_000_000),
            breadth_first_plan(&domain, pack(&start), 1_000_000),
        ) else {
            panic!("no plan for {start:?} -> {goal:?}");
        };
        assert_eq!(best.len(), blind.len(), "{start:?} -> {goal:?}");
        let mut state = pack(&start);
        for &(block, to) in &best {
            state = apply_move(state, n, block, to).unwrap();
        }
        assert_eq!(state, pack(&goal));
    }
}

#[test]
fn generated_tasks_need_their_moves_and_levels_validate() {
    for (i, patch) in Blocksworld::LEVELS.iter().enumerate() {
        let config = level(i);
        Blocksworld::validate(&config).unwrap_or_else(|e| panic!("{patch}: {e}"));
        let task = task::<Blocksworld>(&config, 3, 0);
        assert!(task.plan.len() >= config.min_moves);
        assert_eq!(simulate(&task, &task.plan), Some(pack(&task.goal)));
        assert!(!task.names.iter().any(|n| n == "THE" || n == "TOP"));
    }
    for bad in [
        BlocksworldConfig {
            blocks: 2,
            min_moves: 1,
        },
        BlocksworldConfig {
            blocks: 5,
            min_moves: 9,
        },
    ] {
        assert!(Blocksworld::validate(&bad).is_err());
    }
}

#[test]
fn another_tasks_reference_never_passes() {
    for i in [0, 3] {
        let rate = cross_reference_rate::<Blocksworld>(&level(i), 300);
        assert!(rate < 0.01, "{i}: {rate}");
    }
}
