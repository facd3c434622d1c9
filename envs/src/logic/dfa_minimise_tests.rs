use super::*;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> DfaMinimiseConfig {
    serde_json::from_str(DfaMinimise::LEVELS[level]).unwrap()
}

/// Independent: the table-filling algorithm (pairs marked distinguishable
/// until nothing changes).
fn distinguishable(accepting: &[bool], delta: &[Vec<usize>]) -> Vec<Vec<bool>> {
    let n = accepting.len();
    let mut marked: Vec<Vec<bool>> = (0..n)
        .map(|p| (0..n).map(|q| accepting[p] != accepting[q]).collect())
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..n {
            for q in 0..n {
                if !marked[p][q] && (0..delta[p].len()).any(|x| marked[delta[p][x]][delta[q][x]]) {
                    marked[p][q] = true;
                    changed = true;
                }
            }
        }
    }
    marked
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<DfaMinimise>(&config(level), 20);
    }
}

#[test]
fn moore_agrees_with_table_filling() {
    let mut rng = Rng::from_seed(4);
    for _ in 0..300 {
        let n = rng.range_usize(1, 9);
        let accepting: Vec<bool> = (0..n).map(|_| rng.chance(0.5)).collect();
        let delta: Vec<Vec<usize>> = (0..n)
            .map(|_| (0..2).map(|_| rng.below(n as u64) as usize).collect())
            .collect();
        let (class, _) = moore(&accepting, &delta);
        let marked = distinguishable(&accepting, &delta);
        for p in 0..n {
            for q in 0..n {
                assert_eq!(
                    class[p] == class[q],
                    !marked[p][q],
                    "{accepting:?} {delta:?}"
                );
            }
        }
    }
}

#[test]
fn any_spelling_of_the_partition_passes_and_others_fail() {
    let task = DfaMinimise::generate(&config(3), &mut Rng::from_seed(8));
    let mut classes = DfaMinimise::classes(&task);
    assert!(classes.len() >= 2 && classes.len() <= task.names.len() - 2);
    classes.reverse();
    for c in &mut classes {
        c.reverse();
    }
    let name = |s: &usize| task.names[*s].to_lowercase();
    let spelled: Vec<String> = classes
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(passes::<DfaMinimise>(
        &task,
        &format!("\\boxed{{{}}}", spelled.join("; "))
    ));
    assert!(passes::<DfaMinimise>(&task, &spelled.join("\n")));
    let parens: Vec<String> = spelled.iter().map(|c| format!("({c})")).collect();
    assert!(passes::<DfaMinimise>(&task, &parens.join(", ")));
    // Merging two classes, splitting one, dropping or repeating a state.
    let big = classes.iter().position(|c| c.len() >= 2).unwrap();
    let mut split = classes.clone();
    let moved = split[big].pop().unwrap();
    split.push(vec![moved]);
    let mut merged = classes.clone();
    let last = merged.pop().unwrap();
    merged[0].extend(last);
    let mut dropped = classes.clone();
    dropped[big].pop();
    let mut repeated = classes.clone();
    repeated[0].push(classes[1][0]);
    for bad in [split, merged, dropped, repeated] {
        let text: Vec<String> = bad
            .iter()
            .map(|c| format!("{{{}}}", c.iter().map(name).collect::<Vec<_>>().join(", ")))
            .collect();
        assert!(!passes::<DfaMinimise>(&task, &text.join(" ")), "{text:?}");
    }
    let all_alone: Vec<String> = task.names.iter().map(|n| format!("{{{n}}}")).collect();
    assert!(!passes::<DfaMinimise>(&task, &all_alone.join(" ")));
    assert!(!passes::<DfaMinimise>(&task, &task.names.join(" ")));
    assert!(!passes::<DfaMinimise>(&task, &classes.len().to_string()));
    assert!(matches!(
        DfaMinimise::check(&task, "{QQQQ}"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn every_state_is_reachable_and_class_counts_vary() {
    let mut counts = BTreeSet::new();
    for i in 0..40 {
        let task = DfaMinimise::generate(&config(4), &mut Rng::from_seed(i));
        counts.insert(DfaMinimise::classes(&task).len());
    }
    assert!(counts.len() >= 4, "{counts:?}");
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<DfaMinimise>(&config(level), 500);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
