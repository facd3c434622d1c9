//! Fixed-size encodings of the games' structured observations, and the map
//! between the network's action indices and the games' move texts.
//!
//! Boards are encoded from the mover's point of view (own pieces, the
//! opponent's pieces, empty squares as three planes) plus a one-hot of the
//! seat, so one network plays every seat and its value head is a per-seat
//! baseline.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use verigym_envs::{Observation, Player};

/// Kuhn poker's betting words, in the network's action order.
const KUHN_ACTIONS: [&str; 4] = ["check", "bet", "call", "fold"];
/// Kuhn poker's card ranks.
const KUHN_CARDS: [&str; 3] = ["J", "Q", "K"];
/// The longest betting sequence of one Kuhn hand (check, bet, call/fold).
const KUHN_MAX_HISTORY: usize = 3;
const SEATS: usize = 2;

/// Which game an encoding is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameCodec {
    TicTacToe,
    ConnectFour,
    KuhnPoker,
}

impl GameCodec {
    /// The codec for an env id (a preset suffix is allowed), if there is one.
    pub fn for_env(env_id: &str) -> Option<GameCodec> {
        let base = env_id.split('@').next().unwrap_or(env_id);
        match base {
            "games/tictactoe-v1" => Some(GameCodec::TicTacToe),
            "games/connect-four-v1" => Some(GameCodec::ConnectFour),
            "games/kuhn-poker-v1" => Some(GameCodec::KuhnPoker),
            _ => None,
        }
    }

    fn board_cells(self) -> usize {
        match self {
            GameCodec::TicTacToe => 9,
            GameCodec::ConnectFour => 42,
            GameCodec::KuhnPoker => 0,
        }
    }

    /// Length of the encoded observation.
    pub fn input_size(self) -> usize {
        match self {
            GameCodec::TicTacToe => 3 * self.board_cells() + SEATS,
            GameCodec::ConnectFour => 3 * self.board_cells() + SEATS + 3 * 7,
            GameCodec::KuhnPoker => {
                KUHN_CARDS.len() + KUHN_MAX_HISTORY * KUHN_ACTIONS.len() + SEATS
            }
        }
    }

    /// Number of distinct actions (the policy head's width).
    pub fn num_actions(self) -> usize {
        match self {
            GameCodec::TicTacToe => 9,
            GameCodec::ConnectFour => 7,
            GameCodec::KuhnPoker => KUHN_ACTIONS.len(),
        }
    }

    /// The move text of action `index`.
    pub fn action_text(self, index: usize) -> String {
        match self {
            GameCodec::TicTacToe | GameCodec::ConnectFour => (index + 1).to_string(),
            GameCodec::KuhnPoker => KUHN_ACTIONS[index].to_string(),
        }
    }

    /// The action index of a legal-move text, if it is one of ours.
    pub fn action_index(self, text: &str) -> Option<usize> {
        match self {
            GameCodec::TicTacToe | GameCodec::ConnectFour => text
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=self.num_actions()).contains(n))
                .map(|n| n - 1),
            GameCodec::KuhnPoker => KUHN_ACTIONS.iter().position(|a| *a == text.trim()),
        }
    }

    /// Which actions are legal: `true` per index.
    pub fn legal_mask(self, observation: &Observation) -> Vec<bool> {
        let mut mask = vec![false; self.num_actions()];
        for text in observation.legal_actions.iter().flatten() {
            if let Some(i) = self.action_index(text) {
                mask[i] = true;
            }
        }
        mask
    }

    /// Encodes what `player` sees as `input_size()` numbers.
    pub fn encode(self, observation: &Observation, player: Player) -> Vec<f32> {
        let mut features = vec![0.0; self.input_size()];
        let s = &observation.structured;
        match self {
            GameCodec::TicTacToe | GameCodec::ConnectFour => {
                let board = match self {
                    GameCodec::TicTacToe => s["board"].as_str().unwrap_or("").to_string(),
                    _ => rows_concat(&s["rows"]),
                };
                let mine = s["you"].as_str().and_then(|m| m.chars().next());
                let cells = self.board_cells();
                for (i, c) in board.chars().take(cells).enumerate() {
                    let plane = match c {
                        '.' => 2,
                        c if Some(c) == mine => 0,
                        _ => 1,
                    };
                    features[plane * cells + i] = 1.0;
                }
                features[3 * cells + player.min(SEATS - 1)] = 1.0;
                if self == GameCodec::ConnectFour {
                    let tactics = crate::game::baselines::column_tactics(s);
                    for (col, f) in tactics.iter().enumerate() {
                        features[3 * cells + SEATS + 3 * col..][..3].copy_from_slice(f);
                    }
                }
            }
            GameCodec::KuhnPoker => {
                if let Some(card) = s["card"]
                    .as_str()
                    .and_then(|c| KUHN_CARDS.iter().position(|k| *k == c))
                {
                    features[card] = 1.0;
                }
                let history = s["actions"].as_array().map(Vec::as_slice).unwrap_or(&[]);
                for (slot, act) in history.iter().take(KUHN_MAX_HISTORY).enumerate() {
                    if let Some(a) = act
                        .as_str()
                        .and_then(|a| KUHN_ACTIONS.iter().position(|k| *k == a))
                    {
                        features[KUHN_CARDS.len() + slot * KUHN_ACTIONS.len() + a] = 1.0;
                    }
                }
                features[self.input_size() - SEATS + player.min(SEATS - 1)] = 1.0;
            }
        }
        features
    }
}

fn rows_concat(rows: &Value) -> String {
    rows.as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect::<String>())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use verigym_envs::Registry;

    #[test]
    fn tictactoe_encoding_is_from_the_movers_view() {
        let registry = Registry::builtin();
        let mut env = registry.make("games/tictactoe-v1", None).unwrap();
        let card = env.generate(1);
        env.reset(&card).unwrap();
        env.step(0, "5").unwrap();
        let codec = GameCodec::TicTacToe;
        let o = env.observe(1).unwrap();
        let f = codec.encode(&o, 1);
        assert_eq!(f.len(), codec.input_size());
        // Centre taken by the opponent (plane 1), the rest empty (plane 2).
        assert_eq!(f[9 + 4], 1.0);
        assert_eq!(f[4], 0.0);
        assert_eq!(f.iter().take(27).sum::<f32>(), 9.0);
        assert_eq!(f[27 + 1], 1.0);
        let mask = codec.legal_mask(&o);
        assert!(!mask[4] && mask.iter().filter(|m| **m).count() == 8);
    }

    #[test]
    fn connect_four_encoding_marks_the_block() {
        let registry = Registry::builtin();
        let mut env = registry.make("games/connect-four-v1", None).unwrap();
        let card = env.generate(1);
        env.reset(&card).unwrap();
        // X fills columns 1-3 of the bottom row, O stacks on 1-2: O must
        // block column 4 and has no win of its own.
        for (player, column) in [(0, "1"), (1, "1"), (0, "2"), (1, "2"), (0, "3")] {
            env.step(player, column).unwrap();
        }
        let codec = GameCodec::ConnectFour;
        let f = codec.encode(&env.observe(1).unwrap(), 1);
        assert_eq!(f.len(), codec.input_size());
        let tactics = &f[3 * 42 + SEATS..];
        assert_eq!(tactics.len(), 21);
        assert_eq!(&tactics[9..12], &[0.0, 1.0, 0.0], "column 4 blocks");
        let wins: f32 = tactics.iter().step_by(3).sum();
        let blocks: f32 = tactics.iter().skip(1).step_by(3).sum();
        assert_eq!((wins, blocks), (0.0, 1.0));
        // From X's side the same column is a win.
        let f = codec.encode(&env.observe(0).unwrap(), 0);
        assert_eq!(f[3 * 42 + SEATS + 9], 1.0);
    }

    #[test]
    fn kuhn_encoding_sees_card_and_history() {
        let registry = Registry::builtin();
        let mut env = registry.make("games/kuhn-poker-v1", None).unwrap();
        let card = env.generate(3);
        env.reset(&card).unwrap();
        env.step(0, "bet").unwrap();
        let codec = GameCodec::KuhnPoker;
        let o = env.observe(1).unwrap();
        let f = codec.encode(&o, 1);
        assert_eq!(f[..3].iter().sum::<f32>(), 1.0);
        assert_eq!(f[3 + 1], 1.0, "first action was a bet");
        let mask = codec.legal_mask(&o);
        assert_eq!(mask, vec![false, false, true, true]);
    }

    #[test]
    fn action_texts_round_trip() {
        for codec in [
            GameCodec::TicTacToe,
            GameCodec::ConnectFour,
            GameCodec::KuhnPoker,
        ] {
            for i in 0..codec.num_actions() {
                assert_eq!(codec.action_index(&codec.action_text(i)), Some(i));
            }
        }
    }
}
