//! `games/heads-up-limit-holdem-v1`: heads-up limit Texas hold'em with the
//! ACPC rules (the Annual Computer Poker Competition's `holdem.limit.2p`
//! game, OpenSpiel's `hulh_game_string`).
//!
//! # Task
//! Per hand, a deal from a shuffled 52-card deck: two private cards each and
//! five board cards (three on the flop, one on the turn, one on the river).
//! The deals are in the task, so a card replays them. Player 0 is the big
//! blind in the first hand and the blinds alternate from hand to hand.
//!
//! # Action
//! `check` or `bet` when no bet is pending (before the flop the big blind,
//! whose blind is already a bet, may `check` or `raise` after a call);
//! `fold`, `call` or `raise` when facing a bet, `fold` or `call` once the
//! round's raises are capped. One word; text naming two actions is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Your two cards, the board cards dealt so far, each round's betting, the
//! pot and the amount to call, earlier hands (the opponent's cards only
//! where a showdown showed them) and your chip total. Never the opponent's
//! unrevealed cards or an undealt board card.
//!
//! # Reward
//! Blinds are 5 (small) and 10 (big). The small blind acts first before the
//! flop, the big blind first after it. Bets and raises are 10 chips before
//! the turn and 20 on the turn and river; at most 3 raises before the flop
//! (the big blind not counted: a cap of 40) and 4 bets or raises in each
//! later round (stacks never bind: at most 240 go in). A fold loses what
//! the folder put in; at the showdown the best five-card hand out of each
//! player's seven cards wins the pot, equal hands split it. The reward is
//! net chips per hand (−240..=240, zero-sum); `passed` means a positive
//! total after at least one decision of your own (a one-hand walk, the
//! small blind folding before the big blind acts, wins 5 chips but no
//! pass). Breakdown: `chips`.
//!
//! # Episode end
//! After the configured number of hands.
//!
//! # Parameters
//! `hands` (1–1000, default 1). Presets `standard` (one hand) and `match`
//! (ten hands); on the difficulty scale (`LEVELS`, by hands) `easy` is one
//! hand, `medium` three, `hard` ten.
//!
//! # Seeding
//! The seed picks the deals and the oracle's Monte-Carlo samples, both in
//! the task.
//!
//! # Version history
//! v1: first version.

pub mod eval;

use std::fmt::Write as _;

use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::poker::{self, Act, MAX_HANDS, MatchConfig, MatchTask};
use crate::rng::{Rng, splitmix64};

/// Bet and raise size per round (preflop, flop, turn, river).
const BET_SIZE: [i32; 4] = [10, 10, 20, 20];
/// Most bets and raises per round; the big blind does not count (ACPC
/// `maxRaises = 3 4 4 4`).
const MAX_RAISES: [usize; 4] = [3, 4, 4, 4];
const SMALL_BLIND: i32 = 5;
const BIG_BLIND: i32 = 10;
/// Board cards visible in each round.
const BOARD_SHOWN: [usize; 4] = [0, 3, 4, 5];
const ROUND_NAMES: [&str; 4] = ["preflop", "flop", "turn", "river"];
/// Monte-Carlo deals per oracle decision.
const ORACLE_SAMPLES: usize = 200;

/// `hands` (1–1000, default 1).
pub type HoldemConfig = MatchConfig;

/// One hand's cards: player 0's two, player 1's two, then the five board
/// cards in the order they are dealt. A card is `4 * rank + suit`
/// ([`eval::name`]).
pub type Deal = [u8; 9];

/// Per hand the deal; and the seed of the oracle's Monte-Carlo samples.
pub type HoldemTask = MatchTask<Deal>;

#[derive(Clone, Debug, PartialEq)]
struct HandResult {
    won_by_p0: i32,
    showdown: bool,
    /// The last round reached (board cards shown up to it).
    round: usize,
    rounds: [Vec<Act>; 4],
}

#[derive(Clone, Debug)]
pub struct HeadsUpLimitHoldem {
    deals: Vec<Deal>,
    round: usize,
    rounds: [Vec<Act>; 4],
    put: [i32; 2],
    results: Vec<HandResult>,
    /// Decisions each seat has made, for `passed`.
    acted: [usize; 2],
    oracle_seed: u64,
}

fn hole(deal: &Deal, player: Player) -> [u8; 2] {
    [deal[2 * player], deal[2 * player + 1]]
}

/// The value of `player`'s best hand with the whole board.
fn showdown_value(deal: &Deal, player: Player) -> u32 {
    let mut cards = deal[4..].to_vec();
    cards.extend(hole(deal, player));
    eval::value(&cards)
}

mod rules;

#[cfg(test)]
mod tests;

/// The oracle's sampling seed for one decision: a pure function of the
/// task's oracle seed and the decision's place, so a task card replays it.
fn decision_seed(oracle_seed: u64, hand: usize, round: usize, ply: usize) -> u64 {
    oracle_seed ^ splitmix64((hand * 64 + round * 16 + ply) as u64)
}

/// A fresh deal per hand: the first nine cards of a shuffled deck.
fn random_deal(rng: &mut Rng) -> Deal {
    let mut deck: Vec<u8> = (0..52).collect();
    let mut deal = [0u8; 9];
    for (i, slot) in deal.iter_mut().enumerate() {
        let j = i + rng.below((52 - i) as u64) as usize;
        deck.swap(i, j);
        *slot = deck[i];
    }
    deal
}

impl Env for HeadsUpLimitHoldem {
    type Config = HoldemConfig;
    type Task = HoldemTask;
    type Action = Act;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/heads-up-limit-holdem-v1",
        kind: EnvKind::Game,
        description: "Heads-up limit Texas hold'em (ACPC rules, blinds 5/10), one hand or a match; Monte-Carlo equity oracle",
        players: 2,
        // At most 5 actions before the flop and 6 in each later round.
        max_steps: 23 * MAX_HANDS,
        reward_range: (-240.0, 240.0),
        zero_sum: true,
        fixed_start: false,
        presets: poker::PRESETS,
    };

    const LEVELS: &'static [&'static str] = poker::LEVELS;

    /// Hands to play: each is a fresh set of decisions.
    fn effort(task: &HoldemTask) -> Option<f64> {
        task.effort()
    }

    fn validate(config: &HoldemConfig) -> Result<(), ConfigError> {
        poker::validate(config)
    }

    fn generate(config: &HoldemConfig, rng: &mut Rng) -> HoldemTask {
        HoldemTask::generate(config, rng, random_deal)
    }

    fn reset(task: &HoldemTask, _rng: Rng) -> Self {
        let mut game = HeadsUpLimitHoldem {
            deals: task.deals.clone(),
            round: 0,
            rounds: Default::default(),
            put: [0, 0],
            results: Vec::new(),
            acted: [0, 0],
            oracle_seed: task.oracle_seed,
        };
        game.put = game.blinds();
        game
    }

    fn turn(&self) -> Turn {
        poker::turn(self.over(), self.to_move())
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = poker::legal_for(self.legal(), self.to_move(), player)
            .iter()
            .map(|a| a.name().to_string())
            .collect();
        let hands = self.deals.len();
        let mut text = format!(
            "Heads-up limit Texas hold'em, {hands} hand{}. A 52-card deck; each player gets two private cards, \
             then three board cards (the flop), a fourth (the turn) and a fifth (the river), with a betting round \
             before the flop and after each deal. The small blind posts 5 chips and acts first before the flop; \
             the big blind posts 10 and acts first after it; the blinds alternate between hands. Bets and raises \
             are 10 chips before the turn and 20 on the turn and river, at most 3 raises before the flop and 4 bets \
             or raises in each later round. At the showdown the best five-card hand from your two cards and the \
             five board cards wins the pot; equal hands split it.\n",
            if hands == 1 { "" } else { "s" }
        );
        for (h, r) in self.results.iter().enumerate() {
            let deal = &self.deals[h];
            let cards = if r.showdown {
                let (mine, theirs) = (
                    showdown_value(deal, player),
                    showdown_value(deal, 1 - player),
                );
                format!(
                    "showdown: you {} ({}), opponent {} ({})",
                    eval::names(&hole(deal, player)),
                    eval::category(mine),
                    eval::names(&hole(deal, 1 - player)),
                    eval::category(theirs)
                )
            } else {
                format!("you held {}", eval::names(&hole(deal, player)))
            };
            let _ = write!(text, "hand {}: ", h + 1);
            Self::push_rounds(&mut text, deal, &r.rounds, r.round, h % 2, player);
            let mine = poker::for_seat(r.won_by_p0, player);
            let _ = writeln!(text, "; {cards}; you won {mine:+}");
        }
        let mine = self.chips(player);
        let mut structured = json!({"you": player, "hand": self.hand(), "chips": mine});
        if self.over() {
            poker::push_game_over(&mut text, mine);
        } else {
            let deal = self.deal();
            let cards = hole(deal, player);
            let board = &deal[4..4 + BOARD_SHOWN[self.round]];
            let blind = if self.big_blind() == player {
                "big"
            } else {
                "small"
            };
            let to_call = (self.put[1 - player] - self.put[player]).max(0);
            let _ = write!(
                text,
                "Hand {} of {hands}, {}. You are the {blind} blind. Your cards: ",
                self.hand() + 1,
                ROUND_NAMES[self.round],
            );
            eval::push_names(&mut text, &cards);
            text.push_str(". Board: ");
            if board.is_empty() {
                text.push_str("not dealt yet");
            }
            eval::push_names(&mut text, board);
            text.push_str(". Betting: ");
            Self::push_rounds(
                &mut text,
                deal,
                &self.rounds,
                self.round,
                self.big_blind(),
                player,
            );
            let _ = writeln!(
                text,
                ". Pot: {} (you put in {}); to call: {to_call}. Your net chips so far: {mine:+}.",
                self.put[0] + self.put[1],
                self.put[player],
            );
            poker::push_prompt(&mut text, &legal, ", ");
            let names = |cards: &[u8]| cards.iter().map(|&c| eval::name(c)).collect::<Vec<_>>();
            structured["cards"] = json!(names(&cards));
            structured["board"] = json!(names(board));
            structured["round"] = json!(ROUND_NAMES[self.round]);
            structured["blind"] = json!(blind);
            structured["pot"] = json!(self.put[0] + self.put[1]);
            structured["to_call"] = json!(to_call);
            structured["to_move"] = json!(self.to_move());
        }
        Observation {
            text,
            structured,
            legal_actions: Some(legal),
        }
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Act, InvalidAction> {
        poker::parse_act(text)
    }

    fn apply(&mut self, _player: Player, act: Act) -> Result<Vec<String>, InvalidAction> {
        poker::check_legal(act, &self.legal())?;
        let before = self.hand();
        self.play(act);
        Ok(poker::hand_over(before, self.hand(), |h| {
            self.results[h].won_by_p0
        }))
    }

    /// Net chips per hand; `passed` also needs a decision of the player's
    /// own: a walk (the small blind folding before the big blind acts) wins
    /// chips without a move.
    fn score(&self, player: Player) -> Score {
        let mut score = poker::match_score(self.chips(player), self.deals.len());
        score.passed &= self.acted[player] > 0;
        score
    }

    /// Plays by hand strength alone: before the flop, raises nines or a
    /// bigger pair, ace-jack or better and suited king-queen, checks or
    /// calls with any other pair, a ten or higher, suited or connected
    /// cards, and folds the rest to a bet; after it, raises two pair or
    /// better made with a hole card, checks or calls a pair made with one,
    /// otherwise checks or folds. No bluffs.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let act = poker::by_strength(self.strength(player).into(), &self.legal())?;
        Some(act.name().to_string())
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        Some(self.oracle_act(player).name().to_string())
    }

    /// What the default draws from the observation's legal list, without
    /// writing the observation (random play would be mostly that).
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        poker::random_act(&poker::legal_for(self.legal(), self.to_move(), player), rng)
    }

    fn render(&self) -> String {
        let line = |deal: &Deal, rounds: &[Vec<Act>; 4]| {
            let letters: Vec<String> = rounds
                .iter()
                .map(|acts| acts.iter().map(|a| a.letter()).collect())
                .collect();
            format!(
                "{}|{} {} {}",
                eval::names(&hole(deal, 0)).replace(' ', ""),
                eval::names(&hole(deal, 1)).replace(' ', ""),
                eval::names(&deal[4..]).replace(' ', ""),
                letters.join("/")
            )
        };
        let finished = (self.results.iter().enumerate())
            .map(|(h, r)| (line(&self.deals[h], &r.rounds), r.won_by_p0));
        let current = (!self.over()).then(|| line(self.deal(), &self.rounds));
        poker::render_match(finished, current)
    }
}
