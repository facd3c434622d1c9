//! Tests of the rules (perft counts through the env's own move list,
//! hand-checked positions), the move reader, the observation, the players
//! and agreement with OpenSpiel.
use super::*;

fn from_fen(fen: &str) -> Chess {
    Chess::new(fen.parse().expect("a FEN"), 0)
}

/// Plays moves given as the reader reads them (UCI or SAN).
fn play(game: &mut Chess, moves: &[&str]) {
    for m in moves {
        let p = game.to_move();
        let mv = game
            .parse_action(p, m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        game.apply(p, mv).unwrap();
    }
}

fn listed(game: &Chess) -> Vec<String> {
    game.observe(game.to_move()).legal_actions.unwrap()
}

/// Leaf positions `depth` plies on, walking the moves the observation
/// lists, each read back by the parser and applied as a player's would be.
fn perft(game: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let p = game.to_move();
    listed(game)
        .iter()
        .map(|name| {
            let mut next = game.clone();
            let mv = next.parse_action(p, name).unwrap();
            next.apply(p, mv).unwrap();
            perft(&next, depth - 1)
        })
        .sum()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn perft_counts_from_the_standard_positions() {
    // The chessprogramming.org perft results (start, Kiwipete, positions 3–5).
    let positions: [(&str, &[u64]); 5] = [
        (START, &[20, 400, 8_902]),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &[48, 2_039],
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            &[14, 191, 2_812],
        ),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            &[6, 264, 9_467],
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            &[44, 1_486],
        ),
    ];
    for (fen, counts) in positions {
        let game = from_fen(fen);
        for (depth, &want) in counts.iter().enumerate() {
            assert_eq!(
                perft(&game, depth as u32 + 1),
                want,
                "{fen} depth {}",
                depth + 1
            );
        }
    }
}

#[test]
fn castling_through_or_out_of_check_is_refused() {
    let game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let moves = listed(&game);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    // A rook on f2 covers f1: no short castling; long castling stays.
    let mut game = from_fen("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    let moves = listed(&game);
    assert!(!moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    assert!(game.parse_action(0, "O-O").is_err());
    assert!(game.parse_action(0, "e1g1").is_err());
    play(&mut game, &["O-O-O"]);
    assert_eq!(game.board.to_string(), "4k3/8/8/8/8/8/5r2/2KR3R b - - 1 1");
    // In check (a rook on e2 facing the king): no castling either way.
    let game = from_fen("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!listed(&game).iter().any(|m| m == "e1g1" || m == "e1c1"));
    // A king or rook that has moved loses the right.
    let mut game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, &["h1h2", "a8a7", "h2h1", "a7a8"]);
    let moves = listed(&game);
    assert!(!moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
}

#[test]
fn en_passant_only_at_once_and_promotion_names_its_piece() {
    let mut game = from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut game, &["d7d5"]);
    assert!(listed(&game).contains(&"e5d6".to_string()));
    let mut taken = game.clone();
    play(&mut taken, &["exd6"]);
    assert_eq!(taken.board.to_string(), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    // One move later the capture is gone.
    play(&mut game, &["Ke2", "Ke7"]);
    assert!(!listed(&game).contains(&"e5d6".to_string()));

    let mut game = from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let promotions: Vec<String> = listed(&game)
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(promotions, ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]);
    let err = game.parse_action(0, "e7e8").unwrap_err();
    assert!(err.reason.contains("several"), "{}", err.reason);
    assert!(game.parse_action(0, "e8").is_err());
    assert_eq!(game.parse_action(0, "e8=N"), game.parse_action(0, "e7e8n"));
    assert_eq!(
        game.parse_action(0, "e7e8=Q"),
        game.parse_action(0, "e7e8q")
    );
    play(&mut game, &["e7e8n"]);
    assert_eq!(game.board.to_string(), "4N3/8/8/8/8/8/k7/4K3 b - - 0 1");
}

#[test]
fn mate_stalemate_and_the_draw_rules_end_the_game() {
    // Fool's mate.
    let mut game = Chess::reset(
        &ChessTask {
            max_plies: 0,
            opening: Vec::new(),
        },
        Rng::from_seed(0),
    );
    play(&mut game, &["f2f3", "e7e5", "g2g4", "Qh4#"]);
    assert_eq!(game.end, Some(End::Checkmate(1)));
    assert_eq!(game.turn(), Turn::Over);
    assert_eq!((game.score(0).reward, game.score(1).reward), (-1.0, 1.0));
    assert!(game.score(1).passed && !game.score(0).passed);
    assert_eq!(game.observe(0).legal_actions, Some(Vec::new()));
    // Stalemate: the queen takes the king's last squares, no check.
    let mut game = from_fen("k7/8/8/8/8/8/2Q5/4K3 w - - 0 1");
    play(&mut game, &["Qc7"]);
    assert_eq!(game.end, Some(End::Stalemate));
    assert_eq!(game.score(0).breakdown.get("draw"), Some(&1.0));
    // Fifty moves: the 100th quiet ply draws, unless it mates.
    let mut game = from_fen("7k/8/6K1/8/8/8/8/R7 w - - 98 80");
    play(&mut game, &["Ra2"]);
    assert_eq!(game.end, None);
    play(&mut game, &["Kg8"]);
    assert_eq!(game.end, Some(End::FiftyMoves));
    let mut game = from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut game, &["Ra8"]);
    assert_eq!(game.end, Some(End::Checkmate(0)));
    // Threefold: the start position a third time.
    let mut game = from_fen(START);
    play(
        &mut game,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
    );
    assert_eq!(game.end, None);
    play(&mut game, &["Ng8"]);
    assert_eq!(game.end, Some(End::Repetition));
    // After e4 no black pawn can take en passant, so the position after e4
    // recurs without it (as OpenSpiel counts it too): the ninth ply draws.
    let mut game = from_fen(START);
    play(
        &mut game,
        &["e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8"],
    );
    assert_eq!(game.end, None);
    play(&mut game, &["Ng1"]);
    assert_eq!(game.end, Some(End::Repetition));
    // Where the capture is legal, the position with it differs.
    let mut game = from_fen("4k3/8/8/8/5p2/8/4P3/4K2N w - - 0 1");
    play(
        &mut game,
        &["e4", "Ke7", "Nf2", "Ke8", "Nh1", "Ke7", "Nf2", "Ke8", "Nh1"],
    );
    assert_eq!(game.end, None, "e4 with the capture open counts apart");
    play(&mut game, &["Ke7"]);
    assert_eq!(game.end, Some(End::Repetition));
    // The ply cap.
    let mut game = Chess::reset(
        &ChessTask {
            max_plies: 20,
            opening: Vec::new(),
        },
        Rng::from_seed(0),
    );
    play(
        &mut game,
        &["Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8"],
    );
    play(
        &mut game,
        &["e3", "e6", "d3", "d6", "c3", "c6", "b3", "b6", "a3", "a6"],
    );
    assert_eq!(game.end, None);
    play(&mut game, &["h3", "h6"]);
    assert_eq!(game.end, Some(End::PlyCap));
}

#[test]
fn insufficient_material_follows_the_dead_positions() {
    for (fen, dead) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true),
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3BKB2 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false),
        ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false),
        ("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", false),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false),
    ] {
        let game = from_fen(fen);
        assert_eq!(game.end == Some(End::Material), dead, "{fen}");
    }
    // Taking the last pawn ends the game at once.
    let mut game = from_fen("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    play(&mut game, &["Kxd2"]);
    assert_eq!(game.end, Some(End::Material));
}

#[test]
fn the_reader_takes_uci_and_san_and_refuses_hedges() {
    let mut game = from_fen(START);
    let e4 = game.parse_action(0, "e2e4").unwrap();
    for text in [
        "e4",
        "E2E4",
        "1. e4",
        "e2-e4",
        "Move: e4!",
        "I play e2e4 (that is, e4).",
    ] {
        assert_eq!(game.parse_action(0, text), Ok(e4), "{text}");
    }
    for text in ["e2e4 or d2d4", "e4 d4", "", "e2e5", "pass", "Nf4", "Ng3"] {
        assert!(game.parse_action(0, text).is_err(), "{text}");
    }
    // Prose around a move on its own line: `crate::reply` falls back to it.
    let err = game.parse_action(0, "e2e4 controls d4 and f5").unwrap_err();
    assert!(!err.ambiguous);
    // Two knights reach d2: SAN must say which.
    play(&mut game, &["Nf3", "a6", "d3", "a5"]);
    let err = game.parse_action(0, "Nd2").unwrap_err();
    assert!(err.reason.contains("several"), "{}", err.reason);
    assert_eq!(game.parse_action(0, "Nbd2"), game.parse_action(0, "b1d2"));
    assert_eq!(game.parse_action(0, "N3d2"), game.parse_action(0, "f3d2"));
    assert_eq!(game.parse_action(0, "Nfd2+"), game.parse_action(0, "f3d2"));
    // A pawn's SAN names its file only when it takes.
    let mut game = from_fen(START);
    play(&mut game, &["e4", "d5"]);
    assert_eq!(game.parse_action(0, "exd5"), game.parse_action(0, "e4d5"));
    assert!(game.parse_action(0, "d5").is_err(), "no pawn pushes to d5");
    assert!(game.parse_action(0, "bxd5").is_err());
    // Castling in both notations, king's move only.
    let mut game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(game.parse_action(0, "O-O"), game.parse_action(0, "e1g1"));
    assert_eq!(game.parse_action(0, "0-0-0"), game.parse_action(0, "e1c1"));
    play(&mut game, &["O-O"]);
    assert_eq!(game.board.to_string(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    // A move after the end, or an illegal one built by hand, is refused.
    let illegal: Move = "e8e6".parse().unwrap();
    assert!(game.apply(1, illegal).is_err());
}

#[test]
fn whole_replies_are_read_by_the_reply_rule() {
    let game = from_fen(START);
    let read = |reply: &str| {
        crate::reply::parse_reply(reply, |t| game.parse_action(0, t), || game.observe(0).text)
    };
    let e4 = game.parse_action(0, "e2e4");
    for reply in [
        "<think>Maybe d4, or Nf3? e4 fights for d5.</think>\n\ne2e4",
        "I like the centre: e4 takes space and eyes d5.\nMove: e2e4",
        "Here is my move:\n\n```\ne4\n```",
    ] {
        assert_eq!(read(reply), e4, "{reply}");
    }
    for reply in [
        "e4\nd4",
        "Move: e4\nMove: d4",
        "e2e4 or d2d4",
        "```\ne4\n```\nNf3",
    ] {
        assert!(read(reply).is_err(), "{reply}");
    }
    // Once mated, the observation says so and lists nothing.
    let mut game = from_fen(START);
    play(&mut game, &["f3", "e5", "g4", "Qh4"]);
    let text = game.observe(0).text;
    assert!(
        text.ends_with("Ply 5, move 3. Last move: d8h4 by Black.\nGame over: checkmate, you lose."),
        "{text}"
    );
}

#[test]
fn the_observation_is_exact() {
    let mut game = from_fen(START);
    play(&mut game, &["e4"]);
    let obs = game.observe(1);
    assert_eq!(obs.legal_actions.as_ref().map(Vec::len), Some(20));
    assert_eq!(game.observe(0).legal_actions, Some(Vec::new()));
    assert_eq!(
        obs.text,
        "Chess, FIDE rules. You play Black (small letters, moving down from rank 8); White moves first. \
         K king, Q queen, R rook, B bishop, N knight, P pawn. Castling, en passant and promotion are \
         allowed; checkmate wins. Draws: stalemate, 50 moves by each side without a capture or a pawn \
         move, the same position for the third time, too little material to mate.\n\
         FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
         8  r n b q k b n r\n7  p p p p p p p p\n6  . . . . . . . .\n5  . . . . . . . .\n\
         4  . . . . P . . .\n3  . . . . . . . .\n2  P P P P . P P P\n1  R N B Q K B N R\n   a b c d e f g h\n\
         Ply 2, move 1: Black to move. Last move: e2e4 by White.\n\
         Your move: reply with one legal move in UCI like `e2e4` (promotion `e7e8q`, castling `e1g1`) \
         or in SAN like `Nf3`. Legal moves: a7a5, a7a6, b7b5, b7b6, b8a6, b8c6, c7c5, c7c6, d7d5, d7d6, \
         e7e5, e7e6, f7f5, f7f6, g7g5, g7g6, g8f6, g8h6, h7h5, h7h6."
    );
    assert_eq!(
        obs.structured["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn configs_are_checked_and_openings_are_legal_and_open() {
    for bad in [
        r#"{"max_plies": 10}"#,
        r#"{"max_plies": 1001}"#,
        r#"{"opening_moves": 21}"#,
    ] {
        let config: ChessConfig = serde_json::from_str(bad).unwrap();
        assert!(Chess::validate(&config).is_err(), "{bad}");
    }
    let config = ChessConfig {
        max_plies: 0,
        opening_moves: 20,
    };
    for seed in 0..20 {
        let task = Chess::generate(&config, &mut Rng::from_seed(seed));
        assert_eq!(task.opening.len(), 20);
        let game = Chess::reset(&task, Rng::from_seed(0));
        assert_eq!(game.turn(), Turn::Player(0));
        assert_eq!(game.plies, 20);
    }
}

#[test]
fn the_players_find_mate_in_one_and_keep_material() {
    // Back-rank mate: Ra8#.
    let game = from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    assert_eq!(game.oracle(0).as_deref(), Some("a1a8"));
    let mut rng = Rng::from_seed(1);
    for _ in 0..5 {
        assert_eq!(game.heuristic(0, &mut rng).as_deref(), Some("a1a8"));
    }
    // A free queen is taken.
    let game = from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    assert_eq!(game.oracle(0).as_deref(), Some("d2d5"));
    assert_eq!(game.heuristic(0, &mut rng).as_deref(), Some("d2d5"));
    // A defended pawn is not taken with the queen by the oracle.
    let game = from_fen("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
    assert_ne!(game.oracle(0).as_deref(), Some("d1d5"));
}

/// Results of `hero` over games from the start with a ply cap: the other
/// seat plays the heuristic or, with `random`, uniformly random moves.
fn record(hero: Player, games: u64, random: bool, oracle: bool, cap: usize) -> [u32; 3] {
    let mut tally = [0; 3];
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let mut g = Chess::new(Board::default(), cap);
        while g.end.is_none() {
            let name = if g.to_move() == hero {
                if oracle {
                    g.oracle(hero)
                } else {
                    g.heuristic(hero, &mut rng)
                }
                .unwrap()
            } else if random {
                g.random_action(1 - hero, &mut rng)
            } else {
                g.heuristic(1 - hero, &mut rng).unwrap()
            };
            let mv = g.parse_action(g.to_move(), &name).unwrap();
            g.apply(g.to_move(), mv).unwrap();
        }
        tally[match g.end.and_then(End::winner) {
            Some(w) if w == hero => 0,
            None => 1,
            Some(_) => 2,
        }] += 1;
    }
    tally
}

#[test]
fn the_ladder_climbs_from_both_seats() {
    for hero in 0..2 {
        let [wins, _, losses] = record(hero, 6, true, false, 200);
        eprintln!("chess: heuristic in seat {hero} against random: {wins} wins, {losses} losses");
        assert!(
            wins >= 3 && losses == 0,
            "heuristic in seat {hero}: {wins} wins, {losses} losses"
        );
        let [wins, draws, losses] = record(hero, 4, false, true, 200);
        eprintln!(
            "chess: oracle in seat {hero} against the heuristic: {wins} wins, {draws} draws, {losses} losses"
        );
        assert!(
            wins >= 3 && losses == 0,
            "oracle in seat {hero}: {wins}/{draws}/{losses}"
        );
    }
}

/// Random games from the start; `VERIGYM_CHESS_GAMES` sets a larger count.
const AGREEMENT_GAMES: u64 = 2_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("../agreement/chess.json");
    assert!(json.contains(r#""openspiel_game": "chess""#));
    let games = std::env::var("VERIGYM_CHESS_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(AGREEMENT_GAMES);
    let task = Chess::generate(&ChessConfig::default(), &mut Rng::from_seed(0));
    crate::games::agreement::check("chess", json, games, |rng| {
        let mut g = Chess::reset(&task, rng.fork(0));
        while g.end.is_none() {
            let moves = rules::legal_moves(&g.board);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            g.apply(g.to_move(), mv).unwrap();
        }
        // OpenSpiel seats Black as player 0 and White as player 1.
        (g.end.and_then(End::winner).map(|w| 1 - w), g.plies as u64)
    });
}
