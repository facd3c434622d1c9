//! The text a seat reads: the board diagram, the rules in brief, the
//! totals, the legal moves and the status line.

use super::board::{COLUMNS, SIZE, point_name, points};
use super::{COLOURS, Go, Player, Superko};

impl Go {
    pub(super) fn komi_text(&self) -> String {
        format!("{}", f64::from(self.komi2) / 2.0)
    }

    /// The totals line: each side's area, White's with the komi.
    pub(super) fn totals(&self) -> String {
        let [b, w] = self.board.area();
        format!(
            "Black {b}, White {w} + {} komi = {}",
            self.komi_text(),
            f64::from(2 * w as i32 + self.komi2) / 2.0
        )
    }

    pub(super) fn grid(&self) -> String {
        let letters: String = COLUMNS.iter().map(|&c| format!(" {}", c as char)).collect();
        let mut lines = vec![format!("  {letters}")];
        for (i, row) in self.board.rows().iter().enumerate() {
            let cells: String = row.chars().map(|c| format!(" {c}")).collect();
            lines.push(format!("{} {cells} {}", SIZE - i, SIZE - i));
        }
        lines.push(format!("  {letters}"));
        lines.join("\n")
    }

    pub(super) fn rules(&self) -> String {
        let repetition = match self.superko {
            Superko::Illegal => {
                "so is any move that recreates an earlier whole-board position (positional superko, \
                 which also forbids retaking a ko at once)"
            }
            Superko::Draw => {
                "so is retaking a ko at once (recreating the position before the opponent's last \
                 move); any other move that recreates an earlier whole-board position ends the game \
                 as a draw"
            }
        };
        format!(
            "Each turn place a stone of yours on an empty point, or pass. A group of stones \
             (joined up, down, left or right) with no empty point next to it is captured and \
             removed. Suicide (leaving your own group without an empty neighbour while capturing \
             nothing) is illegal, and {repetition}. The game ends after two passes in a row or \
             after ply {}. Score (area, Tromp-Taylor): your stones plus the empty points whose \
             region touches only your stones; stones are never removed as dead, so capture them \
             first. White adds the komi; the higher total wins.",
            self.max_plies
        )
    }

    /// What the mover may play, stated compactly.
    pub(super) fn legal_text(&self) -> String {
        let illegal: Vec<String> = points(self.board.empty())
            .filter(|&p| self.placement(p).is_err())
            .map(point_name)
            .collect();
        if illegal.is_empty() {
            "Legal: pass or any empty point.".to_string()
        } else {
            format!(
                "Legal: pass or any empty point except {}.",
                illegal.join(", ")
            )
        }
    }

    pub(super) fn status(&self, player: Player) -> String {
        if self.over() {
            let how = if self.repeated {
                "a move recreated an earlier position"
            } else if self.passes >= 2 {
                "two passes"
            } else {
                "the ply cap"
            };
            let result = match self.winner() {
                Some(w) if w == player => "you win",
                Some(_) => "you lose",
                None => "a draw",
            };
            format!(
                "Game over after {} plies ({how}): {}; {result}.",
                self.plies,
                self.totals()
            )
        } else if self.to_move == player {
            format!(
                "Your move: reply with one point like `D4`, or `pass`. {}",
                self.legal_text()
            )
        } else {
            format!("Waiting for {}.", COLOURS[self.to_move])
        }
    }
}
