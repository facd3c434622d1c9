//! `games/santorini-v1`: Santorini without god powers, on the 5×5 board.
//!
//! # Task
//! The empty board (every square at level 0); X (player 0) sets up and
//! moves first. No chance: with no opening moves every seed gives the same
//! start.
//!
//! # Action
//! Setup: X places its two workers, then O places its two, one empty
//! square a turn, like `c3`. Then each turn is one worker's move and build,
//! three squares like `c3 d4 e5` (also `c3-d4-e5`): the worker on c3 moves
//! to d4 and builds on e5. A winning move (up onto level 3) builds nothing
//! and is two squares, like `c3 d4`. Anything not listed, or text naming
//! two moves, is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules in brief, the board (row 5 at the top; each square its level
//! 0–3 or `D` for a dome, then the worker on it, X, O or `.`), whose turn
//! it is and the legal moves. Both players see everything.
//!
//! # Reward
//! A worker moves to one of the eight neighbouring squares that holds no
//! worker and no dome and is at most one level higher than its own (any
//! lower is allowed); it then builds one level on a neighbouring square of
//! its new place without a worker or dome (a level-3 square gets a dome).
//! Moving up onto level 3 wins at once: +1 to the winner, −1 to the loser.
//! A player with no legal move on their turn loses. The supply of blocks is
//! unlimited. Zero-sum; there are no draws. `passed` means a win.
//! Breakdown: `win`.
//!
//! # Episode end
//! A win. Every turn after setup but a winning one builds, and the 25
//! squares take at most 100 builds, so a game lasts at most 105 turns.
//!
//! # Parameters
//! `opening_moves` (0–24, default 0): random turns already played (the four
//! placements first), none of them winning or leaving the next player
//! without a move. Presets `standard` (empty board) and, on the difficulty
//! scale (`LEVELS`), `easy` (24 opening turns), `medium` (12), `hard`
//! (none).
//!
//! # Seeding
//! With no opening moves every seed gives the empty board and matters only
//! to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{
    Search, best_move, is_zero, standard_then_graded, validate_opening, win_block_greedy, win_loss,
};
use crate::rng::Rng;

const SIDE: usize = 5;
const CELLS: usize = SIDE * SIDE;
const DOME: u8 = 4;
/// Placements, at most one build per level of every square, and the
/// winning move.
const MAX_TURNS: usize = 4 + CELLS * DOME as usize + 1;
const MAX_OPENING: usize = 24;
/// Plies the oracle searches.
const ORACLE_DEPTH: u32 = 2;
const MARKS: [char; 2] = ['X', 'O'];

#[path = "santorini_board.rs"]
mod board;
use board::{name, name_order, neighbours, parse_square, push_name, squares};

#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SantoriniConfig {
    /// Random turns already played (0–24).
    #[serde(skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SantoriniTask {
    /// Turns already played from the empty board, as their names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<String>,
}

/// One turn: a placement, or a worker's move and its build (none after a
/// winning move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SantoriniMove {
    Place(u8),
    Move { from: u8, to: u8, build: Option<u8> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Santorini {
    /// Level of each square, `a1` first, row by row; 4 is a dome.
    height: [u8; CELLS],
    /// Squares of each player's workers (`None` until placed).
    workers: [[Option<u8>; 2]; 2],
    to_move: Player,
    plies: usize,
    winner: Option<Player>,
}

/// No square, in a move's key.
const NONE: u8 = u8::MAX;

impl SantoriniMove {
    /// The squares the move's name lists, `NONE` after them.
    fn squares(self) -> [u8; 3] {
        match self {
            SantoriniMove::Place(c) => [c, NONE, NONE],
            SantoriniMove::Move { from, to, build } => [from, to, build.unwrap_or(NONE)],
        }
    }

    fn name(self) -> String {
        let mut text = String::with_capacity(8);
        for (i, &square) in self
            .squares()
            .iter()
            .take_while(|&&sq| sq != NONE)
            .enumerate()
        {
            if i > 0 {
                text.push(' ');
            }
            push_name(&mut text, square);
        }
        text
    }
}

impl Santorini {
    fn new() -> Self {
        Santorini {
            height: [0; CELLS],
            workers: [[None; 2]; 2],
            to_move: 0,
            plies: 0,
            winner: None,
        }
    }

    fn occupied(&self, cell: u8) -> bool {
        self.workers.iter().flatten().any(|&w| w == Some(cell))
    }

    fn placing(&self) -> bool {
        self.workers[self.to_move].iter().any(Option::is_none)
    }

    /// Where the worker on `from` may step.
    fn steps(&self, from: u8) -> impl Iterator<Item = u8> + '_ {
        let h = self.height[from as usize];
        neighbours(from).filter(move |&to| {
            let t = self.height[to as usize];
            t < DOME && t <= h + 1 && !self.occupied(to)
        })
    }

    /// The mover's placed workers, in name order.
    fn own(&self) -> Vec<u8> {
        let mut own: Vec<u8> = self.workers[self.to_move]
            .iter()
            .flatten()
            .copied()
            .collect();
        own.sort_unstable_by_key(|&c| name_order(c));
        own
    }

    /// The legal turns of the player to move, in name order; none once the
    /// game is won.
    fn legal(&self) -> Vec<SantoriniMove> {
        if self.winner.is_some() {
            return Vec::new();
        }
        if self.placing() {
            return squares()
                .filter(|&c| !self.occupied(c))
                .map(SantoriniMove::Place)
                .collect();
        }
        let mut moves = Vec::new();
        for from in self.own() {
            let h = self.height[from as usize];
            for to in self.steps(from) {
                if self.height[to as usize] == 3 && h == 2 {
                    moves.push(SantoriniMove::Move {
                        from,
                        to,
                        build: None,
                    });
                    continue;
                }
                for b in neighbours(to) {
                    // The square just left is free to build on.
                    if self.height[b as usize] < DOME && (b == from || !self.occupied(b)) {
                        moves.push(SantoriniMove::Move {
                            from,
                            to,
                            build: Some(b),
                        });
                    }
                }
            }
        }
        moves
    }

    /// Whether the mover can move at all (a worker that steps can always
    /// build on the square it left).
    fn can_move(&self) -> bool {
        self.placing()
            || self
                .own()
                .into_iter()
                .any(|w| self.steps(w).next().is_some())
    }

    fn play(&mut self, mv: SantoriniMove) {
        let me = self.to_move;
        match mv {
            SantoriniMove::Place(c) => {
                let slot = self.workers[me]
                    .iter()
                    .position(Option::is_none)
                    .expect("a worker to place");
                self.workers[me][slot] = Some(c);
                // X places both workers before O places any.
                if !self.placing() {
                    self.to_move = 1 - me;
                }
            }
            SantoriniMove::Move { from, to, build } => {
                let slot = self.workers[me]
                    .iter()
                    .position(|&w| w == Some(from))
                    .expect("a worker moves");
                self.workers[me][slot] = Some(to);
                match build {
                    Some(b) => self.height[b as usize] += 1,
                    None => self.winner = Some(me),
                }
                self.to_move = 1 - me;
            }
        }
        self.plies += 1;
        // A player with no move on their turn loses.
        if self.winner.is_none() && !self.can_move() {
            self.winner = Some(1 - self.to_move);
        }
    }

    fn grid(&self) -> String {
        // Rows from 5 down to 1, each `r` then a level and a worker mark per
        // square, written into one buffer.
        let mut text = String::with_capacity((SIDE + 1) * (3 * SIDE + 2));
        for r in (0..SIDE).rev() {
            text.push((b'1' + r as u8) as char);
            for c in 0..SIDE {
                let cell = (r * SIDE + c) as u8;
                let h = self.height[cell as usize];
                text.push(' ');
                text.push(if h >= DOME { 'D' } else { (b'0' + h) as char });
                text.push(
                    (0..2)
                        .find(|&p| self.workers[p].contains(&Some(cell)))
                        .map_or('.', |p| MARKS[p]),
                );
            }
            text.push('\n');
        }
        text.push_str("  a  b  c  d  e");
        text
    }

    /// Points for `player`: worker levels, and the levels one step could
    /// climb to; a worker on level 2 beside a free level 3 when it is that
    /// player's turn is a win in hand.
    fn standing(&self, player: Player) -> i32 {
        let mut score = 0;
        for &w in self.workers[player].iter().flatten() {
            let h = self.height[w as usize];
            score += 30 * i32::from(h);
            for n in neighbours(w) {
                let t = self.height[n as usize];
                if t < DOME && t <= h + 1 && !self.occupied(n) {
                    score += 2 + 4 * i32::from(t);
                    if h == 2 && t == 3 {
                        score += if self.to_move == player { 5_000 } else { 200 };
                    }
                }
            }
        }
        score
    }
}

impl Search for Santorini {
    type Move = SantoriniMove;

    fn mover(&self) -> Player {
        self.to_move
    }

    /// Winning moves first, then climbs.
    fn moves(&self) -> Vec<SantoriniMove> {
        let mut moves = self.legal();
        moves.sort_by_key(|m| match *m {
            SantoriniMove::Move { build: None, .. } => -10,
            SantoriniMove::Move { to, from, .. } => {
                -(i32::from(self.height[to as usize]) - i32::from(self.height[from as usize]))
            }
            SantoriniMove::Place(c) => {
                let (r, col) = (i32::from(c) / 5, i32::from(c) % 5);
                (r - 2).abs() + (col - 2).abs()
            }
        });
        moves
    }

    fn play(&mut self, mv: SantoriniMove) {
        Santorini::play(self, mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.winner.map(Some)
    }

    fn evaluate(&self) -> i32 {
        self.standing(0) - self.standing(1)
    }
}

impl Env for Santorini {
    type Config = SantoriniConfig;
    type Task = SantoriniTask;
    type Action = SantoriniMove;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/santorini-v1",
        kind: EnvKind::Game,
        description: "Santorini without god powers on the 5x5 board; alpha-beta oracle (2 plies, levels and reachable climbs)",
        players: 2,
        max_steps: MAX_TURNS,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening turns, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 24}"#, r#"{"opening_moves": 12}"#, "{}"];

    /// Turns the game may still last.
    fn effort(task: &SantoriniTask) -> Option<f64> {
        Some((MAX_TURNS - task.opening.len()) as f64)
    }

    fn validate(config: &SantoriniConfig) -> Result<(), ConfigError> {
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &SantoriniConfig, rng: &mut Rng) -> SantoriniTask {
        let mut game = Santorini::new();
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            let quiet: Vec<SantoriniMove> = game
                .legal()
                .into_iter()
                .filter(|&mv| {
                    let mut next = game.clone();
                    next.play(mv);
                    next.winner.is_none()
                })
                .collect();
            let Some(&mv) = rng.choose(&quiet) else {
                break;
            };
            game.play(mv);
            opening.push(mv.name());
        }
        SantoriniTask { opening }
    }

    fn reset(task: &SantoriniTask, _rng: Rng) -> Self {
        let mut game = Santorini::new();
        for name in &task.opening {
            let mv = game
                .legal()
                .into_iter()
                .find(|m| m.name() == *name)
                .expect("a card's opening is legal");
            game.play(mv);
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.winner.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = if self.to_move == player {
            self.legal().into_iter().map(SantoriniMove::name).collect()
        } else {
            Vec::new()
        };
        let status = match self.winner {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.to_move != player => "Waiting for the opponent.".to_string(),
            None if self.placing() => format!(
                "Your move: place a worker on an empty square, like `c3`. Legal moves: {}.",
                legal.join(", ")
            ),
            None => format!(
                "Your move: reply with three squares like `c3 d4 e5` (the worker on c3 moves to d4, then builds on e5), \
                 or two like `c3 d4` for a winning move up onto level 3. Legal moves: {}.",
                legal.join(", ")
            ),
        };
        let mover = match self.winner {
            Some(_) => String::new(),
            None => format!(": {} to move", MARKS[self.to_move]),
        };
        Observation {
            text: format!(
                "Santorini (no god powers), 5x5 board. You play {}; X moves first. Setup: X places its two workers on \
                 empty squares, then O places its two. Then on each turn move one of your workers to a neighbouring \
                 square (any of 8 directions) with no worker and no dome, at most one level higher than where it \
                 stands (any lower is fine), then build one level on a square next to its new place that has no \
                 worker and no dome (on level 3 the build is a dome). Moving up onto level 3 wins at once; a player \
                 who cannot move loses.\nBoard (each square: its level 0-3 or D for a dome, then X, O or . for a \
                 worker):\n{}\nTurn {}{mover}.\n{status}",
                MARKS[player],
                self.grid(),
                self.plies + 1,
            ),
            structured: json!({
                "levels_row1_first": self.height.chunks(SIDE).map(|r| r.to_vec()).collect::<Vec<_>>(),
                "workers": self.workers.iter().map(|ws| ws.iter().flatten().map(|&w| name(w)).collect::<Vec<_>>()).collect::<Vec<_>>(),
                "you": MARKS[player].to_string(),
                "to_move": if self.winner.is_some() { json!(null) } else { json!(self.to_move) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// A uniformly random legal move, as the default draws it from the
    /// observation's list, without writing the whole observation.
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        let legal = if self.to_move == player {
            self.legal()
        } else {
            Vec::new()
        };
        match legal.len() {
            0 => rng.range_i64(-20, 20).to_string(),
            k => legal[rng.below(k as u64) as usize].name(),
        }
    }

    /// The one legal move that a run of square words in `text` names
    /// (`c3 d4 e5`, `C3-D4-E5`); a run inside a longer one that names a
    /// move does not count on its own, and two different moves are a
    /// hedge. One pass over the words, with the legal moves keyed by their
    /// squares.
    fn parse_action(&self, player: Player, text: &str) -> Result<SantoriniMove, InvalidAction> {
        let hint = if self.placing() {
            "reply with one empty square like `c3`"
        } else {
            "reply with one legal move like `c3 d4 e5`"
        };
        let moves = if player == self.to_move {
            self.legal()
        } else {
            Vec::new()
        };
        // Sorted by squares for binary search: a map cost more to build
        // than a short reply's lookups.
        let mut by_squares: Vec<([u8; 3], SantoriniMove)> =
            moves.iter().map(|&m| (m.squares(), m)).collect();
        by_squares.sort_unstable_by_key(|&(squares, _)| squares);
        let squares: Vec<Option<u8>> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(parse_square)
            .collect();
        // (start, length, move) of every run that names a legal move.
        let mut runs: Vec<(usize, usize, SantoriniMove)> = Vec::new();
        for start in 0..squares.len() {
            let mut key = [NONE; 3];
            for len in 1..=3 {
                let Some(Some(sq)) = squares.get(start + len - 1) else {
                    break;
                };
                key[len - 1] = *sq;
                if let Ok(at) = by_squares.binary_search_by_key(&key, |&(squares, _)| squares) {
                    runs.push((start, len, by_squares[at].1));
                }
            }
        }
        // A run can only lie inside one that starts at most two words
        // before it: look there alone, so a long reply stays linear.
        let inside = |&(s, l, _): &(usize, usize, SantoriniMove)| {
            let from = runs.partition_point(|r| r.0 + 2 < s);
            runs[from..]
                .iter()
                .take_while(|r| r.0 <= s)
                .any(|&(os, ol, _)| s + l <= os + ol && ol > l)
        };
        let mut named: Vec<SantoriniMove> = Vec::new();
        for run in runs.iter().filter(|r| !inside(r)) {
            if !named.contains(&run.2) {
                named.push(run.2);
            }
        }
        match named.as_slice() {
            [one] => Ok(*one),
            [] => Err(InvalidAction::new(format!("no legal move found; {hint}"))),
            _ => Err(InvalidAction::new(format!(
                "name exactly one move, not several; {hint}"
            ))),
        }
    }

    fn apply(&mut self, _player: Player, mv: SantoriniMove) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&mv) {
            return Err(InvalidAction::new(format!(
                "{} is not legal now",
                mv.name()
            )));
        }
        let me = self.to_move;
        self.play(mv);
        let mut events = vec![format!("{} plays {}", MARKS[me], mv.name())];
        if let Some(w) = self.winner {
            events.push(format!("{} wins", MARKS[w]));
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.winner.is_some(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(SantoriniMove::name)
    }

    /// Win at once if a move does; else keep to moves after which the
    /// opponent cannot win at once; among those the best levels and climbs
    /// one ply on (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, |s, p| {
            let heights = |q: Player| -> i32 {
                s.workers[q]
                    .iter()
                    .flatten()
                    .map(|&w| i32::from(s.height[w as usize]))
                    .sum()
            };
            heights(p) - heights(1 - p)
        })
        .map(SantoriniMove::name)
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
#[path = "santorini_tests.rs"]
mod tests;
