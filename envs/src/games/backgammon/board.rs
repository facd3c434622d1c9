//! Backgammon rules: the board, single checker steps, OpenSpiel's
//! two-dice actions ([`halves`]), whole turns ([`plays`]), their notation
//! and the players' evaluations.
//!
//! Points are numbered from each player's own side: a player's checkers
//! move from 24 down to 1 and are borne off below 1; index 25 is that
//! player's bar and 0 its borne-off tray. The opponent's point `i` is the
//! mover's point `25 - i`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::core::Player;
use crate::rng::Rng;

pub const CHECKERS: u8 = 15;
pub const BAR: usize = 25;
pub const OFF: usize = 0;
/// OpenSpiel's `max_player_turns`: the game is a draw once more turns than
/// this have been played (so turn 501 is the last).
pub const MAX_TURNS: u32 = 500;

/// Both sides' checkers, each in its own numbering (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    pub c: [[u8; 26]; 2],
}

/// One checker moved by one die: `from` (25 = the bar) to `to` (0 = off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: u8,
    pub to: u8,
    pub die: u8,
    pub hit: bool,
}

/// A whole turn: its steps in the order played and the board it leaves.
#[derive(Clone, Debug)]
pub struct Play {
    pub steps: Vec<Step>,
    pub board: Board,
}

impl Play {
    /// The points where this play hits a blot.
    pub fn hits(&self) -> Vec<u8> {
        let mut h: Vec<u8> = self.steps.iter().filter(|s| s.hit).map(|s| s.to).collect();
        h.sort_unstable();
        h
    }
}

impl Board {
    /// The standard start: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6.
    pub fn start() -> Board {
        let mut side = [0u8; 26];
        side[24] = 2;
        side[13] = 5;
        side[8] = 3;
        side[6] = 5;
        Board { c: [side, side] }
    }

    /// The opponent's checkers on `p`'s point `i` (1–24).
    pub fn opp(&self, p: Player, i: usize) -> u8 {
        self.c[1 - p][25 - i]
    }

    pub fn off(&self, p: Player) -> u8 {
        self.c[p][OFF]
    }

    /// Pips `p` still has to move (a checker on point i needs i; the bar 25).
    pub fn pips(&self, p: Player) -> u32 {
        (1..=25).map(|i| i as u32 * u32::from(self.c[p][i])).sum()
    }

    fn all_home(&self, p: Player) -> bool {
        self.c[p][7..=25].iter().all(|&n| n == 0)
    }

    /// The step of one checker of `p` from `from` by `die`, if legal on its
    /// own (OpenSpiel's `LegalCheckerMoves`): bar checkers first; bearing
    /// off only with every checker home, and with a larger die only from
    /// the highest occupied point.
    pub fn step(&self, p: Player, from: usize, die: u8) -> Option<Step> {
        let mine = &self.c[p];
        if mine[from] == 0 || (mine[BAR] > 0 && from != BAR) {
            return None;
        }
        let d = usize::from(die);
        if from > d {
            let to = from - d;
            return (self.opp(p, to) <= 1).then(|| Step {
                from: from as u8,
                to: to as u8,
                die,
                hit: self.opp(p, to) == 1,
            });
        }
        if !self.all_home(p) {
            return None;
        }
        let highest = (1..=6).rev().find(|&i| mine[i] > 0);
        (from == d || highest == Some(from)).then_some(Step {
            from: from as u8,
            to: 0,
            die,
            hit: false,
        })
    }

    /// The steps `p` may make with any one of `dice` (distinct values).
    pub fn steps(&self, p: Player, dice: &[u8]) -> Vec<Step> {
        let mut out = Vec::new();
        let froms: Vec<usize> = if self.c[p][BAR] > 0 {
            vec![BAR]
        } else {
            (1..=24).rev().filter(|&i| self.c[p][i] > 0).collect()
        };
        for from in froms {
            for &d in dice {
                if let Some(s) = self.step(p, from, d) {
                    out.push(s);
                }
            }
        }
        out
    }

    pub fn apply(&mut self, p: Player, s: Step) {
        self.c[p][usize::from(s.from)] -= 1;
        self.c[p][usize::from(s.to)] += 1;
        if s.hit {
            self.c[1 - p][25 - usize::from(s.to)] -= 1;
            self.c[1 - p][BAR] += 1;
        }
    }

    pub fn after(&self, p: Player, s: Step) -> Board {
        let mut b = *self;
        b.apply(p, s);
        b
    }

    /// Whether any checker of one side can still meet one of the other's.
    pub fn contact(&self) -> bool {
        // p0's rearmost checker (its highest point) against p1's, which
        // sits on p0's point 25 - j.
        let back0 = (1..=25).rev().find(|&i| self.c[0][i] > 0).unwrap_or(0);
        let back1 = (1..=25).rev().find(|&i| self.c[1][i] > 0).unwrap_or(0);
        back1 > 0 && back0 > 25 - back1
    }
}

/// OpenSpiel's legal actions for `p` with `dice` (one action uses each of
/// the two dice at most once; a double is two such actions): every ordered
/// pair of steps when both dice can be used, else the single steps of the
/// larger usable die, else the pass (no steps). Distinct ordered pairs are
/// distinct actions even when they reach the same board, as in OpenSpiel.
pub fn halves(b: &Board, p: Player, dice: [u8; 2]) -> Vec<Play> {
    let firsts = if dice[0] == dice[1] {
        b.steps(p, &dice[..1])
    } else {
        b.steps(p, &dice)
    };
    if firsts.is_empty() {
        return vec![Play {
            steps: Vec::new(),
            board: *b,
        }];
    }
    let (mut two, mut one) = (Vec::new(), Vec::new());
    for s in firsts {
        let b1 = b.after(p, s);
        let rest = if s.die == dice[0] { dice[1] } else { dice[0] };
        let seconds = b1.steps(p, &[rest]);
        if seconds.is_empty() {
            one.push(Play {
                steps: vec![s],
                board: b1,
            });
        }
        for t in seconds {
            two.push(Play {
                steps: vec![s, t],
                board: b1.after(p, t),
            });
        }
    }
    if !two.is_empty() {
        return two;
    }
    let top = one.iter().map(|h| h.steps[0].die).max().unwrap_or(0);
    one.retain(|h| h.steps[0].die == top);
    one
}

/// Whether a turn that rolled `dice` and played `first` as its first
/// action goes on to a second (OpenSpiel: a double whose first action used
/// both dice, unless that action's turn passed the turn cap).
pub fn second_half(dice: [u8; 2], first: &Play, last_turn: bool) -> bool {
    dice[0] == dice[1] && first.steps.len() == 2 && !last_turn
}

/// The distinct whole-turn plays (by the board they leave): a non-double
/// is one of [`halves`]; a double is a half followed, when
/// [`second_half`] says so, by a half from the board it leaves.
pub fn plays(b: &Board, p: Player, dice: [u8; 2], last_turn: bool) -> Vec<Play> {
    let mut seen: HashSet<Board> = HashSet::new();
    let mut out: Vec<Play> = Vec::new();
    let mut add = |play: Play, out: &mut Vec<Play>| {
        if seen.insert(play.board) {
            out.push(play);
        }
    };
    for h in halves(b, p, dice) {
        if second_half(dice, &h, last_turn) {
            for h2 in halves(&h.board, p, dice) {
                let mut steps = h.steps.clone();
                steps.extend(h2.steps);
                add(
                    Play {
                        steps,
                        board: h2.board,
                    },
                    &mut out,
                );
            }
        } else {
            add(h, &mut out);
        }
    }
    out
}

/// One turn of OpenSpiel's uniformly random player: a uniform draw among
/// [`halves`], and for a double that used both dice a second draw. Returns
/// the play and the number of OpenSpiel actions (plies) it took.
pub fn random_turn(
    b: &Board,
    p: Player,
    dice: [u8; 2],
    last_turn: bool,
    rng: &mut Rng,
) -> (Play, u32) {
    let mut hs = halves(b, p, dice);
    let first = hs.swap_remove(rng.below(hs.len() as u64) as usize);
    if !second_half(dice, &first, last_turn) {
        return (first, 1);
    }
    let mut hs = halves(&first.board, p, dice);
    let second = hs.swap_remove(rng.below(hs.len() as u64) as usize);
    let mut steps = first.steps;
    steps.extend(second.steps);
    (
        Play {
            steps,
            board: second.board,
        },
        2,
    )
}

/// A roll of two dice, the larger first.
pub fn roll(rng: &mut Rng) -> [u8; 2] {
    let (a, b) = (1 + rng.below(6) as u8, 1 + rng.below(6) as u8);
    [a.max(b), a.min(b)]
}

/// The opening roll: a non-double (OpenSpiel's first chance node draws one
/// of the 30 ordered non-doubles, which also picks the first player).
pub fn opening_roll(rng: &mut Rng) -> [u8; 2] {
    loop {
        let r = roll(rng);
        if r[0] != r[1] {
            return r;
        }
    }
}

pub fn point_name(i: u8) -> String {
    match usize::from(i) {
        BAR => "bar".to_string(),
        OFF => "off".to_string(),
        n => n.to_string(),
    }
}

/// Standard notation of a play: each checker's path as `from/to`, a `*`
/// after a point where it hits (keeping that point as a stop, `13/7*/5`),
/// repeats as `(n)`, the highest starting point first; `pass` for none.
pub fn notation(play: &Play) -> String {
    // Each path: its stops and whether it hit at each stop.
    let mut paths: Vec<Vec<(u8, bool)>> = Vec::new();
    for s in &play.steps {
        let open = paths.iter_mut().rev().find(|path| {
            let &(end, _) = path.last().expect("a path has stops");
            end == s.from && end != 0
        });
        match open {
            Some(path) => path.push((s.to, s.hit)),
            None => paths.push(vec![(s.from, false), (s.to, s.hit)]),
        }
    }
    let mut parts: Vec<(u8, u8, String)> = paths
        .iter()
        .map(|path| {
            let last = path.len() - 1;
            let text: Vec<String> = path
                .iter()
                .enumerate()
                .filter(|&(k, &(_, hit))| k == 0 || k == last || hit)
                .map(|(_, &(i, hit))| format!("{}{}", point_name(i), if hit { "*" } else { "" }))
                .collect();
            (path[0].0, path[last].0, text.join("/"))
        })
        .collect();
    if parts.is_empty() {
        return "pass".to_string();
    }
    parts.sort_by(|a, b| (b.0, b.1).cmp(&(a.0, a.1)).then(a.2.cmp(&b.2)));
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while k < parts.len() {
        let n = parts[k..].iter().take_while(|q| q.2 == parts[k].2).count();
        out.push(if n > 1 {
            format!("{}({n})", parts[k].2)
        } else {
            parts[k].2.clone()
        });
        k += n;
    }
    out.join(" ")
}

// ---------------------------------------------------------------- players

/// Points `p` holds with two or more checkers, from `lo` to `hi`.
fn made(b: &Board, p: Player, lo: usize, hi: usize) -> i32 {
    (lo..=hi).filter(|&i| b.c[p][i] >= 2).count() as i32
}

fn blots(b: &Board, p: Player) -> i32 {
    (1..=24).filter(|&i| b.c[p][i] == 1).count() as i32
}

/// The simple rung's score of the board `p` leaves: opponent checkers
/// sent to the bar, points made, blots left, checkers borne off.
pub fn simple_value(b: &Board, p: Player) -> i32 {
    4 * i32::from(b.c[1 - p][BAR]) + 2 * made(b, p, 1, 24) - 2 * blots(b, p)
        + 3 * i32::from(b.off(p))
}

/// The chance (in 36ths, over the opponent's next roll) that some blot of
/// `p` is hit, weighted by what the hit costs: for each roll, the largest
/// pip loss among the blots it can reach (directly, or through open
/// intermediate points with both dice or a double's repeats).
pub fn shot_loss(b: &Board, p: Player) -> i32 {
    let blot_points: Vec<usize> = (1..=24).filter(|&i| b.c[p][i] == 1).collect();
    if blot_points.is_empty() {
        return 0;
    }
    // Opponent checkers on p's points 0 (its bar) .. 23, by p's numbering.
    let from = |j: usize| -> bool {
        if j == 0 {
            b.c[1 - p][BAR] > 0
        } else {
            b.opp(p, j) > 0
        }
    };
    let open = |i: usize| b.c[p][i] < 2;
    let mut total = 0;
    for d1 in 1..=6usize {
        for d2 in 1..=6usize {
            let mut worst = 0;
            for &i in &blot_points {
                let reach = |dist: usize| dist <= i && from(i - dist);
                let hit = if d1 == d2 {
                    (1..=4).any(|k| {
                        let start = d1 * k;
                        start <= i && reach(start) && (1..k).all(|m| open(i - start + d1 * m))
                    })
                } else {
                    reach(d1)
                        || reach(d2)
                        || (d1 + d2 <= i && reach(d1 + d2) && (open(i - d2) || open(i - d1)))
                };
                if hit {
                    worst = worst.max(25 - i as i32 + 6);
                }
            }
            total += worst;
        }
    }
    total
}

/// The longest run of consecutive points `p` holds.
fn prime(b: &Board, p: Player) -> i32 {
    let (mut best, mut run) = (0, 0);
    for i in 1..=24 {
        if b.c[p][i] >= 2 {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// The oracle's value, for `p`, of the board `p`'s play leaves (the
/// opponent to roll), in hundredths of a pip: the pip-count difference;
/// in a race, nothing else; with contact, the expected loss of blots to
/// the opponent's next roll ([`shot_loss`]), made points weighted by where
/// they stand, the longest prime, checkers on the opponent's bar.
pub fn oracle_value(b: &Board, p: Player) -> i32 {
    let q = 1 - p;
    let pips = 100 * (b.pips(q) as i32 - b.pips(p) as i32);
    if !b.contact() {
        return pips + 50 * i32::from(b.off(p));
    }
    let points = 500 * made(b, p, 1, 7) + 200 * made(b, p, 8, 11) + 250 * made(b, p, 18, 24)
        - 300 * made(b, q, 1, 7);
    let bar = 400 * i32::from(b.c[q][BAR]) * (1 + made(b, p, 1, 6));
    let primes = 150 * prime(b, p) * prime(b, p);
    pips + points + bar + primes - 100 * shot_loss(b, p) / 36
}
