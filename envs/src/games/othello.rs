//! `games/othello-v1`: Othello (Reversi) on a 6×6 or 8×8 board.
//!
//! # Task
//! The standard start: four discs in the centre, Black (player 0, `B`)
//! moves first. No chance.
//!
//! # Action
//! A cell like `d3` (column letter, row number from the top) that
//! outflanks at least one line of the opponent's discs, or `pass` when and
//! only when you have no such move. Text naming two moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The board with coordinates, the disc count, whose turn it is and the
//! legal moves. Both players see everything.
//!
//! # Reward
//! When neither player can move, more discs wins: +1 to the winner, −1 to
//! the loser, 0 each on equal counts (zero-sum). `passed` means a win.
//! Breakdown: `win`/`draw`, `discs`.
//!
//! # Episode end
//! Neither player can move (a full board included).
//!
//! # Parameters
//! `size` 4, 6 or 8. Presets `small` (6×6) and `standard` (8×8); on the
//! difficulty scale (`LEVELS`, by board size) `easy` 4×4, `medium` 6×6,
//! `hard` 8×8.
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
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const DISCS: [char; 2] = ['B', 'W'];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OthelloConfig {
    pub size: usize,
}

impl Default for OthelloConfig {
    fn default() -> Self {
        OthelloConfig { size: 8 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OthelloTask {
    pub size: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    size: usize,
    board: Vec<Option<Player>>,
    to_move: Player,
}

fn cell_name(size: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % size) as u8) as char, i / size + 1)
}

impl Othello {
    fn new(size: usize) -> Self {
        let mut board = vec![None; size * size];
        let m = size / 2;
        board[(m - 1) * size + m - 1] = Some(1);
        board[(m - 1) * size + m] = Some(0);
        board[m * size + m - 1] = Some(0);
        board[m * size + m] = Some(1);
        Othello {
            size,
            board,
            to_move: 0,
        }
    }

    /// Discs `player` would flip by playing at `i`.
    fn flips(&self, i: usize, player: Player) -> Vec<usize> {
        if self.board[i].is_some() {
            return Vec::new();
        }
        let n = self.size as i32;
        let (r0, c0) = ((i / self.size) as i32, (i % self.size) as i32);
        let mut all = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let j = (r * n + c) as usize;
                match self.board[j] {
                    Some(p) if p != player => line.push(j),
                    Some(_) => {
                        all.append(&mut line);
                        break;
                    }
                    None => break,
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    fn placements(&self, player: Player) -> Vec<usize> {
        (0..self.board.len())
            .filter(|&i| !self.flips(i, player).is_empty())
            .collect()
    }

    fn has_move(&self, player: Player) -> bool {
        (0..self.board.len()).any(|i| self.board[i].is_none() && !self.flips(i, player).is_empty())
    }

    fn over(&self) -> bool {
        !self.has_move(self.to_move) && !self.has_move(1 - self.to_move)
    }

    /// Legal moves of the mover: cells, or `None` (pass) when there are none.
    fn legal(&self) -> Vec<Option<usize>> {
        let cells = self.placements(self.to_move);
        if cells.is_empty() {
            if self.has_move(1 - self.to_move) {
                vec![None]
            } else {
                Vec::new()
            }
        } else {
            cells.into_iter().map(Some).collect()
        }
    }

    fn place(&mut self, mv: Option<usize>) {
        if let Some(i) = mv {
            for j in self.flips(i, self.to_move) {
                self.board[j] = Some(self.to_move);
            }
            self.board[i] = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
    }

    fn count(&self, player: Player) -> usize {
        self.board.iter().filter(|c| **c == Some(player)).count()
    }

    fn winner(&self) -> Option<Player> {
        let (a, b) = (self.count(0), self.count(1));
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = self
            .board
            .chunks(self.size)
            .map(|row| row.iter().map(|c| c.map_or('.', |p| DISCS[p])).collect())
            .collect();
        rows.join("\n")
    }

    /// Corner, edge and next-to-corner weights for the heuristic.
    fn weight(&self, i: usize) -> i32 {
        let last = self.size - 1;
        let (r, c) = (i / self.size, i % self.size);
        let edge = |x: usize| x == 0 || x == last;
        let near = |x: usize| x == 1 || x == last - 1;
        match (edge(r), edge(c), near(r), near(c)) {
            (true, true, _, _) => 25,
            (true, _, _, true) | (_, true, true, _) => -5,
            (false, false, true, true) => -10,
            (true, _, _, _) | (_, true, _, _) => 5,
            _ => 1,
        }
    }
}

impl Search for Othello {
    type Move = Option<usize>;

    fn mover(&self) -> Player {
        self.to_move
    }

    fn moves(&self) -> Vec<Option<usize>> {
        let mut moves = self.legal();
        moves.sort_by_key(|m| m.map_or(0, |i| -self.weight(i)));
        moves
    }

    fn play(&mut self, mv: Option<usize>) {
        self.place(mv);
    }

    fn outcome(&self) -> Option<Option<Player>> {
        self.over().then(|| self.winner())
    }

    /// Position weights plus mobility, for player 0.
    fn evaluate(&self) -> i32 {
        let mut score = 0;
        for (i, c) in self.board.iter().enumerate() {
            match c {
                Some(0) => score += self.weight(i),
                Some(_) => score -= self.weight(i),
                None => {}
            }
        }
        score + 2 * (self.placements(0).len() as i32 - self.placements(1).len() as i32)
    }
}

impl Env for Othello {
    type Config = OthelloConfig;
    type Task = OthelloTask;
    type Action = Option<usize>;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/othello-v1",
        kind: EnvKind::Game,
        description: "Othello/Reversi on 6x6 or 8x8; alpha-beta oracle (positional weights and mobility)",
        players: 2,
        max_steps: 2 * MAX_SIZE * MAX_SIZE,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &Preset::graded_after::<5>(
            &[
                Preset {
                    name: "small",
                    overrides: r#"{"size": 6}"#,
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

    /// Board sizes, smallest first.
    const LEVELS: &'static [&'static str] = &[r#"{"size": 4}"#, r#"{"size": 6}"#, "{}"];

    /// Moves the game lasts at most: one disc per empty square.
    fn effort(task: &OthelloTask) -> Option<f64> {
        Some((task.size * task.size - 4) as f64)
    }

    fn validate(config: &OthelloConfig) -> Result<(), ConfigError> {
        if [4, 6, 8].contains(&config.size) {
            Ok(())
        } else {
            Err(format!("size must be 4, 6 or 8, got {}", config.size).into())
        }
    }

    fn generate(config: &OthelloConfig, _rng: &mut Rng) -> OthelloTask {
        OthelloTask { size: config.size }
    }

    fn reset(task: &OthelloTask, _rng: Rng) -> Self {
        Othello::new(task.size)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let letters: String = (0..self.size).map(|c| (b'a' + c as u8) as char).collect();
        let rows: Vec<String> = self
            .grid()
            .lines()
            .enumerate()
            .map(|(r, line)| format!("{} {line}", r + 1))
            .collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal()
                .into_iter()
                .map(|m| m.map_or_else(|| "pass".to_string(), |i| cell_name(self.size, i)))
                .collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.over() => "Game over: draw.".to_string(),
            None if self.to_move == player => {
                format!("Your move. Legal moves: {}.", legal.join(", "))
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Othello {n}x{n}. You play {}; B moves first. Place a disc so that it outflanks a straight line of \
                 opponent discs, which then flip to your colour; pass only when you cannot. When neither player can \
                 move, more discs wins.\n  {letters}\n{}\nDiscs: B {}, W {}.\n{status}",
                DISCS[player],
                rows.join("\n"),
                self.count(0),
                self.count(1),
                n = self.size,
            ),
            structured: json!({
                "rows": self.grid().lines().collect::<Vec<_>>(),
                "you": DISCS[player].to_string(),
                "to_move": if self.over() { json!(null) } else { json!(self.to_move) },
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Option<usize>, InvalidAction> {
        let mut names: Vec<(String, Option<usize>)> = vec![("pass".to_string(), None)];
        names.extend((0..self.board.len()).map(|i| (cell_name(self.size, i), Some(i))));
        pick(
            text,
            names.iter().map(|(n, m)| (n.as_str(), *m)),
            "reply with one cell like `d3`, or `pass`",
        )
    }

    fn apply(&mut self, _player: Player, mv: Option<usize>) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&mv) {
            return Err(InvalidAction::new(match mv {
                None => "you may pass only when you have no move".to_string(),
                Some(i) => format!("{} does not outflank any disc", cell_name(self.size, i)),
            }));
        }
        self.place(mv);
        Ok(if self.over() {
            vec![format!(
                "game over: B {}, W {}",
                self.count(0),
                self.count(1)
            )]
        } else {
            Vec::new()
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player).part("discs", self.count(player) as f64)
    }

    fn oracle(&self, _player: Player) -> Option<String> {
        let depth = if self.size <= 6 { 4 } else { 3 };
        best_move(self, depth)
            .map(|m| m.map_or_else(|| "pass".to_string(), |i| cell_name(self.size, i)))
    }

    /// Greedy capture: the move that leaves the most discs of its colour
    /// over the opponent's (a win at once first; random among equals).
    fn heuristic(&self, _player: Player, rng: &mut Rng) -> Option<String> {
        win_block_greedy(self, rng, |s, p| s.count(p) as i32 - s.count(1 - p) as i32)
            .map(|m| m.map_or_else(|| "pass".to_string(), |i| cell_name(self.size, i)))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::common::play_moves;

    fn play(size: usize, moves: &[&str]) -> Othello {
        play_moves(Othello::new(size), moves)
    }

    #[test]
    fn discs_flip_along_every_outflanked_line() {
        let g = play(8, &["d3", "c3", "c4"]);
        assert_eq!(
            g.render(),
            "........\n........\n..WB....\n..BBB...\n...BW...\n........\n........\n........"
        );
        let g = play(6, &["c2", "b2", "a2"]);
        assert_eq!(g.render(), "......\nBBB...\n..WB..\n..BW..\n......\n......");
        // One move outflanking two lines at once flips both.
        let mut two = Othello::new(6);
        two.board = vec![None; 36];
        two.board[2 * 6] = Some(0);
        two.board[2 * 6 + 1] = Some(1);
        two.board[2] = Some(0);
        two.board[6 + 2] = Some(1);
        let mut flipped = two.flips(2 * 6 + 2, 0);
        flipped.sort_unstable();
        assert_eq!(flipped, vec![6 + 2, 2 * 6 + 1]);
        two.place(Some(2 * 6 + 2));
        assert_eq!(
            two.render(),
            "..B...\n..B...\nBBB...\n......\n......\n......"
        );
    }

    #[test]
    fn non_flipping_moves_and_unforced_passes_are_refused() {
        let mut g = Othello::new(8);
        assert!(g.apply(0, Some(0)).is_err(), "a1 flips nothing");
        assert!(g.apply(0, None).is_err(), "pass with moves available");
        assert!(g.parse_action(0, "d3 or c4").is_err());
        assert_eq!(g.parse_action(0, "I play D3."), Ok(Some(2 * 8 + 3)));
        assert_eq!(
            g.observe(0).text,
            "Othello 8x8. You play B; B moves first. Place a disc so that it outflanks a straight line of opponent \
             discs, which then flip to your colour; pass only when you cannot. When neither player can move, more \
             discs wins.\n  abcdefgh\n1 ........\n2 ........\n3 ........\n4 ...WB...\n5 ...BW...\n6 ........\n7 \
             ........\n8 ........\nDiscs: B 2, W 2.\nYour move. Legal moves: d3, c4, f5, e6."
        );
    }

    #[test]
    fn a_player_without_moves_must_pass_and_the_game_ends_when_both_are_stuck() {
        let mut stuck = Othello::new(6);
        stuck.board = vec![None; 36];
        stuck.board[0] = Some(0);
        stuck.board[1] = Some(1);
        stuck.board[3] = Some(1);
        stuck.to_move = 1;
        // W cannot outflank, B can (c1 flips b1): W must pass.
        assert_eq!(stuck.legal(), vec![None]);
        stuck.apply(1, None).unwrap();
        stuck.apply(0, Some(2)).unwrap();
        assert_eq!(stuck.render().lines().next(), Some("BBBW.."));
        assert!(!stuck.over(), "B can still take e1");
        stuck.apply(1, None).unwrap();
        stuck.apply(0, Some(4)).unwrap();
        assert!(stuck.over(), "W has no discs left");
        assert_eq!(stuck.winner(), Some(0));
        assert_eq!(stuck.score(1).reward, -1.0);
    }

    #[test]
    fn the_oracle_beats_random_play_from_both_seats() {
        const GAMES: u64 = 10;
        for seat in 0..2 {
            let mut wins = 0;
            for seed in 0..GAMES {
                let mut rng = Rng::from_seed(seed);
                let mut g = Othello::new(6);
                while !g.over() {
                    let mv = if g.to_move == seat {
                        best_move(&g, 4).unwrap()
                    } else {
                        *rng.choose(&g.legal()).unwrap()
                    };
                    g.place(mv);
                }
                wins += u64::from(g.winner() == Some(seat));
            }
            eprintln!("othello 6x6: oracle in seat {seat} won {wins}/{GAMES} against random");
            assert!(wins * 10 >= GAMES * 9, "seat {seat}: {wins}/{GAMES}");
        }
    }
}
