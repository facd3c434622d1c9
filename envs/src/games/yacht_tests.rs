//! Tests of the scoring, the move syntax, the oracle's tables and the
//! OpenSpiel agreement.
use super::*;

fn game(dice: Dice) -> Yacht {
    Yacht::new(&YachtTask { target: 100, dice }, Rng::from_seed(5))
}

#[test]
fn categories_score_as_openspiel() {
    let s = |c: usize, d: [u8; 5]| category_score(c, &d);
    assert_eq!(s(0, [1, 1, 3, 5, 6]), 2);
    assert_eq!(s(5, [6, 6, 6, 2, 1]), 18);
    assert_eq!(s(6, [1, 2, 3, 4, 6]), 16);
    // Four of a kind: the sum of all five dice, five of a kind included.
    assert_eq!(s(7, [4, 4, 4, 4, 2]), 18);
    assert_eq!(s(7, [3, 3, 3, 3, 3]), 15);
    assert_eq!(s(7, [3, 3, 3, 2, 2]), 0);
    // Full house: the sum; five of a kind counts, four and one does not.
    assert_eq!(s(8, [2, 2, 5, 5, 5]), 19);
    assert_eq!(s(8, [6, 6, 6, 6, 6]), 30);
    assert_eq!(s(8, [6, 6, 6, 6, 1]), 0);
    assert_eq!(s(8, [1, 2, 2, 5, 5]), 0);
    // Straights are fixed runs, 30 each.
    assert_eq!(s(9, [5, 3, 1, 2, 4]), 30);
    assert_eq!(s(9, [2, 3, 4, 5, 6]), 0);
    assert_eq!(s(10, [2, 3, 4, 5, 6]), 30);
    assert_eq!(s(10, [1, 3, 4, 5, 6]), 0);
    assert_eq!(s(11, [2, 2, 2, 2, 2]), 50);
    assert_eq!(s(11, [2, 2, 2, 2, 3]), 0);
    // The maximum is OpenSpiel's 305.
    let best: u32 = (0..12)
        .map(|c| {
            (1..=6u8)
                .flat_map(|a| (1..=6u8).map(move |b| [a, a, a, b, b]))
                .chain([[1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [6, 6, 6, 6, 6]])
                .map(|d| category_score(c, &d))
                .max()
                .unwrap()
        })
        .sum();
    assert_eq!(best, MAX_TOTAL);
}

#[test]
fn moves_parse_leniently_and_hedges_are_refused() {
    let d = [1, 1, 3, 5, 6];
    let keep = |v: &[u8]| Move::Keep(counts(v));
    assert_eq!(parse_move("keep 1 1 5", &d), Ok(keep(&[1, 1, 5])));
    assert_eq!(parse_move("Keep 5, 1, 1", &d), Ok(keep(&[1, 1, 5])));
    assert_eq!(parse_move("reroll 3 6", &d), Ok(keep(&[1, 1, 5])));
    assert_eq!(parse_move("re-roll 3,6", &d), Ok(keep(&[1, 1, 5])));
    assert_eq!(parse_move("keep all", &d), Ok(keep(&d)));
    assert_eq!(parse_move("reroll none", &d), Ok(keep(&d)));
    assert_eq!(parse_move("keep none", &d), Ok(keep(&[])));
    assert_eq!(parse_move("reroll all", &d), Ok(keep(&[])));
    assert_eq!(parse_move("score full house", &d), Ok(Move::Score(8)));
    assert_eq!(parse_move("Full House", &d), Ok(Move::Score(8)));
    assert_eq!(parse_move("score 4 of a kind", &d), Ok(Move::Score(7)));
    assert_eq!(parse_move("score fours", &d), Ok(Move::Score(3)));
    assert_eq!(parse_move("score yacht", &d), Ok(Move::Score(11)));
    for bad in [
        "score fives or sixes",
        "keep 5 or score fives",
        "keep 1 1 and reroll 3",
        "keep 1 1 or 5",
        "keep",
        "keep 2",
        "keep 1 1 1",
        "keep 7",
        "",
        "pass",
        "5 keep 1",
    ] {
        assert!(parse_move(bad, &d).is_err(), "{bad:?} was read");
    }
    assert!(
        parse_move("score fives or sixes", &d)
            .unwrap_err()
            .ambiguous
    );
    // Every listed action reads back as itself.
    let g = game(d);
    for m in g.legal() {
        assert_eq!(parse_move(&g.move_text(m), &d), Ok(m), "{}", g.move_text(m));
    }
    assert_eq!(g.legal().len(), keeps(&d).len() + 12);
    assert_eq!(keeps(&d).len(), 24);
}

#[test]
fn a_turn_has_three_rolls_and_categories_fill_once() {
    let mut g = game([2, 2, 2, 5, 5]);
    assert_eq!(g.apply(0, Move::Keep(counts(&[2, 2, 2]))).unwrap().len(), 1);
    assert_eq!(g.rolls(), 2);
    assert_eq!(&g.dice()[..], &{
        let mut d = g.dice();
        d.sort_unstable();
        d
    });
    assert!(counts(&g.dice())[2] >= 3);
    g.apply(0, Move::Keep(counts(&g.dice()))).unwrap();
    assert_eq!(g.rolls(), ROLLS);
    assert_eq!(g.moves(), 2);
    let err = g.apply(0, Move::Keep(counts(&[]))).unwrap_err();
    assert!(err.reason.contains("no re-rolls left"));
    assert!(g.legal().iter().all(|m| matches!(m, Move::Score(_))));
    let points = category_score(1, &g.dice());
    g.apply(0, Move::Score(1)).unwrap();
    assert_eq!((g.total(), g.rolls(), g.moves()), (points, 1, 3));
    assert!(
        g.apply(0, Move::Score(1))
            .unwrap_err()
            .reason
            .contains("already filled")
    );
    // Scoring at the first roll is allowed; twelve scores end the game.
    for c in [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] {
        assert!(!g.over());
        g.apply(0, Move::Score(c)).unwrap();
    }
    assert!(g.over() && g.legal().is_empty() && g.turn() == Turn::Over);
    let score = g.score(0);
    assert_eq!(score.reward, f64::from(g.total()) / 305.0);
}

#[test]
fn the_observation_shows_dice_card_and_legal_moves() {
    let g = game([1, 1, 3, 5, 6]);
    let o = g.observe(0);
    assert!(
        o.text
            .contains("Dice: 1 1 3 5 6 (roll 1 of 3; 2 re-rolls left)"),
        "{}",
        o.text
    );
    assert!(
        o.text.contains("  ones: open (these dice would score 2)"),
        "{}",
        o.text
    );
    assert!(
        o.text.contains("Total 0, turn 1 of 12, moves 0."),
        "{}",
        o.text
    );
    let legal = o.legal_actions.unwrap();
    assert_eq!(legal[0], "keep all");
    assert!(legal.contains(&"keep 1 1 5".to_string()));
    assert!(legal.contains(&"keep none".to_string()));
    assert!(legal.contains(&"score small straight".to_string()));
}

/// The expected value of the best keep, by brute force over every roll of
/// the re-rolled dice (one re-roll left, greedy category value).
fn brute_best(dice: &Dice, open: &[usize]) -> f64 {
    let leaf = |d: &[u8]| {
        open.iter()
            .map(|&c| f64::from(category_score(c, d)) - PAR[c])
            .fold(f64::MIN, f64::max)
    };
    let mut best = f64::MIN;
    for mask in 0..32u32 {
        let kept: Vec<u8> = (0..5)
            .filter(|i| mask >> i & 1 == 0)
            .map(|i| dice[i])
            .collect();
        let n = 5 - kept.len() as u32;
        let mut sum = 0.0;
        for o in 0..6u32.pow(n) {
            let mut d = kept.clone();
            let mut x = o;
            for _ in 0..n {
                d.push((x % 6) as u8 + 1);
                x /= 6;
            }
            sum += leaf(&d);
        }
        best = best.max(sum / f64::from(6u32.pow(n)));
    }
    best
}

#[test]
fn the_oracle_keeps_what_brute_force_values_most() {
    let mut rng = Rng::from_seed(3);
    for _ in 0..40 {
        let dice = roll(&mut rng, &[0; 7]);
        let mut scores = [None; 12];
        for s in &mut scores {
            if rng.chance(0.5) {
                *s = Some(0);
            }
        }
        scores[rng.below(12) as usize] = None;
        let open: Vec<usize> = (0..12).filter(|&c| scores[c].is_none()).collect();
        let want = brute_best(&dice, &open);
        // The value of the oracle's own choice, by brute force.
        let got = match best_move(&dice, 1, &scores) {
            Move::Score(c) => {
                assert!(scores[c].is_none());
                f64::from(category_score(c, &dice)) - PAR[c]
            }
            Move::Keep(k) => {
                let size = k.iter().map(|&n| usize::from(n)).sum::<usize>();
                expected_keep(&hand(&k)[..size], &open)
            }
        };
        assert!(
            (got - want).abs() < 1e-9,
            "{dice:?} {open:?}: {got} vs {want}"
        );
    }
}

fn expected_keep(kept: &[u8], open: &[usize]) -> f64 {
    let n = 5 - kept.len() as u32;
    let mut sum = 0.0;
    for o in 0..6u32.pow(n) {
        let mut d = kept.to_vec();
        let mut x = o;
        for _ in 0..n {
            d.push((x % 6) as u8 + 1);
            x /= 6;
        }
        sum += open
            .iter()
            .map(|&c| f64::from(category_score(c, &d)) - PAR[c])
            .fold(f64::MIN, f64::max);
    }
    sum / f64::from(6u32.pow(n))
}

#[test]
fn configs_are_checked() {
    assert!(Yacht::validate(&YachtConfig { target: 20 }).is_err());
    assert!(Yacht::validate(&YachtConfig { target: 301 }).is_err());
    assert!(Yacht::validate(&YachtConfig::default()).is_ok());
    let t = Yacht::generate(&YachtConfig::default(), &mut Rng::from_seed(1));
    assert!(t.dice.windows(2).all(|w| w[0] <= w[1]) && t.dice.iter().all(|d| (1..=6).contains(d)));
}

/// Random games of OpenSpiel's `yacht(players=1)`, through `play`.
const AGREEMENT_GAMES: u64 = 40_000;

#[test]
fn random_play_agrees_with_openspiel() {
    let json = include_str!("agreement/yacht.json");
    assert!(json.contains(r#""openspiel_game": "yacht(players=1)""#));
    let config = YachtConfig::default();
    crate::games::agreement::check_one_player(
        "yacht",
        json,
        "score_band",
        AGREEMENT_GAMES,
        |rng| {
            let task = Yacht::generate(&config, rng);
            let mut g = Yacht::reset(&task, rng.fork(0));
            // OpenSpiel's random player: one of the 32 re-roll masks over the
            // dice (0: keep all) while rolls are left, else an open category.
            while !g.over() {
                let m = if g.rolls() < ROLLS {
                    let mask = rng.below(32);
                    let d = g.dice();
                    Move::Keep(counts(
                        &(0..5)
                            .filter(|i| mask >> i & 1 == 0)
                            .map(|i| d[i])
                            .collect::<Vec<_>>(),
                    ))
                } else {
                    let open = g.open();
                    Move::Score(open[rng.below(open.len() as u64) as usize])
                };
                g.play(m);
            }
            (
                f64::from(g.total()),
                u64::from(g.moves()),
                u64::from(g.total() / 10 * 10),
            )
        },
    );
}
