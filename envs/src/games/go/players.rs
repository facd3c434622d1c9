//! The scripted players: the `heuristic` (capture, save, else a random move
//! that fills no eye) and the `oracle`, a two-ply search over an influence
//! and atari evaluation.

use super::board::{Board, bit, dilate, flood, groups, is_eye, points};
use super::{Go, Move, Player, Superko};
use crate::rng::Rng;

/// Candidate moves the oracle searches two plies deep, the best of a
/// one-ply look.
const TOP: usize = 8;
/// Steps the influence of stones spreads over empty points.
const REACH: usize = 5;
/// Own territory regions this small are never filled by the oracle: under
/// area scoring a stone there gains nothing and can cost an eye.
const SMALL_REGION: u32 = 7;
/// Search bonus per stone captured, in half points: a capture is lasting,
/// where the influence the evaluation counts is not (without it the search
/// trades a three-stone capture for a move into open space).
const CAPTURE: i32 = 12;
/// Value of a finished game, beyond any evaluation.
const WIN: i32 = 1_000_000;

/// Whether `me` should pass at once: the opponent has just passed and the
/// board as it stands wins, so a pass ends the game won.
fn pass_wins(go: &Go) -> bool {
    go.passes == 1 && go.leader() == Some(go.to_move)
}

/// The new stone's group and its liberties after `me` played `point`.
fn liberties_at(board: &Board, point: usize, me: Player) -> u32 {
    let group = flood(bit(point), board.stones[me]);
    (dilate(group) & board.empty()).count_ones()
}

/// Capture the most stones, else save an own group from atari (a move
/// after which it has two liberties or more), else a random move that
/// fills no own eye and leaves the new stone's group more than one
/// liberty; pass when there is none, or when the opponent passed and the
/// board as it stands wins.
pub fn heuristic(go: &Go, rng: &mut Rng) -> Option<Move> {
    if go.over() {
        return None;
    }
    if pass_wins(go) {
        return Some(Move::Pass);
    }
    let me = go.to_move;
    let mut moves: Vec<(usize, Board, u32)> = points(go.board.empty())
        .filter(|&p| !is_eye(&go.board, p, me))
        .filter_map(|p| go.placement(p).ok().map(|(b, c)| (p, b, c)))
        .collect();
    rng.shuffle(&mut moves);
    if let Some(most) = moves.iter().map(|m| m.2).max().filter(|&c| c > 0) {
        return moves.iter().find(|m| m.2 == most).map(|m| Move::Place(m.0));
    }
    let in_atari: u128 = groups(go.board.stones[me])
        .filter(|&g| (dilate(g) & go.board.empty()).count_ones() == 1)
        .fold(0, |acc, g| acc | (dilate(g) & go.board.empty()));
    let saves = moves
        .iter()
        .find(|m| in_atari & bit(m.0) != 0 && liberties_at(&m.1, m.0, me) >= 2);
    if let Some(m) = saves {
        return Some(Move::Place(m.0));
    }
    Some(
        moves
            .iter()
            .find(|m| liberties_at(&m.1, m.0, me) >= 2)
            .map_or(Move::Pass, |m| Move::Place(m.0)),
    )
}

/// Black's estimated lead in half points with `to_move` to play: stones
/// and the empty points nearer (within [`REACH`] steps) to one colour's
/// stones than the other's, less the stones of groups short of liberties
/// (see below), minus the komi.
fn evaluate(board: &Board, to_move: Player, komi2: i32) -> i32 {
    let mut owned = board.stones;
    let mut free = board.empty();
    for _ in 0..REACH {
        let black = dilate(owned[0]) & free;
        let white = dilate(owned[1]) & free;
        owned[0] |= black & !white;
        owned[1] |= white & !black;
        free &= !(black | white);
    }
    let mut lead = owned[0].count_ones() as i32 - owned[1].count_ones() as i32;
    for colour in 0..2 {
        let sign = if colour == 0 { 1 } else { -1 };
        for group in groups(board.stones[colour]) {
            let liberties = (dilate(group) & board.empty()).count_ones();
            let stones = group.count_ones() as i32;
            // In atari and the owner to move: may be saved, half lost;
            // otherwise lost (the stones turn into the other's area). Two
            // liberties and the other side to move: one move from atari.
            let lost = match (liberties, colour == to_move) {
                (1, true) => stones,
                (1, false) => 2 * stones,
                (2, false) => stones,
                _ => 0,
            };
            lead -= sign * lost;
        }
    }
    2 * lead - komi2
}

/// The value for Black of a finished game on `board`: a win beyond any
/// evaluation, by the margin.
fn finished(board: &Board, komi2: i32) -> i32 {
    let score = board.score2(komi2);
    score.signum() * WIN + score
}

/// Own territory points in small regions (see [`SMALL_REGION`]).
fn small_territory(board: &Board, me: Player) -> u128 {
    let empty = board.empty();
    groups(empty)
        .filter(|&region| {
            let edge = dilate(region) & !region;
            region.count_ones() <= SMALL_REGION
                && edge & board.stones[1 - me] == 0
                && edge & board.stones[me] != 0
        })
        .fold(0, |acc, r| acc | r)
}

/// The search's view of one decision: the game, whose side it takes and
/// the sign that turns Black's values into its own.
struct Search<'a> {
    go: &'a Go,
    me: Player,
    sign: i32,
}

impl Search<'_> {
    /// The value for `me` of the position after its move left `board` with
    /// `passes` passes in a row, the opponent to reply: the opponent's best
    /// reply (every legal one, pass included), stopping early once it is no
    /// better for `me` than `floor`.
    fn reply_value(&self, board: &Board, passes: usize, floor: i32) -> i32 {
        let go = self.go;
        let plies = go.plies + 1;
        if plies >= go.max_plies {
            return self.sign * finished(board, go.komi2);
        }
        let leaf = |b: &Board| {
            if plies + 1 >= go.max_plies {
                self.sign * finished(b, go.komi2)
            } else {
                self.sign * evaluate(b, self.me, go.komi2)
            }
        };
        // The opponent passes: a second pass ends the game.
        let mut worst = if passes == 1 {
            self.sign * finished(board, go.komi2)
        } else {
            leaf(board)
        };
        let them = 1 - self.me;
        for q in points(board.empty()) {
            if worst <= floor {
                break;
            }
            let Some((next, taken)) = board.play(q, them) else {
                continue;
            };
            // Repeating a position: illegal, or (OpenSpiel's rule) a draw;
            // `go.board` is the position before the move searched.
            let value = if next == go.board {
                continue;
            } else if go.seen.contains(&next) {
                match go.superko {
                    Superko::Illegal => continue,
                    Superko::Draw => 0,
                }
            } else {
                leaf(&next) - CAPTURE * taken as i32
            };
            worst = worst.min(value);
        }
        worst
    }
}

/// The best move by a two-ply search: the [`TOP`] moves that look best one
/// ply on (no own eye or small own territory filled, no repetition), every
/// capture and every move on the liberty of an own group in atari, each
/// against every reply, and pass; captures on either side count
/// [`CAPTURE`] a stone. A move beats pass unless pass is strictly better.
/// Passes at once when the opponent passed and the board wins.
pub fn oracle(go: &Go) -> Option<Move> {
    if go.over() {
        return None;
    }
    if pass_wins(go) {
        return Some(Move::Pass);
    }
    let me = go.to_move;
    let search = Search {
        go,
        me,
        sign: if me == 0 { 1 } else { -1 },
    };
    let skip = small_territory(&go.board, me);
    let mut candidates: Vec<(i32, usize, Board, i32)> = points(go.board.empty() & !skip)
        .filter(|&p| !is_eye(&go.board, p, me))
        .filter_map(|p| {
            go.placement(p)
                .ok()
                .map(|(b, c)| (p, b, CAPTURE * c as i32))
        })
        .filter(|(_, b, _)| !go.seen.contains(b))
        .map(|(p, b, bonus)| {
            (
                search.sign * evaluate(&b, 1 - me, go.komi2) + bonus,
                p,
                b,
                bonus,
            )
        })
        .collect();
    candidates.sort_by_key(|&(value, p, _, _)| (-value, p));
    // Tactical moves are searched whatever their one-ply rank: captures,
    // and the liberty of an own group in atari.
    let rescue: u128 = groups(go.board.stones[me])
        .filter(|&g| (dilate(g) & go.board.empty()).count_ones() == 1)
        .fold(0, |acc, g| acc | (dilate(g) & go.board.empty()));
    let mut rank = 0;
    candidates.retain(|&(_, p, _, bonus)| {
        rank += 1;
        rank <= TOP || bonus > 0 || rescue & bit(p) != 0
    });
    let mut best: Option<(i32, Move)> = None;
    for (_, p, board, bonus) in &candidates {
        let floor = best.map_or(i32::MIN, |(v, _)| v);
        let value = search.reply_value(board, 0, floor.saturating_sub(*bonus)) + bonus;
        if best.is_none_or(|(v, _)| value > v) {
            best = Some((value, Move::Place(*p)));
        }
    }
    let pass = if go.passes == 1 {
        search.sign * finished(&go.board, go.komi2)
    } else {
        let floor = best.map_or(i32::MIN, |(v, _)| v);
        search.reply_value(&go.board, 1, floor)
    };
    match best {
        Some((value, mv)) if value >= pass => Some(mv),
        _ => Some(Move::Pass),
    }
}
