//! `games/hex-v1`: Hex on a small rhombus board.
//!
//! # Task
//! The empty n×n board. X (player 0) connects the top edge to the bottom
//! edge, O (player 1) the left edge to the right edge. X moves first; there
//! is no swap rule. No chance.
//!
//! # Action
//! An empty cell like `c2` (column letter, row number from the top). Text
//! naming two cells is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board drawn as a rhombus (each row shifted right by one more
//! space), whose turn it is and the empty cells. Cell (r, c) touches
//! (r, c±1), (r−1, c), (r−1, c+1), (r+1, c−1) and (r+1, c). Both players
//! see everything.
//!
//! # Reward
//! A chain of your stones joining your two edges wins: +1 to the winner,
//! −1 to the loser (zero-sum). Hex has no draws. `passed` means a win.
//! Breakdown: `win`.
//!
//! # Episode end
//! A connection (at most n² moves).
//!
//! # Parameters
//! `size` (3–11). Presets `easy` (5×5), `medium` (7×7), `hard` (9×9).
//!
//! # Seeding
//! Fixed start; the seed matters only to random agents.
//!
//! # Version history
//! v1: first version.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{Search, best_move, evaluation_for, pick, win_block_greedy, win_loss};
use crate::rng::Rng;

const MAX_SIZE: usize = 11;
const STONES: [char; 2] = ['X', 'O'];
const NEIGHBOURS: [(i32, i32); 6] = [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HexConfig {
    pub size: usize,
}

impl Default for HexConfig {
    fn default() -> Self {
        HexConfig { size: 7 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HexTask {
    pub size: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hex {
    size: usize,
    board: Vec<Option<Player>>,
    to_move: Player,
    winner: Option<Player>,
}

fn cell_name(size: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % size) as u8) as char, i / size + 1)
}

impl Hex {
    fn new(size: usize) -> Self {
        Hex {
            size,
            board: vec![None; size * size],
            to_move: 0,
            winner: None,
        }
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.size as i32;
        let (r, c) = ((i / self.size) as i32, (i % self.size) as i32);
        NEIGHBOURS.iter().filter_map(move |(dr, dc)| {
            let (nr, nc) = (r + dr, c + dc);
            ((0..n).contains(&nr) && (0..n).contains(&nc)).then_some((nr * n + nc) as usize)
        })
    }

    /// Whether cell `i` is on `player`'s starting (`far == false`) or
    /// finishing edge: rows for X, columns for O.
    fn on_edge(&self, i: usize, player: Player, far: bool) -> bool {
        let line = if player == 0 {
            i / self.size
        } else {
            i % self.size
        };
        line == if far { self.size - 1 } else { 0 }
    }

    /// Stones `player` still needs to connect, by 0-1 BFS: own stones cost
    /// 0, empty cells 1, the opponent's are walls. `None` if cut off.
    fn distance(&self, player: Player) -> Option<u32> {
        let mut dist = vec![u32::MAX; self.board.len()];
        let mut queue = VecDeque::new();
        for (i, d) in dist.iter_mut().enumerate() {
            if !self.on_edge(i, player, false) {
                continue;
            }
            match self.board[i] {
                Some(p) if p == player => {
                    *d = 0;
                    queue.push_front(i);
                }
                None => {
                    *d = 1;
                    queue.push_back(i);
                }
                Some(_) => {}
            }
        }
        while let Some(i) = queue.pop_front() {
            if self.on_edge(i, player, true) {
                return Some(dist[i]);
            }
            for j in self.neighbours(i) {
                let step = match self.board[j] {
                    Some(p) if p == player => 0,
                    None => 1,
                    Some(_) => continue,
                };
                if dist[i] + step < dist[j] {
                    dist[j] = dist[i] + step;
                    if step == 0 {
                        queue.push_front(j)
                    } else {
                        queue.push_back(j)
                    }
                }
            }
        }
        None
    }

    fn place(&mut self, i: usize) {
        let p = self.to_move;
        self.board[i] = Some(p);
        if self.distance(p) == Some(0) {
            self.winner = Some(p);
        }
        self.to_move = 1 - p;
    }

    fn legal(&self) -> Vec<usize> {
        if self.winner.is_some() {
            return Vec::new();
        }
        (0..self.board.len())
            .filter(|&i| self.board[i].is_none())
            .collect()
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = self
            .board
            .chunks(self.size)
            .enumerate()
            .map(|(r, row)| {
                let cells: Vec<String> = row
                    .iter()
                    .map(|c| c.map_or('.', |p| STONES[p]).to_string())
                    .collect();
                format!("{}{}", " ".repeat(r), cells.join(" "))
            })
            .collect();
        rows.join("\n")
    }
}

impl Search for Hex {
    type Move = usize;

    fn mover(&self) -> Player {
        self.to_move
    }

    /// Cells near the centre first.
    fn moves(&self) -> Vec<usize> {
        let mut moves = self.legal();
        let mid = (self.size as i32 - 1) / 2;
        moves.sort_by_key(|&i| {
            let (r, c) = ((i / self.size) as i32, (i % self.size) as i32);
            (r - mid).abs() + (c - mid).abs()
        });
        moves
    }

    fn play(&mut self, i: usize) {
        self.place(i);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.winner.map(Some)
    }

    /// The difference in stones still needed to connect.
    fn evaluate(&self) -> i32 {
        let far = (self.size * self.size) as i32;
        let need = |p| self.distance(p).map_or(far, |d| d as i32);
        10 * (need(1) - need(0))
    }
}

impl Env for Hex {
    type Config = HexConfig;
    type Task = HexTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/hex-v1",
        kind: EnvKind::Game,
        description: "Hex on 5x5 to 9x9 boards; alpha-beta oracle (shortest-connection heuristic)",
        players: 2,
        max_steps: MAX_SIZE * MAX_SIZE,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"size": 5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"size": 9}"#,
            },
        ],
    };

    fn validate(config: &HexConfig) -> Result<(), ConfigError> {
        if (3..=MAX_SIZE).contains(&config.size) {
            Ok(())
        } else {
            Err(format!("size must be in 3..={MAX_SIZE}, got {}", config.size).into())
        }
    }

    fn generate(config: &HexConfig, _rng: &mut Rng) -> HexTask {
        HexTask { size: config.size }
    }

    fn reset(task: &HexTask, _rng: Rng) -> Self {
        Hex::new(task.size)
    }

    fn turn(&self) -> Turn {
        if self.winner.is_some() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let n = self.size;
        let letters: Vec<String> = (0..n)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        let rows: Vec<String> = self
            .grid()
            .lines()
            .enumerate()
            .map(|(r, line)| format!("{:>2} {line}", r + 1))
            .collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal().into_iter().map(|i| cell_name(n, i)).collect()
        } else {
            Vec::new()
        };
        let goal = if player == 0 {
            "the top edge (row 1) to the bottom edge"
        } else {
            "the left edge (column a) to the right edge"
        };
        let status = match self.winner {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.to_move == player => {
                "Your move: reply with one empty cell like `c2`.".to_string()
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Hex {n}x{n}. You play {}; X moves first. X joins the top and bottom edges, O the left and right \
                 edges. You must join {goal} with a chain of adjacent stones. Cell (row r, column c) touches the \
                 cells left and right of it, the two above it at columns c and c+1, and the two below it at \
                 columns c-1 and c.\n   {}\n{}\n{status}",
                STONES[player],
                letters.join(" "),
                rows.join("\n"),
            ),
            structured: json!({
                "rows": self.board.chunks(n).map(|row| row.iter().map(|c| c.map_or('.', |p| STONES[p])).collect::<String>()).collect::<Vec<_>>(),
                "you": STONES[player].to_string(),
                "to_move": if self.winner.is_some() { json!(null) } else { json!(self.to_move) },
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let names: Vec<String> = (0..self.board.len())
            .map(|i| cell_name(self.size, i))
            .collect();
        pick(
            text,
            names.iter().enumerate().map(|(i, n)| (n.as_str(), i)),
            "reply with one cell like `c2`",
        )
    }

    fn apply(&mut self, _player: Player, i: usize) -> Result<Vec<String>, InvalidAction> {
        if self.board[i].is_some() {
            return Err(InvalidAction::new(format!(
                "{} is taken",
                cell_name(self.size, i)
            )));
        }
        self.place(i);
        Ok(self
            .winner
            .map(|w| vec![format!("{} wins", STONES[w])])
            .unwrap_or_default())
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner, self.winner.is_some(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        let depth = if self.size <= 7 { 2 } else { 1 };
        best_move(self, depth).map(|i| cell_name(self.size, i))
    }

    /// Win or block, else the cell that most shortens its own connection
    /// over the opponent's, one move on (random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, evaluation_for).map(|i| cell_name(self.size, i))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::common::play_moves;

    fn play(size: usize, cells: &[&str]) -> Hex {
        play_moves(Hex::new(size), cells)
    }

    #[test]
    fn chains_along_the_hex_neighbours_win() {
        // X: a1, a2 (below a1 at column c), a3: top to bottom on 3x3.
        let g = play(3, &["a1", "c1", "a2", "c2", "a3"]);
        assert_eq!(g.winner, Some(0));
        assert_eq!(g.render(), "X . O\n X . O\n  X . .");
        // b1 and a2 touch (below at column c-1); b1 and c2 do not.
        let g = play(3, &["b1", "a1", "a2", "b2", "a3"]);
        assert_eq!(g.winner, Some(0), "\n{}", g.render());
        let g = play(3, &["b1", "a2", "c2", "b2", "c3"]);
        assert_eq!(g.winner, None, "b1-c2 is no link:\n{}", g.render());
        // O connects left to right.
        let g = play(3, &["a1", "a2", "b1", "b2", "a3", "c2"]);
        assert_eq!(g.winner, Some(1));
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.score(0).reward, -1.0);
    }

    #[test]
    fn taken_cells_and_hedges_are_refused_and_text_is_exact() {
        let mut g = play(3, &["b2"]);
        assert!(g.apply(1, 4).is_err());
        assert!(g.parse_action(1, "a1 or c3").is_err());
        assert!(g.parse_action(1, "d1").is_err());
        assert_eq!(
            g.observe(1).text,
            "Hex 3x3. You play O; X moves first. X joins the top and bottom edges, O the left and right edges. You \
             must join the left edge (column a) to the right edge with a chain of adjacent stones. Cell (row r, \
             column c) touches the cells left and right of it, the two above it at columns c and c+1, and the two \
             below it at columns c-1 and c.\n   a b c\n 1 . . .\n 2  . X .\n 3   . . .\nYour move: reply with one \
             empty cell like `c2`."
        );
    }

    #[test]
    fn the_oracle_beats_random_play_from_both_seats() {
        const GAMES: u64 = 20;
        for seat in 0..2 {
            let mut wins = 0;
            for seed in 0..GAMES {
                let mut rng = Rng::from_seed(seed);
                let mut g = Hex::new(5);
                while g.winner.is_none() {
                    let i = if g.to_move == seat {
                        best_move(&g, 2).unwrap()
                    } else {
                        *rng.choose(&g.legal()).unwrap()
                    };
                    g.place(i);
                }
                wins += u64::from(g.winner == Some(seat));
            }
            eprintln!("hex 5x5: oracle in seat {seat} won {wins}/{GAMES} against random");
            assert!(wins * 100 >= GAMES * 95, "seat {seat}: {wins}/{GAMES}");
        }
    }
}
