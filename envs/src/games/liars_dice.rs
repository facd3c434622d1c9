//! `games/liars-dice-v1`: two-player Liar's dice, one round, sixes wild.
//!
//! # Task
//! Each player's hidden dice (six-sided), rolled by the seed. Player 0 bids
//! first.
//!
//! # Action
//! A bid `bid Q F` ("at least Q dice among all show face F"; also `Q x F`
//! or `Q Fs`), which must beat the last bid: a higher quantity, or the same
//! quantity of a higher face. Or `liar` (also `call`) to challenge the last
//! bid. Text naming two moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Your own dice, the bids so far, and the legal moves. Never the
//! opponent's dice until the challenge reveals them.
//!
//! # Reward
//! At a challenge all dice are shown; sixes are wild and count as any face.
//! If at least Q dice show F the bidder wins, otherwise the challenger.
//! +1 to the winner, −1 to the loser (zero-sum). `passed` means a win.
//! Breakdown: `win`.
//!
//! # Episode end
//! The first challenge. Bids only rise, so a round has at most
//! 6 × (all dice) bids and one challenge; after the top bid the only legal
//! move is `liar` (the round never ends by itself, so a player who stops
//! answering forfeits rather than wins).
//!
//! # Parameters
//! `dice` per player (1–5). Presets `easy` (1 die each), `medium` (2),
//! `hard` (4).
//!
//! # Seeding
//! The seed rolls the dice.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{pick, win_loss};
use crate::rng::Rng;

const FACES: u32 = 6;
const MAX_DICE: usize = 5;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LiarsDiceConfig {
    pub dice: usize,
}

impl Default for LiarsDiceConfig {
    fn default() -> Self {
        LiarsDiceConfig { dice: 2 }
    }
}

/// Each player's dice, faces 1–6.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiarsDiceTask {
    pub dice: [Vec<u32>; 2],
}

/// A bid "at least `quantity` dice show `face`".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bid {
    pub quantity: u32,
    pub face: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Bid(Bid),
    Liar,
}

#[derive(Clone, Debug)]
pub struct LiarsDice {
    dice: [Vec<u32>; 2],
    bids: Vec<Bid>,
    challenged: bool,
}

fn bid_text(b: Bid) -> String {
    format!("bid {} {}", b.quantity, b.face)
}

/// Dice among `dice` that count for `face` (sixes are wild).
fn matching(dice: &[u32], face: u32) -> u32 {
    dice.iter().filter(|&&d| d == face || d == FACES).count() as u32
}

/// P(at least `need` successes in `n` trials of probability `p`).
fn at_least(need: i64, n: u32, p: f64) -> f64 {
    if need <= 0 {
        return 1.0;
    }
    let mut total = 0.0;
    let mut choose = 1.0;
    for k in 0..=n {
        if i64::from(k) >= need {
            total += choose * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32);
        }
        choose = choose * f64::from(n - k) / f64::from(k + 1);
    }
    total
}

impl LiarsDice {
    fn total_dice(&self) -> u32 {
        (self.dice[0].len() + self.dice[1].len()) as u32
    }

    fn to_move(&self) -> Player {
        self.bids.len() % 2
    }

    fn over(&self) -> bool {
        self.challenged
    }

    fn legal(&self) -> Vec<Move> {
        if self.over() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = Vec::new();
        for quantity in 1..=self.total_dice() {
            for face in 1..=FACES {
                let bid = Bid { quantity, face };
                if self.bids.last().is_none_or(|last| bid > *last) {
                    moves.push(Move::Bid(bid));
                }
            }
        }
        if !self.bids.is_empty() {
            moves.push(Move::Liar);
        }
        moves
    }

    /// Whether the last bid is true of all the dice.
    fn last_bid_holds(&self) -> bool {
        self.bids.last().is_some_and(|b| {
            matching(&self.dice[0], b.face) + matching(&self.dice[1], b.face) >= b.quantity
        })
    }

    fn winner(&self) -> Option<Player> {
        if !self.over() {
            return None;
        }
        let bidder = (self.bids.len() - 1) % 2;
        Some(if self.last_bid_holds() {
            bidder
        } else {
            1 - bidder
        })
    }

    /// Probability, from `player`'s view, that `bid` is true.
    fn chance_true(&self, player: Player, bid: Bid) -> f64 {
        let mine = matching(&self.dice[player], bid.face);
        let unknown = self.dice[1 - player].len() as u32;
        let p = if bid.face == FACES {
            1.0 / 6.0
        } else {
            2.0 / 6.0
        };
        at_least(i64::from(bid.quantity) - i64::from(mine), unknown, p)
    }

    /// Challenges a bid that is more likely false than the best raise is
    /// true; otherwise makes the lowest raise most likely to be true.
    fn scripted_move(&self, player: Player) -> Option<Move> {
        let legal = self.legal();
        let best_raise = legal
            .iter()
            .filter_map(|m| match m {
                Move::Bid(b) => Some((self.chance_true(player, *b), *b)),
                Move::Liar => None,
            })
            .fold(None::<(f64, Bid)>, |best, (p, b)| match best {
                Some((bp, _)) if bp >= p - 1e-12 => best,
                _ => Some((p, b)),
            });
        let doubt = self.bids.last().map(|b| 1.0 - self.chance_true(player, *b));
        match (best_raise, doubt) {
            (Some((p, b)), Some(d)) if p >= d => Some(Move::Bid(b)),
            (Some((_, b)), None) => Some(Move::Bid(b)),
            (_, Some(_)) => Some(Move::Liar),
            (None, None) => None,
        }
    }
}

fn move_text(m: Move) -> String {
    match m {
        Move::Bid(b) => bid_text(b),
        Move::Liar => "liar".to_string(),
    }
}

fn dice_text(dice: &[u32]) -> String {
    dice.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Env for LiarsDice {
    type Config = LiarsDiceConfig;
    type Task = LiarsDiceTask;
    type Action = Move;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/liars-dice-v1",
        kind: EnvKind::Game,
        description: "Two-player Liar's dice, one round, sixes wild; probability-based scripted oracle",
        players: 2,
        max_steps: 2 * MAX_DICE * FACES as usize + 1,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"dice": 1}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"dice": 4}"#,
            },
        ],
    };

    fn validate(config: &LiarsDiceConfig) -> Result<(), ConfigError> {
        if (1..=MAX_DICE).contains(&config.dice) {
            Ok(())
        } else {
            Err(format!("dice must be in 1..={MAX_DICE}, got {}", config.dice).into())
        }
    }

    fn generate(config: &LiarsDiceConfig, rng: &mut Rng) -> LiarsDiceTask {
        let mut roll = || {
            let mut dice: Vec<u32> = (0..config.dice)
                .map(|_| rng.range_i64(1, 6) as u32)
                .collect();
            dice.sort_unstable();
            dice
        };
        LiarsDiceTask {
            dice: [roll(), roll()],
        }
    }

    fn reset(task: &LiarsDiceTask, _rng: Rng) -> Self {
        LiarsDice {
            dice: task.dice.clone(),
            bids: Vec::new(),
            challenged: false,
        }
    }

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn observe(&self, player: Player) -> Observation {
        let bids: Vec<String> = self
            .bids
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let who = if i % 2 == player { "you" } else { "opponent" };
                format!("{who}: {} x {}", b.quantity, b.face)
            })
            .collect();
        let legal: Vec<String> = if self.to_move() == player && !self.over() {
            self.legal().into_iter().map(move_text).collect()
        } else {
            Vec::new()
        };
        let status = match self.winner() {
            Some(w) => format!(
                "Round over: the last bid was challenged. Opponent's dice: {}. {}",
                dice_text(&self.dice[1 - player]),
                if w == player { "You win." } else { "You lose." }
            ),
            None if self.to_move() == player => format!(
                "Your move: a higher bid like `{}`, or `liar` to challenge the last bid.",
                self.legal()
                    .first()
                    .map_or_else(String::new, |m| move_text(*m))
            ),
            None => "Waiting for the opponent.".to_string(),
        };
        Observation {
            text: format!(
                "Liar's dice. Each player has {} hidden six-sided dice; sixes are wild. Bid `bid Q F` to claim at \
                 least Q dice among all {} show face F; each bid must raise the quantity, or keep it and raise the \
                 face. Say `liar` to challenge: if the claim holds the bidder wins, else the challenger.\n\
                 You are player {player}. Your dice: {}.\nBids: {}.\n{status}",
                self.dice[player].len(),
                self.total_dice(),
                dice_text(&self.dice[player]),
                if bids.is_empty() {
                    "none".to_string()
                } else {
                    bids.join(", ")
                },
            ),
            structured: json!({
                "you": player,
                "dice": self.dice[player],
                "bids": self.bids.iter().map(|b| [b.quantity, b.face]).collect::<Vec<_>>(),
                "opponent_dice": if self.over() { json!(self.dice[1 - player]) } else { json!(null) },
            }),
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        let mut phrases = vec![
            ("liar".to_string(), Move::Liar),
            ("call".to_string(), Move::Liar),
        ];
        for quantity in 1..=self.total_dice() {
            for face in 1..=FACES {
                let m = Move::Bid(Bid { quantity, face });
                phrases.push((format!("bid {quantity} {face}"), m));
                phrases.push((format!("{quantity} x {face}"), m));
                phrases.push((format!("{quantity} {face}s"), m));
            }
        }
        pick(
            text,
            phrases.iter().map(|(p, m)| (p.as_str(), *m)),
            "reply `bid Q F` or `liar`",
        )
    }

    fn apply(&mut self, _player: Player, m: Move) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&m) {
            return Err(InvalidAction::new(match m {
                Move::Liar => "there is no bid to challenge yet".to_string(),
                Move::Bid(b) => format!("{} does not beat the last bid", bid_text(b)),
            }));
        }
        match m {
            Move::Bid(b) => self.bids.push(b),
            Move::Liar => self.challenged = true,
        }
        Ok(match self.winner() {
            Some(w) => vec![format!("player {w} wins")],
            None => Vec::new(),
        })
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player)
    }

    /// Calls "liar" when the bid needs more of its face than the player's
    /// own dice plus a third of the hidden ones; otherwise bids the lowest
    /// legal quantity of its own most common face (or calls if none fits).
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let hidden = self.dice[1 - player].len() as u32;
        if let Some(last) = self.bids.last()
            && last.quantity > matching(&self.dice[player], last.face) + hidden / 3
        {
            return Some(move_text(Move::Liar));
        }
        let face = (1..=FACES)
            .max_by_key(|&f| (matching(&self.dice[player], f), f))
            .unwrap_or(FACES);
        let raise = self
            .legal()
            .into_iter()
            .find(|m| matches!(m, Move::Bid(b) if b.face == face));
        Some(move_text(raise.unwrap_or(Move::Liar)))
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        self.scripted_move(player).map(move_text)
    }

    fn render(&self) -> String {
        let bids: Vec<String> = self
            .bids
            .iter()
            .map(|b| format!("{}x{}", b.quantity, b.face))
            .collect();
        format!(
            "[{}] [{}] {}{}",
            dice_text(&self.dice[0]),
            dice_text(&self.dice[1]),
            bids.join(" "),
            if self.challenged { " liar" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a: &[u32], b: &[u32]) -> LiarsDice {
        LiarsDice::reset(
            &LiarsDiceTask {
                dice: [a.to_vec(), b.to_vec()],
            },
            Rng::from_seed(0),
        )
    }

    fn play(g: &mut LiarsDice, moves: &[&str]) {
        for m in moves {
            let p = g.to_move();
            let mv = g.parse_action(p, m).unwrap();
            g.apply(p, mv).unwrap();
        }
    }

    #[test]
    fn challenges_count_wild_sixes() {
        let mut g = game(&[2, 6], &[2, 5]);
        play(&mut g, &["bid 3 2", "liar"]);
        assert_eq!(g.winner(), Some(0), "2, 6 (wild) and 2 make three 2s");
        assert_eq!(g.render(), "[2 6] [2 5] 3x2 liar");
        let mut g = game(&[2, 6], &[2, 5]);
        play(&mut g, &["bid 2 5", "3 x 5", "call"]);
        assert_eq!(g.winner(), Some(0), "only two dice count for 5");
        assert_eq!(g.score(1).reward, -1.0);
        let mut g = game(&[6], &[6]);
        play(&mut g, &["bid 2 6"]);
        assert_eq!(
            g.turn(),
            Turn::Player(1),
            "the top bid must still be challenged"
        );
        assert_eq!(g.legal(), vec![Move::Liar]);
        play(&mut g, &["liar"]);
        assert_eq!(g.winner(), Some(0));
    }

    #[test]
    fn bids_must_rise_and_hedges_are_refused() {
        let mut g = game(&[1, 3], &[4, 4]);
        assert!(g.apply(0, Move::Liar).is_err(), "nothing to challenge");
        play(&mut g, &["bid 2 4"]);
        assert!(
            g.apply(
                1,
                Move::Bid(Bid {
                    quantity: 2,
                    face: 3
                })
            )
            .is_err()
        );
        assert!(
            g.apply(
                1,
                Move::Bid(Bid {
                    quantity: 2,
                    face: 4
                })
            )
            .is_err()
        );
        assert!(g.parse_action(1, "bid 3 4 or liar").is_err());
        assert_eq!(
            g.parse_action(1, "I say 3 5s"),
            Ok(Move::Bid(Bid {
                quantity: 3,
                face: 5
            }))
        );
        assert!(
            g.parse_action(1, "bid 5 4").is_err(),
            "more dice than exist"
        );
    }

    #[test]
    fn observations_hide_the_opponent_dice_until_the_challenge() {
        let mut g = game(&[1, 3], &[4, 5]);
        play(&mut g, &["bid 1 4"]);
        assert_eq!(
            g.observe(1).text,
            "Liar's dice. Each player has 2 hidden six-sided dice; sixes are wild. Bid `bid Q F` to claim at least \
             Q dice among all 4 show face F; each bid must raise the quantity, or keep it and raise the face. Say \
             `liar` to challenge: if the claim holds the bidder wins, else the challenger.\nYou are player 1. Your \
             dice: 4 5.\nBids: opponent: 1 x 4.\nYour move: a higher bid like `bid 1 5`, or `liar` to challenge the \
             last bid."
        );
        let before = g.observe(0);
        assert!(!before.text.contains("4 5"));
        assert_eq!(before.structured["opponent_dice"], json!(null));
        play(&mut g, &["liar"]);
        assert!(g.observe(0).text.contains("Opponent's dice: 4 5. You win."));
    }

    #[test]
    fn the_scripted_oracle_beats_random_play() {
        let mut wins = 0;
        let games = 400;
        for seed in 0..games {
            let mut rng = Rng::from_seed(seed);
            let task = LiarsDice::generate(&LiarsDiceConfig::default(), &mut rng);
            let mut g = LiarsDice::reset(&task, Rng::from_seed(0));
            let oracle_seat = (seed % 2) as usize;
            while !g.over() {
                let p = g.to_move();
                let text = if p == oracle_seat {
                    g.oracle(p).unwrap()
                } else {
                    g.random_action(p, &mut rng)
                };
                let mv = g.parse_action(p, &text).unwrap();
                g.apply(p, mv).unwrap();
            }
            wins += u32::from(g.winner() == Some(oracle_seat));
        }
        eprintln!("liar's dice: oracle won {wins}/{games} against random");
        assert!(
            wins * 100 >= 80 * games as u32,
            "oracle won only {wins}/{games}"
        );
    }
}
