//! `games/2048-v1`: 2048, the one-player sliding-tile game on a 4×4 board.
//!
//! # Task
//! The target tile and the start board: two tiles on random squares, each a
//! 2 (probability 0.9) or a 4 (0.1), as in OpenSpiel's `2048`. One player.
//!
//! # Action
//! `up`, `right`, `down` or `left`: every tile slides that way as far as it
//! goes, and two equal tiles that meet merge into one of their sum (a tile
//! merges at most once per move, the pair nearest the wall first). A move
//! that changes nothing is refused, and so is text naming two directions.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the score, the moves made, the largest tile, the board (row 1
//! at the top, `.` empty) and the legal moves. Nothing is hidden except
//! where the next tiles will appear.
//!
//! # Reward
//! log2(largest tile) / log2(target), in (0, 1]: 1, and `passed`, exactly
//! when the target tile is made. Breakdown: `score` (the sum of all merged
//! tiles, OpenSpiel's return), `largest_tile`, `moves`, `reached_target`.
//!
//! # Episode end
//! The target tile is made (as OpenSpiel's `max_tile`, 2048 by default), or
//! no move changes the board. After every other move a new tile (2 with
//! probability 0.9, else 4) appears on a uniformly random empty square.
//!
//! # Parameters
//! `target` (a power of two, 16–2048, default 2048 as in OpenSpiel). On the
//! difficulty scale (`LEVELS`: targets 32 to 2048): presets `easy` (64),
//! `medium` (128), `hard` (256).
//!
//! # Seeding
//! The task's seed places the two start tiles; the episode's seed places
//! every new tile, so a card replays exactly.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::pick;
use crate::rng::Rng;

mod board;
pub use board::*;

/// The largest target, and OpenSpiel's default `max_tile`.
pub const MAX_TARGET: u32 = 2048;
const MIN_TARGET: u32 = 16;
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TwentyFortyEightConfig {
    /// The tile that wins and ends the game (a power of two, 16–2048).
    pub target: u32,
}

impl Default for TwentyFortyEightConfig {
    fn default() -> Self {
        TwentyFortyEightConfig { target: MAX_TARGET }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TwentyFortyEightTask {
    pub target: u32,
    /// Tile values by row (row 1 first), 0 for empty.
    pub tiles: [[u32; 4]; 4],
}

fn board_of(tiles: &[[u32; 4]; 4]) -> Board {
    let mut b = 0;
    for (r, row) in tiles.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v > 0 {
                b |= u64::from(v.trailing_zeros()) << (4 * (4 * r + c));
            }
        }
    }
    b
}

fn tiles_of(b: Board) -> [[u32; 4]; 4] {
    let mut tiles = [[0; 4]; 4];
    for (i, tile) in tiles.iter_mut().flatten().enumerate() {
        let e = exponent(b, i);
        *tile = if e == 0 { 0 } else { 1 << e };
    }
    tiles
}

#[derive(Clone, Debug)]
pub struct TwentyFortyEight {
    board: Board,
    target: u32,
    rng: Rng,
    score: u32,
    moves: u32,
}

impl TwentyFortyEight {
    /// A game from `task`; `rng` places the new tiles.
    pub fn new(task: &TwentyFortyEightTask, rng: Rng) -> Self {
        TwentyFortyEight {
            board: board_of(&task.tiles),
            target: task.target,
            rng,
            score: 0,
            moves: 0,
        }
    }

    pub fn board(&self) -> Board {
        self.board
    }

    pub fn score_points(&self) -> u32 {
        self.score
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn largest_tile(&self) -> u32 {
        1 << largest_exponent(self.board)
    }

    fn target_exponent(&self) -> u8 {
        self.target.trailing_zeros() as u8
    }

    pub fn reached(&self) -> bool {
        largest_exponent(self.board) >= self.target_exponent()
    }

    pub fn over(&self) -> bool {
        self.reached() || !can_move(self.board)
    }

    /// The legal directions, as indices into [`DIRECTIONS`]; none once over.
    pub fn legal(&self) -> Vec<usize> {
        if self.reached() {
            Vec::new()
        } else {
            legal_moves(self.board)
        }
    }

    /// Slides in direction `d`, which must change the board, then places a
    /// new tile unless the target was made. Returns the points and the new
    /// tile's square and value.
    pub fn play(&mut self, d: usize) -> (u32, Option<(usize, u32)>) {
        let (after, points) = slide(self.board, d);
        self.board = after;
        self.score += points;
        self.moves += 1;
        let new = if self.reached() {
            None
        } else {
            spawn(&mut self.board, &mut self.rng)
        };
        (points, new)
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = tiles_of(self.board)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| {
                        let cell = if v == 0 {
                            ".".to_string()
                        } else {
                            v.to_string()
                        };
                        format!("{cell:>5}")
                    })
                    .collect()
            })
            .collect();
        rows.join("\n")
    }
}

impl Env for TwentyFortyEight {
    type Config = TwentyFortyEightConfig;
    type Task = TwentyFortyEightTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/2048-v1",
        kind: EnvKind::Game,
        description: "2048, one player on a 4x4 board, seeded tiles; expectimax oracle (1-2 moves, row tables)",
        players: 1,
        // Before a 2048 tile every tile is at most 1024, so the tiles sum to
        // at most 16 * 1024, and every move adds at least 2.
        max_steps: 4 * MAX_TARGET as usize,
        reward_range: (0.0, 1.0),
        zero_sum: false,
        fixed_start: false,
        presets: &Preset::graded(Self::LEVELS, [1, 2, 3]),
    };

    /// Larger targets, longer games.
    const LEVELS: &'static [&'static str] = &[
        r#"{"target": 32}"#,
        r#"{"target": 64}"#,
        r#"{"target": 128}"#,
        r#"{"target": 256}"#,
        r#"{"target": 512}"#,
        r#"{"target": 1024}"#,
        "{}",
    ];

    /// The fewest moves that can make the target: each adds at most 4 to
    /// the tiles' sum.
    fn effort(task: &TwentyFortyEightTask) -> Option<f64> {
        let start: u32 = task.tiles.iter().flatten().sum();
        Some(f64::from(task.target.saturating_sub(start)) / 4.0)
    }

    fn validate(config: &TwentyFortyEightConfig) -> Result<(), ConfigError> {
        let t = config.target;
        if !(MIN_TARGET..=MAX_TARGET).contains(&t) || !t.is_power_of_two() {
            return Err(format!(
                "target must be a power of two in {MIN_TARGET}..={MAX_TARGET}, got {t}"
            )
            .into());
        }
        Ok(())
    }

    fn generate(config: &TwentyFortyEightConfig, rng: &mut Rng) -> TwentyFortyEightTask {
        let mut b = 0;
        spawn(&mut b, rng);
        spawn(&mut b, rng);
        TwentyFortyEightTask {
            target: config.target,
            tiles: tiles_of(b),
        }
    }

    fn reset(task: &TwentyFortyEightTask, rng: Rng) -> Self {
        TwentyFortyEight::new(task, rng)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(0)
        }
    }

    fn observe(&self, _player: Player) -> Observation {
        let legal: Vec<String> = self
            .legal()
            .iter()
            .map(|&d| DIRECTIONS[d].to_string())
            .collect();
        let status = if self.reached() {
            format!("Game over: you made the {} tile.", self.target)
        } else if legal.is_empty() {
            "Game over: no move changes the board.".to_string()
        } else {
            format!("Your move: reply with one of {}.", legal.join(", "))
        };
        Observation {
            text: format!(
                "2048. Reply up, right, down or left: every tile slides that way as far as it goes, and two \
                 equal tiles that meet merge into one tile of their sum (each tile at most once per move), \
                 which adds to your score. After each move a 2 (one time in ten a 4) appears on a random empty \
                 square. A move that changes nothing is not allowed. Make a {} tile to win; the game also \
                 ends when no move changes the board.\nScore {}, moves {}, largest tile {}.\n{}\n{status}",
                self.target,
                self.score,
                self.moves,
                self.largest_tile(),
                self.grid()
            ),
            structured: json!({
                "tiles": tiles_of(self.board),
                "score": self.score,
                "moves": self.moves,
                "target": self.target,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        pick(
            text,
            DIRECTIONS.iter().enumerate().map(|(d, name)| (*name, d)),
            "reply with one of up, right, down, left",
        )
    }

    fn apply(&mut self, _player: Player, d: usize) -> Result<Vec<String>, InvalidAction> {
        let legal = self.legal();
        if !legal.contains(&d) {
            let names: Vec<&str> = legal.iter().map(|&m| DIRECTIONS[m]).collect();
            return Err(InvalidAction::new(format!(
                "`{}` changes nothing on this board; legal moves: {}",
                DIRECTIONS[d],
                names.join(", ")
            )));
        }
        let (points, new) = self.play(d);
        let mut event = format!("{} (+{points})", DIRECTIONS[d]);
        if let Some((i, v)) = new {
            event.push_str(&format!(
                "; a {v} appeared in row {}, column {}",
                i / 4 + 1,
                i % 4 + 1
            ));
        }
        let mut events = vec![event];
        if self.reached() {
            events.push(format!("made {}", self.target));
        } else if self.over() {
            events.push("no move left".to_string());
        }
        Ok(events)
    }

    fn score(&self, _player: Player) -> Score {
        let largest = largest_exponent(self.board);
        let reached = self.reached();
        let reward = (f64::from(largest) / f64::from(self.target_exponent())).min(1.0);
        Score::default()
            .with(reward, reached)
            .part("score", f64::from(self.score))
            .part("largest_tile", f64::from(self.largest_tile()))
            .part("moves", f64::from(self.moves))
            .part("reached_target", f64::from(u8::from(reached)))
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        if self.over() {
            return None;
        }
        expectimax_move(self.board, self.target_exponent()).map(|d| DIRECTIONS[d].to_string())
    }

    /// The corner rule ([`corner_move`]).
    fn heuristic(&self, _player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() {
            return None;
        }
        corner_move(self.board).map(|d| DIRECTIONS[d].to_string())
    }

    /// Uniform over the legal moves, without building the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        rng.choose(&self.legal())
            .map_or_else(String::new, |&d| DIRECTIONS[d].to_string())
    }

    fn render(&self) -> String {
        format!("score {} moves {}\n{}", self.score, self.moves, self.grid())
    }
}

#[cfg(test)]
mod tests;
