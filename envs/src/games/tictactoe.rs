//! `games/tictactoe-v1`: noughts and crosses on a 3×3 board.
//!
//! # Task
//! The empty board; X (player 0) moves first. There is no chance, so every
//! seed gives the same start.
//!
//! # Action
//! A cell, either its number 1–9 (row by row from the top left) or its
//! coordinates `a1`–`c3` (column letter, row number). Surrounding text is
//! allowed if it holds exactly one cell; an occupied cell is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board with cell numbers on empty squares, whose turn it is, and the
//! legal moves (also as `legal_actions`). Both players see everything.
//!
//! # Reward
//! +1 to the winner and −1 to the loser at the end, 0 each for a draw
//! (zero-sum). `passed` means the player won. Breakdown: `win`, `draw`.
//!
//! # Episode end
//! Three in a row, or a full board.
//!
//! # Parameters
//! `opening_moves` (0–4, default 0): random moves already on the board.
//! Presets `standard` (empty board) and, on the difficulty scale
//! (`LEVELS`), `easy` (4 opening moves), `medium` (2), `hard` (none).
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
    Search, is_zero, standard_then_graded, validate_opening, win_block_greedy,
};
use crate::rng::Rng;

const CELLS: usize = 9;
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];
/// Number of board encodings in base 3.
const STATES: usize = 19_683;

/// Most random opening moves: with four on the board nobody has won yet.
const MAX_OPENING: usize = 4;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicTacToeConfig {
    /// Random moves already on the board at the start (0–4): the fewer,
    /// the more of the game is left to play.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TicTacToeTask {
    /// Cells (0-based) already played, alternately from X.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opening: Vec<usize>,
}

/// A square: empty, or taken by player 0 (X) or 1 (O).
type Cell = Option<Player>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    board: [Cell; CELLS],
}

impl TicTacToe {
    fn to_move(&self) -> Player {
        self.board.iter().filter(|c| c.is_some()).count() % 2
    }

    fn winner(&self) -> Option<Player> {
        winner_of(&self.board)
    }

    fn full(&self) -> bool {
        self.board.iter().all(Option::is_some)
    }

    fn legal_cells(&self) -> Vec<usize> {
        if self.winner().is_some() {
            return Vec::new();
        }
        (0..CELLS).filter(|&i| self.board[i].is_none()).collect()
    }

    fn grid(&self, numbered: bool) -> String {
        let mut out = String::new();
        for row in 0..3 {
            for col in 0..3 {
                let i = row * 3 + col;
                out.push(match self.board[i] {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None if numbered => char::from(b'1' + i as u8),
                    None => '.',
                });
            }
            if row < 2 {
                out.push('\n');
            }
        }
        out
    }
}

fn winner_of(board: &[Cell; CELLS]) -> Option<Player> {
    LINES.iter().find_map(|l| match board[l[0]] {
        Some(p) if board[l[1]] == Some(p) && board[l[2]] == Some(p) => Some(p),
        _ => None,
    })
}

fn encode(board: &[Cell; CELLS]) -> usize {
    board
        .iter()
        .fold(0, |acc, c| acc * 3 + c.map_or(0, |p| p + 1))
}

/// Game value for the player to move, for every reachable board: +1 win,
/// 0 draw, −1 loss under perfect play. Computed once, read-only after.
fn solved_values() -> &'static [i8; STATES] {
    static TABLE: OnceLock<Box<[i8; STATES]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([i8::MIN; STATES]);
        negamax(&mut [None; CELLS], 0, &mut table);
        table
    })
}

fn negamax(board: &mut [Cell; CELLS], mover: Player, table: &mut [i8; STATES]) -> i8 {
    let key = encode(board);
    if table[key] != i8::MIN {
        return table[key];
    }
    let value = if winner_of(board).is_some() {
        -1 // the previous mover just won
    } else if board.iter().all(Option::is_some) {
        0
    } else {
        let mut best = -1;
        for i in 0..CELLS {
            if board[i].is_none() {
                board[i] = Some(mover);
                best = best.max(-negamax(board, 1 - mover, table));
                board[i] = None;
            }
        }
        best
    };
    table[key] = value;
    value
}

/// For the win-or-block heuristic only (the oracle reads the solved table).
impl Search for TicTacToe {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move()
    }

    fn moves(&self) -> Vec<usize> {
        self.legal_cells()
    }

    fn play(&mut self, cell: usize) {
        self.board[cell] = Some(self.to_move());
    }

    fn outcome(&self) -> Option<Option<Player>> {
        match self.winner() {
            Some(w) => Some(Some(w)),
            None if self.full() => Some(None),
            None => None,
        }
    }

    fn evaluate(&self) -> i32 {
        0
    }
}

/// Reads one cell from text: a digit 1–9 or `a1`–`c3`.
fn parse_cell(text: &str) -> Result<usize, InvalidAction> {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut cells = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        let prev_alnum = i > 0 && bytes[i - 1].is_ascii_alphanumeric();
        let next_alnum = bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
        if (b'1'..=b'9').contains(&b) && !prev_alnum && !next_alnum {
            cells.push((b - b'1') as usize);
        }
        if (b'a'..=b'c').contains(&b)
            && !prev_alnum
            && let Some(&r) = bytes.get(i + 1)
            && (b'1'..=b'3').contains(&r)
            && !bytes.get(i + 2).is_some_and(u8::is_ascii_alphanumeric)
        {
            cells.push((r - b'1') as usize * 3 + (b - b'a') as usize);
        }
    }
    cells.dedup();
    match cells.as_slice() {
        [cell] => Ok(*cell),
        [] => Err(InvalidAction::new(
            "name one cell: a number 1-9 or a coordinate a1-c3",
        )),
        _ => Err(InvalidAction::new("name exactly one cell, not several")),
    }
}

impl Env for TicTacToe {
    type Config = TicTacToeConfig;
    type Task = TicTacToeTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/tictactoe-v1",
        kind: EnvKind::Game,
        description: "Tic-tac-toe for two players; perfect-play oracle by solved negamax table",
        players: 2,
        max_steps: CELLS,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &standard_then_graded(Self::LEVELS),
    };

    /// Fewer random opening moves, more game to play.
    const LEVELS: &'static [&'static str] =
        &[r#"{"opening_moves": 4}"#, r#"{"opening_moves": 2}"#, "{}"];

    /// Plies left times the choices each offers: the sum of the branching
    /// factors along a full game from the start.
    fn effort(task: &TicTacToeTask) -> Option<f64> {
        let empty = CELLS - task.opening.len();
        Some((empty * (empty + 1) / 2) as f64)
    }

    fn validate(config: &TicTacToeConfig) -> Result<(), ConfigError> {
        validate_opening(config.opening_moves, MAX_OPENING)
    }

    fn generate(config: &TicTacToeConfig, rng: &mut Rng) -> TicTacToeTask {
        let mut cells: Vec<usize> = (0..CELLS).collect();
        if config.opening_moves > 0 {
            rng.shuffle(&mut cells);
        }
        cells.truncate(config.opening_moves);
        TicTacToeTask { opening: cells }
    }

    fn reset(task: &TicTacToeTask, _rng: Rng) -> Self {
        let mut board = [None; CELLS];
        for (ply, &cell) in task.opening.iter().enumerate() {
            board[cell] = Some(ply % 2);
        }
        TicTacToe { board }
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.full() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let mark = if player == 0 { 'X' } else { 'O' };
        let legal: Vec<String> = self
            .legal_cells()
            .iter()
            .map(|i| (i + 1).to_string())
            .collect();
        let status = match (self.winner(), self.full()) {
            (Some(w), _) => format!("Game over: {} wins.", if w == 0 { 'X' } else { 'O' }),
            (None, true) => "Game over: draw.".to_string(),
            (None, false) if self.to_move() == player => {
                format!(
                    "Your move. Legal cells: {}. Reply with one cell number.",
                    legal.join(", ")
                )
            }
            (None, false) => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Tic-tac-toe. You play {mark}; X moves first. Get three in a row.\n{}\n{status}",
                self.grid(true)
            ),
            structured: json!({
                "board": self.grid(false).replace('\n', ""),
                "you": mark.to_string(),
                "to_move": if self.turn() == Turn::Over { json!(null) } else { json!(self.to_move()) },
            }),
            legal_actions: Some(legal),
        }
    }

    /// The default's uniform draw over the observation's legal cells,
    /// without rendering the observation.
    fn random_action(&self, _player: Player, rng: &mut Rng) -> String {
        let legal = self.legal_cells();
        if legal.is_empty() {
            return rng.range_i64(-20, 20).to_string();
        }
        (legal[rng.below(legal.len() as u64) as usize] + 1).to_string()
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        parse_cell(text)
    }

    fn apply(&mut self, player: Player, cell: usize) -> Result<Vec<String>, InvalidAction> {
        if self.board[cell].is_some() {
            return Err(InvalidAction::new(format!("cell {} is taken", cell + 1)));
        }
        self.board[cell] = Some(player);
        let mut events = Vec::new();
        if let Some(w) = self.winner() {
            events.push(format!("{} wins", if w == 0 { 'X' } else { 'O' }));
        } else if self.full() {
            events.push("draw".to_string());
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        match self.winner() {
            Some(w) if w == player => Score::default().with(1.0, true).part("win", 1.0),
            Some(_) => Score::default().with(-1.0, false).part("win", 0.0),
            None if self.full() => Score::default().part("draw", 1.0),
            None => Score::default(),
        }
    }

    /// A perfect move: the first cell (in order) of greatest game value.
    fn oracle(&self, player: Player) -> Option<String> {
        let table = solved_values();
        let mut board = self.board;
        self.legal_cells()
            .into_iter()
            .max_by_key(|&i| {
                board[i] = Some(player);
                let value = -table[encode(&board)];
                board[i] = None;
                (value, std::cmp::Reverse(i))
            })
            .map(|i| (i + 1).to_string())
    }

    /// Win or block, else a random cell.
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, |_, _| 0).map(|i| (i + 1).to_string())
    }

    fn render(&self) -> String {
        self.grid(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cells: &[usize]) -> TicTacToe {
        let mut game = TicTacToe::reset(&TicTacToeTask::default(), Rng::from_seed(0));
        for &c in cells {
            let p = game.to_move();
            game.apply(p, c - 1).unwrap();
        }
        game
    }

    #[test]
    fn the_empty_board_is_a_draw_and_the_table_agrees_with_known_values() {
        let table = solved_values();
        assert_eq!(table[0], 0);
        // After X takes a corner and O an adjacent edge, X wins.
        assert_eq!(
            -table[encode(&play(&[1, 2]).board)],
            -1,
            "O to move has lost"
        );
    }

    #[test]
    fn wins_draws_and_text_are_exact() {
        let game = play(&[1, 4, 2, 5, 3]);
        assert_eq!(game.winner(), Some(0));
        assert_eq!(game.render(), "XXX\nOO.\n...");
        assert_eq!(game.turn(), Turn::Over);
        assert_eq!(game.score(0).reward, 1.0);
        assert_eq!(game.score(1).reward, -1.0);
        assert_eq!(game.observe(1).legal_actions, Some(vec![]));
        let draw = play(&[1, 2, 3, 5, 4, 6, 8, 7, 9]);
        assert_eq!(draw.winner(), None);
        assert_eq!(draw.score(0).reward + draw.score(1).reward, 0.0);
        assert!(draw.observe(0).text.ends_with("Game over: draw."));
        assert_eq!(
            play(&[5]).observe(1).text,
            "Tic-tac-toe. You play O; X moves first. Get three in a row.\n123\n4X6\n789\nYour move. Legal cells: 1, 2, 3, 4, 6, 7, 8, 9. Reply with one cell number."
        );
    }

    #[test]
    fn cells_parse_leniently_but_unambiguously() {
        assert_eq!(parse_cell("5"), Ok(4));
        assert_eq!(parse_cell("I play b2."), Ok(4));
        assert_eq!(parse_cell("c1"), Ok(2));
        assert_eq!(parse_cell("cell 9"), Ok(8));
        for bad in ["", "10", "0", "5 or 6", "a1 b2", "d4", "x"] {
            assert!(parse_cell(bad).is_err(), "{bad:?} accepted");
        }
        let mut game = play(&[5]);
        assert!(game.apply(1, 4).is_err(), "taken cell accepted");
    }

    #[test]
    fn the_oracle_never_loses_from_either_seat_against_every_reply() {
        // Exhaustive: every sequence of opponent moves against the oracle.
        fn explore(game: &TicTacToe, oracle_seat: Player) {
            if game.turn() == Turn::Over {
                assert_ne!(
                    game.winner(),
                    Some(1 - oracle_seat),
                    "oracle lost:\n{}",
                    game.render()
                );
                return;
            }
            let mover = game.to_move();
            if mover == oracle_seat {
                let cell: usize = game.oracle(mover).unwrap().parse().unwrap();
                let mut next = game.clone();
                next.apply(mover, cell - 1).unwrap();
                explore(&next, oracle_seat);
            } else {
                for cell in game.legal_cells() {
                    let mut next = game.clone();
                    next.apply(mover, cell).unwrap();
                    explore(&next, oracle_seat);
                }
            }
        }
        for seat in 0..2 {
            explore(&play(&[]), seat);
        }
    }
}
