use super::board::adjacent;
use super::*;
use crate::games::common::play_moves;

fn play(moves: &[&str]) -> NineMensMorris {
    play_moves(NineMensMorris::new(), moves)
}

/// A moving-phase position: W and B men on the named points.
fn position(white: &[&str], black: &[&str], mover: Player) -> NineMensMorris {
    let mut g = NineMensMorris::new();
    for (p, men) in [(0, white), (1, black)] {
        for m in men {
            g.board[NAMES.iter().position(|n| n == m).unwrap()] = Some(p);
        }
        g.men[p] = men.len() as u8;
    }
    g.to_place = [0, 0];
    g.mover = mover;
    g
}

#[test]
fn the_lines_are_the_sixteen_mills_and_adjacency_follows_them() {
    let edges = (0..POINTS)
        .flat_map(|a| (a + 1..POINTS).map(move |b| (a, b)))
        .filter(|&(a, b)| adjacent(a, b))
        .count();
    assert_eq!(edges, 32);
    let name = |p: usize| NAMES[p];
    assert!(adjacent(1, 4) && adjacent(10, 11) && !adjacent(11, 12) && !adjacent(0, 3));
    assert_eq!((name(11), name(12)), ("c4", "e4"), "the centre is no point");
    assert_eq!(
        NineMensMorris::new().render(),
        "7 .-----------.-----------.\n  |           |           |\n6 |   .-------.-------.   |\n  |   |       |       |   |\n\
         5 |   |   .---.---.   |   |\n  |   |   |       |   |   |\n4 .---.---.       .---.---.\n  |   |   |       |   |   |\n\
         3 |   |   .---.---.   |   |\n  |   |       |       |   |\n2 |   .-------.-------.   |\n  |           |           |\n\
         1 .-----------.-----------.\n  a   b   c   d   e   f   g"
    );
}

#[test]
fn a_mill_removes_a_man_outside_mills_as_its_own_turn() {
    let mut g = play(&["a7", "a1", "d7", "d1", "g7"]);
    assert!(g.removing);
    assert_eq!(g.turn(), Turn::Player(0));
    assert!(
        g.parse_action(0, "d6")
            .is_ok_and(|mv| g.refusal(mv).is_some())
    );
    let mv = g.parse_action(0, "remove a1").unwrap();
    assert_eq!(g.apply(0, mv).unwrap(), vec!["W removed the man on a1"]);
    assert_eq!((g.men, g.turns, g.mover, g.removing), ([9, 8], 5, 1, false));
    // B's a1-d1-g1 is a mill and b2 is not: only b2 may go.
    let mut g = play(&["a7", "a1", "d7", "d1", "b6", "g1", "b6", "f6", "b2", "g7"]);
    assert!(g.removing && g.mover == 0, "\n{}", g.render());
    let a1 = g.parse_action(0, "a1").unwrap();
    assert!(g.apply(0, a1).unwrap_err().to_string().contains("mill"));
    assert!(g.apply(0, MorrisMove::Remove(0)).is_err(), "own man");
    let b2 = g.parse_action(0, "b2").unwrap();
    assert!(g.apply(0, b2).is_ok());
    // With every man of the opponent in mills, any may go.
    let mut g = position(&["a7", "d7", "b6", "d6"], &["a1", "d1", "g1"], 0);
    let mv = g.parse_action(0, "d6-f6").unwrap();
    g.apply(0, mv).unwrap();
    assert!(!g.removing);
    let mut g = position(&["a7", "d7", "f6", "g4"], &["a1", "d1", "g1", "c3"], 0);
    let mv = g.parse_action(0, "g4 to g7").unwrap();
    g.apply(0, mv).unwrap();
    assert!(g.removing);
    assert_eq!(g.legal(), vec![MorrisMove::Remove(15)]);
}

#[test]
fn men_move_along_lines_and_fly_when_three_are_left() {
    let mut g = position(&["a7", "g7", "a1"], &["d7", "b6", "f6", "d6"], 0);
    assert!(g.flying(0) && !g.flying(1));
    let fly = g.parse_action(0, "a7-e3").unwrap();
    assert_eq!(g.apply(0, fly), Ok(Vec::new()));
    let far = g.parse_action(1, "b6-b2").unwrap();
    assert!(
        g.apply(1, far)
            .unwrap_err()
            .to_string()
            .contains("next to it")
    );
    assert!(g.parse_action(1, "b6").is_err(), "a point alone is no move");
    assert!(g.parse_action(1, "b6-b4 or d6-d5").is_err(), "hedge");
    let near = g.parse_action(1, "Move: B6 to B4").unwrap();
    assert!(g.apply(1, near).is_ok());
    // Placing: a taken point and a move are refused.
    let mut g = play(&["d6"]);
    assert!(g.apply(1, MorrisMove::Place(4)).is_err());
    assert!(g.parse_action(1, "d6-d5").is_err());
}

#[test]
fn two_men_or_no_move_lose_and_two_hundred_turns_draw() {
    let blocked = position(&["a7", "g7", "a1", "g1"], &["d7", "a4", "g4", "d1"], 0);
    assert_eq!(blocked.outcome(), Some(Some(1)));
    assert_eq!(blocked.turn(), Turn::Over);
    assert_eq!(blocked.score(1).reward, 1.0);
    let mut free = blocked.clone();
    free.mover = 1;
    assert_eq!(free.outcome(), None);
    let mut g = position(&["a7", "d7", "f6"], &["a1", "d1", "c3"], 0);
    let mv = g.parse_action(0, "f6-g7").unwrap();
    assert_eq!(g.apply(0, mv).unwrap(), vec!["W made a mill"]);
    let mv = g.parse_action(0, "c3").unwrap();
    let events = g.apply(0, mv).unwrap();
    assert_eq!(events.last().map(String::as_str), Some("W wins"));
    assert_eq!(g.score(0).reward + g.score(1).reward, 0.0);
    let mut g = position(&["a7", "d7", "f6", "b2"], &["a1", "d1", "c3", "e3"], 0);
    g.turns = TURN_LIMIT;
    assert_eq!(g.outcome(), Some(None));
    assert_eq!(g.score(0).breakdown.get("draw"), Some(&1.0));
}

#[test]
fn the_text_states_the_phase_and_the_legal_moves() {
    let g = play(&["d6"]);
    let text = g.observe(1).text;
    assert!(text.starts_with("Nine men's morris. You play B; W moves first."));
    assert!(text.contains("6 |   .-------W-------.   |"), "{text}");
    assert!(
        text.contains(
            "W: 8 to place, 1 on the board; B: 9 to place, 0 on the board. Turn 2 of 200."
        )
    );
    assert!(text.ends_with("Your move: place a man on an empty point, like `a7`."));
    assert_eq!(g.observe(1).legal_actions.map(|l| l.len()), Some(23));
    assert_eq!(g.observe(0).legal_actions, Some(Vec::new()));
    let g = position(&["a7", "g7", "a1"], &["d7", "b6", "f6", "d6"], 1);
    let text = g.observe(1).text;
    assert!(
        text.ends_with("Legal moves: b6-b4, d6-d5, f6-f4."),
        "{text}"
    );
}

#[test]
fn configs_are_checked_and_openings_make_no_mill() {
    assert!(NineMensMorris::validate(&MorrisConfig { opening_moves: 13 }).is_err());
    for seed in 0..30 {
        let config = MorrisConfig { opening_moves: 12 };
        let task = NineMensMorris::generate(&config, &mut Rng::from_seed(seed));
        assert_eq!(task.opening.len(), 12);
        let g = NineMensMorris::reset(&task, Rng::from_seed(0));
        assert_eq!(
            (g.men, g.to_place, g.turns, g.mover),
            ([9, 9], [3, 3], 12, 0)
        );
    }
}

#[test]
fn the_oracle_makes_and_blocks_mills() {
    assert_eq!(
        play(&["a7", "a1", "d7", "d1"]).oracle(0).as_deref(),
        Some("g7")
    );
    assert_eq!(play(&["a7", "a1", "d7"]).oracle(1).as_deref(), Some("g7"));
    let mut rng = Rng::from_seed(1);
    assert_eq!(
        play(&["a7", "a1", "d7", "d1"])
            .heuristic(0, &mut rng)
            .as_deref(),
        Some("g7")
    );
}

#[test]
fn the_oracle_beats_random_play_from_both_seats() {
    for hero in 0..2 {
        let mut wins = 0;
        for seed in 0..10 {
            let mut rng = Rng::from_seed(seed);
            let mut g = NineMensMorris::new();
            while g.outcome().is_none() {
                let mv = if g.mover == hero {
                    best_move(&g, ORACLE_DEPTH).unwrap()
                } else {
                    *rng.choose(&g.legal()).unwrap()
                };
                g.play_move(mv);
            }
            wins += u32::from(g.outcome() == Some(Some(hero)));
        }
        assert!(
            wins >= 9,
            "oracle in seat {hero} won {wins}/10 against random"
        );
    }
}

/// Random games, through `apply`: fewer than OpenSpiel's 100,000 to stay fast.
const AGREEMENT_GAMES: u64 = 10_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("agreement/nine-mens-morris.json");
    assert!(json.contains(r#""openspiel_game": "nine_mens_morris""#));
    let task = NineMensMorris::generate(&MorrisConfig::default(), &mut Rng::from_seed(0));
    crate::games::agreement::check("nine men's morris", json, AGREEMENT_GAMES, |rng| {
        let mut g = NineMensMorris::reset(&task, rng.fork(0));
        let mut plies = 0;
        while let Turn::Player(p) = g.turn() {
            let mv = *rng.choose(&g.legal()).unwrap();
            g.apply(p, mv).unwrap();
            plies += 1;
        }
        (g.outcome().flatten(), plies)
    });
}
