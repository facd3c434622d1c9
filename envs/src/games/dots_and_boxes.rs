//! `games/dots-and-boxes-v1`: Dots and Boxes.
//!
//! # Task
//! An empty grid of rows × cols boxes. Player 0 (`A`) moves first. No
//! chance.
//!
//! # Action
//! A line between two adjacent dots, like `a1-b1` (dots are named by column
//! letter and row number from the top; `b1-a1`, `a1b1` and `a1 b1` also
//! work). A drawn line is refused, and so is text naming two lines.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The grid (`+` dots, `-` and `|` drawn lines, box owners `A`/`B`), the
//! box count, whose turn it is and the undrawn lines. Both players see
//! everything.
//!
//! # Reward
//! Completing the fourth side of a box claims it and gives another move.
//! When every line is drawn, more boxes wins: +1 to the winner, −1 to the
//! loser, 0 each on equal counts (zero-sum). `passed` means a win.
//! Breakdown: `win`/`draw`, `boxes`.
//!
//! # Episode end
//! Every line drawn (one step per line).
//!
//! # Parameters
//! `rows`, `cols` (1–5). Presets `easy` (2×2), `medium` (3×3), `hard`
//! (4×4).
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
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const MAX_SIDE: usize = 5;
const NAMES: [char; 2] = ['A', 'B'];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DotsConfig {
    pub rows: usize,
    pub cols: usize,
}

impl Default for DotsConfig {
    fn default() -> Self {
        DotsConfig { rows: 3, cols: 3 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DotsTask {
    pub rows: usize,
    pub cols: usize,
}

/// Lines are numbered horizontals first (`r * cols + c`, from dot (r, c)
/// rightwards), then verticals (from dot (r, c) downwards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DotsAndBoxes {
    rows: usize,
    cols: usize,
    drawn: Vec<bool>,
    owners: Vec<Option<Player>>,
    to_move: Player,
}

fn dot_name(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

impl DotsAndBoxes {
    fn new(rows: usize, cols: usize) -> Self {
        let lines = (rows + 1) * cols + rows * (cols + 1);
        DotsAndBoxes {
            rows,
            cols,
            drawn: vec![false; lines],
            owners: vec![None; rows * cols],
            to_move: 0,
        }
    }

    fn horizontals(&self) -> usize {
        (self.rows + 1) * self.cols
    }

    fn h(&self, r: usize, c: usize) -> usize {
        r * self.cols + c
    }

    fn v(&self, r: usize, c: usize) -> usize {
        self.horizontals() + r * (self.cols + 1) + c
    }

    /// The two dots a line joins.
    fn ends(&self, line: usize) -> ((usize, usize), (usize, usize)) {
        if line < self.horizontals() {
            let (r, c) = (line / self.cols, line % self.cols);
            ((r, c), (r, c + 1))
        } else {
            let k = line - self.horizontals();
            let (r, c) = (k / (self.cols + 1), k % (self.cols + 1));
            ((r, c), (r + 1, c))
        }
    }

    fn line_name(&self, line: usize) -> String {
        let (a, b) = self.ends(line);
        format!("{}-{}", dot_name(a.0, a.1), dot_name(b.0, b.1))
    }

    fn sides(&self, r: usize, c: usize) -> [usize; 4] {
        [
            self.h(r, c),
            self.h(r + 1, c),
            self.v(r, c),
            self.v(r, c + 1),
        ]
    }

    fn drawn_sides(&self, r: usize, c: usize) -> usize {
        self.sides(r, c).iter().filter(|&&l| self.drawn[l]).count()
    }

    /// Boxes (row, col) that have `line` as a side.
    fn boxes_of(&self, line: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.sides(r, c).contains(&line) {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn over(&self) -> bool {
        self.drawn.iter().all(|&d| d)
    }

    fn count(&self, p: Player) -> usize {
        self.owners.iter().filter(|o| **o == Some(p)).count()
    }

    fn winner(&self) -> Option<Player> {
        let (a, b) = (self.count(0), self.count(1));
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    fn legal(&self) -> Vec<usize> {
        (0..self.drawn.len()).filter(|&l| !self.drawn[l]).collect()
    }

    /// Draws a line; returns the boxes it completed (the mover moves again
    /// if any).
    fn draw(&mut self, line: usize) -> usize {
        self.drawn[line] = true;
        let mut completed = 0;
        for (r, c) in self.boxes_of(line) {
            if self.drawn_sides(r, c) == 4 {
                self.owners[r * self.cols + c] = Some(self.to_move);
                completed += 1;
            }
        }
        if completed == 0 {
            self.to_move = 1 - self.to_move;
        }
        completed
    }

    fn completes(&self, line: usize) -> usize {
        self.boxes_of(line)
            .iter()
            .filter(|&&(r, c)| self.drawn_sides(r, c) == 3)
            .count()
    }

    /// Boxes the next player takes by greedily completing boxes in a row.
    fn greedy_run(&self) -> usize {
        let mut g = self.clone();
        let mut taken = 0;
        while let Some(line) = g.legal().into_iter().find(|&l| g.completes(l) > 0) {
            taken += g.draw(line);
        }
        taken
    }

    /// Takes a box when it can; otherwise draws a line that gives no box
    /// away; otherwise the line that gives away the fewest.
    fn scripted(&self) -> Option<usize> {
        let legal = self.legal();
        if let Some(&best) = legal
            .iter()
            .max_by_key(|&&l| self.completes(l))
            .filter(|&&l| self.completes(l) > 0)
        {
            return Some(best);
        }
        let creates_third = |l: usize| {
            self.boxes_of(l)
                .iter()
                .any(|&(r, c)| self.drawn_sides(r, c) == 2)
        };
        if let Some(&safe) = legal.iter().find(|&&l| !creates_third(l)) {
            return Some(safe);
        }
        legal.into_iter().min_by_key(|&l| {
            let mut next = self.clone();
            next.draw(l);
            next.greedy_run()
        })
    }

    fn grid(&self) -> String {
        let mut lines = Vec::new();
        for r in 0..=self.rows {
            let dots: Vec<String> = (0..self.cols)
                .map(|c| if self.drawn[self.h(r, c)] { "-" } else { " " }.to_string())
                .collect();
            lines.push(format!("+{}+", dots.join("+")));
            if r < self.rows {
                let mut row = String::new();
                for c in 0..=self.cols {
                    row.push(if self.drawn[self.v(r, c)] { '|' } else { ' ' });
                    if c < self.cols {
                        row.push(self.owners[r * self.cols + c].map_or(' ', |p| NAMES[p]));
                    }
                }
                lines.push(row);
            }
        }
        lines.join("\n")
    }
}

impl Env for DotsAndBoxes {
    type Config = DotsConfig;
    type Task = DotsTask;
    type Action = usize;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/dots-and-boxes-v1",
        kind: EnvKind::Game,
        description: "Dots and Boxes on small grids; scripted oracle (take boxes, play safe, sacrifice least)",
        players: 2,
        max_steps: 2 * MAX_SIDE * (MAX_SIDE + 1),
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: true,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"rows": 2, "cols": 2}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"rows": 4, "cols": 4}"#,
            },
        ],
    };

    fn validate(config: &DotsConfig) -> Result<(), ConfigError> {
        if (1..=MAX_SIDE).contains(&config.rows) && (1..=MAX_SIDE).contains(&config.cols) {
            Ok(())
        } else {
            Err(format!("rows and cols must be in 1..={MAX_SIDE}").into())
        }
    }

    fn generate(config: &DotsConfig, _rng: &mut Rng) -> DotsTask {
        DotsTask {
            rows: config.rows,
            cols: config.cols,
        }
    }

    fn reset(task: &DotsTask, _rng: Rng) -> Self {
        DotsAndBoxes::new(task.rows, task.cols)
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let letters: Vec<String> = (0..=self.cols)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        let numbered: Vec<String> = self
            .grid()
            .lines()
            .enumerate()
            .map(|(k, line)| {
                let labelled = if k % 2 == 0 {
                    format!("{} {line}", k / 2 + 1)
                } else {
                    format!("  {line}")
                };
                labelled.trim_end().to_string()
            })
            .collect();
        let legal: Vec<String> = if self.to_move == player {
            self.legal()
                .into_iter()
                .map(|l| self.line_name(l))
                .collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) if w == player => "Game over: you win.".to_string(),
            Some(_) => "Game over: you lose.".to_string(),
            None if self.over() => "Game over: draw.".to_string(),
            None if self.to_move == player => {
                "Your move: reply with one undrawn line like `a1-b1`.".to_string()
            }
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Dots and Boxes, {}x{} boxes. You are {}; A moves first. Draw one line between adjacent dots per \
                 move. Completing the fourth side of a box claims it and you move again. More boxes wins.\n  {}\n{}\n\
                 Boxes: A {}, B {}.\n{status}",
                self.rows,
                self.cols,
                NAMES[player],
                letters.join(" "),
                numbered.join("\n"),
                self.count(0),
                self.count(1),
            ),
            structured: json!({
                "grid": self.grid().lines().collect::<Vec<_>>(),
                "you": NAMES[player].to_string(),
                "boxes": [self.count(player), self.count(1 - player)],
                "to_move": self.to_move,
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<usize, InvalidAction> {
        let mut phrases = Vec::new();
        for line in 0..self.drawn.len() {
            let (a, b) = self.ends(line);
            let (a, b) = (dot_name(a.0, a.1), dot_name(b.0, b.1));
            for p in [
                format!("{a} {b}"),
                format!("{b} {a}"),
                format!("{a}{b}"),
                format!("{b}{a}"),
            ] {
                phrases.push((p, line));
            }
        }
        pick(
            text,
            phrases.iter().map(|(p, l)| (p.as_str(), *l)),
            "reply with one line like `a1-b1`",
        )
    }

    fn apply(&mut self, _player: Player, line: usize) -> Result<Vec<String>, InvalidAction> {
        if self.drawn[line] {
            return Err(InvalidAction::new(format!(
                "{} is already drawn",
                self.line_name(line)
            )));
        }
        let completed = self.draw(line);
        Ok(if completed > 0 {
            vec![format!("{completed} box(es) claimed")]
        } else {
            Vec::new()
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player).part("boxes", self.count(player) as f64)
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.to_move != player {
            return None;
        }
        self.scripted().map(|l| self.line_name(l))
    }

    /// Greedy capture: the line completing the most boxes, else a random
    /// one (it does not look for safe lines or chains, as the oracle does).
    fn heuristic(&self, player: Player, rng: &mut Rng) -> Option<String> {
        if self.to_move != player {
            return None;
        }
        let mut legal = self.legal();
        rng.shuffle(&mut legal);
        legal
            .into_iter()
            .max_by_key(|&l| self.completes(l))
            .map(|l| self.line_name(l))
    }

    fn render(&self) -> String {
        self.grid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(rows: usize, cols: usize, lines: &[&str]) -> DotsAndBoxes {
        let mut g = DotsAndBoxes::new(rows, cols);
        for l in lines {
            let line = g.parse_action(g.to_move, l).unwrap();
            g.apply(g.to_move, line).unwrap();
        }
        g
    }

    #[test]
    fn the_fourth_side_claims_the_box_and_moves_again() {
        let g = play(1, 2, &["a1-b1", "a2-b2", "a1-a2"]);
        assert_eq!(g.to_move, 1);
        let mut g = play(1, 2, &["a1-b1", "a2-b2", "a1-a2", "b1-b2"]);
        assert_eq!(g.render(), "+-+ +\n|B|  \n+-+ +");
        assert_eq!(g.to_move, 1, "B completed a box and moves again");
        g.apply(1, g.parse_action(1, "b1-c1").unwrap()).unwrap();
        assert_eq!(g.to_move, 0);
        for l in ["c1-c2", "b2-c2"] {
            let line = g.parse_action(g.to_move, l).unwrap();
            g.apply(g.to_move, line).unwrap();
        }
        // A's c1-c2 left the third side for B, who took the box.
        assert_eq!(g.render(), "+-+-+\n|B|B|\n+-+-+");
        assert!(g.over());
        assert_eq!(g.winner(), Some(1));
        assert_eq!(g.score(0).reward, -1.0);
    }

    #[test]
    fn one_line_can_close_two_boxes() {
        let mut g = play(
            1,
            2,
            &["a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2", "c1-c2"],
        );
        assert_eq!(g.to_move, 0);
        assert_eq!(
            g.apply(0, g.parse_action(0, "b2 b1").unwrap()),
            Ok(vec!["2 box(es) claimed".to_string()])
        );
        assert_eq!(g.winner(), Some(0));
    }

    #[test]
    fn drawn_lines_hedges_and_non_adjacent_dots_are_refused() {
        let mut g = play(2, 2, &["a1-b1"]);
        assert!(g.apply(1, 0).is_err());
        assert!(g.parse_action(1, "a1-c1").is_err());
        assert!(g.parse_action(1, "a2-b2 or b2-c2").is_err());
        assert_eq!(
            g.observe(1).text,
            "Dots and Boxes, 2x2 boxes. You are B; A moves first. Draw one line between adjacent dots per move. \
             Completing the fourth side of a box claims it and you move again. More boxes wins.\n  a b c\n1 +-+ +\n\n2 \
             + + +\n\n3 + + +\nBoxes: A 0, B 0.\nYour move: reply with one undrawn line like `a1-b1`."
        );
    }

    #[test]
    fn the_scripted_oracle_beats_random_play_from_both_seats() {
        const GAMES: u64 = 40;
        for seat in 0..2 {
            let mut wins = 0;
            for seed in 0..GAMES {
                let mut rng = Rng::from_seed(seed);
                let mut g = DotsAndBoxes::new(3, 3);
                while !g.over() {
                    let line = if g.to_move == seat {
                        g.scripted().unwrap()
                    } else {
                        *rng.choose(&g.legal()).unwrap()
                    };
                    g.draw(line);
                }
                wins += u64::from(g.winner() == Some(seat));
            }
            eprintln!(
                "dots and boxes 3x3: oracle in seat {seat} won {wins}/{GAMES} against random"
            );
            assert!(wins * 100 >= GAMES * 90, "seat {seat}: {wins}/{GAMES}");
        }
    }
}
