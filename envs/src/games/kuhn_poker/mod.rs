//! `games/kuhn-poker-v1`: Kuhn poker, the three-card toy poker game.
//!
//! # Task
//! One deal per hand from the deck J < Q < K: each player gets one card and
//! the third stays hidden. The deals are in the task, so a card replays
//! them. In a match of several hands the first actor alternates, starting
//! with player 0.
//!
//! # Action
//! `check` or `bet` when no bet is pending, `call` or `fold` when facing a
//! bet (`pass` means check or fold). One word; text naming two actions is
//! refused.
//! Each turn is read out of the whole reply by `crate::reply`: reasoning is
//! dropped, then the reply as it is, the text after an `Action:`, `Move:` or
//! `Command:` marker, a fenced block, or the last line; two different
//! actions in one turn are refused as a hedge.
//!
//! # Observation
//! Your card, this hand's actions and pot, earlier hands (the opponent's
//! card only where a showdown revealed it), and your chip total. Never the
//! opponent's unrevealed card.
//!
//! # Reward
//! Standard rules: both ante 1 chip, a bet or call adds 1. A fold loses the
//! folder's chips in the pot; at a showdown the higher card takes the pot.
//! The reward is the net chips won per hand (in −2..=2, zero-sum); `passed`
//! means a positive total. Breakdown: `chips` (net total).
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

use std::fmt::Write;

use serde_json::json;

use crate::core::{Env, EnvKind, EnvSpec, InvalidAction, Observation, Player, Score, Turn};
use crate::error::ConfigError;
use crate::games::cfr::{Policy, Tree};
use crate::games::common::pick;
use crate::games::poker::{self, Act, MAX_HANDS, MatchConfig, MatchTask};
use crate::rng::Rng;

const CARD_NAMES: [&str; 3] = ["J", "Q", "K"];

/// `hands` (1–1000, default 1).
pub type KuhnConfig = MatchConfig;

/// Cards per hand, `deals[h][p]` for player `p` (0 = J, 1 = Q, 2 = K),
/// and the seed of the oracle's coin flips, so a card replays those too
/// (one hand has only six deals, so the deal alone is not a fingerprint).
pub type KuhnTask = MatchTask<[u8; 2]>;

/// A finished hand: the chips player 0 won, and whether cards were shown.
#[derive(Clone, Debug, PartialEq)]
struct HandResult {
    won_by_p0: i32,
    showdown: bool,
    actions: Vec<Act>,
}

#[derive(Clone, Debug)]
pub struct KuhnPoker {
    deals: Vec<[u8; 2]>,
    history: Vec<Act>,
    results: Vec<HandResult>,
    /// Drives the oracle's mixed strategy.
    oracle_seed: u64,
    /// The observation's first line, rendered once per episode.
    rules: String,
}

impl KuhnPoker {
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
        (self.first_actor() + self.history.len()) % 2
    }

    fn facing_bet(&self) -> bool {
        self.history.last() == Some(&Act::Bet)
    }

    /// The information set's short name for policy files: the player's card
    /// and the betting so far, one letter per action (`K:` first to act
    /// with the king, `J:cb` holding the jack facing a bet after a check).
    pub fn policy_key(&self, player: Player) -> String {
        let history: String = self.history.iter().map(|a| a.letter()).collect();
        let card = self.deals.get(self.hand()).map_or(0, |d| d[player]);
        format!("{}:{history}", CARD_NAMES[card as usize])
    }

    fn legal(&self) -> Vec<Act> {
        if self.over() {
            Vec::new()
        } else if self.facing_bet() {
            vec![Act::Fold, Act::Call]
        } else {
            vec![Act::Check, Act::Bet]
        }
    }

    /// Chips each player has put in the current pot.
    fn contributions(&self) -> [i32; 2] {
        let mut put = [1, 1];
        for (i, act) in self.history.iter().enumerate() {
            if matches!(act, Act::Bet | Act::Call) {
                put[(self.first_actor() + i) % 2] += 1;
            }
        }
        put
    }

    /// Settles the hand if the last action ended it.
    fn settle(&mut self) {
        let h = &self.history;
        let ended = matches!(
            h.as_slice(),
            [Act::Check, Act::Check] | [.., Act::Call] | [.., Act::Fold]
        );
        if !ended {
            return;
        }
        let put = self.contributions();
        let deal = self.deals[self.hand()];
        let (winner, showdown) = match h.last() {
            Some(Act::Fold) => (1 - self.to_move_before_last(), false),
            _ => (usize::from(deal[1] > deal[0]), true),
        };
        self.results.push(HandResult {
            won_by_p0: poker::won_by_p0(Some(winner), put),
            showdown,
            actions: std::mem::take(&mut self.history),
        });
    }

    fn to_move_before_last(&self) -> Player {
        (self.first_actor() + self.history.len() - 1) % 2
    }

    fn chips(&self, player: Player) -> i32 {
        poker::for_seat(self.results.iter().map(|r| r.won_by_p0).sum(), player)
    }

    /// The α = 0 member of Kuhn poker's Nash equilibrium family, as
    /// probabilities over `legal()`: the first actor always checks, calls a
    /// bet with K, with Q one time in three, never with J; the second
    /// actor bets K always and J one time in three after a check, and
    /// calls with K always, Q one time in three.
    fn equilibrium(&self) -> Vec<f64> {
        let card = self.deals[self.hand()][self.to_move()];
        let third = 1.0 / 3.0;
        let bet_or_call = match (self.history.as_slice(), card) {
            ([], _) => 0.0,
            ([Act::Check, Act::Bet], 0) => 0.0,
            ([Act::Check, Act::Bet], 1) => third,
            ([Act::Check, Act::Bet], _) => 1.0,
            ([Act::Check], 0) => third,
            ([Act::Check], 1) => 0.0,
            ([Act::Check], _) => 1.0,
            ([Act::Bet], 0) => 0.0,
            ([Act::Bet], 1) => third,
            _ => 1.0,
        };
        vec![1.0 - bet_or_call, bet_or_call]
    }

    /// Appends one finished hand's line, as its player saw it. Written
    /// straight into the observation (no temporary strings): rendering is
    /// most of a step's cost in random self-play.
    fn describe_hand(&self, out: &mut String, h: usize, r: &HandResult, player: Player) {
        let first = h % 2;
        let _ = write!(out, "hand {}: ", h + 1);
        poker::write_actions(out, &r.actions, first, player);
        let deal = self.deals[h];
        if r.showdown {
            let _ = write!(
                out,
                "; showdown: you {}, opponent {}",
                CARD_NAMES[deal[player] as usize],
                CARD_NAMES[deal[1 - player] as usize]
            );
        } else {
            let _ = write!(out, "; you held {}", CARD_NAMES[deal[player] as usize]);
        }
        let mine = poker::for_seat(r.won_by_p0, player);
        let _ = write!(
            out,
            "; you {} {}",
            if mine > 0 { "won" } else { "lost" },
            mine.abs()
        );
    }
}

impl Env for KuhnPoker {
    type Config = KuhnConfig;
    type Task = KuhnTask;
    type Action = Act;

    const SPEC: EnvSpec = EnvSpec {
        id: "games/kuhn-poker-v1",
        kind: EnvKind::Game,
        description: "Kuhn poker (J/Q/K, ante 1, bet 1), one hand or a match; Nash-equilibrium oracle",
        players: 2,
        max_steps: 3 * MAX_HANDS,
        reward_range: (-2.0, 2.0),
        zero_sum: true,
        fixed_start: false,
        presets: poker::PRESETS,
    };

    const LEVELS: &'static [&'static str] = poker::LEVELS;

    /// Hands to play: each is a fresh set of decisions.
    fn effort(task: &KuhnTask) -> Option<f64> {
        task.effort()
    }

    fn validate(config: &KuhnConfig) -> Result<(), ConfigError> {
        poker::validate(config)
    }

    fn generate(config: &KuhnConfig, rng: &mut Rng) -> KuhnTask {
        KuhnTask::generate(config, rng, |rng| {
            let mut deck = [0u8, 1, 2];
            rng.shuffle(&mut deck);
            [deck[0], deck[1]]
        })
    }

    fn reset(task: &KuhnTask, _rng: Rng) -> Self {
        KuhnPoker {
            deals: task.deals.clone(),
            history: Vec::new(),
            results: Vec::new(),
            oracle_seed: task.oracle_seed,
            rules: format!(
                "Kuhn poker, {} hand{}. Deck: J < Q < K; each player antes 1 chip and gets one card. \
                 A bet or a call adds 1 chip. A fold loses the pot; otherwise the higher card wins it.\n",
                task.deals.len(),
                if task.deals.len() == 1 { "" } else { "s" }
            ),
        }
    }

    fn turn(&self) -> Turn {
        poker::turn(self.over(), self.to_move())
    }

    fn observe(&self, player: Player) -> Observation {
        let mut text = String::with_capacity(512);
        text.push_str(&self.rules);
        for (h, r) in self.results.iter().enumerate() {
            self.describe_hand(&mut text, h, r, player);
            text.push('\n');
        }
        let mine = self.chips(player);
        let hand = self.hand();
        let structured;
        let mut legal_actions = Vec::new();
        if self.over() {
            poker::push_game_over(&mut text, mine);
            structured = json!({"you": player, "hand": hand, "chips": mine});
        } else {
            let card = CARD_NAMES[self.deals[hand][player] as usize];
            let _ = write!(
                text,
                "Hand {} of {}. {} first. Your card: {card}. Actions: ",
                hand + 1,
                self.deals.len(),
                poker::who_acts(self.first_actor(), player),
            );
            poker::write_actions(&mut text, &self.history, self.first_actor(), player);
            let put = self.contributions();
            let _ = writeln!(
                text,
                ". Pot: {} (you put in {}). Your net chips so far: {mine:+}.",
                put[0] + put[1],
                put[player],
            );
            legal_actions = poker::legal_for(self.legal(), self.to_move(), player)
                .iter()
                .map(|a| a.name().to_string())
                .collect();
            poker::push_prompt(&mut text, &legal_actions, " or ");
            let actions: Vec<&str> = self.history.iter().map(|a| a.name()).collect();
            structured = json!({
                "you": player,
                "hand": hand,
                "chips": mine,
                "card": card,
                "actions": actions,
                "to_move": self.to_move(),
            });
        }
        Observation {
            text,
            structured,
            legal_actions: Some(legal_actions),
        }
    }

    /// A uniform draw over `legal()`, as the default would make from the
    /// observation's list, without rendering the observation.
    fn random_action(&self, player: Player, rng: &mut Rng) -> String {
        poker::random_act(&poker::legal_for(self.legal(), self.to_move(), player), rng)
    }

    fn parse_action(&self, _player: Player, text: &str) -> Result<Act, InvalidAction> {
        let pass = if self.facing_bet() {
            Act::Fold
        } else {
            Act::Check
        };
        let options = [
            ("check", Act::Check),
            ("bet", Act::Bet),
            ("call", Act::Call),
            ("fold", Act::Fold),
            ("pass", pass),
        ];
        pick(text, options, "reply check, bet, call or fold")
    }

    fn apply(&mut self, _player: Player, act: Act) -> Result<Vec<String>, InvalidAction> {
        if !self.legal().contains(&act) {
            let why = if self.facing_bet() {
                "facing a bet: call or fold"
            } else {
                "no bet to answer: check or bet"
            };
            return Err(InvalidAction::new(format!(
                "cannot {} now, {why}",
                act.name()
            )));
        }
        self.history.push(act);
        let before = self.hand();
        self.settle();
        Ok(poker::hand_over(before, self.hand(), |h| {
            self.results[h].won_by_p0
        }))
    }

    fn score(&self, player: Player) -> Score {
        poker::match_score(self.chips(player), self.deals.len())
    }

    fn oracle(&self, player: Player) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let stamp = (self.hand() * 8 + self.history.len()) as u64;
        let choice = poker::draw(&self.equilibrium(), self.oracle_seed, stamp);
        Some(self.legal()[choice].name().to_string())
    }

    /// Bets and calls with the king, checks and calls with the queen,
    /// checks and folds with the jack: no bluffs, no mixing.
    fn heuristic(&self, player: Player, _rng: &mut Rng) -> Option<String> {
        if self.over() || self.to_move() != player {
            return None;
        }
        let card = self.deals[self.hand()][player];
        let act = match (card, self.facing_bet()) {
            (2, false) => Act::Bet,
            (_, false) => Act::Check,
            (0, true) => Act::Fold,
            (_, true) => Act::Call,
        };
        Some(act.name().to_string())
    }

    fn render(&self) -> String {
        let line = |d: [u8; 2], actions: &[Act]| {
            let acts: Vec<&str> = actions.iter().map(|a| a.name()).collect();
            format!(
                "{}{} {}",
                CARD_NAMES[d[0] as usize],
                CARD_NAMES[d[1] as usize],
                acts.join("-")
            )
        };
        let finished = (self.results.iter().enumerate())
            .map(|(h, r)| (line(self.deals[h], &r.actions), r.won_by_p0));
        let current = (!self.over()).then(|| line(self.deals[self.hand()], &self.history));
        poker::render_match(finished, current)
    }
}

/// Every deal of a one-hand game with its probability: the chance layer of
/// the game tree for [`Tree::build`].
pub fn one_hand_deals() -> Vec<(KuhnTask, f64)> {
    let mut deals = Vec::new();
    for a in 0..3u8 {
        for b in 0..3u8 {
            if a != b {
                deals.push((KuhnTask::one_hand([a, b]), 1.0 / 6.0));
            }
        }
    }
    deals
}

/// The exploitability (NashConv / 2, chips per hand) of a one-hand policy
/// keyed by [`KuhnPoker::policy_key`] ([`Tree::exploitability`] on
/// [`labelled_tree`]; information sets it lacks are played uniformly).
pub fn exploitability(policy: &Policy) -> f64 {
    labelled_tree().exploitability(policy)
}

/// The one-hand game tree with information sets named by
/// [`KuhnPoker::policy_key`], for policy files.
pub fn labelled_tree() -> Tree {
    Tree::build_labelled::<KuhnPoker>(&one_hand_deals(), KuhnPoker::policy_key)
}

#[cfg(test)]
mod tests;
