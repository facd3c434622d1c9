//! `games/checkers-v1`: checkers (English draughts rules) on 6×6 or 8×8.
//!
//! # Task
//! The standard start: men on the dark squares of the first rows of each
//! side (three rows on 8×8, two on 6×6). Black (player 0, `b`) starts at
//! the bottom and moves first. No chance.
//!
//! # Action
//! A move from the listed legal moves: a step like `c3-d4`, or a capture
//! sequence like `c3xe5xc7` (also `c3-e5-c7`). Men move diagonally forward,
//! kings (`B`, `W`) diagonally either way, one square. Capturing is
//! compulsory, and a capture must be continued while the piece can jump
//! again (any capture may be chosen, not only the longest). A man reaching
//! the far row becomes a king and its move ends. Text naming two moves is
//! refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board (row 1 at the bottom, dark squares only used), whose turn it
//! is and the legal moves. Both players see everything.
//!
//! # Reward
//! A player with no pieces or no legal move loses: +1 to the winner, −1 to
//! the loser. Draw (0 each) after 40 plies without a capture or a man's
//! move, or at the ply limit. Zero-sum. `passed` means a win. Breakdown:
//! `win`/`draw`, `pieces`.
//!
//! # Episode end
//! A win or a draw; at most `max_plies` moves.
//!
//! # Parameters
//! `size` 6, 8 or 10, `max_plies` (20–300). Presets `small` (6×6, 150
//! plies) and `standard` (8×8, 250 plies); on the difficulty scale
//! (`LEVELS`) `easy` is `small`, `medium` `standard`, `hard` 10×10 with 300.
//!
//! # Seeding
//! Fixed start; the seed matters only to random agents.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{Search, best_move, pick, win_block_greedy, win_loss};
use crate::rng::Rng;

const MAX_PLIES: usize = 300;
/// Plies without a capture or a man's move that make a draw.
const QUIET_LIMIT: usize = 40;
const ORACLE_DEPTH: u32 = 4;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CheckersConfig {
    pub size: usize,
    pub max_plies: usize,
}

impl Default for CheckersConfig {
    fn default() -> Self {
        CheckersConfig {
            size: 8,
            max_plies: 250,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckersTask {
    pub size: usize,
    pub max_plies: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    owner: Player,
    king: bool,
}

/// The squares visited (start first) and the squares captured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckersMove {
    path: Vec<usize>,
    captured: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkers {
    size: usize,
    max_plies: usize,
    board: Vec<Option<Piece>>,
    to_move: Player,
    plies: usize,
    quiet: usize,
}

impl Checkers {
    fn new(size: usize, max_plies: usize) -> Self {
        let rows = (size - 2) / 2;
        let mut board = vec![None; size * size];
        for r in 0..size {
            for c in 0..size {
                if (r + c) % 2 == 0 {
                    if r < rows {
                        board[r * size + c] = Some(Piece {
                            owner: 0,
                            king: false,
                        });
                    } else if r >= size - rows {
                        board[r * size + c] = Some(Piece {
                            owner: 1,
                            king: false,
                        });
                    }
                }
            }
        }
        Checkers {
            size,
            max_plies,
            board,
            to_move: 0,
            plies: 0,
            quiet: 0,
        }
    }

    fn square(&self, i: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (i % self.size) as u8) as char,
            i / self.size + 1
        )
    }

    fn step(&self, i: usize, dr: i32, dc: i32) -> Option<usize> {
        let n = self.size as i32;
        let (r, c) = ((i / self.size) as i32 + dr, (i % self.size) as i32 + dc);
        ((0..n).contains(&r) && (0..n).contains(&c)).then_some((r * n + c) as usize)
    }

    fn directions(piece: Piece) -> Vec<(i32, i32)> {
        let forward = if piece.owner == 0 { 1 } else { -1 };
        let mut dirs = vec![(forward, -1), (forward, 1)];
        if piece.king {
            dirs.extend([(-forward, -1), (-forward, 1)]);
        }
        dirs
    }

    fn crowning_row(&self, owner: Player, i: usize) -> bool {
        i / self.size == if owner == 0 { self.size - 1 } else { 0 }
    }

    fn jumps(
        &self,
        piece: Piece,
        at: usize,
        start: usize,
        mv: &mut CheckersMove,
        out: &mut Vec<CheckersMove>,
    ) {
        let mut extended = false;
        for (dr, dc) in Self::directions(piece) {
            let (Some(mid), Some(land)) = (self.step(at, dr, dc), self.step(at, 2 * dr, 2 * dc))
            else {
                continue;
            };
            let enemy = matches!(self.board[mid], Some(p) if p.owner != piece.owner);
            let empty = self.board[land].is_none() || land == start;
            if enemy && empty && !mv.captured.contains(&mid) {
                extended = true;
                mv.path.push(land);
                mv.captured.push(mid);
                if !piece.king && self.crowning_row(piece.owner, land) {
                    out.push(mv.clone());
                } else {
                    self.jumps(piece, land, start, mv, out);
                }
                mv.path.pop();
                mv.captured.pop();
            }
        }
        if !extended && !mv.captured.is_empty() {
            out.push(mv.clone());
        }
    }

    fn moves_of(&self, player: Player) -> Vec<CheckersMove> {
        let mut captures = Vec::new();
        let mut steps = Vec::new();
        for i in 0..self.board.len() {
            let Some(piece) = self.board[i] else { continue };
            if piece.owner != player {
                continue;
            }
            self.jumps(
                piece,
                i,
                i,
                &mut CheckersMove {
                    path: vec![i],
                    captured: Vec::new(),
                },
                &mut captures,
            );
            for (dr, dc) in Self::directions(piece) {
                if let Some(to) = self.step(i, dr, dc).filter(|&to| self.board[to].is_none()) {
                    steps.push(CheckersMove {
                        path: vec![i, to],
                        captured: Vec::new(),
                    });
                }
            }
        }
        if captures.is_empty() { steps } else { captures }
    }

    fn drawn(&self) -> bool {
        self.quiet >= QUIET_LIMIT || self.plies >= self.max_plies
    }

    /// The winner, once the player to move has no move (or no piece).
    fn winner(&self) -> Option<Player> {
        (!self.drawn() && self.moves_of(self.to_move).is_empty()).then_some(1 - self.to_move)
    }

    fn over(&self) -> bool {
        self.drawn() || self.winner().is_some()
    }

    fn legal(&self) -> Vec<CheckersMove> {
        if self.drawn() {
            Vec::new()
        } else {
            self.moves_of(self.to_move)
        }
    }

    fn play(&mut self, mv: &CheckersMove) {
        let from = mv.path[0];
        let to = *mv.path.last().expect("a move has a path");
        let mut piece = self.board[from].take().expect("a piece moves");
        let man_moved = !piece.king;
        if self.crowning_row(piece.owner, to) {
            piece.king = true;
        }
        for &c in &mv.captured {
            self.board[c] = None;
        }
        self.board[to] = Some(piece);
        self.quiet = if man_moved || !mv.captured.is_empty() {
            0
        } else {
            self.quiet + 1
        };
        self.plies += 1;
        self.to_move = 1 - self.to_move;
    }

    fn move_name(&self, mv: &CheckersMove) -> String {
        let squares: Vec<String> = mv.path.iter().map(|&i| self.square(i)).collect();
        squares.join(if mv.captured.is_empty() { "-" } else { "x" })
    }

    fn pieces(&self, player: Player) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|p| p.owner == player)
            .count()
    }

    fn grid(&self) -> String {
        let symbol = |p: &Option<Piece>| match p {
            None => '.',
            Some(Piece {
                owner: 0,
                king: false,
            }) => 'b',
            Some(Piece {
                owner: 0,
                king: true,
            }) => 'B',
            Some(Piece { king: false, .. }) => 'w',
            Some(_) => 'W',
        };
        let rows: Vec<String> = self
            .board
            .chunks(self.size)
            .rev()
            .map(|row| row.iter().map(symbol).collect())
            .collect();
        rows.join("\n")
    }
}

impl Search for Checkers {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move
    }

    /// Indices into `legal()`.
    fn moves(&self) -> Vec<usize> {
        (0..self.legal().len()).collect()
    }

    fn play(&mut self, k: usize) {
        let mv = self.legal()[k].clone();
        Checkers::play(self, &mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.over().then(|| self.winner())
    }

    /// Men 100, kings 160, plus a little for advanced men.
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for (i, p) in self.board.iter().enumerate() {
            let Some(p) = p else { continue };
            let row = (i / self.size) as i32;
            let advance = if p.owner == 0 {
                row
            } else {
                self.size as i32 - 1 - row
            };
            let value = if p.king { 160 } else { 100 + 3 * advance };
            score += if p.owner == 0 { value } else { -value };
        }
        score
    }
}

impl Env for Checkers {
    type Config = CheckersConfig;
    type Task = CheckersTask;
    type Action = CheckersMove;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/checkers-v1",
        kind: EnvKind::Game,
        description: "Checkers (English draughts rules) on 6x6 or 8x8; alpha-beta oracle (material)",
        players: 2,
        max_steps: MAX_PLIES,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &Preset::graded_after::<5>(
            &[
                Preset {
                    name: "small",
                    overrides: r#"{"size": 6, "max_plies": 150}"#,
                },
                Preset {
                    name: "standard",
                    overrides: "{}",
                },
            ],
            Self::LEVELS,
            [0, 1, 2],
        ),
    };

    /// Board sizes, smallest first (the ply cap grows with the board).
    const LEVELS: &'static [&'static str] = &[
        r#"{"size": 6, "max_plies": 150}"#,
        "{}",
        r#"{"size": 10, "max_plies": 300}"#,
    ];

    /// Squares the men would travel to be crowned: men times board size.
    fn effort(task: &CheckersTask) -> Option<f64> {
        let men = (task.size - 2) / 2 * task.size / 2;
        Some((men * task.size) as f64)
    }

    fn validate(config: &CheckersConfig) -> Result<(), ConfigError> {
        if ![6, 8, 10].contains(&config.size) {
            return Err(format!("size must be 6, 8 or 10, got {}", config.size).into());
        }
        if !(20..=MAX_PLIES).contains(&config.max_plies) {
            return Err(format!(
                "max_plies must be in 20..={MAX_PLIES}, got {}",
                config.max_plies
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &CheckersConfig, _rng: &mut Rng) -> CheckersTask {
        CheckersTask {
            size: config.size,
            max_plies: config.max_plies,
        }
    }

    fn reset(task: &CheckersTask, _rng: Rng) -> Self {
        Checkers::new(task.size, task.max_plies)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let n = self.size;
        let rows: Vec<String> = self
            .grid()
            .lines()
            .enumerate()
            .map(|(k, l)| format!("{} {l}", n - k))
            .collect();
        let letters: String = (0..n).map(|c| (b'a' + c as u8) as char).collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal().iter().map(|m| self.move_name(m)).collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.drawn() => "Game over: draw.".to_string(),
            None if self.to_move == player => {
                format!("Your move. Legal moves: {}.", legal.join(", "))
            }
            None => "Waiting for the opponent.".to_string(),
        };
        let side = if player == 0 {
            "black (b, kings B), moving up"
        } else {
            "white (w, kings W), moving down"
        };
        Observation {
            text: format!(
                "Checkers {n}x{n}, English draughts rules. You play {side}; black moves first. Men move one square \
                 diagonally forward, kings diagonally either way. Captures are compulsory and must be continued \
                 while possible; a man reaching the far row becomes a king. No pieces or no moves loses; {QUIET_LIMIT} \
                 plies without a capture or a man's move, or {} plies in all, is a draw. Ply {} of {}.\n{}\n  \
                 {letters}\n{status}",
                self.max_plies,
                self.plies + 1,
                self.max_plies,
                rows.join("\n"),
            ),
            structured: json!({
                "rows_top_first": self.grid().lines().collect::<Vec<_>>(),
                "you": player,
                "to_move": self.to_move,
                "plies": self.plies,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, player: Player, text: &str) -> Result<CheckersMove, InvalidAction> {
        let moves = if player == self.to_move {
            self.legal()
        } else {
            Vec::new()
        };
        let mut phrases = Vec::new();
        for (k, mv) in moves.iter().enumerate() {
            let squares: Vec<String> = mv.path.iter().map(|&i| self.square(i)).collect();
            phrases.push((squares.join(" "), k));
            phrases.push((squares.join("x"), k));
        }
        let k = pick(
            text,
            phrases.iter().map(|(p, k)| (p.as_str(), *k)),
            "reply with one legal move like `c3-d4`",
        )?;
        Ok(moves[k].clone())
    }

    fn apply(&mut self, _player: Player, mv: CheckersMove) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&mv) {
            return Err(InvalidAction::new(format!(
                "{} is not legal now",
                self.move_name(&mv)
            )));
        }
        self.play(&mv);
        Ok(if mv.captured.is_empty() {
            Vec::new()
        } else {
            vec![format!("{} captured", mv.captured.len())]
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player).part("pieces", self.pieces(player) as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        let k = best_move(self, ORACLE_DEPTH)?;
        Some(self.move_name(&self.legal()[k]))
    }

    /// Win or block, else greedy capture (most pieces over the opponent's;
    /// random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        let k = win_block_greedy(self, rng, |s, p| {
            s.pieces(p) as i32 - s.pieces(1 - p) as i32
        })?;
        Some(self.move_name(&self.legal()[k]))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests;
