//! `games/quoridor-v1`: Quoridor for two players on a 9×9 board, 10 walls
//! each (OpenSpiel's `quoridor` defaults).
//!
//! # Task
//! The empty board: X (player 0) on e9 heading for row 1, O (player 1) on e1
//! heading for row 9 (row 1 is the top row); X moves first. No chance:
//! every seed gives the same start.
//!
//! # Action
//! Each turn, move your pawn or place a wall (while you have walls left).
//! A pawn move names the square it lands on, like `e8`: one square up, down,
//! left or right unless a wall is in the way. Onto the other pawn it jumps
//! straight over it instead; when a wall or the edge is behind that pawn,
//! it jumps diagonally to either side of it (where no wall is in the way).
//! A wall is two squares long and sits in the grooves between squares:
//! `e3h` (or `h e3`, `horizontal e3`) lies under squares e3 and f3, between
//! rows 3 and 4; `e3v` (or `v e3`, `vertical wall e3`) lies right of squares
//! e3 and e4, between columns e and f. Walls may not overlap or cross
//! (`e3h` and `e3v` share their midpoint), and may not cut either pawn off
//! from its goal row (pawns do not block paths). `pass` only when nothing
//! else is legal. An illegal move is refused with the reason, and so is
//! text naming two different moves.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board (row 1 first) with both pawns, the walls drawn as `---` and
//! `|`, each player's position, goal row and walls left, and the mover's
//! legal moves. Both players see everything.
//!
//! # Reward
//! +1 to the player whose pawn first reaches its goal row, −1 to the other;
//! 0 each for a draw (zero-sum). `passed` means a win. Breakdown: `win`,
//! `draw`.
//!
//! # Episode end
//! A pawn on its goal row, or a draw once 4·size² plies have been played
//! (324 on 9×9), even if that last ply reached the goal: OpenSpiel's rule.
//!
//! # Parameters
//! `size` (5–9, default 9): the board is size×size. `walls` (0–20,
//! default size²/8, which is 10 on 9×9): walls per player. Presets
//! `standard` (9×9, 10 walls) and, on the difficulty scale (`LEVELS`),
//! `easy` (5×5, 3 walls), `medium` (7×7, 6 walls), `hard` (9×9).
//!
//! # Seeding
//! Every seed gives the same start; the seed matters only to random agents.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{best_move, standard_then_graded, win_loss};
use crate::rng::Rng;

mod board;

use board::{LENGTH_FACTOR, ORACLE_DEPTH, PAWNS, bit, greedy};
pub use board::{Move, Quoridor};

const MIN_SIZE: usize = 5;
const MAX_SIZE: usize = 9;
const DEFAULT_SIZE: usize = 9;
const MAX_WALLS: usize = 20;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QuoridorConfig {
    /// Board side, 5–9.
    pub size: usize,
    /// Walls per player (0–20); `None` means size²/8 as in OpenSpiel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<usize>,
}

impl Default for QuoridorConfig {
    fn default() -> Self {
        QuoridorConfig {
            size: DEFAULT_SIZE,
            walls: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuoridorTask {
    pub size: usize,
    pub walls: usize,
}

impl Env for Quoridor {
    type Config = QuoridorConfig;
    type Task = QuoridorTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/quoridor-v1",
        kind: EnvKind::Game,
        description: "Quoridor on a 9x9 board with 10 walls each; alpha-beta oracle (2 plies, path-length difference)",
        players: 2,
        max_steps: LENGTH_FACTOR * MAX_SIZE * MAX_SIZE,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Smaller boards with fewer walls, shorter games.
    const LEVELS: &'static [&'static str] = &[r#"{"size": 5}"#, r#"{"size": 7}"#, "{}"];

    /// Squares times the walls each player may place, plus one.
    fn effort(task: &QuoridorTask) -> Option<f64> {
        Some((task.size * task.size * (task.walls + 1)) as f64)
    }

    fn validate(config: &QuoridorConfig) -> Result<(), ConfigError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&config.size) {
            return Err(format!(
                "size must be in {MIN_SIZE}..={MAX_SIZE}, got {}",
                config.size
            )
            .into());
        }
        match config.walls {
            Some(w) if w > MAX_WALLS => {
                Err(format!("walls must be in 0..={MAX_WALLS}, got {w}").into())
            }
            _ => Ok(()),
        }
    }

    fn generate(config: &QuoridorConfig, _rng: &mut Rng) -> QuoridorTask {
        QuoridorTask {
            size: config.size,
            walls: config.walls.unwrap_or(config.size * config.size / 8),
        }
    }

    fn reset(task: &QuoridorTask, _rng: Rng) -> Self {
        Quoridor::new(task.size, task.walls)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let n = self.n;
        let limit = LENGTH_FACTOR * n * n;
        let side = |p: Player| {
            format!(
                "{} is on {}, heading for row {}, with {} wall{} left.",
                PAWNS[p],
                self.square_name(self.pawns[p]),
                if p == 0 { 1 } else { n },
                self.walls_left[p],
                if self.walls_left[p] == 1 { "" } else { "s" }
            )
        };
        let mine = self.to_move() == player && !self.over();
        let legal: Vec<String> = if mine {
            self.legal()
                .into_iter()
                .map(|m| self.move_name(m))
                .collect()
        } else {
            Vec::new()
        };
        let status = match self.winner {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.over() => "Game over: draw.".to_string(),
            None if mine => {
                let steps: Vec<String> = self
                    .pawn_moves()
                    .into_iter()
                    .map(|s| self.square_name(s))
                    .collect();
                format!(
                    "Your move (ply {} of {limit}). Your pawn can move to: {}. Reply with a \
                     square like `e8` or a wall like `e3h`.",
                    self.plies + 1,
                    if steps.is_empty() {
                        "nowhere".to_string()
                    } else {
                        steps.join(", ")
                    }
                )
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Quoridor {n}x{n}. You play {}; X moves first. Each turn, move your pawn one \
                 square up, down, left or right, or place a wall; the first pawn to reach its \
                 goal row wins, and the game is a draw after {limit} plies. A pawn moving onto \
                 the other jumps over it, or diagonally beside it when a wall or the edge is \
                 behind it. Walls are two squares long: `e3h` lies under e3 and f3, `e3v` right \
                 of e3 and e4; they may not overlap, cross or cut a pawn off from its goal \
                 row.\n{}\n{}\n{}\n{status}",
                PAWNS[player],
                side(0),
                side(1),
                self.grid(),
            ),
            structured: json!({
                "size": n,
                "you": PAWNS[player].to_string(),
                "pawns": [self.square_name(self.pawns[0]), self.square_name(self.pawns[1])],
                "walls_left": self.walls_left,
                "walls": self.anchors().flat_map(|a| [(false, a), (true, a)])
                    .filter(|&(v, a)| (if v { self.vwalls } else { self.hwalls }) & bit(a) != 0)
                    .map(|(vertical, anchor)| self.move_name(Move::Wall { vertical, anchor }))
                    .collect::<Vec<_>>(),
                "ply": self.plies,
                "to_move": if self.over() { json!(null) } else { json!(self.to_move()) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// The one move the words of `text` name: a square, a square with an
    /// `h`/`v` suffix, a square beside an orientation word (`h`, `v`,
    /// `horizontal`, `vertical`, up to two of `wall`, `at`, `on` between),
    /// or `pass`. Two different moves are a hedge. Linear in the text.
    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        let hint = "reply with one square like `e8` or one wall like `e3h`";
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let orientation = |w: &str| match w.to_ascii_lowercase().as_str() {
            "h" | "horizontal" => Some(false),
            "v" | "vertical" => Some(true),
            _ => None,
        };
        let filler = |w: &&&str| {
            ["wall", "at", "on"]
                .iter()
                .any(|f| w.eq_ignore_ascii_case(f))
        };
        let mut found: Option<Move> = None;
        let mut note = |mv: Move| match found {
            Some(f) if f != mv => Err(InvalidAction::new(format!(
                "name exactly one move, not several; {hint}"
            ))),
            _ => {
                found = Some(mv);
                Ok(())
            }
        };
        for (k, w) in words.iter().enumerate() {
            if w.eq_ignore_ascii_case("pass") {
                note(Move::Pass)?;
            } else if let Some(s) = self.parse_square(w) {
                let before = words[..k].iter().rev().take(3).find(|w| !filler(w));
                let after = words[k + 1..].iter().take(3).find(|w| !filler(w));
                let sides = [before, after].map(|w| w.and_then(|w| orientation(w)));
                if sides == [None, None] {
                    note(Move::Step(s))?;
                }
                for vertical in sides.into_iter().flatten() {
                    note(Move::Wall {
                        vertical,
                        anchor: s,
                    })?;
                }
            } else if let Some((square, last)) = w.split_at_checked(w.len() - 1)
                && let (Some(s), Some(vertical)) = (self.parse_square(square), orientation(last))
            {
                note(Move::Wall {
                    vertical,
                    anchor: s,
                })?;
            }
        }
        found.ok_or_else(|| InvalidAction::new(format!("no move found; {hint}")))
    }

    fn apply(&mut self, player: Player, mv: Move) -> Result<Vec<String>, InvalidAction> {
        let name = || self.move_name(mv);
        match mv {
            Move::Step(s) => {
                let to = self.pawn_moves();
                if !to.contains(&s) {
                    let to: Vec<String> = to.into_iter().map(|s| self.square_name(s)).collect();
                    return Err(InvalidAction::new(format!(
                        "your pawn cannot move to {}; it can move to {}",
                        name(),
                        if to.is_empty() {
                            "nowhere".to_string()
                        } else {
                            to.join(", ")
                        }
                    )));
                }
            }
            Move::Wall { vertical, anchor } => {
                if self.walls_left[player] == 0 {
                    return Err("you have no walls left; move your pawn".into());
                }
                if let Some(why) = self.wall_clash(vertical, anchor) {
                    return Err(format!("no wall at {}: {why}", name()).into());
                }
                if self.with_wall(vertical, anchor).is_none() {
                    return Err(format!(
                        "no wall at {}: it would cut a pawn off from its goal row",
                        name()
                    )
                    .into());
                }
            }
            Move::Pass => {
                if self.legal() != [Move::Pass] {
                    return Err("you may pass only when no other move is legal".into());
                }
            }
        }
        self.play_move(mv);
        Ok(match self.winner {
            Some(w) => vec![format!("{} wins", PAWNS[w])],
            None if self.drawn => vec![format!("draw after {} plies", self.plies)],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.over(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|mv| self.move_name(mv))
    }

    /// Win at once if the pawn can; else the move that most lengthens the
    /// opponent's shortest path against the mover's own, a wall only when
    /// it gains strictly more than a step (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        greedy(self, rng).map(|mv| self.move_name(mv))
    }

    /// A uniformly random legal move, as the default draws from the
    /// observation's list, without building the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let legal = self.legal();
        match legal.len() {
            0 => rng.range_i64(-20, 20).to_string(),
            k => self.move_name(legal[rng.below(k as u64) as usize]),
        }
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests;
