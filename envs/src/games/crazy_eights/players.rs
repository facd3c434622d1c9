//! The scripted players: the heuristic (keep the most options, hold the 8s)
//! and the oracle (determinised Monte-Carlo: deal the unseen cards many
//! times as the public moves allow, see [`Reads`], and score each legal
//! move by heuristic play-outs).

use crate::games::crazy_eights::reads::Reads;
use crate::games::crazy_eights::rules::{Card, EIGHT, Move, Table, cards_of, rank, suit};
use crate::rng::{Rng, splitmix64};

/// Deals of the unseen cards the oracle samples per decision. Wins of
/// 2000 games against the heuristic in every other seat (2, 3, 4 seats;
/// `search_settings`): 24 uniform deals 1106, 688, 520; 96 uniform 1192,
/// 743, 516; read deals, 24: 1156, 762, 523; 48: 1237, 770, 568; 96:
/// 1291, 800, 574; 192: 1321, 795, 592, at twice the cost. 96 keeps each
/// gate filter near 3 s.
pub const SAMPLES: usize = 96;
/// Naming a suit decides much of the next seat's turn: it gets this many
/// times the samples.
const NAME_SAMPLES: usize = 4;
/// Moves a play-out may take before it is scored as it stands.
const ROLLOUT_CAP: usize = 400;
/// What a win is worth to the oracle on top of the penalty it avoids: the
/// reward is the penalty, but `passed` is the win (a mean hand costs
/// about 15; 100 plays mostly for the win, 25 to 1000 measured alike).
const WIN_BONUS: f64 = 100.0;

/// Every club; shifted by a suit, every card of that suit.
const CLUBS: u64 = 0x0001_1111_1111_1111;

/// The cards that fit when `suit` is to be matched on a card of rank
/// `rank`: that suit, that rank and the 8s.
pub fn fitting_on(suit: u8, rank: u8) -> u64 {
    CLUBS << suit | 0xF << (4 * rank) | 0xF << (4 * EIGHT)
}

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
pub fn follow_ups(hand: u64, card: Card) -> u32 {
    (hand & fitting_on(suit(card), rank(card))).count_ones()
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
    // Bit sets, not card lists: the play-outs spend their time here.
    for c in cards_of_fast(hand & fitting_on(t.suit, rank(t.top))) {
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

/// The cards of a bit set, lowest first, one step per card.
fn cards_of_fast(mut set: u64) -> impl Iterator<Item = Card> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as Card;
            set &= set - 1;
            c
        })
    })
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
/// deals of the unseen cards (drawn to agree with `reads`, the public
/// moves so far) and the same play-out chance (common random numbers, so
/// the comparison is not noise), and the best mean wins. The suit to name
/// after an 8 is searched the same way, with [`NAME_SAMPLES`] times the
/// deals; a forced move needs no search.
pub fn oracle(t: &Table, reads: &Reads) -> Move {
    oracle_with(t, reads, SEARCH)
}

/// [`oracle`] with another search (the tests compare settings).
pub fn oracle_with(t: &Table, reads: &Reads, search: Search) -> Move {
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
    let samples = search.samples * if t.naming { NAME_SAMPLES } else { 1 };
    for _ in 0..samples {
        let world = reads.deal(t, &mut rng);
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
