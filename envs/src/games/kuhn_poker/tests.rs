//! Tests of the rules, observations and oracle.
use super::*;
use crate::games::cfr::{Policy, Tree};

fn task(deals: &[[u8; 2]], oracle_seed: u64) -> KuhnTask {
    KuhnTask {
        deals: deals.to_vec(),
        oracle_seed,
    }
}

fn deal(cards: &[[u8; 2]]) -> KuhnPoker {
    KuhnPoker::reset(&task(cards, 0), Rng::from_seed(0))
}

fn play(game: &mut KuhnPoker, moves: &[&str]) {
    for m in moves {
        let p = game.to_move();
        let act = game.parse_action(p, m).unwrap();
        game.apply(p, act).unwrap();
    }
}

/// The six equally likely deals of one hand.
fn all_deals() -> Vec<(KuhnTask, f64)> {
    one_hand_deals()
}

#[test]
fn payoffs_follow_the_standard_rules() {
    let cases: &[([u8; 2], &[&str], i32)] = &[
        ([2, 0], &["check", "check"], 1),
        ([0, 2], &["check", "check"], -1),
        ([0, 1], &["bet", "fold"], 1),
        ([2, 1], &["check", "bet", "fold"], -1),
        ([1, 2], &["check", "bet", "call"], -2),
        ([2, 1], &["bet", "call"], 2),
    ];
    for (cards, moves, expected) in cases {
        let mut game = deal(&[*cards]);
        play(&mut game, moves);
        assert_eq!(game.turn(), Turn::Over, "{moves:?}");
        assert_eq!(game.chips(0), *expected, "{cards:?} {moves:?}");
        assert_eq!(game.score(0).reward + game.score(1).reward, 0.0);
    }
}

#[test]
fn observations_show_own_card_only_and_match_literals() {
    let mut game = deal(&[[0, 2], [1, 0]]);
    play(&mut game, &["bet"]);
    assert_eq!(
        game.observe(1).text,
        "Kuhn poker, 2 hands. Deck: J < Q < K; each player antes 1 chip and gets one card. \
         A bet or a call adds 1 chip. A fold loses the pot; otherwise the higher card wins it.\n\
         Hand 1 of 2. Your opponent acts first. Your card: K. Actions: opponent bet. Pot: 3 (you put in 1). Your net chips so far: +0.\n\
         Your move: fold or call. Reply with one word."
    );
    assert!(
        !game.observe(0).text.contains("K."),
        "player 0 sees player 1's K"
    );
    assert!(!game.observe(0).structured.to_string().contains('K'));
    play(&mut game, &["fold"]);
    // The folded hand's cards stay hidden; player 1 acts first in hand 2.
    let text = game.observe(1).text;
    assert!(
        text.contains("hand 1: opponent bet, you fold; you held K; you lost 1\n"),
        "{text}"
    );
    assert!(
        text.contains("Hand 2 of 2. You act first. Your card: J."),
        "{text}"
    );
    assert!(!game.observe(0).text.contains("opponent K"));
    play(&mut game, &["check", "bet", "call"]);
    assert_eq!(game.render(), "JK bet-fold +1\nQJ check-bet-call +2");
    assert!(
        game.observe(1)
            .text
            .contains("showdown: you J, opponent Q; you lost 2")
    );
    assert_eq!(game.score(0).reward, 1.5);
    assert_eq!(game.score(0).breakdown["chips"], 3.0);
    assert!(game.observe(0).legal_actions.unwrap().is_empty());
}

#[test]
fn illegal_and_ambiguous_actions_are_refused() {
    let mut game = deal(&[[0, 1]]);
    assert!(game.parse_action(0, "check or bet").is_err());
    assert!(game.parse_action(0, "raise").is_err());
    assert_eq!(game.parse_action(0, "I will PASS."), Ok(Act::Check));
    assert!(game.apply(0, Act::Call).is_err());
    play(&mut game, &["bet"]);
    assert_eq!(game.parse_action(1, "pass"), Ok(Act::Fold));
    assert!(game.apply(1, Act::Check).is_err());
}

#[test]
fn random_play_is_worth_exactly_one_eighth_to_the_first_player() {
    // Every deal and every uniformly random choice, enumerated exactly.
    fn mean(game: &KuhnPoker) -> f64 {
        if game.over() {
            return f64::from(game.chips(0));
        }
        let legal = game.legal();
        legal
            .iter()
            .map(|&a| {
                let mut next = game.clone();
                next.apply(next.to_move(), a).unwrap();
                mean(&next)
            })
            .sum::<f64>()
            / legal.len() as f64
    }
    let value: f64 = all_deals()
        .iter()
        .map(|(t, p)| p * mean(&KuhnPoker::reset(t, Rng::from_seed(0))))
        .sum();
    assert!(
        (value - 0.125).abs() < 1e-12,
        "random-vs-random value {value}"
    );
    // The same through the generic tree with the uniform policy.
    let tree = Tree::build::<KuhnPoker>(&all_deals());
    let uniform = tree.expected_returns(&Policy::new());
    assert!((uniform[0] - 0.125).abs() < 1e-12 && (uniform[0] + uniform[1]).abs() < 1e-12);
}

#[test]
fn cfr_on_these_rules_finds_the_game_value_minus_one_eighteenth() {
    let tree = Tree::build::<KuhnPoker>(&all_deals());
    assert_eq!(tree.infosets.len(), 12, "3 cards × 4 decision points");
    let policy = tree.cfr(2000);
    let value = tree.expected_returns(&policy)[0];
    eprintln!(
        "kuhn CFR+ 2000 iterations: value {value}, exploitability {}",
        tree.exploitability(&policy)
    );
    assert!((value + 1.0 / 18.0).abs() < 0.002, "CFR value {value}");
    assert!(
        tree.exploitability(&policy) < 0.005,
        "exploitability {}",
        tree.exploitability(&policy)
    );
}

#[test]
fn the_oracle_plays_an_unexploitable_equilibrium() {
    let tree = Tree::build::<KuhnPoker>(&all_deals());
    let mut policy = Policy::new();
    for (task, _) in all_deals() {
        let mut stack = vec![KuhnPoker::reset(&task, Rng::from_seed(0))];
        while let Some(game) = stack.pop() {
            if game.over() {
                continue;
            }
            policy.insert(game.observe(game.to_move()).text, game.equilibrium());
            for a in game.legal() {
                let mut next = game.clone();
                next.apply(next.to_move(), a).unwrap();
                stack.push(next);
            }
        }
    }
    let value = tree.expected_returns(&policy)[0];
    assert!(
        (value + 1.0 / 18.0).abs() < 1e-12,
        "equilibrium value {value}"
    );
    assert!(
        tree.exploitability(&policy) < 1e-12,
        "exploitable by {}",
        tree.exploitability(&policy)
    );
    assert_eq!(
        exploitability(&policy),
        tree.exploitability(&policy),
        "the library entry point"
    );
    // The uniform policy is exploitable, so the measure can fail.
    assert!(tree.exploitability(&Policy::new()) > 0.1);
    // The oracle's sampled choices follow those probabilities.
    let mut bets = 0;
    for seed in 0..600 {
        let mut game = KuhnPoker::reset(&task(&[[0, 2]], seed), Rng::from_seed(0));
        play(&mut game, &["check"]);
        bets += usize::from(game.oracle(1).unwrap() == "bet");
        assert_eq!(deal(&[[0, 1]]).oracle(0).as_deref(), Some("check"));
    }
    assert_eq!(bets, 600, "K always bets after a check");
    let mut jack_bets = 0;
    for seed in 0..600 {
        let mut game = KuhnPoker::reset(&task(&[[1, 0]], seed), Rng::from_seed(0));
        play(&mut game, &["check"]);
        jack_bets += usize::from(game.oracle(1).unwrap() == "bet");
    }
    assert!(
        (160..240).contains(&jack_bets),
        "J bluffs {jack_bets}/600, expected ~200"
    );
}
