//! Tests of the rules on hand-computed positions, OpenSpiel's random games
//! replayed move by move, random-play agreement with OpenSpiel, the
//! reader, the observation and the players.
use super::board::{BAR, OFF, Step, halves};
use super::*;

/// A game with `p` to move on `dice` and this board: each side's checkers
/// as (point in its own numbering, count); the rest borne off.
fn position(p: Player, dice: [u8; 2], sides: [&[(usize, u8)]; 2]) -> Backgammon {
    let mut b = Board { c: [[0; 26]; 2] };
    for (q, side) in sides.iter().enumerate() {
        for &(i, n) in *side {
            b.c[q][i] += n;
        }
        let on: u8 = b.c[q].iter().sum();
        b.c[q][OFF] += board::CHECKERS - on;
    }
    let task = BackgammonTask {
        board: b,
        to_move: p,
        dice,
        turns: 10,
    };
    Backgammon::reset(&task, Rng::from_seed(1))
}

fn start(p: Player, dice: [u8; 2]) -> Backgammon {
    let s: &[(usize, u8)] = &[(24, 2), (13, 5), (8, 3), (6, 5)];
    position(p, dice, [s, s])
}

fn names(g: &Backgammon) -> Vec<String> {
    g.legal().iter().map(notation).collect()
}

fn play(g: &mut Backgammon, text: &str) {
    let p = g.to_move;
    let mv = g
        .parse_action(p, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(p, mv).unwrap();
}

#[test]
fn opening_rolls_count_plays_and_orderings_by_hand() {
    // 4-1 from the start: OpenSpiel's 27 actions (ordered pairs of moves;
    // its first replay opens with this roll), fewer distinct plays.
    assert_eq!(halves(&Board::start(), 0, [4, 1]).len(), 27);
    let g = start(0, [6, 1]);
    let plays = names(&g);
    assert!(plays.contains(&"13/7 8/7".to_string()), "{plays:?}");
    assert!(plays.contains(&"24/18 6/5".to_string()));
    assert!(
        plays.contains(&"13/6".to_string()),
        "one checker with both dice"
    );
    assert!(!plays.iter().any(|p| p.contains("6/0") || p.contains("off")));
    assert!(
        !plays.iter().any(|p| p.starts_with("24/17")),
        "the 6 from 24 is open, 1 from 18 onto 17"
    );
    // 6-5: the lover's leap, one checker with both dice.
    let g = start(1, [6, 5]);
    assert!(names(&g).contains(&"24/13".to_string()));
    // A double: four moves, listed once per board.
    let g = start(0, [4, 4]);
    let plays = names(&g);
    assert!(plays.contains(&"24/20(2) 13/9(2)".to_string()), "{plays:?}");
    assert!(plays.contains(&"13/9(2) 6/2(2)".to_string()));
    let boards: std::collections::HashSet<Board> = g.legal().iter().map(|p| p.board).collect();
    assert_eq!(boards.len(), plays.len());
}

#[test]
fn the_bar_enters_first_and_hits_send_blots_back() {
    // X on the bar with 6-1: O holds X's 19 (its 6) and X's 24 is open
    // (O's 1): only bar/24 enters, then the 6 from anywhere.
    let mut g = position(
        0,
        [6, 1],
        [&[(BAR, 1), (13, 14)], &[(6, 5), (1, 1), (13, 9)]],
    );
    let plays = names(&g);
    assert!(plays.iter().all(|p| p.starts_with("bar/24")), "{plays:?}");
    // O's single checker on its 1 sits on X's 24: entering there hits.
    assert!(plays.iter().all(|p| p.contains("bar/24*")), "{plays:?}");
    play(&mut g, "bar/24* 13/7");
    assert_eq!(g.board.c[1][BAR], 1, "the blot on O's 1 went to O's bar");
    assert_eq!(g.board.c[0][7], 1);
    assert_eq!(g.to_move, 1);
    // Closed out: every entry point held, so the only play is to pass.
    let closed: &[(usize, u8)] = &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 5)];
    let mut g = position(0, [5, 3], [&[(BAR, 1), (13, 14)], closed]);
    assert_eq!(names(&g), ["pass"]);
    assert!(g.parse_action(0, "13/8 13/10").is_err());
    play(&mut g, "pass");
    assert_eq!(g.to_move, 1);
}

#[test]
fn both_dice_if_possible_else_the_larger_and_bearing_off() {
    // O holds X's 7 and 8 (its 18 and 17): X's 13 cannot move; 6/1 plays
    // the 5, and the 6 has no move (X may not bear off with a checker out).
    let g = position(
        0,
        [6, 5],
        [&[(13, 1), (6, 14)], &[(18, 2), (17, 2), (1, 11)]],
    );
    assert_eq!(names(&g), ["6/1"]);
    // O holds X's 1 and 2: 9/3 or 9/7, but neither leaves the other die a
    // move, so the larger die is played.
    let g = position(0, [6, 2], [&[(9, 1)], &[(24, 6), (23, 9)]]);
    assert_eq!(names(&g), ["9/3"]);
    // With X's 3 held too only the 2 can be played.
    let g = position(0, [6, 2], [&[(9, 1)], &[(24, 6), (23, 2), (22, 7)]]);
    assert_eq!(names(&g), ["9/7"]);
    // Bearing off (O's checkers all on X's 12): the exact die, or a larger
    // one from the highest point.
    let g = position(0, [6, 5], [&[(4, 1), (2, 1)], &[(13, 15)]]);
    assert_eq!(names(&g), ["4/off 2/off"]);
    let g = position(0, [3, 1], [&[(6, 1), (2, 1)], &[(13, 15)]]);
    let mut plays = names(&g);
    plays.sort();
    assert_eq!(
        plays,
        ["6/2", "6/3 2/1"],
        "no 2/off with the 3 while 6 or 5 is held"
    );
    let mut g = position(0, [6, 6], [&[(3, 1), (1, 1)], &[(13, 15)]]);
    assert_eq!(names(&g), ["3/off 1/off"]);
    play(&mut g, "3/off 1/off");
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!((g.score(0).reward, g.score(1).reward), (1.0, -1.0));
    assert_eq!(g.score(0).breakdown.get("borne_off"), Some(&15.0));
}

#[test]
fn the_reader_takes_orderings_spellings_and_refuses_hedges() {
    let g = start(0, [6, 1]);
    let point = g.parse_action(0, "13/7 8/7").unwrap();
    for same in [
        "8/7 13/7",
        "13/7, 8/7",
        "13/7 and 8/7",
        "Move: 8/7 then 13/7.",
        "I make my bar point: 13/7 8/7",
        "`13/7 8/7`",
    ] {
        assert_eq!(
            g.parse_action(0, same).unwrap().board,
            point.board,
            "{same}"
        );
    }
    let run = g.parse_action(0, "13/6").unwrap();
    assert_eq!(g.parse_action(0, "13/7/6").unwrap().board, run.board);
    assert_eq!(g.parse_action(0, "13/12/6").unwrap().board, run.board);
    let hedge = g.parse_action(0, "13/7 8/7 or 24/18 24/23").unwrap_err();
    assert!(hedge.ambiguous, "{}", hedge.reason);
    for bad in [
        "",
        "13/8 8/7",
        "13/7",
        "7/13 7/8",
        "pass",
        "24/18 24/18",
        "6-1",
        "42",
    ] {
        assert!(g.parse_action(0, bad).is_err(), "{bad}");
    }
    assert!(g.parse_action(1, "13/7 8/7").is_err(), "not O's turn");
    // Through the reply reader: reasoning dropped, a marker line read.
    let reply = "<think>24/18 13/12 is weaker.</think>\nI'll make the 7 point.\nMove: 13/7 8/7";
    let read = crate::reply::parse_reply(reply, |t| g.parse_action(0, t), String::new).unwrap();
    assert_eq!(read.board, point.board);
    // OpenSpiel's spellings read too.
    let g = position(
        0,
        [6, 1],
        [&[(BAR, 1), (13, 14)], &[(6, 5), (1, 1), (13, 9)]],
    );
    let a = g.parse_action(0, "Bar/24* 13/7").unwrap();
    assert_eq!(g.parse_action(0, "13/7 bar/24").unwrap().board, a.board);
}

#[test]
fn hit_marks_choose_between_plays_reaching_the_same_points() {
    // X on 13 with 4-2; O blots on X's 9 and 11: 13/9*/7 and 13/11*/7.
    let g = position(
        0,
        [4, 2],
        [&[(13, 1), (6, 14)], &[(16, 1), (14, 1), (1, 13)]],
    );
    let err = g.parse_action(0, "13/7").unwrap_err();
    assert!(err.reason.contains('*'), "{}", err.reason);
    let via9 = g.parse_action(0, "13/9*/7").unwrap();
    let via11 = g.parse_action(0, "13/11*/7").unwrap();
    assert_ne!(via9.board, via11.board);
    assert_eq!(via9.hits(), [9]);
}

#[test]
fn the_observation_draws_the_seat_side_and_lists_plays() {
    let g = start(1, [6, 1]);
    let obs = g.observe(1);
    assert!(obs.text.contains("You play O."), "{}", obs.text);
    assert!(
        obs.text.contains(
            "  13  14  15  16  17  18 |  19  20  21  22  23  24\n  O5   .   .   .  X3   . |  X5   .   .   .   .  O2\n  \
             X5   .   .   .  O3   . |  O5   .   .   .   .  X2\n  12  11  10   9   8   7 |   6   5   4   3   2   1"
        ),
        "{}",
        obs.text
    );
    assert!(obs.text.contains("Pips to go: you 167, opponent 167."));
    assert!(obs.text.contains("Your roll: 6-1. Legal plays ("));
    assert_eq!(obs.legal_actions.as_ref().unwrap().len(), g.legal().len());
    // A double has more plays than the text lists; the action list has all.
    let double = start(0, [4, 4]);
    let listed = double.observe(0);
    let plays = double.legal().len();
    assert!(plays > LISTED_PLAYS, "{plays} plays");
    assert!(
        listed.text.contains(&format!(
            "Legal plays ({plays}; the first {LISTED_PLAYS} shown, any legal play is read)"
        )),
        "{}",
        listed.text
    );
    assert!(listed.text.len() < 4096, "{} bytes", listed.text.len());
    assert_eq!(listed.legal_actions.unwrap().len(), plays);
    let other = g.observe(0);
    assert_eq!(other.legal_actions, Some(Vec::new()));
    assert!(
        other
            .text
            .contains("Waiting for the opponent (O rolled 6-1).")
    );
}

#[test]
fn configs_are_checked_and_openings_leave_a_game() {
    let config: BackgammonConfig = serde_json::from_str(r#"{"opening_turns": 61}"#).unwrap();
    assert!(Backgammon::validate(&config).is_err());
    let config = BackgammonConfig { opening_turns: 40 };
    let fresh = Backgammon::effort(&Backgammon::generate(
        &BackgammonConfig::default(),
        &mut Rng::from_seed(0),
    ))
    .unwrap();
    let mut pips = 0.0;
    for seed in 0..20 {
        let task = Backgammon::generate(&config, &mut Rng::from_seed(seed));
        let g = Backgammon::reset(&task, Rng::from_seed(0));
        assert_eq!(g.turn(), Turn::Player(task.to_move));
        assert_eq!(task.turns, 40);
        assert!(!g.legal().is_empty());
        pips += Backgammon::effort(&task).unwrap();
        for q in 0..2 {
            let on: u8 = g.board.c[q].iter().sum();
            assert_eq!(on, 15);
        }
    }
    // Hits can send checkers back, but on average 40 turns shorten the race.
    assert!(
        pips / 20.0 < fresh - 50.0,
        "{} against {fresh}",
        pips / 20.0
    );
    // The first player and opening roll vary with the seed; no double.
    let starts: std::collections::HashSet<(Player, [u8; 2])> = (0..60)
        .map(|s| {
            let t = Backgammon::generate(&BackgammonConfig::default(), &mut Rng::from_seed(s));
            assert_ne!(t.dice[0], t.dice[1]);
            (t.to_move, t.dice)
        })
        .collect();
    assert!(starts.len() > 15);
}

/// Wins of `hero` over `games` games: `strong` plays the oracle (else the
/// heuristic) against the heuristic (`weak`: random play).
fn wins(hero: Player, games: u64, strong: bool, weak: bool) -> u64 {
    let mut won = 0;
    for seed in 0..games {
        let mut rng = Rng::from_seed(seed);
        let task = Backgammon::generate(&BackgammonConfig::default(), &mut rng);
        let mut g = Backgammon::reset(&task, rng.fork(1));
        while let Turn::Player(p) = g.turn() {
            let name = if p == hero {
                if strong {
                    g.oracle(p)
                } else {
                    g.heuristic(p, &mut rng)
                }
                .unwrap()
            } else if weak {
                g.random_action(p, &mut rng)
            } else {
                g.heuristic(p, &mut rng).unwrap()
            };
            play(&mut g, &name);
        }
        won += u64::from(g.winner() == Some(hero));
    }
    won
}

#[test]
fn the_ladder_climbs_from_both_seats() {
    for hero in 0..2 {
        let w = wins(hero, 20, false, true);
        eprintln!("backgammon: heuristic in seat {hero} beat random {w}/20");
        assert!(w >= 15, "heuristic in seat {hero}: {w}/20 against random");
        let w = wins(hero, 30, true, false);
        eprintln!("backgammon: oracle in seat {hero} beat the heuristic {w}/30");
        assert!(
            w >= 18,
            "oracle in seat {hero}: {w}/30 against the heuristic"
        );
    }
}

/// OpenSpiel's random games (`scripts/openspiel-stats.py backgammon
/// --replays 40`) replayed action by action: before every ply the same
/// number of legal actions (ordered pairs), the named move legal, the same
/// result.
#[test]
fn openspiel_games_replay_with_the_same_legal_actions_and_results() {
    let replays = include_str!("../agreement/backgammon-replays.txt");
    let mut games = 0;
    let mut hits = 0;
    for line in replays.lines() {
        let (plies, result) = line.split_once(" => ").unwrap();
        let mut b = Board::start();
        let (mut p, mut dice, mut turns, mut second) = (0, [0u8; 2], 0u32, false);
        for (i, ply) in plies.split(' ').enumerate() {
            let (name, count) = ply.rsplit_once('/').unwrap();
            if let Some(roll) = name.strip_prefix("roll") {
                let (who, d) = roll.split_at(roll.len() - 2);
                match who {
                    "X" => p = 0,
                    "O" => p = 1,
                    _ => p = 1 - p,
                }
                let d: Vec<u8> = d.bytes().map(|c| c - b'0').collect();
                dice = [d[0].max(d[1]), d[0].min(d[1])];
                continue;
            }
            let legal = halves(&b, p, dice);
            assert_eq!(
                legal.len(),
                count.parse::<usize>().unwrap(),
                "game {games} ply {i} {name}"
            );
            let text = name.replace('_', " ");
            let found: Vec<usize> = text::stretches(&text)
                .into_iter()
                .filter_map(|w| {
                    w.ok()
                        .and_then(|w| text::Index::new(&b, p, &legal).resolve(&w).ok())
                })
                .collect();
            assert!(!found.is_empty(), "game {games} ply {i}: {name} not legal");
            let half = &legal[found[0]];
            hits += half.steps.iter().filter(|s: &&Step| s.hit).count();
            b = half.board;
            if !second {
                turns += 1;
            }
            let done = b.off(p) == board::CHECKERS || turns > MAX_TURNS;
            second = !second && !done && board::second_half(dice, half, false);
        }
        let ours = if b.off(0) == 15 {
            "0"
        } else if b.off(1) == 15 {
            "1"
        } else {
            "draw"
        };
        assert_eq!(ours, result, "game {games}");
        games += 1;
    }
    assert_eq!(games, 40);
    eprintln!("backgammon replays: {hits} hits");
}

/// One random game at the rules level, OpenSpiel's way: the opening roll
/// picks the first player, every ply a uniform draw among its actions.
fn random_game(rng: &mut Rng) -> (Option<Player>, u64) {
    let task = Backgammon::generate(&BackgammonConfig::default(), rng);
    let (mut b, mut p, mut dice) = (task.board, task.to_move, task.dice);
    let (mut turns, mut plies) = (0u32, 0u64);
    loop {
        let (play, n) = random_turn(&b, p, dice, turns >= MAX_TURNS, rng);
        b = play.board;
        plies += u64::from(n);
        turns += 1;
        if b.off(p) == board::CHECKERS {
            return (Some(p), plies);
        }
        if turns > MAX_TURNS {
            return (None, plies);
        }
        p = 1 - p;
        dice = roll(rng);
    }
}

/// Random games against OpenSpiel's statistics; the full 100k by hand:
/// `VERIGYM_BACKGAMMON_GAMES=100000 cargo test ... random_play_agrees`.
const AGREEMENT_GAMES: u64 = 3_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("../agreement/backgammon.json");
    assert!(json.contains(r#""openspiel_game": "backgammon(hyper_backgammon=false"#));
    let games = std::env::var("VERIGYM_BACKGAMMON_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(AGREEMENT_GAMES);
    crate::games::agreement::check("backgammon", json, games, random_game);
}

/// Random-play speed through the env (`parse_action` and `apply` of the
/// random player's text, as an agent's turn goes): `cargo test --release …
/// -- --ignored backgammon_random_play_speed --nocapture` prints it.
#[test]
#[ignore = "a measurement, not a check"]
fn backgammon_random_play_speed() {
    let mut rng = Rng::from_seed(5);
    let (mut steps, mut wins) = (0u64, [0u64; 3]);
    let started = std::time::Instant::now();
    let n = 2_000;
    for _ in 0..n {
        let task = Backgammon::generate(&BackgammonConfig::default(), &mut rng);
        let mut g = Backgammon::reset(&task, rng.fork(1));
        while let Turn::Player(p) = g.turn() {
            let text = g.random_action(p, &mut rng);
            play(&mut g, &text);
            steps += 1;
        }
        wins[g.winner().unwrap_or(2)] += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "backgammon random play: {wins:?} of {n}, mean {:.2} turns, {:.0} steps/s",
        steps as f64 / n as f64,
        steps as f64 / seconds
    );
}

/// The listed plays are those of the position as it is: after a play, and
/// after a position is changed by hand, never a stale list.
#[test]
fn listed_plays_follow_the_position() {
    let keys = |list: &[Play]| {
        list.iter()
            .map(|p| (p.steps.clone(), p.board))
            .collect::<Vec<_>>()
    };
    let fresh = |g: &Backgammon| keys(&plays(&g.board, g.to_move, g.dice, g.turns >= MAX_TURNS));
    let mut g = start(0, [6, 1]);
    assert_eq!(keys(&g.legal()), fresh(&g));
    g.dice = [3, 3];
    assert_eq!(keys(&g.legal()), fresh(&g));
    let mut rng = Rng::from_seed(4);
    for _ in 0..40 {
        if g.over {
            break;
        }
        let legal = g.legal().into_owned();
        assert_eq!(keys(&legal), fresh(&g));
        let play = legal[rng.below(legal.len() as u64) as usize].clone();
        g.apply(g.to_move, play).unwrap();
    }
}
