//! Tests of the rules, observations and oracle.
use super::*;
use crate::games::common::play_moves;

fn play(size: usize, moves: &[&str]) -> Checkers {
    play_moves(Checkers::new(size, 150), moves)
}

/// A board from rows written top first.
fn setup(rows: &[&str], to_move: Player) -> Checkers {
    let size = rows.len();
    let mut g = Checkers::new(size, 150);
    for (k, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let owner = if ch.eq_ignore_ascii_case(&'b') { 0 } else { 1 };
            g.board[(size - 1 - k) * size + c] = (ch != '.').then_some(Piece {
                owner,
                king: ch.is_ascii_uppercase(),
            });
        }
    }
    g.to_move = to_move;
    g
}

#[test]
fn the_start_and_simple_moves_match_the_rules() {
    let g = Checkers::new(6, 150);
    assert_eq!(g.render(), ".w.w.w\nw.w.w.\n......\n......\n.b.b.b\nb.b.b.");
    assert_eq!(
        g.observe(0).legal_actions.unwrap(),
        vec!["b2-a3", "b2-c3", "d2-c3", "d2-e3", "f2-e3"]
    );
    let g = play(6, &["b2-c3", "a5-b4"]);
    assert_eq!(
        g.observe(0).legal_actions.unwrap(),
        vec!["c3xa5"],
        "the capture is compulsory"
    );
}

#[test]
fn captures_chain_and_crown() {
    let g = setup(
        &["......", "...w..", "......", ".w....", "b.....", "......"],
        0,
    );
    assert_eq!(g.observe(0).legal_actions.unwrap(), vec!["a2xc4xe6"]);
    let mut g = g;
    let mv = g.parse_action(0, "a2-c4-e6").unwrap();
    g.apply(0, mv).unwrap();
    assert_eq!(g.render(), "....B.\n......\n......\n......\n......\n......");
    assert_eq!(g.winner(), Some(0), "white has no pieces left");
    assert_eq!(g.score(1).reward, -1.0);
    // A man crowned mid-capture stops there.
    let g = setup(
        &["......", "...w.w", "..b...", "......", "......", "......"],
        0,
    );
    assert_eq!(g.observe(0).legal_actions.unwrap(), vec!["c4xe6"]);
    // Kings move and capture backwards.
    let g = setup(
        &["......", "......", "...B..", "..w...", "......", "......"],
        0,
    );
    assert!(
        g.observe(0)
            .legal_actions
            .unwrap()
            .contains(&"d4xb2".to_string())
    );
}

#[test]
fn illegal_moves_and_hedges_are_refused() {
    let mut g = Checkers::new(6, 150);
    assert!(g.parse_action(0, "b2-b3").is_err());
    assert!(g.parse_action(0, "b2-a3 or b2-c3").is_err());
    assert!(g.parse_action(0, "a5-b4").is_err(), "the opponent's man");
    let mv = g.parse_action(0, "I move b2-c3.").unwrap();
    g.apply(0, mv.clone()).unwrap();
    assert!(g.apply(1, mv).is_err());
}

#[test]
fn quiet_king_moves_draw() {
    let mut g = setup(
        &["B.....", "......", "......", "......", "......", ".....W"],
        0,
    );
    for _ in 0..QUIET_LIMIT {
        let mv = g.legal()[0].clone();
        g.apply(g.to_move, mv).unwrap();
    }
    assert!(g.drawn() && g.over());
    assert_eq!(g.score(0).reward, 0.0);
}

#[test]
fn the_oracle_beats_random_play_from_both_seats() {
    const GAMES: u64 = 10;
    for seat in 0..2 {
        let mut wins = 0;
        for seed in 0..GAMES {
            let mut rng = Rng::from_seed(seed);
            let mut g = Checkers::new(6, 150);
            while !g.over() {
                let legal = g.legal();
                let k = if g.to_move == seat {
                    best_move(&g, ORACLE_DEPTH).unwrap()
                } else {
                    rng.below(legal.len() as u64) as usize
                };
                g.play(&legal[k]);
            }
            wins += u64::from(g.winner() == Some(seat));
        }
        eprintln!("checkers 6x6: oracle in seat {seat} won {wins}/{GAMES} against random");
        assert!(wins * 10 >= GAMES * 9, "seat {seat}: {wins}/{GAMES}");
    }
}
