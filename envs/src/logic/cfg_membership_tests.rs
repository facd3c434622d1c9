use super::*;
use crate::logic::solvers::cfg::all_words;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

fn config(level: usize) -> CfgMembershipConfig {
    serde_json::from_str(CfgMembership::LEVELS[level]).unwrap()
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        standard_answers::<CfgMembership>(&config(level), 20);
    }
}

#[test]
fn cyk_agrees_with_enumerated_derivations() {
    let mut rng = Rng::from_seed(11);
    let mut checked = 0;
    while checked < 60 {
        let Some(grammar) = draw_grammar(3, 2, &mut rng) else {
            continue;
        };
        checked += 1;
        let words = all_words(&grammar, 7);
        let cnf = to_cnf(&grammar);
        for len in 1..=7usize {
            for code in 0..1u32 << len {
                let word: Vec<u8> = (0..len).map(|i| (code >> i & 1) as u8).collect();
                assert_eq!(
                    cnf.accepts(&word),
                    words.contains(&word),
                    "{:?} {word:?}",
                    grammar.lines()
                );
            }
        }
    }
}

#[test]
fn answers_name_exactly_the_members() {
    let task = CfgMembership::generate(&config(4), &mut Rng::from_seed(3));
    let members: Vec<&String> = task
        .labels
        .iter()
        .zip(&task.member)
        .filter(|(_, m)| **m)
        .map(|(l, _)| l)
        .collect();
    let others: Vec<&String> = task
        .labels
        .iter()
        .zip(&task.member)
        .filter(|(_, m)| !**m)
        .map(|(l, _)| l)
        .collect();
    assert!(members.len() >= 2 && others.len() >= 2);
    let mut reversed = members.clone();
    reversed.reverse();
    let good = reversed
        .iter()
        .map(|l| l.to_lowercase())
        .collect::<Vec<_>>()
        .join(", ");
    assert!(passes::<CfgMembership>(
        &task,
        &format!("\\boxed{{{good}}}")
    ));
    let all = task.labels.join(" ");
    let missing = members[1..]
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let extra = format!("{} {}", CfgMembership::reference(&task), others[0]);
    let doubled = format!("{} {}", CfgMembership::reference(&task), members[0]);
    for bad in [
        all,
        missing,
        extra,
        doubled,
        "QQQ".into(),
        format!("{} or {}", members[0], members[1]),
    ] {
        assert!(!passes::<CfgMembership>(&task, &bad), "{bad}");
    }
    assert!(matches!(
        CfgMembership::check(&task, "ZZZ9"),
        Err(CheckError::Unreadable(_))
    ));
}

#[test]
fn member_counts_vary_and_every_label_is_no_string() {
    let mut counts = BTreeSet::new();
    for i in 0..40 {
        let task = CfgMembership::generate(&config(3), &mut Rng::from_seed(i));
        let cnf = to_cnf(&task.grammar);
        for (word, &member) in task.words.iter().zip(&task.member) {
            assert_eq!(cnf.accepts(word), member);
        }
        counts.insert(task.member.iter().filter(|&&m| m).count());
        assert!(task.labels.iter().all(|l| l.bytes().any(|b| b > b'C')));
    }
    assert!(counts.len() >= 3, "{counts:?}");
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let rate = cross_reference_rate::<CfgMembership>(&config(level), 500);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}
