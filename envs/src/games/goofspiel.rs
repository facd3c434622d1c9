//! `games/goofspiel-v1`: Goofspiel (the game of pure strategy), with
//! simultaneous sealed bids.
//!
//! # Task
//! The order of the prize cards 1..=N, shuffled by the seed. Each player
//! holds the bid cards 1..=N.
//!
//! # Action
//! One card from your hand as a number ("5", "bid 5", "play 5"). Both
//! players bid at once: each submits without seeing the other's bid. A
//! card you no longer hold is refused, and so is text naming two cards.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The prize up for bidding, your hand, the opponent's remaining cards,
//! earlier rounds (both bids and who took the prize), the scores, and your
//! legal bids. Never the opponent's bid in the current round.
//!
//! # Reward
//! Each round the higher bid takes the prize's points; a tie discards it.
//! After N rounds the player with more points gets +1 and the other −1, 0
//! each on equal points (zero-sum). `passed` means a win. Breakdown: `win`
//! or `draw`, and `points`.
//!
//! # Episode end
//! After N rounds (2N accepted steps).
//!
//! # Parameters
//! `cards` N (3–13). Presets `easy` (5), `medium` (8), `hard` (13).
//!
//! # Seeding
//! The seed orders the prizes.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const MAX_CARDS: u32 = 13;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GoofspielConfig {
    pub cards: u32,
}

impl Default for GoofspielConfig {
    fn default() -> Self {
        GoofspielConfig { cards: 8 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoofspielTask {
    /// Prize values in the order they come up.
    pub prizes: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Goofspiel {
    prizes: Vec<u32>,
    hands: [Vec<u32>; 2],
    /// Completed rounds: each player's bid.
    played: Vec<[u32; 2]>,
    /// This round's sealed bids.
    pending: [Option<u32>; 2],
}

impl Goofspiel {
    fn round(&self) -> usize {
        self.played.len()
    }

    fn over(&self) -> bool {
        self.round() == self.prizes.len()
    }

    fn points(&self) -> [u32; 2] {
        let mut points = [0, 0];
        for (bids, prize) in self.played.iter().zip(&self.prizes) {
            if bids[0] != bids[1] {
                points[usize::from(bids[1] > bids[0])] += prize;
            }
        }
        points
    }

    fn winner(&self) -> Option<Player> {
        let [a, b] = self.points();
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    fn cards_text(cards: &[u32]) -> String {
        cards
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Env for Goofspiel {
    type Config = GoofspielConfig;
    type Task = GoofspielTask;
    type Action = u32;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/goofspiel-v1",
        kind: EnvKind::Game,
        description: "Goofspiel: simultaneous sealed bids for shuffled prize cards; scripted oracle (bid the prize)",
        players: 2,
        max_steps: 2 * MAX_CARDS as usize,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"cards": 5}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"cards": 13}"#,
            },
        ],
    };

    fn validate(config: &GoofspielConfig) -> Result<(), ConfigError> {
        if (3..=MAX_CARDS).contains(&config.cards) {
            Ok(())
        } else {
            Err(format!("cards must be in 3..={MAX_CARDS}, got {}", config.cards).into())
        }
    }

    fn generate(config: &GoofspielConfig, rng: &mut Rng) -> GoofspielTask {
        let mut prizes: Vec<u32> = (1..=config.cards).collect();
        rng.shuffle(&mut prizes);
        GoofspielTask { prizes }
    }

    fn reset(task: &GoofspielTask, _rng: Rng) -> Self {
        let n = task.prizes.len() as u32;
        Goofspiel {
            prizes: task.prizes.clone(),
            hands: [(1..=n).collect(), (1..=n).collect()],
            played: Vec::new(),
            pending: [None, None],
        }
    }

    fn turn(&self) -> Turn {
        if self.over() {
            return Turn::Over;
        }
        Turn::Simultaneous((0..2).filter(|&p| self.pending[p].is_none()).collect())
    }

    fn observe(&self, player: Player) -> Observation {
        let points = self.points();
        let mut text = format!(
            "Goofspiel with cards 1 to {n}. Each round a prize card is shown and both players bid one card from \
             their hand at the same time; the higher bid takes the prize's points, a tie discards it. Each card is \
             used once. After {n} rounds more points wins.\nYou are player {player}.\n",
            n = self.prizes.len()
        );
        for (i, bids) in self.played.iter().enumerate() {
            let taker = match bids[player].cmp(&bids[1 - player]) {
                std::cmp::Ordering::Greater => "you took it",
                std::cmp::Ordering::Less => "opponent took it",
                std::cmp::Ordering::Equal => "tie, discarded",
            };
            text.push_str(&format!(
                "round {}: prize {}, you bid {}, opponent bid {}: {taker}\n",
                i + 1,
                self.prizes[i],
                bids[player],
                bids[1 - player]
            ));
        }
        text.push_str(&format!(
            "Points: you {}, opponent {}.\n",
            points[player],
            points[1 - player]
        ));
        let may_bid = !self.over() && self.pending[player].is_none();
        if self.over() {
            text.push_str(match self.winner() {
                Some(w) if w == player => "Game over: you win.",
                Some(_) => "Game over: you lose.",
                None => "Game over: draw.",
            });
        } else {
            text.push_str(&format!(
                "Round {}: the prize is {}. Your hand: {}. Opponent's hand: {}.\n",
                self.round() + 1,
                self.prizes[self.round()],
                Self::cards_text(&self.hands[player]),
                Self::cards_text(&self.hands[1 - player]),
            ));
            text.push_str(&match self.pending[player] {
                Some(bid) => format!("You bid {bid}; waiting for the opponent's bid."),
                None => "Your bid: reply with one card number from your hand.".to_string(),
            });
        }
        let legal = if may_bid {
            self.hands[player].iter().map(u32::to_string).collect()
        } else {
            Vec::new()
        };
        Observation {
            text,
            structured: json!({
                "you": player,
                "prize": self.prizes.get(self.round()),
                "hand": self.hands[player],
                "opponent_hand": self.hands[1 - player],
                "history": self.played.iter().zip(&self.prizes).map(|(b, p)| json!({"prize": p, "you": b[player], "opponent": b[1 - player]})).collect::<Vec<_>>(),
                "points": [points[player], points[1 - player]],
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<u32, InvalidAction> {
        let names: Vec<(String, u32)> = (1..=self.prizes.len() as u32)
            .map(|c| (c.to_string(), c))
            .collect();
        pick(
            text,
            names.iter().map(|(n, c)| (n.as_str(), *c)),
            "reply with one card number from your hand",
        )
    }

    fn apply(&mut self, player: Player, card: u32) -> Result<Vec<String>, InvalidAction> {
        if !self.hands[player].contains(&card) {
            return Err(InvalidAction::new(format!("you do not hold card {card}")));
        }
        // The card stays in hand until both bids are in, so the opponent's
        // view of it does not give the bid away.
        self.pending[player] = Some(card);
        if let [Some(a), Some(b)] = self.pending {
            self.hands[0].retain(|&c| c != a);
            self.hands[1].retain(|&c| c != b);
            self.played.push([a, b]);
            self.pending = [None, None];
            return Ok(vec![format!("round {}: bids {a} and {b}", self.round())]);
        }
        Ok(Vec::new())
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player)
            .part("points", f64::from(self.points()[player]))
    }

    /// Bids the card equal to the prize (always still in hand, since each
    /// prize comes up once), a strong simple strategy.
    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.pending[player].is_some() {
            return None;
        }
        let prize = self.prizes[self.round()];
        let card = if self.hands[player].contains(&prize) {
            prize
        } else {
            self.hands[player][0]
        };
        Some(card.to_string())
    }

    /// Spends its highest card on a prize worth at least the average prize
    /// still to come, and its lowest card otherwise.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() || self.pending[player].is_some() {
            return None;
        }
        let left = &self.prizes[self.round()..];
        let prize = left[0];
        let high = prize as usize * left.len() >= left.iter().sum::<u32>() as usize;
        let hand = self.hands[player].iter().copied();
        let card = if high { hand.max() } else { hand.min() }?;
        Some(card.to_string())
    }

    fn render(&self) -> String {
        let rounds: Vec<String> = self
            .played
            .iter()
            .zip(&self.prizes)
            .map(|(b, p)| format!("{p}:{}-{}", b[0], b[1]))
            .collect();
        let points = self.points();
        format!("{} | {}-{}", rounds.join(" "), points[0], points[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(prizes: &[u32]) -> Goofspiel {
        Goofspiel::reset(
            &GoofspielTask {
                prizes: prizes.to_vec(),
            },
            Rng::from_seed(0),
        )
    }

    fn round(g: &mut Goofspiel, a: &str, b: &str) {
        let a = g.parse_action(0, a).unwrap();
        g.apply(0, a).unwrap();
        let b = g.parse_action(1, b).unwrap();
        g.apply(1, b).unwrap();
    }

    #[test]
    fn higher_bids_take_prizes_and_ties_discard_them() {
        let mut g = game(&[2, 3, 1]);
        assert_eq!(g.turn(), Turn::Simultaneous(vec![0, 1]));
        round(&mut g, "3", "bid 1");
        round(&mut g, "play 2", "2");
        assert_eq!(g.render(), "2:3-1 3:2-2 | 2-0");
        round(&mut g, "1", "3");
        assert_eq!(g.render(), "2:3-1 3:2-2 1:1-3 | 2-1");
        assert_eq!(g.turn(), Turn::Over);
        assert_eq!(g.winner(), Some(0));
        assert_eq!(g.score(1).reward, -1.0);
        assert_eq!(g.score(0).breakdown["points"], 2.0);
    }

    #[test]
    fn a_sealed_bid_is_hidden_from_the_opponent() {
        let mut g = game(&[2, 3, 1]);
        g.apply(0, 3).unwrap();
        assert_eq!(g.turn(), Turn::Simultaneous(vec![1]));
        let seen = g.observe(1);
        assert_eq!(
            seen.text,
            "Goofspiel with cards 1 to 3. Each round a prize card is shown and both players bid one card from their \
             hand at the same time; the higher bid takes the prize's points, a tie discards it. Each card is used \
             once. After 3 rounds more points wins.\nYou are player 1.\nPoints: you 0, opponent 0.\nRound 1: the \
             prize is 2. Your hand: 1 2 3. Opponent's hand: 1 2 3.\nYour bid: reply with one card number from your \
             hand."
        );
        assert!(
            !seen.structured.to_string().contains("[1,2]"),
            "the opponent's hand is not shrunk yet"
        );
        assert!(
            g.observe(0)
                .text
                .ends_with("You bid 3; waiting for the opponent's bid.")
        );
        assert_eq!(g.observe(0).legal_actions, Some(vec![]));
    }

    #[test]
    fn spent_cards_and_hedges_are_refused() {
        let mut g = game(&[2, 3, 1]);
        round(&mut g, "3", "1");
        assert!(g.apply(0, 3).is_err());
        assert!(g.parse_action(0, "1 or 2").is_err());
        assert!(g.parse_action(0, "4").is_err());
    }

    #[test]
    fn bidding_the_prize_beats_random_play() {
        let (mut wins, games) = (0, 300);
        for seed in 0..games {
            let mut rng = Rng::from_seed(seed);
            let mut g = Goofspiel::reset(
                &Goofspiel::generate(&GoofspielConfig::default(), &mut rng),
                Rng::from_seed(0),
            );
            while !g.over() {
                let a = g.oracle(0).unwrap();
                let b = g.random_action(1, &mut rng);
                round(&mut g, &a, &b);
            }
            wins += u32::from(g.winner() == Some(0));
        }
        eprintln!("goofspiel: oracle won {wins}/{games} against random");
        assert!(wins * 100 >= 75 * games as u32, "{wins}/{games}");
    }
}
