//! `games/leduc-poker-v1`: Leduc hold'em, the two-round six-card poker game
//! of Southey et al. (2005), with the standard rules used by OpenSpiel.
//!
//! # Task
//! Per hand, a deal from the deck J J Q Q K K: one private card each and a
//! board card. The deals are in the task, so a card replays them. In a
//! match the first actor alternates, starting with player 0.
//!
//! # Action
//! `check` or `bet` when no bet is pending; `fold`, `call` or `raise` when
//! facing a bet (at most a bet and one raise per round); `fold` or `call`
//! when facing a raise. One word; text naming two actions is refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Your card, the board card once round 2 starts, both rounds' actions, the
//! pot, earlier hands (cards only where a showdown showed them) and your
//! chip total. Never the opponent's unrevealed card or an undealt board.
//!
//! # Reward
//! Both ante 1. Bets and raises are 2 chips in round 1 and 4 in round 2. A
//! fold loses what the folder put in; at the showdown a card pairing the
//! board wins, else the higher card, else the pot is split. The reward is
//! net chips per hand (−13..=13, zero-sum); `passed` means a positive total.
//! Breakdown: `chips`.
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
//! The seed picks the deals and the oracle's coin flips, both in the task.
//!
//! # Version history
//! v1: first version.

use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::cfr::{Policy, Tree};
use crate::games::poker::{self, Act, MAX_HANDS, MatchConfig, MatchTask};
use crate::rng::Rng;

const RANKS: [&str; 3] = ["J", "Q", "K"];
const DECK: usize = 6;
/// Bet and raise size in each round.
const BET_SIZE: [i32; 2] = [2, 4];

/// `hands` (1–1000, default 1).
pub type LeducConfig = MatchConfig;

/// Per hand `[player 0's card, player 1's card, board]`, cards `0..6` with
/// rank `card / 2` (J, Q, K); and the seed of the oracle's coin flips.
pub type LeducTask = MatchTask<[u8; 3]>;

#[derive(Clone, Debug, PartialEq)]
struct HandResult {
    won_by_p0: i32,
    showdown: bool,
    rounds: [Vec<Act>; 2],
}

#[derive(Clone, Debug)]
pub struct LeducPoker {
    deals: Vec<[u8; 3]>,
    round: usize,
    rounds: [Vec<Act>; 2],
    put: [i32; 2],
    results: Vec<HandResult>,
    oracle_seed: u64,
}

fn rank(card: u8) -> usize {
    usize::from(card / 2)
}

impl LeducPoker {
    fn hand(&self) -> usize {
        self.results.len()
    }

    fn over(&self) -> bool {
        self.hand() == self.deals.len()
    }

    fn first_actor(&self) -> Player {
        self.hand() % 2
    }

    fn to_move(&self) -> Player {
        (self.first_actor() + self.rounds[self.round].len()) % 2
    }

    fn legal(&self) -> Vec<Act> {
        if self.over() {
            return Vec::new();
        }
        match self.rounds[self.round].last() {
            Some(Act::Bet) => vec![Act::Fold, Act::Call, Act::Raise],
            Some(Act::Raise) => vec![Act::Fold, Act::Call],
            _ => vec![Act::Check, Act::Bet],
        }
    }

    fn card(&self, player: Player) -> u8 {
        self.deals[self.hand()][player]
    }

    fn play(&mut self, act: Act) {
        let p = self.to_move();
        poker::put_chips(&mut self.put, p, act, BET_SIZE[self.round]);
        self.rounds[self.round].push(act);
        let history = &self.rounds[self.round];
        let round_over = matches!(
            history.as_slice(),
            [Act::Check, Act::Check] | [.., Act::Call]
        );
        if act == Act::Fold {
            self.finish(Some(1 - p), false);
        } else if round_over && self.round == 0 {
            self.round = 1;
        } else if round_over {
            let deal = self.deals[self.hand()];
            let strength = |p: usize| {
                let pair = rank(deal[p]) == rank(deal[2]);
                (pair, rank(deal[p]))
            };
            self.finish(poker::showdown_winner(strength(0).cmp(&strength(1))), true);
        }
    }

    fn finish(&mut self, winner: Option<Player>, showdown: bool) {
        let rounds = std::mem::take(&mut self.rounds);
        self.results.push(HandResult {
            won_by_p0: poker::won_by_p0(winner, self.put),
            showdown,
            rounds,
        });
        self.round = 0;
        self.put = [1, 1];
    }

    fn chips(&self, player: Player) -> i32 {
        poker::for_seat(self.results.iter().map(|r| r.won_by_p0).sum(), player)
    }

    /// `round 1: you check, opponent bet; round 2: none`.
    fn describe_rounds(rounds: &[Vec<Act>; 2], first: Player, player: Player) -> String {
        let mut text = String::from("round 1: ");
        poker::write_actions(&mut text, &rounds[0], first, player);
        text.push_str("; round 2: ");
        poker::write_actions(&mut text, &rounds[1], first, player);
        text
    }

    /// The information-set key the oracle's table uses: own rank, board
    /// rank or `-`, and each round's action letters, from the first
    /// actor's point of view (`K-:cb` is a K facing a check-bet).
    fn policy_key(&self, player: Player) -> String {
        let board = if self.round == 1 {
            RANKS[rank(self.deals[self.hand()][2])]
        } else {
            "-"
        };
        let letters = |acts: &Vec<Act>| acts.iter().map(|a| a.letter()).collect::<String>();
        let mut key = format!(
            "{}{board}:{}",
            RANKS[rank(self.card(player))],
            letters(&self.rounds[0])
        );
        if self.round == 1 {
            key.push('/');
            key.push_str(&letters(&self.rounds[1]));
        }
        key
    }
}

impl Env for LeducPoker {
    type Config = LeducConfig;
    type Task = LeducTask;
    type Action = Act;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/leduc-poker-v1",
        kind: EnvKind::Game,
        description: "Leduc hold'em (JJQQKK, two betting rounds), one hand or a match; CFR-equilibrium oracle",
        players: 2,
        max_steps: 8 * MAX_HANDS,
        reward_range: (-13.0, 13.0),
        zero_sum: true,
        fixed_start: false,
        presets: poker::PRESETS,
    };

    const LEVELS: &'static [&'static str] = poker::LEVELS;

    /// Hands to play: each is a fresh set of decisions.
    fn effort(task: &LeducTask) -> Option<f64> {
        task.effort()
    }

    fn validate(config: &LeducConfig) -> Result<(), ConfigError> {
        poker::validate(config)
    }

    fn generate(config: &LeducConfig, rng: &mut Rng) -> LeducTask {
        LeducTask::generate(config, rng, |rng| {
            let mut deck: Vec<u8> = (0..DECK as u8).collect();
            rng.shuffle(&mut deck);
            [deck[0], deck[1], deck[2]]
        })
    }

    fn reset(task: &LeducTask, _rng: Rng) -> Self {
        LeducPoker {
            deals: task.deals.clone(),
            round: 0,
            rounds: Default::default(),
            put: [1, 1],
            results: Vec::new(),
            oracle_seed: task.oracle_seed,
        }
    }

    fn turn(&self) -> Turn {
        poker::turn(self.over(), self.to_move())
    }

    fn observe(&self, player: Player) -> Observation {
        let legal: Vec<String> = poker::legal_for(self.legal(), self.to_move(), player)
            .iter()
            .map(|a| a.name().to_string())
            .collect();
        let mut text = format!(
            "Leduc hold'em, {} hand{}. Deck: J J Q Q K K. Each player antes 1 chip and gets one private card; \
             after the first betting round a board card is shown. Bets and raises are 2 chips in round 1 and 4 in \
             round 2, at most a bet and a raise per round. A card pairing the board wins, else the higher card; \
             equal cards split the pot.\n",
            self.deals.len(),
            if self.deals.len() == 1 { "" } else { "s" }
        );
        for (h, r) in self.results.iter().enumerate() {
            let deal = self.deals[h];
            let cards = if r.showdown {
                format!(
                    "showdown: you {}, opponent {}, board {}",
                    RANKS[rank(deal[player])],
                    RANKS[rank(deal[1 - player])],
                    RANKS[rank(deal[2])]
                )
            } else {
                format!("you held {}", RANKS[rank(deal[player])])
            };
            text.push_str(&format!(
                "hand {}: {}; {cards}; you won {:+}\n",
                h + 1,
                Self::describe_rounds(&r.rounds, h % 2, player),
                poker::for_seat(r.won_by_p0, player)
            ));
        }
        let mine = self.chips(player);
        let mut structured = json!({"you": player, "hand": self.hand(), "chips": mine});
        if self.over() {
            poker::push_game_over(&mut text, mine);
        } else {
            let card = RANKS[rank(self.card(player))];
            let board = if self.round == 1 {
                RANKS[rank(self.deals[self.hand()][2])]
            } else {
                "not dealt yet"
            };
            text.push_str(&format!(
                "Hand {} of {}, round {}. {} first in each round. Your card: {card}. Board: {board}. \
                 Actions: {}. Pot: {} (you put in {}). Your net chips so far: {mine:+}.\n",
                self.hand() + 1,
                self.deals.len(),
                self.round + 1,
                poker::who_acts(self.first_actor(), player),
                Self::describe_rounds(&self.rounds, self.first_actor(), player),
                self.put[0] + self.put[1],
                self.put[player],
            ));
            poker::push_prompt(&mut text, &legal, ", ");
            structured["card"] = json!(card);
            structured["board"] = if self.round == 1 {
                json!(board)
            } else {
                json!(null)
            };
            structured["round"] = json!(self.round + 1);
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

    fn score(&self, player: Player) -> Score {
        poker::match_score(self.chips(player), self.deals.len())
    }

    /// Plays by hand strength alone: before the board, raises with a king,
    /// calls with a queen, folds a jack to a bet; after it, raises with a
    /// pair, calls with a king, otherwise checks or folds. No bluffs.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let mine = rank(self.card(player));
        let strength = if self.round == 0 {
            mine
        } else if mine == rank(self.deals[self.hand()][2]) {
            2
        } else {
            usize::from(mine == 2)
        };
        let act = poker::by_strength(strength, &self.legal())?;
        Some(act.name().to_string())
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let probs = oracle_policy::probabilities(&self.policy_key(player), self.legal().len());
        let stamp = (self.hand() * 16 + self.round * 8 + self.rounds[self.round].len()) as u64;
        let choice = poker::draw(&probs, self.oracle_seed, stamp);
        Some(self.legal()[choice].name().to_string())
    }

    fn render(&self) -> String {
        let line = |deal: [u8; 3], rounds: &[Vec<Act>; 2]| {
            let letters = |acts: &Vec<Act>| acts.iter().map(|a| a.letter()).collect::<String>();
            let cards: String = deal.iter().map(|&c| RANKS[rank(c)]).collect();
            format!("{cards} {}/{}", letters(&rounds[0]), letters(&rounds[1]))
        };
        let finished = (self.results.iter().enumerate())
            .map(|(h, r)| (line(self.deals[h], &r.rounds), r.won_by_p0));
        let current = (!self.over()).then(|| line(self.deals[self.hand()], &self.rounds));
        poker::render_match(finished, current)
    }
}

mod oracle_policy {
    /// Equilibrium probabilities per legal action for a policy key, from the
    /// table computed by CFR (uniform for keys it lacks, which the tests
    /// rule out).
    pub fn probabilities(key: &str, actions: usize) -> Vec<f64> {
        super::POLICY_TABLE
            .lines()
            .find_map(|line| {
                let (k, probs) = line.split_once(' ')?;
                (k == key).then(|| {
                    probs
                        .split(',')
                        .map(|p| p.parse::<f64>().unwrap_or(0.0))
                        .collect::<Vec<_>>()
                })
            })
            .filter(|probs| probs.len() == actions)
            .unwrap_or_else(|| vec![1.0 / actions as f64; actions])
    }
}

/// `key p1,p2[,p3]` per information set: the average strategy of 20,000
/// CFR+ iterations on this implementation's tree (exploitability 0.002
/// chips; regenerate with the ignored test `print_policy_table`).
const POLICY_TABLE: &str = include_str!("policy.txt");

/// Every deal of a one-hand game with its probability: the chance layer of
/// the game tree for [`Tree::build`].
pub fn one_hand_deals() -> Vec<(LeducTask, f64)> {
    let mut deals = Vec::new();
    for a in 0..DECK as u8 {
        for b in 0..DECK as u8 {
            for c in 0..DECK as u8 {
                if a != b && b != c && a != c {
                    deals.push((LeducTask::one_hand([a, b, c]), 1.0 / 120.0));
                }
            }
        }
    }
    deals
}

/// The exploitability (NashConv / 2, chips per hand) of a one-hand policy
/// keyed as the oracle's table is ([`Tree::exploitability`] on
/// [`labelled_tree`]; information sets it lacks are played uniformly).
pub fn exploitability(policy: &Policy) -> f64 {
    labelled_tree().exploitability(policy)
}

/// The one-hand game tree with information sets named as in the oracle's
/// table (`K-:cb`: card, board or `-`, then each round's betting), for
/// policy files.
pub fn labelled_tree() -> Tree {
    Tree::build_labelled::<LeducPoker>(&one_hand_deals(), LeducPoker::policy_key)
}

#[cfg(test)]
mod tests;
