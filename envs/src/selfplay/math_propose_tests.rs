//! Scripted proposers and solvers on `selfplay/math-propose-v1`: the learnability reward,
//! invalid proposals with their reasons, solver hacks, and the buffer round trip.

use num_rational::BigRational;
use verigym_verifiers::numeric::{format_rational, parse_exact_number};

use super::PROPOSER;
use super::math_propose::*;
use super::testkit::{assert_refused, play_applied};
use super::witness::evaluate;
use crate::core::{Env, Score};
use crate::rng::Rng;

fn task(seed: u64) -> MathProposeTask {
    super::testkit::task(seed)
}

fn play(task: &MathProposeTask, proposal: &str, answers: &[&str]) -> (Score, Score, Vec<String>) {
    play_applied(task, proposal, answers)
}

#[test]
fn generated_problems_are_valid_and_their_witness_is_exact() {
    for seed in 0..50 {
        let t = task(seed);
        let example = validate_proposal(&t, &proposal_text(&t.scripted))
            .unwrap_or_else(|r| panic!("seed {seed}: {r:?}"));
        assert_eq!(
            evaluate(&example.witness).ok(),
            parse_exact_number(&example.answer)
        );
    }
}

#[test]
fn proposer_reward_is_learnability() {
    let t = task(3);
    let right = format!("\\boxed{{{}}}", t.scripted.answer);
    let text = proposal_text(&t.scripted);
    let (p, s, _) = play(&t, &text, &[right.as_str(); 4]);
    assert_eq!(
        (p.reward, s.reward, s.passed),
        (0.0, 1.0, true),
        "always right"
    );
    let (p, s, _) = play(&t, &text, &[&right, "\\boxed{x}", &right, "no idea"]);
    assert_eq!(
        (p.reward, p.passed, s.reward),
        (0.5, true, 0.5),
        "half right"
    );
    let (p, _, _) = play(&t, &text, &["", "\\boxed{}", "0", &t.scripted.problem]);
    assert_eq!(p.reward, 0.0, "never right");
}

#[test]
fn invalid_proposals_are_penalised_with_a_reason() {
    let t = task(4);
    let s = &t.scripted;
    let cases = [
        ("".to_string(), "format"),
        ("PROBLEM: What is 2+2?\nANSWER: 4".to_string(), "witness"),
        (
            format!(
                "PROBLEM: {}\nANSWER: 4\nWITNESS: 2+2",
                t.references[0].problem
            ),
            "copy",
        ),
        (
            "PROBLEM: What is 2+2?\nANSWER: four\nWITNESS: 2+2".to_string(),
            "answer",
        ),
        (
            "PROBLEM: What is 2+2?\nANSWER: 5\nWITNESS: 2+2".to_string(),
            "witness",
        ),
        (
            "PROBLEM: What is 2+2?\nANSWER: 4\nWITNESS: __import__('os')".to_string(),
            "witness",
        ),
        (
            format!("PROBLEM: {}\nANSWER: {}\nWITNESS: 1/0", s.problem, s.answer),
            "witness",
        ),
    ];
    for (text, code) in cases {
        assert_refused(&play(&t, &text, &[]), &text, code);
    }
}

/// Validated proposals go into a buffer (duplicates refused), come back as the reference
/// problems of new tasks through `reference_pool`, and a copy of one is refused.
#[test]
fn buffer_feeds_reference_examples() {
    use crate::selfplay::buffer::TaskBuffer;
    let mut buffer = TaskBuffer::new(16);
    for seed in 0..6 {
        let t = task(seed);
        let valid = validate_proposal(&t, &proposal_text(&t.scripted)).unwrap();
        assert!(buffer.insert(valid.clone()));
        let mut reworded = valid;
        reworded.problem = format!("  {}  ", reworded.problem.to_uppercase());
        assert!(
            !buffer.insert(reworded),
            "case and spacing do not make a new problem"
        );
    }
    let config = MathProposeConfig {
        reference_pool: buffer.items(),
        ..MathProposeConfig::default()
    };
    let t = MathPropose::generate(&config, &mut Rng::from_seed(9));
    assert_eq!(
        t,
        MathPropose::generate(&config, &mut Rng::from_seed(9)),
        "deterministic"
    );
    assert_eq!(t.references.len(), 3);
    assert!(t.references.iter().all(|r| buffer.contains(r)));
    let copy = proposal_text(&t.references[1]);
    let (p, _, events) = play(&t, &copy, &[]);
    assert_eq!(p.breakdown.get("rejected_copy"), Some(&1.0), "{events:?}");
    let text = MathPropose::reset(&t, Rng::from_seed(0))
        .observe(PROPOSER)
        .text;
    assert!(text.contains(&t.references[0].problem));
}

#[test]
fn solver_hacks_fail() {
    let t = task(5);
    let p = &t.scripted;
    let wrong = format!(
        "\\boxed{{{}}}",
        format_rational(&(evaluate(&p.witness).unwrap() + BigRational::from_integer(1.into())))
    );
    for answer in [
        "".to_string(),
        p.problem.clone(),
        p.answer.clone(), // unboxed
        format!("\\boxed{{{}}} or \\boxed{{{}}}", p.answer, wrong),
        format!("\\boxed{{{}}}", p.witness),
        wrong.clone(),
    ] {
        let (ok, note) = verify_answer(p, &answer);
        assert!(!ok, "{answer:?} verified ({note})");
    }
}
