//! `games/breakthrough-v1`: Breakthrough, the race-to-the-far-row pawn game.
//!
//! # Task
//! Two full rows of pawns each: White (player 0, `W`) on rows 1–2 moving
//! up, Black (player 1, `B`) on the top two rows moving down. White moves
//! first. No chance.
//!
//! # Action
//! A move `from-to` like `b2-b3` (also `b2b3` or `b2 b3`): one square
//! straight forward onto an empty square, or diagonally forward onto an
//! empty square or an opponent's pawn (which is captured). Text naming two
//! moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board with coordinates (row 1 at the bottom), whose turn it is and
//! the legal moves. Both players see everything.
//!
//! # Reward
//! Reaching the opponent's home row, or capturing all their pawns, wins:
//! +1 to the winner, −1 to the loser (zero-sum; no draws). A player with
//! no legal move loses. `passed` means a win. Breakdown: `win`.
//!
//! # Episode end
//! A win. Every move advances a pawn one row, so a game is at most
//! 2 × pawns × (rows − 1) moves.
//!
//! # Parameters
//! `size` (5–8, a square board). Presets `small` (5×5), `medium` (6×6),
//! `standard` (8×8); on the difficulty scale (`LEVELS`, sizes 5–8) `easy`
//! is 5×5 and `hard` 8×8.
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

const MAX_SIZE: usize = 8;
const PAWNS: [char; 2] = ['W', 'B'];
/// Plies the oracle searches.
const ORACLE_DEPTH: u32 = 3;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BreakthroughConfig {
    pub size: usize,
}

impl Default for BreakthroughConfig {
    fn default() -> Self {
        BreakthroughConfig { size: 6 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakthroughTask {
    pub size: usize,
}

/// Squares are `row * size + col`, row 0 being White's home row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    size: usize,
    board: Vec<Option<Player>>,
    to_move: Player,
}

fn square_name(size: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % size) as u8) as char, i / size + 1)
}

impl Breakthrough {
    fn new(size: usize) -> Self {
        let mut board = vec![None; size * size];
        for i in 0..2 * size {
            board[i] = Some(0);
            board[size * size - 1 - i] = Some(1);
        }
        Breakthrough {
            size,
            board,
            to_move: 0,
        }
    }

    fn forward(player: Player) -> i32 {
        if player == 0 { 1 } else { -1 }
    }

    fn moves_of(&self, player: Player) -> Vec<(usize, usize)> {
        let n = self.size as i32;
        let mut moves = Vec::new();
        for (i, c) in self.board.iter().enumerate() {
            if *c != Some(player) {
                continue;
            }
            let (r, col) = ((i / self.size) as i32, (i % self.size) as i32);
            let nr = r + Self::forward(player);
            if !(0..n).contains(&nr) {
                continue;
            }
            for dc in [-1, 0, 1] {
                let nc = col + dc;
                if !(0..n).contains(&nc) {
                    continue;
                }
                let j = (nr * n + nc) as usize;
                let ok = match self.board[j] {
                    None => true,
                    Some(q) => dc != 0 && q != player,
                };
                if ok {
                    moves.push((i, j));
                }
            }
        }
        moves
    }

    fn winner(&self) -> Option<Player> {
        let last = self.size * (self.size - 1);
        if self.board[last..].contains(&Some(0)) || !self.board.contains(&Some(1)) {
            return Some(0);
        }
        if self.board[..self.size].contains(&Some(1)) || !self.board.contains(&Some(0)) {
            return Some(1);
        }
        // A player to move with no move loses.
        self.moves_of(self.to_move)
            .is_empty()
            .then_some(1 - self.to_move)
    }

    fn legal(&self) -> Vec<(usize, usize)> {
        if self.winner().is_some() {
            Vec::new()
        } else {
            self.moves_of(self.to_move)
        }
    }

    fn shift(&mut self, (from, to): (usize, usize)) {
        self.board[to] = self.board[from].take();
        self.to_move = 1 - self.to_move;
    }

    fn move_name(&self, (from, to): (usize, usize)) -> String {
        format!(
            "{}-{}",
            square_name(self.size, from),
            square_name(self.size, to)
        )
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = self
            .board
            .chunks(self.size)
            .rev()
            .map(|row| row.iter().map(|c| c.map_or('.', |p| PAWNS[p])).collect())
            .collect();
        rows.join("\n")
    }
}

impl Search for Breakthrough {
    type Move = (usize, usize);

    fn mover(&self) -> Player {
        self.to_move
    }

    /// Captures and the most advanced pushes first.
    fn moves(&self) -> Vec<(usize, usize)> {
        let mut moves = self.moves_of(self.to_move);
        let progress = |to: usize| {
            if self.to_move == 0 {
                to / self.size
            } else {
                self.size - 1 - to / self.size
            }
        };
        moves.sort_by_key(|&(_, to)| std::cmp::Reverse((self.board[to].is_some(), progress(to))));
        moves
    }

    fn play(&mut self, mv: (usize, usize)) {
        self.shift(mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.winner().map(Some)
    }

    /// Material, advancement (growing steeply near the goal) and safety.
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for (i, c) in self.board.iter().enumerate() {
            let Some(p) = c else { continue };
            let row = i / self.size;
            let advance = if *p == 0 { row } else { self.size - 1 - row } as i32;
            let value = 100 + advance * advance * 4;
            score += if *p == 0 { value } else { -value };
        }
        score
    }
}

impl Env for Breakthrough {
    type Config = BreakthroughConfig;
    type Task = BreakthroughTask;
    type Action = (usize, usize);

    const SPEC: EnvSpec = EnvSpec {
        id: "games/breakthrough-v1",
        kind: EnvKind::Game,
        description: "Breakthrough on 5x5 to 8x8 boards; alpha-beta oracle (material and advancement)",
        players: 2,
        max_steps: 2 * 2 * MAX_SIZE * (MAX_SIZE - 1),
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &Preset::graded_after::<5>(
            &[
                Preset {
                    name: "small",
                    overrides: r#"{"size": 5}"#,
                },
                Preset {
                    name: "standard",
                    overrides: r#"{"size": 8}"#,
                },
            ],
            Self::LEVELS,
            [0, 1, 3],
        ),
    };

    /// Board sizes, smallest first.
    const LEVELS: &'static [&'static str] =
        &[r#"{"size": 5}"#, "{}", r#"{"size": 7}"#, r#"{"size": 8}"#];

    /// Steps the whole army would take to cross: pieces times rows.
    fn effort(task: &BreakthroughTask) -> Option<f64> {
        Some((2 * task.size * (task.size - 1)) as f64)
    }

    fn validate(config: &BreakthroughConfig) -> Result<(), ConfigError> {
        if (5..=MAX_SIZE).contains(&config.size) {
            Ok(())
        } else {
            Err(format!("size must be in 5..={MAX_SIZE}, got {}", config.size).into())
        }
    }

    fn generate(config: &BreakthroughConfig, _rng: &mut Rng) -> BreakthroughTask {
        BreakthroughTask { size: config.size }
    }

    fn reset(task: &BreakthroughTask, _rng: Rng) -> Self {
        Breakthrough::new(task.size)
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() {
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
            .map(|(k, line)| format!("{} {line}", n - k))
            .collect();
        let letters: String = (0..n).map(|c| (b'a' + c as u8) as char).collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal()
                .into_iter()
                .map(|m| self.move_name(m))
                .collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.to_move == player => {
                format!("Your move. Legal moves: {}.", legal.join(", "))
            }
            None => "Waiting for the opponent.".to_string(),
        };
        let direction = if player == 0 {
            "up (towards row {n})"
        } else {
            "down (towards row 1)"
        };
        Observation {
            text: format!(
                "Breakthrough {n}x{n}. You play {}, moving {}; W moves first. A pawn moves one square straight \
                 forward to an empty square, or diagonally forward to an empty square or onto an enemy pawn to \
                 capture it. Reach the far row, or capture every enemy pawn, to win.\n{}\n  {letters}\n{status}",
                PAWNS[player],
                direction.replace("{n}", &n.to_string()),
                rows.join("\n"),
            ),
            structured: json!({
                "rows_top_first": self.grid().lines().collect::<Vec<_>>(),
                "you": PAWNS[player].to_string(),
                "to_move": if self.winner().is_some() { json!(null) } else { json!(self.to_move) },
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, player: Player, text: &str) -> Result<(usize, usize), InvalidAction> {
        let mut phrases = Vec::new();
        for m in self.moves_of(player) {
            let (a, b) = (square_name(self.size, m.0), square_name(self.size, m.1));
            phrases.push((format!("{a} {b}"), m));
            phrases.push((format!("{a}{b}"), m));
        }
        pick(
            text,
            phrases.iter().map(|(p, m)| (p.as_str(), *m)),
            "reply with one legal move like `b2-b3`",
        )
    }

    fn apply(&mut self, _player: Player, mv: (usize, usize)) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&mv) {
            return Err(InvalidAction::new(format!(
                "{} is not a legal move",
                self.move_name(mv)
            )));
        }
        self.shift(mv);
        Ok(self
            .winner()
            .map(|w| vec![format!("{} wins", PAWNS[w])])
            .unwrap_or_default())
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.winner().is_some(), player)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        best_move(self, ORACLE_DEPTH).map(|m| self.move_name(m))
    }

    /// Win or block, else greedy capture (most pieces over the opponent's;
    /// random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        let pieces = |s: &Self, p: Player| s.board.iter().filter(|c| **c == Some(p)).count() as i32;
        win_block_greedy(self, rng, |s, p| pieces(s, p) - pieces(s, 1 - p))
            .map(|m| self.move_name(m))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::common::play_moves;

    fn play(size: usize, moves: &[&str]) -> Breakthrough {
        play_moves(Breakthrough::new(size), moves)
    }

    #[test]
    fn pawns_move_forward_and_capture_diagonally() {
        let g = play(5, &["b2-b3", "c4-c3", "b3-c4"]);
        assert_eq!(g.render(), "BBBBB\nBBWBB\n..B..\nW.WWW\nWWWWW");
        assert!(g.parse_action(1, "c3-c2").is_err(), "no straight captures");
        let g = play(5, &["b2-b3", "c4-c3", "b3-c4", "c3-d2"]);
        assert_eq!(g.render(), "BBBBB\nBBWBB\n.....\nW.WBW\nWWWWW");
        assert_eq!(
            g.board.iter().filter(|c| **c == Some(0)).count(),
            9,
            "d2 was captured"
        );
    }

    #[test]
    fn reaching_the_far_row_wins() {
        let g = play(5, &["a2-a3", "e4-e3", "a3-b4", "e3-d2", "b4-a5"]);
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.score(1).reward, -1.0);
        assert!(g.observe(0).text.ends_with("Game over: you win."));
    }

    #[test]
    fn illegal_moves_and_hedges_are_refused() {
        let mut g = Breakthrough::new(5);
        assert!(g.parse_action(0, "b2-b4").is_err(), "two squares");
        assert!(g.parse_action(0, "b1-b2").is_err(), "onto own pawn");
        assert!(g.parse_action(0, "b2-b3 or c2-c3").is_err());
        assert!(g.parse_action(0, "d4-d3").is_err(), "the opponent's pawn");
        assert_eq!(g.parse_action(0, "I move B2B3"), Ok((6, 11)));
        assert_eq!(
            g.observe(0).text,
            "Breakthrough 5x5. You play W, moving up (towards row 5); W moves first. A pawn moves one square \
             straight forward to an empty square, or diagonally forward to an empty square or onto an enemy pawn \
             to capture it. Reach the far row, or capture every enemy pawn, to win.\n5 BBBBB\n4 BBBBB\n3 .....\n2 \
             WWWWW\n1 WWWWW\n  abcde\nYour move. Legal moves: a2-a3, a2-b3, b2-a3, b2-b3, b2-c3, c2-b3, c2-c3, \
             c2-d3, d2-c3, d2-d3, d2-e3, e2-d3, e2-e3."
        );
        g.apply(0, (6, 11)).unwrap();
        assert!(g.apply(1, (6, 11)).is_err());
    }

    #[test]
    fn the_oracle_beats_random_play_from_both_seats() {
        const GAMES: u64 = 20;
        for seat in 0..2 {
            let mut wins = 0;
            for seed in 0..GAMES {
                let mut rng = Rng::from_seed(seed);
                let mut g = Breakthrough::new(6);
                while g.winner().is_none() {
                    let mv = if g.to_move == seat {
                        best_move(&g, ORACLE_DEPTH).unwrap()
                    } else {
                        *rng.choose(&g.legal()).unwrap()
                    };
                    g.shift(mv);
                }
                wins += u64::from(g.winner() == Some(seat));
            }
            eprintln!("breakthrough 6x6: oracle in seat {seat} won {wins}/{GAMES} against random");
            assert!(wins * 100 >= GAMES * 95, "seat {seat}: {wins}/{GAMES}");
        }
    }
}
