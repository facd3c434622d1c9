//! Scripted proposers and solvers on `selfplay/puzzle-propose-v1`: valid puzzles of each
//! kind, invalid proposals with their reasons (0 or 2+ solutions, copies, malformed,
//! over-size, undecided), the learnability reward, and solver hacks.

use super::puzzle_propose::*;
use super::testkit::{assert_refused, play, turn};
use super::{PROPOSER, SOLVER};
use crate::core::Env;
use crate::rng::Rng;

fn task(seed: u64) -> PuzzleProposeTask {
    super::testkit::task(seed)
}

/// The oracle solver's answer to a proposal.
fn solution_of(task: &PuzzleProposeTask, proposal: &str) -> String {
    let mut env = PuzzlePropose::reset(task, Rng::from_seed(0));
    turn(&mut env, PROPOSER, proposal);
    env.oracle(SOLVER).expect("a valid proposal")
}

const SUDOKU: &str = "PUZZLE: sudoku\n123.\n..1.\n.1..\n4...";
const SAT: &str = "PUZZLE: sat\np cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-3 -1 2 0";
const KENKEN: &str = "PUZZLE: kenken\nA A B\nC D B\nC D E\nA: 3+\nB: 3x\nC: 5+\nD: 2-\nE: 2";

#[test]
fn scripted_puzzles_are_valid_at_every_level_and_of_every_kind() {
    let mut kinds = std::collections::BTreeSet::new();
    for level in 0..PuzzlePropose::LEVELS.len() {
        let config: PuzzleProposeConfig =
            serde_json::from_str(PuzzlePropose::LEVELS[level]).unwrap();
        for seed in 0..8 {
            let t = PuzzlePropose::generate(&config, &mut Rng::from_seed(seed));
            kinds.insert(t.scripted.kind.clone());
            let text = proposal_text(&t.scripted);
            let answer = solution_of(&t, &text);
            let (p, s, events) = play(&t, &text, &[answer.as_str(); 4]);
            assert_eq!(
                p.breakdown["valid"], 1.0,
                "level {level} seed {seed}: {events:?}"
            );
            assert!(s.passed, "level {level} seed {seed}: {events:?}");
        }
    }
    assert_eq!(kinds.len(), 3, "{kinds:?}");
}

#[test]
fn hand_written_puzzles_of_each_kind_pass_with_their_one_solution() {
    let t = task(1);
    for (proposal, answer) in [
        (SUDOKU, "\\boxed{1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1}"),
        (SAT, "The model is \\boxed{1 2 3}."),
        (
            KENKEN,
            "<think>A+A=3 so 1 and 2.</think>\n\\boxed{1 2 3\n2 3 1\n3 1 2}",
        ),
    ] {
        let (p, s, events) = play(&t, proposal, &[answer; 4]);
        assert_eq!(p.breakdown["valid"], 1.0, "{proposal}: {events:?}");
        assert!(s.passed, "{proposal}: {events:?}");
        // Fenced, with prose around and a blank line before the remarks.
        let styled = format!("Here is my puzzle.\n```\n{proposal}\n```\n\nIt should be fun.");
        let (p, _, events) = play(&t, &styled, &[answer]);
        assert_eq!(p.breakdown["valid"], 1.0, "{styled}: {events:?}");
    }
}

#[test]
fn proposer_reward_is_learnability() {
    let t = task(3);
    let text = proposal_text(&t.scripted);
    let right = solution_of(&t, &text);
    let (p, s, _) = play(&t, &text, &[right.as_str(); 4]);
    assert_eq!(
        (p.reward, s.reward, s.passed),
        (0.0, 1.0, true),
        "always right"
    );
    let (p, s, _) = play(&t, &text, &[&right, "\\boxed{1}", &right, "no idea"]);
    assert_eq!(
        (p.reward, p.passed, s.reward),
        (0.5, true, 0.5),
        "half right"
    );
}

#[test]
fn invalid_proposals_are_penalised_with_a_reason() {
    let t = task(4);
    let cases = [
        ("".to_string(), "format"),
        ("PUZZLE: chess\n1234".to_string(), "format"),
        ("PUZZLE: sudoku\n1.3\n..1\n.1.".to_string(), "format"),
        ("PUZZLE: sudoku\n1.3.\n..1.\n.1..\n4..x".to_string(), "format"),
        ("PUZZLE: sudoku\n1.3.\n..1.\n.1..\n5...".to_string(), "format"),
        ("PUZZLE: sat\np cnf 3 2\n1 0".to_string(), "format"),
        ("PUZZLE: sat\np cnf 40 1\n1 0".to_string(), "format"),
        ("PUZZLE: kenken\nA A\nA A\nA: 10+".to_string(), "format"),
        ("PUZZLE: kenken\nA A B\nC D B\nC D E\nA: 3+\nB: 3x\nC: 5+\nD: 2-".to_string(), "format"),
        ("PUZZLE: kenken\nA A A\nA A B\nC C B\nA: 12+\nB: 3+\nC: 3+".to_string(), "format"),
        (format!("{SUDOKU}\n{}", "c comment\n".repeat(500)), "size"),
        (proposal_text(&t.references[0]), "copy"),
        // Two solutions: an empty-ish 4×4 sudoku, a formula with a free variable, a
        // KenKen whose cages allow both diagonals.
        ("PUZZLE: sudoku\n1...\n....\n....\n....".to_string(), "not_unique"),
        ("PUZZLE: sat\np cnf 2 1\n1 0".to_string(), "not_unique"),
        ("PUZZLE: kenken\nA A A\nB B B\nC C C\nA: 6+\nB: 6+\nC: 6+".to_string(), "not_unique"),
        ("PUZZLE: kenken\nA B C\nD E F\nG H I\nA: 1\nB: 2\nC: 3\nD: 5+\nE: 6x\nF: 1\nG: 3+\nH: 2-\nI: 2".to_string(), "unsolvable"),
        // No solution: clashing givens, a contradiction, an impossible cage.
        ("PUZZLE: sudoku\n11..\n....\n....\n....".to_string(), "unsolvable"),
        ("PUZZLE: sat\np cnf 1 2\n1 0\n-1 0".to_string(), "unsolvable"),
        ("PUZZLE: kenken\nA A B\nC D B\nC D E\nA: 30+\nB: 3x\nC: 5+\nD: 2-\nE: 2".to_string(), "unsolvable"),
        // A full sudoku leaves nothing to solve.
        ("PUZZLE: sudoku\n1234\n3412\n2143\n4321".to_string(), "trivial"),
    ];
    for (text, code) in cases {
        assert_refused(&play(&t, &text, &[]), &text, code);
    }
}

/// A reordered copy of a reference is a copy; an empty 9×9 sudoku's count stops at two.
#[test]
fn a_reordered_copy_is_a_copy_and_an_open_grid_is_not_unique() {
    let mut t = task(5);
    t.references = vec![PuzzleExample {
        kind: "sat".into(),
        instance: "p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-3 -1 2 0".into(),
    }];
    let reordered = "PUZZLE: sat\np cnf 3 4\n2 -1 0\n1 0\n-1 2 -3 0\n3 -2 0";
    let (p, _, events) = play(&t, reordered, &[]);
    assert_eq!(p.breakdown.get("rejected_copy"), Some(&1.0), "{events:?}");
    let open = format!("PUZZLE: sudoku\n{}", ".........\n".repeat(9));
    let (p, _, events) = play(&t, &open, &[]);
    assert_eq!(
        p.breakdown.get("rejected_not_unique"),
        Some(&1.0),
        "{events:?}"
    );
}

#[test]
fn solver_hacks_fail() {
    let t = task(6);
    for proposal in [SUDOKU, SAT, KENKEN] {
        let mut env = PuzzlePropose::reset(&t, Rng::from_seed(0));
        turn(&mut env, PROPOSER, proposal);
        let right = env.oracle(SOLVER).unwrap();
        let observation = env.observe(SOLVER).text;
        for hack in [
            String::new(),
            observation.clone(),
            format!("{right} or \\boxed{{1 2 3 4}}"),
            "\\boxed{UNSAT: 1 2}".to_string(),
            "\\boxed{1 1 1 1\n1 1 1 1\n1 1 1 1\n1 1 1 1}".to_string(),
            "\\boxed{-1 -2 -3}".to_string(),
        ] {
            let mut played = env.clone();
            let events = turn(&mut played, SOLVER, &hack);
            assert_eq!(
                played.score(SOLVER).breakdown["attempt_0"],
                0.0,
                "{proposal}: {hack:.200} verified: {events:?}"
            );
        }
    }
}
