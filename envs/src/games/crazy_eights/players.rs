//! The scripted players: the heuristic (keep the most options, hold the 8s)
//! and the oracle (determinised Monte-Carlo: deal the unseen cards at
//! random many times and score each legal move by heuristic play-outs).

use crate::games::crazy_eights::rules::{Card, EIGHT, FULL, Move, Table, cards_of, rank, suit};
use crate::rng::{Rng, splitmix64};

/// Deals of the unseen cards the oracle samples per decision: 24 wins
/// about 56% of two-player games against the heuristic (64 is little
/// better), cheap enough for the gate's budget.
pub const SAMPLES: usize = 24;
/// Moves a play-out may take before it is scored as it stands.
const ROLLOUT_CAP: usize = 400;
/// What a win is worth to the oracle on top of the penalty it avoids: the
/// reward is the penalty, but `passed` is the win.
const WIN_BONUS: f64 = 25.0;

/// The suit most of `hand`'s non-8 cards share (ties to the lowest suit).
pub fn best_suit(hand: u64) -> u8 {
    let mut counts = [0u32; 4];
    for c in cards_of(hand).filter(|&c| rank(c) != EIGHT) {
        counts[suit(c) as usize] += 1;
    }
    (0..4u8)
        .max_by_key(|&s| (counts[s as usize], 4 - s))
        .unwrap_or(0)
}

/// Cards of `hand` that could follow `card` (same suit or rank, or an 8).
fn follow_ups(hand: u64, card: Card) -> u32 {
    cards_of(hand)
        .filter(|&d| rank(d) == EIGHT || suit(d) == suit(card) || rank(d) == rank(card))
        .count() as u32
}

/// The heuristic's move: name the suit it holds most of; else play the
/// non-8 card that leaves the most cards able to follow it (ties: the
/// costlier card, then at random); an 8 only when nothing else fits; else
/// draw, else pass.
pub fn heuristic(t: &Table, rng: &mut Rng) -> Move {
    let hand = t.hands[t.mover];
    if t.naming {
        return Move::Name(best_suit(hand));
    }
    let mut best: Option<((u32, u32, u64), Card)> = None;
    let mut eight = None;
    for c in cards_of(hand).filter(|&c| t.fits(c)) {
        if rank(c) == EIGHT {
            eight = Some(c);
            continue;
        }
        let key = (
            follow_ups(hand & !(1 << c), c),
            t.rules.scoring.penalty(c),
            rng.below(1 << 16),
        );
        if best.is_none_or(|(k, _)| key > k) {
            best = Some((key, c));
        }
    }
    if let Some((_, c)) = best {
        return Move::Play(c);
    }
    if let Some(c) = eight {
        return Move::Play(c);
    }
    if t.deck != 0 && t.drawn != t.rules.max_draw {
        Move::Draw
    } else {
        Move::Pass
    }
}

/// A seed from what the mover can see, so the oracle is a function of its
/// view (the audit replays its moves; the golden file records them).
fn view_seed(t: &Table) -> u64 {
    let mut h = splitmix64(t.hands[t.mover]);
    for x in [
        u64::from(t.top),
        u64::from(t.suit),
        u64::from(t.plays),
        u64::from(t.drawn),
        u64::from(t.passes),
        t.mover as u64,
        u64::from(t.deck_size()),
        t.discards(),
    ] {
        h = splitmix64(h ^ x);
    }
    for p in 0..t.rules.players {
        h = splitmix64(h ^ u64::from(t.hands[p].count_ones()));
    }
    h
}

/// A deal of the cards the mover cannot see (the other hands and the draw
/// pile) consistent with the hand sizes, uniformly at random.
fn determinise(t: &Table, rng: &mut Rng) -> Table {
    let me = t.mover;
    let seen = t.hands[me] | t.discards() | 1 << t.top;
    let mut unseen: Vec<Card> = cards_of(FULL & !seen).collect();
    rng.shuffle(&mut unseen);
    let mut world = t.clone();
    let mut next = unseen.into_iter();
    for p in (0..t.rules.players).filter(|&p| p != me) {
        let size = t.hands[p].count_ones();
        world.hands[p] = next.by_ref().take(size as usize).fold(0, |a, c| a | 1 << c);
    }
    world.deck = next.fold(0, |a, c| a | 1 << c);
    world
}

/// How hard the oracle searches and what it plays for.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    /// Deals of the unseen cards per decision.
    pub samples: usize,
    /// A win's worth on top of the penalty avoided.
    pub win_bonus: f64,
}

/// The oracle's search.
pub const SEARCH: Search = Search {
    samples: SAMPLES,
    win_bonus: WIN_BONUS,
};

/// The heuristic plays `t` out; `me`'s value at the end (or at the cap).
fn play_out(mut t: Table, me: usize, win_bonus: f64, rng: &mut Rng) -> f64 {
    for _ in 0..ROLLOUT_CAP {
        if t.over {
            break;
        }
        let mv = heuristic(&t, rng);
        t.apply(mv, rng);
    }
    let bonus = if t.winner() == Some(me) {
        win_bonus
    } else {
        0.0
    };
    bonus - f64::from(t.penalty(me))
}

/// The oracle's move: each legal move is scored over the same [`SAMPLES`]
/// deals of the unseen cards and the same play-out chance (common random
/// numbers, so the comparison is not noise), and the best mean wins. A
/// forced move and the suit to name (the heuristic's) need no search.
pub fn oracle(t: &Table) -> Move {
    oracle_with(t, SEARCH)
}

/// [`oracle`] with another search (the ladder tests compare settings).
pub fn oracle_with(t: &Table, search: Search) -> Move {
    if t.naming {
        return Move::Name(best_suit(t.hands[t.mover]));
    }
    // Drawing while a non-8 card fits only costs, and noisy play-outs
    // would pick it now and then: the search weighs the cards that fit, and
    // drawing only against spending an 8.
    let mut legal = t.legal();
    if legal
        .iter()
        .any(|m| matches!(m, Move::Play(c) if rank(*c) != EIGHT))
    {
        legal.retain(|m| matches!(m, Move::Play(_)));
    }
    if legal.len() == 1 {
        return legal[0];
    }
    let me = t.mover;
    let mut rng = Rng::from_seed(view_seed(t));
    let mut totals = vec![0.0; legal.len()];
    for _ in 0..search.samples {
        let world = determinise(t, &mut rng);
        let chance = rng.next_u64();
        for (total, &mv) in totals.iter_mut().zip(&legal) {
            let mut line = Rng::from_seed(chance);
            let mut after = world.clone();
            after.apply(mv, &mut line);
            if after.naming {
                let name = Move::Name(best_suit(after.hands[me]));
                after.apply(name, &mut line);
            }
            *total += play_out(after, me, search.win_bonus, &mut line);
        }
    }
    let best = (0..legal.len())
        .max_by(|&a, &b| totals[a].total_cmp(&totals[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    legal[best]
}
