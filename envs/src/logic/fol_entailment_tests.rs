use super::*;
use crate::logic::solvers::fol::Universe;
use crate::single_turn::testing::{cross_reference_rate, passes, standard_answers};

/// Direct evaluation in one structure (atom bitmask).
fn holds(sig: &Signature, f: &Formula, s: u64, assign: &mut [usize; 3]) -> bool {
    match f {
        Formula::Atom(p, args) => {
            let ground: Vec<usize> = args
                .iter()
                .map(|t| match t {
                    Term::Var(v) => assign[*v],
                    Term::Const(c) => *c,
                })
                .collect();
            s >> sig.atom(*p, &ground) & 1 == 1
        }
        Formula::Not(a) => !holds(sig, a, s, assign),
        Formula::And(a, b) => holds(sig, a, s, assign) && holds(sig, b, s, assign),
        Formula::Or(a, b) => holds(sig, a, s, assign) || holds(sig, b, s, assign),
        Formula::Implies(a, b) => !holds(sig, a, s, assign) || holds(sig, b, s, assign),
        Formula::Forall(v, a) => (0..sig.domain).all(|e| {
            assign[*v] = e;
            holds(sig, a, s, assign)
        }),
        Formula::Exists(v, a) => (0..sig.domain).any(|e| {
            assign[*v] = e;
            holds(sig, a, s, assign)
        }),
    }
}

fn task_of(labels: &[&str], entailed: &[bool]) -> FolEntailmentTask {
    FolEntailmentTask {
        elements: vec!["ann".into(), "bob".into()],
        unary: vec!["Kex".into()],
        binary: vec![],
        premises: vec!["forall x. Kex(x)".into()],
        conclusions: labels
            .iter()
            .zip(entailed)
            .map(|(l, &e)| Conclusion {
                label: l.to_string(),
                formula: "Kex(ann)".into(),
                entailed: e,
            })
            .collect(),
        work: 1,
    }
}

#[test]
fn the_bitset_evaluator_agrees_with_direct_evaluation() {
    let mut rng = Rng::from_seed(5);
    for round in 0..150 {
        let sig = Signature {
            domain: 2 + round % 2,
            unary: 1 + round % 3,
            binary: round % 2,
        };
        let f = random_formula(&sig, 1 + round % 4, 0, 0.7, &mut rng);
        let all = Universe::all(&sig);
        let bits = all.eval(&sig, &f, &mut [0; 3]);
        for s in 0..1u64 << sig.atoms() {
            let by_bits = bits[(s / 64) as usize] >> (s % 64) & 1 == 1;
            assert_eq!(by_bits, holds(&sig, &f, s, &mut [0; 3]), "{f:?} in {s}");
        }
        // A sub-universe reads the same structures.
        let some: Vec<u64> = (0..1u64 << sig.atoms()).filter(|s| s % 3 == 1).collect();
        let sub = Universe::of(&sig, &some);
        let sub_bits = sub.eval(&sig, &f, &mut [0; 3]);
        for (i, &s) in some.iter().enumerate() {
            assert_eq!(
                sub_bits[i / 64] >> (i % 64) & 1 == 1,
                holds(&sig, &f, s, &mut [0; 3])
            );
        }
    }
}

/// Entailment as the generator decides it (premise models as a bitset, the
/// candidate evaluated on them) equals a brute force over all structures.
#[test]
fn entailment_by_bitsets_agrees_with_a_brute_force() {
    let mut rng = Rng::from_seed(8);
    for round in 0..60 {
        let sig = Signature {
            domain: 2,
            unary: 2,
            binary: round % 2,
        };
        let premises: Vec<Formula> = (0..3)
            .map(|_| random_formula(&sig, 2, 0, 0.75, &mut rng))
            .collect();
        let candidate = random_formula(&sig, 2, 0, 0.75, &mut rng);
        let all = Universe::all(&sig);
        let mut models = all.full();
        for p in &premises {
            let h = all.eval(&sig, p, &mut [0; 3]);
            models.iter_mut().zip(h).for_each(|(m, h)| *m &= h);
        }
        let models = members(&models);
        let sub = Universe::of(&sig, &models);
        let by_bits = sub.eval(&sig, &candidate, &mut [0; 3]) == sub.full();
        let brute = (0..1u64 << sig.atoms())
            .filter(|&s| premises.iter().all(|p| holds(&sig, p, s, &mut [0; 3])))
            .all(|s| holds(&sig, &candidate, s, &mut [0; 3]));
        assert_eq!(by_bits, brute);
    }
}

#[test]
fn every_level_makes_tasks_with_two_entailed_and_one_not() {
    for (level, patch) in FolEntailment::LEVELS.iter().enumerate() {
        let config: FolEntailmentConfig = serde_json::from_str(patch).unwrap();
        FolEntailment::validate(&config).unwrap();
        let mut rng = Rng::from_seed(level as u64);
        for _ in 0..5 {
            let task = FolEntailment::generate(&config, &mut rng);
            let entailed = task.conclusions.iter().filter(|c| c.entailed).count();
            assert!(
                entailed >= 2 && entailed < task.conclusions.len(),
                "{task:?}"
            );
            for c in &task.conclusions {
                assert!(!FolEntailment::check(&task, &c.label).unwrap());
            }
            let all: Vec<&str> = task.conclusions.iter().map(|c| c.label.as_str()).collect();
            assert!(!FolEntailment::check(&task, &all.join(" ")).unwrap());
        }
    }
}

#[test]
fn reference_passes_and_degenerate_answers_fail() {
    for level in [0, 3, 6] {
        let config = serde_json::from_str(FolEntailment::LEVELS[level]).unwrap();
        standard_answers::<FolEntailment>(&config, 15);
    }
}

#[test]
fn any_order_and_spelling_passes_and_wrong_sets_fail() {
    let task = task_of(&["ABC", "DEF", "GHI", "JKL"], &[true, false, true, false]);
    for good in ["ABC GHI", "ghi, abc", "GHI+ABC", "\\boxed{ABC; GHI}"] {
        assert!(passes::<FolEntailment>(&task, good), "{good:?}");
    }
    for bad in [
        "ABC",
        "ABC GHI DEF",
        "ABC ABC GHI",
        "ABC GHI or DEF",
        "\\boxed{ABC GHI} \\boxed{ABC}",
        "ABC GHI XYZ",
        "entailed",
        "not entailed",
        "none",
        "",
    ] {
        assert!(!passes::<FolEntailment>(&task, bad), "{bad:?}");
    }
    assert!(FolEntailment::check(&task, "XYZ").is_err());
    assert!(!FolEntailment::check(&task, "ABC DEF").unwrap());
}

#[test]
fn another_tasks_reference_never_passes() {
    for level in [0, 3] {
        let config = serde_json::from_str(FolEntailment::LEVELS[level]).unwrap();
        let rate = cross_reference_rate::<FolEntailment>(&config, 300);
        assert!(rate < 0.01, "{level}: {rate}");
    }
}

#[test]
fn out_of_range_configs_are_refused() {
    for patch in [
        r#"{"domain":1}"#,
        r#"{"domain":4,"binary":1}"#,
        r#"{"conclusions":3}"#,
        r#"{"depth":0}"#,
    ] {
        let config: FolEntailmentConfig = serde_json::from_str(patch).unwrap();
        assert!(FolEntailment::validate(&config).is_err(), "{patch}");
    }
}
