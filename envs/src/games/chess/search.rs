//! The oracle's search and the heuristic's greed: alpha-beta over the
//! legal moves (captures and promotions first), scored by material and
//! mobility.

use cozy_chess::{Color, Move, Piece};

use crate::core::Player;
use crate::games::common::Search;

use super::Chess;
use super::rules::{count_moves, legal_moves};

/// Centipawn values of pawn, knight, bishop, rook, queen, king.
const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];
/// Centipawns per legal move more than the other side has.
const MOBILITY: i32 = 4;
/// Centipawns per rank a pawn has advanced (it heads for promotion).
const ADVANCE: i32 = 6;
/// Material lead (centipawns) from which the mop-up term counts.
const MOP_UP_LEAD: i32 = 400;

fn value(piece: Piece) -> i32 {
    VALUES[piece as usize]
}

impl Chess {
    /// White's material minus Black's, with pawns counted up by their
    /// advance.
    pub(super) fn material(&self) -> i32 {
        let board = &self.board;
        let mut score = 0;
        for piece in Piece::ALL {
            let (w, b) = (
                board.colored_pieces(Color::White, piece).len() as i32,
                board.colored_pieces(Color::Black, piece).len() as i32,
            );
            score += (w - b) * value(piece);
        }
        for sq in board.colored_pieces(Color::White, Piece::Pawn) {
            score += ADVANCE * (sq.rank() as i32 - 1);
        }
        for sq in board.colored_pieces(Color::Black, Piece::Pawn) {
            score -= ADVANCE * (6 - sq.rank() as i32);
        }
        score
    }

    /// Legal moves of White minus those of Black (the side not to move
    /// counted as if it moved now; not at all while it gives check, when a
    /// turn passed to it would be illegal).
    fn mobility(&self) -> i32 {
        let mine = count_moves(&self.board) as i32;
        let theirs = self
            .board
            .null_move()
            .map_or(mine, |b| count_moves(&b) as i32);
        let diff = mine - theirs;
        if self.board.side_to_move() == Color::White {
            diff
        } else {
            -diff
        }
    }
}

impl Chess {
    /// With a clear material lead, drive the other king to the edge and
    /// bring the own king close: depth 2 alone rarely finds the mates.
    fn mop_up(&self, material: i32) -> i32 {
        if material.abs() < MOP_UP_LEAD {
            return 0;
        }
        let (winner, loser) = if material > 0 {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let (w, l) = (self.board.king(winner), self.board.king(loser));
        let (lf, lr) = (l.file() as i32, l.rank() as i32);
        let edge = (2 * lf - 7).abs() + (2 * lr - 7).abs();
        let apart = (w.file() as i32 - lf)
            .abs()
            .max((w.rank() as i32 - lr).abs());
        let bonus = 10 * edge + 8 * (7 - apart);
        if material > 0 { bonus } else { -bonus }
    }
}

impl Search for Chess {
    type Move = Move;

    fn mover(&self) -> Player {
        self.to_move()
    }

    /// Legal moves, captures of the most valuable piece by the least
    /// valuable first, then promotions, then the rest.
    fn moves(&self) -> Vec<Move> {
        if self.end.is_some() {
            return Vec::new();
        }
        let mut moves = legal_moves(&self.board);
        let board = &self.board;
        let them = board.colors(!board.side_to_move());
        moves.sort_by_key(|mv| {
            let victim = if them.has(mv.to) {
                board.piece_on(mv.to).map_or(0, value)
            } else {
                0
            };
            let attacker = board.piece_on(mv.from).map_or(0, value);
            let promo = mv.promotion.map_or(0, value);
            -(10 * (victim + promo) - attacker / 10)
        });
        moves
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.end.map(|e| e.winner())
    }

    fn evaluate(&self) -> i32 {
        let material = self.material();
        material + MOBILITY * self.mobility() + self.mop_up(material)
    }
}
