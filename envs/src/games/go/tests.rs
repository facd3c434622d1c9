use super::board::{dilate, flood};
use super::*;

fn config(superko: Superko) -> GoConfig {
    GoConfig {
        superko,
        ..GoConfig::default()
    }
}

/// A game from the empty board after `moves` (points like `D4` or `pass`),
/// each parsed and applied as an agent's would be.
fn play_with(config: &GoConfig, moves: &str) -> Go {
    let mut g = Go::reset(
        &Go::generate(config, &mut Rng::from_seed(0)),
        Rng::from_seed(0),
    );
    for m in moves.split_whitespace() {
        let p = g.to_move;
        let mv = g.parse_action(p, m).unwrap();
        g.apply(p, mv)
            .unwrap_or_else(|e| panic!("{m}: {e}\n{}", g.render()));
    }
    g
}

fn play(moves: &str) -> Go {
    play_with(&GoConfig::default(), moves)
}

/// A game on a hand-made board, `to_move` to play, no history.
fn on_board(rows: &[&str], to_move: Player) -> Go {
    let mut g = Go::new(7.5, DEFAULT_PLIES, Superko::Illegal);
    g.board = Board::from_rows(rows);
    g.seen = HashSet::from([g.board]);
    g.previous = g.board;
    g.to_move = to_move;
    g
}

fn point(name: &str) -> usize {
    parse_point(name).unwrap()
}

fn refusal(g: &Go, name: &str) -> String {
    let mut g = g.clone();
    let mv = g.parse_action(g.to_move, name).unwrap();
    g.apply(g.to_move, mv).unwrap_err().reason
}

#[test]
fn points_parse_with_go_letters_and_hedges_are_refused() {
    let g = play("");
    assert_eq!(g.parse_action(0, "D4"), Ok(Move::Place(3 * 9 + 3)));
    assert_eq!(g.parse_action(0, "Move: j9"), Ok(Move::Place(80)));
    assert_eq!(g.parse_action(0, "a1"), Ok(Move::Place(0)));
    assert_eq!(g.parse_action(0, "I PASS."), Ok(Move::Pass));
    assert_eq!(g.parse_action(0, "pass, pass"), Ok(Move::Pass));
    assert_eq!(g.parse_action(0, "D4 ... D4"), Ok(Move::Place(30)));
    for bad in [
        "d4 or e5", "D4 pass", "i5", "k1", "d10", "d0", "d04", "d", "", "passing",
    ] {
        assert!(g.parse_action(0, bad).is_err(), "{bad}");
    }
    assert_eq!(point_name(point("H8")), "H8");
    assert_eq!(point_name(8), "J1");
}

#[test]
fn stones_without_liberties_are_captured() {
    // White D5 surrounded on four sides.
    let g = play("D4 D5 C5 A9 E5 A8 D6");
    assert_eq!(g.board.at(point("D5")), None);
    assert_eq!(g.captures, [1, 0]);
    // A two-stone group on the edge: White A1 A2, Black takes B1 B2 A3.
    let mut g = play("B1 A1 B2 A2");
    assert_eq!(g.captures, [0, 0]);
    let mv = g.parse_action(0, "A3").unwrap();
    let events = g.apply(0, mv).unwrap();
    assert_eq!(events, vec!["Black A3 captures 2 stones".to_string()]);
    assert_eq!(g.board.stones[1], 0);
    assert_eq!(g.captures, [2, 0]);
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    // Black A1 into White's corner eye: no liberty, nothing captured.
    let g = play("D4 A2 E4 B1");
    assert!(
        refusal(&g, "A1").contains("suicide"),
        "{}",
        refusal(&g, "A1")
    );
    assert!(!g.legal_points().contains(&point("A1")));
    assert!(
        g.observe(0)
            .text
            .ends_with("Legal: pass or any empty point except A1.")
    );
    // A two-stone suicide: Black A1 joining B1 inside White's wall.
    let g = on_board(
        &[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O O . . . . . . .",
            ". X O . . . . . .",
        ],
        0,
    );
    assert!(refusal(&g, "A1").contains("suicide"));
    // Filling the last liberty is legal when it captures.
    let g = on_board(
        &[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "X . . . . . . . .",
            "O X . . . . . . .",
            ". O X . . . . . .",
        ],
        0,
    );
    // Black A1 has no liberty of its own but captures A2 and B1.
    let (next, captured) = g.placement(point("A1")).unwrap();
    assert_eq!(captured, 2);
    assert_eq!(next.stones[1], 0);
}

#[test]
fn the_ko_may_not_be_retaken_at_once_in_either_rule() {
    // The corner ko: Black A2 B1, White B2 C1; White A1 takes B1.
    let moves = "A2 B2 B1 C1 pass A1";
    for superko in [Superko::Illegal, Superko::Draw] {
        let g = play_with(&config(superko), moves);
        assert_eq!(g.captures, [0, 1], "White A1 took B1");
        let why = refusal(&g, "B1");
        assert!(
            why.contains("superko") || why.contains("ko at once"),
            "{superko:?}: {why}"
        );
        // After an exchange elsewhere the ko may be retaken.
        let g = play_with(&config(superko), &format!("{moves} E5 F5 B1"));
        assert_eq!(g.captures, [1, 1]);
    }
}

/// Black A2 B1 J2 and White B2 C1 G1 H2 J1: two corner kos, White to move.
const DOUBLE_KO: &str = "A2 B2 B1 C1 J2 G1 pass H2 pass J1 pass";

#[test]
fn positional_superko_forbids_any_repetition_and_openspiel_calls_it_a_draw() {
    // White takes one ko, Black the other, White passes, Black retakes the
    // first: White retaking the second now recreates the position before
    // White's first capture, four plies back (not the immediate ko).
    let cycle = format!("{DOUBLE_KO} A1 H1 pass B1");
    let g = play(&cycle);
    assert!(refusal(&g, "J1").contains("superko"));
    assert!(!g.legal_points().contains(&point("J1")));
    assert!(g.observe(1).text.contains("except A1, J1."));
    // OpenSpiel's rule (checked against pyspiel 2.0.2): legal, a draw.
    let mut g = play_with(&config(Superko::Draw), &cycle);
    assert!(g.legal_points().contains(&point("J1")));
    let events = g.apply(1, Move::Place(point("J1"))).unwrap();
    assert_eq!(g.turn(), Turn::Over);
    assert!(events.contains(&"draw: a position repeated".to_string()));
    assert_eq!(g.score(0), Score::default().part("draw", 1.0));
    assert_eq!(g.score(1).reward, 0.0);
}

#[test]
fn area_scoring_counts_stones_and_one_colour_regions() {
    // Black owns columns A-C with its wall on D; White the rest with its
    // wall on E: Black 27 + 9 = 36, White 9 + 36 = 45; White wins by 16.5.
    let wall = ". . . X O . . . .";
    let g = on_board(&[wall; 9], 0);
    assert_eq!(g.board.area(), [36, 45]);
    assert_eq!(g.board.score2(15), -18 - 15);
    // A Black stone inside White's side: that region touches both colours
    // and counts for no one (Tromp-Taylor removes no dead stones).
    let mut rows = [wall; 9];
    rows[4] = ". . . X O . . X .";
    let g = on_board(&rows, 0);
    assert_eq!(g.board.area(), [37, 9]);
    // The empty board is no one's; one stone owns everything.
    assert_eq!(Board::default().area(), [0, 0]);
    assert_eq!(play("E5").board.area(), [81, 0]);
}

#[test]
fn two_passes_end_the_game_and_the_board_is_scored() {
    let mut g = play("E5 pass");
    assert_eq!(g.turn(), Turn::Player(0));
    g.apply(0, Move::Pass).unwrap();
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.winner(), Some(0), "81 points against 7.5 komi");
    let s = g.score(0);
    assert!(s.passed && s.reward == 1.0);
    assert_eq!(s.breakdown.get("margin"), Some(&73.5));
    assert_eq!(g.score(1).reward, -1.0);
    assert_eq!(g.score(1).breakdown.get("margin"), Some(&-73.5));
    // Both pass at once: White wins on komi.
    let g = play("pass pass");
    assert_eq!(g.winner(), Some(1));
    // An integer komi and equal areas: a draw.
    let g = play_with(
        &GoConfig {
            komi: 0.0,
            ..GoConfig::default()
        },
        "pass pass",
    );
    assert_eq!((g.turn(), g.winner()), (Turn::Over, None));
    assert_eq!(g.score(0).breakdown.get("draw"), Some(&1.0));
    assert!(
        g.observe(0).text.ends_with(
            "Game over after 2 plies (two passes): Black 0, White 0 + 0 komi = 0; a draw."
        )
    );
}

#[test]
fn the_ply_cap_ends_the_game_scored_as_it_stands() {
    let capped = GoConfig {
        max_plies: 3,
        ..GoConfig::default()
    };
    let mut g = play_with(&capped, "E5 D5");
    assert_eq!(g.turn(), Turn::Player(0));
    let events = g.apply(0, Move::Place(point("F5"))).unwrap();
    assert_eq!(g.turn(), Turn::Over);
    // Black E5 F5 against White D5: columns A-C and D reach both.
    // Black E5 F5, White D5, one empty region touching both: White wins
    // on komi.
    assert_eq!(
        events,
        vec!["White wins: Black 2, White 1 + 7.5 komi = 8.5".to_string()]
    );
    assert_eq!(g.legal_points(), Vec::<usize>::new());
    assert_eq!(g.observe(0).legal_actions, Some(Vec::new()));
}

#[test]
fn the_observation_is_exact() {
    let g = play("D4 E5");
    let obs = g.observe(0);
    assert_eq!(
        obs.text,
        "Go on a 9x9 board, area scoring, komi 7.5. You play Black (X); Black (X) moves first and \
         White (O) gets the komi. Each turn place a stone of yours on an empty point, or pass. A \
         group of stones (joined up, down, left or right) with no empty point next to it is captured \
         and removed. Suicide (leaving your own group without an empty neighbour while capturing \
         nothing) is illegal, and so is any move that recreates an earlier whole-board position \
         (positional superko, which also forbids retaking a ko at once). The game ends after two \
         passes in a row or after ply 162. Score (area, Tromp-Taylor): your stones plus the empty \
         points whose region touches only your stones; stones are never removed as dead, so capture \
         them first. White adds the komi; the higher total wins.\n   \
         A B C D E F G H J\n9  . . . . . . . . . 9\n8  . . . . . . . . . 8\n7  . . . . . . . . . 7\n\
         6  . . . . . . . . . 6\n5  . . . . O . . . . 5\n4  . . . X . . . . . 4\n3  . . . . . . . . . 3\n\
         2  . . . . . . . . . 2\n1  . . . . . . . . . 1\n   A B C D E F G H J\n\
         Ply 2 of at most 162. Captured: Black has taken 0 stones, White 0. Last move: White E5.\n\
         Score if the game ended now: Black 1, White 1 + 7.5 komi = 8.5.\n\
         Your move: reply with one point like `D4`, or `pass`. Legal: pass or any empty point."
    );
    let legal = obs.legal_actions.unwrap();
    assert_eq!(legal.len(), 80);
    assert_eq!((legal[0].as_str(), legal[79].as_str()), ("A1", "pass"));
    assert!(g.observe(1).text.ends_with("Waiting for Black."));
    assert_eq!(g.observe(1).legal_actions, Some(Vec::new()));
    assert_eq!(obs.structured["rows"][4], "....O....");
}

#[test]
fn configs_are_checked_and_openings_are_quiet() {
    for bad in [
        r#"{"komi": 7.25}"#,
        r#"{"komi": 90}"#,
        r#"{"max_plies": 0}"#,
        r#"{"max_plies": 401}"#,
        r#"{"opening_moves": 41}"#,
        r#"{"opening_moves": 10, "max_plies": 10}"#,
    ] {
        let config: GoConfig = serde_json::from_str(bad).unwrap();
        assert!(Go::validate(&config).is_err(), "{bad}");
    }
    assert!(serde_json::from_str::<GoConfig>(r#"{"superko": "sometimes"}"#).is_err());
    let config: GoConfig = serde_json::from_str(r#"{"opening_moves": 40, "komi": -3}"#).unwrap();
    assert!(Go::validate(&config).is_ok());
    for seed in 0..30 {
        let task = Go::generate(&config, &mut Rng::from_seed(seed));
        assert_eq!(task.opening.len(), 40);
        let g = Go::reset(&task, Rng::from_seed(0));
        assert_eq!(
            (g.turn(), g.plies, g.captures),
            (Turn::Player(0), 40, [0, 0])
        );
        assert_eq!(g.board.stones.map(u128::count_ones), [20, 20]);
    }
}

#[test]
fn the_heuristic_captures_and_saves_and_the_oracle_too() {
    // White D5 in atari (liberty D6): the heuristic captures it, or as
    // White saves it by extending to D6.
    let mut rng = Rng::from_seed(1);
    let g = play("D4 D5 C5 A9 E5 A8");
    for _ in 0..5 {
        assert_eq!(g.heuristic(0, &mut rng).as_deref(), Some("D6"));
    }
    let g = play("D4 D5 C5 A9 E5");
    for _ in 0..5 {
        assert_eq!(g.heuristic(1, &mut rng).as_deref(), Some("D6"));
    }
    // Three White stones in atari (liberty F6): both players capture them
    // as Black; the heuristic saves them as White (the oracle may give them
    // up for the open top).
    let rows = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . X X . . . .",
        ". . X O O O X . .",
        ". . . X X X . . .",
        ". . . . . . . O .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let g = on_board(&rows, 0);
    assert_eq!(g.oracle(0).as_deref(), Some("F6"));
    for mover in 0..2 {
        let g = on_board(&rows, mover);
        assert_eq!(
            g.heuristic(mover, &mut rng).as_deref(),
            Some("F6"),
            "{mover}"
        );
    }
    // Neither fills its own eye: Black's only empty points are eyes.
    let mut rows = ["X X X X X X X X X"; 9];
    rows[2] = "X . X X X X X X X";
    rows[6] = "X X X X X X X . X";
    let g = on_board(&rows, 0);
    assert_eq!(g.heuristic(0, &mut rng).as_deref(), Some("pass"));
    assert_eq!(g.oracle(0).as_deref(), Some("pass"));
}

#[test]
fn players_pass_to_win_after_a_pass_and_play_on_when_behind() {
    // Black has E5 (all 81 points); White passed. Black passes and wins.
    let g = play("E5 pass");
    let mut rng = Rng::from_seed(2);
    assert_eq!(g.oracle(0).as_deref(), Some("pass"));
    assert_eq!(g.heuristic(0, &mut rng).as_deref(), Some("pass"));
    // Black's wall on E gives it 45 points to White's 36 + 7.5: White,
    // to move after Black's pass, plays on.
    let mut g = on_board(&[". . . . X O . . ."; 9], 1);
    g.passes = 1;
    assert_eq!(g.leader(), Some(0));
    assert_ne!(g.oracle(1).as_deref(), Some("pass"));
    assert_ne!(g.heuristic(1, &mut rng).as_deref(), Some("pass"));
    // Black in White's place passes and wins.
    g.to_move = 0;
    assert_eq!(g.oracle(0).as_deref(), Some("pass"));
    assert_eq!(g.heuristic(0, &mut rng).as_deref(), Some("pass"));
}

/// Wins of `hero` in `games` games from the empty board; the other seat
/// plays the heuristic or, with `random`, uniformly random legal moves.
fn oracle_wins(hero: Player, games: u64, random: bool) -> u64 {
    let task = Go::generate(&GoConfig::default(), &mut Rng::from_seed(0));
    let mut wins = 0;
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let mut g = Go::reset(&task, Rng::from_seed(seed));
        while let Turn::Player(p) = g.turn() {
            let mv = if p == hero {
                players::oracle(&g).unwrap()
            } else if random {
                let mut legal: Vec<Move> = g.legal_points().into_iter().map(Move::Place).collect();
                legal.push(Move::Pass);
                *rng.choose(&legal).unwrap()
            } else {
                players::heuristic(&g, &mut rng).unwrap()
            };
            g.apply(p, mv).unwrap();
        }
        wins += u64::from(g.winner() == Some(hero));
    }
    wins
}

#[test]
fn the_oracle_beats_random_play_and_the_heuristic_from_both_seats() {
    for hero in 0..2 {
        let wins = oracle_wins(hero, 6, true);
        assert_eq!(wins, 6, "oracle in seat {hero} against random");
        let wins = oracle_wins(hero, 12, false);
        eprintln!("go: oracle in seat {hero} won {wins}/12 against the heuristic");
        assert!(
            wins >= 10,
            "oracle in seat {hero}: {wins}/12 against the heuristic"
        );
    }
}

/// OpenSpiel's random games (`scripts/openspiel-stats.py go-9x9 --replays
/// 60`) replayed move by move under `superko: "draw"`: the same number of
/// legal moves before every ply (pass included), every move legal, the
/// same result.
#[test]
fn openspiel_games_replay_with_the_same_legal_moves_and_results() {
    let replays = include_str!("../agreement/go-9x9-replays.txt");
    let (mut games, mut captures) = (0, 0);
    for line in replays.lines() {
        let (plies, result) = line.split_once(" => ").unwrap();
        let mut g = play_with(&config(Superko::Draw), "");
        // Each ply is written `B d4/82`: colour, move, legal-move count.
        for (i, ply) in plies.split(' ').filter(|w| w.contains('/')).enumerate() {
            let (name, count) = ply.split_once('/').unwrap();
            let p = g.to_move;
            assert_eq!(
                g.legal_points().len() + 1,
                count.parse::<usize>().unwrap(),
                "game {games} ply {i}\n{}",
                g.render()
            );
            let mv = g.parse_action(p, name).unwrap();
            g.apply(p, mv)
                .unwrap_or_else(|e| panic!("game {games} ply {i} {name}: {e}"));
        }
        assert_eq!(g.turn(), Turn::Over, "game {games}");
        let ours = g.winner().map_or("draw".to_string(), |w| w.to_string());
        assert_eq!(ours, result, "game {games}\n{}", g.render());
        captures += g.captures[0] + g.captures[1];
        games += 1;
    }
    assert_eq!(games, 60);
    eprintln!("go replays: {captures} stones captured");
}

/// Random games through `apply` under OpenSpiel's rules; the full 100k by
/// hand: `VERIGYM_GO_GAMES=100000 cargo test ... random_play_agrees`.
const AGREEMENT_GAMES: u64 = 10_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("../agreement/go-9x9.json");
    assert!(json.contains(r#""openspiel_game": "go(board_size=9,komi=7.5)""#));
    let games = std::env::var("VERIGYM_GO_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(AGREEMENT_GAMES);
    let task = Go::generate(&config(Superko::Draw), &mut Rng::from_seed(0));
    crate::games::agreement::check("go-9x9", json, games, |rng| {
        let mut g = Go::reset(&task, rng.fork(0));
        while let Turn::Player(p) = g.turn() {
            // Uniform over OpenSpiel's 82 actions (the points and pass):
            // draw until `apply` accepts one, cheaper than listing them.
            loop {
                let a = rng.below(POINTS as u64 + 1) as usize;
                let mv = if a == POINTS {
                    Move::Pass
                } else {
                    Move::Place(a)
                };
                if g.apply(p, mv).is_ok() {
                    break;
                }
            }
        }
        (g.winner(), g.plies as u64)
    });
}

#[test]
fn flood_and_dilate_stay_on_the_board() {
    // A stone on the right edge does not wrap to the next row's left edge.
    let j1 = point("J1");
    assert_eq!(dilate(board::bit(j1)).count_ones(), 3);
    assert_eq!(flood(board::bit(0), u128::MAX >> 47).count_ones(), 81);
}
