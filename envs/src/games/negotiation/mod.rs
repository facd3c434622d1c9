//! `games/negotiation-v1`: a two-player resource trade with private
//! valuations (the "simple negotiation" game used for LLM self-play).
//!
//! # Task
//! Each player's inventory of a few resources (public) and how much each
//! unit is worth to them (private), drawn by the seed.
//!
//! # Action
//! One of:
//! - `offer give 2 wood 1 stone for 3 grain`: propose a trade (you give the
//!   first list, receive the second). It replaces any pending offer.
//! - `accept`: take the opponent's pending offer (the trade happens now).
//! - `reject` (or `pass`): decline / do nothing.
//!
//! Quantities are whole numbers; filler words (`and`, `of`, `units`) are
//! allowed; text with two commands (`accept or reject`) is refused, and so
//! is an offer of goods the giver does not hold.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Both inventories, your own unit values, the pending offer, the history
//! and the turns left. Never the opponent's values.
//!
//! # Reward
//! Each player's gain is the value of their final inventory minus that of
//! their initial one, by their own values. The larger gain wins: +1 to the
//! winner, −1 to the other, 0 each on equal gains (zero-sum). `passed`
//! means a win. Breakdown: `win`/`draw`, `gain`.
//!
//! # Episode end
//! After the configured number of turns (one action each).
//!
//! # Parameters
//! `resources` (2–5), `turns` (2–20). Presets `easy` (3 resources, 6
//! turns), `medium` (3, 10), `hard` (5, 14).
//!
//! # Seeding
//! The seed draws inventories and values.
//!
//! # Version history
//! v1: first version.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::{win_loss, words};
use crate::rng::Rng;

const RESOURCES: [&str; 5] = ["wood", "stone", "grain", "wool", "ore"];
const MAX_TURNS: usize = 20;
const FILLER: [&str; 13] = [
    "and", "of", "unit", "units", "my", "your", "x", "with", "i", "you", "me", "will", "the",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NegotiationConfig {
    pub resources: usize,
    pub turns: usize,
}

impl Default for NegotiationConfig {
    fn default() -> Self {
        NegotiationConfig {
            resources: 3,
            turns: 10,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NegotiationTask {
    pub inventories: [Vec<u32>; 2],
    pub values: [Vec<u32>; 2],
    pub turns: usize,
}

/// Goods moving from the proposer (`give`) and to them (`get`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub give: Vec<u32>,
    pub get: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    Offer(Offer),
    Accept,
    Reject,
}

#[derive(Clone, Debug)]
pub struct Negotiation {
    task: NegotiationTask,
    inventories: [Vec<u32>; 2],
    pending: Option<(Player, Offer)>,
    log: Vec<String>,
    turns_done: usize,
}

fn goods_text(goods: &[u32]) -> String {
    let parts: Vec<String> = goods
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(r, n)| format!("{n} {}", RESOURCES[r]))
        .collect();
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join(" ")
    }
}

fn offer_text(o: &Offer) -> String {
    format!(
        "offer give {} for {}",
        goods_text(&o.give),
        goods_text(&o.get)
    )
}

impl Negotiation {
    fn kinds(&self) -> usize {
        self.task.values[0].len()
    }

    fn to_move(&self) -> Player {
        self.turns_done % 2
    }

    fn over(&self) -> bool {
        self.turns_done >= self.task.turns
    }

    fn worth(&self, player: Player, inventory: &[u32]) -> i64 {
        inventory
            .iter()
            .zip(&self.task.values[player])
            .map(|(n, v)| i64::from(n * v))
            .sum()
    }

    fn gain(&self, player: Player) -> i64 {
        self.worth(player, &self.inventories[player])
            - self.worth(player, &self.task.inventories[player])
    }

    fn winner(&self) -> Option<Player> {
        let (a, b) = (self.gain(0), self.gain(1));
        (self.over() && a != b).then_some(usize::from(b > a))
    }

    fn holds(&self, player: Player, goods: &[u32]) -> bool {
        goods
            .iter()
            .zip(&self.inventories[player])
            .all(|(want, have)| want <= have)
    }

    /// The change in `player`'s value if `offer` from `proposer` is done.
    fn value_of(&self, player: Player, proposer: Player, offer: &Offer) -> i64 {
        let v = &self.task.values[player];
        let (inn, out) = if player == proposer {
            (&offer.get, &offer.give)
        } else {
            (&offer.give, &offer.get)
        };
        inn.iter()
            .zip(v)
            .map(|(n, v)| i64::from(n * v))
            .sum::<i64>()
            - out
                .iter()
                .zip(v)
                .map(|(n, v)| i64::from(n * v))
                .sum::<i64>()
    }

    fn parse_goods(&self, tokens: &[String]) -> Result<Vec<u32>, InvalidAction> {
        let mut goods = vec![0; self.kinds()];
        let mut pending: Option<u32> = None;
        for t in tokens {
            if let Ok(n) = t.parse::<u32>() {
                if pending.is_some() || n == 0 || n > 99 {
                    return Err(InvalidAction::new(
                        "write each good as a quantity 1-99 then a resource name",
                    ));
                }
                pending = Some(n);
            } else if let Some(r) =
                (0..self.kinds()).find(|&r| t == RESOURCES[r] || *t == format!("{}s", RESOURCES[r]))
            {
                let n = pending.take().unwrap_or(1);
                goods[r] += n;
            } else if !FILLER.contains(&t.as_str()) {
                return Err(InvalidAction::new(format!(
                    "unknown word `{t}` in the offer; resources are {}",
                    RESOURCES[..self.kinds()].join(", ")
                )));
            }
        }
        if pending.is_some() {
            return Err(InvalidAction::new("a quantity without a resource"));
        }
        Ok(goods)
    }

    /// Accepts offers worth at least 2 to it; otherwise offers one unit of
    /// its least valued resource for one unit of the opponent's resource it
    /// values most, when that gains it something; otherwise passes.
    fn scripted(&self, player: Player) -> Deal {
        if let Some((proposer, offer)) = &self.pending
            && *proposer != player
            && self.holds(player, &offer.get)
            && self.value_of(player, *proposer, offer) >= 2
        {
            return Deal::Accept;
        }
        let v = &self.task.values[player];
        let mine = (0..self.kinds())
            .filter(|&r| self.inventories[player][r] > 0)
            .min_by_key(|&r| v[r]);
        let theirs = (0..self.kinds())
            .filter(|&r| self.inventories[1 - player][r] > 0)
            .max_by_key(|&r| v[r]);
        match (mine, theirs) {
            (Some(a), Some(b)) if v[b] > v[a] => {
                let mut give = vec![0; self.kinds()];
                let mut get = vec![0; self.kinds()];
                give[a] = 1;
                get[b] = 1;
                Deal::Offer(Offer { give, get })
            }
            _ => Deal::Reject,
        }
    }
}

fn deal_text(d: &Deal) -> String {
    match d {
        Deal::Offer(o) => offer_text(o),
        Deal::Accept => "accept".to_string(),
        Deal::Reject => "reject".to_string(),
    }
}

impl Env for Negotiation {
    type Config = NegotiationConfig;
    type Task = NegotiationTask;
    type Action = Deal;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/negotiation-v1",
        kind: EnvKind::Game,
        description: "Resource trading with private valuations; the larger value gain wins; scripted trader oracle",
        players: 2,
        max_steps: MAX_TURNS,
        reward_range: (-1.0, 1.0),
        zero_sum: true,
        fixed_start: false,
        presets: &[
            Preset {
                name: "easy",
                overrides: r#"{"turns": 6}"#,
            },
            Preset {
                name: "medium",
                overrides: "{}",
            },
            Preset {
                name: "hard",
                overrides: r#"{"resources": 5, "turns": 14}"#,
            },
        ],
    };

    fn validate(config: &NegotiationConfig) -> Result<(), ConfigError> {
        if !(2..=RESOURCES.len()).contains(&config.resources) {
            return Err(format!(
                "resources must be in 2..={}, got {}",
                RESOURCES.len(),
                config.resources
            )
            .into());
        }
        if !(2..=MAX_TURNS).contains(&config.turns) {
            return Err(format!("turns must be in 2..={MAX_TURNS}, got {}", config.turns).into());
        }
        Ok(())
    }

    fn generate(config: &NegotiationConfig, rng: &mut Rng) -> NegotiationTask {
        let mut draw = |lo: i64, hi: i64| {
            (0..config.resources)
                .map(|_| rng.range_i64(lo, hi) as u32)
                .collect::<Vec<_>>()
        };
        let inventories = [draw(0, 6), draw(0, 6)];
        let values = [draw(1, 10), draw(1, 10)];
        NegotiationTask {
            inventories,
            values,
            turns: config.turns,
        }
    }

    fn reset(task: &NegotiationTask, _rng: Rng) -> Self {
        Negotiation {
            task: task.clone(),
            inventories: task.inventories.clone(),
            pending: None,
            log: Vec::new(),
            turns_done: 0,
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
        let names = &RESOURCES[..self.kinds()];
        let values: Vec<String> = names
            .iter()
            .zip(&self.task.values[player])
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let mut text = format!(
            "Negotiation. You and your opponent trade resources ({}). Each unit is worth something to you (your \
             values below, which the opponent does not see) and possibly something else to them. At the end, whoever \
             gained more value from their starting inventory, by their own values, wins. On your turn reply with \
             `offer give <goods> for <goods>` (like `offer give 2 {} for 1 {}`), `accept` (take the opponent's \
             pending offer) or `reject`.\nYou are player {player}. Your values per unit: {}.\nYour inventory: {}. \
             Opponent's inventory: {}.\nYour gain so far: {:+}.\n",
            names.join(", "),
            names[0],
            names[1],
            values.join(", "),
            goods_text(&self.inventories[player]),
            goods_text(&self.inventories[1 - player]),
            self.gain(player),
        );
        for (i, line) in self.log.iter().enumerate() {
            let who = if i % 2 == player { "you" } else { "opponent" };
            text.push_str(&format!("turn {}: {who}: {line}\n", i + 1));
        }
        let pending = self.pending.as_ref().map(|(proposer, o)| {
            if *proposer == player {
                format!(
                    "Your pending offer: you give {} for {}.",
                    goods_text(&o.give),
                    goods_text(&o.get)
                )
            } else {
                format!(
                    "Pending offer to you: you would give {} and get {}.",
                    goods_text(&o.get),
                    goods_text(&o.give)
                )
            }
        });
        let status = match (self.over(), self.winner()) {
            (true, Some(w)) if w == player => "Game over: you win.".to_string(),
            (true, Some(_)) => "Game over: you lose.".to_string(),
            (true, None) => "Game over: draw.".to_string(),
            (false, _) if self.to_move() == player => format!(
                "{}Your turn ({} turns left in the game).",
                pending.map(|p| p + " ").unwrap_or_default(),
                self.task.turns - self.turns_done
            ),
            (false, _) => "Waiting for the opponent.".to_string(),
        };
        text.push_str(&status);
        Observation {
            text,
            structured: json!({
                "you": player,
                "resources": names,
                "your_values": self.task.values[player],
                "your_inventory": self.inventories[player],
                "opponent_inventory": self.inventories[1 - player],
                "pending": self.pending.as_ref().map(|(p, o)| json!({"from": p, "give": o.give, "get": o.get})),
                "turns_left": self.task.turns - self.turns_done.min(self.task.turns),
            }),
            legal_actions: None,
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Deal, InvalidAction> {
        let tokens = words(text);
        let commands: Vec<&String> = tokens
            .iter()
            .filter(|t| ["offer", "accept", "reject", "pass"].contains(&t.as_str()))
            .collect();
        fn distinct(a: &str) -> &str {
            if a == "pass" { "reject" } else { a }
        }
        let first = commands.first().map(|c| distinct(c));
        if commands.iter().any(|c| Some(distinct(c)) != first) {
            return Err(InvalidAction::new(
                "give exactly one command: offer, accept or reject",
            ));
        }
        match first {
            Some("accept") => Ok(Deal::Accept),
            Some("reject") => Ok(Deal::Reject),
            Some(_) => {
                let start = tokens
                    .iter()
                    .position(|t| t == "give")
                    .ok_or_else(|| InvalidAction::new("write `offer give <goods> for <goods>`"))?;
                let split = tokens
                    .iter()
                    .skip(start)
                    .position(|t| t == "for")
                    .map(|f| start + f)
                    .ok_or_else(|| InvalidAction::new("write `offer give <goods> for <goods>`"))?;
                let give = self.parse_goods(&tokens[start + 1..split])?;
                let get = self.parse_goods(&tokens[split + 1..])?;
                if give.iter().all(|&n| n == 0) || get.iter().all(|&n| n == 0) {
                    return Err(InvalidAction::new(
                        "an offer must give something and ask for something",
                    ));
                }
                Ok(Deal::Offer(Offer { give, get }))
            }
            None => Err(InvalidAction::new(
                "reply `offer give <goods> for <goods>`, `accept` or `reject`",
            )),
        }
    }

    fn apply(&mut self, player: Player, deal: Deal) -> Result<Vec<String>, InvalidAction> {
        let mut events = Vec::new();
        match &deal {
            Deal::Offer(o) => {
                if !self.holds(player, &o.give) {
                    return Err(InvalidAction::new(format!(
                        "you do not hold {}",
                        goods_text(&o.give)
                    )));
                }
                if !self.holds(1 - player, &o.get) {
                    return Err(InvalidAction::new(format!(
                        "the opponent does not hold {}",
                        goods_text(&o.get)
                    )));
                }
                self.pending = Some((player, o.clone()));
            }
            Deal::Accept => {
                let Some((proposer, o)) = self.pending.clone().filter(|(p, _)| *p != player) else {
                    return Err(InvalidAction::new(
                        "there is no offer from the opponent to accept",
                    ));
                };
                if !self.holds(player, &o.get) || !self.holds(proposer, &o.give) {
                    return Err(InvalidAction::new("the offered goods are no longer held"));
                }
                for r in 0..self.kinds() {
                    self.inventories[proposer][r] =
                        self.inventories[proposer][r] - o.give[r] + o.get[r];
                    self.inventories[player][r] =
                        self.inventories[player][r] + o.give[r] - o.get[r];
                }
                self.pending = None;
                events.push("trade done".to_string());
            }
            Deal::Reject => self.pending = self.pending.take().filter(|(p, _)| *p == player),
        }
        self.log.push(deal_text(&deal));
        self.turns_done += 1;
        Ok(events)
    }

    fn score(&self, player: Player) -> Score {
        win_loss(self.winner(), self.over(), player).part("gain", self.gain(player) as f64)
    }

    fn oracle(&self, player: Player) -> Option<String> {
        (!self.over() && self.to_move() == player).then(|| deal_text(&self.scripted(player)))
    }

    /// Accepts any pending offer that gains it something; otherwise plays
    /// as the random baseline does (it never plans a trade of its own).
    fn heuristic(&self, player: Player, rng: &mut Rng) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        if let Some((proposer, offer)) = &self.pending
            && *proposer != player
            && self.value_of(player, *proposer, offer) > 0
        {
            return Some("accept".to_string());
        }
        Some(self.random_action(player, rng))
    }

    /// Accepts a pending offer a third of the time, else offers one random
    /// held unit for one random unit the opponent holds, else rejects.
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        if self.pending.as_ref().is_some_and(|(p, _)| *p != player) && rng.below(3) == 0 {
            return "accept".to_string();
        }
        let held = |p: Player| {
            (0..self.kinds())
                .filter(|&r| self.inventories[p][r] > 0)
                .collect::<Vec<_>>()
        };
        match (
            rng.choose(&held(player)).copied(),
            rng.choose(&held(1 - player)).copied(),
        ) {
            (Some(a), Some(b)) if a != b && rng.below(2) == 0 => {
                format!("offer give 1 {} for 1 {}", RESOURCES[a], RESOURCES[b])
            }
            _ => "reject".to_string(),
        }
    }

    fn render(&self) -> String {
        format!(
            "[{}] [{}] gains {:+} {:+}",
            goods_text(&self.inventories[0]),
            goods_text(&self.inventories[1]),
            self.gain(0),
            self.gain(1)
        )
    }
}

#[cfg(test)]
mod tests;
