//! `games/connect-four-v1`: Connect Four on the standard 6×7 board.
//!
//! # Task
//! The empty board; X (player 0) drops first. No chance: every seed gives
//! the same start.
//!
//! # Action
//! A column number 1–7 ("4", "column 4"). A full column is refused, and so
//! is text naming two columns.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board (top row first, X and O, `.` empty) under the column numbers,
//! whose turn it is and the legal columns. Both players see everything.
//!
//! # Reward
//! +1 to the player who first gets four in a row (across, down or
//! diagonally), −1 to the other, 0 each for a full board (zero-sum).
//! `passed` means a win. Breakdown: `win`, `draw`.
//!
//! # Episode end
//! Four in a row, or a full board (at most 42 moves).
//!
//! # Parameters
//! `opening_moves` (0–20, default 0): random moves, none of them winning,
//! already on the board. Presets `standard` (empty board) and, on the
//! difficulty scale (`LEVELS`), `easy` (16 opening moves), `medium` (8),
//! `hard` (none).
//!
//! # Seeding
//! With no opening moves every seed gives the empty board and matters only
//! to random agents; otherwise the seed picks the opening.
//!
//! # Version history
//! v1: first version.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{
    Search, best_move, is_zero, pick, standard_then_graded, validate_opening, win_block_greedy,
    win_loss,
};
use crate::rng::Rng;

pub const ROWS: usize = 6;
pub const COLS: usize = 7;
/// Bits per column in the bitboards: the rows plus one always-empty guard
/// bit, so shifted lines never wrap into the next column.
const STRIDE: usize = ROWS + 1;
/// Columns searched first: the centre ones take part in the most lines.
const ORDER: [usize; COLS] = [3, 2, 4, 1, 5, 0, 6];
/// Plies the oracle searches.
const ORACLE_DEPTH: u32 = 6;

/// Most random opening moves.
const MAX_OPENING: usize = 20;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectFourConfig {
    /// Random moves already on the board at the start (0–20), none of them
    /// a win: the fewer, the more of the game is left to play.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConnectFourTask {
    /// Columns (0-based) already played, alternately from X.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<usize>,
}

/// Bitboard state: bit `col * STRIDE + row` (row 0 at the bottom).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    stones: [u64; 2],
    heights: [usize; COLS],
    moves: usize,
}

fn bit(col: usize, row: usize) -> u64 {
    1 << (col * STRIDE + row)
}

fn has_four(b: u64) -> bool {
    [1, STRIDE, STRIDE - 1, STRIDE + 1].iter().any(|&s| {
        let pairs = b & (b >> s);
        pairs & (pairs >> (2 * s)) != 0
    })
}

/// Every four-cell line on the board as a bit mask.
fn windows() -> &'static [u64] {
    static WINDOWS: OnceLock<Vec<u64>> = OnceLock::new();
    WINDOWS.get_or_init(|| {
        let mut all = Vec::new();
        for col in 0..COLS as i32 {
            for row in 0..ROWS as i32 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..4).map(|k| (col + k * dc, row + k * dr)).collect();
                    if cells.iter().all(|&(c, r)| {
                        (0..COLS as i32).contains(&c) && (0..ROWS as i32).contains(&r)
                    }) {
                        all.push(
                            cells
                                .iter()
                                .map(|&(c, r)| bit(c as usize, r as usize))
                                .sum(),
                        );
                    }
                }
            }
        }
        all
    })
}

impl ConnectFour {
    pub fn new() -> Self {
        ConnectFour {
            stones: [0; 2],
            heights: [0; COLS],
            moves: 0,
        }
    }

    pub fn to_move(&self) -> Player {
        self.moves % 2
    }

    pub fn winner(&self) -> Option<Player> {
        (0..2).find(|&p| has_four(self.stones[p]))
    }

    fn over(&self) -> bool {
        self.winner().is_some() || self.moves == ROWS * COLS
    }

    /// Open columns (0-based), left to right; none once the game is over.
    pub fn legal_columns(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..COLS).filter(|&c| self.heights[c] < ROWS).collect()
    }

    /// Drops the mover's stone in `col` (0-based), which must be open.
    pub fn drop_stone(&mut self, col: usize) {
        self.stones[self.to_move()] |= bit(col, self.heights[col]);
        self.heights[col] += 1;
        self.moves += 1;
    }

    /// Whether dropping in `col` would give `player` four in a row.
    pub fn wins_at(&self, col: usize, player: Player) -> bool {
        self.heights[col] < ROWS && has_four(self.stones[player] | bit(col, self.heights[col]))
    }

    fn cell(&self, col: usize, row: usize) -> char {
        if self.stones[0] & bit(col, row) != 0 {
            'X'
        } else if self.stones[1] & bit(col, row) != 0 {
            'O'
        } else {
            '.'
        }
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = (0..ROWS)
            .rev()
            .map(|r| (0..COLS).map(|c| self.cell(c, r)).collect())
            .collect();
        rows.join("\n")
    }
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new()
    }
}

impl Search for ConnectFour {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move()
    }

    fn moves(&self) -> Vec<usize> {
        ORDER
            .iter()
            .copied()
            .filter(|&c| self.heights[c] < ROWS)
            .collect()
    }

    fn play(&mut self, col: usize) {
        self.drop_stone(col);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        match self.winner() {
            Some(w) => Some(Some(w)),
            None if self.moves == ROWS * COLS => Some(None),
            None => None,
        }
    }

    /// Open lines weighted by how full they are, plus centre stones.
    fn evaluate(&self) -> i32 {
        const WEIGHT: [i32; 4] = [0, 1, 8, 60];
        let mut score = 0;
        for &w in windows() {
            let (a, b) = (
                (self.stones[0] & w).count_ones(),
                (self.stones[1] & w).count_ones(),
            );
            if b == 0 && a < 4 {
                score += WEIGHT[a as usize];
            } else if a == 0 && b < 4 {
                score -= WEIGHT[b as usize];
            }
        }
        let centre: u64 = (0..ROWS).map(|r| bit(3, r)).sum();
        score
            + 4 * ((self.stones[0] & centre).count_ones() as i32
                - (self.stones[1] & centre).count_ones() as i32)
    }
}

impl Env for ConnectFour {
    type Config = ConnectFourConfig;
    type Task = ConnectFourTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/connect-four-v1",
        kind: EnvKind::Game,
        description: "Connect Four on a 6x7 board; alpha-beta oracle (6 plies, line-count heuristic)",
        players: 2,
        max_steps: ROWS * COLS,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening moves, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 16}"#, r#"{"opening_moves": 8}"#, "{}"];

    /// Plies left times the columns each offers at most.
    fn effort(task: &ConnectFourTask) -> Option<f64> {
        Some(((ROWS * COLS - task.opening.len()) * COLS) as f64)
    }

    fn validate(config: &ConnectFourConfig) -> Result<(), ConfigError> {
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &ConnectFourConfig, rng: &mut Rng) -> ConnectFourTask {
        let mut game = ConnectFour::new();
        let mut opening = Vec::new();
        while opening.len() < config.opening_moves {
            let mover = game.to_move();
            let quiet: Vec<usize> = game
                .legal_columns()
                .into_iter()
                .filter(|&c| !game.wins_at(c, mover))
                .collect();
            let Some(&col) = rng.choose(&quiet) else {
                break;
            };
            game.drop_stone(col);
            opening.push(col);
        }
        ConnectFourTask { opening }
    }

    fn reset(task: &ConnectFourTask, _rng: Rng) -> Self {
        let mut game = ConnectFour::new();
        for &col in &task.opening {
            game.drop_stone(col);
        }
        game
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let mark = if player == 0 { 'X' } else { 'O' };
        let legal: Vec<String> = self
            .legal_columns()
            .iter()
            .map(|c| (c + 1).to_string())
            .collect();
        let status = match self.winner() {
            Some(w) => format!("Game over: {} wins.", if w == 0 { 'X' } else { 'O' }),
            None if self.over() => "Game over: draw.".to_string(),
            None if self.to_move() == player => {
                format!(
                    "Your move. Legal columns: {}. Reply with one column number.",
                    legal.join(", ")
                )
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Connect Four. You play {mark}; X moves first. Drop stones into columns; \
                 four in a row across, down or diagonally wins.\n1234567\n{}\n{status}",
                self.grid()
            ),
            structured: json!({
                "rows": self.grid().lines().collect::<Vec<_>>(),
                "you": mark.to_string(),
                "to_move": if self.over() { json!(null) } else { json!(self.to_move()) },
            }),
            legal_actions: Some(if self.to_move() == player {
                legal
            } else {
                Vec::new()
            }),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let names: Vec<String> = (1..=COLS).map(|c| c.to_string()).collect();
        pick(
            text,
            names.iter().enumerate().map(|(c, n)| (n.as_str(), c)),
            "reply with one column number 1-7",
        )
    }

    fn apply(&mut self, _player: Player, col: usize) -> Result<Vec<String>, InvalidAction> {
        if self.heights[col] >= ROWS {
            return Err(InvalidAction::new(format!("column {} is full", col + 1)));
        }
        self.drop_stone(col);
        Ok(match self.winner() {
            Some(w) => vec![format!("{} wins", if w == 0 { 'X' } else { 'O' })],
            None if self.over() => vec!["draw".to_string()],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|c| (c + 1).to_string())
    }

    /// Win or block, else a random column.
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, |_, _| 0).map(|c| (c + 1).to_string())
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cols: &[usize]) -> ConnectFour {
        let mut game = ConnectFour::new();
        for &c in cols {
            let p = game.to_move();
            game.apply(p, c - 1).unwrap();
        }
        game
    }

    /// Wins at once if it can, else blocks the opponent's immediate win,
    /// else plays a random open column.
    fn win_or_block(game: &ConnectFour, rng: &mut Rng) -> usize {
        let me = game.to_move();
        let legal = game.legal_columns();
        legal
            .iter()
            .copied()
            .find(|&c| game.wins_at(c, me))
            .or_else(|| legal.iter().copied().find(|&c| game.wins_at(c, 1 - me)))
            .unwrap_or_else(|| *rng.choose(&legal).unwrap())
    }

    #[test]
    fn stones_stack_and_lines_win_in_every_direction() {
        let game = play(&[4, 4, 5, 3, 4]);
        assert_eq!(
            game.render(),
            ".......\n.......\n.......\n...X...\n...O...\n..OXX.."
        );
        let across = play(&[1, 1, 2, 2, 3, 3, 4]);
        assert_eq!(across.winner(), Some(0));
        let down = play(&[1, 2, 1, 2, 1, 2, 7, 2]);
        assert_eq!(down.winner(), Some(1));
        let rising = play(&[1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4]);
        assert_eq!(rising.winner(), Some(0));
        assert_eq!(
            rising.render(),
            ".......\n.......\n...X...\n..XX...\n.XXO...\nXOOO..O"
        );
        let falling = play(&[7, 6, 6, 5, 5, 4, 5, 4, 4, 1, 4]);
        assert_eq!(falling.winner(), Some(0));
        assert_eq!(falling.turn(), Turn::Over);
        assert_eq!(falling.score(0).reward + falling.score(1).reward, 0.0);
        // Three in a row plus a stone beyond a gap is no win.
        assert_eq!(play(&[1, 1, 2, 2, 3, 3, 5]).winner(), None);
        // No wrap-around from the top of one column to the next.
        let stacked = play(&[1, 2, 1, 2, 1, 2, 2, 1, 2, 1, 2, 1, 7, 3]);
        assert_eq!(stacked.winner(), None, "\n{}", stacked.render());
    }

    #[test]
    fn full_columns_and_hedges_are_refused_and_text_is_exact() {
        let mut game = play(&[1, 1, 1, 1, 1, 1]);
        assert!(game.apply(0, 0).is_err());
        assert!(
            !game
                .observe(0)
                .legal_actions
                .unwrap()
                .contains(&"1".to_string())
        );
        assert_eq!(game.parse_action(0, "column 4"), Ok(3));
        assert!(game.parse_action(0, "3 or 4").is_err());
        assert!(game.parse_action(0, "8").is_err());
        assert!(game.parse_action(0, "34").is_err());
        assert_eq!(
            play(&[4]).observe(1).text,
            "Connect Four. You play O; X moves first. Drop stones into columns; four in a row across, \
             down or diagonally wins.\n1234567\n.......\n.......\n.......\n.......\n.......\n...X...\n\
             Your move. Legal columns: 1, 2, 3, 4, 5, 6, 7. Reply with one column number."
        );
    }

    #[test]
    fn the_oracle_takes_wins_and_blocks() {
        // X threatens 1-2-3-_: O must block at 4.
        assert_eq!(play(&[1, 7, 2, 7, 3]).oracle(1).as_deref(), Some("4"));
        // X can win at once in column 4.
        assert_eq!(play(&[1, 7, 2, 7, 3, 6]).oracle(0).as_deref(), Some("4"));
    }

    #[test]
    fn the_oracle_beats_a_ladder_of_opponents_from_both_seats() {
        // Beating random play is a weak test here ("always centre" already
        // wins most games), so the ladder tops out at win-or-block.
        type Opponent = fn(&ConnectFour, &mut Rng) -> usize;
        fn random(game: &ConnectFour, rng: &mut Rng) -> usize {
            *rng.choose(&game.legal_columns()).unwrap()
        }
        fn centre(game: &ConnectFour, rng: &mut Rng) -> usize {
            if game.heights[3] < ROWS {
                3
            } else {
                random(game, rng)
            }
        }
        let ladder: [(&str, Opponent, u64); 3] = [
            ("random", random, 20),
            ("centre", centre, 20),
            ("win-or-block", win_or_block, 50),
        ];
        for (name, opponent, games) in ladder {
            for oracle_seat in 0..2 {
                let mut wins = 0;
                for seed in 0..games {
                    let mut rng = Rng::from_seed(seed);
                    let mut game = ConnectFour::new();
                    while !game.over() {
                        let col = if game.to_move() == oracle_seat {
                            best_move(&game, ORACLE_DEPTH).unwrap()
                        } else {
                            opponent(&game, &mut rng)
                        };
                        game.drop_stone(col);
                    }
                    wins += u64::from(game.winner() == Some(oracle_seat));
                }
                eprintln!(
                    "connect four: oracle in seat {oracle_seat} won {wins}/{games} against {name}"
                );
                assert!(
                    wins * 10 >= games * 9,
                    "oracle in seat {oracle_seat} won {wins}/{games} against {name}"
                );
            }
        }
    }
}
