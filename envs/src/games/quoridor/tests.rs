//! Tests of the rules, observations, oracle and agreement with OpenSpiel.
use super::board::greedy;
use super::*;
use crate::games::common::best_move;

/// The game after `moves` (our names, which are OpenSpiel's), each parsed
/// and applied through the env's own API.
fn game(size: usize, walls: usize, moves: &[&str]) -> Quoridor {
    let mut g = Quoridor::new(size, walls);
    for m in moves {
        let p = g.to_move();
        let mv = g.parse_action(p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.apply(p, mv)
            .unwrap_or_else(|e| panic!("{m}: {e}\n{}", g.render()));
    }
    g
}

fn steps(g: &Quoridor) -> Vec<String> {
    g.pawn_moves()
        .into_iter()
        .map(|s| g.square_name(s))
        .collect()
}

fn refusal(g: &Quoridor, m: &str) -> String {
    let mut g = g.clone();
    let p = g.to_move();
    let mv = g.parse_action(p, m).unwrap();
    g.apply(p, mv).unwrap_err().reason
}

/// X climbs from e9 and O comes down from e1 until they meet on e5/e4.
const FACE_TO_FACE: [&str; 7] = ["e8", "e2", "e7", "e3", "e6", "e4", "e5"];

#[test]
fn pawns_step_jump_straight_and_jump_diagonally_at_walls_and_edges() {
    let g = game(9, 10, &[]);
    assert_eq!(steps(&g), ["e8", "d9", "f9"]);
    assert_eq!(g.legal().len(), 3 + 128);
    // O on e4 to move, X just below on e5: O jumps straight to e6.
    let g = game(9, 10, &FACE_TO_FACE);
    assert_eq!(steps(&g), ["e3", "d4", "f4", "e6"]);
    // A wall behind O (e3h, between rows 3 and 4): X jumps diagonally.
    let mut moves = FACE_TO_FACE.to_vec();
    moves.push("e3h");
    let g = game(9, 10, &moves);
    assert_eq!(steps(&g), ["d4", "f4", "d5", "f5", "e6"]);
    // A wall beside O too (d4v, between d and e in rows 4 and 5): one
    // diagonal and the step left are gone.
    moves.extend(["a8h", "d4v"]);
    let g = game(9, 10, &moves);
    assert_eq!(steps(&g), ["f4", "f5", "e6"]);
    // The edge behind O on c1 (5x5): X on c2 jumps to b1 or d1 and wins.
    let g = game(5, 3, &["c4", "d1", "c3", "c1", "c2", "a3h"]);
    assert_eq!(steps(&g), ["b1", "d1", "b2", "d2", "c3"]);
    let mut g = g;
    assert_eq!(g.apply(0, Move::Step(1)), Ok(vec!["X wins".to_string()]));
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.score(0).reward, 1.0);
    assert_eq!(g.score(1).reward, -1.0);
    assert_eq!(g.observe(1).legal_actions, Some(Vec::new()));
    // Walls stop steps: a1v stands between a1/a2 and b1/b2.
    let g = game(5, 3, &["a1v", "b1"]);
    assert_eq!(g.pawns[1], 1);
    assert_eq!(
        refusal(&g, "e5").as_str(),
        "your pawn cannot move to e5; it can move to c4, b5, d5"
    );
    let g = game(5, 3, &["a1v", "b1", "c4"]);
    assert_eq!(steps(&g), ["c1", "b2"]);
}

#[test]
fn walls_may_not_overlap_cross_stick_out_or_cut_a_pawn_off() {
    let g = game(9, 10, &["e3h"]);
    for (m, why) in [
        ("e3h", "overlap"),
        ("d3h", "overlap"),
        ("f3h", "overlap"),
        ("e3v", "cross"),
        ("i3h", "stick out"),
        ("e9v", "stick out"),
    ] {
        let reason = refusal(&g, m);
        assert!(reason.contains(why), "{m}: {reason}");
    }
    // Touching end to end, or a vertical wall next to the midpoint, is fine.
    let g = game(9, 10, &["e3h", "c3h", "d3v", "g3h"]);
    assert!(refusal(&g, "d4v").contains("overlap"));
    assert!(refusal(&g, "d2v").contains("overlap"));
    assert_eq!(g.walls_left, [8, 8]);
    // O on c1 (5x5) boxed in by b1v and c1v: c2h would close the box.
    let g = game(5, 3, &["b1v", "a4h", "c1v", "d4h"]);
    assert_eq!(
        refusal(&g, "c2h"),
        "no wall at c2h: it would cut a pawn off from its goal row"
    );
    assert!(!g.legal().contains(&Move::Wall {
        vertical: false,
        anchor: 7
    }));
    assert!(game(5, 3, &["b1v", "a4h", "c1v", "d4h", "a2h"]).walls_left == [0, 1]);
    // Out of walls: only pawn moves remain.
    let g = game(5, 0, &[]);
    assert_eq!(refusal(&g, "a1h"), "you have no walls left; move your pawn");
    assert_eq!(g.legal().len(), 3);
    assert_eq!(
        refusal(&g, "pass"),
        "you may pass only when no other move is legal"
    );
}

#[test]
fn a_game_is_drawn_after_four_plies_per_square_even_on_a_goal() {
    // 5x5: 100 plies. X shuffles on row 5; O shuffles on row 1, then walks
    // down the c file, reaching row 5 on ply `arrival`.
    let play = |shuffles: usize| {
        let mut moves = Vec::new();
        let mut o: Vec<&str> = (0..shuffles)
            .map(|i| if i % 2 == 0 { "d1" } else { "c1" })
            .collect();
        o.extend(["c2", "c3", "c4", "c5"]);
        for (i, m) in o.iter().enumerate() {
            moves.push(if i % 2 == 0 { "b5" } else { "a5" });
            moves.push(m);
        }
        game(5, 3, &moves)
    };
    let g = play(44);
    assert_eq!((g.plies, g.winner), (96, Some(1)));
    let g = play(46);
    assert_eq!((g.plies, g.winner, g.turn()), (100, None, Turn::Over));
    assert_eq!(g.score(1).breakdown.get("draw"), Some(&1.0));
    assert_eq!(g.score(0).reward, 0.0);
}

#[test]
fn moves_are_read_leniently_and_hedges_refused() {
    let g = game(9, 10, &[]);
    let wall = |name: &str| {
        let (sq, o) = name.split_at(2);
        Move::Wall {
            vertical: o == "v",
            anchor: g.parse_square(sq).unwrap(),
        }
    };
    for (text, mv) in [
        ("e8", Move::Step(67)),
        ("Move: E8", Move::Step(67)),
        ("I move my pawn to e8.", Move::Step(67)),
        ("e3h", wall("e3h")),
        ("E3H", wall("e3h")),
        ("h e3", wall("e3h")),
        ("e3 h", wall("e3h")),
        ("e3-v", wall("e3v")),
        ("horizontal wall at e3", wall("e3h")),
        ("place a vertical wall on e3", wall("e3v")),
        ("e3h, that is h e3", wall("e3h")),
        ("pass", Move::Pass),
    ] {
        assert_eq!(g.parse_action(0, text), Ok(mv), "{text}");
    }
    for text in [
        "e8 or d9",
        "e3h or e3v",
        "h e3 v",
        "e8, e3h",
        "",
        "j1",
        "e0",
        "e10",
        "z",
        "wall",
    ] {
        assert!(g.parse_action(0, text).is_err(), "{text}");
    }
    assert!(refusal(&g, "e5").contains("e8, d9, f9"));
}

#[test]
fn configs_are_checked_and_presets_scale() {
    for bad in [r#"{"size": 4}"#, r#"{"size": 10}"#, r#"{"walls": 21}"#] {
        let config: QuoridorConfig = serde_json::from_str(bad).unwrap();
        assert!(Quoridor::validate(&config).is_err(), "{bad}");
    }
    let mut efforts = Vec::new();
    for level in Quoridor::LEVELS {
        let config: QuoridorConfig = serde_json::from_str(level).unwrap();
        let task = Quoridor::generate(&config, &mut Rng::from_seed(1));
        efforts.push(Quoridor::effort(&task).unwrap());
    }
    assert!(efforts.windows(2).all(|w| w[0] < w[1]), "{efforts:?}");
    let task = Quoridor::generate(&QuoridorConfig::default(), &mut Rng::from_seed(1));
    assert_eq!(task, QuoridorTask { size: 9, walls: 10 });
}

#[test]
fn the_observation_draws_walls_and_shows_each_side() {
    let g = game(5, 3, &["b1v", "c2", "b3h"]);
    let text = g.observe(1).text;
    let board = text.lines().skip(3).collect::<Vec<_>>().join("\n");
    assert_eq!(
        board,
        "   a   b   c   d   e\n 1 .   . | .   .   .\n         |\n 2 .   . | O   .   .\n\n 3 .   \
         .   .   .   .\n      -------\n 4 .   .   .   .   .\n\n 5 .   .   X   .   .\n   a   b   c   d   e\n\
         Your move (ply 4 of 100). Your pawn can move to: c1, d2, c3. Reply with a square like `e8` \
         or a wall like `e3h`."
    );
    assert!(text.contains("X is on c5, heading for row 1, with 1 wall left."));
    assert!(text.contains("O is on c2, heading for row 5, with 3 walls left."));
    assert_eq!(g.observe(0).legal_actions, Some(Vec::new()));
    assert!(g.observe(0).text.ends_with("Waiting for the opponent."));
}

#[test]
fn the_oracle_wins_at_once_and_blocks_a_pawn_about_to_win() {
    // X on e2 one step from row 1.
    let g = game(
        9,
        10,
        &[
            "e8", "a1h", "e7", "a2h", "e6", "a3h", "e5", "a4h", "d5", "a5h", "d4", "a6h", "d3",
            "a7h", "d2", "a8h",
        ],
    );
    assert_eq!(g.oracle(0).as_deref(), Some("d1"));
    assert_eq!(
        g.heuristic(0, &mut Rng::from_seed(1)).as_deref(),
        Some("d1")
    );
    // O on d8 with walls left for X: X must stop O reaching row 9.
    let g = game(
        9,
        10,
        &[
            "h1v", "d1", "h3v", "d2", "h5v", "d3", "h7v", "d4", "a1v", "d5", "a3v", "d6", "a5v",
            "d7", "a7v", "d8",
        ],
    );
    let mv = g.oracle(0).unwrap();
    let mut after = g.clone();
    let parsed = after.parse_action(0, &mv).unwrap();
    after.apply(0, parsed).unwrap();
    assert!(after.dist(1) > 1, "oracle played {mv}");
}

/// Wins of `hero` (`oracle` or `heuristic`) against `other` over `games`
/// seeded games on a `size` board.
fn wins(size: usize, hero_is_oracle: bool, other_random: bool, hero: Player, games: u64) -> u64 {
    let mut wins = 0;
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let mut g = Quoridor::new(size, size * size / 8);
        while !g.over() {
            let mv = if g.to_move() == hero {
                if hero_is_oracle {
                    best_move(&g, ORACLE_DEPTH).unwrap()
                } else {
                    greedy(&g, &mut rng).unwrap()
                }
            } else if other_random {
                *rng.choose(&g.legal()).unwrap()
            } else {
                greedy(&g, &mut rng).unwrap()
            };
            g.play_move(mv);
        }
        wins += u64::from(g.winner == Some(hero));
    }
    wins
}

#[test]
fn random_play_loses_to_the_heuristic_which_loses_to_the_oracle() {
    for hero in 0..2 {
        let w = wins(9, false, true, hero, 10);
        assert!(w >= 9, "heuristic in seat {hero}: {w}/10 against random");
        let w = wins(9, true, true, hero, 10);
        assert!(w >= 9, "oracle in seat {hero}: {w}/10 against random");
        let w = wins(7, true, false, hero, 20);
        eprintln!("quoridor: oracle in seat {hero} won {w}/20 against the heuristic");
        assert!(
            w >= 12,
            "oracle in seat {hero}: {w}/20 against the heuristic"
        );
    }
}

/// OpenSpiel's own random games (`scripts/openspiel-stats.py quoridor
/// --replays 10`) replayed move by move: the same legal-move count before
/// every ply (and the same list as checking every wall in full), every
/// move legal, the same result.
#[test]
fn openspiel_games_replay_with_the_same_legal_moves_and_results() {
    let replays = include_str!("../agreement/quoridor-replays.txt");
    let (mut games, mut jumps) = (0, 0);
    for line in replays.lines() {
        let (plies, result) = line.split_once(" => ").unwrap();
        let mut g = Quoridor::new(9, 10);
        for (i, ply) in plies.split(' ').enumerate() {
            let (name, count) = ply.split_once('/').unwrap();
            let legal = g.legal();
            let brute = g
                .anchors()
                .flat_map(|anchor| [false, true].map(|vertical| Move::Wall { vertical, anchor }));
            let brute = g
                .pawn_moves()
                .into_iter()
                .map(Move::Step)
                .chain(brute.filter(|&mv| {
                    let Move::Wall { vertical, anchor } = mv else {
                        unreachable!()
                    };
                    g.walls_left[g.to_move()] > 0
                        && g.wall_clash(vertical, anchor).is_none()
                        && g.with_wall(vertical, anchor).is_some()
                }));
            assert_eq!(legal, brute.collect::<Vec<_>>(), "game {games} ply {i}");
            assert_eq!(
                legal.len(),
                count.parse::<usize>().unwrap(),
                "game {games} ply {i}\n{}",
                g.render()
            );
            let p = g.to_move();
            let mv = g.parse_action(p, name).unwrap();
            assert!(legal.contains(&mv), "game {games} ply {i}: {name}");
            if let Move::Step(s) = mv {
                let from = g.pawns[p];
                jumps += usize::from(s.abs_diff(from) != 1 && s.abs_diff(from) != 9);
            }
            g.apply(p, mv).unwrap();
        }
        let ours = match g.winner {
            Some(w) => w.to_string(),
            None => "draw".to_string(),
        };
        assert!(g.over());
        assert_eq!(ours, result, "game {games}");
        games += 1;
    }
    assert_eq!(games, 10);
    eprintln!("quoridor replays: {jumps} jumps");
}

/// Random games on the 9x9 board with 10 walls each, through `apply`.
const AGREEMENT_GAMES: u64 = 100_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("../agreement/quoridor.json");
    assert!(json.contains(r#""openspiel_game": "quoridor(board_size=9,wall_count=10,players=2)""#));
    let task = Quoridor::generate(&QuoridorConfig::default(), &mut Rng::from_seed(0));
    let slots = 2 * (task.size - 1) * (task.size - 1);
    crate::games::agreement::check("quoridor", json, AGREEMENT_GAMES, |rng| {
        let mut g = Quoridor::reset(&task, rng.fork(0));
        let mut plies = 0;
        while let Turn::Player(p) = g.turn() {
            // Uniform over the legal moves: draw from the pawn moves and
            // every wall slot until `apply` accepts (it refuses illegal
            // walls), cheaper than listing the legal walls.
            let pawn = g.pawn_moves();
            let walls = if g.walls_left[p] > 0 { slots } else { 0 };
            if pawn.is_empty() {
                let legal = g.legal();
                g.apply(p, legal[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            } else {
                loop {
                    let i = rng.below((pawn.len() + walls) as u64) as usize;
                    let mv = match i.checked_sub(pawn.len()) {
                        None => Move::Step(pawn[i]),
                        Some(j) => Move::Wall {
                            vertical: j % 2 == 1,
                            anchor: j / 2 / (task.size - 1) * task.size + j / 2 % (task.size - 1),
                        },
                    };
                    if g.apply(p, mv).is_ok() {
                        break;
                    }
                }
            }
            plies += 1;
        }
        (g.winner, plies)
    });
}
