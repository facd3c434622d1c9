//! Quoridor's rules on bitboards: pawn moves with jumps, wall placement
//! with the path check, the draw rule; the oracle's search and the
//! heuristic.

use crate::core::Player;
use crate::games::common::{Search, WIN};
use crate::rng::Rng;

/// Plies per square of the board before the game is drawn (OpenSpiel's
/// `kMaxGameLengthFactor`).
pub(super) const LENGTH_FACTOR: usize = 4;
pub(super) const PAWNS: [char; 2] = ['X', 'O'];
/// Plies the oracle searches, and the walls it tries at each node.
pub(super) const ORACLE_DEPTH: u32 = 2;
pub(super) const WALL_BRANCH: usize = 4;

/// A move: a pawn to a square, a wall at an anchor (row-major index of the
/// square above-left of its midpoint), or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Move {
    Step(usize),
    Wall { vertical: bool, anchor: usize },
    Pass,
}

/// Squares (bit r·size + c) a step in one direction may not leave, walls
/// and board edges both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Blocks {
    pub(super) up: u128,
    pub(super) down: u128,
    pub(super) left: u128,
    pub(super) right: u128,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quoridor {
    pub(super) n: usize,
    /// Horizontal and vertical walls by anchor bit.
    pub(super) hwalls: u128,
    pub(super) vwalls: u128,
    pub(super) blocks: Blocks,
    pub(super) pawns: [usize; 2],
    pub(super) walls_left: [usize; 2],
    pub(super) plies: usize,
    pub(super) winner: Option<Player>,
    pub(super) drawn: bool,
}

pub(super) fn bit(i: usize) -> u128 {
    1u128 << i
}

impl Quoridor {
    pub(super) fn new(n: usize, walls: usize) -> Self {
        let mut g = Quoridor {
            n,
            hwalls: 0,
            vwalls: 0,
            blocks: Blocks {
                up: 0,
                down: 0,
                left: 0,
                right: 0,
            },
            pawns: [(n - 1) * n + n / 2, n / 2],
            walls_left: [walls; 2],
            plies: 0,
            winner: None,
            drawn: false,
        };
        g.blocks = g.blocks_with(0, 0);
        g
    }

    pub(super) fn row_mask(&self, r: usize) -> u128 {
        ((1u128 << self.n) - 1) << (r * self.n)
    }

    pub(super) fn col_mask(&self, c: usize) -> u128 {
        (0..self.n).fold(0, |m, r| m | bit(r * self.n + c))
    }

    pub(super) fn goal(&self, p: Player) -> u128 {
        self.row_mask(if p == 0 { 0 } else { self.n - 1 })
    }

    /// The blocked steps with horizontal walls `h` and vertical walls `v`.
    pub(super) fn blocks_with(&self, h: u128, v: u128) -> Blocks {
        let n = self.n;
        let under = h | (h << 1);
        let beside = v | (v << n);
        Blocks {
            down: under | self.row_mask(n - 1),
            up: (under << n) | self.row_mask(0),
            right: beside | self.col_mask(n - 1),
            left: (beside << 1) | self.col_mask(0),
        }
    }

    /// Squares one step from `from` under `b`.
    pub(super) fn spread(&self, from: u128, b: &Blocks) -> u128 {
        let n = self.n;
        from | ((from & !b.down) << n)
            | ((from & !b.up) >> n)
            | ((from & !b.right) << 1)
            | ((from & !b.left) >> 1)
    }

    /// Steps from square `from` to the nearest square of `goal` under `b`,
    /// pawns ignored; `None` when walled off.
    pub(super) fn distance(&self, from: usize, goal: u128, b: &Blocks) -> Option<u32> {
        let mut reach = bit(from);
        let mut d = 0;
        while reach & goal == 0 {
            let next = self.spread(reach, b);
            if next == reach {
                return None;
            }
            reach = next;
            d += 1;
        }
        Some(d)
    }

    pub(super) fn dist(&self, p: Player) -> u32 {
        self.distance(self.pawns[p], self.goal(p), &self.blocks)
            .unwrap_or(u32::MAX)
    }

    pub(super) fn to_move(&self) -> Player {
        self.plies % 2
    }

    pub(super) fn over(&self) -> bool {
        self.winner.is_some() || self.drawn
    }

    /// Whether a step from square `s` in direction `d` (0 up, 1 down, 2
    /// left, 3 right) is blocked, and the square it reaches.
    pub(super) fn step(&self, s: usize, d: usize) -> Option<usize> {
        let b = &self.blocks;
        let mask = [b.up, b.down, b.left, b.right][d];
        (mask & bit(s) == 0).then(|| match d {
            0 => s - self.n,
            1 => s + self.n,
            2 => s - 1,
            _ => s + 1,
        })
    }

    /// The squares the mover's pawn may move to, in board order.
    pub(super) fn pawn_moves(&self) -> Vec<usize> {
        let (me, other) = (self.pawns[self.to_move()], self.pawns[1 - self.to_move()]);
        let mut to = Vec::with_capacity(5);
        for d in 0..4 {
            match self.step(me, d) {
                Some(t) if t != other => to.push(t),
                Some(t) => match self.step(t, d) {
                    Some(beyond) => to.push(beyond),
                    None => {
                        let sides = if d < 2 { [2, 3] } else { [0, 1] };
                        to.extend(sides.iter().filter_map(|&s| self.step(t, s)));
                    }
                },
                None => {}
            }
        }
        to.sort_unstable();
        to
    }

    /// Wall anchors: rows and columns 0..size-1.
    pub(super) fn anchors(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.n;
        (0..(n - 1) * n).filter(move |a| a % n < n - 1)
    }

    /// Why a wall cannot go at anchor `a` whatever the pawns: off the
    /// board, or overlapping or crossing a wall; `None` when it fits.
    pub(super) fn wall_clash(&self, vertical: bool, a: usize) -> Option<&'static str> {
        let n = self.n;
        if a / n >= n - 1 || a % n >= n - 1 {
            return Some("a wall there would stick out of the board");
        }
        let (h, v) = (self.hwalls, self.vwalls);
        let clash = if vertical {
            let above = if a >= n { bit(a - n) } else { 0 };
            (v & (bit(a) | bit(a + n) | above), h & bit(a))
        } else {
            let left = if a.is_multiple_of(n) { 0 } else { bit(a - 1) };
            (h & (bit(a) | bit(a + 1) | left), v & bit(a))
        };
        match clash {
            (0, 0) => None,
            (0, _) => Some("it would cross a wall"),
            _ => Some("it would overlap a wall"),
        }
    }

    /// The walls and blocked steps after adding a fitting wall, and both
    /// pawns' distances to their goals then: `None` when it cuts a pawn off.
    pub(super) fn with_wall(
        &self,
        vertical: bool,
        a: usize,
    ) -> Option<(u128, u128, Blocks, [u32; 2])> {
        let (h, v) = if vertical {
            (self.hwalls, self.vwalls | bit(a))
        } else {
            (self.hwalls | bit(a), self.vwalls)
        };
        let b = self.blocks_with(h, v);
        let d0 = self.distance(self.pawns[0], self.goal(0), &b)?;
        let d1 = self.distance(self.pawns[1], self.goal(1), &b)?;
        Some((h, v, b, [d0, d1]))
    }

    /// One shortest path of `p`'s pawn to its goal row, as the steps it
    /// takes: bit s of `.0` for a step between squares s and s + size, of
    /// `.1` between s and s + 1. `None` when walled off.
    pub(super) fn path(&self, p: Player) -> Option<(u128, u128)> {
        let (n, b, goal) = (self.n, &self.blocks, self.goal(p));
        let mut layers = vec![bit(self.pawns[p])];
        let mut reach = layers[0];
        while reach & goal == 0 {
            let next = self.spread(reach, b);
            if next == reach {
                return None;
            }
            layers.push(next & !reach);
            reach = next;
        }
        let mut at = (reach & goal).trailing_zeros() as usize;
        let (mut down, mut right) = (0, 0);
        for &prev in layers.iter().rev().skip(1) {
            let from = |s: usize| prev & bit(s) != 0;
            if at >= n && from(at - n) && b.up & bit(at) == 0 {
                at -= n;
                down |= bit(at);
            } else if from(at + n) && b.down & bit(at) == 0 {
                down |= bit(at);
                at += n;
            } else if !at.is_multiple_of(n) && from(at - 1) && b.left & bit(at) == 0 {
                at -= 1;
                right |= bit(at);
            } else {
                right |= bit(at);
                at += 1;
            }
        }
        Some((down, right))
    }

    /// Whether the wall at anchor `a` blocks a step of `path`.
    fn cuts(&self, vertical: bool, a: usize, (down, right): (u128, u128)) -> bool {
        let hit = if vertical {
            right & (bit(a) | bit(a + self.n))
        } else {
            down & (bit(a) | bit(a + 1))
        };
        hit != 0
    }

    /// The walls that block a step of `p`'s shortest path (the only ones
    /// that can lengthen it) and may be placed, with both pawns' distances
    /// after each.
    pub(super) fn cutting_walls(&self, p: Player) -> Vec<(Move, [u32; 2])> {
        let Some(path) = self.path(p) else {
            return Vec::new();
        };
        let mut walls = Vec::new();
        for anchor in self.anchors() {
            for vertical in [false, true] {
                if self.cuts(vertical, anchor, path)
                    && self.wall_clash(vertical, anchor).is_none()
                    && let Some((.., d)) = self.with_wall(vertical, anchor)
                {
                    walls.push((Move::Wall { vertical, anchor }, d));
                }
            }
        }
        walls
    }

    /// Every legal move of the mover, pawn moves first; `pass` alone when
    /// nothing else is legal; none once the game is over. A wall that
    /// blocks neither pawn's shortest path needs no path search.
    pub(super) fn legal(&self) -> Vec<Move> {
        if self.over() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = self.pawn_moves().into_iter().map(Move::Step).collect();
        if self.walls_left[self.to_move()] > 0 {
            let paths: Vec<(u128, u128)> = (0..2).filter_map(|p| self.path(p)).collect();
            for anchor in self.anchors() {
                for vertical in [false, true] {
                    if self.wall_clash(vertical, anchor).is_none()
                        && (paths.iter().all(|&path| !self.cuts(vertical, anchor, path))
                            || self.with_wall(vertical, anchor).is_some())
                    {
                        moves.push(Move::Wall { vertical, anchor });
                    }
                }
            }
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Plays a move already known to be legal.
    pub(super) fn play_move(&mut self, mv: Move) {
        let p = self.to_move();
        match mv {
            Move::Step(s) => {
                self.pawns[p] = s;
                if self.goal(p) & bit(s) != 0 {
                    self.winner = Some(p);
                }
            }
            Move::Wall { vertical, anchor } => {
                let (h, v, b, _) = self.with_wall(vertical, anchor).expect("a legal wall");
                (self.hwalls, self.vwalls, self.blocks) = (h, v, b);
                self.walls_left[p] -= 1;
            }
            Move::Pass => {}
        }
        self.plies += 1;
        if self.plies >= LENGTH_FACTOR * self.n * self.n {
            // OpenSpiel's rule: the last ply draws even when it reached the goal.
            self.winner = None;
            self.drawn = true;
        }
    }

    pub(super) fn square_name(&self, s: usize) -> String {
        let mut name = String::with_capacity(3);
        name.push((b'a' + (s % self.n) as u8) as char);
        name.push((b'1' + (s / self.n) as u8) as char);
        name
    }

    pub(super) fn move_name(&self, mv: Move) -> String {
        match mv {
            Move::Step(s) => self.square_name(s),
            Move::Wall { vertical, anchor } => {
                let mut name = self.square_name(anchor);
                name.push(if vertical { 'v' } else { 'h' });
                name
            }
            Move::Pass => "pass".to_string(),
        }
    }

    /// The square a word like `e3` names (any case, no leading zero).
    pub(super) fn parse_square(&self, word: &str) -> Option<usize> {
        let (&col, row) = word.as_bytes().split_first()?;
        let c = usize::from(col.to_ascii_lowercase().checked_sub(b'a')?);
        if c >= self.n || row.len() != 1 {
            return None;
        }
        let r = usize::from(row[0].checked_sub(b'1')?);
        (r < self.n).then_some(r * self.n + c)
    }

    /// The board as OpenSpiel draws it: squares `.`, pawns `X` and `O`,
    /// horizontal walls `-------`, vertical walls `|` over three lines.
    pub(super) fn grid(&self) -> String {
        let n = self.n;
        let letters: String = (0..n)
            .map(|c| format!("   {}", (b'a' + c as u8) as char))
            .collect();
        let mut out = format!("{letters}\n");
        for r in 0..n {
            let mut line = format!("{:>2} ", r + 1);
            let mut groove = String::from("  ");
            for c in 0..n {
                let s = r * n + c;
                let pawn = self.pawns.iter().position(|&p| p == s);
                line.push(pawn.map_or('.', |p| PAWNS[p]));
                let down = self.blocks.down & bit(s) != 0;
                groove.push_str(if down { "---" } else { "   " });
                if c + 1 < n {
                    let right = self.blocks.right & bit(s) != 0;
                    line.push_str(if right { " | " } else { "   " });
                    groove.push(if self.hwalls & bit(s) != 0 {
                        '-'
                    } else if self.vwalls & bit(s) != 0 {
                        '|'
                    } else {
                        ' '
                    });
                }
            }
            out.push_str(&line);
            out.push('\n');
            if r + 1 < n {
                out.push_str(groove.trim_end());
                out.push('\n');
            }
        }
        out.push_str(&letters);
        out
    }
}

impl Search for Quoridor {
    type Move = Move;

    fn mover(&self) -> Player {
        self.to_move()
    }

    /// Pawn moves, nearest the goal first, then the [`WALL_BRANCH`] walls
    /// that lengthen the opponent's path most against the mover's own.
    fn moves(&self) -> Vec<Move> {
        if self.over() {
            return Vec::new();
        }
        let me = self.to_move();
        let goal = self.goal(me);
        let mut steps = self.pawn_moves();
        steps.sort_by_key(|&s| (self.distance(s, goal, &self.blocks), s));
        let mut moves: Vec<Move> = steps.into_iter().map(Move::Step).collect();
        if self.walls_left[me] > 0 {
            let now = [self.dist(0), self.dist(1)];
            let mut walls: Vec<(i64, Move)> = self
                .cutting_walls(1 - me)
                .into_iter()
                .map(|(mv, d)| (gain(me, now, d), mv))
                .filter(|&(g, _)| g > 0)
                .collect();
            walls.sort_by_key(|&(g, mv)| (-g, mv));
            moves.extend(walls.into_iter().take(WALL_BRANCH).map(|(_, mv)| mv));
        }
        if moves.is_empty() {
            moves = self.legal();
        }
        moves
    }

    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.over().then_some(self.winner)
    }

    /// Path-length difference, walls in hand, and half a step to the mover.
    fn evaluate(&self) -> i32 {
        let d = |p| i32::try_from(self.dist(p)).unwrap_or(WIN / 100);
        let walls = self.walls_left[0] as i32 - self.walls_left[1] as i32;
        let tempo = if self.to_move() == 0 { 6 } else { -6 };
        12 * (d(1) - d(0)) + 3 * walls + tempo
    }
}

/// The heuristic's move; `None` once the game is over.
pub(super) fn greedy(g: &Quoridor, rng: &mut Rng) -> Option<Move> {
    if g.over() {
        return None;
    }
    let me = g.to_move();
    let now = [g.dist(0), g.dist(1)];
    let mut options: Vec<(Move, [u32; 2], usize)> = Vec::new();
    for s in g.pawn_moves() {
        if g.goal(me) & bit(s) != 0 {
            return Some(Move::Step(s));
        }
        let mut d = now;
        d[me] = g.distance(s, g.goal(me), &g.blocks).unwrap_or(u32::MAX / 4);
        options.push((Move::Step(s), d, 0));
    }
    if g.walls_left[me] > 0 {
        options.extend(
            g.cutting_walls(1 - me)
                .into_iter()
                .map(|(mv, d)| (mv, d, 1)),
        );
    }
    if options.is_empty() {
        return g.legal().first().copied();
    }
    rng.shuffle(&mut options);
    options
        .into_iter()
        .max_by_key(|&(_, d, spent)| 4 * gain(me, [0, 0], d) - spent as i64)
        .map(|(mv, ..)| mv)
}

/// How much a move with pawn distances `d` after it (`now` before) gains
/// `me`: the opponent's distance up, own down.
fn gain(me: Player, now: [u32; 2], d: [u32; 2]) -> i64 {
    let delta = |p: Player| i64::from(d[p]) - i64::from(now[p]);
    delta(1 - me) - delta(me)
}
