use super::reads::Reads;
use super::rules::{EIGHT, FULL, MAX_PLAYERS, Move, Rules, Scoring, Table, parse_card};
use super::*;

fn c(name: &str) -> u8 {
    parse_card(name).unwrap()
}

fn set(names: &[&str]) -> u64 {
    names.iter().fold(0, |a, n| a | 1 << c(n))
}

fn rules(players: usize) -> Rules {
    Rules {
        players,
        max_draw: 2,
        max_turns: 100,
        reshuffle: false,
        scoring: Scoring::Standard,
    }
}

/// A table with these hands (seat 0 moves first: the dealer is the last
/// seat) and top card; the pile holds every other card.
fn table(players: usize, hands: &[&[&str]], top: &str) -> Table {
    let mut h = [0u64; MAX_PLAYERS];
    for (p, names) in hands.iter().enumerate() {
        h[p] = set(names);
    }
    Table::from_deal(rules(players), players - 1, h, c(top))
}

#[test]
fn cards_parse_and_name_as_openspiel_numbers_them() {
    assert_eq!(c("2C"), 0);
    assert_eq!(c("2s"), 3);
    assert_eq!(c("8C"), 4 * EIGHT);
    assert_eq!(c("10h"), c("TH"));
    assert_eq!(c("AS"), 51);
    assert_eq!(rules::card_name(34), "TH");
    for bad in ["", "1H", "8X", "ÀH", "H8", "QQ"] {
        assert_eq!(parse_card(bad), None, "{bad}");
    }
}

#[test]
fn legal_moves_match_suit_rank_or_an_eight() {
    // Top 5H: 7H matches the suit, 5S the rank, 8S is wild; 7C and 2D do not.
    let t = table(2, &[&["7H", "7C", "2D", "8S", "5S"], &["3C"]], "5H");
    assert_eq!(
        t.legal(),
        vec![
            Move::Play(c("5S")),
            Move::Play(c("7H")),
            Move::Play(c("8S")),
            Move::Draw
        ]
    );
    assert!(!t.is_legal(Move::Play(c("7C"))));
    assert!(!t.is_legal(Move::Play(c("3C"))), "not in the mover's hand");
    assert!(!t.is_legal(Move::Pass), "no pass before drawing");
}

#[test]
fn draws_are_capped_and_an_eight_names_the_suit() {
    let mut t = table(3, &[&["7C", "8S"], &["3C", "4C"], &["5C", "6C"]], "5H");
    let mut rng = Rng::from_seed(1);
    let pile = t.deck_size();
    assert!(t.apply(Move::Draw, &mut rng).is_some());
    assert!(t.apply(Move::Draw, &mut rng).is_some());
    assert_eq!((t.deck_size(), t.hands[0].count_ones()), (pile - 2, 4));
    assert!(!t.legal().contains(&Move::Draw), "max_draw = 2 reached");
    assert!(t.legal().contains(&Move::Pass));
    t.apply(Move::Play(c("8S")), &mut rng);
    assert_eq!(t.mover, 0, "the 8's player names the suit");
    assert_eq!(t.legal(), (0..4).map(Move::Name).collect::<Vec<_>>());
    t.apply(Move::Name(0), &mut rng);
    assert_eq!((t.mover, t.suit, t.drawn), (1, 0, 0));
    // Clubs now fit on the 8 of spades.
    assert!(t.legal().contains(&Move::Play(c("3C"))));
    assert!(
        !t.legal().contains(&Move::Pass),
        "a new turn must draw first"
    );
}

#[test]
fn penalties_follow_the_scoring_rule() {
    let hand = set(&["8S", "KD", "AC", "7H", "TC"]);
    // Standard: 50 + 10 + 1 + 7 + 10.
    assert_eq!(Scoring::Standard.hand_penalty(hand), 78);
    // OpenSpiel 2.0.2: 50 + 10 + 10, 7H is card 22 -> 24, TC card 32 -> 34.
    assert_eq!(Scoring::Openspiel.hand_penalty(hand), 128);
    assert_eq!(Scoring::Openspiel.penalty(c("2C")), 2);
    assert_eq!(Scoring::Openspiel.penalty(c("TS")), 37);
    assert!(Scoring::Standard.max_penalty() < Scoring::Openspiel.max_penalty());
}

#[test]
fn the_game_ends_on_an_empty_hand_the_turn_cap_or_passes_round_an_empty_pile() {
    let mut rng = Rng::from_seed(2);
    // Going out wins, whatever the others hold.
    let mut t = table(2, &[&["6H"], &["AS", "2S"]], "5H");
    t.apply(Move::Play(c("6H")), &mut rng);
    assert!(t.over);
    assert_eq!(t.winner(), Some(0));
    assert_eq!((t.penalty(0), t.penalty(1)), (0, 3));
    // The cap: the second card played ends it; the lower penalty wins.
    let mut t = table(2, &[&["6H", "9H"], &["7H", "KS"]], "5H");
    t.rules.max_turns = 2;
    t.apply(Move::Play(c("6H")), &mut rng);
    t.apply(Move::Play(c("7H")), &mut rng);
    assert!(t.over);
    assert_eq!((t.penalty(0), t.penalty(1), t.winner()), (9, 10, Some(0)));
    // Empty pile: players + 1 passes in a row end it; equal penalties tie.
    let mut t = table(2, &[&["2C"], &["2D"]], "5H");
    t.deck = 0;
    for k in 0..3 {
        assert!(!t.over, "pass {k}");
        assert_eq!(t.legal(), vec![Move::Pass]);
        t.apply(Move::Pass, &mut rng);
    }
    assert!(t.over);
    assert_eq!(t.winner(), None);
}

#[test]
fn the_last_card_drawn_lets_the_drawer_pass_at_once() {
    let mut t = table(2, &[&["2C"], &["3C"]], "5H");
    t.deck = 1 << c("9D");
    let mut rng = Rng::from_seed(3);
    assert_eq!(t.apply(Move::Draw, &mut rng), Some(c("9D")));
    assert_eq!(t.legal(), vec![Move::Pass]);
    // With reshuffle the discards (not the top card) refill the pile.
    let mut t = table(2, &[&["5C", "2C"], &["3C"]], "5H");
    t.rules.reshuffle = true;
    t.deck = 1 << c("9D");
    t.apply(Move::Play(c("5C")), &mut rng);
    t.apply(Move::Draw, &mut rng);
    assert!(
        t.deck >> c("5H") & 1 == 1,
        "5H went under the 5C and comes back"
    );
    assert!(t.deck >> c("5C") & 1 == 0, "the top card stays");
    assert_eq!(t.deck & (t.hands[0] | t.hands[1]), 0);
    assert_eq!(
        t.legal().last(),
        Some(&Move::Draw),
        "a refilled pile can be drawn from"
    );
}

#[test]
fn moves_parse_leniently_and_hedges_are_refused() {
    let play = |n: &str| Ok(Move::Play(c(n)));
    assert_eq!(text::parse("play 7H"), play("7H"));
    assert_eq!(text::parse("7h"), play("7H"));
    assert_eq!(text::parse("I'll play the 10 of diamonds."), play("TD"));
    assert_eq!(text::parse("play 10D"), play("TD"));
    assert_eq!(text::parse("queen of spades"), play("QS"));
    assert_eq!(text::parse("Draw."), Ok(Move::Draw));
    assert_eq!(text::parse("pass"), Ok(Move::Pass));
    assert_eq!(text::parse("name hearts"), Ok(Move::Name(2)));
    assert_eq!(text::parse("suit S"), Ok(Move::Name(3)));
    assert_eq!(text::parse("Spades."), Ok(Move::Name(3)));
    for bad in [
        "play 7H or draw",
        "7H 9H",
        "name hearts or spades",
        "",
        "play",
        "play 7 of hearts, then name hearts",
    ] {
        assert!(text::parse(bad).is_err(), "{bad}");
    }
}

fn env<const N: usize>(seed: u64) -> CrazyEights<N> {
    let mut rng = Rng::from_seed(seed);
    let task = CrazyEights::<N>::generate(&CrazyEightsConfig::default(), &mut rng);
    CrazyEights::<N>::reset(&task, rng.fork(1))
}

#[test]
fn observations_show_counts_never_another_seats_cards() {
    let mut g = env::<3>(4);
    // Some public moves first, so the log is not empty.
    for _ in 0..6 {
        let p = g.table.mover;
        let mv = players::heuristic(&g.table, &mut Rng::from_seed(9));
        g.apply(p, mv).unwrap();
    }
    for viewer in 0..3 {
        let seen = g.observe(viewer);
        let own_part = seen.text.split_once("Your hand").unwrap().1;
        for other in (0..3).filter(|&p| p != viewer) {
            for card in rules::cards_of(g.table.hands[other]) {
                let name = rules::card_name(card);
                assert!(
                    !own_part.contains(&name)
                        && !seen.structured.to_string().contains(&format!("\"{name}\"")),
                    "seat {viewer} sees seat {other}'s {name}"
                );
            }
        }
        // Another deal of the hidden cards (same sizes) leaves the view as it is.
        let mut other = g.clone();
        let others: Vec<usize> = (0..3).filter(|&p| p != viewer).collect();
        let hidden = others
            .iter()
            .fold(other.table.deck, |a, &p| a | other.table.hands[p]);
        let mut pool: Vec<u8> = rules::cards_of(hidden).collect();
        Rng::from_seed(viewer as u64).shuffle(&mut pool);
        let mut next = pool.into_iter();
        for &p in &others {
            let size = other.table.hands[p].count_ones() as usize;
            other.table.hands[p] = next.by_ref().take(size).fold(0, |a, c| a | 1 << c);
        }
        other.table.deck = next.fold(0, |a, c| a | 1 << c);
        assert_ne!(other.table.hands, g.table.hands);
        assert_eq!(
            other.observe(viewer),
            seen,
            "seat {viewer}'s view depends on hidden cards"
        );
    }
    let text = g.observe(g.table.mover).text;
    assert!(text.contains("Cards held: player 0"), "{text}");
    assert!(text.contains("Legal moves: "), "{text}");
    assert!(
        g.observe((g.table.mover + 1) % 3)
            .text
            .contains("Waiting for player")
    );
}

#[test]
fn an_observation_reads_as_written() {
    let task = CrazyEightsTask {
        max_draw_cards: 5,
        max_turns: 100,
        reshuffle: false,
        scoring: Scoring::Standard,
        dealer: 1,
        hands: vec![
            vec!["7H".into(), "8S".into(), "2C".into()],
            vec!["KD".into(), "QD".into()],
        ],
        top: "5H".into(),
    };
    let g = CrazyEights::<2>::reset(&task, Rng::from_seed(0));
    let text = g.observe(0).text;
    let tail = text.split_once("Your hand").unwrap().1;
    assert_eq!(
        tail,
        " (3): 2C 7H 8S\nTop card: 5H; suit to match: hearts.\nCards held: player 0 (you) 3, player 1 2.\n\
         Draw pile: 46 cards. Cards played: 0 of 100.\nRecent moves: none.\nYour move (you have drawn 0 of at \
         most 5 cards this turn). Legal moves: play 7H, play 8S, draw.\nReply with one move, e.g. `play 7H`."
    );
    assert_eq!(
        g.observe(0).legal_actions.unwrap(),
        ["play 7H", "play 8S", "draw"]
    );
    let mut g = g;
    assert!(g.apply(0, Move::Play(c("2C"))).is_err());
    assert!(g.apply(1, Move::Draw).is_err(), "not player 1's turn");
    assert_eq!(
        g.apply(0, Move::Play(c("7H"))).unwrap(),
        vec!["player 0 plays 7H"]
    );
    assert!(
        g.observe(1)
            .text
            .contains("Recent moves: player 0 plays 7H.")
    );
}

#[test]
fn scores_at_the_end_are_penalties_over_the_most_a_hand_costs() {
    let task = CrazyEightsTask {
        max_draw_cards: 5,
        max_turns: 100,
        reshuffle: false,
        scoring: Scoring::Standard,
        dealer: 1,
        hands: vec![vec!["7H".into()], vec!["KD".into(), "8D".into()]],
        top: "5H".into(),
    };
    let mut g = CrazyEights::<2>::reset(&task, Rng::from_seed(0));
    assert_eq!(g.score(0), Score::default());
    let events = g.apply(0, text::parse("play 7H").unwrap()).unwrap();
    assert_eq!(events, vec!["player 0 plays 7H", "player 0 wins"]);
    assert_eq!(g.turn(), Turn::Over);
    let (won, lost) = (g.score(0), g.score(1));
    assert!(won.passed && won.reward == 0.0);
    assert!(!lost.passed);
    assert_eq!(lost.breakdown["penalty"], 60.0);
    let max = f64::from(Scoring::Standard.max_penalty());
    assert!((lost.reward + 60.0 / max).abs() < 1e-12);
    assert!(g.observe(1).text.contains(
        "Game over: a hand is empty. Penalties: player 0 0, player 1 60. Player 0 wins."
    ));
}

/// Random games through `Env::apply`, each move uniform over the legal
/// ones as OpenSpiel lists them (draw, pass and naming a suit are moves of
/// their own); `VERIGYM_AGREEMENT_GAMES` raises the count (100000 by hand).
fn agreement_games() -> u64 {
    std::env::var("VERIGYM_AGREEMENT_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000)
}

fn random_game<const N: usize>(
    config: &CrazyEightsConfig,
    rng: &mut Rng,
) -> crate::games::agreement::Table {
    let task = CrazyEights::<N>::generate(config, rng);
    let mut g = CrazyEights::<N>::reset(&task, rng.fork(0));
    let mut plies = 0;
    while let Turn::Player(p) = g.turn() {
        let legal = g.table.legal();
        let mv = legal[rng.below(legal.len() as u64) as usize];
        g.apply(p, mv).unwrap();
        plies += 1;
    }
    let first = (g.table.dealer + 1) % N;
    let winner = g.table.winner().map(|w| (w + N - first) % N);
    let returns = (0..N)
        .map(|k| -f64::from(g.table.penalty((first + k) % N)))
        .collect();
    (winner, returns, plies)
}

fn openspiel_config() -> CrazyEightsConfig {
    CrazyEightsConfig {
        max_draw_cards: 5,
        max_turns: 100,
        reshuffle: false,
        scoring: Scoring::Openspiel,
    }
}

#[test]
fn random_play_agrees_with_openspiel_four_players() {
    let json = include_str!("../agreement/crazy-eights.json");
    assert!(json.contains("crazy_eights(players=4,max_draw_cards=5,max_turns=100,reshuffle=False"));
    let config = openspiel_config();
    crate::games::agreement::check_many(
        "crazy eights (4 players)",
        json,
        agreement_games(),
        |rng| random_game::<4>(&config, rng),
    );
}

#[test]
fn random_play_agrees_with_openspiel_two_players() {
    let json = include_str!("../agreement/crazy-eights-2p.json");
    assert!(json.contains("crazy_eights(players=2,max_draw_cards=5,max_turns=100,reshuffle=False"));
    let config = openspiel_config();
    crate::games::agreement::check_many(
        "crazy eights (2 players)",
        json,
        agreement_games(),
        |rng| random_game::<2>(&config, rng),
    );
}

/// A player of the duels: the table and the public reads.
type Policy = fn(&Table, &Reads, &mut Rng) -> Move;

/// Mean penalty and wins of `hero` (in every seat in turn) over `games`
/// deals, with `hero` against `rest` everywhere else.
fn duel<const N: usize>(games: u64, hero: Policy, rest: Policy) -> (f64, f64, u64) {
    let (mut mine, mut theirs, mut wins) = (0.0, 0.0, 0);
    for seed in 0..games {
        let g = env::<N>(seed);
        let mut t = g.table.clone();
        let mut reads = Reads::new(&t);
        let mut rng = Rng::from_seed(seed ^ 0x5eed);
        let seat = (seed % N as u64) as usize;
        while !t.over {
            let mv = if t.mover == seat {
                hero(&t, &reads, &mut rng)
            } else {
                rest(&t, &reads, &mut rng)
            };
            assert!(t.is_legal(mv));
            reads.note(&t, mv);
            t.apply(mv, &mut rng);
        }
        mine += f64::from(t.penalty(seat));
        theirs += (0..N)
            .filter(|&p| p != seat)
            .map(|p| f64::from(t.penalty(p)))
            .sum::<f64>()
            / (N - 1) as f64;
        wins += u64::from(t.winner() == Some(seat));
    }
    (mine / games as f64, theirs / games as f64, wins)
}

fn random(t: &Table, _reads: &Reads, rng: &mut Rng) -> Move {
    let legal = t.legal();
    legal[rng.below(legal.len() as u64) as usize]
}

fn heuristic(t: &Table, _reads: &Reads, rng: &mut Rng) -> Move {
    players::heuristic(t, rng)
}

fn oracle(t: &Table, reads: &Reads, _rng: &mut Rng) -> Move {
    players::oracle(t, reads)
}

#[test]
fn the_ladder_climbs_random_heuristic_oracle() {
    let (h, r, wins) = duel::<2>(200, heuristic, random);
    eprintln!("crazy eights 2p: heuristic penalty {h:.1} vs random {r:.1}, {wins}/200 wins");
    assert!(
        h + 10.0 < r && wins > 150,
        "heuristic {h:.1}, random {r:.1}, {wins} wins"
    );
    let (h, r, wins) = duel::<4>(200, heuristic, random);
    eprintln!("crazy eights 4p: heuristic penalty {h:.1} vs random {r:.1}, {wins}/200 wins");
    assert!(
        h + 10.0 < r && wins > 100,
        "heuristic {h:.1}, random {r:.1}, {wins} wins"
    );
    let (o, r, wins) = duel::<4>(100, oracle, random);
    eprintln!("crazy eights 4p: oracle penalty {o:.1} vs random {r:.1}, {wins}/100 wins");
    assert!(
        o + 10.0 < r && wins > 50,
        "oracle {o:.1}, random {r:.1}, {wins} wins"
    );
}

/// Two players: the oracle against the heuristic wins more than half the
/// games by more than chance gives (one-sided 5%: half plus 1.645 standard
/// deviations, 216 of 400) with a lower mean penalty. Seeded, so the count
/// is fixed (251). Three and four seats: `ladder_tests.rs`, through the
/// registry.
#[test]
fn the_oracle_beats_the_heuristic_two_players() {
    let games = 400;
    let (o, h, wins) = duel::<2>(games, oracle, heuristic);
    let chance = games as f64 * 0.5 + 1.645 * (games as f64 * 0.25).sqrt();
    eprintln!(
        "crazy eights 2p: oracle penalty {o:.2} vs heuristic {h:.2}, {wins}/{games} wins (chance {chance:.0})"
    );
    assert!(
        o < h && wins as f64 > chance,
        "oracle {o:.2}, heuristic {h:.2}, {wins}/{games} wins"
    );
}

/// Search settings against the heuristic in every other seat, at each
/// table size (a measurement: `--ignored search_settings --nocapture`;
/// `VERIGYM_C8_GAMES` sets the games per setting, default 400).
#[test]
#[ignore = "a measurement, not a check"]
fn search_settings() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    // (samples, win bonus, deals read from the public moves)
    const SETTINGS: [(usize, f64, bool); 7] = [
        (24, 25.0, false),
        (96, 100.0, false),
        (24, 25.0, true),
        (48, 100.0, true),
        (96, 25.0, true),
        (96, 100.0, true),
        (192, 100.0, true),
    ];
    static SETTING: AtomicUsize = AtomicUsize::new(0);
    fn hero(t: &Table, reads: &Reads, _rng: &mut Rng) -> Move {
        let (samples, win_bonus, read) = SETTINGS[SETTING.load(Ordering::Relaxed)];
        // Fresh reads know nothing: uniform deals of the unseen cards.
        let uniform = Reads::new(t);
        let reads = if read { reads } else { &uniform };
        players::oracle_with(t, reads, players::Search { samples, win_bonus })
    }
    fn measure<const N: usize>(games: u64, setting: (usize, f64, bool)) {
        let started = std::time::Instant::now();
        let (o, h, wins) = duel::<N>(games, hero, heuristic);
        let (samples, bonus, read) = setting;
        eprintln!(
            "{N}p samples {samples} bonus {bonus} read {read}: oracle {o:.2} vs heuristics {h:.2}, \
             {wins}/{games} wins, {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let games = std::env::var("VERIGYM_C8_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    for (i, setting) in SETTINGS.iter().enumerate() {
        SETTING.store(i, Ordering::Relaxed);
        measure::<2>(games, *setting);
        measure::<3>(games, *setting);
        measure::<4>(games, *setting);
    }
}

#[test]
fn deals_are_whole_and_an_eight_never_starts() {
    for seed in 0..200 {
        let g = env::<4>(seed);
        let t = &g.table;
        assert_ne!(rules::rank(t.top), EIGHT);
        let all = t.hands.iter().fold(t.deck | 1 << t.top, |a, h| a | h);
        assert_eq!(all, FULL);
        assert_eq!(t.hands.iter().map(|h| h.count_ones()).sum::<u32>(), 20);
        assert_eq!(t.deck_size(), 31);
        assert_eq!(t.mover, (t.dealer + 1) % 4);
    }
}

/// Random-play speed through `Env::apply` (`cargo test --release … --
/// --ignored crazy_eights_random_play_speed --nocapture` prints it).
#[test]
#[ignore = "a measurement, not a check"]
fn crazy_eights_random_play_speed() {
    let mut rng = Rng::from_seed(5);
    let config = CrazyEightsConfig::default();
    let started = std::time::Instant::now();
    let mut steps = 0;
    for _ in 0..20_000 {
        steps += random_game::<4>(&config, &mut rng).2;
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "crazy eights (4 players) random play: mean {:.2} plies, {:.0} steps/s",
        steps as f64 / 20_000.0,
        steps as f64 / seconds
    );
}
