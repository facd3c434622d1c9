//! What Kuhn, Leduc and heads-up limit hold'em poker share: a match of
//! `hands` hands (config, presets, difficulty scale, the task's deals), the
//! betting actions and their bookkeeping (chips in the pot, who won what),
//! the observation's common phrases, and the oracle's seeded draws from its
//! mixed strategy.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::core::{InvalidAction, Player, Preset, Score, Turn};
use crate::error::ConfigError;
use crate::games::common::pick;
use crate::rng::{Rng, SEED_MASK, splitmix64};

/// Most hands in one match.
pub const MAX_HANDS: usize = 1000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatchConfig {
    pub hands: usize,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig { hands: 1 }
    }
}

/// `standard` (one hand) and `match` (ten), and the difficulty scale's
/// named points.
pub const PRESETS: &[Preset] = &Preset::graded_after::<5>(
    &[
        Preset {
            name: "standard",
            overrides: "{}",
        },
        Preset {
            name: "match",
            overrides: r#"{"hands": 10}"#,
        },
    ],
    LEVELS,
    [0, 1, 2],
);

/// Hands in the match, fewest first: each hand is a fresh set of decisions.
pub const LEVELS: &[&str] = &["{}", r#"{"hands": 3}"#, r#"{"hands": 10}"#];

/// # Errors
/// `hands` outside `1..=MAX_HANDS`.
pub fn validate(config: &MatchConfig) -> Result<(), ConfigError> {
    if (1..=MAX_HANDS).contains(&config.hands) {
        Ok(())
    } else {
        Err(format!("hands must be in 1..={MAX_HANDS}, got {}", config.hands).into())
    }
}

/// A player's score for a match: net chips per hand, `passed` when ahead.
pub fn match_score(chips: i32, hands: usize) -> Score {
    Score::default()
        .with(f64::from(chips) / hands as f64, chips > 0)
        .part("chips", f64::from(chips))
}

/// A match's cards: one deal `D` per hand, and the seed of the oracle's
/// random choices, so a task card replays those too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchTask<D> {
    pub deals: Vec<D>,
    pub oracle_seed: u64,
}

impl<D> MatchTask<D> {
    /// `config.hands` deals from `deal`, then the oracle's seed.
    pub fn generate(
        config: &MatchConfig,
        rng: &mut Rng,
        mut deal: impl FnMut(&mut Rng) -> D,
    ) -> Self {
        let deals = (0..config.hands).map(|_| deal(rng)).collect();
        MatchTask {
            deals,
            oracle_seed: rng.next_u64() & SEED_MASK,
        }
    }

    /// A one-hand match with `deal`, for the chance layer of a game tree.
    pub fn one_hand(deal: D) -> Self {
        MatchTask {
            deals: vec![deal],
            oracle_seed: 0,
        }
    }

    /// Hands to play: each is a fresh set of decisions.
    pub fn effort(&self) -> Option<f64> {
        Some(self.deals.len() as f64)
    }
}

/// A betting action (Kuhn poker has no raise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Check,
    Bet,
    Call,
    Raise,
    Fold,
}

impl Act {
    pub fn name(self) -> &'static str {
        match self {
            Act::Check => "check",
            Act::Bet => "bet",
            Act::Call => "call",
            Act::Raise => "raise",
            Act::Fold => "fold",
        }
    }

    /// The action's letter in policy keys (`c` is check or call; the
    /// position tells which).
    pub fn letter(self) -> char {
        self.name().as_bytes()[0] as char
    }
}

/// The oracle's draw from `probs` at the decision `stamp` names: a pure
/// function of the task's oracle seed, so a task card replays it.
pub fn draw(probs: &[f64], oracle_seed: u64, stamp: u64) -> usize {
    let u = (splitmix64(oracle_seed ^ splitmix64(stamp)) >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    probs
        .iter()
        .position(|p| {
            acc += p;
            u < acc
        })
        .unwrap_or(probs.len().saturating_sub(1))
}

/// The five words of a game with raises (`check`, `bet`, `call`, `raise`,
/// `fold`).
///
/// # Errors
/// No action word, or two different ones.
pub fn parse_act(text: &str) -> Result<Act, InvalidAction> {
    let options = [
        ("check", Act::Check),
        ("bet", Act::Bet),
        ("call", Act::Call),
        ("raise", Act::Raise),
        ("fold", Act::Fold),
    ];
    pick(
        text,
        options,
        "reply with one of check, bet, call, raise, fold",
    )
}

/// # Errors
/// `act` is not in `legal`; the message lists what is.
pub fn check_legal(act: Act, legal: &[Act]) -> Result<(), InvalidAction> {
    if legal.contains(&act) {
        return Ok(());
    }
    let names: Vec<&str> = legal.iter().map(|a| a.name()).collect();
    Err(InvalidAction::new(format!(
        "cannot {} now; legal: {}",
        act.name(),
        names.join(", ")
    )))
}

/// The turn of a match: over once every hand is played.
pub fn turn(over: bool, to_move: Player) -> Turn {
    if over {
        Turn::Over
    } else {
        Turn::Player(to_move)
    }
}

/// The legal actions as `player` sees them: none unless it is their move.
pub fn legal_for(legal: Vec<Act>, to_move: Player, player: Player) -> Vec<Act> {
    if to_move == player { legal } else { Vec::new() }
}

/// What a uniform draw from the observation's legal list gives, without
/// rendering the observation: a number (refused) when `legal` is empty.
pub fn random_act(legal: &[Act], rng: &mut Rng) -> String {
    match legal.len() {
        0 => rng.range_i64(-20, 20).to_string(),
        n => legal[rng.below(n as u64) as usize].name().to_string(),
    }
}

/// Puts `act`'s chips in for seat `p`: a bet or raise goes `size` above the
/// opponent, a call matches them.
pub fn put_chips(put: &mut [i32; 2], p: Player, act: Act, size: i32) {
    match act {
        Act::Bet | Act::Raise => put[p] = put[1 - p] + size,
        Act::Call => put[p] = put[1 - p],
        Act::Check | Act::Fold => {}
    }
}

/// The showdown's winner from player 0's hand compared with player 1's;
/// `None` splits the pot.
pub fn showdown_winner(p0_against_p1: Ordering) -> Option<Player> {
    match p0_against_p1 {
        Ordering::Greater => Some(0),
        Ordering::Less => Some(1),
        Ordering::Equal => None,
    }
}

/// Player 0's net chips from a settled pot: the loser's contribution goes
/// to the winner, a split moves nothing.
pub fn won_by_p0(winner: Option<Player>, put: [i32; 2]) -> i32 {
    match winner {
        Some(0) => put[1],
        Some(_) => -put[0],
        None => 0,
    }
}

/// Player 0's winnings as `player` sees them (the game is zero-sum).
pub fn for_seat(won_by_p0: i32, player: Player) -> i32 {
    if player == 0 { won_by_p0 } else { -won_by_p0 }
}

/// A step's events: `hand N over: player 0 +X` when the hand that was
/// `before` has been settled (`finished` hands now).
pub fn hand_over(
    before: usize,
    finished: usize,
    won_by_p0: impl FnOnce(usize) -> i32,
) -> Vec<String> {
    if finished > before {
        vec![format!(
            "hand {} over: player 0 {:+}",
            before + 1,
            won_by_p0(before)
        )]
    } else {
        Vec::new()
    }
}

/// The heuristic's choice for a hand of `strength` (2 strong, 1 playable,
/// 0 weak): the first legal of raise or bet or call, check or call, check
/// or fold.
pub fn by_strength(strength: usize, legal: &[Act]) -> Option<Act> {
    let prefer: &[Act] = match strength {
        2 => &[Act::Raise, Act::Bet, Act::Call],
        1 => &[Act::Check, Act::Call],
        _ => &[Act::Check, Act::Fold],
    };
    prefer.iter().find(|a| legal.contains(*a)).copied()
}

/// `you check, opponent bet` (or `none`): a round's actions from `player`'s
/// seat, where `first` acted first. Written in place: an observation
/// carries one per hand, and random play is mostly observations.
pub fn write_actions(out: &mut String, actions: &[Act], first: Player, player: Player) {
    if actions.is_empty() {
        out.push_str("none");
    }
    for (i, a) in actions.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(if (first + i) % 2 == player {
            "you "
        } else {
            "opponent "
        });
        out.push_str(a.name());
    }
}

/// `You act` or `Your opponent acts`, for the hand's first actor.
pub fn who_acts(first: Player, player: Player) -> &'static str {
    if first == player {
        "You act"
    } else {
        "Your opponent acts"
    }
}

/// The observation's last line: the legal actions joined by `separator`
/// when it is `player`'s move, else that the opponent is to act.
pub fn push_prompt(text: &mut String, legal: &[String], separator: &str) {
    if legal.is_empty() {
        text.push_str("Waiting for the opponent.");
    } else {
        text.push_str("Your move: ");
        text.push_str(&legal.join(separator));
        text.push_str(". Reply with one word.");
    }
}

/// The observation's last line once the match is over.
pub fn push_game_over(text: &mut String, chips: i32) {
    text.push_str(&format!("Game over. Your net chips: {chips:+}."));
}

/// The match as text, one line per hand: each finished hand's line with
/// player 0's winnings, then the hand in play, if any.
pub fn render_match(
    finished: impl Iterator<Item = (String, i32)>,
    current: Option<String>,
) -> String {
    let mut out: Vec<String> = finished
        .map(|(line, won_by_p0)| format!("{line} {won_by_p0:+}"))
        .collect();
    out.extend(current);
    out.join("\n")
}
