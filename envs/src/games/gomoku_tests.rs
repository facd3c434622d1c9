use super::*;

fn play_on(size: usize, overlines_win: bool, points: &[&str]) -> Gomoku {
    let mut g = Gomoku::new(size, overlines_win);
    for p in points {
        let i = g.parse_action(g.to_move(), p).unwrap();
        g.apply(g.to_move(), i).unwrap();
    }
    g
}

fn play(points: &[&str]) -> Gomoku {
    play_on(9, false, points)
}

#[test]
fn exactly_five_in_a_row_wins_in_every_direction() {
    // Across: X a1..e1, O answers in row 9.
    let g = play(&["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "e1"]);
    assert_eq!(g.winner, Some(0));
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.score(0).reward + g.score(1).reward, 0.0);
    // Down, for O.
    let g = play(&["a1", "i1", "b1", "i2", "c1", "i3", "d1", "i4", "a9", "i5"]);
    assert_eq!(g.winner, Some(1), "\n{}", g.render());
    // Both diagonals.
    let g = play(&["a1", "a9", "b2", "b9", "c3", "c9", "d4", "d9", "e5"]);
    assert_eq!(g.winner, Some(0));
    let g = play(&["i1", "a9", "h2", "b9", "g3", "c9", "f4", "d9", "e5"]);
    assert_eq!(g.winner, Some(0));
    // Four, a gap, then a stone: no win; no wrap from one row to the next.
    let g = play(&["a1", "a9", "b1", "b9", "c1", "c9", "d1", "d9", "f1"]);
    assert_eq!(g.winner, None);
    let g = play(&["f1", "a9", "g1", "b9", "h1", "c9", "i1", "e9", "a2"]);
    assert_eq!(g.winner, None, "\n{}", g.render());
}

#[test]
fn overlines_win_only_under_the_freestyle_rule() {
    // X: a1 b1 c1 e1 f1, then d1 joins six.
    let moves = [
        "a1", "a9", "b1", "b9", "c1", "c9", "e1", "d8", "f1", "e8", "d1",
    ];
    let g = play(&moves);
    assert_eq!(g.winner, None, "six in a row is no win");
    assert_eq!(g.turn(), Turn::Player(1));
    // Full five-point windows inside the overline: the search copes.
    assert_eq!(g.moves().len(), BRANCH);
    assert!(g.oracle(1).is_some() && g.evaluate() > 0);
    let g = play_on(9, true, &moves);
    assert_eq!(g.winner, Some(0));
    // A move that makes six one way and exactly five another wins.
    let g = play(&[
        "a1", "i9", "b1", "i8", "c1", "i7", "e1", "h9", "f1", "h8", "d2", "h7", "d3", "g9", "d4",
        "g8", "d5", "g7", "d1",
    ]);
    assert_eq!(g.winner, Some(0), "\n{}", g.render());
    // The full board with no line is a draw.
    let mut g = Gomoku::new(9, false);
    g.moves = 81;
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.score(0).breakdown.get("draw"), Some(&1.0));
}

#[test]
fn taken_points_and_hedges_are_refused_and_text_is_exact() {
    let mut g = play(&["e5"]);
    assert!(g.apply(1, 40).is_err());
    assert_eq!(g.parse_action(1, "Move: D4"), Ok(30));
    assert!(g.parse_action(1, "d4 or d6").is_err());
    assert!(g.parse_action(1, "j1").is_err());
    assert!(g.parse_action(1, "d").is_err());
    assert!(g.parse_action(1, "").is_err());
    let obs = g.observe(1);
    assert_eq!(obs.legal_actions.as_ref().map(Vec::len), Some(80));
    assert_eq!(g.observe(0).legal_actions, Some(Vec::new()));
    assert_eq!(
        obs.text,
        "Gomoku 9x9. You play O; X moves first. Take turns placing a stone on an empty point; the first \
         to make a line of exactly five (six or more in a row do not count) of their stones across, down \
         or diagonally wins.\n   a b c d e f g h i\n 1 . . . . . . . . .\n 2 . . . . . . . . .\n 3 . . . \
         . . . . . .\n 4 . . . . . . . . .\n 5 . . . . X . . . .\n 6 . . . . . . . . .\n 7 . . . . . . \
         . . .\n 8 . . . . . . . . .\n 9 . . . . . . . . .\nYour move: reply with one empty point like `h8`."
    );
}

#[test]
fn configs_are_checked_and_openings_are_quiet() {
    for bad in [
        r#"{"size": 8}"#,
        r#"{"size": 20}"#,
        r#"{"opening_moves": 41}"#,
    ] {
        let config: GomokuConfig = serde_json::from_str(bad).unwrap();
        assert!(Gomoku::validate(&config).is_err(), "{bad}");
    }
    let config = GomokuConfig {
        size: 9,
        opening_moves: 40,
        ..GomokuConfig::default()
    };
    for seed in 0..50 {
        let task = Gomoku::generate(&config, &mut Rng::from_seed(seed));
        assert_eq!(task.opening.len(), 40);
        let g = Gomoku::reset(&task, Rng::from_seed(0));
        assert_eq!(g.turn(), Turn::Player(0));
    }
}

#[test]
fn the_oracle_takes_wins_and_blocks_fours() {
    // X has a1..d1: X to move wins at e1.
    let g = play(&["a1", "a9", "b1", "b9", "c1", "c9", "d1", "i5"]);
    assert_eq!(g.oracle(0).as_deref(), Some("e1"));
    // O must block X's four (b2..e2 open only at f2, a2 taken by O).
    let g = play(&["b2", "a2", "c2", "h9", "d2", "h8", "e2"]);
    assert_eq!(g.oracle(1).as_deref(), Some("f2"));
    let mut rng = Rng::from_seed(3);
    for _ in 0..5 {
        assert_eq!(g.heuristic(1, &mut rng).as_deref(), Some("f2"));
    }
}

/// Wins of `hero` in `games` games on the standard board; the other seat
/// plays the heuristic or, with `random`, uniformly random points.
fn oracle_wins(hero: Player, games: u64, random: bool) -> u64 {
    let mut wins = 0;
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let mut g = Gomoku::new(DEFAULT_SIZE, false);
        while !g.over() {
            let i = if g.to_move() == hero {
                best_move(&g, ORACLE_DEPTH).unwrap()
            } else if random {
                *rng.choose(&g.legal()).unwrap()
            } else {
                win_block_greedy(&g, &mut rng, evaluation_for).unwrap()
            };
            g.place(i);
        }
        wins += u64::from(g.winner == Some(hero));
    }
    wins
}

#[test]
fn the_oracle_beats_random_play_and_the_heuristic_from_both_seats() {
    for hero in 0..2 {
        let wins = oracle_wins(hero, 10, true);
        assert_eq!(wins, 10, "oracle in seat {hero} against random");
        let wins = oracle_wins(hero, 20, false);
        eprintln!("gomoku: oracle in seat {hero} won {wins}/20 against the heuristic");
        assert!(
            wins >= 14,
            "oracle in seat {hero}: {wins}/20 against the heuristic"
        );
    }
}

/// Random games on the 15×15 board, through `apply`.
const AGREEMENT_GAMES: u64 = 100_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("agreement/gomoku.json");
    assert!(json.contains(r#""openspiel_game": "gomoku(size=15,connect=5)""#));
    // OpenSpiel's gomoku lets overlines win; so does this config.
    let config = GomokuConfig {
        overlines_win: true,
        ..GomokuConfig::default()
    };
    let task = Gomoku::generate(&config, &mut Rng::from_seed(0));
    let cells = (DEFAULT_SIZE * DEFAULT_SIZE) as u64;
    crate::games::agreement::check("gomoku", json, AGREEMENT_GAMES, |rng| {
        let mut g = Gomoku::reset(&task, rng.fork(0));
        let mut plies = 0;
        while let Turn::Player(p) = g.turn() {
            // Uniform over the empty points: draw points until `apply`
            // accepts one (it refuses taken points), cheaper than listing.
            while g.apply(p, rng.below(cells) as usize).is_err() {}
            plies += 1;
        }
        (g.winner, plies)
    });
}
