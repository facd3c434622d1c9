//! Tests of the hand evaluator, the betting rules, the observations and the
//! agreement with OpenSpiel's `universal_poker`.
use super::eval::{self, value};
use super::*;
use crate::core::{Env, Turn};

fn cards(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|c| eval::parse(c).unwrap_or_else(|| panic!("card {c}")))
        .collect()
}

fn v(text: &str) -> u32 {
    value(&cards(text))
}

/// A one-hand game: player 0's cards, player 1's, the five board cards.
fn game(p0: &str, p1: &str, board: &str) -> HeadsUpLimitHoldem {
    let all = cards(&format!("{p0} {p1} {board}"));
    HeadsUpLimitHoldem::reset(
        &HoldemTask {
            deals: vec![all.try_into().unwrap()],
            oracle_seed: 0,
        },
        Rng::from_seed(0),
    )
}

fn play(game: &mut HeadsUpLimitHoldem, moves: &str) {
    for m in moves.split_whitespace() {
        let p = game.to_move();
        let act = game.parse_action(p, m).unwrap();
        game.apply(p, act).unwrap_or_else(|e| panic!("{m}: {e:?}"));
    }
}

fn legal(game: &HeadsUpLimitHoldem) -> Vec<&'static str> {
    game.legal().iter().map(|a| a.name()).collect()
}

#[test]
fn every_category_is_recognised_and_ordered() {
    // One hand per category, weakest first, each worked out by hand.
    let hands = [
        ("As Kd 9h 7c 5s 3d 2c", "high card"),
        ("As Ad 9h 7c 5s 3d 2c", "one pair"),
        ("As Ad 9h 9c 5s 3d 2c", "two pair"),
        ("As Ad Ah 9c 5s 3d 2c", "three of a kind"),
        ("9s Td Jh Qc Ks 3d 2c", "straight"),
        ("As Ks 9s 7s 2s 3d 2c", "flush"),
        ("As Ad Ah 9c 9s 3d 2c", "full house"),
        ("As Ad Ah Ac 9s 3d 2c", "four of a kind"),
        ("5h 6h 7h 8h 9h 3d 2c", "straight flush"),
    ];
    let mut last = None;
    for (hand, name) in hands {
        let value = v(hand);
        assert_eq!(eval::category(value), name, "{hand}");
        assert!(last < Some(value), "{hand} must beat the category below");
        last = Some(value);
    }
    // The exact packing of a high-card hand: its five highest ranks.
    assert_eq!(v("As Kd 9h 7c 5s 3d 2c"), 0xC_B7_53);
    assert_eq!(eval::names(&cards("As td 2C")), "As Td 2c");
    assert_eq!(eval::parse("1s"), None);
}

#[test]
fn kickers_straights_and_flushes_compare_by_hand() {
    let beats = |a: &str, b: &str| assert!(v(a) > v(b), "{a} must beat {b}");
    let ties = |a: &str, b: &str| assert_eq!(v(a), v(b), "{a} must tie {b}");
    // A pair's kickers, but only the best three count.
    beats("Ah Ad Kc 9s 7d 4c 2h", "Ah Ad Qc 9s 7d 4c 2h");
    beats("Ah Ad Kc 9s 7d 4c 2h", "Ah Ad Kc 8s 7d 4c 2h");
    ties("Ah Ad Kc 9s 7d 4c 2h", "Ah Ad Kc 9s 7d 3c 2h");
    // High card: the fifth card counts, the sixth does not.
    beats("Ah Kd 9c 7s 5d 3c 2h", "Ah Kd 9c 7s 4d 3c 2h");
    ties("Ah Kd 9c 7s 5d 4c 2h", "Ah Kd 9c 7s 5d 3c 2h");
    // Two pair with a third pair: the best kicker may be that pair's rank.
    beats("Kh Kd 8c 8s 4d 4c Qh", "Kh Kd 8c 8s 4d 4c 2h");
    beats("Kh Kd 8c 8s 5d 4c 2h", "Kh Kd 7c 7s Ad Qc Jh");
    ties("Kh Kd 8c 8s 6d 6c 2h", "Kh Kd 8c 8s 6d 5c 2h");
    // Trips with two kickers.
    beats("7h 7d 7c As 3d 2c 4h", "7h 7d 7c Ks Qd 2c 4h");
    // The wheel is the lowest straight; no straight wraps past the ace.
    assert_eq!(eval::category(v("Ah 2d 3c 4s 5h 9c Kd")), "straight");
    beats("2d 3c 4s 5h 6h 9c Kd", "Ah 2d 3c 4s 5h 9c Kd");
    beats("Ah 2d 3c 4s 5h 9c Kd", "Ah Ad Ac 4s 5h 9c Kd");
    assert_eq!(eval::category(v("Qh Kd Ac 2s 3h 8c 9d")), "high card");
    beats("Ts Jd Qc Kh Ad 2c 3c", "9s Ts Jd Qc Kh 2c 3c");
    ties("4s 5d 6c 7h 8d 8c 8h", "4s 5d 6c 7h 8d 3c 2h"); // trips lose to the straight they sit in
    // Six to a suit: the best five; a straight flush beats a higher flush.
    beats("Ah Kh 9h 7h 5h 3h 2c", "Ah Kh 9h 7h 4h 3h 2c");
    beats("9h Th Jh Qh Kh 2h Ac", "Ah Kh Qh Jh 9h 2h 3c");
    beats("Ah 2h 3h 4h 5h Kc Kd", "Kh Ks Kd Kc 2c 3c 4d");
    assert_eq!(eval::category(v("Ah 2h 3h 4h 5h Kc Kd")), "straight flush");
    // A flush beats a straight in another suit on the same board.
    beats("6h 7h 8c 9h Th 2h 3d", "6h 7d 8c 9h Td 2h 3d");
    // Full houses: trips first, and a second set of trips as the pair.
    ties("Kh Kd Kc 7s 7d 7c 2h", "Kh Kd Kc 7s 7d 2c 2h");
    beats("Kh Kd Kc 7s 7d 2c 2h", "Qh Qd Qc As Ad 2c 3h");
    // Quads take the best remaining card as the kicker.
    beats("9h 9d 9c 9s Ad 2c 3c", "9h 9d 9c 9s Kd Qc 3c");
    ties("9h 9d 9c 9s Kd Qc 3c", "9h 9d 9c 9s Kd 2c 3c");
}

#[test]
fn five_card_hands_have_the_textbook_category_counts() {
    // All C(52, 5) = 2,598,960 hands: category counts and 7,462 distinct
    // values, the standard figures.
    let mut counts = [0u32; 9];
    let mut values = std::collections::HashSet::new();
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let value = value(&[a, b, c, d, e]);
                        counts[(value >> 20) as usize] += 1;
                        values.insert(value);
                    }
                }
            }
        }
    }
    assert_eq!(
        counts,
        [
            1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40
        ]
    );
    assert_eq!(values.len(), 7_462);
}

#[test]
fn payoffs_follow_the_acpc_rules() {
    // Player 0 is the big blind in the first hand; the small blind (player
    // 1) acts first before the flop, the big blind after.
    let strong = ("As Ad", "7c 2d", "Ah Kd 9s 4c 3h"); // player 0 trips
    let cases: &[(&str, i32)] = &[
        ("fold", 5),
        ("call raise fold", 10),
        ("call check check check check check check check", 10),
        // Capped everywhere: 40 preflop, +40 on the flop, +80 each later round.
        (
            "raise raise raise call bet raise raise raise call bet raise raise raise call \
             bet raise raise raise call",
            240,
        ),
        ("call check bet call bet fold", 20),
        ("raise call check bet raise fold", 30),
    ];
    for (moves, expected) in cases {
        let mut g = game(strong.0, strong.1, strong.2);
        play(&mut g, moves);
        assert_eq!(g.turn(), Turn::Over, "{moves}");
        assert_eq!(g.chips(0), *expected, "{moves}");
        assert_eq!(g.chips(1), -expected, "{moves}");
    }
    // The same capped betting with player 1 winning, and with the board
    // playing for both (a split pot).
    let mut g = game("7c 2d", "As Ad", "Ah Kd 9s 4c 3h");
    play(&mut g, "call check check check check check check check");
    assert_eq!(g.chips(0), -10);
    let mut g = game("2c 3d", "4h 5s", "Ts Jd Qc Kh Ad");
    play(&mut g, "raise call bet call bet call bet call");
    assert_eq!((g.turn(), g.chips(0)), (Turn::Over, 0));
    assert!(g.results[0].showdown);
}

#[test]
fn the_raise_caps_and_the_offered_actions_match_openspiel() {
    let mut g = game("As Ad", "7c 2d", "Ah Kd 9s 4c 3h");
    assert_eq!(g.to_move(), 1, "the small blind acts first");
    assert_eq!(legal(&g), ["fold", "call", "raise"]);
    play(&mut g, "call");
    assert_eq!(legal(&g), ["check", "raise"], "the big blind's option");
    play(&mut g, "raise raise raise");
    assert_eq!(legal(&g), ["fold", "call"], "three raises cap the preflop");
    play(&mut g, "call");
    assert_eq!(
        (g.round, g.to_move()),
        (1, 0),
        "the big blind acts first on the flop"
    );
    assert_eq!(legal(&g), ["check", "bet"], "no fold without a bet");
    play(&mut g, "check bet raise raise raise");
    assert_eq!(
        legal(&g),
        ["fold", "call"],
        "a bet and three raises cap the flop"
    );
    assert_eq!(g.put, [80, 70]);
    // The blinds alternate in a match.
    let mut m = HeadsUpLimitHoldem::reset(
        &HoldemTask {
            deals: vec![g.deals[0], g.deals[0]],
            oracle_seed: 0,
        },
        Rng::from_seed(0),
    );
    play(&mut m, "fold");
    assert_eq!((m.to_move(), m.put), (0, [5, 10]));
}

#[test]
fn illegal_and_ambiguous_actions_are_refused() {
    let mut g = game("As Ad", "7c 2d", "Ah Kd 9s 4c 3h");
    assert!(
        g.apply(1, Act::Check).is_err(),
        "the small blind faces a bet"
    );
    assert!(g.apply(1, Act::Bet).is_err());
    assert!(g.parse_action(1, "call or raise").is_err());
    play(&mut g, "call");
    assert!(g.apply(0, Act::Fold).is_err(), "no fold without a bet");
    assert!(g.apply(0, Act::Call).is_err());
    play(&mut g, "check");
    assert!(
        g.apply(0, Act::Raise).is_err(),
        "a bet, not a raise, opens the flop"
    );
    assert_eq!(g.turn(), Turn::Player(0));
}

/// The cards named, as whole words, in a text.
fn card_words(text: &str) -> Vec<u8> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| eval::parse(w).filter(|&c| eval::name(c) == w))
        .collect()
}

/// Neither seat's view names the opponent's cards or the board cards not
/// yet shown of the current hand; each names its own and the shown board.
fn check_hidden(g: &HeadsUpLimitHoldem, shown: usize) {
    let deal = *g.deal();
    for p in 0..2 {
        let obs = g.observe(p);
        let seen = card_words(&obs.text);
        let structured = obs.structured.to_string();
        for &c in hole(&deal, 1 - p).iter().chain(&deal[4 + shown..]) {
            assert!(
                !seen.contains(&c),
                "seat {p} sees {}: {}",
                eval::name(c),
                obs.text
            );
            let quoted = format!("\"{}\"", eval::name(c));
            assert!(!structured.contains(&quoted), "{structured}");
        }
        for &c in hole(&deal, p).iter().chain(&deal[4..4 + shown]) {
            assert!(
                seen.contains(&c),
                "seat {p} misses {}: {}",
                eval::name(c),
                obs.text
            );
        }
    }
}

#[test]
fn a_seat_never_sees_the_opponents_cards_or_the_undealt_board() {
    let mut g = game("As Ad", "7c 2d", "Ah Kd 9s 4c 3h");
    let second = cards("Kc Qc Jd Td 2s 3s 5c 6d 8h");
    g.deals.push(second.try_into().unwrap());
    check_hidden(&g, 0);
    play(&mut g, "call check");
    check_hidden(&g, 3);
    let text = g.observe(1).text;
    assert!(
        text.ends_with(
            "Hand 1 of 2, flop. You are the small blind. Your cards: 7c 2d. Board: Ah Kd 9s. Betting: preflop: \
             you call, opponent check; flop (Ah Kd 9s): none. Pot: 20 (you put in 10); to call: 0. Your net \
             chips so far: +0.\nWaiting for the opponent."
        ),
        "{text}"
    );
    play(&mut g, "bet call");
    check_hidden(&g, 4);
    // A fold keeps the cards hidden.
    play(&mut g, "bet fold");
    check_hidden(&g, 0);
    let (seen0, seen1) = (
        card_words(&g.observe(0).text),
        card_words(&g.observe(1).text),
    );
    assert!(!seen0.iter().any(|c| cards("7c 2d").contains(c)));
    assert!(!seen1.iter().any(|c| cards("As Ad 3h").contains(c)));
    assert!(g.observe(1).text.contains(
        "hand 1: preflop: you call, opponent check; flop (Ah Kd 9s): opponent bet, you call; turn (4c): \
         opponent bet, you fold; you held 7c 2d; you won -20"
    ));
    // The second hand: player 0 is the small blind. A showdown shows both.
    assert_eq!(g.observe(0).structured["blind"], "small");
    play(&mut g, "call check check check check check check check");
    let text = g.observe(0).text;
    assert!(
        text.contains("showdown: you Kc Qc (high card), opponent Jd Td (high card)"),
        "{text}"
    );
    assert!(text.ends_with("Game over. Your net chips: +30."), "{text}");
}

#[test]
fn the_heuristic_and_oracle_play_by_their_hands() {
    let mut g = game("As Ad", "7c 2d", "Ah Kd 9s 4c 3h");
    let mut rng = Rng::from_seed(1);
    assert_eq!(
        g.heuristic(1, &mut rng).as_deref(),
        Some("fold"),
        "72 offsuit"
    );
    assert_eq!(
        g.oracle(1).as_deref(),
        Some("call"),
        "the small blind's pot odds are 4 to 1"
    );
    play(&mut g, "call");
    assert_eq!(g.heuristic(0, &mut rng).as_deref(), Some("raise"), "aces");
    assert_eq!(g.oracle(0).as_deref(), Some("raise"), "aces");
    assert_eq!(g.oracle(1), None, "not its turn");
    play(&mut g, "raise fold");
    // The oracle's draws are a function of the task: it replays.
    let mut a = game("Js Td", "9c 9d", "Ah 8d 7s 4c 3h");
    let b = a.clone();
    assert_eq!(a.oracle(1), b.oracle(1));
    play(&mut a, "call");
    assert_eq!(a.oracle_act(0), a.clone().oracle_act(0));
}

/// One uniformly random hand: the winner (`None` for a split), its plies,
/// whether it reached a showdown and player 0's return.
fn random_hand(rng: &mut Rng) -> (Option<usize>, u64, bool, i32) {
    let task = HoldemTask {
        deals: vec![random_deal(rng)],
        oracle_seed: 0,
    };
    let mut g = HeadsUpLimitHoldem::reset(&task, Rng::from_seed(0));
    let mut plies = 0;
    while !g.over() {
        let legal = g.legal();
        g.play(legal[rng.below(legal.len() as u64) as usize]);
        plies += 1;
    }
    let r = &g.results[0];
    let winner = match r.won_by_p0.signum() {
        1 => Some(0),
        -1 => Some(1),
        _ => None,
    };
    (winner, plies, r.showdown, r.won_by_p0)
}

/// Random hands against OpenSpiel's `universal_poker` on the ACPC limit
/// game (`scripts/openspiel-stats.py heads-up-limit-holdem`): win, loss and
/// split rates and mean plies ([`crate::games::agreement::check`]), then the
/// showdown rate and player 0's mean return, within 4.5 standard errors.
fn agree_with_openspiel(hands: u64) {
    let json = include_str!("../agreement/heads-up-limit-holdem.json");
    assert!(json.contains("maxRaises=3 4 4 4"));
    let (mut showdowns, mut ret, mut ret_sq) = (0u64, 0.0, 0.0);
    crate::games::agreement::check("heads-up-limit-holdem", json, hands, |rng| {
        let (winner, plies, showdown, won) = random_hand(rng);
        showdowns += u64::from(showdown);
        ret += f64::from(won);
        ret_sq += f64::from(won * won);
        (winner, plies)
    });
    let theirs: serde_json::Value = serde_json::from_str(json).unwrap();
    let n_theirs = theirs["games"].as_f64().unwrap();
    let n = hands as f64;
    let (a, b) = (
        showdowns as f64 / n,
        theirs["showdowns"].as_f64().unwrap() / n_theirs,
    );
    let pooled = (showdowns as f64 + b * n_theirs) / (n + n_theirs);
    let se = (pooled * (1.0 - pooled) * (1.0 / n + 1.0 / n_theirs)).sqrt();
    let mean = ret / n;
    let sd = (ret_sq / n - mean * mean).sqrt();
    let (their_mean, their_sd) = (
        theirs["mean_return_p0"].as_f64().unwrap(),
        theirs["sd_return_p0"].as_f64().unwrap(),
    );
    eprintln!(
        "showdowns {showdowns} of {hands} (OpenSpiel rate {b:.4}); player 0 returns {mean:.3} ± {sd:.3} \
         (OpenSpiel {their_mean:.3} ± {their_sd:.3})"
    );
    assert!(
        (a - b).abs() <= 4.5 * se,
        "showdown rate {a:.4} against {b:.4}"
    );
    let se = (sd * sd / n + their_sd * their_sd / n_theirs).sqrt();
    assert!(
        (mean - their_mean).abs() <= 4.5 * se,
        "mean return {mean:.3} against {their_mean:.3} (se {se:.3})"
    );
}

#[test]
fn random_play_agrees_with_openspiel() {
    agree_with_openspiel(5_000);
}

/// The random player draws exactly what the default draws from the observation's
/// legal list, for the mover and the waiting seat, through whole matches.
#[test]
fn the_random_player_draws_as_the_default_does() {
    let config = HoldemConfig { hands: 3 };
    for seed in 0..40 {
        let mut play_rng = Rng::from_seed(seed);
        let task = HeadsUpLimitHoldem::generate(&config, &mut play_rng);
        let mut g = HeadsUpLimitHoldem::reset(&task, Rng::from_seed(0));
        loop {
            for player in 0..2 {
                let (mut a, mut b) = (Rng::from_seed(seed ^ 77), Rng::from_seed(seed ^ 77));
                let listed = match g.observe(player).legal_actions {
                    Some(legal) if !legal.is_empty() => {
                        legal[b.below(legal.len() as u64) as usize].clone()
                    }
                    _ => b.range_i64(-20, 20).to_string(),
                };
                assert_eq!(g.random_action(player, &mut a), listed);
            }
            let Turn::Player(p) = g.turn() else { break };
            let text = g.random_action(p, &mut play_rng);
            let act = g.parse_action(p, &text).unwrap();
            g.apply(p, act).unwrap();
        }
    }
}

#[test]
#[ignore = "100,000 hands; run with --release --ignored --nocapture"]
fn random_play_agrees_with_openspiel_over_100k_hands() {
    agree_with_openspiel(100_000);
}

#[test]
#[ignore = "a speed figure; run with --release --ignored --nocapture"]
fn random_play_steps_per_cpu_second() {
    // Through the text path, as a seat plays: observation text, a random
    // legal action, parsed and applied; one-hand games.
    let config = HoldemConfig { hands: 1 };
    let mut rng = Rng::from_seed(5);
    let (mut steps, started) = (0u64, std::time::Instant::now());
    for _ in 0..50_000 {
        let task = HeadsUpLimitHoldem::generate(&config, &mut rng);
        let mut g = HeadsUpLimitHoldem::reset(&task, Rng::from_seed(0));
        while let Turn::Player(p) = g.turn() {
            let text = g.random_action(p, &mut rng);
            let act = g.parse_action(p, &text).unwrap();
            g.apply(p, act).unwrap();
            steps += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "heads-up limit hold'em random play (text path): {steps} steps, {:.0} steps/s",
        steps as f64 / seconds
    );
}
