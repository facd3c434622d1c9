//! `games/crazy-eights-v1` (2 players), `games/crazy-eights-3p-v1` and
//! `games/crazy-eights-4p-v1`: crazy eights with hidden hands, OpenSpiel's
//! rules without special cards.
//!
//! # Task
//! A deal: a dealer drawn at random, 7 cards each with two players (5 with
//! three or four) from one 52-card deck, and a first face-up card (an 8 is
//! put back and another turned). The player after the dealer moves first;
//! play goes round the table in seat order.
//!
//! # Action
//! `play 7H` (cards are rank then suit: 2–9, `T` or `10`, `J`, `Q`, `K`,
//! `A`, then `C`, `D`, `H`, `S`; also `7H` alone, `7 of hearts`,
//! `queen of spades`), `draw`, `pass`, and after an 8 `name hearts` (also
//! `name H`, `suit hearts`). A card must match the top
//! card's rank or the suit to match; an 8 is wild and is followed, as its
//! own move, by naming the suit. A player may draw up to `max_draw_cards`
//! cards a turn, one move each, and may pass only after that many draws or
//! with an empty draw pile. Text naming two moves is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! The rules, the seat's own hand, the top card and the suit to match, how
//! many cards every player holds, the draw pile's size, cards played so
//! far, the last public moves and, for the mover, the legal moves. Never
//! another seat's cards: only counts (at the end, only their penalties).
//!
//! # Reward
//! At the end each player is charged for the cards left in hand: 50 per 8,
//! 10 per J, Q, K, and with `scoring` `standard` 1 per ace and the pip value
//! for 2–10, or with `openspiel` OpenSpiel 2.0.2's charge (10 per ace, and
//! the card's index `rank*4 + suit` plus 2 for 2–10). Reward = −penalty /
//! the most a hand can cost, in [−1, 0]; 0 until the end. `passed` means
//! the lowest penalty alone (emptying the hand first always is).
//! Breakdown: `penalty`, `win`.
//!
//! # Episode end
//! A player empties their hand, `max_turns` cards have been played, or
//! every player and then the next passes in turn with an empty draw pile
//! (players + 1 passes in a row). Without `reshuffle` an episode stays
//! well under the step cap of 2000; with it, endless drawing is cut there.
//!
//! # Parameters
//! `max_draw_cards` (1–10, default 5), `max_turns` (10–200, default 100),
//! `reshuffle` (refill an empty pile from the discards, default false),
//! `scoring` (`standard`, the default, or `openspiel`). Difficulty is the
//! game's length: `LEVELS` raise `max_turns` (30 to 200); presets `easy`
//! (30), `medium` (100), `hard` (200).
//!
//! # Seeding
//! The task's seed deals; the episode's seed draws every later card, so a
//! card replays exactly.
//!
//! # Version history
//! v1: first version.

pub mod players;
pub mod reads;
pub mod rules;
#[cfg(test)]
mod tests;
mod text;

use serde::{Deserialize, Serialize};

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::rng::Rng;
use reads::Reads;
use rules::{MAX_PLAYERS, Move, Rules, Scoring, Table, card_name, cards_of, parse_card};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CrazyEightsConfig {
    pub max_draw_cards: u32,
    pub max_turns: u32,
    pub reshuffle: bool,
    pub scoring: Scoring,
}

impl Default for CrazyEightsConfig {
    fn default() -> Self {
        CrazyEightsConfig {
            max_draw_cards: 5,
            max_turns: 100,
            reshuffle: false,
            scoring: Scoring::Standard,
        }
    }
}

/// A deal and the table rules it is played with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrazyEightsTask {
    pub max_draw_cards: u32,
    pub max_turns: u32,
    pub reshuffle: bool,
    pub scoring: Scoring,
    pub dealer: usize,
    /// Each seat's cards, as `7H`.
    pub hands: Vec<Vec<String>>,
    pub top: String,
}

/// A game of crazy eights for `N` players (2 to 4).
#[derive(Clone, Debug)]
pub struct CrazyEights<const N: usize> {
    table: Table,
    /// Draws every card taken from the pile.
    rng: Rng,
    /// Public moves so far, as `player 1 plays 7H`.
    log: Vec<String>,
    /// What those moves tell about each hand (the oracle deals by it).
    reads: Reads,
}

/// Step cap: without reshuffling a game has at most 52 draws, 52 passes
/// with cards in the pile, 200 plays, 200 suits named and 5 × 201 passes
/// with an empty pile (fewer than 1510 moves).
const MAX_STEPS: usize = 2000;

/// Longer games: more cards played before the cap.
const LEVELS: &[&str] = &[
    r#"{"max_turns": 30}"#,
    r#"{"max_turns": 60}"#,
    "{}",
    r#"{"max_turns": 150}"#,
    r#"{"max_turns": 200}"#,
];

/// What the three tables share.
const BASE: EnvSpec = EnvSpec {
    id: "",
    kind: EnvKind::Game,
    description: "",
    players: 2,
    max_steps: MAX_STEPS,
    reward_range: (-1.0, 0.0),
    zero_sum: false,
    fixed_start: false,
    presets: &Preset::graded(LEVELS, [0, 2, 4]),
};

/// The 2-, 3- and 4-seat tables: the seat count is part of an env's spec.
const SPECS: [EnvSpec; 3] = [
    EnvSpec {
        id: "games/crazy-eights-v1",
        description: "Crazy eights, 2 players, hidden hands, 8s wild (OpenSpiel's rules); Monte-Carlo oracle",
        players: 2,
        ..BASE
    },
    EnvSpec {
        id: "games/crazy-eights-3p-v1",
        description: "Crazy eights, 3 players, hidden hands, 8s wild (OpenSpiel's rules); Monte-Carlo oracle",
        players: 3,
        ..BASE
    },
    EnvSpec {
        id: "games/crazy-eights-4p-v1",
        description: "Crazy eights, 4 players, hidden hands, 8s wild (OpenSpiel's rules); Monte-Carlo oracle",
        players: 4,
        ..BASE
    },
];

impl<const N: usize> CrazyEights<N> {
    pub fn table(&self) -> &Table {
        &self.table
    }

    fn rules(task: &CrazyEightsTask) -> Rules {
        Rules {
            players: N,
            max_draw: task.max_draw_cards,
            max_turns: task.max_turns,
            reshuffle: task.reshuffle,
            scoring: task.scoring,
        }
    }

    fn check(&self, player: Player, mv: Move) -> Result<(), InvalidAction> {
        let t = &self.table;
        if t.over {
            return Err("the game is over".into());
        }
        if player != t.mover {
            return Err(format!("it is player {}'s turn", t.mover).into());
        }
        if t.is_legal(mv) {
            return Ok(());
        }
        let max = t.rules.max_draw;
        Err(match mv {
            _ if t.naming => {
                "you played an 8: name the suit to match, e.g. `name hearts`".to_string()
            }
            Move::Name(_) => "name a suit only right after playing an 8".to_string(),
            Move::Play(c) if t.hands[player] >> c & 1 == 0 => {
                format!("you do not hold {}", card_name(c))
            }
            Move::Play(c) => format!(
                "{} matches neither the rank of {} nor the suit to match ({})",
                card_name(c),
                card_name(t.top),
                rules::SUIT_NAMES[t.suit as usize]
            ),
            Move::Draw if t.deck == 0 => "the draw pile is empty".to_string(),
            Move::Draw => format!("you have drawn {max} cards this turn: play or pass"),
            Move::Pass => {
                format!("you may pass only after drawing {max} cards or with an empty pile")
            }
        }
        .into())
    }
}

impl<const N: usize> Env for CrazyEights<N> {
    type Config = CrazyEightsConfig;
    type Task = CrazyEightsTask;
    type Action = Move;

    const SPEC: EnvSpec = SPECS[N - 2];
    const LEVELS: &'static [&'static str] = LEVELS;

    fn effort(task: &CrazyEightsTask) -> Option<f64> {
        Some(f64::from(task.max_turns))
    }

    fn validate(config: &CrazyEightsConfig) -> Result<(), ConfigError> {
        if !(1..=10).contains(&config.max_draw_cards) {
            return Err(format!(
                "max_draw_cards must be in 1..=10, got {}",
                config.max_draw_cards
            )
            .into());
        }
        if !(10..=200).contains(&config.max_turns) {
            return Err(format!("max_turns must be in 10..=200, got {}", config.max_turns).into());
        }
        Ok(())
    }

    fn generate(config: &CrazyEightsConfig, rng: &mut Rng) -> CrazyEightsTask {
        let rules = Rules {
            players: N,
            max_draw: config.max_draw_cards,
            max_turns: config.max_turns,
            reshuffle: config.reshuffle,
            scoring: config.scoring,
        };
        let t = Table::deal(rules, rng);
        CrazyEightsTask {
            max_draw_cards: config.max_draw_cards,
            max_turns: config.max_turns,
            reshuffle: config.reshuffle,
            scoring: config.scoring,
            dealer: t.dealer,
            hands: (0..N)
                .map(|p| cards_of(t.hands[p]).map(card_name).collect())
                .collect(),
            top: card_name(t.top),
        }
    }

    fn reset(task: &CrazyEightsTask, rng: Rng) -> Self {
        // A card file's hands are read leniently: unreadable names and
        // seats past the table's are dropped (the deal stays consistent).
        let top = parse_card(&task.top).unwrap_or(0);
        let mut hands = [0u64; MAX_PLAYERS];
        let mut used = 1u64 << top;
        for (hand, names) in hands.iter_mut().zip(task.hands.iter().take(N)) {
            for c in names.iter().filter_map(|n| parse_card(n)) {
                if used >> c & 1 == 0 {
                    *hand |= 1 << c;
                    used |= 1 << c;
                }
            }
        }
        let table = Table::from_deal(Self::rules(task), task.dealer % N, hands, top);
        CrazyEights {
            reads: Reads::new(&table),
            table,
            rng,
            log: Vec::new(),
        }
    }

    fn turn(&self) -> Turn {
        if self.table.over {
            Turn::Over
        } else {
            Turn::Player(self.table.mover)
        }
    }

    fn observe(&self, player: Player) -> Observation {
        text::observe(&self.table, &self.log, player)
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Move, InvalidAction> {
        text::parse(text)
    }

    fn apply(&mut self, player: Player, mv: Move) -> Result<Vec<String>, InvalidAction> {
        self.check(player, mv)?;
        self.reads.note(&self.table, mv);
        self.table.apply(mv, &mut self.rng);
        let what = match mv {
            Move::Play(c) => format!("plays {}", card_name(c)),
            Move::Draw => "draws a card".to_string(),
            Move::Pass => "passes".to_string(),
            Move::Name(s) => format!("names {}", rules::SUIT_NAMES[s as usize]),
        };
        let mut events = vec![format!("player {player} {what}")];
        self.log.push(events[0].clone());
        if self.table.over {
            events.push(match self.table.winner() {
                Some(w) => format!("player {w} wins"),
                None => "no single winner".to_string(),
            });
        }
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        let t = &self.table;
        if !t.over {
            return Score::default();
        }
        let penalty = t.penalty(player);
        let won = t.winner() == Some(player);
        Score::default()
            .with(
                -f64::from(penalty) / f64::from(t.rules.scoring.max_penalty()),
                won,
            )
            .part("penalty", f64::from(penalty))
            .part("win", f64::from(u8::from(won)))
    }

    fn heuristic(&self, player: Player, rng: &mut Rng) -> Option<String> {
        (!self.table.over && self.table.mover == player)
            .then(|| text::move_text(players::heuristic(&self.table, rng)))
    }

    fn oracle(&self, player: Player) -> Option<String> {
        (!self.table.over && self.table.mover == player)
            .then(|| text::move_text(players::oracle(&self.table, &self.reads)))
    }

    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        let legal = if self.table.mover == player {
            self.table.legal()
        } else {
            Vec::new()
        };
        rng.choose(&legal)
            .map_or_else(|| "pass".to_string(), |m| text::move_text(*m))
    }

    fn render(&self) -> String {
        text::render(&self.table)
    }
}
