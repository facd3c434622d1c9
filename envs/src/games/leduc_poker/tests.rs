//! Tests of the rules, observations and oracle.
use super::*;
use crate::games::cfr::{Policy, Tree};

fn deal(cards: &[[u8; 3]]) -> LeducPoker {
    LeducPoker::reset(
        &LeducTask {
            deals: cards.to_vec(),
            oracle_seed: 0,
        },
        Rng::from_seed(0),
    )
}

fn play(game: &mut LeducPoker, moves: &[&str]) {
    for m in moves {
        let p = game.to_move();
        let act = game.parse_action(p, m).unwrap();
        game.apply(p, act).unwrap();
    }
}

/// The 120 equally likely ordered deals of one hand.
fn all_deals() -> Vec<(LeducTask, f64)> {
    one_hand_deals()
}

/// The oracle's table as a policy over observation texts.
fn oracle_as_policy() -> Policy {
    let mut policy = Policy::new();
    for (task, _) in all_deals() {
        let mut stack = vec![LeducPoker::reset(&task, Rng::from_seed(0))];
        while let Some(game) = stack.pop() {
            if game.over() {
                continue;
            }
            let p = game.to_move();
            policy.insert(
                game.observe(p).text,
                oracle_policy::probabilities(&game.policy_key(p), game.legal().len()),
            );
            for a in game.legal() {
                let mut next = game.clone();
                next.play(a);
                stack.push(next);
            }
        }
    }
    policy
}

#[test]
fn payoffs_follow_the_standard_rules() {
    // J=0,1 Q=2,3 K=4,5.
    let cases: &[([u8; 3], &[&str], i32)] = &[
        ([4, 2, 0], &["check", "check", "check", "check"], 1),
        ([0, 4, 1], &["check", "check", "check", "check"], 1), // pair of jacks beats a king
        ([0, 1, 4], &["bet", "call", "bet", "call"], 0),       // split
        (
            [2, 4, 0],
            &["bet", "raise", "call", "bet", "raise", "call"],
            -13,
        ),
        ([2, 4, 0], &["bet", "raise", "fold"], -3),
        (
            [2, 4, 0],
            &["check", "bet", "call", "check", "bet", "fold"],
            -3,
        ),
        (
            [5, 2, 0],
            &["check", "bet", "raise", "call", "bet", "call"],
            9,
        ),
    ];
    for (cards, moves, expected) in cases {
        let mut game = deal(&[*cards]);
        play(&mut game, moves);
        assert_eq!(game.turn(), Turn::Over, "{moves:?}");
        assert_eq!(game.chips(0), *expected, "{cards:?} {moves:?}");
    }
}

#[test]
fn observations_hide_the_opponent_card_and_the_undealt_board() {
    let mut game = deal(&[[4, 2, 0], [0, 2, 4]]);
    play(&mut game, &["bet"]);
    let text = game.observe(1).text;
    assert!(text.ends_with(
        "Hand 1 of 2, round 1. Your opponent acts first in each round. Your card: Q. Board: not dealt yet. \
         Actions: round 1: opponent bet; round 2: none. Pot: 4 (you put in 1). Your net chips so far: +0.\n\
         Your move: fold, call, raise. Reply with one word."
    ), "{text}");
    assert!(!text.contains('K') || !text.contains("Your card: K"));
    assert!(
        !game.observe(0).text.contains("Q."),
        "player 0 sees player 1's Q"
    );
    for p in 0..2 {
        let seen = game.observe(p).structured;
        assert_eq!(
            seen["board"],
            serde_json::Value::Null,
            "the board is not dealt yet"
        );
        assert_eq!(seen["card"], if p == 0 { "K" } else { "Q" });
        assert!(
            !seen
                .to_string()
                .contains(if p == 0 { "\"Q\"" } else { "\"K\"" })
        );
    }
    play(&mut game, &["call"]);
    assert!(game.observe(0).text.contains("Board: J."));
    assert_eq!(game.observe(1).structured["board"], "J");
    play(&mut game, &["check", "bet", "fold"]);
    assert_eq!(game.render(), "KQJ bc/cbf -3\nJQK /");
    let text = game.observe(1).text;
    assert!(text.contains("hand 1: round 1: opponent bet, you call; round 2: opponent check, you bet, opponent fold; you held Q; you won +3"), "{text}");
    assert!(
        !text.contains("opponent K"),
        "a folded hand's cards stay hidden"
    );
}

#[test]
fn illegal_and_ambiguous_actions_are_refused() {
    let mut game = deal(&[[0, 2, 4]]);
    assert!(game.apply(0, Act::Call).is_err());
    assert!(game.apply(0, Act::Raise).is_err());
    assert!(game.parse_action(0, "check or bet").is_err());
    play(&mut game, &["bet", "raise"]);
    assert!(game.apply(0, Act::Raise).is_err(), "a third raise");
    assert!(game.apply(0, Act::Check).is_err());
}

#[test]
fn cfr_on_these_rules_finds_the_known_game_value() {
    let tree = Tree::build::<LeducPoker>(&all_deals());
    assert_eq!(
        tree.infosets.len(),
        288,
        "the standard count of Leduc information sets"
    );
    let policy = tree.cfr(1000);
    let value = tree.expected_returns(&policy)[0];
    eprintln!(
        "leduc CFR+ 1000 iterations: value {value}, exploitability {}",
        tree.exploitability(&policy)
    );
    // Published value for the first player: −0.0856.
    assert!((value + 0.0856).abs() < 0.002, "CFR value {value}");
    assert!(
        tree.exploitability(&policy) < 0.015,
        "exploitability {}",
        tree.exploitability(&policy)
    );
}

#[test]
fn the_oracle_table_is_close_to_an_equilibrium() {
    let tree = Tree::build::<LeducPoker>(&all_deals());
    let policy = oracle_as_policy();
    assert_eq!(policy.len(), 288);
    let exploitability = tree.exploitability(&policy);
    eprintln!(
        "leduc oracle table: value {:?}, exploitability {exploitability}",
        tree.expected_returns(&policy)
    );
    assert!(
        exploitability < 0.003,
        "oracle exploitability {exploitability}"
    );
    assert!(
        tree.exploitability(&Policy::new()) > 1.0,
        "uniform play is exploitable"
    );
}

#[test]
#[ignore = "regenerates policy.txt; run with --release --ignored --nocapture"]
fn print_policy_table() {
    let tree = Tree::build::<LeducPoker>(&all_deals());
    let policy = tree.cfr(20000);
    eprintln!(
        "value {:?} exploitability {}",
        tree.expected_returns(&policy),
        tree.exploitability(&policy)
    );
    let mut lines = std::collections::BTreeSet::new();
    for (task, _) in all_deals() {
        let mut stack = vec![LeducPoker::reset(&task, Rng::from_seed(0))];
        while let Some(game) = stack.pop() {
            if game.over() {
                continue;
            }
            let p = game.to_move();
            let probs: Vec<String> = policy[&game.observe(p).text]
                .iter()
                .map(|x| format!("{x:.4}"))
                .collect();
            lines.insert(format!("{} {}", game.policy_key(p), probs.join(",")));
            for a in game.legal() {
                let mut next = game.clone();
                next.play(a);
                stack.push(next);
            }
        }
    }
    for line in lines {
        println!("{line}");
    }
}
